/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes that lower every CPU-bound test at once, found against what the
 * published runs of the same core at the same clock reach (the
 * expectation, unixbench/expect.h): a shared or burstable vCPU, a
 * container's CPU quota, a clock held low. All three look alike in the
 * scores; the environment says which, and each says what would decide.
 */
#include "diagnose.h"

/* Both CPU tests at most this share of their expectation: low beyond what
 * healthy published runs show (their 10th percentile is about 0.8). */
#define LEVEL_LOW 0.8
/* ... at most this share: no healthy published run is there. */
#define LEVEL_FAR 0.6
/* A cloud guest's model string (a hidden model) this far down. */
#define LEVEL_FAR_HIDDEN 0.5
/* Steal time at or above this during or before the run is a shared CPU. */
#define STEAL_PCT 5.0
/* cpufreq's ceiling below this share of the model's clock: a cap. */
#define CLOCK_CAPPED 0.9

struct level {
	const struct diag_run *run;
	const struct expectation *e;
	double ratio;   /* the CPU tests over their expectation (geometric mean) */
	bool low;       /* both below their interval and at most LEVEL_LOW */
};

/* The 1-copy run's CPU tests against their expectation, else the widest run's. */
static bool level_of(const struct diag_case *c, struct level *l)
{
	*l = (struct level){ .ratio = NAN };
	const struct diag_run *cands[] = { diag_single(c), diag_multi(c) };
	for (size_t i = 0; i < ARRAY_SIZE(cands) && !l->e; i++) {
		const struct expectation *e = diag_expect_of(c, cands[i]);
		if (!e || !(cands[i]->index[DT_DHRY] > 0) || !(cands[i]->index[DT_WHET] > 0))
			continue;
		l->run = cands[i];
		l->e = e;
		l->ratio = diag_vs_expect(c, cands[i], DT_CPU);
		l->low = l->ratio <= LEVEL_LOW && cands[i]->index[DT_DHRY] < e->low[DT_DHRY] &&
			 cands[i]->index[DT_WHET] < e->low[DT_WHET];
	}
	return l->e != NULL;
}

/* True when the level is low; else the first rule (say) says why it judged nothing. */
static bool judge(const struct diag_case *c, struct diagnosis *d, struct level *l, bool say)
{
	if (!level_of(c, l)) {
		const struct diag_run *r = diag_single(c) ?: diag_multi(c);
		if (say)
			diag_set_unchecked(d, "the level of the CPU tests: nothing to expect them against (%s)",
					   r ? c->expect[r - c->runs].why : "no run");
		return false;
	}
	if (c->virt == DV_EMULATED)
		return false;
	if (!l->low) {
		if (say)
			diag_set_normal(d, "Dhrystone 2 and Whetstone at %.0f %% of what %s %s reaches at %.3g GHz: no "
					"CPU time or clock is missing", l->ratio * 100, expect_article(l->e->name),
					l->e->name, l->e->clock);
		return false;
	}
	return true;
}

/* The CPU tests' numbers, the basis, and what the fix should bring. */
static void level_evidence(const struct diag_case *c, struct diagnosis *d, const struct level *l)
{
	const struct diag_run *r = l->run;
	const struct expectation *e = l->e;
	diag_evidence(d, "%u %s: Dhrystone 2 %.1f = %.0f %% and Whetstone %.1f = %.0f %% of the %.0f and %.0f "
		      "expected (%.0f-%.0f, %.0f-%.0f)", r->copies, r->copies == 1 ? "copy" : "copies",
		      r->index[DT_DHRY], r->index[DT_DHRY] / e->index[DT_DHRY] * 100, r->index[DT_WHET],
		      r->index[DT_WHET] / e->index[DT_WHET] * 100, e->index[DT_DHRY], e->index[DT_WHET],
		      e->low[DT_DHRY], e->high[DT_DHRY], e->low[DT_WHET], e->high[DT_WHET]);
	diag_evidence(d, "expected of %s %s at %.3g GHz: %s", expect_article(e->name), e->name, e->clock,
		      e->basis_text);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *x = &c->runs[i];
		const struct expectation *xe = diag_expect_of(c, x);
		for (int t = 0; xe && t < DIAG_NTESTS; t++)
			if (x->index[t] > 0 && x->index[t] < xe->low[t])
				diag_gain(d, x, (enum diag_test)t, xe->index[t]);
	}
}

/* ---- a shared or burstable vCPU ---- */

static void check_shared_vcpu(const struct diag_case *c, struct diagnosis *d)
{
	struct level l;
	if (!judge(c, d, &l, true))
		return;
	if (c->virt == DV_NONE) {
		diag_set_normal(d, "bare metal: no vCPU to share, no CPU credit to run out of");
		return;
	}
	const struct env_finding *steal = diag_finding(c, "virt.steal");
	size_t events = diag_events(c, "steal", NULL);
	double steal_pct = num_or(diag_env(c)->virt.steal_pct, 0);
	const char *container = diag_env_str(c, virt.container);
	enum diag_confidence conf;
	if (steal || events || steal_pct >= STEAL_PCT)
		conf = DC_HIGH;
	else if (c->virt == DV_GUEST)
		conf = l.ratio <= LEVEL_FAR ? DC_MEDIUM : DC_LOW;
	else
		/* a cloud's model string that its clock places: a cloud guest */
		conf = l.ratio <= LEVEL_FAR_HIDDEN && l.e->place.hidden && !l.e->place.ncandidates ? DC_MEDIUM : DC_LOW;
	if (container && !streq(container, "none") && conf < DC_HIGH)
		conf = DC_LOW; /* a container's quota explains it as well */
	diag_fire(d, conf, DT_ALL, "every CPU-bound test at %.0f %% of what %s %s reaches: the vCPU gets only part "
		  "of a core (a shared-core or burstable instance, CPU credits spent, an overcommitted host)",
		  l.ratio * 100, expect_article(l.e->name), l.e->name);
	level_evidence(c, d, &l);
	diag_evidence_events(d, c, "steal", 3);
	if (steal)
		diag_evidence_finding(d, steal);
	else if (steal_pct > 0)
		diag_evidence(d, "steal time since boot: %.1f %%", steal_pct);
	diag_evidence(d, "%s", c->virt == DV_GUEST ? "a guest" : "not known whether virtual (an imported log)");
	diag_evidence(d, "would decide: the steal time during the run (top's st, /proc/stat; `ubtune bench` "
		      "samples it), the instance type (shared-core or burstable: f1-micro, e2-micro, t2/t3, B-series) "
		      "and its CPU credit balance");
}

