/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn SECONDS: Process Creation. fork(); the child exits at once with
 * status 0; the parent waits for it and checks the status. COUNT = children.
 *
 * As UnixBench's loop: it never ends, the timer's handler reports the count
 * and exits, and the count lives in memory. That store matters here: fork
 * write-protects the parent's pages, so the parent's first write to the
 * count's page after each fork is a copy-on-write fault, as in UnixBench
 * (a count kept in a register made about 4 % more forks in a qemu guest
 * timed in instructions). The child leaves through exit(), not _exit(), as
 * in UnixBench: running the exit handlers touches pages that must then be
 * copied, which is part of what the test has always measured (_exit made
 * it about 10 % faster).
 */
#include <stdlib.h>
#include <unistd.h>

#include "workloads.h"

static unsigned long children;

int spawn_main(int argc, char **argv)
{
	if (argc != 2)
		wl_usage("expected one argument");
	double seconds = wl_parse_seconds(argv[1]);

	wl_report_at_timer(seconds, &children, 1, "lps");
	for (;;) {
		pid_t pid = fork();
		if (pid == 0)
			exit(0);
		if (pid < 0)
			wl_fail_errno("fork failed after %lu children", children);
		wl_reap(pid, "a child", children);
		children++;
	}
}
