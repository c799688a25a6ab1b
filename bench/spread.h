/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unixbench/score.h"

/*
 * What UnixBench never shows: how far a test's passes spread, and a
 * confidence interval of the score made with UnixBench's own scoring.
 */

struct dispersion {
	size_t n;
	double mean, median, stddev, cv_pct, min, max;
	bool has_stddev; /* n >= 2 */
};
void score_dispersion(const double *x, size_t n, struct dispersion *out);

/* A test's passes and baseline, as the interval needs them. */
struct score_input {
	const struct pass_value *passes;
	size_t n;
	double baseline;
};

#define SCORE_BOOTSTRAP_RESAMPLES 2000
#define SCORE_BOOTSTRAP_SEED 0x7562747565ULL

/*
 * Percentile bootstrap over passes: each resample draws every test's passes
 * with replacement (as many as it has), scores them exactly as above and
 * takes the overall index; *lo and *hi are the 2.5 % and 97.5 % quantiles
 * (linear interpolation). Deterministic for a given seed. -EINVAL when a
 * test has no passes or ntests is 0.
 */
int score_bootstrap(const struct score_input *tests, size_t ntests, unsigned resamples, uint64_t seed,
		    double *lo, double *hi);

/* Quantile q (0..1) of sorted values, linear interpolation between ranks. */
double score_quantile(const double *sorted, size_t n, double q);
