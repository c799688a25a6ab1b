/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "bench/opts.h"
#include "lib/json.h"

/*
 * What a run will do and how long it should take, known before it starts.
 * The duration bench states first, the plan of `bench --dry-run`, the
 * progress line's estimate of the time left and the figure --quick's help
 * gives all come from here: the catalogue's durations, passes and extra
 * time per test, the settling before each pass and a build into the cache
 * that is not there yet. They are estimates: a busy machine takes longer.
 */

/* Seconds of a build the cache does not hold yet (make in a copy of
 * byte-unixbench 6.0.0; the workloads with a profile's flags), as they
 * took on a 2-CPU x86-64 machine under load (`make bench-quick` times
 * them). */
#define RUN_PLAN_BUILD_TREE_S 15.0
#define RUN_PLAN_BUILD_WORKLOADS_S 10.0

/* The seconds the program of test t is told to run in a pass on an engine
 * of that kind (quick: ubtune's short durations, which a tree's Run does
 * not take); 0 when it times itself (Whetstone without -t). */
double run_plan_duration_s(enum engine_kind kind, const struct ub_test_info *t, bool quick);
/* Expected wall time of one pass: the settling before it, the duration and
 * what the program adds (calibration, priming). */
double run_plan_pass_s(enum engine_kind kind, const struct ub_test_info *t, bool quick);
/* Expected seconds of every pass of tests[0..ntests) at one copy count. */
double run_plan_copy_count_s(enum engine_kind kind, const unsigned *tests, unsigned ntests,
			     unsigned iterations, bool quick);
/* Every pass of every test at every copy count of o. */
double run_plan_tests_s(const struct bench_opts *o);
/* The whole run: measuring how busy the machine is, a build not in the
 * cache yet (o->engine->build_needed) and every pass. */
double run_plan_total_s(const struct bench_opts *o);

/* An estimate's duration, rounded as it deserves: "45 s", "9 min",
 * "1 h 05 min". */
char *run_plan_duration_text(double s);

/* The plan of the run o describes (schema ubtune.bench-plan/1,
 * docs/bench-plan-json.md). */
json_object *run_plan_json(const struct bench_opts *o);
/* The plan as text, wrapped to width. */
void run_plan_render(json_object *plan, FILE *out, size_t width);
/* "about 1.5 min (2 copy counts of about 45 s each and 1 s checking that
 * the machine is quiet; an estimate ...)": the plan's expected time. */
char *run_plan_expected_text(json_object *plan);
