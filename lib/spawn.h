/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

/* Runs argv[0] (searched in PATH) with stdin from /dev/null and stderr
 * discarded, and captures its stdout (at most 1 MiB). Returns the exit
 * status (>= 0) or -errno when it could not be started. */
int spawn_capture(const char *const argv[], char **out);
/* The same with stderr captured too, interleaved with stdout (compiler
 * output). */
int spawn_capture_all(const char *const argv[], char **out);
/* spawn_capture_all() in a process group of its own, asking stop() about
 * ten times a second: once it returns non-zero (a signal came), the group
 * is killed and -EINTR returned, nothing captured; a caller that is a
 * child subreaper gets every process of the group reaped before. For
 * builds that a person may stop. */
int spawn_capture_stoppable(const char *const argv[], char **out, int (*stop)(void));

/* spawn_capture() in two halves, so that the program runs while the caller
 * does other work: spawn_begin() starts it, spawn_finish() collects its
 * output and exit status (and must be called once begin succeeded). */
struct spawn_job {
	int pid, fd;
};
int spawn_begin(const char *const argv[], bool with_stderr, struct spawn_job *job);
int spawn_finish(struct spawn_job *job, char **out);

struct spawn_opts {
	const char *const *argv; /* argv[0] is a path: PATH is not searched */
	const char *const *envp; /* NULL: this process's environment */
	const char *cwd;         /* NULL: this process's */
	/* Capture stdout and stderr (at most 64 KiB, the end kept) into *out;
	 * otherwise both go to /dev/null. Output is read until the program
	 * exits, not until the pipe closes: a daemon it started in the
	 * background may hold the pipe for as long as it runs. */
	bool capture;
	unsigned timeout_s; /* 0: none; past it the program is killed */
};

/* Runs a program with stdin from /dev/null. Returns its exit status
 * (>= 0; 128 + N when signal N ended it), -ETIMEDOUT after killing it at
 * the timeout, or -errno when it could not be started. */
int spawn_run(const struct spawn_opts *o, char **out);
