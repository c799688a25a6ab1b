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
		" \"result\": 2000, \"index\": 363.6}]}]}",
		host, run);
	return json_lit(text);
}

static void openmetrics(void **state)
{
	json_object *recs[3] = { result("x", "r1"), result("d", "r2"), result("d", "r3") };
	jset_str(recs[0], "host", "a\\b\"c");
	struct buf b = {0};
	_cleanup_free_ char *error = NULL;
	assert_int_equal(export_openmetrics(recs, 2, &b, &error), 0);
	assert_string_equal(b.s, "# TYPE ubtune_score gauge\n"
				 "# HELP ubtune_score UnixBench System Benchmarks Index Score: the geometric mean of the "
				 "test indexes\n"
				 "ubtune_score{host=\"a\\\\b\\\"c\",copies=\"2\"} 512.5\n"
				 "ubtune_score{host=\"d\",copies=\"2\"} 512.5\n"
				 "# TYPE ubtune_index_whetstone_double gauge\n"
				 "# HELP ubtune_index_whetstone_double UnixBench index of Double-Precision Whetstone (10 x "
				 "result / baseline)\n"
				 "ubtune_index_whetstone_double{host=\"a\\\\b\\\"c\",copies=\"2\"} 363.6\n"
				 "ubtune_index_whetstone_double{host=\"d\",copies=\"2\"} 363.6\n"
				 "# TYPE ubtune_start_time_seconds gauge\n"
				 "# UNIT ubtune_start_time_seconds seconds\n"
				 "# HELP ubtune_start_time_seconds When the run of this copy count started\n"
				 "ubtune_start_time_seconds{host=\"a\\\\b\\\"c\",copies=\"2\"} 1767265200\n"
				 "ubtune_start_time_seconds{host=\"d\",copies=\"2\"} 1767265200\n"
				 "# EOF\n");
	buf_free(&b);
	assert_int_equal(export_openmetrics(recs + 1, 2, &b, &error), -EINVAL);
	assert_non_null(strstr(error, "r2 and r3 are both of host 'd' at 2 copies"));
	buf_free(&b);
	for (int i = 0; i < 3; i++)
		json_object_put(recs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(start_times),
		cmocka_unit_test(openmetrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
