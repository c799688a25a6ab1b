/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfreq devices (memory controllers, GPUs, NPUs, buses) and the cpuidle
 * states of a CPU. */
#include <errno.h>

#include "hw.h"

#define DEVFREQ_CLASS "/sys/class/devfreq"

/* What the device's name says it clocks: RK3588's "dmc", Qualcomm's
 * "soc:qcom,cpu-llcc-ddr-bw", Exynos' "soc:bus_dmc", i.MX's "imx-ddr". */
static const char *devfreq_kind(const char *name)
{
	static const struct { const char *part, *kind; } parts[] = {
		{ "dmc", "memory" }, { "ddr", "memory" }, { "dram", "memory" }, { "memory", "memory" },
		{ "gpu", "gpu" },    { "mali", "gpu" },   { "npu", "npu" },     { "bus", "bus" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (strstr(name, parts[i].part))
			return parts[i].kind;
	return NULL;
}

int hw_devfreq_devices(struct rootfs *rf, struct hw_devfreqs *out, char **unreadable)
{
	struct strv dirs = {0};
	*out = (struct hw_devfreqs){0};
	int r = hw_class_entries(rf, DEVFREQ_CLASS, NULL, &dirs, unreadable);
	if (r < 0)
		return r;
	out->v = xcalloc(dirs.n ? dirs.n : 1, sizeof(*out->v));
	for (size_t i = 0; i < dirs.n; i++) {
		const char *name = strrchr(dirs.v[i], '/') + 1;
		out->v[out->n++] = (struct hw_devfreq){ xstrdup(name), xstrdup(dirs.v[i]), devfreq_kind(name) };
	}
	strv_free(&dirs);
	return 0;
}

void hw_devfreqs_free(struct hw_devfreqs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free(d->v[i].dir);
	}
	free(d->v);
	*d = (struct hw_devfreqs){0};
}

/* ---- cpuidle ---- */

int hw_idle_states(struct rootfs *rf, unsigned cpu, struct strv *dirs)
{
	_cleanup_free_ char *base = xasprintf(HW_CPU_DIR "/cpu%u/cpuidle", cpu);
	struct strv names = {0};
	int r = rootfs_list(rf, base, &names);
	if (r < 0)
		return r;
	/* state0, state1, ... in number order */
	for (unsigned k = 0;; k++) {
		_cleanup_free_ char *name = xasprintf("state%u", k);
		if (!strv_contains(&names, name))
			break;
		strv_take(dirs, xasprintf("%s/%s", base, name));
	}
	strv_free(&names);
	return 0;
}
