/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune-execl: the image Execl Throughput re-executes (see execl.c).
 *   ubtune-execl SECONDS                        the first image
 *   ubtune-execl 0 SECONDS COUNT START_NS PID   the next ones
 * A program of its own so that it links libc only, as UnixBench's execl
 * does; the array below gives it UnixBench's 8 KiB of bss. It reads its
 * state with sscanf, and execl.c writes it with sprintf, as UnixBench's
 * image does: what an image runs of the C library is part of what an exec
 * costs (a static image parsing with strtoull instead took about 2 page
 * faults fewer per exec, UnixBench's 59.7 against 58.8 dynamically linked).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

char execl_image_bss[8 * 1024];

static unsigned long long parse_state(const char *what, const char *arg)
{
	unsigned long long v;
	int end = 0;
	if (sscanf(arg, "%llu%n", &v, &end) != 1 || arg[end] || arg[0] == '-')
		wl_fail("re-executed image got a bad %s '%s'", what, arg);
	return v;
}

static int execl_image(int argc, char **argv)
{
	if (argc != 6 || strcmp(argv[1], "0") != 0)
		return execl_main(argc, argv);
	unsigned long count = parse_state("count", argv[3]);
	long long start = (long long)parse_state("start time", argv[4]);
	if (parse_state("pid", argv[5]) != (unsigned long long)getpid())
		wl_fail("image %lu runs as pid %d, not %s: exec did not replace the process", count + 1,
			(int)getpid(), argv[5]);
	return execl_next(wl_program, argv[2], count, start);
}

int main(int argc, char **argv)
{
	return wl_image_main(argc, argv, "execl", "SECONDS", execl_image);
}
