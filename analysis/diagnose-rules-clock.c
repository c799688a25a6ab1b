/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes seen in what the run measured while it ran: the clock each kind
 * of core really got (tests[].clock), and what else the machine did during
 * each test (tests[].background).
 */
#include <inttypes.h>

#include "diagnose.h"

/*
 * A kind's measured clock after a test counts as low below this share of
 * its maximum (cpuinfo_max_freq). One copy, or all cores of a CPU without
 * boost: the maximum is what every published healthy board holds (the
 * RK3568 and Raspberry Pi 4 runs at 1992 and 1500 MHz). All cores of a CPU
 * with boost: x86 parts run all cores at 75-90 % of their single-core
 * maximum by design (their all-core turbo), so only below that.
 */
#define CLOCK_LOW_SHARE 0.9
#define CLOCK_LOW_SHARE_ALLCORE_BOOST 0.75
/* Measured this much below what cpufreq said at the same moment: a cap
 * below the kernel (firmware, supply). The probe's finding uses 5 % too. */
#define CLOCK_BELOW_CPUFREQ 0.95
/* Of a run's measured tests, this share must be low for the run to count. */
#define CLOCK_LOW_TESTS 0.5

struct kind_ref {
	int64_t cpu;
	double max_mhz; /* 0: unknown */
	const char *model;
	struct strv cpus; /* as a list of numbers, for the samples */
};

/* What one run measured, for the kind with the lowest share of its maximum. */
struct run_clock {
	unsigned copies;
	unsigned measured, low, below_cpufreq; /* tests */
	double min_mhz, share;    /* lowest measured clock, and its share of the maximum */
	double cur_mhz;           /* what cpufreq said beside the lowest */
	const struct kind_ref *kind;
	double samples_low_pct;   /* the run's readings whose cpufreq clock was low; NAN: none */
};

static size_t read_kinds(const struct diag_case *c, struct kind_ref *k, size_t max)
{
	json_object *kinds = jpath(c->before ?: c->after, "cpu.kinds");
	size_t n = 0;
	for (size_t i = 0; i < jarr_len(kinds) && n < max; i++) {
		json_object *o = json_object_array_get_idx(kinds, i);
		int64_t cpu, khz = 0;
		if (!jpath_int(o, "measured_cpu", &cpu))
			continue;
		jpath_int(o, "max_khz", &khz);
		k[n] = (struct kind_ref){ cpu, (double)khz / 1000, jpath_str(o, "model") ?: "CPU", { 0 } };
		if (jpath_str(o, "cpus"))
			strv_split(jpath_str(o, "cpus"), ",", &k[n].cpus);
		n++;
	}
	return n;
}

static void kinds_free(struct kind_ref *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strv_free(&k[i].cpus);
}

/* Whether CPU cpu is in a kernel list string ("0-3,8"). */
static bool in_list(const struct strv *parts, int64_t cpu)
{
	for (size_t i = 0; i < parts->n; i++) {
		long lo, hi;
		int got = sscanf(parts->v[i], "%ld-%ld", &lo, &hi);
		if (got == 1)
			hi = lo;
		if (got >= 1 && cpu >= lo && cpu <= hi)
			return true;
	}
	return false;
}

/* The measured clock (MHz) of the kind measured on cpu after a test; *cur what cpufreq said. */
static double clock_after(json_object *test, int64_t cpu, double *cur)
{
	json_object *after = jpath(test, "clock.after");
	*cur = NAN;
	for (size_t i = 0; i < jarr_len(after); i++) {
		json_object *e = json_object_array_get_idx(after, i);
		int64_t at, khz, cur_khz;
		if (!jpath_int(e, "cpu", &at) || at != cpu || !jpath_int(e, "measured_khz", &khz))
			continue;
		if (jpath_int(e, "cur_khz", &cur_khz) && cur_khz > 0)
			*cur = (double)cur_khz / 1000;
		return (double)khz / 1000;
	}
	return NAN;
}

static bool allcore_boost(const struct diag_case *c)
{
	json_object *env = c->before ?: c->after;
	bool boost = false, avail = false;
	jpath_bool(env, "cpu.freq.boost", &boost);
	jpath_bool(env, "cpu.freq.boost_available", &avail);
	return boost || avail;
}

/* The share of a run's readings in which the kind's CPUs ran below the
 * threshold by cpufreq's word: mean clock of its CPUs. */
