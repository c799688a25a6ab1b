/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What caps the processes a run can start, and what every system call
 * pays on the way in: ulimit -u (this process's /proc/self/limits), the
 * cgroup's pids.max, kernel.pid_max and threads-max; seccomp filters on
 * this process and the audit rules (auditctl -l, live and as root).
 * Shell Scripts (8 concurrent) and Process Creation fail or stall when a
 * limit is hit; System Call Overhead pays for each syscall audit rule.
 */
#include <errno.h>
#include <inttypes.h>

#include "lib/cgroup.h"
#include "lib/spawn.h"
#include "probe.h"

/* "Max processes   63382   63382   processes": soft and hard, -1 for unlimited. */
static bool nproc_limits(struct probe_ctx *ctx, json_object *limits)
{
	_cleanup_free_ char *text = NULL;
	if (rootfs_read(ctx->rf, "/proc/self/limits", &text, NULL) < 0)
		return false;
	const char *line = strstr(text, "\nMax processes");
	if (!line)
		return false;
	char soft[32], hard[32];
	if (sscanf(line + strlen("\nMax processes"), " %31s %31s", soft, hard) != 2)
		return false;
	const char *v[] = { soft, hard }, *keys[] = { "nproc_soft", "nproc_hard" };
	for (size_t i = 0; i < 2; i++) {
		uint64_t n;
		if (streq(v[i], "unlimited"))
			jset_str(limits, keys[i], "unlimited");
		else if (parse_u64(v[i], &n) == 0)
			jset_int(limits, keys[i], (int64_t)n);
		else
			jset_null(limits, keys[i]);
	}
	return true;
}

/* The lowest pids.max from this process's cgroup up to the root (v2, or
 * the v1 pids hierarchy); "max" when none is set. */
static void pids_max(struct probe_ctx *ctx, json_object *limits)
{
	struct cgroup cg;
	bool open = cgroup_open(ctx->rf, &cg) == 0;
	cgroup_limit_collect(ctx, open ? &cg : NULL, CGROUP_PIDS, "pids.max", limits, "pids_max");
	if (open)
		cgroup_free(&cg);
}

static void sysctl_number(struct probe_ctx *ctx, json_object *o, const char *key, const char *path)
{
	int64_t v;
	if (rootfs_read_s64(ctx->rf, path, &v) == 0)
		jset_int(o, key, v);
	else
		jset_null(o, key);
}

/* The value of a "Key:\tvalue" line of /proc/PID/status, or NULL. */
static char *status_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, n) == 0 && l[n] == ':') {
			const char *v = l + n + 1;
			v += strspn(v, " \t");
			return xstrndup(v, strcspn(v, "\n"));
		}
	return NULL;
}

/* "Seccomp:\t2" and "Seccomp_filters:\t1" (5.9 and later) of /proc/self/status. */
static void seccomp(struct probe_ctx *ctx, json_object *audit)
{
	_cleanup_free_ char *text = NULL;
	jset_null(audit, "seccomp");
	jset_null(audit, "seccomp_filters");
	if (rootfs_read(ctx->rf, "/proc/self/status", &text, NULL) < 0)
		return;
	static const char *const modes[] = { "disabled", "strict", "filter" };
	_cleanup_free_ char *mode = status_field(text, "Seccomp");
	_cleanup_free_ char *filters = status_field(text, "Seccomp_filters");
	uint64_t m, n;
	if (mode && parse_u64(mode, &m) == 0 && m < ARRAY_SIZE(modes))
		jset_str(audit, "seccomp", modes[m]);
	if (filters && parse_u64(filters, &n) == 0)
		jset_int(audit, "seccomp_filters", (int64_t)n);
}

/* Counts the rules `auditctl -l` lists, and those that match system calls (-S). */
size_t audit_count_rules(const char *listing, size_t *syscall_rules)
{
	struct strv lines = {0};
	size_t n = 0;
	*syscall_rules = 0;
	strv_split(listing, "\n", &lines);
	for (size_t i = 0; i < lines.n; i++) {
		const char *l = lines.v[i];
		if (!startswith(l, "-a ") && !startswith(l, "-w "))
			continue;
		n++;
		if (strstr(l, " -S "))
			(*syscall_rules)++;
	}
	strv_free(&lines);
	return n;
}

static void audit_rules(struct probe_ctx *ctx, json_object *audit)
{
	jset_null(audit, "rules");
	jset_null(audit, "syscall_rules");
	if (!ctx->live) {
		/* a gathered dump keeps what the live probe found */
		_cleanup_free_ char *n = probe_gather_meta(ctx, "audit-rules"), *sys = probe_gather_meta(ctx, "audit-syscall-rules");
		_cleanup_free_ char *why = probe_gather_meta(ctx, "audit-unavailable");
		uint64_t a, b;
		if (n && sys && parse_u64(n, &a) == 0 && parse_u64(sys, &b) == 0) {
			jset_int(audit, "rules", (int64_t)a);
			jset_int(audit, "syscall_rules", (int64_t)b);
		} else {
			probe_unavailable(ctx, "host", "%s", why ?: "audit rules: `auditctl -l` runs on the live machine only");
		}
		return;
	}
	_cleanup_free_ char *out = NULL;
	const char *argv[] = { "auditctl", "-l", NULL };
	int r = spawn_capture(argv, &out);
	if (r != 0 || !out) {
		probe_unavailable(ctx, "host", "audit rules: `auditctl -l` %s",
				  r == -ENOENT ? "is not installed" : "failed (it needs root)");
		return;
	}
	size_t sys, n = audit_count_rules(out, &sys);
	jset_int(audit, "rules", (int64_t)n);
	jset_int(audit, "syscall_rules", (int64_t)sys);
}

void limits_collect(struct probe_ctx *ctx, json_object *host)
{
	json_object *limits = jchild(host, "limits"), *audit = jchild(host, "audit");
	if (!nproc_limits(ctx, limits)) {
		jset_null(limits, "nproc_soft");
		jset_null(limits, "nproc_hard");
	}
	pids_max(ctx, limits);
	sysctl_number(ctx, limits, "pid_max", "/proc/sys/kernel/pid_max");
	sysctl_number(ctx, limits, "threads_max", "/proc/sys/kernel/threads-max");
	seccomp(ctx, audit);
	audit_rules(ctx, audit);
}

void limits_render(const struct env_record *env, FILE *out)
{
	const struct env_limits *l = &env->host.limits;
	const struct env_audit *a = &env->host.audit;
	struct buf b = {0};
	json_object *values[] = { l->nproc_soft, l->pids_max, l->pid_max.json, l->threads_max.json };
	const char *names[] = { "ulimit -u", "pids.max", "pid_max", "threads-max" };
	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (values[i])
			buf_printf(&b, "%s%s %s", b.len ? " · " : "", names[i], json_object_get_string(values[i]));
	if (a->rules.known && a->syscall_rules.known)
		buf_printf(&b, "%saudit %" PRId64 " rules (%" PRId64 " on system calls)", b.len ? " · " : "", a->rules.v,
			   a->syscall_rules.v);
	if (a->seccomp && !streq(a->seccomp, "disabled"))
		buf_printf(&b, "%sseccomp %s", b.len ? " · " : "", a->seccomp);
	if (b.len)
		render_line(out, "Limits", "%s", b.s);
	buf_free(&b);
}
