/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Frequency scaling: cpufreq policies, governors, limits and the boost switch. */
#include <ctype.h>
#include <errno.h>

#include "cpu.h"
#include "lib/hw.h"

#define INTEL_PSTATE CPU_SYS "/intel_pstate"

/* A number from DIR/FILE as JSON, or NULL (= JSON null) when unreadable. */
static json_object *read_num(struct probe_ctx *ctx, const char *dir, const char *file)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, file);
	uint64_t v;
	if (rootfs_read_u64(ctx->rf, path, &v) < 0 || v > INT64_MAX)
		return NULL;
	return json_object_new_int64((int64_t)v);
}

/* 0/1 switch files; -1 when absent or not a switch. */
static int read_switch(struct probe_ctx *ctx, const char *path)
{
	uint64_t v;
	if (rootfs_read_u64(ctx->rf, path, &v) < 0 || v > 1)
		return -1;
	return (int)v;
}

static json_object *policy_read(struct probe_ctx *ctx, const char *name, const char *dir,
				const struct cpuset *cpus)
{
	json_object *p = json_object_new_object();
	jset_str(p, "policy", name);
	jset_str(p, "path", dir);
	if (cpus) {
		_cleanup_free_ char *list = cpuset_format(cpus);
		jset_str(p, "cpus", list);
	} else {
		jset_null(p, "cpus");
	}
	_cleanup_free_ char *driver = rootfs_read_attr(ctx->rf, dir, "scaling_driver");
	_cleanup_free_ char *governor = rootfs_read_attr(ctx->rf, dir, "scaling_governor");
	jset_str(p, "driver", driver);
	jset_str(p, "governor", governor);
	json_object *cur = read_num(ctx, dir, "scaling_cur_freq");
	jset(p, "cur_khz", cur ? cur : read_num(ctx, dir, "cpuinfo_cur_freq"));
	jset(p, "min_khz", read_num(ctx, dir, "scaling_min_freq"));
	jset(p, "max_khz", read_num(ctx, dir, "scaling_max_freq"));
	jset(p, "cpuinfo_min_khz", read_num(ctx, dir, "cpuinfo_min_freq"));
	jset(p, "cpuinfo_max_khz", read_num(ctx, dir, "cpuinfo_max_freq"));
	_cleanup_free_ char *boost_path = xasprintf("%s/boost", dir);
	int boost = read_switch(ctx, boost_path);
	if (boost >= 0)
		jset_bool(p, "boost", boost);
	else
		jset_null(p, "boost");
	/* energy_performance_preference: intel_pstate and amd-pstate in active (EPP) mode */
	_cleanup_free_ char *epp = hw_label_attr(ctx->rf, dir, "energy_performance_preference");
	_cleanup_free_ char *avail = hw_label_attr(ctx->rf, dir, "energy_performance_available_preferences");
	jset_str(p, "epp", epp);
	if (avail) {
		json_object *a = json_object_new_array();
		struct strv words = {0};
		strv_split(avail, " \t", &words);
		for (size_t i = 0; i < words.n; i++)
			jarr_add_str(a, words.v[i]);
		strv_free(&words);
		jset(p, "epp_available", a);
	} else {
		jset_null(p, "epp_available");
	}
	return p;
}

/* x86 EPB: the most power-saving value over the CPUs, and where it was read. */
static void epb_collect(struct probe_ctx *ctx, json_object *freq)
{
	struct strv files = {0};
	int64_t worst = -1;
	const char *source = NULL;
	bool mixed = false;
	hw_epb_files(ctx->rf, &files);
	for (size_t i = 0; i < files.n; i++) {
		uint64_t v;
		if (rootfs_read_u64(ctx->rf, files.v[i], &v) < 0 || v > 15)
			continue;
		mixed |= worst >= 0 && (int64_t)v != worst;
		if ((int64_t)v > worst) {
			worst = (int64_t)v;
			source = files.v[i];
		}
	}
	if (worst >= 0) {
		jset_int(freq, "epb", worst);
		jset_str(freq, "epb_source", source);
		jset_bool(freq, "epb_mixed", mixed);
	} else {
		jset_null(freq, "epb");
		jset_null(freq, "epb_source");
		jset_null(freq, "epb_mixed");
	}
	strv_free(&files);
}

/* The one value all policies share, "mixed" when they differ, NULL when none is known. */
static const char *common_str(json_object *policies, const char *key)
{
	const char *common = NULL;
	for (size_t i = 0; i < json_object_array_length(policies); i++) {
		const char *v = jpath_str(json_object_array_get_idx(policies, i), key);
		if (!v)
			continue;
		if (common && !streq(common, v))
			return "mixed";
		common = v;
	}
	return common;
}

