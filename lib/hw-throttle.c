/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86 thermal throttle counters (therm_throt), per CPU and per package. */
#include <errno.h>

#include "hw.h"

/* True for the first CPU met of its package (by physical_package_id). */
static bool first_of_package(struct rootfs *rf, const char *cpu, struct strv *seen)
{
	_cleanup_free_ char *path = xasprintf(HW_CPU_DIR "/%s/topology/physical_package_id", cpu);
	_cleanup_free_ char *id = NULL;
	if (rootfs_read_line(rf, path, &id) < 0)
		id = xstrdup(cpu); /* unknown: its own package */
	if (strv_contains(seen, id))
		return false;
	strv_push(seen, id);
	return true;
}

int hw_throttle_discover(struct rootfs *rf, struct hw_throttle *out)
{
	struct strv cpus = {0}, seen = {0};
	*out = (struct hw_throttle){0};
	int r = rootfs_list(rf, HW_CPU_DIR, &cpus);
	if (r < 0)
		return r;
	for (size_t i = 0; i < cpus.n; i++) {
		const char *cpu = cpus.v[i];
		if (!str_numbered(cpu, "cpu"))
			continue;
		_cleanup_free_ char *dir = xasprintf(HW_CPU_DIR "/%s/thermal_throttle", cpu);
		if (rootfs_exists(rf, dir) < 0)
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = (struct hw_throttle_cpu){
			.cpu = (unsigned)strtoul(cpu + 3, NULL, 10),
			.package_first = first_of_package(rf, cpu, &seen),
			.core_count = xasprintf("%s/core_throttle_count", dir),
			.core_ms = xasprintf("%s/core_throttle_total_time_ms", dir),
			.package_count = xasprintf("%s/package_throttle_count", dir),
			.package_ms = xasprintf("%s/package_throttle_total_time_ms", dir),
		};
	}
	strv_free(&seen);
	strv_free(&cpus);
	return 0;
}

void hw_throttle_free(struct hw_throttle *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].core_count);
		free(t->v[i].core_ms);
		free(t->v[i].package_count);
		free(t->v[i].package_ms);
	}
	free(t->v);
	*t = (struct hw_throttle){0};
}

/* A counter and, when asked for, the time spent throttled (kernels since 5.18). */
static void read_counter(struct rootfs *rf, const char *count, const char *ms, bool want_ms, bool *has,
			 uint64_t *v, bool *has_ms, uint64_t *msv)
{
	*has = rootfs_read_u64(rf, count, v) == 0;
	*has_ms = *has && want_ms && rootfs_read_u64(rf, ms, msv) == 0;
}

void hw_throttle_read(struct rootfs *rf, const struct hw_throttle_cpu *c, struct hw_throttle_reading *r)
{
	*r = (struct hw_throttle_reading){0};
	read_counter(rf, c->core_count, c->core_ms, true, &r->has_core, &r->core, &r->has_core_ms, &r->core_ms);
	read_counter(rf, c->package_count, c->package_ms, c->package_first, &r->has_package, &r->package,
		     &r->has_package_ms, &r->package_ms);
}
