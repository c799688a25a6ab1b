/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn SECONDS: Process Creation. fork(); the child exits at once with
 * status 0; the parent waits for it and checks the status. COUNT = children.
 * The child leaves through exit(), not _exit(), as in UnixBench: running
 * the exit handlers touches pages that must then be copied, which is part
 * of what the test has always measured (_exit made it about 10 % faster).
 */
#include <stdlib.h>
#include <unistd.h>

#include "workloads.h"

int spawn_main(int argc, char **argv)
{
	if (argc != 2)
		wl_usage("expected one argument");
	double seconds = wl_parse_seconds(argv[1]);

	unsigned long children = 0;
	wl_start_timer(seconds);
	while (!wl_stop) {
		pid_t pid = fork();
		if (pid == 0)
			exit(0);
		if (pid < 0)
			wl_fail_errno("fork failed after %lu children", children);
		wl_reap(pid, "a child", children);
		children++;
	}
	wl_report_count(children, 1, "lps");
	return 0;
}
