/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one stability verdict (lib/result-stability.h) from every signal, and
 * the places that take it from there: the record's "verdict" and the
 * listing's flags. */
#include <errno.h>

#include "lib/result-stability.h"
#include "lib/result-summary.h"
#include "testlib.h"

/* A result of one run at `copies` whose tests are given as JSON (each
 * with its passes' rates); extra top-level keys after it. */
static json_object *record(const char *tests, const char *extra)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"r\", \"started_at\": \"t\", \"suite\": {\"name\": \"native\"}, "
		"\"runs\": [{\"copies\": 1, \"tests\": [%s]}]%s%s}",
		tests, extra ? ", " : "", extra ? extra : "");
	return json_lit(text);
}

#define STEADY "{\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2\", \"passes\": [{\"rate\": 100}, {\"rate\": 101}, " \
	       "{\"rate\": 100.5}], \"dispersion\": {\"cv_pct\": 0.5}}"
#define ONE_PASS "{\"id\": \"pipe\", \"name\": \"Pipe Throughput\", \"passes\": [{\"rate\": 100}]}"
/* the case: a pass each, other processes at 62 % of a CPU, no event */
#define BUSY_ONE_PASS                                                                                      \
	"{\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2\", \"passes\": [{\"rate\": 100}], \"background\": " \
	"{\"samples\": 1, \"others_pct\": 62, \"untrusted\": [\"others\"]}}"

static enum verdict_state judge(json_object *rec, struct result_verdict *v)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(result_decode(rec, &r, &error), 0);
	result_verdict(&r, v);
	result_record_free(&r);
	return v->state;
}

static bool has_flag(json_object *rec, const char *flag)
{
	_cleanup_json_ json_object *s = result_summary(rec);
	for (size_t i = 0; i < jpath_len(s, "flags"); i++)
		if (streq(json_object_get_string(json_object_array_get_idx(jpath(s, "flags"), i)), flag))
			return true;
	return false;
}

static void steady_is_stable(void **state)
{
	(void)state;
	_cleanup_json_ json_object *rec = record(STEADY, NULL);
	struct result_verdict v;
	assert_int_equal(judge(rec, &v), VERDICT_STABLE);
	assert_int_equal(v.reasons.n, 0);
	result_verdict_free(&v);
	assert_false(has_flag(rec, "unstable") || has_flag(rec, "unjudged"));
}

/* Per-test trust counts though the sampler saw no event and the test ran
 * one pass: the rows' UNTRUSTWORTHY and the verdict agree. */
static void background_without_event(void **state)
{
	(void)state;
	_cleanup_json_ json_object *rec = record(BUSY_ONE_PASS, NULL);
	struct result_verdict v;
	assert_int_equal(judge(rec, &v), VERDICT_UNTRUSTED);
	assert_int_equal(v.reasons.n, 1);
	assert_string_equal(v.reasons.v[0], "Dhrystone 2, 1 copy: other processes used 62.0 % of a CPU");
	assert_int_equal(v.tests_untrusted, 1);
	result_verdict_free(&v);
	assert_true(has_flag(rec, "unstable"));
}

static void one_pass_not_judged(void **state)
{
	(void)state;
	_cleanup_json_ json_object *rec = record(ONE_PASS, NULL);
	struct result_verdict v;
	assert_int_equal(judge(rec, &v), VERDICT_NOT_JUDGED);
	assert_string_equal(v.reasons.v[0], "one pass per test: how much the passes vary is not known");
	result_verdict_free(&v);
	assert_true(has_flag(rec, "unjudged"));

	_cleanup_json_ json_object *mixed = record(STEADY ", " ONE_PASS, NULL);
	assert_int_equal(judge(mixed, &v), VERDICT_NOT_JUDGED);
	assert_string_equal(v.reasons.v[0], "1 of 2 tests ran one pass (Pipe Throughput, 1 copy): how much their "
					    "passes vary is not known");
	result_verdict_free(&v);

	/* a report without per-pass values: nothing to judge by */
	_cleanup_json_ json_object *imported =
		record("{\"id\": \"pipe\", \"name\": \"Pipe Throughput\", \"samples\": 7}", "\"imported\": true");
	assert_int_equal(judge(imported, &v), VERDICT_NOT_JUDGED);
	assert_non_null(strstr(v.reasons.v[0], "holds no per-pass values"));
	result_verdict_free(&v);
}

