/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One `ubtune bench`: preflight, the passes of every test at every copy
 * count with the sampler running, the probe before and after, the record. */
#include "bench.h"

#include <errno.h>
#include <sched.h>
#include <math.h>
#include <signal.h>
#include <time.h>

#include "bench/background.h"
#include "bench/clock.h"
#include "bench/hold.h"
#include "bench/kevents.h"
#include "bench/run-plan.h"
#include "bench/preflight.h"
#include "bench/result.h"
#include "bench/runner.h"
#include "bench/sampler.h"
#include "bench/ubrun.h"
#include "bench/workdir.h"
#include "lib/cpuset.h"
#include "lib/store.h"
#include "lib/util.h"
#include "probe/probe.h"

#define SAMPLER_INTERVAL_S 1.0
/* Seconds between two preflight measurements while waiting. */
#define PREFLIGHT_RETRY_S 2.0

struct run_state {
	const struct bench_opts *o;
	const char *workdir;
	char **env;
	struct sampler *sampler;
	struct bench_clock *clock; /* NULL: the kinds of core are not known */
	cpu_set_t *pin;            /* the 1-copy pass's CPUs, or NULL */
	size_t pin_size;
	double t0;
	double est_total, est_done; /* estimated seconds of all passes, and of those done */
	unsigned step, steps;
	char *first_error;
};

static void say(const struct bench_opts *o, bool status, const char *fmt, va_list ap)
{
	void (*fn)(const char *msg, void *data) = !o->ui ? NULL : status && o->ui->status ? o->ui->status : o->ui->notice;
	if (!fn)
		return;
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	fn(msg, o->ui->data);
}

static void notice(const struct bench_opts *o, const char *fmt, ...) _printf_(2, 3);
static void notice(const struct bench_opts *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(o, false, fmt, ap);
	va_end(ap);
}

/* A line that the next status, notice or progress line replaces. */
static void status(const struct bench_opts *o, const char *fmt, ...) _printf_(2, 3);
static void status(const struct bench_opts *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(o, true, fmt, ap);
	va_end(ap);
}

/* Measures until the machine is quiet, --wait runs out or --force says go. */
static int preflight(const struct bench_opts *o, struct rootfs *rf, json_object **out, char **error)
{
	double start = now_s();
	for (;;) {
		struct preflight p;
		int r = preflight_measure(rf, PREFLIGHT_S, getpid(), &p);
		if (r == -EINTR) {
			*error = xstrdup("interrupted before the first test");
			return r;
		}
		if (r < 0) {
			*error = xasprintf("cannot measure how busy the machine is: %s", strerror(-r));
			return r;
		}
		json_object_put(*out);
		*out = preflight_json(&p);
		_cleanup_free_ char *what = preflight_describe(&p);
		bool busy = p.busy;
		preflight_free(&p);
		if (!busy) {
			if (now_s() - start > PREFLIGHT_S * 1.5)
				notice(o, "the machine is quiet after %.0f s of waiting", now_s() - start);
			return 0;
		}
		if (o->force) {
			notice(o, "the machine is busy (%s); running anyway (--force)", what);
			return 0;
		}
		double left = o->wait_s - (now_s() - start);
		if (left <= 0) {
			*error = xasprintf("the machine is busy: %s. Wait for it, give --wait SECONDS, or --force to run "
					   "anyway",
					   what);
			return -EBUSY;
		}
		status(o, "waiting up to %.0f s more for the machine to calm down: %s", left, what);
		r = runner_sleep(left < PREFLIGHT_RETRY_S ? left : PREFLIGHT_RETRY_S);
		if (r < 0) {
			*error = xstrdup("interrupted before the first test");
			return r;
		}
	}
}

static double pass_estimate(const struct bench_opts *o, const struct ub_test_info *t)
{
	return run_plan_pass_s(o->engine->kind, t, o->quick);
}

