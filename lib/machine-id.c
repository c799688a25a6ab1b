/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ubtune's id of a machine, derived from its machine id. */
#include "machine-id.h"

#include <nettle/hmac.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ubtune's own id, the key material's other half: fixed for ever, or every
 * machine becomes another */
static const uint8_t app_id[16] = {
	0x1b, 0xf9, 0x20, 0xeb, 0x11, 0x35, 0x4d, 0x00, 0x8f, 0xa5, 0xe6, 0xbe, 0x52, 0x83, 0x18, 0x47,
};

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool machine_id_valid(const char *s)
{
	bool nonzero = false;
	size_t n = 0;
	for (; s[n]; n++) {
		if (hex_value(s[n]) < 0)
			return false;
		nonzero |= s[n] != '0';
	}
	return n == MACHINE_ID_LEN && nonzero;
}

void machine_id_derive(const char *raw, char out[MACHINE_ID_LEN + 1])
{
	uint8_t key[16], digest[SHA256_DIGEST_SIZE];
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(hex_value(raw[2 * i]) << 4 | hex_value(raw[2 * i + 1]));
	struct hmac_sha256_ctx ctx;
	hmac_sha256_set_key(&ctx, sizeof(key), key);
	hmac_sha256_update(&ctx, sizeof(app_id), app_id);
	hmac_sha256_digest(&ctx, sizeof(digest), digest);
	/* a version 4 UUID, as systemd makes it */
	digest[6] = (digest[6] & 0x0f) | 0x40;
	digest[8] = (digest[8] & 0x3f) | 0x80;
	for (size_t i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}
