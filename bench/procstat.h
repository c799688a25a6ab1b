/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/rootfs.h"

/*
 * CPU time from /proc/stat and per process from /proc/PID/stat, read
 * through a rootfs, and the differences between two readings: what the
 * preflight check and the sampler measure.
 */

/* Clock ticks of one line of /proc/stat ("cpu" or "cpuN"). */
struct cpu_times {
	bool present;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};
uint64_t cpu_times_total(const struct cpu_times *t);
/* Ticks spent neither idle nor waiting for I/O. */
uint64_t cpu_times_busy(const struct cpu_times *t);

struct stat_snapshot {
	struct cpu_times all;
	struct cpu_times *cpu; /* indexed by CPU number; ncpu entries */
	size_t ncpu;
	unsigned procs_running;
	bool has_procs_running;
};
/* Parses /proc/stat text; -EBADMSG when the "cpu" line is missing or malformed. */
int stat_parse(const char *text, struct stat_snapshot *out);
int stat_read(struct rootfs *rf, struct stat_snapshot *out);
void stat_snapshot_free(struct stat_snapshot *s);

/* Shares of the ticks between two snapshots (0..100); NAN when no time passed. */
double cpu_share_pct(const struct cpu_times *a, const struct cpu_times *b, uint64_t (*part)(const struct cpu_times *));
uint64_t cpu_part_busy(const struct cpu_times *t);
uint64_t cpu_part_steal(const struct cpu_times *t);
/* Kernel time: system, irq and softirq ticks. */
uint64_t cpu_part_system(const struct cpu_times *t);
uint64_t cpu_part_iowait(const struct cpu_times *t);

/* The process table is the probe's (probe/services.h: proc_table_read()). */
struct proc_table;
/* True when pid is ancestor or one of its descendants in the table. */
bool proc_descends_from(const struct proc_table *t, pid_t pid, pid_t ancestor);

struct proc_usage {
	pid_t pid;
	char comm[16];
	double cpu_pct; /* of one CPU */
};
/*
 * CPU use of each process present in both tables over `seconds`, busiest
 * first, leaving out `self` and its descendants (self <= 0: none left out).
 * Returns how many entries *out holds (caller frees); *total_pct gets
 * their sum.
 */
size_t proc_usage_diff(const struct proc_table *a, const struct proc_table *b, double seconds, pid_t self,
		       struct proc_usage **out, double *total_pct);

/* pswpin and pswpout of /proc/vmstat (pages since boot). */
int vmstat_read_swap(struct rootfs *rf, uint64_t *in, uint64_t *out);