static void report_progress(struct run_state *st, const struct ub_test_info *t, unsigned copies, unsigned pass,
			    unsigned passes)
{
	if (!st->o->ui || !st->o->ui->progress)
		return;
	double elapsed = now_s() - st->t0, eta = NAN;
	if (st->est_done > 0) {
		double pace = elapsed / st->est_done;
		pace = pace < 0.5 ? 0.5 : pace > 3 ? 3 : pace;
		eta = (st->est_total - st->est_done) * pace;
	}
	struct bench_progress p = { t, copies, pass, passes, st->step, st->steps, elapsed, eta };
	st->o->ui->progress(&p, st->o->ui->data);
}

/* Runs every pass of one test; the test entry records them. -EINTR when
 * asked to stop; a failing test is recorded, not returned. */
static int run_test(struct run_state *st, json_object *tests, unsigned ti, unsigned copies)
{
	const struct bench_opts *o = st->o;
	const struct ub_test_info *t = &ub_tests[ti];
	unsigned passes = ub_passes(t, o->iterations, o->quick);
	struct strv argv = {0};
	engine_argv(o->engine, t, o->quick, st->workdir, &argv);
	json_object *test = result_test_new(t, passes, &argv);
	json_object_array_add(tests, test);
	sampler_set_phase(st->sampler, (int)ti, copies);

	int r = 0;
	unsigned pass = 0;
	json_object *clock = st->clock ? jchild(test, "clock") : NULL;
	for (; pass < passes; pass++) {
		report_progress(st, t, copies, pass + 1, passes);
		r = runner_settle(o->quick);
		if (r < 0)
			break;
		if (pass == 0 && clock)
			jset(clock, "before", bench_clock_measure(st->clock));
		struct pass_spec spec = {
			.argv = argv.v,
			.envp = st->env,
			.cwd = st->workdir,
			.copies = copies,
			.timeout_s = 3 * pass_estimate(o, t) + 120,
			.affinity = copies == 1 ? st->pin : NULL,
			.affinity_size = st->pin_size,
		};
		struct pass_outcome out;
		_cleanup_free_ char *why = NULL;
		r = runner_pass(&spec, &out, &why);
		st->est_done += pass_estimate(o, t);
		if (r == -EINTR)
			break;
		if (r < 0) {
			_cleanup_free_ char *msg = xasprintf("%u cop%s, pass %u: %s", copies, copies == 1 ? "y" : "ies",
							     pass + 1, why);
			jset_str(test, "error", msg);
			if (!st->first_error)
				st->first_error = xasprintf("%s, %s", t->name, msg);
			r = 0;
			break;
		}
		result_test_add_pass(test, &out);
		pass_outcome_free(&out);
	}
	if (clock && r != -EINTR)
		jset(clock, "after", bench_clock_measure(st->clock));
	/* skipped passes of a failed test still count toward the estimate */
	st->est_done += (passes - (pass < passes ? pass + 1 : passes)) * pass_estimate(o, t);
	jset_bool(test, "complete", pass == passes);
	result_score_test(test);
	strv_free(&argv);
	sampler_set_phase(st->sampler, -1, 0);
	return r;
}

static int run_all(struct run_state *st, json_object *runs)
{
	const struct bench_opts *o = st->o;
	for (unsigned c = 0; c < o->ncopies; c++) {
		json_object *run = result_run_new(o->copies[c]);
		json_object_array_add(runs, run);
		int r = 0;
		for (unsigned k = 0; k < o->ntests && r == 0; k++) {
			st->step++;
			r = run_test(st, jpath(run, "tests"), o->tests[k], o->copies[c]);
		}
		_cleanup_free_ char *end = iso8601_local(time(NULL));
		jset_str(run, "ended_at", end);
		result_score_run(run);
		if (r < 0)
			return r;
	}
	return 0;
}

static json_object *probe_record(const char *workdir)
{
	struct probe_opts po = { .workdir = workdir };
	json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	if (probe_collect(&po, &rec, NULL, &error) < 0)
		return NULL;
	return rec;
}

