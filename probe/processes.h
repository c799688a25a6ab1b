/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Processes from /proc: what the probe records and init scripts look for. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/util.h"

/* One process, from /proc/PID/stat. */
struct proc_info {
	int pid;
	int ppid;
	char comm[16];        /* the kernel keeps 15 characters */
	uint64_t cpu_ticks;   /* utime + stime */
	uint64_t start_ticks; /* starttime: clock ticks after boot */
};
/* Parses the text of /proc/PID/stat; -EBADMSG when it is not one. */
int proc_stat_parse(const char *text, struct proc_info *out);
/* Share of one CPU (percent) the process used since it started; < 0 when
 * it started at uptime_s or later (no time to measure over). */
double proc_cpu_pct(const struct proc_info *p, double uptime_s, long ticks_per_s);
/* procs_running and procs_blocked of /proc/stat; -EBADMSG when missing. */
int proc_stat_counts(const char *proc_stat, int64_t *running, int64_t *blocked);

/* Every process of the root, except the one reading (ubtune: /proc/self,
 * which a gathered dump keeps as a symlink). */
struct proc_table {
	struct proc_info *v;
	size_t n;
	bool seen; /* some /proc/[pid]/stat was readable */
};
int proc_table_read(struct rootfs *rf, bool live, struct proc_table *t);
void proc_table_free(struct proc_table *t);

/* Fills processes.{total,running,blocked,top}. */
struct probe_ctx;
void processes_collect(struct probe_ctx *ctx, const struct proc_table *t);
/* "stress-ng 98.0 % (pid 500), Xorg 8.0 % (pid 400)" from processes.top. */
void processes_format_top(const struct env_processes *p, struct buf *b);
/* Processes above this CPU share since their start are listed in processes.top. */
#define PROCESSES_TOP_PCT 1.0
#define PROCESSES_TOP_MAX 5
