/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "bench/procstat.h"
#include "lib/json.h"
#include "lib/rootfs.h"

/*
 * Is the machine quiet enough to benchmark? Runnable processes
 * (procs_running of /proc/stat, read every 100 ms) and CPU use (/proc/stat
 * and each /proc/PID/stat) over a short window, not the load average,
 * which lags by minutes.
 */

/* Busy when, besides ubtune, half a process or more was runnable on
 * average, or more than this share of all CPU time was used. */
#define PREFLIGHT_MAX_RUNNABLE 0.5
#define PREFLIGHT_MAX_CPU_PCT 10.0
#define PREFLIGHT_TOP 5
/* Seconds bench measures the machine before the first test. */
#define PREFLIGHT_S 1.0

struct preflight {
	double seconds;
	double runnable; /* mean procs_running besides ubtune */
	double cpu_pct;  /* of all CPUs' time */
	unsigned ncpu;
	struct proc_usage *top; /* busiest other processes */
	size_t ntop;
	bool busy;
};

/* Measures over `seconds`; self and its descendants are not counted. */
int preflight_measure(struct rootfs *rf, double seconds, pid_t self, struct preflight *out);
/* Sets p->busy from the numbers; returns it. */
bool preflight_judge(struct preflight *p);
/* "1.8 processes runnable besides ubtune and 87 % of CPU time in use
 * over 1.0 s; busiest: cc1 (pid 4242) 97 %, make (pid 4200) 3 %" */
char *preflight_describe(const struct preflight *p);
json_object *preflight_json(const struct preflight *p);
void preflight_free(struct preflight *p);
