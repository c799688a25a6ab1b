/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scoring a result record from its passes, the text report's UnixBench
 * lines, and the results store round trip. */
#include <errno.h>
#include <math.h>

#include "bench/background.h"
#include "bench/result.h"
#include "bench/workdir.h"
#include "lib/store.h"
#include "lib/term.h"
#include "testlib.h"

/* Two tests at 1 copy: pipe with 3 passes (the lowest count dropped),
 * spawn with one pass; a third test failed. */
static const char *const record_text =
	"{\"schema\": \"ubtune.result/1\", \"run_id\": \"0123456789abcdef0123456789abcdef\","
	" \"host\": \"board\", \"started_at\": \"2026-01-01T12:00:00+0100\","
	" \"suite\": {\"name\": \"native\", \"version\": \"0.1.0\"}, \"quick\": true, \"online_cpus\": 4,"
	" \"profile\": {\"profiles\": [\"rpi4\"]},"
	" \"runs\": [{\"copies\": 1, \"started_at\": \"2026-01-01T12:00:00+0100\","
	"   \"ended_at\": \"2026-01-01T12:01:40+0100\", \"tests\": ["
	"   {\"id\": \"pipe\", \"name\": \"Pipe Throughput\", \"unit\": \"lps\", \"baseline\": 12440,"
	"    \"complete\": true, \"passes\": ["
	"     {\"count\": 2000000, \"time_s\": 10.0, \"timebase\": 1},"
	"     {\"count\": 1000000, \"time_s\": 10.0, \"timebase\": 1},"
	"     {\"count\": 8000000, \"time_s\": 10.0, \"timebase\": 1}]},"
	"   {\"id\": \"spawn\", \"name\": \"Process Creation\", \"unit\": \"lps\", \"baseline\": 126,"
	"    \"complete\": true, \"passes\": [{\"count\": 37800, \"time_s\": 30.0, \"timebase\": 1}]},"
	"   {\"id\": \"execl\", \"name\": \"Execl Throughput\", \"unit\": \"lps\", \"baseline\": 43,"
	"    \"complete\": false, \"error\": \"1 copy, pass 1: the program exited with status 2\", \"passes\": []}"
	" ]}]}";

/* The text report of a record. */
static char *report_of(json_object *rec)
{
	char *text = NULL;
	size_t len = 0;
	_cleanup_free_ char *error = NULL;
	FILE *f = open_memstream(&text, &len);
	term_set_width(80);
	if (result_render(rec, f, &error) < 0)
		fail_msg("%s", error);
	fclose(f);
	return text;
}

