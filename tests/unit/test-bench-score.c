/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench's scoring on hand-computed examples, the dispersion and the
 * bootstrap interval. */
#include <errno.h>
#include <math.h>

#include "bench/spread.h"
#include "unixbench/catalogue.h"
#include "testlib.h"

#define EPS 1e-9

static void rates(void **state)
{
	/* lps: count per second of measured time */
	assert_float_equal(pass_rate(&(struct pass_value){ 1000, 10.0, 1 }), 100.0, EPS);
	/* lpm: 30 loops in 60.5 s = 30 / (60.5 / 60) per minute */
	assert_float_equal(pass_rate(&(struct pass_value){ 30, 60.5, 60 }), 29.752066115702479, EPS);
	/* timebase 0: the count already is the rate (fstime, whetstone) */
	assert_float_equal(pass_rate(&(struct pass_value){ 4000, 30.0, 0 }), 4000.0, EPS);
	/* no time measured: Run falls back to the count */
	assert_float_equal(pass_rate(&(struct pass_value){ 50, 0, 1 }), 50.0, EPS);
}

static void drop_worst_third_by_count(void **state)
{
	/* 5 passes drop floor(5/3) = 1: the lowest count (1000), although its
	 * short time makes it the fastest rate. Kept rates 2000, 4000, 8000,
	 * 16000: geometric mean 2000 * 64^(1/4) = 5656.854249... */
	struct pass_value p[] = {
		{ 8000, 1.0, 1 }, { 1000, 0.1, 1 }, { 16000, 1.0, 1 }, { 2000, 1.0, 1 }, { 4000, 1.0, 1 },
	};
	bool dropped[5];
	struct test_score s;
	assert_int_equal(score_test(p, 5, dropped, &s), 0);
	assert_float_equal(s.result, 2000.0 * pow(64.0, 0.25), 1e-6);
	assert_int_equal(s.kept, 4);
	assert_float_equal(s.time, 1.0, EPS);
	assert_true(dropped[1]);
	assert_false(dropped[0] || dropped[2] || dropped[3] || dropped[4]);

	/* 3 passes drop 1: counts 50, 40, 60 in 30 s: sqrt(50/30 * 60/30) */
	struct pass_value q[] = { { 50, 30, 1 }, { 40, 30, 1 }, { 60, 30, 1 } };
	assert_int_equal(score_test(q, 3, dropped, &s), 0);
	assert_float_equal(s.result, sqrt(5.0 / 3.0 * 2.0), EPS);
	assert_int_equal(s.kept, 2);
	assert_true(dropped[1] && !dropped[0] && !dropped[2]);

	/* 10 passes keep 7; equal counts keep their order, so the first two of
	 * the three tied lowest go */
	struct pass_value t[10];
	for (int i = 0; i < 10; i++)
		t[i] = (struct pass_value){ i < 3 ? 10 : 100 + i, 10.0 - i * 0.1, 1 };
	t[9].count = 10;
	bool d10[10];
	assert_int_equal(score_test(t, 10, d10, &s), 0);
	assert_int_equal(s.kept, 7);
	assert_true(d10[0] && d10[1] && d10[2] && !d10[9]);
	double logsum = log(10 / (10 - 0.9));
	for (int i = 3; i < 9; i++)
		logsum += log((100.0 + i) / (10 - i * 0.1));
	assert_float_equal(s.result, exp(logsum / 7), 1e-9);

	/* one pass: nothing dropped */
	assert_int_equal(score_test(q, 1, NULL, &s), 0);
	assert_float_equal(s.result, 50.0 / 30.0, EPS);
	assert_int_equal(score_test(q, 0, NULL, &s), -EINVAL);
}

static void zero_count_counts_as_one(void **state)
{
	/* Run 6.0.0 adds no log term for a zero count but keeps it in the mean:
	 * exp((0 + ln 100) / 2) = 10 */
	struct pass_value p[] = { { 0, 1, 1 }, { 100, 1, 1 } };
	struct test_score s;
	assert_int_equal(score_test(p, 2, NULL, &s), 0);
	assert_float_equal(s.result, 10.0, EPS);
}

static void indexes(void **state)
{
	assert_float_equal(score_index(233400, 116700), 20.0, EPS);
	assert_float_equal(score_index(1241.0, 126), 98.492063492063, 1e-9);
	/* geometric mean of indexes 10 and 1000 is 100 */
	assert_float_equal(score_overall((double[]){ 10, 1000 }, 2), 100.0, EPS);
	/* three tests: 10 * (2 * 4 * 8)^(1/3) = 40 */
	assert_float_equal(score_overall((double[]){ 20, 40, 80 }, 3), 40.0, 1e-9);
	/* a ratio of 1e-6 or less adds nothing but still counts: index 10 */
	assert_float_equal(score_overall((double[]){ 0.000001, 1000 }, 2), 100.0, 1e-9);
	assert_true(isnan(score_overall(NULL, 0)));
}

static void partial_index_from_test_table(void **state)
{
	/* A partial run: Dhrystone at 4 × its baseline and Pipe Throughput at
	 * 9 ×: indexes 40 and 90, partial score sqrt(40 * 90) = 60. */
	const struct ub_test_info *d = ub_index_test("dhry2reg"), *p = ub_index_test("pipe");
	assert_non_null(d);
	assert_non_null(p);
	double idx[] = { score_index(4 * d->baseline, d->baseline), score_index(9 * 12440.0, p->baseline) };
	assert_float_equal(score_overall(idx, 2), 60.0, 1e-9);
}

