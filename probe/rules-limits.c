/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about process limits, seccomp and audit rules. */
#include <inttypes.h>

#include "findings.h"
#include "probe.h"
#include "unixbench/catalogue.h"

/* The processes a full run needs at once: one copy of the test with the
 * most processes (Shell Scripts (8 concurrent)) per online CPU. */
static int64_t procs_needed(json_object *rec)
{
	int64_t threads;
	return jpath_int(rec, "cpu.threads", &threads) && threads > 0 ? threads * ub_most_procs()->procs : -1;
}

static bool process_limit(const struct env_record *env, struct finding *f)
{
	json_object *rec = env->json; /* keys the typed record does not decode yet */
	int64_t needed = procs_needed(rec);
	if (needed < 0)
		return false;
	static const struct { const char *key, *name; } limits[] = {
		{ "host.limits.nproc_hard", "ulimit -u (hard; the soft limit is raised to it for a run)" },
		{ "host.limits.pids_max", "pids.max of this cgroup" },
		{ "host.limits.threads_max", "kernel.threads-max" },
		{ "host.limits.pid_max", "kernel.pid_max" },
	};
	struct buf b = {0};
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
		int64_t v;
		if (jpath_int(rec, limits[i].key, &v) && v < needed)
			buf_printf(&b, "%s%s = %" PRId64, b.len ? "; " : "", limits[i].name, v);
	}
	if (!b.len)
		return false;
	const struct ub_test_info *most = ub_most_procs();
	buf_printf(&b, "; %" PRId64 " CPUs x %u processes per %s copy = %" PRId64, needed / most->procs, most->procs,
		   most->name, needed);
	f->evidence = buf_steal(&b);
	return true;
}

static bool audit_syscall_rules(const struct env_record *env, struct finding *f)
{
	json_object *rec = env->json; /* keys the typed record does not decode yet */
	int64_t n, all;
	if (!jpath_int(rec, "host.audit.syscall_rules", &n) || n == 0)
		return false;
	jpath_int(rec, "host.audit.rules", &all);
	finding_set(&f->evidence, "auditctl -l: %" PRId64 " rules, %" PRId64 " of them on system calls (-S)", all, n);
	return true;
}

static bool seccomp_filter(const struct env_record *env, struct finding *f)
{
	json_object *rec = env->json; /* keys the typed record does not decode yet */
	if (!streq_ptr(jpath_str(rec, "host.audit.seccomp"), "filter"))
		return false;
	int64_t n = -1;
	jpath_int(rec, "host.audit.seccomp_filters", &n);
	if (n >= 0)
		finding_set(&f->evidence, "/proc/self/status: Seccomp 2 (filter), Seccomp_filters %" PRId64, n);
	else
		finding_set(&f->evidence, "/proc/self/status: Seccomp 2 (filter)");
	return true;
}

const struct rule limits_rules[] = {
	{
		.id = "host.process-limit",
		.area = "host",
		.severity = SEV_WARN,
		.message = "A process limit is below what one copy per CPU needs: Shell Scripts and Process Creation "
			   "fail (fork: Resource temporarily unavailable) or stall when they hit it, and their scores "
			   "describe the limit.",
		.fix = "raise it for the run: ulimit -u / LimitNPROC, the cgroup's pids.max (TasksMax= of the "
		       "service or session), or sysctl kernel.pid_max / kernel.threads-max",
		.check = process_limit,
	},
	{
		.id = "host.audit-syscall-rules",
		.area = "host",
		.severity = SEV_WARN,
		.message = "Audit rules on system calls are loaded: the kernel checks every system call against "
			   "them, so System Call Overhead, Pipe Throughput and Execl score lower than on the same "
			   "machine without them.",
		.fix = "compare with the rules removed (auditctl -D, as root; auditctl -R restores them), or "
		       "state them with the result",
		.check = audit_syscall_rules,
	},
	{
		.id = "host.seccomp-filter",
		.area = "host",
		.severity = SEV_INFO,
		.message = "ubtune runs under a seccomp filter (a container or a sandboxed service): every system "
			   "call of the tests passes through it, which System Call Overhead measures too.",
		.check = seccomp_filter,
	},
	{ 0 },
};
