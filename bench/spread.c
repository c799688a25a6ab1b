/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench/spread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lib/doubles.h"
#include "lib/util.h"

double score_quantile(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]);
}

void score_dispersion(const double *x, size_t n, struct dispersion *out)
{
	*out = (struct dispersion){ .n = n, .mean = NAN, .median = NAN, .stddev = NAN, .cv_pct = NAN,
				    .min = NAN, .max = NAN };
	if (n == 0)
		return;
	_cleanup_free_ double *s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	doubles_sort(s, n);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	out->median = score_quantile(s, n, 0.5);
	out->min = s[0];
	out->max = s[n - 1];
	if (n < 2)
		return;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->has_stddev = true;
	out->stddev = sqrt(ss / (double)(n - 1));
	out->cv_pct = out->mean > 0 ? 100.0 * out->stddev / out->mean : NAN;
}

/* splitmix64: small, good enough for resampling, the same on every platform. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int score_bootstrap(const struct score_input *tests, size_t ntests, unsigned resamples, uint64_t seed,
		    double *lo, double *hi)
{
	if (ntests == 0 || resamples == 0)
		return -EINVAL;
	size_t maxn = 0;
	for (size_t t = 0; t < ntests; t++) {
		if (tests[t].n == 0)
			return -EINVAL;
		if (tests[t].n > maxn)
			maxn = tests[t].n;
	}
	_cleanup_free_ struct pass_value *draw = xmalloc(maxn * sizeof(*draw));
	_cleanup_free_ size_t *pick = xmalloc(maxn * sizeof(*pick));
	_cleanup_free_ double *index = xmalloc(ntests * sizeof(*index));
	_cleanup_free_ double *scores = xmalloc(resamples * sizeof(*scores));
	/* a test's draws are ordered by counting (score_resample()), not sorted */
	_cleanup_free_ struct score_resampler *rs = xcalloc(ntests, sizeof(*rs));
	_cleanup_free_ bool *ranked = xcalloc(ntests, sizeof(*ranked));
	for (size_t t = 0; t < ntests; t++)
		ranked[t] = score_resampler_init(&rs[t], tests[t].passes, tests[t].n) == 0;
	uint64_t state = seed;
	/* tests of one pass each: every resample is the same draw */
	bool fixed = maxn == 1;

	for (unsigned r = 0; r < resamples; r++) {
		if (fixed && r > 0) {
			scores[r] = scores[0];
			continue;
		}
		for (size_t t = 0; t < ntests; t++) {
			for (size_t k = 0; k < tests[t].n; k++)
				pick[k] = next_random(&state) % tests[t].n;
			double result;
			if (ranked[t]) {
				result = score_resample(&rs[t], pick);
			} else {
				struct test_score ts;
				for (size_t k = 0; k < tests[t].n; k++)
					draw[k] = tests[t].passes[pick[k]];
				score_test(draw, tests[t].n, NULL, &ts);
				result = ts.result;
			}
			index[t] = score_index(result, tests[t].baseline);
		}
		scores[r] = score_overall(index, ntests);
	}
	for (size_t t = 0; t < ntests; t++)
		score_resampler_free(&rs[t]);
	doubles_sort(scores, resamples);
	*lo = score_quantile(scores, resamples, 0.025);
	*hi = score_quantile(scores, resamples, 0.975);
	return 0;
}
