/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "lib/json.h"
#include "bench/phases.h"
#include "lib/rootfs.h"

/*
 * The sampler reads, about once a second while the suite runs: each CPU's
 * clock (scaling_cur_freq) and load, the hottest thermal zone, hwmon alarms
 * (undervoltage: in*_lcrit_alarm), x86 thermal throttle counters, steal and
 * iowait (/proc/stat), swapping (/proc/vmstat), the CPU use of processes
 * that are not ubtune's, and the time the CPU quota of ubtune's cgroup
 * held it back (cpu.stat, lib/cgroup.h). Conditions that matter become events, each tied
 * to the test and copy count running at the time.
 */
struct sampler;

/*
 * What makes a reading, and a test, untrustworthy; the report states
 * them. Shares of all CPUs' time, others of one CPU.
 */
#define SAMPLER_STEAL_PCT 5.0   /* the hypervisor gave the CPUs to other guests */
#define SAMPLER_IOWAIT_PCT 10.0 /* CPUs waiting for storage */
#define SAMPLER_OTHERS_PCT 10.0 /* processes that are not the run's, of one CPU */
/* kernel time (system, irq, softirq) during the tests that run in user
 * space (Dhrystone, Whetstone): interrupts or kernel threads took the CPUs */
#define SAMPLER_SYS_PCT 5.0

/* Finds what this root offers to sample; self (0: none) and its
 * descendants are not "other processes". */
int sampler_new(struct rootfs *rf, pid_t self, struct sampler **out);
void sampler_free(struct sampler *s);

/* What is running now: index into ub_tests (-1: between tests). */
void sampler_set_phase(struct sampler *s, int test, unsigned copies);
/* Every phase set so far, with when it began (bench/phases.h). */
const struct phases *sampler_phases(const struct sampler *s);

/* One reading at monotonic time t (seconds) and wall time wall. The
 * first reading is the reference the next ones are measured against. */
void sampler_tick(struct sampler *s, double t, time_t wall);
/* Closes the conditions still going on at time t (end of the run). */
void sampler_finish(struct sampler *s, double t);

/* A thread that calls sampler_tick every interval_s until sampler_stop,
 * which also calls sampler_finish. */
int sampler_start(struct sampler *s, double interval_s);
void sampler_stop(struct sampler *s);

/* Results; the sampler keeps ownership. */
json_object *sampler_samples(struct sampler *s);
json_object *sampler_events(struct sampler *s);
/* {"interval_s", "count", "cpu_s", "wall_s", "cost_pct", "sources": {...},
 * "max_temp_mc", "min_mhz", "max_mhz", "max_others_pct", "throttled_s"} */
json_object *sampler_summary(struct sampler *s);