static void record_scoring(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(record_text);
	json_object *run = jpath(rec, "runs.0");
	for (size_t i = 0; i < jpath_len(run, "tests"); i++)
		result_score_test(json_object_array_get_idx(jpath(run, "tests"), i));
	result_score_run(run);

	/* pipe: 1000000 dropped; sqrt(200000 * 800000) = 400000 lps, index 10 * 400000 / 12440 */
	double v;
	assert_true(jpath_double(run, "tests.0.result", &v));
	assert_float_equal(v, 400000, 1e-6);
	assert_true(jpath_double(run, "tests.0.index", &v));
	assert_float_equal(v, 4000000.0 / 12440, 1e-9);
	assert_int_equal(jint(run, "tests.0.samples"), 2);
	bool dropped;
	assert_true(jpath_bool(run, "tests.0.passes.1.dropped", &dropped) && dropped);
	assert_true(jpath_bool(run, "tests.0.passes.0.dropped", &dropped) && !dropped);
	/* dispersion over all three rates 200000, 100000, 800000 */
	assert_true(jpath_double(run, "tests.0.dispersion.median", &v));
	assert_float_equal(v, 200000, 1e-6);
	/* spawn: 37800 / 30 = 1260 lps, index 100 */
	assert_true(jpath_double(run, "tests.1.index", &v));
	assert_float_equal(v, 100, 1e-9);
	/* execl failed: no result, not indexed */
	assert_jnull(run, "tests.2.result");

	/* partial index of 2 tests: sqrt(321.54... * 100) */
	assert_true(jpath_double(run, "index.score", &v));
	assert_float_equal(v, sqrt(4000000.0 / 12440 * 100), 1e-9);
	bool partial;
	assert_true(jpath_bool(run, "index.partial", &partial) && partial);
	assert_int_equal(jint(run, "index.tests_indexed"), 2);
	double lo, hi;
	assert_true(jpath_double(run, "index.ci95.0", &lo) && jpath_double(run, "index.ci95.1", &hi));
	assert_true(lo <= v && v <= hi);

	/* The text report keeps UnixBench's lines, so scripts that parse them work. */
	char *text = report_of(rec);
	static const char *const lines[] = {
		"Benchmark Run: Thu Jan 01 2026 12:00:00 - 12:01:40\n",
		"4 CPUs in system; running 1 parallel copy of tests\n",
		"Pipe Throughput                              400000.0 lps   (10.0 s, 2 samples)\n",
		"Process Creation                               1260.0 lps   (30.0 s, 1 samples)\n",
		"System Benchmarks Partial Index              BASELINE       RESULT    INDEX\n",
		"Pipe Throughput                               12440.0     400000.0    321.5\n",
		"Process Creation                                126.0       1260.0    100.0\n",
		"                                                                   ========\n",
		"System Benchmarks Index Score (Partial Only)                          179.3\n",
		"QUICK RUN",
		"Failed: Execl Throughput: 1 copy, pass 1: the program exited with status 2\n",
		"Profile applied: rpi4\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		if (!strstr(text, lines[i]))
			fail_msg("the report lacks '%s':\n%s", lines[i], text);
	/* byte order: "Pipe Throughput" before "Process Creation" */
	assert_true(strstr(text, "Pipe Throughput  ") < strstr(text, "Process Creation  "));
	free(text);
}

static void imported_record_renders(void **state)
{
	/* what an importer of UnixBench logs keeps: results, no passes */
	_cleanup_json_ json_object *rec = json_lit(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"ab\", \"started_at\": \"2025-06-01T10:00:00+0000\","
		" \"suite\": {\"name\": \"unixbench\", \"version\": \"5.1.3\"}, \"imported\": true,"
		" \"runs\": [{\"copies\": 4, \"index\": {\"score\": 515.2, \"partial\": true}, \"tests\": ["
		"  {\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2 using register variables\", \"unit\": \"lps\","
		"   \"baseline\": 116700, \"result\": 6012345.6, \"index\": 515.2, \"time_s\": 10.0, \"samples\": 7}]}]}");
	_cleanup_free_ char *why = NULL;
	assert_int_equal(result_check(rec, &why), 0);
	char *text = report_of(rec);
	assert_non_null(strstr(text, "Dhrystone 2 using register variables        6012345.6 lps   (10.0 s, 7 samples)\n"));
	assert_non_null(strstr(text, "System Benchmarks Index Score (Partial Only)                          515.2\n"));
	assert_non_null(strstr(text, "Imported result"));
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "Dispersion"));
	assert_null(strstr(text, "?"));
	/* the run's own time and CPU count are not in it: an import's record-level
	 * time may be that of the import, so neither is shown as the run's */
	assert_non_null(strstr(text, "Benchmark Run: time not recorded\nCPUs in system not recorded; running 4 "
				     "parallel copies of tests\n"));
	free(text);
}

/* What else ran during each test, from the samples taken while it ran, and
 * the clock measured after it: the table and the thresholds in the report. */
