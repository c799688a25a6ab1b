/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result record's schema: stored records decode, the tables name what
 * the reports read, and result_check() refuses what the store cannot keep. */
#include <errno.h>

#include "lib/env-record.h"
#include "lib/result-record.h"
#include "lib/result-summary.h"
#include "testlib.h"

static json_object *load(const char *name)
{
	_cleanup_free_ char *file = xasprintf("%s/tests/fixtures/results/%s", SRCDIR, name);
	json_object *rec = NULL;
	assert_int_equal(jload_file(file, RESULT_FILE_MAX, &rec), 0);
	return rec;
}

/* Every stored fixture decodes and its structs say what its JSON says. */
static void stored_records(void **state)
{
	static const char *const names[] = { "bench-programs-quick.json", "bench-run-engine.json",
					     "rpi4-undervoltage.json", "rk3568-board-knobs.json", "laptop-knobs.json" };
	for (size_t f = 0; f < ARRAY_SIZE(names); f++) {
		_cleanup_json_ json_object *rec = load(names[f]);
		_cleanup_free_ char *error = NULL;
		assert_int_equal(result_check(rec, &error), 0);
		struct result_record r;
		if (result_decode(rec, &r, &error) < 0)
			fail_msg("%s: %s", names[f], error);
		assert_string_equal(r.schema, RESULT_SCHEMA);
		assert_string_equal(r.run_id, jpath_str(rec, "run_id"));
		assert_string_equal(r.suite.name, jpath_str(rec, "suite.name"));
		assert_int_equal(r.runs.n, jpath_len(rec, "runs"));
		assert_true(r.runs.n > 0);
		for (size_t i = 0; i < r.runs.n; i++) {
			json_object *run = json_object_array_get_idx(jpath(rec, "runs"), i);
			assert_int_equal(r.runs.v[i].copies.v, jint(run, "copies"));
			assert_int_equal(r.runs.v[i].tests.n, jpath_len(run, "tests"));
			double score;
			assert_int_equal(r.runs.v[i].index.score.known, jpath_double(run, "index.score", &score));
			for (size_t k = 0; k < r.runs.v[i].tests.n; k++) {
				const struct result_test *t = &r.runs.v[i].tests.v[k];
				json_object *jt = json_object_array_get_idx(jpath(run, "tests"), k);
				assert_string_equal(t->id, jpath_str(jt, "id"));
				assert_int_equal(t->passes.n, jpath_len(jt, "passes"));
				/* numbers keep their JSON, so they print as they were stored */
				if (t->result.known)
					assert_string_equal(json_object_to_json_string(t->result.json),
							    json_object_to_json_string(jpath(jt, "result")));
			}
		}
		/* the environment inside is a probe record of its own */
		struct env_record env;
		assert_ptr_equal(r.environment.before, jpath(rec, "environment.before"));
		if (env_decode(r.environment.before, "environment.before", &env, &error) < 0)
			fail_msg("%s: %s", names[f], error);
		assert_true(streq_ptr(env.host.hostname, jpath_str(rec, "environment.before.host.hostname")));
		env_record_free(&env);
		result_record_free(&r);
		assert_null(r.runs.v);
	}
}

static void check_fails(const char *text, const char *message)
{
	_cleanup_json_ json_object *rec = json_lit(text);
	_cleanup_free_ char *error = NULL;
	assert_int_equal(result_check(rec, &error), -EBADMSG);
	assert_string_equal(error, message);
}

#define HEAD "{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"started_at\": \"t\", \"suite\": {\"name\": \"n\"}, "

