/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes that lower every CPU-bound test at once, found against what the
 * published runs of the same core at the same clock reach (the
 * expectation, unixbench/expect.h): a shared or burstable vCPU, a
 * container's CPU quota, a clock held low. All three look alike in the
 * scores; the environment says which, and each says what would decide.
 */
#include <inttypes.h>

#include "diagnose.h"

/* Both CPU tests at most this share of their expectation: low beyond what
 * healthy published runs show (their 10th percentile is about 0.8). */
#define LEVEL_LOW 0.8
/* ... at most this share: no healthy published run is there. */
#define LEVEL_FAR 0.6
/* A cloud guest's model string (a hidden model) this far down. */
#define LEVEL_FAR_HIDDEN 0.5
/* The score this far below its expectation: no healthy published run is there. */
#define LEVEL_FAR_SCORE 0.5
/* ... with the CPU tests at most this share of theirs (not at their level). */
#define SCORE_LOW_CPU 0.9
/* Steal time at or above this during or before the run is a shared CPU. */
#define STEAL_PCT 5.0
/* cpufreq's ceiling below this share of the model's clock: a cap. */
#define CLOCK_CAPPED 0.9

struct level {
	const struct diag_run *run;
	const struct expectation *e;
	double ratio;   /* the CPU tests over their expectation (geometric mean) */
	double score;   /* the score over its expectation */
	bool low;       /* the CPU tests below their interval and at most LEVEL_LOW, or the score far
			 * below its interval with the CPU tests low too */
	bool far;       /* the CPU tests or the score where no healthy published run is */
};

/* The 1-copy run's CPU tests against their expectation, else the widest run's. */
static bool level_of(const struct diag_case *c, struct level *l)
{
	*l = (struct level){ .ratio = NAN };
	const struct diag_run *cands[] = { diag_single(c), diag_multi(c) };
	for (size_t i = 0; i < ARRAY_SIZE(cands) && !l->e; i++) {
		const struct expectation *e = diag_expect_of(c, cands[i]);
		const struct diag_run *r = cands[i];
		if (!e || !(r->index[DT_DHRY] > 0 || r->index[DT_WHET] > 0))
			continue;
		l->run = r;
		l->e = e;
		l->ratio = diag_vs_expect(c, r, DT_CPU);
		double low, high, want = diag_expected_score(c, r, &low, &high);
		l->score = r->score / want;
		/* every CPU test the run has below its interval; or the score far below its interval (a
		 * shared core starves the system tests most) with the CPU tests low too */
		l->low = (l->ratio <= LEVEL_LOW && !(r->index[DT_DHRY] >= e->low[DT_DHRY]) &&
			  !(r->index[DT_WHET] >= e->low[DT_WHET])) ||
			 (l->score <= LEVEL_FAR && r->score < low && l->ratio <= SCORE_LOW_CPU);
		l->far = l->ratio <= LEVEL_FAR || l->score <= LEVEL_FAR_SCORE;
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
			diag_set_normal(d, "the CPU tests at %.0f %% of what %s %s reaches at %s GHz: no CPU time or "
					"clock is missing", l->ratio * 100, expect_article(l->e->name), l->e->name,
					l->e->clock_text);
		return false;
	}
	return true;
}