/* ---- a container's CPU quota ---- */

static void check_cpu_quota(const struct diag_case *c, struct diagnosis *d)
{
	struct level l;
	if (!judge(c, d, &l, false))
		return;
	const char *container = diag_env_str(c, virt.container);
	bool in = container && !streq(container, "none");
	if (!in && container) {
		diag_set_normal(d, "not in a container: no CPU quota");
		return;
	}
	diag_fire(d, in ? DC_MEDIUM : DC_LOW, DT_ALL, "every CPU-bound test at %.0f %% of what %s %s reaches: %s",
		  l.ratio * 100, expect_article(l.e->name), l.e->name,
		  in ? "the run's container may hold a CPU quota that lets its copies run part of the time"
		     : "a container's CPU quota would lower them all alike");
	level_evidence(c, d, &l);
	if (in)
		diag_evidence(d, "in a %s container", container);
	else
		diag_evidence(d, "not known whether it ran in a container (%s)", diag_env_missing(c));
	diag_evidence(d, "would decide: the CPU quota of the run's cgroup (cpu.max, or cpu.cfs_quota_us over "
		      "cpu.cfs_period_us; docker --cpus, a Kubernetes CPU limit), and N copies gaining nothing over "
		      "one");
}

/* ---- a clock held low ---- */

static void check_low_clock(const struct diag_case *c, struct diagnosis *d)
{
	struct level l;
	if (!judge(c, d, &l, false))
		return;
	static const char *const findings[] = { "cpu.governor", "cpu.max-freq-capped", "power.throttled",
						"power.undervoltage", "power.on-battery", "cpu.boost-off" };
	const struct env_finding *f = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(findings) && !f; i++)
		f = diag_finding(c, findings[i]);
	size_t events = diag_events(c, "low-clock", NULL) + diag_events(c, "thermal", NULL) +
			diag_events(c, "throttle", NULL);
	int64_t max_khz = int_or(diag_env(c)->cpu.freq.max_khz, 0);
	bool capped = max_khz > 0 && !l.e->clock_guessed && max_khz < CLOCK_CAPPED * l.e->clock * 1e6;
	enum diag_confidence conf;
	if (events || capped)
		conf = DC_HIGH;
	else if (f)
		conf = DC_MEDIUM;
	else if (c->virt == DV_NONE)
		conf = l.ratio <= LEVEL_FAR ? DC_MEDIUM : DC_LOW;
	else
		conf = DC_LOW;
	diag_fire(d, conf, DT_ALL, "every CPU-bound test at %.0f %% of what %s %s reaches at %.3g GHz: the core may "
		  "run below that clock (a governor, a thermal or power cap, a board's clock limit)",
		  l.ratio * 100, expect_article(l.e->name), l.e->name, l.e->clock);
	level_evidence(c, d, &l);
	if (capped)
		diag_evidence(d, "cpufreq's ceiling %.2f GHz, below the %.3g GHz of the model", max_khz / 1e6,
			      l.e->clock);
	if (f)
		diag_evidence_finding(d, f);
	diag_evidence_events(d, c, "low-clock", 2);
	diag_evidence_events(d, c, "thermal", 2);
	diag_evidence_events(d, c, "throttle", 2);
	if (c->virt == DV_GUEST)
		diag_evidence(d, "a guest: the host's clock is not visible from inside");
	diag_evidence(d, "would decide: the clock during the run (`ubtune bench` samples it; cpufreq's "
		      "scaling_cur_freq, vcgencmd measure_clock arm), the governor, throttling and the temperature");
}

const struct diag_rule diag_rules_level[] = {
	{ "diag.shared-vcpu", "Shared or burstable vCPU (steal time, CPU credits)",
	  "a dedicated-core instance type (not shared-core or burstable), or unlimited CPU credits; see the steal "
	  "time (top's st) during a run",
	  "Run again on a dedicated-core instance of the same family, or with the steal time sampled (`ubtune "
	  "bench`), and `ubtune compare` the two",
	  false, check_shared_vcpu },
	{ "diag.cpu-quota", "A container's CPU quota",
	  "raise or remove the container's CPU limit (cpu.max of its cgroup, docker --cpus, a Kubernetes limit)",
	  "Run the same suite outside the container, or with its CPU limit lifted, and `ubtune compare` the two",
	  false, check_cpu_quota },
	{ "diag.low-clock", "The CPU runs below its clock (governor, thermal or power cap, board limit)",
	  "the performance governor, cooling and a supply that holds the clock; a board's firmware clock limit",
	  "Run again with the performance governor and the clock sampled (`ubtune bench`), and `ubtune compare` "
	  "the two",
	  false, check_low_clock },
	{ 0 },
};
