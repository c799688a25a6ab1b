/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which CPUs are online (lib/hw.h). */
#include <errno.h>

#include "hw.h"
#include "util.h"

/* "cpu12" -> 12; false for other entries (cpufreq, cpuidle, online, ...). */
static bool cpu_dir_number(const char *name, size_t *n)
{
	uint64_t v;
	if (!str_numbered(name, "cpu") || parse_u64(name + 3, &v) < 0 || v >= CPUSET_MAX)
		return false;
	*n = (size_t)v;
	return true;
}

int hw_online_cpus(struct rootfs *rf, const struct cpuset *fallback, struct cpuset *out, enum hw_online_source *source)
{
	_cleanup_free_ char *list = NULL;
	struct strv names = {0};
	*out = (struct cpuset){0};
	if (rootfs_read_line(rf, HW_CPU_DIR "/online", &list) == 0 && *list && cpu_list_parse(list, out) == 0 &&
	    cpuset_count(out)) {
		*source = HW_ONLINE_LIST;
	} else if (fallback && cpuset_count(fallback)) {
		cpuset_free(out);
		for (size_t i = 0; i < cpuset_size(fallback); i++)
			if (cpuset_isset(fallback, i))
				cpuset_set(out, i);
		*source = HW_ONLINE_FALLBACK;
	} else {
		cpuset_free(out);
		*source = HW_ONLINE_DIRS;
	}
	/* cpuN/online is 0 for a CPU taken offline; CPU 0 often has no such file */
	rootfs_list(rf, HW_CPU_DIR, &names);
	struct cpuset off = {0};
	for (size_t i = 0; i < names.n; i++) {
		size_t n;
		if (!cpu_dir_number(names.v[i], &n))
			continue;
		_cleanup_free_ char *online = xasprintf(HW_CPU_DIR "/%s/online", names.v[i]);
		_cleanup_free_ char *topology = xasprintf(HW_CPU_DIR "/%s/topology", names.v[i]);
		uint64_t v;
		if (rootfs_read_u64(rf, online, &v) == 0 && v == 0)
			cpuset_set(&off, n);
		else if (*source == HW_ONLINE_DIRS && rootfs_exists(rf, topology) == 0)
			cpuset_set(out, n);
	}
	strv_free(&names);
	struct cpuset on = {0};
	for (size_t i = 0; i < cpuset_size(out); i++)
		if (cpuset_isset(out, i) && !cpuset_isset(&off, i))
			cpuset_set(&on, i);
	cpuset_free(&off);
	cpuset_free(out);
	*out = on;
	return cpuset_count(out) ? 0 : -ENOENT;
}
