/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fleet view: the outlier rule, which results it starts from, the
 * ranking of the facts that set a host apart, and the record. */
#include <math.h>

#include "analysis/fleet.h"
#include "testlib.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int outliers_of(const double *v, size_t n, int *dir)
{
	struct fleet_stats s;
	fleet_stats(v, n, &s);
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		dir[i] = fleet_outlier(&s, v[i]);
		count += dir[i] != 0;
	}
	return count;
}

/* Median and MAD: one slow host among steady ones stands out, and does not
 * widen the range the others are judged by (as it would a standard
 * deviation). */
static void rule_one_slow_host(void **state)
{
	const double v[] = { 100, 101, 99, 100.5, 60, 99.5 };
	struct fleet_stats s;
	fleet_stats(v, N(v), &s);
	assert_true(s.judged);
	assert_float_equal(s.median, 99.75, 1e-9);
	assert_float_equal(s.mad, 0.75, 1e-9);
	/* on the scale of ratios: the median of |log(v / 99.75)| is that of
	 * 100.5 and 99 (0.75 off, a ratio of 1.0075) */
	assert_float_equal(s.sigma, 1.4826 * (log(100.5 / 99.75) + log(99.75 / 99)) / 2, 1e-9);
	/* 3 sigma is 3.3 %: the 5 % floor decides the range */
	assert_float_equal(s.low, 99.75 / 1.05, 1e-9);
	assert_float_equal(s.high, 99.75 * 1.05, 1e-9);
	int dir[N(v)];
	assert_int_equal(outliers_of(v, N(v), dir), 1);
	assert_int_equal(dir[4], -1);

	/* a mean and standard deviation rule misses it: 60 is within 2.1 sd */
	double mean = 0, sd = 0;
	for (size_t i = 0; i < N(v); i++)
		mean += v[i] / N(v);
	for (size_t i = 0; i < N(v); i++)
		sd += (v[i] - mean) * (v[i] - mean) / (N(v) - 1);
	assert_true(fabs(60 - mean) / sqrt(sd) < 3);
}

/* Two bad hosts of ten are both caught (no masking), high ones too. */
static void rule_several_and_high(void **state)
{
	const double v[] = { 200, 202, 198, 201, 199, 200, 20, 25, 203, 320 };
	int dir[N(v)];
	assert_int_equal(outliers_of(v, N(v), dir), 3);
	assert_int_equal(dir[6], -1);
	assert_int_equal(dir[7], -1);
	assert_int_equal(dir[9], 1);
}

/* Noise of a few per cent is never an outlier, even in a fleet so steady
 * that its MAD is 0; a wide fleet has no outlier at all; fewer than three
 * hosts are not judged; missing values do not count. */
static void rule_floor_and_limits(void **state)
{
	int dir[8];
	const double same[] = { 100, 100, 100, 100, 96, 104 };
	assert_int_equal(outliers_of(same, N(same), dir), 0);
	const double off[] = { 100, 100, 100, 100, 94 };
	assert_int_equal(outliers_of(off, N(off), dir), 1);
	assert_int_equal(dir[4], -1);

	const double wide[] = { 50, 100, 150, 200, 250 };
	assert_int_equal(outliers_of(wide, N(wide), dir), 0);

	/* a fleet that varies by a factor (a loaded machine) still shows the
	 * host a hundred times slower, which the spread of the values hides */
	const double factor[] = { 1.4, 84.6, 192.2, 284.0 };
	assert_int_equal(outliers_of(factor, N(factor), dir), 1);
	assert_int_equal(dir[0], -1);
	/* a host that scored nothing is below any range */
	const double zero[] = { 100, 102, 0, 98 };
	assert_int_equal(outliers_of(zero, N(zero), dir), 1);
	assert_int_equal(dir[2], -1);

	const double two[] = { 100, 10 };
	struct fleet_stats s;
	fleet_stats(two, N(two), &s);
	assert_false(s.judged);
	assert_int_equal(outliers_of(two, N(two), dir), 0);

	const double gaps[] = { NAN, 100, 101, NAN, 50, 99 };
	fleet_stats(gaps, N(gaps), &s);
	assert_int_equal(s.n, 4);
	assert_int_equal(outliers_of(gaps, N(gaps), dir), 1);
	assert_int_equal(dir[4], -1);
	assert_int_equal(dir[0], 0);
	assert_true(isnan(fleet_median(gaps, 1)));
}

