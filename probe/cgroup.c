/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU and memory limits of the process that benchmarks: its cgroup
 * (v2, or v1 where mounted) and its CPU affinity. A container, a systemd
 * slice or a Kubernetes pod gets only the CPUs its cgroup allows: a
 * cpuset, a CPU quota (throttled once spent in each period), a weight
 * against its neighbours, a memory limit. The benchmark inherits all of it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "cpu.h"
#include "lib/cgroup.h"

/* "Cpus_allowed_list:\t0-3" of /proc/self/status, as a canonical list. */
static char *affinity(struct probe_ctx *ctx)
{
	_cleanup_free_ char *text = NULL;
	if (rootfs_read(ctx->rf, "/proc/self/status", &text, NULL) < 0)
		return NULL;
	const char *l = strstr(text, "\nCpus_allowed_list:");
	if (!l)
		return NULL;
	l += strlen("\nCpus_allowed_list:");
	_cleanup_free_ char *list = xstrndup(l, strcspn(l, "\n"));
	struct cpuset set = {0};
	if (cpu_list_parse(strstrip(list), &set) < 0)
		return NULL;
	char *s = cpuset_format(&set);
	cpuset_free(&set);
	return s;
}

/* The CPUs in every one of the lists that are known; false when none is. */
static bool allowed_cpus(const char *const *lists, size_t n, struct cpuset *out)
{
	bool any = false;
	*out = (struct cpuset){0};
	for (size_t i = 0; i < n; i++) {
		struct cpuset set = {0}, both = {0};
		if (!lists[i] || cpu_list_parse(lists[i], &set) < 0)
			continue;
		for (size_t cpu = 0; cpu < cpuset_size(&set); cpu++)
			if (cpuset_isset(&set, cpu) && (!any || cpuset_isset(out, cpu)))
				cpuset_set(&both, cpu);
		cpuset_free(&set);
		cpuset_free(out);
		*out = both;
		any = true;
	}
	return any;
}

static void collect_quota(struct probe_ctx *ctx, const struct cgroup *cg, json_object *o, double *cpus)
{
	struct cgroup_quota q;
	struct cgroup_cpu_stat st;
	int r = cgroup_cpu_quota(ctx->rf, cg, &q);
	*cpus = 0;
	if (r > 0) {
		*cpus = (double)q.quota_us / (double)q.period_us;
		jset_int(o, "cpu_quota_us", q.quota_us);
		jset_int(o, "cpu_period_us", q.period_us);
		jset_double(o, "cpu_quota_cpus", round(*cpus * 1000) / 1000);
		jset_str(o, "cpu_quota_source", q.source);
	} else {
		jset_null(o, "cpu_quota_us");
		jset_null(o, "cpu_period_us");
		jset_null(o, "cpu_quota_cpus");
		jset_null(o, "cpu_quota_source");
	}
	/* the throttling of the cgroup whose quota binds, else of the process's own */
	const char *dir = r > 0 ? q.dir : cg->ctrl[CGROUP_CPU].dir;
	if (dir && cgroup_cpu_stat(ctx->rf, dir, &st) == 0) {
		json_object *t = jchild(o, "throttling");
		jset_int(t, "nr_periods", (int64_t)st.nr_periods);
		jset_int(t, "nr_throttled", (int64_t)st.nr_throttled);
		jset_int(t, "throttled_usec", (int64_t)st.throttled_usec);
		_cleanup_free_ char *source = xasprintf("%s/cpu.stat", dir);
		jset_str(t, "source", source);
	} else {
		jset_null(o, "throttling");
	}
	cgroup_quota_free(&q);
}

/* v2 cpu.weight, v1 cpu.shares: of the process's own cgroup. */
static void collect_weight(struct probe_ctx *ctx, const struct cgroup *cg, json_object *o)
{
	const struct cgroup_dir *d = &cg->ctrl[CGROUP_CPU];
	_cleanup_free_ char *path = d->version ? xasprintf("%s/%s", d->dir, d->version == 2 ? "cpu.weight" : "cpu.shares")
					       : NULL;
	int64_t v;
	bool ok = path && rootfs_read_s64(ctx->rf, path, &v) == 0 && v > 0;
	jset(o, "cpu_weight", ok && d->version == 2 ? json_object_new_int64(v) : NULL);
	jset(o, "cpu_shares", ok && d->version == 1 ? json_object_new_int64(v) : NULL);
}

void cgroup_limit_collect(struct probe_ctx *ctx, const struct cgroup *cg, enum cgroup_controller c, const char *file,
			  json_object *o, const char *key)
{
	uint64_t v = 0;
	_cleanup_free_ char *source = NULL, *source_key = xasprintf("%s_source", key);
	int r = cg ? cgroup_lowest(ctx->rf, cg, c, file, &v, &source) : -ENOENT;
	if (r > 0)
		jset_int(o, key, (int64_t)v);
	else if (r == 0)
		jset_str(o, key, "max");
	else
		jset_null(o, key);
	jset_str(o, source_key, source);
}

static void set_null(json_object *o, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jset_null(o, keys[i]);
}