static void dispersion(void **state)
{
	struct dispersion d;
	score_dispersion((double[]){ 9, 2, 4, 4, 5, 4, 7, 5 }, 8, &d);
	assert_float_equal(d.mean, 5.0, EPS);
	assert_float_equal(d.median, 4.5, EPS);
	assert_float_equal(d.stddev, sqrt(32.0 / 7.0), EPS);
	assert_float_equal(d.cv_pct, 100.0 * sqrt(32.0 / 7.0) / 5.0, 1e-9);
	assert_float_equal(d.min, 2, EPS);
	assert_float_equal(d.max, 9, EPS);
	assert_true(d.has_stddev);

	score_dispersion((double[]){ 3 }, 1, &d);
	assert_float_equal(d.median, 3, EPS);
	assert_false(d.has_stddev);
	assert_true(isnan(d.stddev));
}

static void bootstrap_interval(void **state)
{
	/* One test, baseline 10 so index = rate, two passes with rates 100 and
	 * 400. Resamples are {100,100}, a mix (geometric mean 200) or
	 * {400,400} with probabilities 1/4, 1/2, 1/4: the 2.5 % and 97.5 %
	 * quantiles of 2000 resamples are exactly 100 and 400. */
	struct pass_value p[] = { { 100, 1, 1 }, { 400, 1, 1 } };
	struct score_input in = { p, 2, 10 };
	double lo, hi;
	assert_int_equal(score_bootstrap(&in, 1, 2000, SCORE_BOOTSTRAP_SEED, &lo, &hi), 0);
	assert_float_equal(lo, 100, EPS);
	assert_float_equal(hi, 400, EPS);

	/* identical passes: no spread at all */
	struct pass_value same[] = { { 500, 1, 1 }, { 500, 1, 1 }, { 500, 1, 1 } };
	struct score_input two[] = { { same, 3, 10 }, { p, 2, 10 } };
	assert_int_equal(score_bootstrap(two, 1, 500, 1, &lo, &hi), 0);
	assert_float_equal(lo, 500, EPS);
	assert_float_equal(hi, 500, EPS);

	/* two tests: every resample score lies between the extremes and the
	 * same seed gives the same interval */
	double lo2, hi2;
	assert_int_equal(score_bootstrap(two, 2, 1000, 7, &lo, &hi), 0);
	assert_int_equal(score_bootstrap(two, 2, 1000, 7, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	assert_true(lo >= sqrt(500.0 * 100) - EPS && hi <= sqrt(500.0 * 400) + EPS && lo < hi);

	struct score_input none = { p, 0, 10 };
	assert_int_equal(score_bootstrap(&none, 1, 10, 1, &lo, &hi), -EINVAL);
}

/* The bootstrap's counting order gives score_test()'s result to the last
 * bit: passes with tied counts (and 0 beside -0) but other times, so that
 * which of them are dropped and the order of the log sum both matter. */
static void resample_as_score_test(void **state)
{
	struct pass_value p[40];
	uint64_t x = 12345;
	for (size_t i = 0; i < 40; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* 7 distinct counts, one of them zero */
		p[i] = (struct pass_value){ (double)((x >> 33) % 7) * 1000.5, 1.0 + (double)((x >> 20) % 97) / 10, 1 };
	}
	p[3].count = -0.0;
	for (size_t n = 1; n <= 40; n += 3) {
		struct score_resampler rs;
		assert_int_equal(score_resampler_init(&rs, p, n), 0);
		for (int r = 0; r < 200; r++) {
			size_t pick[40];
			struct pass_value draw[40];
			for (size_t k = 0; k < n; k++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				pick[k] = (size_t)(x >> 33) % n;
				draw[k] = p[pick[k]];
			}
			struct test_score ts;
			assert_int_equal(score_test(draw, n, NULL, &ts), 0);
			double got = score_resample(&rs, pick);
			assert_memory_equal(&got, &ts.result, sizeof(got));
		}
		score_resampler_free(&rs);
	}
	struct score_resampler rs;
	assert_int_equal(score_resampler_init(&rs, p, 0), -EINVAL);
	p[1].count = NAN;
	assert_int_equal(score_resampler_init(&rs, p, 4), -EINVAL);
	score_resampler_free(&rs);
}

static void quantiles(void **state)
{
	double s[] = { 1, 2, 3, 4 };
	assert_float_equal(score_quantile(s, 4, 0.5), 2.5, EPS);
	assert_float_equal(score_quantile(s, 4, 0), 1, EPS);
	assert_float_equal(score_quantile(s, 4, 1), 4, EPS);
	assert_float_equal(score_quantile(s, 4, 0.25), 1.75, EPS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rates),
		cmocka_unit_test(drop_worst_third_by_count),
		cmocka_unit_test(zero_count_counts_as_one),
		cmocka_unit_test(indexes),
		cmocka_unit_test(partial_index_from_test_table),
		cmocka_unit_test(dispersion),
		cmocka_unit_test(bootstrap_interval),
		cmocka_unit_test(resample_as_score_test),
		cmocka_unit_test(quantiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
