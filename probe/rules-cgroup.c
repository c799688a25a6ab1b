/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about the cgroup of the process that benchmarks: a CPU quota or
 * a cpuset that leaves fewer CPUs than the machine has online. */
#include <inttypes.h>

#include "findings.h"
#include "lib/cpuset.h"

/* The machine's online CPUs, 0 when unknown. */
static size_t online_count(const struct env_record *env)
{
	struct cpuset set = {0};
	size_t n = env->cpu.online && cpu_list_parse(env->cpu.online, &set) == 0 ? cpuset_count(&set) : 0;
	cpuset_free(&set);
	return n;
}

static bool cpu_quota(const struct env_record *env, struct finding *f)
{
	const struct env_cgroup *c = &env->cgroup;
	size_t online = online_count(env);
	if (!c->cpu_quota_cpus.known || !online || c->cpu_quota_cpus.v >= (double)online)
		return false;
	struct buf b = {0};
	buf_printf(&b, "%s = %" PRId64 " %" PRId64 " (%g CPUs) of %zu online", c->cpu_quota_source ?: "cpu.max",
		   int_or(c->cpu_quota_us, 0), int_or(c->cpu_period_us, 0), c->cpu_quota_cpus.v, online);
	if (c->cpuset && !streq_ptr(c->cpuset, env->cpu.online))
		buf_printf(&b, "; %s = %s", c->cpuset_source ?: "cpuset", c->cpuset);
	const struct env_cgroup_throttling *t = &c->throttling;
	if (t->nr_throttled.known && t->nr_periods.known)
		buf_printf(&b, "; %s: throttled in %" PRId64 " of %" PRId64 " periods, %.1f s", t->source ?: "cpu.stat",
			   t->nr_throttled.v, t->nr_periods.v, (double)int_or(t->throttled_usec, 0) / 1e6);
	f->evidence = buf_steal(&b);
	if (c->cpus.known)
		finding_set(&f->message,
			    "The CPU quota of this cgroup (a container, a service's CPUQuota=, a pod's CPU limit) is "
			    "%g CPUs of the %zu online: the kernel stops its processes once they have used that much "
			    "in a period. A run starts %" PRId64 " cop%s, not %zu, and its multi-copy score describes "
			    "the quota, not the machine.",
			    c->cpu_quota_cpus.v, online, c->cpus.v, c->cpus.v == 1 ? "y" : "ies", online);
	return true;
}

static bool cpuset(const struct env_record *env, struct finding *f)
{
	const struct env_cgroup *c = &env->cgroup;
	size_t online = online_count(env);
	if (!c->cpus.known || !online || (size_t)c->cpus.v >= online || c->cpu_quota_cpus.known)
		return false;
	struct buf b = {0};
	if (c->cpuset)
		buf_printf(&b, "%s = %s", c->cpuset_source ?: "cpuset", c->cpuset);
	if (c->affinity && (!c->cpuset || !streq(c->affinity, c->cpuset)))
		buf_printf(&b, "%s/proc/self/status: Cpus_allowed_list %s", b.len ? "; " : "", c->affinity);
	buf_printf(&b, "; online %s", env->cpu.online);
	f->evidence = buf_steal(&b);
	finding_set(&f->message,
		    "This process may run on %" PRId64 " of the %zu online CPUs (its cgroup's cpuset or its "
		    "affinity): a run starts %" PRId64 " cop%s, and its multi-copy score describes those CPUs, "
		    "not the machine.",
		    c->cpus.v, online, c->cpus.v, c->cpus.v == 1 ? "y" : "ies");
	return true;
}

const struct rule cgroup_rules[] = {
	{
		.id = "cgroup.cpu-quota",
		.area = "cgroup",
		.severity = SEV_WARN,
		.message = "The CPU quota of this cgroup is below the CPUs online: a run's multi-copy score "
			   "describes the quota, not the machine.",
		.fix = "benchmark where no quota applies (docker run without --cpus, a service without CPUQuota=, a "
		       "pod without a CPU limit), or compare only with runs under the same quota",
		.check = cpu_quota,
	},
	{
		.id = "cgroup.cpuset",
		.area = "cgroup",
		.severity = SEV_INFO,
		.message = "This process may run on fewer CPUs than are online: a run's multi-copy score describes "
			   "those CPUs, not the machine.",
		.fix = "benchmark with every CPU allowed (docker run without --cpuset-cpus, a service without "
		       "AllowedCPUs=, no taskset), or compare only with runs on as many CPUs",
		.check = cpuset,
	},
	{ 0 },
};
