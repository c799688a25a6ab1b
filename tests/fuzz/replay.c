/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs a harness once on each file given, or on each file below each
 * directory given, without libFuzzer: make check links the
 * harnesses with this against its sanitizer build, so the kept inputs of
 * tests/fuzz/ and the fixtures are replayed on every check.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "lib/util.h"
#include "tests/fuzz/fuzz.h"

static size_t replayed;

static int replay_file(const char *path)
{
	char *data = NULL;
	size_t len = 0;
	/* the size limit of make fuzz's -max_len, and then some */
	int r = read_file(path, 64 << 20, &data, &len);
	if (r < 0) {
		fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(-r));
		return r;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	free(data);
	replayed++;
	return 0;
}

static int replay_path(const char *path);

static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: cannot open %s: %m\n", dir);
		return -errno;
	}
	int ret = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		if (replay_path(p) < 0)
			ret = -EIO;
		free(p);
	}
	closedir(d);
	return ret;
}

/* a directory, a regular file, or something else (a link: left alone) */
static int replay_path(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %m\n", path);
		return -errno;
	}
	if (S_ISDIR(st.st_mode))
		return replay_dir(path);
	return S_ISREG(st.st_mode) ? replay_file(path) : 0;
}

int main(int argc, char **argv)
{
	int ret = 0;
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i]) < 0)
			ret = 1;
	printf("%s: %zu inputs\n", argv[0], replayed);
	return ret;
}
