/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpufreq policies, their clocks, and the boost switch. */
#include <errno.h>

#include "hw.h"

#define INTEL_PSTATE HW_CPU_DIR "/intel_pstate"

/* The CPUs a policy governs: affected_cpus (its online CPUs), else
 * related_cpus. Old acpi-cpufreq kernels list a hardware-coordinated
 * domain in related_cpus while each CPU has a policy of its own. */
static int policy_cpus(struct rootfs *rf, const char *dir, struct cpuset *cpus)
{
	static const char *const files[] = { "affected_cpus", "related_cpus" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *s = rootfs_read_attr(rf, dir, files[i]);
		if (s && cpu_list_parse(s, cpus) == 0 && cpuset_count(cpus) > 0)
			return 0;
		cpuset_free(cpus);
	}
	return -ENOENT;
}

static void policy_add(struct hw_policies *out, const char *name, const char *dir, struct cpuset *cpus, bool have)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	out->v[out->n++] = (struct hw_policy){ xstrdup(name), xstrdup(dir), *cpus, have };
	*cpus = (struct cpuset){0};
}

/* policyN directories (Linux 4.3 and later) whose CPUs are online. */
static void from_cpufreq_dir(struct rootfs *rf, const struct cpuset *online, struct hw_policies *out)
{
	struct strv names = {0};
	if (rootfs_list(rf, HW_CPUFREQ_DIR, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (!str_numbered(names.v[i], "policy"))
			continue;
		_cleanup_free_ char *dir = xasprintf(HW_CPUFREQ_DIR "/%s", names.v[i]);
		struct cpuset cpus = {0};
		bool have = policy_cpus(rf, dir, &cpus) == 0;
		if (!have || !online || cpuset_intersects(&cpus, online))
			policy_add(out, names.v[i], dir, &cpus, have);
		cpuset_free(&cpus);
	}
	strv_free(&names);
}

/* Older kernels: cpuN/cpufreq, one directory (or link) per CPU of a policy. */
static void from_cpu_dirs(struct rootfs *rf, const struct cpuset *online, struct hw_policies *out)
{
	struct strv names = {0};
	struct cpuset covered = {0};
	if (rootfs_list(rf, HW_CPU_DIR, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (!str_numbered(names.v[i], "cpu"))
			continue;
		size_t n = strtoul(names.v[i] + 3, NULL, 10);
		if (n >= CPUSET_MAX || (online && !cpuset_isset(online, n)) || cpuset_isset(&covered, n))
			continue;
		_cleanup_free_ char *dir = xasprintf(HW_CPU_DIR "/%s/cpufreq", names.v[i]);
		struct stat st;
		if (rootfs_stat(rf, dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		/* the directory of CPU n governs CPU n, whatever its lists say */
		struct cpuset cpus = {0};
		if (policy_cpus(rf, dir, &cpus) < 0 || !cpuset_isset(&cpus, n)) {
			cpuset_free(&cpus);
			cpuset_set(&cpus, n);
		}
		for (size_t c = 0; c < cpuset_size(&cpus); c++)
			if (cpuset_isset(&cpus, c))
				cpuset_set(&covered, c);
		policy_add(out, names.v[i], dir, &cpus, true);
	}
	cpuset_free(&covered);
	strv_free(&names);
}

void hw_cpufreq_policies(struct rootfs *rf, const struct cpuset *online, struct hw_policies *out)
{
	*out = (struct hw_policies){0};
	from_cpufreq_dir(rf, online, out);
	if (!out->n)
		from_cpu_dirs(rf, online, out);
}

void hw_policies_free(struct hw_policies *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].path);
		cpuset_free(&p->v[i].cpus);
	}
	free(p->v);
	*p = (struct hw_policies){0};
}

const struct hw_policy *hw_policy_of_cpu(const struct hw_policies *p, size_t cpu)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].have_cpus && cpuset_isset(&p->v[i].cpus, cpu))
			return &p->v[i];
	return NULL;
}

int hw_policy_u64(struct rootfs *rf, const struct hw_policy *p, const char *attr, uint64_t *v)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", p->path, attr);
	return rootfs_read_u64(rf, path, v);
}

int hw_policy_cur_khz(struct rootfs *rf, const struct hw_policy *p, uint64_t *khz)
{
	int r = hw_policy_u64(rf, p, "scaling_cur_freq", khz);
	return r == 0 ? 0 : hw_policy_u64(rf, p, "cpuinfo_cur_freq", khz);
}

int hw_policy_ref_khz(struct rootfs *rf, const struct hw_policy *p, uint64_t *khz)
{
	static const char *const refs[] = { "base_frequency", "cpuinfo_max_freq", "scaling_max_freq" };
	for (size_t i = 0; i < ARRAY_SIZE(refs); i++)
		if (hw_policy_u64(rf, p, refs[i], khz) == 0 && *khz > 0)
			return 0;
	return -ENOENT;
}

/* ---- energy/performance bias ---- */

void hw_epb_files(struct rootfs *rf, struct strv *paths)
{
	struct strv names = {0};
	if (rootfs_list(rf, HW_CPU_DIR, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (!str_numbered(names.v[i], "cpu"))
			continue;
		_cleanup_free_ char *path = xasprintf(HW_CPU_DIR "/%s/power/energy_perf_bias", names.v[i]);
		if (rootfs_exists(rf, path) == 0)
			strv_push(paths, path);
	}
	strv_free(&names);
}

int hw_epb_parse(const char *word)
{
	/* the strings arch/x86/kernel/cpu/intel_epb.c accepts */
	static const struct { const char *name; int v; } names[] = {
		{ "performance", 0 }, { "balance-performance", 4 }, { "normal", 6 }, { "balance-power", 8 }, { "power", 15 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (streq(word, names[i].name))
			return names[i].v;
	return -1;
}

/* ---- boost ---- */

static void switch_add(struct hw_boost *b, char *path, char *what, bool inverted)
{
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->v[b->n++] = (struct hw_boost_switch){ path, what, inverted };
}

void hw_boost_switches(struct rootfs *rf, const struct hw_policies *p, struct hw_boost *out)
{
	*out = (struct hw_boost){0};
	_cleanup_free_ char *status = NULL;
	/* intel_pstate switched off (status "off") leaves its directory behind */
	bool pstate_off = rootfs_read_line(rf, INTEL_PSTATE "/status", &status) == 0 && streq(status, "off");
	if (!pstate_off && rootfs_exists(rf, INTEL_PSTATE "/no_turbo") == 0) {
		switch_add(out, xstrdup(INTEL_PSTATE "/no_turbo"), xstrdup("turbo (intel_pstate no_turbo)"), true);
		return;
	}
	if (rootfs_exists(rf, HW_CPUFREQ_DIR "/boost") == 0) {
		switch_add(out, xstrdup(HW_CPUFREQ_DIR "/boost"), xstrdup("boost"), false);
		return;
	}
	for (size_t i = 0; p && i < p->n; i++) {
		char *path = xasprintf("%s/boost", p->v[i].path);
		if (rootfs_exists(rf, path) == 0)
			switch_add(out, path, xasprintf("%s boost", p->v[i].name), false);
		else
			free(path);
	}
}

void hw_boost_free(struct hw_boost *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].path);
		free(b->v[i].what);
	}
	free(b->v);
	*b = (struct hw_boost){0};
}

int hw_boost_read(struct rootfs *rf, const struct hw_boost_switch *s)
{
	uint64_t v;
	int r = rootfs_read_u64(rf, s->path, &v);
	if (r < 0)
		return r;
	if (v > 1)
		return -EBADMSG;
	return s->inverted ? !v : (int)v;
}
