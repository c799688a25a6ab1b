/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result record's schema: stored records decode, the tables name what
 * the reports read, and result_check() refuses what the store cannot keep. */
#include <errno.h>

#include "lib/env-record.h"
#include "lib/result-record.h"
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
					     "rpi4-undervoltage.json" };
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

	/* unknown values are fine */
	_cleanup_json_ json_object *ok = json_lit(HEAD "\"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", "
						  "\"result\": null, \"index\": null}], \"index\": {\"score\": null}}], "
						  "\"build\": null, \"profile\": null}");
	_cleanup_free_ char *error = NULL;
	assert_int_equal(result_check(ok, &error), 0);
}

/* The listing summary: suite, copies, scores (null when unknown) and flags. */
static void summary(void **state)
{
	_cleanup_json_ json_object *rec =
		json_lit(HEAD "\"host\": \"pi\", \"quick\": true, \"imported\": false, \"profile\": {\"profiles\": "
			 "[\"base\", \"unixbench\"]}, \"runs\": [{\"copies\": 1, \"tests\": [], \"index\": {\"score\": "
			 "812.5}}, {\"copies\": 4, \"tests\": [], \"index\": {\"score\": null, \"partial\": true}}]}");
	_cleanup_json_ json_object *s = result_summary(rec);
	assert_string_equal(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN),
			    "{\"run_id\":\"x\",\"started_at\":\"t\",\"host\":\"pi\",\"suite\":\"n\",\"copies\":[1,4],"
			    "\"scores\":[812.5,null],\"flags\":[\"quick\",\"partial\",\"profile:base\","
			    "\"profile:unixbench\"]}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stored_records),
		cmocka_unit_test(check),
		cmocka_unit_test(summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
