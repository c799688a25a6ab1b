/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "bench/runner.h"
#include "unixbench/catalogue.h"
#include "lib/json.h"

/*
 * The result record (schema ubtune.result/1, docs/result-json.md) is built
 * as the run goes: a run per copy count, a test entry per test with every
 * pass's raw values. Scoring reads the passes back from the record, so a
 * stored or imported record can be scored and shown the same way.
 */

/* {"copies": n, "started_at", "tests": []} */
json_object *result_run_new(unsigned copies);
/* A test entry: id, name, unit, timebase, baseline, passes planned, command. */
json_object *result_test_new(const struct ub_test_info *t, unsigned passes_planned, const struct strv *argv);
/* Appends a pass: summed count, mean time, timebase, rate, and each copy's values. */
void result_test_add_pass(json_object *test, const struct pass_outcome *o);

/* Scores a test from its passes (UnixBench's rules) when it is complete:
 * result, time_s, samples, index, passes[].dropped, dispersion, ci95. */
void result_score_test(json_object *test);
/* Only the dispersion and ci95 of a test from its passes: for records
 * (imported logs) that keep the result and index they were given. */
void result_test_spread(json_object *test, const struct pass_value *p, size_t n, double baseline);
/* A number for a record: integral values (counts) as JSON integers, so
 * large counts stay exact; NaN and infinities as null. */
json_object *jnum(double v);
/* The run's index: score, partial, tests indexed, 95 % interval. */
void result_score_run(json_object *run);

/* A random run id (32 hex digits). */
char *result_run_id(void);

/* The text report: UnixBench's layout, then dispersion, interval, events
 * and the probe's findings. -EBADMSG and *error naming the key when rec
 * does not decode (lib/result-record.h). */
int result_render(json_object *rec, FILE *out, char **error);