/* Lowest (sign -1) or highest (sign 1) value of a key over all policies. */
static void extreme_num(json_object *policies, const char *key, int sign, json_object *freq, const char *out)
{
	bool found = false;
	int64_t best = 0;
	for (size_t i = 0; i < json_object_array_length(policies); i++) {
		int64_t v;
		if (!jpath_int(json_object_array_get_idx(policies, i), key, &v))
			continue;
		if (!found || (sign > 0 ? v > best : v < best))
			best = v;
		found = true;
	}
	if (found)
		jset_int(freq, out, best);
	else
		jset_null(freq, out);
}

/* First CPU of a policy's list string. */
static long first_cpu(json_object *policy)
{
	const char *cpus = jpath_str(policy, "cpus");
	return cpus && isdigit((unsigned char)*cpus) ? strtol(cpus, NULL, 10) : -1;
}

/*
 * Whether the CPUs can run above their nominal clock at all: ACPI CPPC's
 * highest_perf above nominal_perf, intel_pstate's turbo_pct, or a
 * base_frequency below cpuinfo_max_freq. NULL when nothing says.
 */
static json_object *boost_available(struct probe_ctx *ctx, json_object *policies)
{
	int answer = -1;
	uint64_t pct;
	if (rootfs_read_u64(ctx->rf, INTEL_PSTATE "/turbo_pct", &pct) == 0)
		return json_object_new_boolean(pct > 0);
	for (size_t i = 0; i < json_object_array_length(policies) && answer != 1; i++) {
		json_object *p = json_object_array_get_idx(policies, i);
		long cpu = first_cpu(p);
		uint64_t highest, nominal, base;
		int64_t max;
		_cleanup_free_ char *cppc = xasprintf(CPU_SYS "/cpu%ld/acpi_cppc", cpu);
		_cleanup_free_ char *hp = xasprintf("%s/highest_perf", cppc), *np = xasprintf("%s/nominal_perf", cppc);
		_cleanup_free_ char *bf = xasprintf("%s/base_frequency", jpath_str(p, "path"));
		if (cpu >= 0 && rootfs_read_u64(ctx->rf, hp, &highest) == 0 &&
		    rootfs_read_u64(ctx->rf, np, &nominal) == 0 && nominal > 0)
			answer = highest > nominal;
		else if (rootfs_read_u64(ctx->rf, bf, &base) == 0 && jpath_int(p, "cpuinfo_max_khz", &max))
			answer = (int64_t)base < max;
		else if (answer < 0)
			break; /* neither source on this machine */
	}
	return answer < 0 ? NULL : json_object_new_boolean(answer);
}

/*
 * The boost (turbo) switch, vendor-neutral: intel_pstate's no_turbo
 * (inverted), the global cpufreq/boost (acpi-cpufreq, cppc, qcom, ...),
 * else per-policy boost files (amd-pstate and cppc on Linux 6.11+).
 */
static void boost_collect(struct probe_ctx *ctx, json_object *freq, json_object *policies,
			  const struct hw_policies *pols)
{
	int v = -1;
	const char *source = NULL;
	struct hw_boost sw;

	/* per-policy switches: off when any policy has it off */
	hw_boost_switches(ctx->rf, pols, &sw);
	for (size_t i = 0; i < sw.n; i++) {
		int b = hw_boost_read(ctx->rf, &sw.v[i]);
		if (b < 0)
			continue;
		if (v < 0 || (v == 1 && !b)) {
			v = b;
			source = sw.v[i].path;
		}
	}
	if (v >= 0)
		jset_bool(freq, "boost", v);
	else
		jset_null(freq, "boost");
	jset_str(freq, "boost_source", source);
	hw_boost_free(&sw);
	json_object *avail = boost_available(ctx, policies);
	jset(freq, "boost_available", avail);

	if (v < 0 && json_object_array_length(policies) > 0) {
		_cleanup_free_ char *amd = NULL;
		if (rootfs_read_line(ctx->rf, CPU_SYS "/amd_pstate/status", &amd) == 0)
			probe_unavailable(ctx, "cpu", "boost: amd_pstate (status %s) offers no boost switch on this kernel", amd);
		else
			probe_unavailable(ctx, "cpu", "boost: no switch (cpufreq/boost, intel_pstate/no_turbo, policy boost)");
	}
}

void cpufreq_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols)
{
	json_object *freq = jchild(cpu, "freq");
	json_object *policies = json_object_new_array();

	for (size_t i = 0; i < pols->n; i++)
		json_object_array_add(policies, policy_read(ctx, pols->v[i].name, pols->v[i].path,
							    pols->v[i].have_cpus ? &pols->v[i].cpus : NULL));
	if (json_object_array_length(policies) == 0)
		probe_unavailable(ctx, "cpu", "frequency scaling: no cpufreq policy under " CPU_SYS);

	jset_str(freq, "driver", common_str(policies, "driver"));
	jset_str(freq, "governor", common_str(policies, "governor"));
	jset_str(freq, "epp", common_str(policies, "epp"));
	extreme_num(policies, "cur_khz", 1, freq, "cur_khz");
	extreme_num(policies, "min_khz", -1, freq, "min_khz");
	extreme_num(policies, "max_khz", 1, freq, "max_khz");
	boost_collect(ctx, freq, policies, pols);
	epb_collect(ctx, freq);
	jset(freq, "policies", policies);
}

