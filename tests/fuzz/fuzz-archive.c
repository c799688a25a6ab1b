/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gathered dumps (probe --root ARCHIVE): libarchive's reading and our
 * checks of each entry (absolute names, "..", paths through symlinks,
 * devices, sizes). Whatever is unpacked stays inside its private
 * directory, which unpacked_root_close() removes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/tarball.h"
#include "tests/fuzz/fuzz.h"

static char path[] = "/tmp/ubtune-fuzz-archive.XXXXXX";

static void cleanup(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	if (fd < 0) {
		if ((fd = mkstemp(path)) < 0)
			abort();
		atexit(cleanup);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	struct unpacked_root u = { 0 };
	char *error = NULL;
	if (unpacked_root_open(path, &u, &error) > 0) {
		if (strncmp(u.root, u.tmp, strlen(u.tmp)) != 0)
			abort();
		unpacked_root_close(&u);
	}
	free(error);
	return 0;
}
