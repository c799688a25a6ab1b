/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * ubtune-workloads: the twelve UnixBench index tests as one program with no
 * dependency beyond libc and libm, so that it can be rebuilt with any
 * compiler and flags. Each workload speaks UnixBench's result protocol on
 * stderr: "COUNT|<n>|<timebase>|<unit>" and "TIME|<s>"; any other stderr
 * line is an error message, and a failed workload exits non-zero.
 */

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stdnoreturn.h>

/* Set to 1 by SIGALRM when the timer started by wl_start_timer() expires. */
extern volatile sig_atomic_t wl_stop;

/* argv[0] of the process. */
extern const char *wl_program;

/* Name of the running workload, for messages, and its arguments, for the
 * usage line. */
extern const char *wl_name;
extern const char *wl_args;

/* Prints "ubtune-workloads NAME: MESSAGE" on stderr and exits 1. A '|' in
 * the message is written as '/', so the line never reads as a result. */
noreturn void wl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, with ": strerror(errno)" appended. */
noreturn void wl_fail_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage error: the message and the workload's usage line, exit 2. */
noreturn void wl_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A duration in seconds: a positive decimal number up to 3600 ("10",
 * "0.5"); anything else is a usage error naming the value. */
double wl_parse_seconds(const char *arg);
/* A whole number in [min, max]; what names the value in the error. */
long wl_parse_long(const char *what, const char *arg, long min, long max);

/* Clears wl_stop and arms a one-shot SIGALRM after SECONDS. The handler only
 * sets wl_stop and is installed with SA_RESTART, so an interrupted read,
 * write or wait restarts (the semantics of UnixBench 6.0's signal()). */
void wl_start_timer(double seconds);
/* Arms the same one-shot timer with another handler (SA_RESTART). */
void wl_arm_timer(double seconds, void (*on_expiry)(int));
/* Arms the timer for a loop that never ends, as UnixBench's programs do:
 * when it expires, the handler writes "COUNT|*COUNT|TIMEBASE|UNIT" on
 * stderr and exits 0. For loops whose checks are all inside the loop; the
 * loop keeps *COUNT in memory, as UnixBench's keep theirs. */
void wl_report_at_timer(double seconds, const unsigned long *count, int timebase, const char *unit);
/* main() of a program of one workload (ubtune-execl, ubtune-spawn,
 * ubtune-whetstone): names it for messages and runs RUN. */
int wl_image_main(int argc, char **argv, const char *name, const char *args, int (*run)(int argc, char **argv));
/* Wall-clock seconds (gettimeofday), the clock UnixBench reports with. */
double wl_now(void);

/* UBTUNE_WORKLOADS_QUICK=1: shorten the internal settling and priming
 * phases (File Copy) for test runs; never set for real measurements. */
bool wl_quick(void);
/* UBTUNE_WORKLOADS_CORRUPT=1: damage the work just before it is checked,
 * so that tests can see every self-check fail loudly. */
bool wl_corrupt(void);

/* Waits for the child PID, which must end with status 0; otherwise fails
 * with what happened to WHAT after DONE earlier runs. */
void wl_reap(pid_t pid, const char *what, unsigned long done);

/* PATH (of SIZE bytes) := the program NAME in the directory of the running
 * one, which must be executable; fails otherwise. */
void wl_sibling(const char *name, char *path, size_t size);

/* "COUNT|n|timebase|unit" on stderr. */
void wl_report_count(unsigned long count, int timebase, const char *unit);

int dhry2reg_main(int argc, char **argv);
int whetstone_main(int argc, char **argv);
int execl_main(int argc, char **argv);
/* Execl Throughput's image COUNT + 1 (execl.c): reports the count when
 * SECONDS have passed since START (CLOCK_MONOTONIC, ns), else replaces the
 * process with PATH and the next state. */
int execl_next(const char *path, const char *seconds_arg, unsigned long count, long long start);
long long execl_monotonic_ns(void);
int fstime_main(int argc, char **argv);
int pipe_main(int argc, char **argv);
int context1_main(int argc, char **argv);
int spawn_main(int argc, char **argv);
int syscall_main(int argc, char **argv);
int looper_main(int argc, char **argv);
int shell_input_main(int argc, char **argv);