/* The CPU tests' numbers, the basis, and what the fix should bring. */
static void level_evidence(const struct diag_case *c, struct diagnosis *d, const struct level *l)
{
	const struct diag_run *r = l->run;
	const struct expectation *e = l->e;
	for (int t = DT_DHRY; t <= DT_WHET; t++)
		if (r->index[t] > 0)
			diag_evidence(d, "%u %s: %s %.1f = %.0f %% of the %.0f expected (%.0f-%.0f)", r->copies,
				      r->copies == 1 ? "copy" : "copies", ub_tests[t].label, r->index[t],
				      r->index[t] / e->index[t] * 100, e->index[t], e->low[t], e->high[t]);
	diag_evidence(d, "expected of %s %s at %s GHz: %s", expect_article(e->name), e->name, e->clock_text,
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
		conf = l.far ? DC_MEDIUM : DC_LOW;
	else
		/* a cloud's model string that its clock places: a cloud guest */
		conf = (l.ratio <= LEVEL_FAR_HIDDEN || l.score <= LEVEL_FAR_SCORE) && l.e->place.hidden &&
				       !l.e->place.ncandidates
			       ? DC_MEDIUM
			       : DC_LOW;
	if (container && !streq(container, "none") && conf < DC_HIGH)
		conf = DC_LOW; /* a container's quota explains it as well */
	diag_fire(d, conf, DT_ALL, "the CPU tests at %.0f %% and the score at %.0f %% of what %s %s reaches: the "
		  "vCPU gets only part of a core (a shared-core or burstable instance, CPU credits spent, an "
		  "overcommitted host)", l.ratio * 100, l.score * 100, expect_article(l.e->name), l.e->name);
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
	const struct env_cgroup *cg = &diag_env(c)->cgroup;
	double quota = num_or(cg->cpu_quota_cpus, NAN);
	int64_t throttled = int_or(cg->throttling.nr_throttled, 0);
	const char *container = diag_env_str(c, virt.container);
	bool in = container && !streq(container, "none");
	if (!(quota > 0) && int_or(cg->version, 0) > 0) {
		diag_set_normal(d, "the run's cgroup (%s) holds no CPU quota", cg->path ?: "?");
		return;
	}
	if (!(quota > 0) && !in && container) {
		diag_set_normal(d, "not in a container: no CPU quota");
		return;
	}
	enum diag_confidence conf = in ? DC_MEDIUM : DC_LOW;
	/* no quota known, while other processes are seen taking CPU time: they
	 * lower the CPU tests as well, and with evidence */
	size_t others = quota > 0 ? 0 : diag_events(c, "others", NULL);
	if (others)
		conf = DC_LOW;
	/* the quota's share of the CPUs the copies would keep busy, against the level */
	double share = quota > 0 ? fmin(1, quota / diag_parallel(c, l.run)) : NAN;
	if (share < 0.9)
		conf = throttled > 0 || fabs(log(l.ratio / share)) < log(1.5) ? DC_HIGH : DC_MEDIUM;
	diag_fire(d, conf, DT_ALL, "every CPU-bound test at %.0f %% of what %s %s reaches: %s", l.ratio * 100,
		  expect_article(l.e->name), l.e->name,
		  share < 0.9 ? "the run's cgroup holds a CPU quota that lets its copies run part of the time"
		  : in	      ? "the run's container may hold a CPU quota that lets its copies run part of the time"
			      : "a container's CPU quota would lower them all alike");
	level_evidence(c, d, &l);
	if (quota > 0)
		diag_evidence(d, "CPU quota %.2f CPUs (%s, %s): %u %s can run %.0f %% of the time", quota,
			      cg->cpu_quota_source ?: "?", cg->path ?: "?", diag_parallel(c, l.run),
			      l.run->copies == 1 ? "copy" : "copies", share * 100);
	if (throttled > 0)
		diag_evidence(d, "the cgroup was throttled %" PRId64 " times in %" PRId64 " periods (%s)", throttled,
			      int_or(cg->throttling.nr_periods, 0), cg->throttling.source ?: "cpu.stat");
	if (others)
		diag_evidence(d, "other processes took CPU time during the run (%zu %s): they lower the CPU tests as "
			      "a quota would", others, others == 1 ? "event" : "events");
	if (in)
		diag_evidence(d, "in a %s container", container);
	else if (!(quota > 0))
		diag_evidence(d, "not known whether it ran in a container (%s)", diag_env_missing(c));
	diag_evidence(d, "would decide: the CPU quota of the run's cgroup (cpu.max, or cpu.cfs_quota_us over "
		      "cpu.cfs_period_us; docker --cpus, a Kubernetes CPU limit) and its throttling (cpu.stat), and N "
		      "copies gaining nothing over one");
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
		conf = l.far ? DC_MEDIUM : DC_LOW;
	else
		conf = DC_LOW;
	diag_fire(d, conf, DT_ALL, "every CPU-bound test at %.0f %% of what %s %s reaches at %s GHz: the core may "
		  "run below that clock (a governor, a thermal or power cap, a board's clock limit)",
		  l.ratio * 100, expect_article(l.e->name), l.e->name, l.e->clock_text);
	level_evidence(c, d, &l);
	if (capped)
		diag_evidence(d, "cpufreq's ceiling %.2f GHz, below the %s GHz of the model", max_khz / 1e6,
			      l.e->clock_text);
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
	  false, false, check_shared_vcpu },
	{ "diag.cpu-quota", "A container's CPU quota",
	  "raise or remove the container's CPU limit (cpu.max of its cgroup, docker --cpus, a Kubernetes limit)",
	  "Run the same suite outside the container, or with its CPU limit lifted, and `ubtune compare` the two",
	  false, false, check_cpu_quota },
	{ "diag.low-clock", "The CPU runs below its clock (governor, thermal or power cap, board limit)",
	  "the performance governor, cooling and a supply that holds the clock; a board's firmware clock limit",
	  "Run again with the performance governor and the clock sampled (`ubtune bench`), and `ubtune compare` "
	  "the two",
	  false, false, check_low_clock },
	{ 0 },
};
