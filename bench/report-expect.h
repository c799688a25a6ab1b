/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "lib/result-record.h"
#include "unixbench/expect.h"

/*
 * A result's runs against what published runs of its CPU reach
 * (unixbench/expect.h): for the bench report (bench/report.c), the HTML
 * page (analysis/report-html.c) and the "of expected" columns of compare
 * and fleet.
 */

/* The expectation of one run of a result; false (e->why) when nothing is expected. */
bool report_expect_run(const struct expect_ref *ref, const struct result_env *re, const struct result_run *run,
		       struct expectation *e);
/* The level line of a run ("Score 1084.8 is 93 % of the 1,160 (537-2,840) expected of ..."). */
char *report_expect_line(const struct result_env *re, const struct result_run *run, const struct expectation *e);
/* Every test a run has against its expected index (at most UB_NINDEX rows); the count. */
struct report_expect_row {
	const struct ub_test_info *test;
	double index, expected, low, high;
};
size_t report_expect_rows(const struct result_run *run, const struct expectation *e, struct report_expect_row *rows);
/* "123 %", "47 % low", "144 % high" */
char *report_expect_pct(const struct report_expect_row *row);
/* The expected index and its interval as read: "1,340" and "1,200-1,860". */
void report_expect_texts(const struct report_expect_row *row, char *mid, size_t mid_size, char *range,
			 size_t range_size);
/* The bench report's section: each run's level and every test against its expected index. */
void report_expect_render(const struct expect_ref *ref, const struct result_env *re, FILE *out);

/* The "of expected" table of compare --expected and fleet --expected: a row per run of each
 * result {"label", "copies", "cpu", "score", "expected", "low", "high", "of_expected", "verdict",
 * "basis"}, or {"label", "copies", "score", "expected": null, "why"}. */
json_object *report_expect_rows_json(const struct expect_ref *ref, json_object *const *recs, const char *const *labels,
				     size_t n);
void report_expect_rows_render(json_object *rows, FILE *out);