static json_object *options_json(const struct bench_opts *o, const struct workdir *wd)
{
	json_object *opt = json_object_new_object();
	json_object *tests = json_object_new_array(), *copies = json_object_new_array();
	for (unsigned i = 0; i < o->ntests; i++)
		jarr_add_str(tests, ub_tests[o->tests[i]].id);
	for (unsigned i = 0; i < o->ncopies; i++)
		json_object_array_add(copies, json_object_new_int((int)o->copies[i]));
	jset(opt, "tests", tests);
	jset(opt, "copies", copies);
	jset_str(opt, "copies_note", o->copies_note);
	jset(opt, "iterations", o->iterations ? json_object_new_int((int)o->iterations) : NULL);
	jset_bool(opt, "quick", o->quick);
	jset_str(opt, "workdir", wd->base);
	jset_str(opt, "workdir_source", wd->source);
	_cleanup_free_ char *desc = xasprintf("%s (%s; the tests ran in a temporary directory inside it)",
					      wd->base, wd->source);
	jset_str(opt, "workdir_description", desc);
	jset_str(opt, "locale", "en_US.utf8");
	jset_str(opt, "settle", o->quick ? "sync; sleep 0.25" : "sync; sleep 1; sync; sleep 2");
	return opt;
}

/* The parts of the record known before the first test. */
static json_object *record_new(const struct bench_opts *o, const struct workdir *wd, time_t started)
{
	json_object *rec = json_object_new_object();
	const struct bench_engine *e = o->engine;
	_cleanup_free_ char *run_id = result_run_id(), *when = iso8601_local(started);
	jset_str(rec, "schema", RESULT_SCHEMA);
	jset_str(rec, "run_id", run_id);
	json_object *tool = jchild(rec, "tool");
	jset_str(tool, "name", "ubtune");
	jset_str(tool, "version", UBTUNE_VERSION);
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	/* "(none)" is the kernel's word for a hostname nobody set */
	jset_str(rec, "host", *host && !streq(host, "(none)") ? host : NULL);
	jset_str(rec, "started_at", when);
	jset_null(rec, "ended_at");
	json_object *suite = jchild(rec, "suite");
	jset_str(suite, "name", e->suite);
	jset_str(suite, "version", e->version);
	jset_str(suite, "compatible_with", "UnixBench 6.0.0");
	jset(rec, "engine", engine_json(e));
	jset(rec, "build", e->build ? json_object_get(e->build) : NULL);
	jset(rec, "options", options_json(o, wd));
	jset_bool(rec, "quick", o->quick);
	jset_bool(rec, "incomplete", false);
	jset_null(rec, "interrupted_by");
	jset_bool(rec, "imported", false);
	jset(rec, "profile", o->profile && o->profile->present ? json_object_get(o->profile->raw) : NULL);
	jset_bool(rec, "profile_stale", o->profile_stale);
	jset_int(rec, "online_cpus", sysconf(_SC_NPROCESSORS_ONLN));
	jset(rec, "runs", json_object_new_array());
	return rec;
}

static void record_finish(json_object *rec, struct sampler *s)
{
	_cleanup_free_ char *end = iso8601_local(time(NULL));
	jset_str(rec, "ended_at", end);
	if (s) {
		jset(rec, "sampler", sampler_summary(s));
		jset(rec, "samples", json_object_get(sampler_samples(s)));
		jset(rec, "events", json_object_get(sampler_events(s)));
		background_per_test(rec);
	} else {
		jset_null(rec, "sampler");
		jset(rec, "samples", json_object_new_array());
		jset(rec, "events", json_object_new_array());
	}
}

