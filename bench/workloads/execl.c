/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execl SECONDS: Execl Throughput. The process replaces itself with a new
 * image again and again (execl, no fork) until SECONDS have passed since
 * the first image started; COUNT = images run, the first and the last
 * included.
 *
 * The image is ubtune-execl, the small program beside this one (built from
 * execl-image.c, this file and common.c): like UnixBench's execl it links
 * libc only and carries an 8 KiB bss array. An image that also maps libm,
 * as the multi-call program does, measured 66.6 page faults per exec
 * instead of 57.5 (UnixBench's execl: 58.2) and 15-20 % more CPU time.
 *
 * The state travels in the arguments of the next image:
 *   ubtune-execl 0 SECONDS COUNT START_NS PID
 * and each image checks it: the pid must stay the same (a real exec, not a
 * new process).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workloads.h"

#define IMAGE "ubtune-execl"

static long long monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned long long parse_state(const char *what, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end)
		wl_fail("re-executed image got a bad %s '%s'", what, arg);
	return v;
}

int execl_main(int argc, char **argv)
{
	char path[PATH_MAX];
	const char *seconds_arg;
	unsigned long count = 0;
	long long start;

	if (argc == 2) {
		seconds_arg = argv[1];
		wl_parse_seconds(seconds_arg);
		wl_sibling(IMAGE, path, sizeof(path));
		start = monotonic_ns();
	} else if (argc == 6 && strcmp(argv[1], "0") == 0) {
		seconds_arg = argv[2];
		count = parse_state("count", argv[3]);
		start = (long long)parse_state("start time", argv[4]);
		if (parse_state("pid", argv[5]) != (unsigned long long)getpid())
			wl_fail("image %lu runs as pid %d, not %s: exec did not replace the process",
				count + 1, (int)getpid(), argv[5]);
		snprintf(path, sizeof(path), "%s", wl_program);
	} else {
		wl_usage("expected one argument");
	}
	double seconds = wl_parse_seconds(seconds_arg);

	count++;
	if ((double)(monotonic_ns() - start) >= seconds * 1e9) {
		wl_report_count(count, 1, "lps");
		return 0;
	}
	char count_arg[24], start_arg[24], pid_arg[24];
	snprintf(count_arg, sizeof(count_arg), "%lu", count);
	snprintf(start_arg, sizeof(start_arg), "%lld", start);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)getpid());
	execl(path, path, "0", seconds_arg, count_arg, start_arg, pid_arg, (char *)NULL);
	wl_fail_errno("exec of %s failed at image %lu", path, count);
}