static void spread_and_groups(void **state)
{
	(void)state;
	struct result_verdict v;
	_cleanup_json_ json_object *noisy = record("{\"id\": \"pipe\", \"name\": \"Pipe Throughput\", \"passes\": "
						   "[{\"rate\": 80}, {\"rate\": 100}, {\"rate\": 120}], "
						   "\"dispersion\": {\"cv_pct\": 20}}",
						   NULL);
	assert_int_equal(judge(noisy, &v), VERDICT_UNTRUSTED);
	assert_string_equal(v.reasons.v[0], "Pipe Throughput, 1 copy: CV 20.0 % (above 5 %)");
	result_verdict_free(&v);
	_cleanup_json_ json_object *bimodal = record("{\"id\": \"context1\", \"name\": \"Context\", \"passes\": "
						     "[{\"rate\": 37}, {\"rate\": 45}, {\"rate\": 37}, {\"rate\": 45}], "
						     "\"dispersion\": {\"cv_pct\": 1}}",
						     NULL);
	assert_int_equal(judge(bimodal, &v), VERDICT_UNTRUSTED);
	assert_string_equal(v.reasons.v[0], "Context, 1 copy: bimodal, its passes fall into two groups 22 % apart");
	result_verdict_free(&v);
}

/* Events, a busy start and the probe's critical findings before and
 * after outweigh steady passes; an event marks the test it hit. */
static void run_signals(void **state)
{
	(void)state;
	struct result_verdict v;
	_cleanup_json_ json_object *events =
		record(STEADY, "\"events\": [{\"kind\": \"others\", \"test\": \"dhry2reg\", \"copies\": 1}, "
			       "{\"kind\": \"swap\", \"test\": null}]");
	assert_int_equal(judge(events, &v), VERDICT_UNTRUSTED);
	assert_int_equal(v.reasons.n, 1);
	assert_string_equal(v.reasons.v[0], "2 events during the run (others, swap)");
	result_verdict_free(&v);
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	struct strv why = {0};
	assert_int_equal(result_decode(events, &r, &error), 0);
	assert_int_equal(result_test_verdict(&r, &r.runs.v[0], &r.runs.v[0].tests.v[0], &why), VERDICT_UNTRUSTED);
	assert_string_equal(why.v[0], "1 event during it");
	strv_free(&why);
	result_record_free(&r);

	_cleanup_json_ json_object *busy =
		record(STEADY, "\"preflight\": {\"busy\": true, \"runnable\": 1.5, \"cpu_pct\": 62}");
	assert_int_equal(judge(busy, &v), VERDICT_UNTRUSTED);
	assert_string_equal(v.reasons.v[0], "the machine was busy as the run started (1.5 processes runnable besides "
					    "ubtune, 62 % of CPU time in use)");
	result_verdict_free(&v);

	_cleanup_json_ json_object *found = record(
		STEADY, "\"environment\": {\"before\": {\"findings\": [{\"id\": \"load.busy\", \"severity\": \"crit\"}, "
			"{\"id\": \"storage.scheduler\", \"severity\": \"warn\"}]}, \"after\": {\"findings\": [{\"id\": "
			"\"load.busy\", \"severity\": \"crit\"}, {\"id\": \"power.undervoltage\", \"severity\": \"crit\"}]}}");
	assert_int_equal(judge(found, &v), VERDICT_UNTRUSTED);
	assert_int_equal(v.reasons.n, 2);
	assert_string_equal(v.reasons.v[0], "the probe before and after the run found load.busy (critical)");
	assert_string_equal(v.reasons.v[1], "the probe after the run found power.undervoltage (critical)");
	result_verdict_free(&v);
}

/* The record carries the same verdict, overall and per test. */
static void written_into_the_record(void **state)
{
	(void)state;
	_cleanup_json_ json_object *rec = record(BUSY_ONE_PASS ", " STEADY ", " ONE_PASS, "\"verdict\": \"stale\"");
	assert_int_equal(result_verdict_set(rec), 0);
	assert_jstr(rec, "verdict.state", "untrusted");
	assert_int_equal(jpath_len(rec, "verdict.reasons"), 1);
	assert_jstr(rec, "runs.0.tests.0.verdict.state", "untrusted");
	assert_jstr(rec, "runs.0.tests.0.verdict.reasons.0", "other processes used 62.0 % of a CPU");
	assert_jstr(rec, "runs.0.tests.1.verdict.state", "stable");
	assert_int_equal(jpath_len(rec, "runs.0.tests.1.verdict.reasons"), 0);
	assert_jstr(rec, "runs.0.tests.2.verdict.state", "not judged");
	_cleanup_json_ json_object *bad = json_lit("{\"runs\": 3}");
	assert_int_equal(result_verdict_set(bad), -EBADMSG);
	assert_null(jpath(bad, "verdict"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady_is_stable),
		cmocka_unit_test(background_without_event),
		cmocka_unit_test(one_pass_not_judged),
		cmocka_unit_test(spread_and_groups),
		cmocka_unit_test(run_signals),
		cmocka_unit_test(written_into_the_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