static void check(void **state)
{
	check_fails("{\"schema\": \"ubtune.probe/1\", \"host\": {}}", "schema is 'ubtune.probe/1', expected 'ubtune.result/1'");
	check_fails("{\"run_id\": \"x\"}", "schema is '(none)', expected 'ubtune.result/1'");
	check_fails("{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"suite\": {\"name\": \"n\"}, \"runs\": []}",
		    "started_at is missing");
	check_fails(HEAD "\"runs\": {}}", "runs is an object, expected a list");
	check_fails(HEAD "\"runs\": [{\"copies\": 2, \"tests\": []}, {\"copies\": 2000000, \"tests\": []}]}",
		    "runs[1].copies is 2000000, expected 1 to 1048576");
	check_fails(HEAD "\"runs\": [{\"copies\": 1}]}", "runs[0].tests is missing");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"result\": 1}]}]}", "runs[0].tests[0].id is missing");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [], \"index\": {\"score\": \"high\"}}]}",
		    "runs[0].index.score is a string, expected a number");
	_cleanup_free_ char *long_id = xasprintf("{\"schema\": \"ubtune.result/1\", \"run_id\": \"%065d\", "
						 "\"started_at\": \"t\", \"suite\": {\"name\": \"n\"}, \"runs\": []}", 0);
	check_fails(long_id, "run_id is longer than 64 characters");
	/* numbers no UnixBench run gives (json-c reads NaN and Infinity) */
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [], \"index\": {\"score\": 1e308}}]}",
		    "runs[0].index.score is 1e+308, expected 0 to 1e+15");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"result\": -3}]}]}",
		    "runs[0].tests[0].result is -3, expected 0 to 1e+15");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"baseline\": 0}]}]}",
		    "runs[0].tests[0].baseline is 0, expected more than 0 and up to 1e+15");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"index\": NaN}]}]}",
		    "runs[0].tests[0].index is NaN, expected a finite number");
	check_fails(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"index\": -Infinity}]}]}",
		    "runs[0].tests[0].index is -Infinity, expected a finite number");
	/* a round names a round in a file name, a label, a command line as it is */
	check_fails(HEAD "\"round\": \"week 2\", \"runs\": []}",
		    "round 'week 2' is not a round id (1 to 64 letters, digits and . _ : + -)");
	check_fails(HEAD "\"round\": \"\", \"runs\": []}",
		    "round '' is not a round id (1 to 64 letters, digits and . _ : + -)");

	/* unknown values are fine */
	_cleanup_json_ json_object *ok = json_lit(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", "
						  "\"result\": null, \"index\": null}], \"index\": {\"score\": null}}], "
						  "\"build\": null, \"profile\": null, \"round\": \"2026-01-07T10:00Z\"}");
	_cleanup_free_ char *error = NULL;
	assert_int_equal(result_check(ok, &error), 0);
}

/* What the sampler, the clock and the kernel log add to a record. */
static void sampled_parts(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		HEAD "\"engine\": {\"kind\": \"programs\", \"prebuilt\": true}, "
		"\"preflight\": {\"seconds\": 1.04, \"runnable\": 3.6, \"cpu_pct\": 99.0, \"busy\": true}, "
		"\"runs\": [{\"copies\": 4, \"index\": {\"score\": 812.5, \"score_source\": \"report\"}, "
		"\"tests\": [{\"id\": \"dhry2reg\", \"clock\": {\"before\": [], \"after\": [{\"model\": "
		"\"Cortex-A76\", \"cpu\": 4, \"measured_khz\": 1800000, \"cur_khz\": null}, {\"model\": "
		"\"Cortex-A55\", \"cpu\": 0, \"measured_khz\": null, \"error\": \"busy\"}]}, "
		"\"background\": {\"samples\": 10, \"sys_pct\": 12.5, \"others_pct\": 30, \"busiest\": \"make\", "
		"\"untrusted\": [\"others\", \"sys\"]}}, {\"id\": \"pipe\"}]}], "
		"\"sampler\": {\"count\": 19, \"sources\": {\"hwmon_alarms\": 2}, \"max_temp_mc\": 71000}, "
		"\"samples\": [{\"t\": 1.0, \"test\": \"dhry2reg\", \"copies\": 4, \"mhz\": [1800, null]}, "
		"{\"t\": 2.0, \"test\": null}], "
		"\"kernel_log\": {\"source\": \"/dev/kmsg\", \"marker\": null, \"read\": true, \"error\": null}}");
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	if (result_decode(rec, &r, &error) < 0)
		fail_msg("%s", error);
	assert_true(is_true(r.engine.prebuilt));
	assert_true(is_true(r.preflight.busy));
	assert_true(r.preflight.cpu_pct.v == 99.0);
	assert_string_equal(r.runs.v[0].index.score_source, "report");
	const struct result_test *dhry = &r.runs.v[0].tests.v[0], *pipe = &r.runs.v[0].tests.v[1];
	assert_non_null(dhry->clock.before.json);
	assert_int_equal(dhry->clock.before.n, 0);
	assert_int_equal(dhry->clock.after.n, 2);
	assert_string_equal(dhry->clock.after.v[0].model, "Cortex-A76");
	assert_int_equal(int_or(dhry->clock.after.v[0].measured_khz, 0), 1800000);
	assert_false(dhry->clock.after.v[0].cur_khz.known);
	assert_false(dhry->clock.after.v[1].measured_khz.known);
	assert_string_equal(dhry->clock.after.v[1].error, "busy");
	assert_non_null(dhry->background.json);
	assert_int_equal(int_or(dhry->background.samples, 0), 10);
	assert_true(num_or(dhry->background.sys_pct, 0) == 12.5);
	assert_false(dhry->background.iowait_pct.known);
	assert_string_equal(dhry->background.busiest, "make");
	assert_int_equal(dhry->background.untrusted.n, 2);
	assert_string_equal(dhry->background.untrusted.v[1], "sys");
	/* a test without them: not measured, not "0 tests" */
	assert_null(pipe->clock.after.json);
	assert_null(pipe->background.json);
	assert_non_null(r.sampler.json);
	assert_int_equal(int_or(r.sampler.sources.hwmon_alarms, 0), 2);
	assert_int_equal(int_or(r.sampler.max_temp_mc, 0), 71000);
	assert_int_equal(r.samples.n, 2);
	assert_string_equal(r.samples.v[0].test, "dhry2reg");
	assert_int_equal(r.samples.v[0].mhz.n, 2);
	assert_true(r.samples.v[0].mhz.v[0].v == 1800);
	assert_false(r.samples.v[0].mhz.v[1].known);
	assert_null(r.samples.v[1].test);
	assert_null(r.samples.v[1].mhz.json);
	assert_true(is_true(r.kernel_log.read));
	assert_string_equal(r.kernel_log.source, "/dev/kmsg");
	assert_null(r.kernel_log.error);
	result_record_free(&r);

	/* a record without a sampler says so */
	_cleanup_json_ json_object *bare = json_lit(HEAD "\"runs\": []}");
	assert_int_equal(result_decode(bare, &r, &error), 0);
	assert_null(r.sampler.json);
	assert_null(r.preflight.json);
	assert_null(r.samples.json);
	assert_false(r.kernel_log.read.known);
	result_record_free(&r);
}

