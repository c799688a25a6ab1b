/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kinds of core on hybrid CPUs and their topology. ARM's big.LITTLE kinds
 * differ in MIDR already; Intel's P- and E-cores share a model name, so
 * they are told apart by the kernel's hybrid PMUs (/sys/devices/cpu_core,
 * cpu_atom: Linux 5.13 and later), else as hwloc does by their base
 * frequency. Each kind gets its cores, threads and capacity, and the
 * fastest kind is marked: the one the 1-copy pass can be pinned to.
 */
#include "cpu.h"
#include "lib/hw.h"

static bool read_cpus(struct probe_ctx *ctx, const char *path, struct cpuset *out)
{
	_cleanup_free_ char *s = NULL;
	return rootfs_read_line(ctx->rf, path, &s) == 0 && cpu_list_parse(s, out) == 0 && cpuset_count(out) > 0;
}

static json_object *kind_part(json_object *kind, const struct cpuset *all, const struct cpuset *part,
			      const char *core_type)
{
	json_object *o = json_object_new_object();
	struct cpuset mine = {0};
	for (size_t c = 0; c < cpuset_size(all); c++)
		if (cpuset_isset(all, c) && cpuset_isset(part, c))
			cpuset_set(&mine, c);
	_cleanup_free_ char *list = cpuset_format(&mine);
	cpuset_free(&mine);
	json_object_object_foreach(kind, key, val)
		json_object_object_add(o, key, json_object_get(val));
	jset_str(o, "cpus", list);
	jset_str(o, "core_type", core_type);
	return o;
}

/* The CPUs of a kind with a base_frequency below the highest: E-cores.
 * False when the kind's base frequencies are all alike (or unknown). */
static bool slower_by_base(struct probe_ctx *ctx, const struct cpuset *cpus, const struct hw_policies *pols,
			   struct cpuset *slow)
{
	uint64_t hi = 0, lo = UINT64_MAX, v;
	for (size_t c = 0; c < cpuset_size(cpus); c++) {
		const struct hw_policy *p = cpuset_isset(cpus, c) ? hw_policy_of_cpu(pols, c) : NULL;
		if (!p || hw_policy_u64(ctx->rf, p, "base_frequency", &v) < 0 || !v)
			return false;
		hi = v > hi ? v : hi;
		lo = v < lo ? v : lo;
	}
	if (hi == lo)
		return false;
	for (size_t c = 0; c < cpuset_size(cpus); c++) {
		const struct hw_policy *p = cpuset_isset(cpus, c) ? hw_policy_of_cpu(pols, c) : NULL;
		if (p && hw_policy_u64(ctx->rf, p, "base_frequency", &v) == 0 && v < hi)
			cpuset_set(slow, c);
	}
	return true;
}

/* Splits an x86 kind into its P- and E-cores; NULL when it is not hybrid. */
static json_object *split_hybrid(struct probe_ctx *ctx, json_object *kind, const struct hw_policies *pols)
{
	struct cpuset cpus = {0}, p = {0}, e = {0};
	json_object *out = NULL;
	if (!jpath_str(kind, "cpus") || cpu_list_parse(jpath_str(kind, "cpus"), &cpus) < 0)
		return NULL;
	bool pmu = read_cpus(ctx, "/sys/devices/cpu_core/cpus", &p) && read_cpus(ctx, "/sys/devices/cpu_atom/cpus", &e);
	if (!pmu) {
		cpuset_free(&p);
		cpuset_free(&e);
		if (slower_by_base(ctx, &cpus, pols, &e))
			for (size_t c = 0; c < cpuset_size(&cpus); c++)
				if (cpuset_isset(&cpus, c) && !cpuset_isset(&e, c))
					cpuset_set(&p, c);
	}
	if (cpuset_intersects(&cpus, &p) && cpuset_intersects(&cpus, &e)) {
		out = json_object_new_array();
		json_object *pk = kind_part(kind, &cpus, &p, "performance"), *ek = kind_part(kind, &cpus, &e, "efficiency");
		/* in CPU order */
		size_t pf = 0, ef = 0;
		while (!cpuset_isset(&p, pf) || !cpuset_isset(&cpus, pf))
			pf++;
		while (!cpuset_isset(&e, ef) || !cpuset_isset(&cpus, ef))
			ef++;
		json_object_array_add(out, pf < ef ? pk : ek);
		json_object_array_add(out, pf < ef ? ek : pk);
	}
	cpuset_free(&cpus);
	cpuset_free(&p);
	cpuset_free(&e);
	return out;
}

