/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * looper SECONDS COMMAND [ARGS...]: runs COMMAND again and again until the
 * timer expires; COUNT = runs completed before that, in loops per minute
 * (the Shell Scripts tests run multi.sh this way). A run that fails aborts
 * the workload. The run in progress when the timer expires is waited for
 * but not counted: UnixBench leaves it running as an orphan and its
 * harness waits for it all the same, because the orphan holds stderr.
 */
#include <unistd.h>

#include "workloads.h"

int looper_main(int argc, char **argv)
{
	if (argc < 3)
		wl_usage("expected a duration and a command");
	double seconds = wl_parse_seconds(argv[1]);
	char **command = argv + 2;

	unsigned long runs = 0;
	wl_start_timer(seconds);
	for (;;) {
		pid_t pid = fork();
		if (pid == 0) {
			execvp(command[0], command);
			wl_fail_errno("cannot run %s", command[0]);
		}
		if (pid < 0)
			wl_fail_errno("fork failed after %lu runs", runs);
		wl_reap(pid, command[0], runs);
		if (wl_stop)
			break;
		runs++;
	}
	wl_report_count(runs, 60, "lpm");
	return 0;
}