static double samples_low(const struct diag_case *c, unsigned copies, const struct kind_ref *k, double threshold)
{
	json_object *samples = jpath(c->rec, "samples");
	unsigned n = 0, low = 0;
	for (size_t i = 0; i < jarr_len(samples); i++) {
		json_object *s = json_object_array_get_idx(samples, i), *mhz = jpath(s, "mhz");
		int64_t cp;
		if (!jpath_str(s, "test") || !jpath_int(s, "copies", &cp) || cp != copies || !mhz)
			continue;
		double sum = 0;
		unsigned m = 0;
		for (size_t cpu = 0; cpu < jarr_len(mhz); cpu++) {
			json_object *v = json_object_array_get_idx(mhz, cpu);
			if (v && in_list(&k->cpus, (int64_t)cpu))
				sum += json_object_get_double(v), m++;
		}
		if (!m)
			continue;
		n++;
		low += sum / m < threshold * k->max_mhz;
	}
	return n ? 100.0 * low / n : NAN;
}

static void run_clock(const struct diag_case *c, json_object *run, const struct kind_ref *kinds, size_t nk,
		      struct run_clock *rc)
{
	int64_t copies = 0;
	jpath_int(run, "copies", &copies);
	*rc = (struct run_clock){ .copies = (unsigned)copies, .samples_low_pct = NAN };
	double threshold = copies > 1 && allcore_boost(c) ? CLOCK_LOW_SHARE_ALLCORE_BOOST : CLOCK_LOW_SHARE;
	json_object *tests = jpath(run, "tests");
	for (size_t k = 0; k < nk; k++) {
		if (!(kinds[k].max_mhz > 0))
			continue;
		struct run_clock one = { .copies = rc->copies, .min_mhz = INFINITY, .kind = &kinds[k], .cur_mhz = NAN };
		for (size_t i = 0; i < jarr_len(tests); i++) {
			double cur, mhz = clock_after(json_object_array_get_idx(tests, i), kinds[k].cpu, &cur);
			if (isnan(mhz))
				continue;
			one.measured++;
			one.low += mhz < threshold * kinds[k].max_mhz;
			one.below_cpufreq += cur > 0 && mhz < CLOCK_BELOW_CPUFREQ * cur;
			if (mhz < one.min_mhz)
				one.min_mhz = mhz, one.cur_mhz = cur;
		}
		if (!one.measured)
			continue;
		one.share = one.min_mhz / kinds[k].max_mhz;
		if (!rc->kind || one.low * rc->measured > rc->low * one.measured ||
		    (one.low * rc->measured == rc->low * one.measured && one.share < rc->share))
			*rc = one;
	}
	if (rc->kind)
		rc->samples_low_pct = samples_low(c, rc->copies, rc->kind, threshold);
}

static const struct diag_run *diag_run_of(const struct diag_case *c, unsigned copies)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].copies == copies)
			return &c->runs[i];
	return NULL;
}

/* A record that measured the clock during the run at all. */
static bool has_clock(const struct diag_case *c)
{
	json_object *runs = jpath(c->rec, "runs");
	for (size_t r = 0; r < jarr_len(runs); r++) {
		json_object *tests = jpath(json_object_array_get_idx(runs, r), "tests");
		for (size_t i = 0; i < jarr_len(tests); i++)
			if (jpath(json_object_array_get_idx(tests, i), "clock.after"))
				return true;
	}
	return false;
}

