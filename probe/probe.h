/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "lib/cgroup.h"
#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/spawn.h"

#define PROBE_SCHEMA "ubtune.probe/1"

/*
 * Files a gathered dump carries for facts that have no file on a live
 * machine (CPUID, unit states, toolchain). Root-relative, read through the
 * rootfs like everything else; a live probe never reads them.
 */
#define GATHER_DIR "/.ubtune"
#define GATHER_CPUID GATHER_DIR "/cpuid"
/* GATHER_CPUID holds virt.cpuid as lines "hypervisor_bit=0|1" and, when the
 * bit is set and leaf 0x40000000 names a vendor, "vendor=KVMKVMKVM". */
#define GATHER_UNITS GATHER_DIR "/units"
#define GATHER_TOOLCHAIN GATHER_DIR "/toolchain"
#define GATHER_META GATHER_DIR "/gather"
/* The kernel log of a dump: plain dmesg text at the top of the root. */
#define DUMP_DMESG "/dmesg"

struct probe_opts {
	const char *root;    /* NULL or "/" for the live machine */
	const char *workdir; /* NULL: current directory (live) or the gathered one */
	bool trace;          /* remember every path read (for gather) */
};

struct probe_ctx {
	struct rootfs *rf;
	bool live;
	char *workdir;
	json_object *rec;
	json_object *unavailable;
	char *klog;
	bool klog_loaded;
	struct proc_table *procs; /* probe_procs() */
	int procs_error;
	struct spawn_job cc_job; /* `cc --version`, started by toolchain_start() */
	bool cc_running;
	bool links_leave_dump; /* dump_check(): hwloc is not given the dump */
};

/* One area of the record: collects facts into ctx->rec. Areas run in
 * table order and may read what earlier areas wrote. */
struct probe_area {
	const char *name;
	int (*collect)(struct probe_ctx *ctx);
	/* Prints the area's lines of the text report. */
	void (*render)(const struct env_record *env, FILE *out);
};

extern const struct probe_area probe_areas[];
extern const size_t probe_n_areas;

/* Checks a dump's proc/ and sys/ (probe/dump-check.c): -EINVAL, and *error
 * naming it, for a FIFO, socket or device there or a symbolic link to
 * one; *escapes when a link there, followed as the kernel follows it,
 * leads out of the dump. */
int dump_check(const char *root, bool *escapes, char **error);

/* Collects the record, findings included. On success *rec holds it and, if
 * rf_out is not NULL, *rf_out the rootfs with its trace (caller frees).
 * On failure (root or workdir unusable) *error is a one-line message. */
int probe_collect(const struct probe_opts *opts, json_object **rec, struct rootfs **rf_out,
		  char **error);

/* Value of KEY= in a dump's GATHER_META, or NULL (also on a live machine). */
char *probe_gather_meta(struct probe_ctx *ctx, const char *key);

/* Notes a fact that could not be read: unavailable[] gets {area, reason}. */
void probe_unavailable(struct probe_ctx *ctx, const char *area, const char *fmt, ...) _printf_(3, 4);

/* The kernel log since boot (message text, one per line) or NULL when no
 * source could be read. Sources, first that works: the root's /dmesg file
 * (dumps), sd-journal kernel transport, /dev/kmsg, klogctl. */
const char *probe_klog(struct probe_ctx *ctx);
/* The processes of the root (probe/services.h), read once per probe so that
 * every area, and a dump gathered from the probe, sees the same list. *out
 * is always a table (empty when /proc cannot be listed: -errno). */
struct proc_table;
int probe_procs(struct probe_ctx *ctx, const struct proc_table **out);
void probe_procs_free(struct probe_ctx *ctx);
/* Steps through the lines of a kernel log; *pos starts at the text. */
bool klog_line(const char **pos, const char **line, size_t *len);
/* Number of lines holding needle; *last (if not NULL) gets a copy of the
 * last of them (the previous value is freed). */
size_t klog_count(const char *klog, const char *needle, char **last);
/* The same for lines holding any of needles (NULL-terminated). */
size_t klog_count_any(const char *klog, const char *const *needles, char **last);

/* The text report of an environment record. */
void probe_render(const struct env_record *env, FILE *out);
/* Text report helpers: "Label     first line" then indented continuation. */
void render_line(FILE *out, const char *label, const char *fmt, ...) _printf_(3, 4);
#define RENDER_INDENT "          "

/* Area collectors and renderers, one source file each. */
int host_collect(struct probe_ctx *ctx);
void host_render(const struct env_record *env, FILE *out);

/* host.limits (ulimit -u, pids.max, pid_max, threads-max) and host.audit
 * (seccomp, audit rules); probe/limits.c. */
void limits_collect(struct probe_ctx *ctx, json_object *host);
void limits_render(const struct env_record *env, FILE *out);
/* The rules of an `auditctl -l` listing, and in *syscall_rules those on system calls. */
size_t audit_count_rules(const char *listing, size_t *syscall_rules);
int cpu_collect(struct probe_ctx *ctx);
void cpu_render(const struct env_record *env, FILE *out);
int memory_collect(struct probe_ctx *ctx);
void memory_render(const struct env_record *env, FILE *out);
int virt_collect(struct probe_ctx *ctx);
void virt_render(const struct env_record *env, FILE *out);
int power_collect(struct probe_ctx *ctx);
void power_render(const struct env_record *env, FILE *out);
int storage_collect(struct probe_ctx *ctx);
void storage_render(const struct env_record *env, FILE *out);
int numa_collect(struct probe_ctx *ctx);
void numa_render(const struct env_record *env, FILE *out);
int cgroup_collect(struct probe_ctx *ctx);
/* KEY = the lowest number FILE holds from the process's cgroup up (a
 * number, "max", or null when cg is NULL or no file is there) and
 * KEY_source = its file (lib/cgroup.h cgroup_lowest()). */
void cgroup_limit_collect(struct probe_ctx *ctx, const struct cgroup *cg, enum cgroup_controller c, const char *file,
			  json_object *o, const char *key);
void cgroup_render(const struct env_record *env, FILE *out);
int services_collect(struct probe_ctx *ctx);
void services_render(const struct env_record *env, FILE *out);
int toolchain_collect(struct probe_ctx *ctx);
/* Live only: starts asking the compiler before the other areas run;
 * toolchain_reap() waits for it when the probe ends early. */
void toolchain_start(struct probe_ctx *ctx);
void toolchain_reap(struct probe_ctx *ctx);
void toolchain_render(const struct env_record *env, FILE *out);

/* Parsers exported for unit tests. */
void toolchain_parse_cc_version(const char *line, char **name, char **version);
/* Message text of /dev/kmsg records or of `dmesg` output, one per line,
 * without priorities and timestamps. */
char *klog_strip(const char *text);