/* The latest stored result of each host, and of each host at each copy count. */
static void latest_results(void **state)
{
	_cleanup_json_ json_object *list = json_lit(
		"[{\"id\": 1, \"host\": \"a\", \"copies\": [1, 4]}, {\"id\": 2, \"host\": \"b\", \"copies\": [1]},"
		" {\"id\": 3, \"host\": \"a\", \"copies\": [1]}, {\"id\": 4, \"copies\": [2]},"
		" {\"id\": 5, \"host\": \"b\", \"copies\": [8]}]");
	int64_t *ids;
	size_t n;
	fleet_latest(list, false, &ids, &n);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 4);
	assert_int_equal(ids[2], 5);
	free(ids);
	fleet_latest(list, true, &ids, &n);
	/* a at 1: 3, a at 4: 1, b at 1: 2, b at 8: 5, no host at 2: 4 */
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids[i], (int64_t)i + 1);
	free(ids);
}

/* A result of a host whose environment has these facts. */
static json_object *host(const char *name, const char *fstype, const char *kind, const char *governor,
			 const char *kernel, double fstime)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"%s\", \"host\": \"%s\", \"suite\": {\"name\": \"native\"},"
		" \"started_at\": \"2026-01-01T12:00:00+0100\", \"online_cpus\": 4,"
		" \"environment\": {\"before\": {\"host\": {\"kernel_release\": \"%s\"},"
		"  \"cpu\": {\"model\": \"Cortex-A72\", \"freq\": {\"governor\": \"%s\"}},"
		"  \"storage\": {\"mount\": {\"fstype\": \"%s\"}, \"device\": {\"kind\": \"%s\"}}}},"
		" \"runs\": [{\"copies\": 1, \"index\": {\"score\": 100}, \"tests\": ["
		"  {\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2 using register variables\", \"index\": 1500},"
		"  {\"id\": \"fstime\", \"name\": \"File Copy 1024 bufsize 2000 maxblocks\", \"index\": %g}]}]}",
		name, name, kernel, governor, fstype, kind, fstime);
	return json_lit(text);
}

/* fleet_differences() of records as the store gives them. */
static json_object *differences(json_object *rec, json_object *const *peers, size_t npeers, int t)
{
	_cleanup_free_ char *error = NULL;
	struct result_env own, *decoded = xcalloc(npeers, sizeof(*decoded));
	const struct result_env **p = xcalloc(npeers, sizeof(*p));
	if (result_env_decode(rec, &own, &error) < 0)
		fail_msg("%s", error);
	for (size_t i = 0; i < npeers; i++) {
		if (result_env_decode(peers[i], &decoded[i], &error) < 0)
			fail_msg("%s", error);
		p[i] = &decoded[i];
	}
	json_object *d = fleet_differences(&own, p, npeers, t);
	for (size_t i = 0; i < npeers; i++)
		result_env_free(&decoded[i]);
	result_env_free(&own);
	free(decoded);
	free(p);
	return d;
}

static json_object *difference(json_object *diffs, size_t i)
{
	assert_true(i < jarr_len(diffs));
	return json_object_array_get_idx(diffs, i);
}

/* The facts that set a host apart: what its peers share and it does not,
 * the facts that move the test first, the most specific of those first. */
