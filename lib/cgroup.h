/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "rootfs.h"

/*
 * The control groups of the process that reads them (ubtune, and the
 * benchmark it starts, which inherits them): cgroup v2, and the v1
 * hierarchies where they are mounted. One reader for the probe (what caps
 * the run) and the bench sampler (what the cap took during it). Through a
 * rootfs: a dump's /proc/self/cgroup, mount table and /sys/fs/cgroup read
 * like the live machine's.
 */

enum cgroup_controller { CGROUP_CPU, CGROUP_CPUSET, CGROUP_MEMORY, CGROUP_PIDS, CGROUP_N };

struct cgroup_dir {
	int version; /* 2 or 1; 0 when the controller is not mounted */
	char *dir;   /* the process's directory of it ("/sys/fs/cgroup/user.slice/...") */
	char *top;   /* the directory its hierarchy is mounted on: walks stop there */
	bool noprefix; /* v1 cpuset files named "cpus", not "cpuset.cpus" */
};

struct cgroup {
	char *path; /* the process's cgroup as /proc/self/cgroup names it (v2, else v1 cpu's) */
	int version; /* 2 when the CPU controller is on the unified hierarchy, 1 on v1, 0 when unknown */
	struct cgroup_dir ctrl[CGROUP_N];
};

/*
 * Finds the process's cgroup directories from /proc/self/cgroup (without
 * it, the cpuset's path in /proc/self/cpuset) and the mount table
 * (/proc/self/mountinfo, /proc/mounts; without one, the usual mount points
 * under /sys/fs/cgroup). A controller is read on v1 where a v1 hierarchy
 * has it, else on v2. -errno when /proc/self/cgroup cannot be read,
 * -EBADMSG when it names no cgroup.
 */
int cgroup_open(struct rootfs *rf, struct cgroup *cg);
void cgroup_free(struct cgroup *cg);

/* The directories of a controller from the process's up to the top, leaf first. */
void cgroup_walk(const struct cgroup *cg, enum cgroup_controller c, struct strv *dirs);

/* A CPU bandwidth limit: quota_us of CPU time per period_us. */
struct cgroup_quota {
	int64_t quota_us, period_us;
	char *source; /* the file that sets it: cpu.max, or v1's cpu.cfs_quota_us */
	char *dir;    /* its directory, whose cpu.stat counts the throttling */
};

/*
 * The tightest CPU quota from the process's cgroup up (v2 cpu.max, v1
 * cpu.cfs_quota_us and cpu.cfs_period_us): 1 with *q filled, 0 when no
 * cgroup on the way sets one ("max", -1), -ENOENT when there is no such
 * file at all.
 */
int cgroup_cpu_quota(struct rootfs *rf, const struct cgroup *cg, struct cgroup_quota *q);
void cgroup_quota_free(struct cgroup_quota *q);

/* Throttling counters of a cgroup's cpu.stat (v1: throttled_time in ns, given in µs). */
struct cgroup_cpu_stat {
	uint64_t nr_periods, nr_throttled, throttled_usec;
};
int cgroup_cpu_stat(struct rootfs *rf, const char *dir, struct cgroup_cpu_stat *st);

/*
 * The lowest number a limit file holds from the process's cgroup up
 * (pids.max, memory.max, v1's memory.limit_in_bytes): 1 with *value and
 * *source, 0 when the files there say "max" (or v1's "no limit"),
 * -ENOENT when none is there.
 */
int cgroup_lowest(struct rootfs *rf, const struct cgroup *cg, enum cgroup_controller c, const char *file,
		  uint64_t *value, char **source);

/*
 * The CPUs the cgroup lets the process run on (v2 cpuset.cpus.effective,
 * v1 cpuset.effective_cpus or cpuset.cpus, the nearest that has one) as a
 * list string, with its file in *source; with mems, the NUMA nodes it may
 * take memory from (cpuset.mems.effective, ...). -ENOENT when none is there.
 */
int cgroup_cpuset(struct rootfs *rf, const struct cgroup *cg, bool mems, char **list, char **source);

/*
 * How many copies a run can keep busy: the CPUs of the list allowed (the
 * online CPUs as far as the cpuset and the affinity let), capped by the
 * quota (whole CPUs, at least one; quota_cpus <= 0: none).
 */
unsigned cgroup_usable_cpus(unsigned allowed, double quota_cpus);

/*
 * How many copies a run of this process can keep busy, live: the online
 * CPUs it may run on (sched_getaffinity, which taskset and the cgroup's
 * cpuset narrow) capped by its cgroup's CPU quota (cgroup_usable_cpus());
 * *allowed gets the CPUs before the quota, *quota_cpus the quota (0: none),
 * *quota_source its file (NULL: none; caller frees). 0 when the affinity
 * cannot be read.
 */
unsigned cgroup_process_cpus(struct rootfs *rf, unsigned *allowed, double *quota_cpus, char **quota_source);