/* What the kernel logged during the run (bench/kevents.h), after the sampler's events. */
static void kernel_events(json_object *rec, struct kevents *k, const struct phases *ph)
{
	json_object *summary, *kev = kevents_finish(k, ph, &summary), *events = jpath(rec, "events");
	for (size_t i = 0; i < jarr_len(kev); i++)
		json_object_array_add(events, json_object_get(json_object_array_get_idx(kev, i)));
	json_object_put(kev);
	jset(rec, "kernel_log", summary);
}

static bool needs_input(const struct bench_opts *o)
{
	for (unsigned i = 0; i < o->ntests; i++)
		if (ub_tests[o->tests[i]].needs_input)
			return true;
	return false;
}

/* The processes one copy of the tests asked for can have at once. */
static unsigned procs_per_copy(const struct bench_opts *o)
{
	unsigned most = 1;
	for (unsigned i = 0; i < o->ntests; i++) {
		unsigned n = ub_tests[o->tests[i]].procs;
		most = n > most ? n : most;
	}
	return most;
}

/* What the run holds while it lasts (bench/hold.h), into the options. */
static void hold_start(const struct bench_opts *o, struct run_state *st, json_object *rec,
		       const struct env_record *before, int *qos_fd)
{
	json_object *opt = jpath(rec, "options");
	*qos_fd = -1;
	if (o->pin_single) {
		st->pin_size = CPU_ALLOC_SIZE(CPUSET_MAX);
		st->pin = CPU_ALLOC(CPUSET_MAX);
		bool pinned = false;
		json_object *pin = hold_pin_fastest(before, st->pin, st->pin_size, &pinned);
		if (pinned)
			notice(o, "the 1-copy pass runs on the fastest kind of core, %s (CPUs %s)", jpath_str(pin, "kind"),
			       jpath_str(pin, "cpus"));
		else
			notice(o, "the 1-copy pass is not pinned: %s", jpath_str(pin, "note"));
		if (!pinned) {
			CPU_FREE(st->pin);
			st->pin = NULL;
		}
		jset(opt, "pin_single", pin);
	}
	if (o->dma_latency) {
		json_object *q = hold_dma_latency((int)o->dma_latency_us, qos_fd);
		if (*qos_fd >= 0)
			notice(o, "holding the CPU DMA latency at %u µs (%s) for the run: idle CPUs stay out of deeper "
				  "idle states", o->dma_latency_us, jpath_str(q, "device"));
		else
			notice(o, "cannot hold the CPU DMA latency: %s", jpath_str(q, "error"));
		jset(opt, "dma_latency", q);
	}
	unsigned widest = 1;
	for (unsigned c = 0; c < o->ncopies; c++)
		widest = o->copies[c] > widest ? o->copies[c] : widest;
	json_object *np = hold_nproc(widest, procs_per_copy(o));
	int64_t raised;
	if (np && jpath_int(np, "raised_to", &raised))
		notice(o, "the process limit (ulimit -u) was %lld, below what %u copies need: raised to %lld for the run",
		       (long long)json_object_get_int64(jpath(np, "soft")), widest, (long long)raised);
	jset(opt, "nproc", np);
}

/* The passes of every test, with the sampler running; the environment
 * before and after. */