/* cores (by thread siblings), threads and the highest cpu_capacity of a kind. */
static void kind_topology(struct probe_ctx *ctx, json_object *kind)
{
	struct cpuset cpus = {0}, first = {0};
	int64_t capacity = -1;
	size_t cores = 0;
	if (!jpath_str(kind, "cpus") || cpu_list_parse(jpath_str(kind, "cpus"), &cpus) < 0) {
		jset_null(kind, "cores");
		jset_null(kind, "threads");
		jset_null(kind, "capacity");
		return;
	}
	bool known = true;
	for (size_t c = 0; c < cpuset_size(&cpus); c++) {
		if (!cpuset_isset(&cpus, c))
			continue;
		_cleanup_free_ char *sib = xasprintf(CPU_SYS "/cpu%zu/topology/thread_siblings_list", c);
		_cleanup_free_ char *cap = xasprintf(CPU_SYS "/cpu%zu/cpu_capacity", c);
		struct cpuset s = {0};
		int64_t v;
		if (read_cpus(ctx, sib, &s)) {
			size_t lead = 0;
			while (!cpuset_isset(&s, lead))
				lead++;
			if (!cpuset_isset(&first, lead)) {
				cpuset_set(&first, lead);
				cores++;
			}
		} else {
			known = false;
		}
		cpuset_free(&s);
		if (rootfs_read_s64(ctx->rf, cap, &v) == 0 && v > capacity)
			capacity = v;
	}
	if (known)
		jset_int(kind, "cores", (int64_t)cores);
	else
		jset_null(kind, "cores");
	jset_int(kind, "threads", (int64_t)cpuset_count(&cpus));
	if (capacity >= 0)
		jset_int(kind, "capacity", capacity);
	else
		jset_null(kind, "capacity");
	cpuset_free(&cpus);
	cpuset_free(&first);
}

void kinds_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols)
{
	json_object *kinds = jpath(cpu, "kinds"), *out = json_object_new_array();
	for (size_t i = 0; i < jarr_len(kinds); i++) {
		json_object *k = json_object_array_get_idx(kinds, i);
		json_object *parts = jpath(k, "midr") ? NULL : split_hybrid(ctx, k, pols);
		for (size_t p = 0; p < jarr_len(parts); p++)
			json_object_array_add(out, json_object_get(json_object_array_get_idx(parts, p)));
		if (!parts) {
			json_object_array_add(out, json_object_get(k));
			if (!jpath(k, "core_type"))
				jset_null(k, "core_type");
		}
		json_object_put(parts);
	}
	jset(cpu, "kinds", out);
	for (size_t i = 0; i < jarr_len(out); i++)
		kind_topology(ctx, json_object_array_get_idx(out, i));
}

/* The fastest kind: highest capacity, else highest maximum clock, else the
 * highest measured clock; the first on a tie. -1 without a way to tell. */
static int fastest(json_object *kinds, const char *key)
{
	int best = -1;
	int64_t best_v = 0;
	bool differ = false;
	for (size_t i = 0; i < jarr_len(kinds); i++) {
		int64_t v;
		if (!jpath_int(json_object_array_get_idx(kinds, i), key, &v))
			return -1;
		differ |= best >= 0 && v != best_v;
		if (best < 0 || v > best_v)
			best = (int)i, best_v = v;
	}
	return differ || jarr_len(kinds) == 1 ? best : -1;
}

void kinds_mark_fastest(json_object *cpu)
{
	json_object *kinds = jpath(cpu, "kinds");
	static const char *const keys[] = { "capacity", "max_khz", "measured_khz" };
	int best = -1;
	for (size_t i = 0; i < ARRAY_SIZE(keys) && best < 0; i++)
		best = fastest(kinds, keys[i]);
	for (size_t i = 0; i < jarr_len(kinds); i++)
		jset_bool(json_object_array_get_idx(kinds, i), "fastest", (int)i == (best < 0 ? 0 : best));
}
