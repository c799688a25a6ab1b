/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * UnixBench's scoring (Run: runOnePass, combinePassResults, indexResults).
 */

/* One pass of a test: the copies' counts summed, their times averaged. */
struct pass_value {
	double count;
	double time;     /* seconds */
	double timebase; /* copy 0's: 0 means count is already a rate */
};

/* count per timebase (count / (time / timebase)), or count when the
 * timebase is 0 (or the time is not positive, as Run does). */
double pass_rate(const struct pass_value *p);

struct test_score {
	double result;  /* geometric mean of the kept passes' rates */
	double time;    /* mean time of the kept passes */
	unsigned kept;  /* "N samples" */
};

/*
 * Sorts the passes by count (ties keep their order), drops the lowest
 * floor(n/3) and takes the geometric mean of the rest's rates; a pass with
 * count 0 adds nothing to the log sum but counts in the mean (Run 6.0.0).
 * dropped (n entries, may be NULL) tells which passes were dropped.
 * -EINVAL when n is 0.
 */
int score_test(const struct pass_value *p, size_t n, bool *dropped, struct test_score *out);

/* 10 × result / baseline. */
double score_index(double result, double baseline);

/* Geometric mean of per-test indexes: 10 × exp(mean(ln(index / 10)));
 * ratios of 1e-6 or less add nothing to the sum but count in the mean. */
double score_overall(const double *index, size_t n);