/* The listing summary: suite, copies, scores (null when unknown) and flags. */
/* What a run held, from its options (bench/hold.h). */
static void held_options(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		HEAD "\"options\": {\"tests\": [\"spawn\"], \"copies\": [1, 8], "
		"\"dma_latency\": {\"requested_us\": 0, \"device\": \"/dev/cpu_dma_latency\", \"held\": false, "
		"\"error\": \"Permission denied\"}, \"pin_single\": {\"requested\": \"fastest\", \"cpus\": \"4-7\", "
		"\"kind\": \"Cortex-A76\", \"note\": null}, \"nproc\": {\"soft\": 50, \"hard\": null, \"needed\": "
		"264, \"raised_to\": \"unlimited\"}}, \"runs\": []}");
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	if (result_decode(rec, &r, &error) < 0)
		fail_msg("%s", error);
	assert_non_null(r.options.dma_latency.json);
	assert_int_equal(int_or(r.options.dma_latency.requested_us, -1), 0);
	assert_true(is_false(r.options.dma_latency.held));
	assert_string_equal(r.options.dma_latency.error, "Permission denied");
	assert_string_equal(r.options.pin_single.kind, "Cortex-A76");
	assert_null(r.options.pin_single.note);
	assert_int_equal(int_or(r.options.nproc.soft, 0), 50);
	assert_false(r.options.nproc.hard.known);
	assert_string_equal(json_object_get_string(r.options.nproc.raised_to), "unlimited");
	result_record_free(&r);

	/* nothing held: nothing known */
	_cleanup_json_ json_object *bare = json_lit(HEAD "\"options\": {\"tests\": [\"spawn\"]}, \"runs\": []}");
	assert_int_equal(result_decode(bare, &r, &error), 0);
	assert_null(r.options.dma_latency.json);
	assert_null(r.options.nproc.json);
	result_record_free(&r);
	/* a key of the wrong type is named */
	_cleanup_json_ json_object *bad = json_lit(HEAD "\"options\": {\"dma_latency\": {\"held\": \"yes\"}}, \"runs\": []}");
	assert_int_equal(result_decode(bad, &r, &error), -EBADMSG);
	assert_non_null(strstr(error, "options.dma_latency.held"));
}

static void summary(void **state)
{
	_cleanup_json_ json_object *rec =
		json_lit(HEAD "\"host\": \"pi\", \"round\": \"w2\", \"environment\": {\"before\": {\"host\": "
			 "{\"machine_id\": \"3f2a\"}}}, \"quick\": true, \"imported\": false, \"profile\": {\"profiles\": "
			 "[\"base\", \"unixbench\"]}, \"runs\": [{\"copies\": 1, \"tests\": [], \"index\": {\"score\": "
			 "812.5}}, {\"copies\": 4, \"tests\": [], \"index\": {\"score\": null, \"partial\": true}}]}");
	_cleanup_json_ json_object *s = result_summary(rec);
	assert_string_equal(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN),
			    "{\"run_id\":\"x\",\"started_at\":\"t\",\"host\":\"pi\",\"machine_id\":\"3f2a\","
			    "\"round\":\"w2\",\"suite\":\"n\",\"copies\":[1,4],"
			    "\"scores\":[812.5,null],\"flags\":[\"quick\",\"partial\",\"profile:base\","
			    "\"profile:unixbench\",\"unjudged\"],\"summary_version\":3}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stored_records),
		cmocka_unit_test(check),
		cmocka_unit_test(sampled_parts),
		cmocka_unit_test(held_options),
		cmocka_unit_test(summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
