/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about process limits, seccomp and audit rules. */
#include <inttypes.h>

#include "findings.h"
#include "unixbench/catalogue.h"

/* The processes a full run needs at once: one copy of the test with the
 * most processes (Shell Scripts (8 concurrent)) per online CPU. */
static int64_t procs_needed(const struct env_record *env)
{
	int64_t threads = int_or(env->cpu.threads, 0);
	return threads > 0 ? threads * ub_most_procs()->procs : -1;
}

/* A limit that is a number ("unlimited" and "max" are none): *v. */
static bool limit_number(json_object *o, int64_t *v)
{
	if (!o || !(json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double)))
		return false;
	*v = json_object_get_int64(o);
	return true;
}

static bool process_limit(const struct env_record *env, struct finding *f)
{
	const struct env_limits *l = &env->host.limits;
	int64_t needed = procs_needed(env);
	if (needed < 0)
		return false;
	int64_t nproc_hard = 0, pids_max = 0;
	const struct { bool known; int64_t v; const char *name; } limits[] = {
		{ limit_number(l->nproc_hard, &nproc_hard), nproc_hard,
		  "ulimit -u (hard; the soft limit is raised to it for a run)" },
		{ limit_number(l->pids_max, &pids_max), pids_max, "pids.max of this cgroup" },
		{ l->threads_max.known, l->threads_max.v, "kernel.threads-max" },
		{ l->pid_max.known, l->pid_max.v, "kernel.pid_max" },
	};
	struct buf b = {0};
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++)
		if (limits[i].known && limits[i].v < needed)
			buf_printf(&b, "%s%s = %" PRId64, b.len ? "; " : "", limits[i].name, limits[i].v);
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
	const struct env_audit *a = &env->host.audit;
	if (!a->syscall_rules.known || a->syscall_rules.v == 0)
		return false;
	finding_set(&f->evidence, "auditctl -l: %" PRId64 " rules, %" PRId64 " of them on system calls (-S)",
		    int_or(a->rules, 0), a->syscall_rules.v);
	return true;
}

static bool seccomp_filter(const struct env_record *env, struct finding *f)
{
	const struct env_audit *a = &env->host.audit;
	if (!streq_ptr(a->seccomp, "filter"))
		return false;
	if (a->seccomp_filters.known)
		finding_set(&f->evidence, "/proc/self/status: Seccomp 2 (filter), Seccomp_filters %" PRId64,
			    a->seccomp_filters.v);
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