static void fact_ranking(void **state)
{
	json_object *peers[4] = {
		host("p1", "tmpfs", "tmpfs", "performance", "6.1.0-18", 450),
		host("p2", "tmpfs", "tmpfs", "performance", "6.1.0-18", 452),
		host("p3", "tmpfs", "tmpfs", "performance", "6.1.0-9", 449),
		host("p4", "tmpfs", "tmpfs", "performance", "6.1.0-18", 451),
	};
	_cleanup_json_ json_object *slow = host("b7", "ext4", "hdd", "powersave", "6.1.0-18", 90);

	/* File Copy: the workdir and the governor separate fully; the workdir
	 * moves fewer tests, so it comes first; the kernel is shared */
	_cleanup_json_ json_object *fc = differences(slow, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(fc), 2);
	json_object *d = difference(fc, 0);
	assert_jstr(d, "fact", "workdir medium");
	assert_jstr(d, "value", "ext4 on a rotating disk");
	assert_jstr(d, "own", "its workdir is on ext4 on a rotating disk");
	assert_jstr(d, "theirs", "theirs on tmpfs");
	assert_true(json_object_get_boolean(jpath(d, "relevant")));
	assert_jstr(difference(fc, 1), "fact", "governor");

	/* Dhrystone: the workdir does not move it, so it goes last */
	_cleanup_json_ json_object *dhry = differences(slow, peers, 4, DT_DHRY);
	assert_jstr(difference(dhry, 0), "fact", "governor");
	assert_jstr(difference(dhry, 0), "theirs", "theirs performance");
	assert_jstr(difference(dhry, 1), "fact", "workdir medium");
	assert_false(json_object_get_boolean(jpath(difference(dhry, 1), "relevant")));

	/* peers that disagree: the common value is named with its count; a
	 * value half the peers share does not set the host apart */
	_cleanup_json_ json_object *odd = host("k9", "tmpfs", "tmpfs", "performance", "6.1.0-9", 300);
	_cleanup_json_ json_object *k = differences(odd, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(k), 1);
	assert_jstr(difference(k, 0), "fact", "kernel");
	assert_jstr(difference(k, 0), "own", "it runs kernel 6.1.0-9");
	assert_jstr(difference(k, 0), "theirs", "they run 6.1.0-18 (3 of 4)");
	json_object *p2[2] = { peers[0], peers[2] };
	json_object_put(k);
	k = differences(odd, p2, 2, DT_FC1K);
	assert_int_equal(jarr_len(k), 0);

	/* a separation of every peer beats a partial one of a more specific fact */
	json_object *mixed[4] = {
		host("m1", "ext4", "hdd", "powersave", "6.1.0-18", 450),
		host("m2", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
		host("m3", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
		host("m4", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
	};
	_cleanup_json_ json_object *perf = host("q1", "ext4", "ssd", "performance", "6.1.0-18", 300);
	_cleanup_json_ json_object *m = differences(perf, mixed, 4, DT_FC1K);
	assert_jstr(difference(m, 0), "fact", "governor");
	assert_jstr(difference(m, 1), "fact", "workdir medium");
	assert_jstr(difference(m, 1), "theirs", "theirs on tmpfs (3 of 4)");

	/* a fact the host's record does not have is not compared */
	_cleanup_json_ json_object *bare = json_lit("{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"host\": \"x\","
						   " \"started_at\": \"2026-01-01T12:00:00+0100\","
						   " \"suite\": {\"name\": \"native\"}, \"runs\": []}");
	_cleanup_json_ json_object *none = differences(bare, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(none), 0);
	for (int i = 0; i < 4; i++) {
		json_object_put(peers[i]);
		json_object_put(mixed[i]);
	}
}

/* The record: the slow host named in File Copy with its workdir as the
 * reason, nobody in Dhrystone. */
static void fleet_record(void **state)
{
	json_object *recs[5] = {
		host("p1", "tmpfs", "tmpfs", "performance", "6.1.0-18", 450),
		host("p2", "tmpfs", "tmpfs", "performance", "6.1.0-18", 455),
		host("b7", "ext4", "hdd", "performance", "6.1.0-18", 350),
		host("p3", "tmpfs", "tmpfs", "performance", "6.1.0-18", 448),
		host("p4", "tmpfs", "tmpfs", "performance", "6.1.0-18", 452),
	};
	struct fleet_input in[5];
	for (int i = 0; i < 5; i++)
		in[i] = (struct fleet_input){ recs[i], "test", i + 1 };
	_cleanup_json_ json_object *f = fleet_build(in, 5, NULL);
	assert_jstr(f, "schema", "ubtune.fleet/1");
	json_object *sec = json_object_array_get_idx(jpath(f, "sections"), 0);
	assert_int_equal(jint(sec, "copies"), 1);
	json_object *dhry = json_object_array_get_idx(jpath(sec, "tests"), 0);
	json_object *fc = json_object_array_get_idx(jpath(sec, "tests"), 1);
	assert_jstr(dhry, "id", "dhry2reg");
	assert_int_equal(jarr_len(jpath(dhry, "outliers")), 0);
	assert_jstr(fc, "basis", "index");
	assert_float_equal(json_object_get_double(jpath(fc, "stats.median")), 450, 1e-9);
	assert_int_equal(jarr_len(jpath(fc, "outliers")), 1);
	json_object *o = json_object_array_get_idx(jpath(fc, "outliers"), 0);
	assert_jstr(o, "host", "b7");
	assert_jstr(o, "direction", "low");
	assert_int_equal(jint(o, "peers"), 4);
	assert_jstr(o, "sentence", "host b7 scores 22 % below its 4 peers in File Copy 1024: its workdir is on ext4 on "
				  "a rotating disk, theirs on tmpfs");
	/* the score is over the same tests on every host: compared too */
	assert_int_equal(jarr_len(jpath(sec, "score.outliers")), 0);
	assert_int_equal(jarr_len(jpath(f, "outliers")), 1);
	for (int i = 0; i < 5; i++)
		json_object_put(recs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_one_slow_host),
		cmocka_unit_test(rule_several_and_high),
		cmocka_unit_test(rule_floor_and_limits),
		cmocka_unit_test(latest_results),
		cmocka_unit_test(fact_ranking),
		cmocka_unit_test(fleet_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
