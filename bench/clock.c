/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "clock.h"

#include "lib/hw.h"

struct kind {
	char *model;
	unsigned cpu;
};

struct bench_clock {
	struct rootfs *rf;
	struct hw_policies policies;
	struct kind *kinds;
	size_t n;
};

struct bench_clock *bench_clock_new(struct rootfs *rf, const struct env_record *env)
{
	struct bench_clock *c = xcalloc(1, sizeof(*c));
	c->rf = rf;
	c->kinds = xcalloc(env->cpu.kinds.n + 1, sizeof(*c->kinds));
	for (size_t i = 0; i < env->cpu.kinds.n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		int64_t cpu = int_or(k->measured_cpu, -1);
		if (cpu < 0 || cpu >= CPUSET_MAX)
			continue;
		c->kinds[c->n++] = (struct kind){ xstrdup_or_null(k->model), (unsigned)cpu };
	}
	if (!c->n) {
		bench_clock_free(c);
		return NULL;
	}
	hw_cpufreq_policies(rf, NULL, &c->policies);
	return c;
}

void bench_clock_free(struct bench_clock *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->kinds[i].model);
	free(c->kinds);
	hw_policies_free(&c->policies);
	free(c);
}

json_object *bench_clock_measure(struct bench_clock *c)
{
	if (!c)
		return NULL;
	json_object *arr = json_object_new_array();
	for (size_t i = 0; i < c->n; i++) {
		const struct kind *k = &c->kinds[i];
		json_object *o = json_object_new_object();
		struct hw_clock m;
		_cleanup_free_ char *why = NULL;
		int r = hw_clock_measure(c->rf, k->cpu, hw_policy_of_cpu(&c->policies, k->cpu), &m, &why);
		jset_str(o, "model", k->model);
		jset_int(o, "cpu", k->cpu);
		jset(o, "measured_khz", r == 0 ? json_object_new_int64((int64_t)m.khz) : NULL);
		jset(o, "cur_khz", r == 0 && m.cpufreq_khz ? json_object_new_int64((int64_t)m.cpufreq_khz) : NULL);
		if (r < 0)
			jset_str(o, "error", why);
		json_object_array_add(arr, o);
	}
	return arr;
}