static void check_measured_clock(const struct diag_case *c, struct diagnosis *d)
{
	if (!has_clock(c)) {
		diag_set_unchecked(d, "the clock during the run: %s",
				   c->imported ? "not in an imported log" : "the run did not measure it");
		return;
	}
	struct kind_ref kinds[8];
	size_t nk = read_kinds(c, kinds, ARRAY_SIZE(kinds));
	bool any_max = false;
	for (size_t k = 0; k < nk; k++)
		any_max |= kinds[k].max_mhz > 0;
	if (!any_max) {
		diag_set_unchecked(d, "the clock during the run was measured, but no maximum clock is known to hold "
				      "it against (%s)",
				   c->virt == DV_GUEST ? "a guest measures its host's clock" : "no cpufreq");
		kinds_free(kinds, nk);
		return;
	}
	json_object *runs = jpath(c->rec, "runs");
	enum diag_confidence conf = DC_NONE;
	struct buf normal = {0};
	for (size_t r = 0; r < jarr_len(runs); r++) {
		struct run_clock rc;
		run_clock(c, json_object_array_get_idx(runs, r), kinds, nk, &rc);
		if (!rc.kind)
			continue;
		if (rc.low < CLOCK_LOW_TESTS * rc.measured || rc.low == 0) {
			buf_printf(&normal, "%s%u cop%s: %s at %.0f MHz or more (%.0f %% of its maximum)", normal.len ? "; " : "",
				   rc.copies, rc.copies == 1 ? "y" : "ies", rc.kind->model, rc.min_mhz, 100 * rc.share);
			continue;
		}
		bool hidden = rc.below_cpufreq * 2 >= rc.measured;
		enum diag_confidence here = hidden ? DC_HIGH : DC_MEDIUM;
		if (here > conf) {
			const char *why = hidden ? "a cap below the kernel (firmware, supply or heat): cpufreq did not see it"
						 : "the clock did not reach its maximum under load";
			diag_fire(d, here, DT_ALL, "the %u-copy run ran at %.0f MHz, %.0f %% of the %.0f MHz the %s reaches "
						   "(measured after %u of its %u tests): %s",
				  rc.copies, rc.min_mhz, 100 * rc.share, rc.kind->max_mhz, rc.kind->model, rc.low, rc.measured, why);
			conf = here;
		}
		diag_evidence(d, "%u cop%s: %s measured at %.0f MHz after %u of %u tests (maximum %.0f MHz)", rc.copies,
			      rc.copies == 1 ? "y" : "ies", rc.kind->model, rc.min_mhz, rc.low, rc.measured, rc.kind->max_mhz);
		if (hidden && rc.cur_mhz > 0)
			diag_evidence(d, "cpufreq said %.0f MHz at the same moments", rc.cur_mhz);
		if (!isnan(rc.samples_low_pct))
			diag_evidence(d, "by cpufreq's samples the %s CPUs ran below %.0f %% of the maximum for %.0f %% of the "
					 "%u-copy run's time",
				      rc.kind->model, 100 * (rc.copies > 1 && allcore_boost(c) ? CLOCK_LOW_SHARE_ALLCORE_BOOST
												 : CLOCK_LOW_SHARE),
				      rc.samples_low_pct, rc.copies);
		const struct diag_run *dr = diag_run_of(c, rc.copies);
		for (int t = 0; dr && t < DIAG_NTESTS; t++)
			if (DT_CPU & DT(t))
				diag_gain(d, dr, (enum diag_test)t, dr->index[t] / fmax(rc.share, 0.2));
	}
	json_object *f = diag_finding(c, "cpu.clock.slower-than-cpufreq");
	if (conf != DC_NONE && f)
		diag_evidence_finding(d, f);
	if (conf == DC_NONE && normal.len)
		diag_set_normal(d, "measured clock during the run: %s", normal.s);
	buf_free(&normal);
	kinds_free(kinds, nk);
}