/* "2803.2" from a kHz member; false when it is null. */
static bool format_mhz(struct opt_int khz, char *buf, size_t n)
{
	if (!khz.known)
		return false;
	snprintf(buf, n, "%.1f", (double)khz.v / 1000.0);
	if (endswith(buf, ".0"))
		buf[strlen(buf) - 2] = '\0';
	return true;
}

static bool same_khz(struct opt_int a, struct opt_int b)
{
	return a.known == b.known && (!a.known || a.v == b.v);
}

static bool same_setting(const struct env_policy *a, const struct env_policy *b)
{
	return streq_ptr(a->driver, b->driver) && streq_ptr(a->governor, b->governor) &&
	       same_khz(a->min_khz, b->min_khz) && same_khz(a->max_khz, b->max_khz);
}

/* One line for the policies of group g (same driver, governor and limits). */
static void render_group(const struct env_freq *freq, const size_t *group, size_t g, bool whole, struct buf *b)
{
	const struct env_policy *p0 = NULL, *lo = NULL, *hi = NULL;
	struct cpuset cpus = {0};
	char min[24], max[24], cur_lo[24], cur_hi[24];

	for (size_t i = 0; i < freq->policies.n; i++) {
		const struct env_policy *p = &freq->policies.v[i];
		struct cpuset c = {0};
		if (group[i] != g)
			continue;
		if (!p0)
			p0 = p;
		if (p->cpus && cpu_list_parse(p->cpus, &c) == 0)
			for (size_t k = 0; k < cpuset_size(&c); k++)
				if (cpuset_isset(&c, k))
					cpuset_set(&cpus, k);
		cpuset_free(&c);
		if (!p->cur_khz.known)
			continue;
		if (!lo || (lo->cur_khz.known && p->cur_khz.v < lo->cur_khz.v))
			lo = p;
		if (!hi || (hi->cur_khz.known && p->cur_khz.v > hi->cur_khz.v))
			hi = p;
	}
	if (!whole) {
		_cleanup_free_ char *list = cpuset_format(&cpus);
		buf_printf(b, "%s %s: ", cpuset_count(&cpus) == 1 ? "CPU" : "CPUs", list);
	}
	cpuset_free(&cpus);
	buf_printf(b, "%s, governor %s", p0->driver ?: "driver unknown", p0->governor ?: "unknown");
	if (format_mhz(p0->min_khz, min, sizeof(min)) && format_mhz(p0->max_khz, max, sizeof(max)))
		buf_printf(b, ", %s–%s MHz", min, max);
	else if (format_mhz(p0->max_khz, max, sizeof(max)))
		buf_printf(b, ", up to %s MHz", max);
	if (lo) {
		format_mhz(lo->cur_khz, cur_lo, sizeof(cur_lo));
		format_mhz(hi->cur_khz, cur_hi, sizeof(cur_hi));
		if (streq(cur_lo, cur_hi))
			buf_printf(b, ", now %s MHz%s", cur_lo, whole ? " on all CPUs" : "");
		else
			buf_printf(b, ", now %s–%s MHz", cur_lo, cur_hi);
	}
}

void cpufreq_render(const struct env_record *env, FILE *out)
{
	const struct env_freq *freq = &env->cpu.freq;
	size_t n = freq->policies.n;
	const char *boost_text = !freq->boost.known ? NULL : freq->boost.v ? "boost on" : "boost off";

	if (n == 0) {
		render_line(out, NULL, "no cpufreq interface");
		return;
	}
	/* Policies with equal settings share a line. */
	_cleanup_free_ size_t *group = xmalloc(n * sizeof(size_t));
	size_t groups = 0;
	for (size_t i = 0; i < n; i++)
		group[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (group[i] != SIZE_MAX)
			continue;
		for (size_t j = i; j < n; j++)
			if (group[j] == SIZE_MAX && same_setting(&freq->policies.v[i], &freq->policies.v[j]))
				group[j] = groups;
		groups++;
	}
	for (size_t g = 0; g < groups; g++) {
		struct buf b = {0};
		render_group(freq, group, g, groups == 1, &b);
		if (g + 1 == groups && boost_text)
			buf_printf(&b, " · %s", boost_text);
		if (g + 1 == groups && freq->epp)
			buf_printf(&b, " · EPP %s", freq->epp);
		if (g + 1 == groups && freq->epb.known)
			buf_printf(&b, " · EPB %lld", (long long)freq->epb.v);
		render_line(out, NULL, "%s", b.s);
		buf_free(&b);
	}
}