static void background_and_clock(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"cd\", \"started_at\": \"2026-01-01T12:00:00+0000\","
		" \"suite\": {\"name\": \"native\"},"
		" \"environment\": {\"before\": {\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A76\"}, {\"model\": \"Cortex-A55\"}]}}},"
		" \"runs\": [{\"copies\": 4, \"tests\": ["
		"  {\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2 using register variables\", \"unit\": \"lps\", \"baseline\": 116700,"
		"   \"result\": 20000000, \"index\": 1713.8, \"time_s\": 10, \"samples\": 7,"
		"   \"clock\": {\"after\": [{\"cpu\": 4, \"measured_khz\": 2352000}, {\"cpu\": 0, \"measured_khz\": 1800400}]}},"
		"  {\"id\": \"syscall\", \"name\": \"System Call Overhead\", \"unit\": \"lps\", \"baseline\": 15000,"
		"   \"result\": 1500000, \"index\": 1000, \"time_s\": 10, \"samples\": 7}]}],"
		" \"samples\": ["
		"  {\"test\": \"dhry2reg\", \"copies\": 4, \"sys_pct\": 8, \"iowait_pct\": 0, \"steal_pct\": 0, \"others_pct\": 2},"
		"  {\"test\": \"dhry2reg\", \"copies\": 4, \"sys_pct\": 6, \"iowait_pct\": 0, \"steal_pct\": 0, \"others_pct\": 30,"
		"   \"others_top\": \"cc1 (pid 42)\"},"
		"  {\"test\": \"dhry2reg\", \"copies\": 1, \"sys_pct\": 90, \"others_pct\": 90},"
		"  {\"test\": \"syscall\", \"copies\": 4, \"sys_pct\": 95, \"iowait_pct\": 1, \"steal_pct\": 0, \"others_pct\": 0},"
		"  {\"test\": null, \"sys_pct\": 50}]}");
	background_per_test(rec);
	json_object *dhry = jpath(rec, "runs.0.tests.0"), *sys = jpath(rec, "runs.0.tests.1");
	assert_int_equal(jint(dhry, "background.samples"), 2); /* the 1-copy reading is another run's */
	double v;
	assert_true(jpath_double(dhry, "background.sys_pct", &v));
	assert_float_equal(v, 7.0, 1e-9);
	assert_true(jpath_double(dhry, "background.others_pct", &v));
	assert_float_equal(v, 16.0, 1e-9);
	assert_true(jpath_double(dhry, "background.others_max_pct", &v));
	assert_float_equal(v, 30.0, 1e-9);
	assert_jstr(dhry, "background.busiest", "cc1 (pid 42)");
	assert_jstr(dhry, "background.untrusted.0", "others");
	assert_jstr(dhry, "background.untrusted.1", "sys");
	/* kernel time is what System Call Overhead measures: not a reason */
	assert_int_equal(jpath_len(sys, "background.untrusted"), 0);

	char *text = report_of(rec);
	static const char *const lines[] = {
		/* at 80 columns the names wrap to leave room for the flag */
		"Clock and background     MHz AFTER  OTHERS     SYS  IOWAIT  STEAL\n"
		"during each test\n"
		"Dhrystone 2 using        2352/1800  16.0 %   7.0 %   0.0 %  0.0 %  UNTRUSTWORTHY\n"
		"register variables\n"
		"System Call Overhead             -   0.0 %  95.0 %   1.0 %  0.0 %\n",
		"MHz after: measured on one CPU of each kind (Cortex-A76/Cortex-A55)\n",
		"UNTRUSTWORTHY: a test is untrustworthy when, on average over its samples, other\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		if (!strstr(text, lines[i]))
			fail_msg("the report lacks '%s':\n%s", lines[i], text);
	free(text);
}

/* ---- the store ---- */

static char *state;

static int make_state(void **s)
{
	char tmpl[] = "/tmp/ubtune-store-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	state = xstrdup(tmpl);
	return 0;
}

static int remove_state(void **s)
{
	assert_int_equal(remove_tree(state), 0);
	free(state);
	return 0;
}

