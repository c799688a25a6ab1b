/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Exports: start times, OpenMetrics names and escapes, duplicate label sets. */
#include <errno.h>

#include "analysis/export.h"
#include "testlib.h"

static void start_times(void **state)
{
	time_t t;
	assert_int_equal(export_parse_time("2026-01-01T12:00:00+0100", &t), 0);
	assert_int_equal(t, 1767265200);
	assert_int_equal(export_parse_time("2026-01-01T12:00:00-05:30", &t), 0);
	assert_int_equal(t, 1767288600);
	assert_int_equal(export_parse_time("2026-01-01T11:00:00Z", &t), 0);
	assert_int_equal(t, 1767265200);
	/* an imported log's time has no offset: UTC */
	assert_int_equal(export_parse_time("2026-01-01T11:00:00", &t), 0);
	assert_int_equal(t, 1767265200);
	assert_int_equal(export_parse_time("2026-01-01 11:00", &t), -EINVAL);
	assert_int_equal(export_parse_time("2026-01-01T11:00:00+01x", &t), -EINVAL);
	assert_int_equal(export_parse_time(NULL, &t), -EINVAL);
}

static json_object *result(const char *host, const char *run)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"suite\": {\"name\": \"native\"},"
		" \"host\": \"%s\", \"run_id\": \"%s\", \"started_at\": \"2026-01-01T12:00:00+0100\", \"runs\": ["
		"{\"copies\": 2, \"index\": {\"score\": 512.5}, \"tests\": ["
		"{\"id\": \"whetstone-double\", \"name\": \"Double-Precision Whetstone\", \"unit\": \"MWIPS\","
		" \"result\": 2000, \"index\": 363.6, \"baseline\": 55, \"time_s\": 9.94, \"samples\": 7}]}]}",
		host, run);
	return json_lit(text);
}

static void digest(json_object *rec, struct fleet_digest *d)
{
	_cleanup_free_ char *error = NULL;
	if (fleet_digest_make(rec, d, &error) < 0)
		fail_msg("%s", error);
}

static void openmetrics(void **state)
{
	json_object *recs[3] = { result("x", "r1"), result("d", "r2"), result("d", "r3") };
	jset_str(recs[0], "host", "a\\b\"c");
	/* a run cut short, of a round: labelled so */
	jset_str(recs[1], "round", "2026-w02");
	jset_bool(jpath(recs[1], "runs.0.index"), "partial", true);
	jset_bool(recs[1], "quick", true);
	struct fleet_digest d[3];
	const struct fleet_digest *p[3];
	for (int i = 0; i < 3; i++) {
		digest(recs[i], &d[i]);
		p[i] = &d[i];
	}
	struct buf b = {0};
	_cleanup_free_ char *error = NULL;
	assert_int_equal(export_openmetrics(p, 2, &b, &error), 0);
#define X "{host=\"a\\\\b\\\"c\",machine_id=\"\",copies=\"2\",round=\"\",partial=\"false\",quick=\"false\"}"
#define D "{host=\"d\",machine_id=\"\",copies=\"2\",round=\"2026-w02\",partial=\"true\",quick=\"true\"}"
	assert_string_equal(b.s, "# TYPE ubtune_score gauge\n"
				 "# HELP ubtune_score UnixBench System Benchmarks Index Score: the geometric mean of the "
				 "test indexes\n"
				 "ubtune_score" X " 512.5\n"
				 "ubtune_score" D " 512.5\n"
				 "# TYPE ubtune_index_whetstone_double gauge\n"
				 "# HELP ubtune_index_whetstone_double UnixBench index of Double-Precision Whetstone (10 x "
				 "result / baseline)\n"
				 "ubtune_index_whetstone_double" X " 363.6\n"
				 "ubtune_index_whetstone_double" D " 363.6\n"
				 "# TYPE ubtune_start_time_seconds gauge\n"
				 "# UNIT ubtune_start_time_seconds seconds\n"
				 "# HELP ubtune_start_time_seconds When the run of this copy count started\n"
				 "ubtune_start_time_seconds" X " 1767265200\n"
				 "ubtune_start_time_seconds" D " 1767265200\n"
				 "# EOF\n");
#undef X
#undef D
	buf_free(&b);
	assert_int_equal(export_openmetrics(p + 1, 2, &b, &error), -EINVAL);
	assert_non_null(strstr(error, "r2 and r3 are both of host 'd' at 2 copies"));
	buf_free(&b);
	for (int i = 0; i < 3; i++) {
		json_object_put(recs[i]);
		fleet_digest_free(&d[i]);
	}
}

/* Numbers as Python's repr() writes them, as PerfKitBenchmarker's samples carry them. */
static void python_floats(void **state)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 181007, "181007.0" }, { 0.1, "0.1" }, { 1767265200, "1767265200.0" }, { 1e16, "1e+16" },
		{ 1.5e-5, "1.5e-05" }, { 0.0001, "0.0001" }, { 123456789012345678.0, "1.2345678901234568e+17" },
		{ -2.5, "-2.5" }, { 0, "0.0" }, { 363.6, "363.6" }, { 9999999999999998.0, "9999999999999998.0" },
		{ 0.00012, "0.00012" }, { 1.0 / 3, "0.3333333333333333" },
	};
	char b[40];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		export_python_float(cases[i].v, b, sizeof(b));
		assert_string_equal(b, cases[i].want);
	}
}

/* A sample line as PerfKitBenchmarker's publisher writes it: the keys in
 * its order, Python's separators, the labels sorted with Python's str(). */
static void samples(void **state)
{
	_cleanup_json_ json_object *rec = result("b7", "0123456789abcdef0123456789abcdef");
	struct fleet_digest d;
	digest(rec, &d);
	struct buf b = {0};
	struct export_pkb pkb = { .owner = "ci" };
	export_samples(&d, &pkb, &b);
	char *second = strchr(b.s, '\n') + 1, *third = strchr(second, '\n') + 1;
	*strchr(b.s, '\n') = '\0';
	assert_string_equal(b.s, "{\"metric\": \"Double-Precision Whetstone\", \"value\": 2000.0, \"unit\": \"MWIPS\", "
				 "\"timestamp\": 1767265200.0, \"test\": \"unixbench\", \"product_name\": \"ubtune\", "
				 "\"official\": false, \"owner\": \"ci\", \"run_uri\": "
				 "\"0123456789abcdef0123456789abcdef\", \"sample_uri\": "
				 "\"302909e9-dc81-8d6f-993d-68848913051c\", \"labels\": \"|hostname:b7|,|imported:False|,"
				 "|incomplete:False|,|num_parallel_copies:2|,|profile:none|,|quick:False|,|run_id:"
				 "0123456789abcdef0123456789abcdef|,|samples:7|,|suite:native|,|time:9.9s|\"}");
	assert_non_null(strstr(second, "{\"metric\": \"Double-Precision Whetstone:score\", \"value\": 2000.0, \"unit\": \"\""));
	assert_non_null(strstr(second, "\"labels\": \"|baseline:55.0|,|hostname:b7|,|imported:False|,|incomplete:False|,"
				       "|index:363.6|,|num_parallel_copies:2|,"));
	assert_non_null(strstr(third, "{\"metric\": \"System Benchmarks Index Score\", \"value\": 512.5, \"unit\": \"\""));
	buf_free(&b);
	fleet_digest_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(start_times),
		cmocka_unit_test(openmetrics),
		cmocka_unit_test(python_floats),
		cmocka_unit_test(samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