int cgroup_collect(struct probe_ctx *ctx)
{
	static const char *const keys[] = { "version", "path", "cpuset", "cpuset_source", "mems", "mems_source",
					    "cpu_quota_us",
					    "cpu_period_us", "cpu_quota_cpus", "cpu_quota_source", "cpu_weight",
					    "cpu_shares", "throttling", "memory_max", "memory_max_source" };
	json_object *o = jchild(ctx->rec, "cgroup");
	struct cgroup cg;
	_cleanup_free_ char *aff = affinity(ctx), *cpuset = NULL, *cpuset_source = NULL, *mems = NULL,
			    *mems_source = NULL;
	double quota = 0;

	int r = cgroup_open(ctx->rf, &cg);
	if (r < 0) {
		set_null(o, keys, ARRAY_SIZE(keys));
		probe_unavailable(ctx, "cgroup", "/proc/self/cgroup: %s",
				  r == -EBADMSG ? "names no cgroup" : strerror(-r));
	} else {
		jset(o, "version", cg.version ? json_object_new_int(cg.version) : NULL);
		jset_str(o, "path", cg.path);
		if (cgroup_cpuset(ctx->rf, &cg, false, &cpuset, &cpuset_source) < 0 && cg.ctrl[CGROUP_CPUSET].version)
			probe_unavailable(ctx, "cgroup", "cpuset: no cpuset.cpus.effective from %s up",
					  cg.ctrl[CGROUP_CPUSET].dir);
		cgroup_cpuset(ctx->rf, &cg, true, &mems, &mems_source);
		jset_str(o, "cpuset", cpuset);
		jset_str(o, "cpuset_source", cpuset_source);
		jset_str(o, "mems", mems);
		jset_str(o, "mems_source", mems_source);
		collect_quota(ctx, &cg, o, &quota);
		collect_weight(ctx, &cg, o);
		cgroup_limit_collect(ctx, &cg, CGROUP_MEMORY,
				     cg.ctrl[CGROUP_MEMORY].version == 1 ? "memory.limit_in_bytes" : "memory.max", o,
				     "memory_max");
		if (!cg.version)
			probe_unavailable(ctx, "cgroup", "CPU controller: no cgroup2 or v1 cpu hierarchy is mounted");
		cgroup_free(&cg);
	}
	jset_str(o, "affinity", aff);

	/* what a run can keep busy: the online CPUs the cpuset and the
	 * affinity leave, in whole CPUs of the quota */
	const char *lists[] = { jpath_str(ctx->rec, "cpu.online"), cpuset, aff };
	struct cpuset allowed;
	int64_t sockets = -1, cores = -1;
	size_t n = allowed_cpus(lists, ARRAY_SIZE(lists), &allowed) ? cpuset_count(&allowed) : 0;
	_cleanup_free_ char *list = n ? cpuset_format(&allowed) : NULL;
	if (n)
		cpu_topology_of(ctx, &allowed, &sockets, &cores);
	cpuset_free(&allowed);
	jset_str(o, "allowed", list);
	jset(o, "sockets", sockets >= 0 ? json_object_new_int64(sockets) : NULL);
	jset(o, "cores", cores >= 0 ? json_object_new_int64(cores) : NULL);
	jset(o, "cpus", n ? json_object_new_int64(cgroup_usable_cpus((unsigned)n, quota)) : NULL);
	return 0;
}

static void render_bytes(struct buf *b, int64_t bytes)
{
	char text[32];
	kib_text(bytes / 1024, text, sizeof(text));
	buf_puts(b, text);
}

void cgroup_render(const struct env_record *env, FILE *out)
{
	const struct env_cgroup *c = &env->cgroup;
	struct buf b = {0};
	if (!c->version.known && !c->affinity)
		return;
	if (c->version.known)
		buf_printf(&b, "v%" PRId64 " %s", c->version.v, c->path ?: "");
	if (c->cpuset)
		buf_printf(&b, " · cpuset %s", c->cpuset);
	if (c->mems && env->numa.nodes.n > 1)
		buf_printf(&b, " · memory of nodes %s", c->mems);
	if (c->affinity && (!c->cpuset || !streq(c->affinity, c->cpuset)))
		buf_printf(&b, " · affinity %s", c->affinity);
	if (c->cpu_quota_cpus.known)
		buf_printf(&b, " · CPU quota %g CPUs (%" PRId64 "/%" PRId64 " µs)", c->cpu_quota_cpus.v,
			   int_or(c->cpu_quota_us, 0), int_or(c->cpu_period_us, 0));
	if (c->throttling.nr_throttled.known && c->throttling.nr_throttled.v > 0)
		buf_printf(&b, " · throttled %.1f s in %" PRId64 " of %" PRId64 " periods",
			   (double)int_or(c->throttling.throttled_usec, 0) / 1e6, c->throttling.nr_throttled.v,
			   int_or(c->throttling.nr_periods, 0));
	if (c->cpu_weight.known && c->cpu_weight.v != 100)
		buf_printf(&b, " · cpu.weight %" PRId64, c->cpu_weight.v);
	if (c->cpu_shares.known && c->cpu_shares.v != 1024)
		buf_printf(&b, " · cpu.shares %" PRId64, c->cpu_shares.v);
	if (c->memory_max && json_object_is_type(c->memory_max, json_type_int)) {
		buf_puts(&b, " · memory.max ");
		render_bytes(&b, json_object_get_int64(c->memory_max));
	}
	if (c->cpus.known)
		buf_printf(&b, " · a run can keep %" PRId64 " CPU%s busy", c->cpus.v, c->cpus.v == 1 ? "" : "s");
	render_line(out, "Cgroup", "%s", startswith(b.s, " · ") ? b.s + strlen(" · ") : b.s);
	buf_free(&b);
}