static char *write_file(const char *name, const char *text, size_t len)
{
	char *p = xasprintf("%s/%s", state, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return p;
}

static void store_round_trip(void **s)
{
	_cleanup_free_ char *dir = xasprintf("%s/state", state);
	struct store *st;
	assert_int_equal(store_open(dir, &st), 0);
	_cleanup_json_ json_object *rec = json_lit(record_text);
	result_score_test(json_object_array_get_idx(jpath(rec, "runs.0.tests"), 0));
	result_score_test(json_object_array_get_idx(jpath(rec, "runs.0.tests"), 1));
	result_score_run(jpath(rec, "runs.0"));

	int64_t id, id2;
	assert_int_equal(store_add(st, rec, &id), 0);
	assert_int_equal(id, 1);
	/* the same run twice is refused, naming the stored one */
	assert_int_equal(store_add(st, rec, &id2), -EEXIST);
	assert_int_equal(id2, 1);

	/* show: the record comes back as it went in */
	_cleanup_json_ json_object *back = NULL;
	assert_int_equal(store_get(st, 1, &back), 0);
	_cleanup_free_ char *a = xstrdup(jdump(rec, false));
	assert_string_equal(jdump(back, false), a);

	/* export to a file, change its run id, import it as a second result */
	json_object_object_add(back, "run_id", json_object_new_string("fedcba9876543210fedcba9876543210"));
	const char *text = jdump(back, true);
	_cleanup_free_ char *file = write_file("other.json", text, strlen(text));
	_cleanup_free_ char *error = NULL;
	assert_int_equal(store_import_json(st, file, &id, &error), 0);
	assert_int_equal(id, 2);
	assert_int_equal(store_import_json(st, file, &id, &error), -EEXIST);
	assert_non_null(strstr(error, "already stored as result 2"));
	free(error);
	error = NULL;

	/* history: summaries, oldest first */
	_cleanup_json_ json_object *list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	assert_int_equal(jarr_len(list), 2);
	json_object *e = json_object_array_get_idx(list, 0);
	assert_int_equal(jint(e, "id"), 1);
	assert_jstr(e, "host", "board");
	assert_jstr(e, "suite", "native 0.1.0");
	assert_int_equal(jint(e, "copies.0"), 1);
	double score;
	assert_true(jpath_double(e, "scores.0", &score));
	assert_float_equal(score, sqrt(4000000.0 / 12440 * 100), 1e-6);
	assert_jstr(e, "flags.0", "quick");
	assert_jstr(e, "flags.1", "partial");
	assert_jstr(e, "flags.2", "profile:rpi4");

	/* references */
	assert_int_equal(store_resolve(st, "last", &id), 0);
	assert_int_equal(id, 2);
	assert_int_equal(store_resolve(st, "last~1", &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(store_resolve(st, "1", &id), 0);
	assert_int_equal(store_resolve(st, "last~2", &id), -ENOENT);
	assert_int_equal(store_resolve(st, "7", &id), -ENOENT);
	assert_int_equal(store_resolve(st, "first", &id), -EINVAL);
	assert_int_equal(store_resolve(st, "last~x", &id), -EINVAL);
	assert_int_equal(store_resolve(st, "-1", &id), -EINVAL);
	store_close(st);

	/* a reopened store still has both */
	assert_int_equal(store_open(dir, &st), 0);
	assert_int_equal(store_resolve(st, "last", &id), 0);
	assert_int_equal(id, 2);
	store_close(st);
}

static void import_rejects_bad_files(void **s)
{
	_cleanup_free_ char *dir = xasprintf("%s/state", state);
	struct store *st;
	assert_int_equal(store_open(dir, &st), 0);
	static const struct {
		const char *name, *text, *error;
	} bad[] = {
		{ "a.json", "not json", "not valid JSON" },
		{ "b.json", "[1, 2]", "not a ubtune result: not a JSON object" },
		{ "c.json", "{\"schema\": \"ubtune.probe/1\"}", "schema is 'ubtune.probe/1', expected 'ubtune.result/1'" },
		{ "d.json", "{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"started_at\": \"t\"}",
		  "suite is missing" },
		{ "e.json",
		  "{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"started_at\": \"t\", \"suite\": {\"name\": \"n\"},"
		  " \"runs\": [{\"copies\": 0, \"tests\": []}]}",
		  "runs[0].copies is 0, expected 1 to 1048576" },
		{ "f.json",
		  "{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"started_at\": \"t\", \"suite\": {\"name\": \"n\"},"
		  " \"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"result\": \"fast\"}]}]}",
		  "runs[0].tests[0].result is a string, expected a number" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		_cleanup_free_ char *file = write_file(bad[i].name, bad[i].text, strlen(bad[i].text));
		_cleanup_free_ char *error = NULL;
		int64_t id;
		assert_true(store_import_json(st, file, &id, &error) < 0);
		if (!strstr(error, bad[i].error) || !strstr(error, file))
			fail_msg("%s: '%s' does not say '%s'", bad[i].name, error, bad[i].error);
	}
	_cleanup_free_ char *nul = write_file("nul.json", "{\"a\": 1}\0{", 10);
	_cleanup_free_ char *error = NULL;
	int64_t id;
	assert_int_equal(store_import_json(st, nul, &id, &error), -EBADMSG);
	free(error);
	error = NULL;
	assert_int_equal(store_import_json(st, state, &id, &error), -EINVAL);
	assert_non_null(strstr(error, "not a regular file"));
	free(error);
	error = NULL;
	_cleanup_free_ char *missing = xasprintf("%s/missing.json", state);
	assert_int_equal(store_import_json(st, missing, &id, &error), -ENOENT);
	assert_non_null(strstr(error, "missing.json"));
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_scoring),
		cmocka_unit_test(imported_record_renders),
		cmocka_unit_test(background_and_clock),
		cmocka_unit_test_setup_teardown(store_round_trip, make_state, remove_state),
		cmocka_unit_test_setup_teardown(import_rejects_bad_files, make_state, remove_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
