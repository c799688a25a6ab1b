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
	double time_s, low_time_s; /* of the measured tests, and of the low ones; NAN: a test's time not known */
	double min_mhz, share;    /* lowest measured clock, and its share of the maximum */
	double low_max_mhz;       /* the highest clock of the low tests */
	double cur_mhz;           /* what cpufreq said beside the lowest */
	const struct kind_ref *kind;
	double samples_low_pct;   /* the run's readings whose cpufreq clock was low; NAN: none */
};

static size_t read_kinds(const struct diag_case *c, struct kind_ref *k, size_t max)
{
	const struct env_record *env = diag_env(c);
	size_t n = 0;
	for (size_t i = 0; i < env->cpu.kinds.n && n < max; i++) {
		const struct env_cpu_kind *o = &env->cpu.kinds.v[i];
		if (!o->measured_cpu.known)
			continue;
		k[n] = (struct kind_ref){ o->measured_cpu.v, (double)int_or(o->max_khz, 0) / 1000, o->model ?: "CPU", { 0 } };
		if (o->cpus)
			strv_split(o->cpus, ",", &k[n].cpus);
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
static double clock_after(const struct result_test *test, int64_t cpu, double *cur)
{
	*cur = NAN;
	for (size_t i = 0; i < test->clock.after.n; i++) {
		const struct result_clock *e = &test->clock.after.v[i];
		if (!e->cpu.known || e->cpu.v != cpu || !e->measured_khz.known)
			continue;
		if (int_or(e->cur_khz, 0) > 0)
			*cur = (double)e->cur_khz.v / 1000;
		return (double)e->measured_khz.v / 1000;
	}
	return NAN;
}

/* How long a test ran: its mean pass time by its passes; NAN when not known. */
static double test_time(const struct result_test *t)
{
	int64_t passes = t->passes.n ? (int64_t)t->passes.n : int_or(t->samples, 1);
	return num_or(t->time_s, NAN) * (double)passes;
}

static bool allcore_boost(const struct diag_case *c)
{
	const struct env_freq *freq = &diag_env(c)->cpu.freq;
	return is_true(freq->boost) || is_true(freq->boost_available);
}

/* The share of a run's readings in which the kind's CPUs ran below the
 * threshold by cpufreq's word: mean clock of its CPUs. */
static double samples_low(const struct diag_case *c, unsigned copies, const struct kind_ref *k, double threshold)
{
	unsigned n = 0, low = 0;
	for (size_t i = 0; i < c->r.samples.n; i++) {
		const struct result_sample *s = &c->r.samples.v[i];
		if (!s->test || !s->copies.known || s->copies.v != copies || !s->mhz.json)
			continue;
		double sum = 0;
		unsigned m = 0;
		for (size_t cpu = 0; cpu < s->mhz.n; cpu++)
			if (s->mhz.v[cpu].known && in_list(&k->cpus, (int64_t)cpu))
				sum += s->mhz.v[cpu].v, m++;
		if (!m)
			continue;
		n++;
		low += sum / m < threshold * k->max_mhz;
	}
	return n ? 100.0 * low / n : NAN;
}

static void run_clock(const struct diag_case *c, const struct result_run *run, const struct kind_ref *kinds,
		      size_t nk, struct run_clock *rc)
{
	int64_t copies = int_or(run->copies, 0);
	*rc = (struct run_clock){ .copies = (unsigned)copies, .samples_low_pct = NAN };
	double threshold = copies > 1 && allcore_boost(c) ? CLOCK_LOW_SHARE_ALLCORE_BOOST : CLOCK_LOW_SHARE;
	for (size_t k = 0; k < nk; k++) {
		if (!(kinds[k].max_mhz > 0))
			continue;
		struct run_clock one = { .copies = rc->copies, .min_mhz = INFINITY, .kind = &kinds[k], .cur_mhz = NAN };
		for (size_t i = 0; i < run->tests.n; i++) {
			double cur, mhz = clock_after(&run->tests.v[i], kinds[k].cpu, &cur);
			if (isnan(mhz))
				continue;
			bool low = mhz < threshold * kinds[k].max_mhz;
			/* the clock after a test stands for the test's time: its passes' */
			double t = test_time(&run->tests.v[i]);
			one.measured++;
			one.low += low;
			one.time_s += t;
			if (low) {
				one.low_time_s += t;
				one.low_max_mhz = fmax(one.low_max_mhz, mhz);
			}
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

/* "600 MHz for 92 % of its time" (by the tests' times, else their count). */
static char *low_share_text(const struct run_clock *rc)
{
	_cleanup_free_ char *mhz = rc->low_max_mhz > rc->min_mhz + 0.5
					   ? xasprintf("%.0f-%.0f MHz", rc->min_mhz, rc->low_max_mhz)
					   : xasprintf("%.0f MHz", rc->min_mhz);
	if (rc->time_s > 0)
		return xasprintf("%s for %.0f %% of its time", mhz, 100 * rc->low_time_s / rc->time_s);
	return xasprintf("%s in %.0f %% of its tests", mhz, 100.0 * rc->low / rc->measured);
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
	for (size_t r = 0; r < c->r.runs.n; r++)
		for (size_t i = 0; i < c->r.runs.v[r].tests.n; i++)
			if (c->r.runs.v[r].tests.v[i].clock.after.json)
				return true;
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
	enum diag_confidence conf = DC_NONE;
	struct buf normal = {0};
	for (size_t r = 0; r < c->r.runs.n; r++) {
		struct run_clock rc;
		run_clock(c, &c->r.runs.v[r], kinds, nk, &rc);
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
			_cleanup_free_ char *when = low_share_text(&rc);
			diag_fire(d, here, DT_ALL, "the %u-copy pass ran at %s, %.0f %% of the %.0f MHz the %s reaches "
						   "(measured after %u of its %u tests): %s",
				  rc.copies, when, 100 * rc.share, rc.kind->max_mhz, rc.kind->model, rc.low, rc.measured, why);
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
	const struct env_finding *f = diag_finding(c, "cpu.clock.slower-than-cpufreq");
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
	unsigned checked = 0, flagged = 0, affects = 0;
	for (size_t r = 0; r < c->r.runs.n; r++) {
		const struct result_run *run = &c->r.runs.v[r];
		int64_t copies = int_or(run->copies, 0);
		for (size_t i = 0; i < run->tests.n; i++) {
			const struct result_test *t = &run->tests.v[i];
			const struct result_background *b = &t->background;
			if (!b->json)
				continue;
			checked++;
			if (!b->untrusted.n)
				continue;
			flagged++;
			int k = diag_test_lookup(t->id);
			if (k >= 0)
				affects |= DT(k);
			struct buf reasons = {0};
			for (size_t w = 0; w < b->untrusted.n; w++) {
				const char *what = b->untrusted.v[w];
				struct opt_num v = streq_ptr(what, "others") ? b->others_pct : streq_ptr(what, "iowait") ? b->iowait_pct
						   : streq_ptr(what, "steal")  ? b->steal_pct : b->sys_pct;
				buf_printf(&reasons, "%s%s %.0f %%", reasons.len ? ", " : "",
					   streq_ptr(what, "others") ? "other processes" : streq_ptr(what, "sys") ? "kernel time"
					   : streq_ptr(what, "steal") ? "steal" : "I/O wait", num_or(v, 0));
			}
			const char *busiest = b->busiest;
			diag_evidence(d, "%s, %" PRId64 " cop%s: %s%s%s", t->name, copies, copies == 1 ? "y" : "ies",
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

/* What the kernel logged, in words: "an OOM kill". */
static const struct {
	const char *kind, *words;
	bool severe; /* a process killed or stalled, or the machine failed */
} kernel_kinds[] = {
	{ "kernel-oom", "an OOM kill", true },
	{ "kernel-hung-task", "a hung task", true },
	{ "kernel-thermal-shutdown", "a CPU shut down for heat", true },
	{ "kernel-mce", "a machine check", true },
	{ "kernel-fork-rejected", "a fork refused by the cgroup's pids.max", false },
	{ "kernel-thermal", "a thermal message", false },
	{ "kernel-voltage", "a voltage message", false },
};

static int kernel_kind(const char *kind)
{
	for (size_t k = 0; k < ARRAY_SIZE(kernel_kinds); k++)
		if (streq_ptr(kind, kernel_kinds[k].kind))
			return (int)k;
	return -1;
}

/* "an OOM kill during Shell Scripts (8 concurrent), 16 copies", or without
 * the test when the event was not placed in one. */
static char *kernel_event_text(const struct result_event *e)
{
	int k = kernel_kind(e->kind), t = diag_test_lookup(e->test);
	const char *words = k >= 0 ? kernel_kinds[k].words : "a message";
	int64_t copies = int_or(e->copies, 0);
	if (t < 0 || copies <= 0)
		return xstrdup(words);
	return xasprintf("%s during %s, %" PRId64 " cop%s", words, ub_tests[t].name, copies, copies == 1 ? "y" : "ies");
}

/* What the kernel logged during the run (bench/kevents.h), each in the test
 * it fell in: an OOM kill, a hung task, a machine check or a heat shutdown
 * spoil that test; throttling and voltage messages lower it. */
static void check_kernel_events(const struct diag_case *c, struct diagnosis *d)
{
	size_t count = 0;
	const struct result_event *worst = NULL;
	bool placed = true;
	unsigned affects = 0;
	diag_foreach_event(c, e) {
		if (!e->kind || !startswith(e->kind, "kernel-"))
			continue;
		int k = kernel_kind(e->kind), t = diag_test_lookup(e->test);
		if (!worst || (k >= 0 && kernel_kinds[k].severe && !(kernel_kind(worst->kind) >= 0 &&
								     kernel_kinds[kernel_kind(worst->kind)].severe)))
			worst = e;
		if (t >= 0)
			affects |= DT(t);
		else
			placed = false;
		if (count++ < 4)
			diag_evidence(d, "%s", e->message);
	}
	if (!count) {
		if (c->sampled && is_true(c->r.kernel_log.read))
			diag_set_normal(d, "the kernel logged no OOM kill, hung task, heat or voltage message during the run");
		return;
	}
	int wk = kernel_kind(worst->kind);
	bool bad = wk >= 0 && kernel_kinds[wk].severe;
	_cleanup_free_ char *what = kernel_event_text(worst);
	diag_fire(d, bad ? DC_HIGH : DC_MEDIUM, placed ? affects : DT_ALL, "the kernel logged %zu event%s during the run%s%s%s",
		  count, count == 1 ? "" : "s", count == 1 ? ": " : ", the worst ", what,
		  bad ? "; a process was killed or stalled, or the machine failed" : "");
	d->expect = xstrdup(placed ? "without the events, the tests they fell in come back to the level of the rest"
				   : "without the events, the affected tests come back to the level of the rest");
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
