/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "gunzip.h"

#include <errno.h>
#include <zlib.h>

#include "util.h"

int gunzip_mem(const void *in, size_t len, size_t max, char **out, size_t *out_len)
{
	z_stream z = {0};
	struct buf b = {0};
	unsigned char chunk[16384];
	int zr, r = -EBADMSG;

	if (len > UINT32_MAX)
		return -EFBIG;
	/* 15 window bits + 32: accept gzip and zlib headers alike */
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END)
			break;
		size_t n = sizeof(chunk) - z.avail_out;
		if (b.len + n > max) {
			r = -EFBIG;
			break;
		}
		buf_add(&b, (const char *)chunk, n);
	} while (zr == Z_OK && (z.avail_in > 0 || z.avail_out == 0));
	inflateEnd(&z);

	if (zr != Z_STREAM_END || r == -EFBIG) {
		buf_free(&b);
		return zr == Z_MEM_ERROR ? -ENOMEM : r;
	}
	if (out_len)
		*out_len = b.len;
	*out = buf_steal(&b);
	return 0;
}
