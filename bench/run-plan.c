/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run will do and how long it should take (bench/run-plan.h). */
#include "bench/run-plan.h"

#include <math.h>

#include "bench/preflight.h"
#include "bench/runner.h"
#include "bench/workdir.h"
#include "lib/util.h"

double run_plan_duration_s(enum engine_kind kind, const struct ub_test_info *t, bool quick)
{
	/* the arguments engine_argv() gives: the short Whetstone only to ours */
	const char *args = quick && kind == ENGINE_WORKLOADS && t->quick_args ? t->quick_args : t->args;
	if (!strstr(args, "{t}"))
		return 0;
	/* Run's tests keep their durations: --quick only gives it -i 3 */
	return ub_duration(t, quick && kind != ENGINE_RUN);
}

double run_plan_pass_s(enum engine_kind kind, const struct ub_test_info *t, bool quick)
{
	double settle = quick && kind != ENGINE_RUN ? RUNNER_SETTLE_QUICK_S : RUNNER_SETTLE_S;
	/* a tree's programs keep their own priming and calibration */
	double extra = quick && kind == ENGINE_WORKLOADS ? t->quick_extra_s : t->extra_s;
	return settle + run_plan_duration_s(kind, t, quick) + extra;
}

double run_plan_copy_count_s(enum engine_kind kind, const unsigned *tests, unsigned ntests,
			     unsigned iterations, bool quick)
{
	double s = 0;
	for (unsigned k = 0; k < ntests; k++) {
		const struct ub_test_info *t = &ub_tests[tests[k]];
		s += ub_passes(t, iterations, quick) * run_plan_pass_s(kind, t, quick);
	}
	return s;
}

double run_plan_tests_s(const struct bench_opts *o)
{
	return o->ncopies * run_plan_copy_count_s(o->engine->kind, o->tests, o->ntests, o->iterations, o->quick);
}

static double build_s(const struct bench_engine *e)
{
	if (!e->build_needed)
		return 0;
	return e->kind == ENGINE_WORKLOADS ? RUN_PLAN_BUILD_WORKLOADS_S : RUN_PLAN_BUILD_TREE_S;
}

double run_plan_total_s(const struct bench_opts *o)
{
	return PREFLIGHT_S + build_s(o->engine) + run_plan_tests_s(o);
}

char *run_plan_duration_text(double s)
{
	if (!(s > 0))
		return xstrdup("0 s");
	if (s < 10)
		return xasprintf("%.0f s", ceil(s));
	if (s < 60)
		return xasprintf("%.0f s", round(s / 5) * 5);
	/* half minutes up to ten, then whole ones */
	if (s < 600) {
		long halves = lround(s / 30);
		return halves % 2 ? xasprintf("%ld.5 min", halves / 2) : xasprintf("%ld min", halves / 2);
	}
	long m = lround(s / 60);
	if (m < 60)
		return xasprintf("%ld min", m);
	return xasprintf("%ld h %02ld min", m / 60, m % 60);
}

/* ---- the plan record ---- */

static json_object *tests_json(const struct bench_opts *o)
{
	enum engine_kind kind = o->engine->kind;
	json_object *a = json_object_new_array();
	for (unsigned k = 0; k < o->ntests; k++) {
		const struct ub_test_info *t = &ub_tests[o->tests[k]];
		json_object *j = json_object_new_object();
		unsigned passes = ub_passes(t, o->iterations, o->quick);
		double d = run_plan_duration_s(kind, t, o->quick), pass = run_plan_pass_s(kind, t, o->quick);
		jset_str(j, "id", t->id);
		jset_str(j, "name", t->name);
		jset_str(j, "label", t->label);
		jset_int(j, "passes", passes);
		if (d > 0)
			jset_round(j, "duration_s", d, 2);
		else
			jset_null(j, "duration_s");
		jset_round(j, "pass_s", pass, 2);
		jset_round(j, "total_s", passes * pass, 2);
		json_object_array_add(a, j);
	}
	return a;
}

static json_object *profile_json(const struct bench_opts *o)
{
	const struct applied_profile *p = o->profile;
	if (!p || !p->present)
		return NULL;
	json_object *j = json_object_new_object(), *names = json_object_new_array();
	jset_str(j, "path", p->path);
	for (size_t i = 0; i < p->profiles.n; i++)
		jarr_add_str(names, p->profiles.v[i]);
	jset(j, "profiles", names);
	jset_str(j, "cc", p->cc);
	jset_str(j, "cflags", p->cflags);
	jset_bool(j, "stale", o->profile_stale);
	return j;
}

static const char *settle_text(const struct bench_opts *o)
{
	return o->quick && o->engine->kind != ENGINE_RUN ? "sync; sleep 0.25" : "sync; sleep 1; sync; sleep 2";
}

static json_object *expected_json(const struct bench_opts *o)
{
	json_object *j = json_object_new_object();
	double one = run_plan_copy_count_s(o->engine->kind, o->tests, o->ntests, o->iterations, o->quick);
	jset_round(j, "total_s", run_plan_total_s(o), 1);
	jset_round(j, "per_copy_count_s", one, 1);
	jset_int(j, "copy_counts", o->ncopies);
	jset_round(j, "build_s", build_s(o->engine), 1);
	jset_round(j, "preflight_s", PREFLIGHT_S, 1);
	jset_str(j, "note", "an estimate from the tests' durations and passes, the settling before each pass and "
			    "what the programs add; a busy machine takes longer, and --wait adds its wait");
	return j;
}

json_object *run_plan_json(const struct bench_opts *o)
{
	const struct bench_engine *e = o->engine;
	json_object *j = json_object_new_object(), *copies = json_object_new_array();
	jset_str(j, "schema", "ubtune.bench-plan/1");
	jset(j, "engine", engine_json(e));
	jset(j, "build", e->build ? json_object_get(e->build) : NULL);
	jset_bool(j, "build_needed", e->build_needed);
	_cleanup_free_ char *base = NULL, *error = NULL;
	workdir_base(o->workdir, o->workdir_source, &base, &error);
	jset_str(j, "workdir", base ? base : o->workdir);
	jset_str(j, "workdir_source", o->workdir_source);
	jset_str(j, "workdir_error", error);
	jset(j, "profile", profile_json(o));
	jset_bool(j, "quick", o->quick);
	jset(j, "iterations", o->iterations ? json_object_new_int((int)o->iterations) : NULL);
	jset_str(j, "settle", settle_text(o));
	for (unsigned i = 0; i < o->ncopies; i++)
		json_object_array_add(copies, json_object_new_int((int)o->copies[i]));
	jset(j, "copies", copies);
	jset_str(j, "copies_note", o->copies_note);
	jset_str(j, "pin_single", o->pin_single);
	jset(j, "dma_latency_us", o->dma_latency ? json_object_new_int((int)o->dma_latency_us) : NULL);
	jset(j, "tests", tests_json(o));
	jset(j, "expected", expected_json(o));
	return j;
}
