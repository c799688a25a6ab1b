/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clock each kind of core really runs at (lib/hw.h: a dependent-add
 * loop on one CPU of the kind), beside what cpufreq says of it. A firmware
 * cap, undervoltage or heat lower the clock below what the kernel asked
 * for; only a measurement shows it.
 */
#include <errno.h>
#include <inttypes.h>

#include "cpu.h"
#include "lib/hw.h"

/* The first CPU of a kind's list, or -1. */
static long kind_first_cpu(json_object *kind)
{
	struct cpuset cpus = {0};
	long first = -1;
	const char *list = jpath_str(kind, "cpus");
	if (list && cpu_list_parse(list, &cpus) == 0)
		for (size_t c = 0; c < cpuset_size(&cpus) && first < 0; c++)
			if (cpuset_isset(&cpus, c))
				first = (long)c;
	cpuset_free(&cpus);
	return first;
}

static void set_khz(json_object *o, const char *key, bool have, uint64_t khz)
{
	if (have && khz > 0 && khz <= INT64_MAX)
		jset_int(o, key, (int64_t)khz);
	else
		jset_null(o, key);
}

/* What the probe that gathered a dump measured (GATHER_META clock-cpuN),
 * or why it could not (-ESRCH, clock-why-cpuN, in *error); -ENOENT without
 * either. */
static int recorded_clock(struct probe_ctx *ctx, unsigned cpu, struct hw_clock *c, char **error)
{
	_cleanup_free_ char *key = xasprintf("clock-cpu%u", cpu), *wkey = xasprintf("clock-why-cpu%u", cpu);
	_cleanup_free_ char *khz = probe_gather_meta(ctx, key);
	uint64_t v;
	if (khz && parse_u64(khz, &v) == 0 && v > 0) {
		c->khz = v;
		return 0;
	}
	*error = probe_gather_meta(ctx, wkey);
	if (*error)
		return -ESRCH;
	*error = xstrdup("measured only on the running machine, not in a dump");
	return -ENOENT;
}

static void kind_clock(struct probe_ctx *ctx, json_object *kind, const struct hw_policies *pols, bool *said)
{
	long cpu = kind_first_cpu(kind);
	const struct hw_policy *pol = cpu >= 0 ? hw_policy_of_cpu(pols, (size_t)cpu) : NULL;
	uint64_t cur = 0, max = 0;
	bool have_cur = pol && hw_policy_cur_khz(ctx->rf, pol, &cur) == 0;
	bool have_max = pol && hw_policy_u64(ctx->rf, pol, "cpuinfo_max_freq", &max) == 0;
	struct hw_clock c = {0};
	_cleanup_free_ char *why = NULL;
	int r = -1;

	if (cpu < 0)
		why = xstrdup("the kind's CPUs are not known");
	else if (!ctx->live)
		r = recorded_clock(ctx, (unsigned)cpu, &c, &why);
	else if ((r = hw_clock_measure(ctx->rf, (unsigned)cpu, pol, &c, &why)) == 0 && c.cpufreq_khz) {
		/* what cpufreq said right after, while the CPU was still busy */
		cur = c.cpufreq_khz;
		have_cur = true;
	}
	if (cpu >= 0)
		jset_int(kind, "measured_cpu", cpu);
	else
		jset_null(kind, "measured_cpu");
	set_khz(kind, "measured_khz", r == 0, c.khz);
	set_khz(kind, "cur_khz", have_cur, cur);
	set_khz(kind, "max_khz", have_max, max);
	if (r != 0 && (ctx->live || r == -ESRCH))
		probe_unavailable(ctx, "cpu", "measured clock of %s: %s", jpath_str(kind, "model") ?: "a kind of core", why);
	else if (r != 0 && !*said)
		probe_unavailable(ctx, "cpu", "measured clock: %s", why); /* once for a dump, not per kind */
	*said |= r != 0;
}

void clock_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols)
{
	json_object *kinds = jpath(cpu, "kinds");
	bool said = false;
	for (size_t i = 0; i < jarr_len(kinds); i++)
		kind_clock(ctx, json_object_array_get_idx(kinds, i), pols, &said);
}

/* "1500" or "1498.5" MHz from kHz */
static void mhz_text(int64_t khz, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f", (double)khz / 1000.0);
	if (endswith(buf, ".0"))
		buf[strlen(buf) - 2] = '\0';
}

/* "Cortex-A72 (CPU 0): 600 MHz measured, cpufreq says 1500 MHz (max 1500 MHz)" */
void clock_render(const struct env_record *env, FILE *out)
{
	bool guest = streq_ptr(env->virt.role, "guest");
	for (size_t i = 0; i < env->cpu.kinds.n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		char a[24], b[24], c[24];
		bool have_cur = k->cur_khz.known, have_max = k->max_khz.known;
		if (!k->measured_khz.known)
			continue;
		struct buf line = {0};
		buf_printf(&line, "%s", k->model ?: "CPU");
		if (k->measured_cpu.known)
			buf_printf(&line, " (CPU %" PRId64 ")", k->measured_cpu.v);
		mhz_text(k->measured_khz.v, a, sizeof(a));
		buf_printf(&line, ": %s MHz measured", a);
		if (have_cur) {
			mhz_text(k->cur_khz.v, b, sizeof(b));
			buf_printf(&line, ", cpufreq says %s MHz", b);
		}
		if (have_max) {
			mhz_text(k->max_khz.v, c, sizeof(c));
			buf_printf(&line, "%s%s MHz", have_cur ? " (max " : ", max ", c);
			if (have_cur)
				buf_puts(&line, ")");
		}
		if (guest)
			buf_puts(&line, " (a guest: the host's clock, less steal)");
		render_line(out, NULL, "%s", line.s);
		buf_free(&line);
	}
}
