/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sched.h>
#include <stdbool.h>

#include "bench/protocol.h"
#include "unixbench/score.h"

/*
 * Runs the copies of one pass: forks them all, lets them start together
 * (they wait on a pipe until it is closed), each in its own process group
 * with stdin and stdout on /dev/null and stderr on a pipe that carries the
 * result protocol. A copy's elapsed time runs from the release to EOF on
 * its stderr, which, as in Run, waits for every process still holding it.
 */

/* Largest stderr output kept per copy. */
#define RUNNER_OUTPUT_MAX (64u << 10)

struct copy_outcome {
	struct copy_report report;
	double elapsed; /* seconds */
	int status;     /* wait status */
};

struct pass_outcome {
	unsigned ncopies;
	struct copy_outcome *copies;
	struct pass_value value; /* counts summed, times averaged, copy 0's timebase */
	char unit[16];
};

struct pass_spec {
	char *const *argv;
	/* CPUs every copy is pinned to (sched_setaffinity), or NULL */
	const cpu_set_t *affinity;
	size_t affinity_size;
	char *const *envp;
	const char *cwd;
	unsigned copies;
	double timeout_s; /* the pass is stopped and fails after this long */
};

/*
 * 0, or -EINTR when a signal asked to stop (the copies are killed),
 * -ETIMEDOUT, -EBADMSG (a copy failed: *error says which and why), or
 * another -errno (*error set). out->copies is allocated on success.
 */
int runner_pass(const struct pass_spec *spec, struct pass_outcome *out, char **error);
void pass_outcome_free(struct pass_outcome *o);

/*
 * Signals: SIGINT, SIGTERM and SIGHUP (unless ignored, as under nohup) are
 * blocked in the calling thread
 * (threads created later inherit that) and only delivered while the
 * runner waits, so a Ctrl-C is seen at a known point. Also makes this
 * process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER),
 * so nothing a copy leaves behind escapes it.
 */
void runner_setup(void);
/* Before the run: SIGINT, SIGTERM and SIGHUP (unless ignored) only note
 * themselves for runner_stop_signal(), so that work before the tests (a
 * build) can stop cleanly, and what it leaves behind comes to this
 * process to be reaped (a child subreaper); runner_setup() follows. */
void runner_catch_signals(void);
/* The signal that asked to stop, or 0. */
int runner_stop_signal(void);
/* "SIGINT", "SIGTERM", "SIGHUP" ("a signal" for others). */
const char *runner_signal_name(int sig);
/* Sleeps, waking early for a stop signal (then -EINTR). */
int runner_sleep(double seconds);
/* UnixBench's settling before a pass: sync; sleep 1; sync; sleep 2
 * (quick: sync; sleep 0.25). -EINTR when asked to stop. */
int runner_settle(bool quick);
/* The seconds runner_settle() sleeps (Run's own settling sleeps as long). */
#define RUNNER_SETTLE_S 3.0
#define RUNNER_SETTLE_QUICK_S 0.25
