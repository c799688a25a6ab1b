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

/*
 * The result score_test() gives for many draws from the same passes (a
 * bootstrap), without sorting each draw: the passes are ranked by count
 * once and a draw is put in order by counting, ties in the order drawn as
 * score_test() keeps them, so the result is the same to the last bit.
 * score_resampler_init() takes n passes (p must outlive it); -EINVAL when
 * n is 0 or a count is NaN (no order to rank by: use score_test()).
 */
struct score_resampler {
	size_t n, nclass;
	size_t *rank;     /* pass -> rank of its count among the distinct counts */
	double *lograte;  /* pass -> what it adds to the log sum */
	size_t *at;       /* nclass + 1: where each rank goes in a draw */
	size_t *order;    /* n: a draw in score_test()'s order */
};
int score_resampler_init(struct score_resampler *s, const struct pass_value *p, size_t n);
/* The result of the passes draw[0..n) (indexes into p). */
double score_resample(struct score_resampler *s, const size_t *draw);
void score_resampler_free(struct score_resampler *s);

/* 10 × result / baseline. */
double score_index(double result, double baseline);

/* Geometric mean of per-test indexes: 10 × exp(mean(ln(index / 10)));
 * ratios of 1e-6 or less add nothing to the sum but count in the mean. */
double score_overall(const double *index, size_t n);
