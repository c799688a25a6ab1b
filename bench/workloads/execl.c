/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execl SECONDS: Execl Throughput. The process replaces itself with a new
 * image again and again (execl, no fork) until SECONDS have passed since
 * the first image started; COUNT = images run, the first and the last
 * included.
 *
 * The first image is the program that is asked (ubtune-workloads or
 * ubtune-execl); the others are ubtune-execl, the small program beside it
 * (execl-image.c, this file and common.c), which like UnixBench's execl
 * links libc only, carries an 8 KiB bss array, and reads and writes the
 * state with sscanf and sprintf. The state travels in the arguments of the
 * next image:
 *   ubtune-execl 0 SECONDS COUNT START_NS PID
 * and each image checks it: the pid must stay the same (a real exec, not a
 * new process).
 */
#include <limits.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "workloads.h"

long long execl_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int execl_next(const char *path, const char *seconds_arg, unsigned long count, long long start)
{
	double seconds = wl_parse_seconds(seconds_arg);

	count++;
	if ((double)(execl_monotonic_ns() - start) >= seconds * 1e9) {
		wl_report_count(count, 1, "lps");
		return 0;
	}
	char count_arg[24], start_arg[24], pid_arg[24];
	sprintf(count_arg, "%lu", count);
	sprintf(start_arg, "%lld", start);
	sprintf(pid_arg, "%d", (int)getpid());
	execl(path, path, "0", seconds_arg, count_arg, start_arg, pid_arg, (char *)NULL);
	wl_fail_errno("exec of %s failed at image %lu", path, count);
}

int execl_main(int argc, char **argv)
{
	char path[PATH_MAX];

	if (argc != 2)
		wl_usage("expected one argument");
	wl_parse_seconds(argv[1]);
	wl_sibling("ubtune-execl", path, sizeof(path));
	return execl_next(path, argv[1], 0, execl_monotonic_ns());
}