static int measure(const struct bench_opts *o, const struct workdir *wd, json_object *rec, char **error)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	struct run_state st = { .o = o, .workdir = wd->path, .steps = o->ncopies * o->ntests };
	int r = rootfs_new("/", &rf);
	if (r < 0) {
		*error = xasprintf("cannot read /: %s", strerror(-r));
		return r;
	}
	st.est_total = run_plan_tests_s(o);
	json_object *env = jchild(rec, "environment"), *probed = probe_record(wd->base);
	jset(env, "before", probed);
	struct env_record before;
	_cleanup_free_ char *env_error = NULL;
	/* the probe's own record: a key of the wrong type leaves its fact unknown */
	(void)env_decode(probed, "environment.before", &before, &env_error);
	st.clock = bench_clock_new(rf, &before);
	json_object *clock = jchild(rec, "clock");
	jset(clock, "before", bench_clock_measure(st.clock));
	int qos_fd;
	hold_start(o, &st, rec, &before, &qos_fd);
	env_record_free(&before);
	struct kevents kev;
	kevents_start(&kev, jpath_str(rec, "started_at") ?: "?");
	r = sampler_new(rf, getpid(), &st.sampler);
	if (r == 0)
		r = sampler_start(st.sampler, SAMPLER_INTERVAL_S);
	if (r < 0) {
		*error = xasprintf("cannot start the sampler: %s", strerror(-r));
		json_object *ksum;
		json_object_put(kevents_finish(&kev, NULL, &ksum));
		json_object_put(ksum);
		sampler_free(st.sampler);
		bench_clock_free(st.clock);
		if (qos_fd >= 0)
			close(qos_fd);
		if (st.pin)
			CPU_FREE(st.pin);
		return r;
	}
	st.env = engine_env(o->engine, o->quick);
	st.t0 = now_s();
	if (o->engine->kind == ENGINE_RUN)
		r = ubrun_measure(o, wd->path, st.sampler, rec, &st.first_error);
	else
		r = run_all(&st, jpath(rec, "runs"));
	sampler_stop(st.sampler);
	jset(clock, "after", bench_clock_measure(st.clock));
	bench_clock_free(st.clock);
	/* the kernel drops the latency request when its file is closed */
	if (qos_fd >= 0)
		close(qos_fd);
	if (st.pin)
		CPU_FREE(st.pin);
	record_finish(rec, st.sampler);
	kernel_events(rec, &kev, sampler_phases(st.sampler));
	sampler_free(st.sampler);
	jset(env, "after", probe_record(wd->base));
	for (char **e = st.env; *e; e++)
		free(*e);
	free(st.env);
	/* a failed test (or a failed Run) */
	if (st.first_error && (r == 0 || r == -EIO)) {
		*error = TAKE_PTR(st.first_error);
		r = -EIO;
	}
	free(st.first_error);
	return r;
}

int bench_run(const struct bench_opts *o, json_object **rec, char **error)
{
	*rec = NULL;
	*error = NULL;
	runner_setup();
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	int r = rootfs_new("/", &rf);
	if (r < 0) {
		*error = xasprintf("cannot read /: %s", strerror(-r));
		return r;
	}
	json_object *pf = NULL;
	r = preflight(o, rf, &pf, error);
	if (r < 0) {
		json_object_put(pf);
		return r;
	}
	struct workdir wd;
	r = workdir_create(o->workdir, o->workdir_source, &wd, error);
	if (r < 0) {
		json_object_put(pf);
		return r;
	}
	/* Run has its testdir; the others need sort.src in the workdir */
	if (needs_input(o) && o->engine->kind != ENGINE_RUN)
		r = engine_prepare_input(o->engine, wd.path, error);
	if (r == 0) {
		*rec = record_new(o, &wd, time(NULL));
		jset(*rec, "preflight", TAKE_PTR(pf));
		r = measure(o, &wd, *rec, error);
		if (r == -EINTR) {
			jset_bool(*rec, "incomplete", true);
			const char *name = runner_signal_name(runner_stop_signal());
			jset_str(*rec, "interrupted_by", name);
			free(*error);
			*error = xasprintf("stopped by %s", name);
		}
	}
	json_object_put(pf);
	_cleanup_free_ char *tmp = xstrdup(wd.path);
	int k = workdir_remove(&wd);
	if (k < 0 && r == 0) {
		*error = xasprintf("cannot remove the temporary directory %s: %s", tmp, strerror(-k));
		r = k;
	}
	workdir_free(&wd);
	return r;
}

bool bench_has_results(json_object *rec)
{
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++) {
		json_object *tests = jpath(json_object_array_get_idx(runs, i), "tests");
		for (size_t k = 0; k < jarr_len(tests); k++)
			if (jpath(json_object_array_get_idx(tests, k), "result"))
				return true;
	}
	return false;
}
