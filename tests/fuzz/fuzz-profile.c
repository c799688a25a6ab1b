/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tuning profiles: the INI reader, every key's check, includes (of a file
 * beside it that includes this one back: a loop) and the match-* sections
 * against an environment record. The input is written to a private
 * directory as a.profile, with b.profile including it; the record is the
 * one of a fixture root.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/util.h"
#include "tune/profile.h"
#include "tests/fuzz/fuzz.h"

static char dir[] = "/tmp/ubtune-fuzz-profile.XXXXXX";
static char path[sizeof(dir) + 16];
static json_object *rec;

static void put(const char *name, const void *data, size_t size)
{
	char p[sizeof(dir) + 16];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) < 0)
		abort();
}

static void cleanup(void)
{
	char p[sizeof(dir) + 16];
	snprintf(p, sizeof(p), "%s/a.profile", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/b.profile", dir);
	unlink(p);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!rec) {
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
		snprintf(path, sizeof(path), "%s/a.profile", dir);
		static const char b[] = "[profile]\ninclude = a\n[cpu]\ngovernor = powersave\n";
		put("b.profile", b, sizeof(b) - 1);
		if (jload_file(SRCDIR "/tests/fixtures/expected/ft2000plus-64.json", 16 << 20, &rec) < 0)
			abort();
	}
	put("a.profile", data, size);
	for (int with_rec = 0; with_rec < 2; with_rec++) {
		struct profile *p = NULL;
		struct strv errors = { 0 };
		if (profile_load(path, with_rec ? rec : NULL, &p, &errors) == 0) {
			for (size_t i = 0; i < p->n_settings; i++)
				free(profile_origin(&p->settings[i]));
			profile_free(p);
		}
		strv_free(&errors);
	}
	return 0;
}