/* Tests that passed a background threshold, named per reason. */
static void check_background(const struct diag_case *c, struct diagnosis *d)
{
	json_object *runs = jpath(c->rec, "runs");
	unsigned checked = 0, flagged = 0, affects = 0;
	for (size_t r = 0; r < jarr_len(runs); r++) {
		json_object *run = json_object_array_get_idx(runs, r), *tests = jpath(run, "tests");
		int64_t copies = 0;
		jpath_int(run, "copies", &copies);
		for (size_t i = 0; i < jarr_len(tests); i++) {
			json_object *t = json_object_array_get_idx(tests, i), *b = jpath(t, "background");
			if (!b)
				continue;
			checked++;
			json_object *why = jpath(b, "untrusted");
			if (!jarr_len(why))
				continue;
			flagged++;
			int k = diag_test_lookup(jpath_str(t, "id"));
			if (k >= 0)
				affects |= DT(k);
			struct buf reasons = {0};
			for (size_t w = 0; w < jarr_len(why); w++) {
				const char *what = json_object_get_string(json_object_array_get_idx(why, w));
				const char *key = streq_ptr(what, "others") ? "others_pct" : streq_ptr(what, "iowait") ? "iowait_pct"
						  : streq_ptr(what, "steal")  ? "steal_pct" : "sys_pct";
				double v = 0;
				jpath_double(b, key, &v);
				buf_printf(&reasons, "%s%s %.0f %%", reasons.len ? ", " : "",
					   streq_ptr(what, "others") ? "other processes" : streq_ptr(what, "sys") ? "kernel time"
					   : streq_ptr(what, "steal") ? "steal" : "I/O wait", v);
			}
			const char *busiest = jpath_str(b, "busiest");
			diag_evidence(d, "%s, %" PRId64 " cop%s: %s%s%s", jpath_str(t, "name"), copies, copies == 1 ? "y" : "ies",
				      reasons.s, busiest ? "; busiest: " : "", busiest ?: "");
			buf_free(&reasons);
		}
	}
	if (!checked) {
		diag_set_unchecked(d, "background activity per test: %s",
				   c->imported ? "not in an imported log" : "the run was not sampled");
		return;
	}
	if (!flagged) {
		diag_set_normal(d, "no test shared the machine beyond the thresholds (%u tests sampled)", checked);
		return;
	}
	diag_fire(d, flagged > 2 ? DC_MEDIUM : DC_LOW, affects,
		  "%u of %u tests ran while the machine did other work past the thresholds: their scores are not the "
		  "machine's alone",
		  flagged, checked);
	d->expect = xstrdup("the flagged tests come back to the level of the others when run alone");
}

/* ---- kernel log ---- */

/* What the kernel logged during the run (bench/kevents.h): an OOM kill, a
 * hung task, a machine check or a heat shutdown spoil the run; throttling
 * and voltage messages lower it. */
static void check_kernel_events(const struct diag_case *c, struct diagnosis *d)
{
	static const char *const severe[] = { "kernel-oom", "kernel-hung-task", "kernel-thermal-shutdown", "kernel-mce" };
	size_t n = c->events ? json_object_array_length(c->events) : 0, count = 0;
	bool bad = false;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(c->events, i);
		const char *kind = jpath_str(e, "kind");
		if (!kind || !startswith(kind, "kernel-"))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(severe); k++)
			bad |= streq(kind, severe[k]);
		if (count++ < 4)
			diag_evidence(d, "%s", jpath_str(e, "message"));
	}
	bool read = false;
	if (!count) {
		if (c->events && jpath_bool(c->rec, "kernel_log.read", &read) && read)
			diag_set_normal(d, "the kernel logged no OOM kill, hung task, heat or voltage message during the run");
		return;
	}
	diag_fire(d, bad ? DC_HIGH : DC_MEDIUM, DT_ALL, "the kernel logged %zu event%s during the run%s", count,
		  count == 1 ? "" : "s", bad ? ": a process was killed or stalled, or the machine failed" : "");
	d->expect = xstrdup("without the events, the affected tests come back to the level of the rest");
}

const struct diag_rule diag_rules_clock[] = {
	{
		.id = "diag.measured-clock",
		.title = "The cores ran below their clock",
		.fix = "find what holds the clock down: `ubtune probe` names undervoltage, heat, the governor and limits; "
		       "a clock below what cpufreq says is the firmware's cap (a Raspberry Pi: vcgencmd get_throttled)",
		.experiment = "run 1 copy of Dhrystone cooled, on a strong supply and with the performance governor, then "
			      "`ubtune compare`: the measured clock after the test should reach the maximum",
		.generic = true,
		.check = check_measured_clock,
	},
	{
		.id = "diag.background",
		.title = "Other work during the tests",
		.fix = "stop what ran beside the tests (other processes, I/O, interrupts from devices) or run on a quiet "
		       "machine; on a VM, a host without other busy guests",
		.experiment = "run the flagged tests alone (`ubtune bench --tests ID`) on a quiet machine and `ubtune compare`",
		.generic = true,
		.check = check_background,
	},
	{
		.id = "diag.kernel-events",
		.title = "The kernel reported trouble during the run",
		.fix = "read the messages (`dmesg`, from the marker `ubtune: bench run ... started` when run as root): "
		       "free memory for an OOM kill, cool or power the board better for heat and voltage, check the "
		       "storage for hung tasks",
		.experiment = "fix the cause, run again and `ubtune compare last~1 last`",
		.generic = true,
		.check = check_kernel_events,
	},
	{ 0 },
};
