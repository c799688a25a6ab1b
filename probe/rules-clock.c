/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about the clock the cores really run at. */
#include <inttypes.h>

#include "findings.h"

/* A measured clock this far from what cpufreq says is not measurement
 * noise: the dependent-add loop repeats to well under 1 % on a steady
 * clock (make bench-clock). */
#define CLOCK_MISMATCH_PCT 5.0

static bool is_guest(const struct env_record *env)
{
	return streq_ptr(env->virt.role, "guest");
}

/*
 * The kinds whose measured clock differs from cpufreq's by more than
 * CLOCK_MISMATCH_PCT, lower (sign -1) or higher (sign 1). A guest
 * measures its host's clock: that is said in the report, not flagged.
 */
static bool clock_vs_cpufreq(const struct env_record *env, struct finding *f, int sign)
{
	struct buf b = {0};
	if (is_guest(env))
		return false;
	for (size_t i = 0; i < env->cpu.kinds.n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		if (!k->measured_khz.known || !k->cur_khz.known || k->cur_khz.v <= 0)
			continue;
		int64_t measured = k->measured_khz.v, cur = k->cur_khz.v;
		double pct = 100.0 * (double)(measured - cur) / (double)cur;
		if (sign < 0 ? pct > -CLOCK_MISMATCH_PCT : pct < CLOCK_MISMATCH_PCT)
			continue;
		buf_printf(&b, "%s%s: CPU %" PRId64 " measured at %.0f MHz, its policy's scaling_cur_freq = %" PRId64
			       " (%+.0f %%)",
			   b.len ? "; " : "", k->model ?: "CPU", int_or(k->measured_cpu, -1), (double)measured / 1000, cur,
			   pct);
	}
	if (!b.len)
		return false;
	f->evidence = buf_steal(&b);
	return true;
}

static bool slower_than_cpufreq(const struct env_record *env, struct finding *f)
{
	return clock_vs_cpufreq(env, f, -1);
}

static bool faster_than_cpufreq(const struct env_record *env, struct finding *f)
{
	return clock_vs_cpufreq(env, f, 1);
}

/* EPP values that ask the hardware to save power rather than run fast. */
static bool epp_saves_power(const char *epp)
{
	return streq(epp, "power") || streq(epp, "balance_power");
}

static bool epp_power_saving(const struct env_record *env, struct finding *f)
{
	const struct env_policy *first = NULL;
	size_t hits = 0;
	for (size_t i = 0; i < env->cpu.freq.policies.n; i++) {
		const struct env_policy *p = &env->cpu.freq.policies.v[i];
		if (!p->epp || !epp_saves_power(p->epp))
			continue;
		if (!first)
			first = p;
		hits++;
	}
	if (!first)
		return false;
	const char *path = first->path ?: "cpufreq policy";
	finding_set(&f->evidence, "%s/energy_performance_preference = %s%s", path, first->epp,
		    hits > 1 ? " (and more policies)" : "");
	finding_set(&f->fix, "`[cpu] epp = performance` in a profile, or as root: echo performance > %s/"
			     "energy_performance_preference", path);
	return true;
}

/* EPB above "normal" (6): the firmware trades speed for power. */
#define EPB_NORMAL 6

static bool epb_power_saving(const struct env_record *env, struct finding *f)
{
	const struct env_freq *freq = &env->cpu.freq;
	if (!freq->epb.known || freq->epb.v <= EPB_NORMAL)
		return false;
	const char *source = freq->epb_source ?: "energy_perf_bias";
	finding_set(&f->evidence, "%s = %" PRId64 " (0 performance, 6 normal, 15 power)", source, freq->epb.v);
	finding_set(&f->fix, "`[cpu] epb = performance` in a profile, or as root: echo 0 > %s (on every CPU)", source);
	return true;
}

const struct rule clock_rules[] = {
	{
		.id = "cpu.clock.slower-than-cpufreq",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "A core runs slower than cpufreq says: something below the kernel caps the clock "
			   "(firmware, undervoltage, heat), every score is lower than the machine can give, and "
			   "the kernel's own clock readings hide it.",
		.fix = "check the power supply and the cooling (a Raspberry Pi: vcgencmd get_throttled), then "
		       "re-run `ubtune probe`",
		.check = slower_than_cpufreq,
	},
	{
		.id = "cpu.clock.faster-than-cpufreq",
		.area = "cpu",
		.severity = SEV_INFO,
		.message = "A core runs faster than cpufreq says (boost the driver does not report, or a reading "
			   "averaged over idle time): cpufreq's clock readings, here and in the run's samples, "
			   "understate it.",
		.fix = "nothing to fix; trust the measured clock over scaling_cur_freq on this machine",
		.check = faster_than_cpufreq,
	},
	{
		.id = "cpu.epp-power-saving",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The energy/performance preference asks the CPU to save power: the hardware picks lower "
			   "clocks and ramps up later, so short tests and single copies score lower.",
		.check = epp_power_saving,
	},
	{
		.id = "cpu.epb-power-saving",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The energy/performance bias (EPB) favours saving power: the firmware limits turbo and "
			   "slows the clocks, so scores are lower than the machine gives with a performance bias.",
		.check = epb_power_saving,
	},
	{ 0 },
};
