/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Services and processes: the pieces that unit tests and rules use. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/units.h"

/*
 * Known sources of benchmark noise: a systemd unit (or glob), the process
 * it runs, and why it moves scores. Rows without a unit are session
 * processes that only /proc shows. Protective rows guard the hardware:
 * they are reported, never suggested for stopping.
 */
struct noise {
	const char *unit;  /* unit name or glob; NULL: no system unit */
	const char *comm;  /* process name as /proc/PID/stat shows it (at most 15 characters); NULL: none */
	bool protective;
	bool desktop; /* part of a graphical session */
	const char *reason;
};
extern const struct noise noise_table[];
extern const size_t noise_table_len;
/* The row a unit name or a process name belongs to, or NULL. */
const struct noise *noise_for_unit(const char *unit);
const struct noise *noise_for_comm(const char *comm);

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
void processes_format_top(json_object *rec, struct buf *b);
/* Processes above this CPU share since their start are listed in processes.top. */
#define PROCESSES_TOP_PCT 1.0
#define PROCESSES_TOP_MAX 5

/*
 * The unit states a dump carries (GATHER_UNITS), one line each after an
 * optional default target:
 *   default-target=graphical.target
 *   cups.service loaded active running
 * '#' starts a comment line.
 */
struct units_file {
	char *default_target;
	struct unit_state *units;
	size_t n;
};
/* On a bad line: -EBADMSG and *error names the line. */
int units_file_parse(const char *text, struct units_file *out, char **error);
void units_file_free(struct units_file *f);
/* The file for a record's services.* (NULL when the record has no unit
 * states: systemd was not reachable). */
char *units_file_format(json_object *rec);
