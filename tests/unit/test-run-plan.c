/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan of a bench run: what each engine runs for how long, the
 * duration of all 12 tests in UnixBench's own terms, the rounding of an
 * estimate and the plan record. */
#include <math.h>

#include "bench/run-plan.h"
#include "testlib.h"

static const struct ub_test_info *test(const char *id)
{
	const struct ub_test_info *t = ub_index_test(id);
	assert_non_null(t);
	return t;
}

static void pass_durations(void **state)
{
	/* ours take the quick durations and the short Whetstone */
	assert_true(run_plan_duration_s(ENGINE_WORKLOADS, test("whetstone-double"), true) == 2);
	assert_true(run_plan_duration_s(ENGINE_WORKLOADS, test("execl"), true) == 2);
	/* a tree's Whetstone takes no -t: it times itself, its calibration included */
	assert_true(run_plan_duration_s(ENGINE_PROGRAMS, test("whetstone-double"), true) == 0);
	assert_true(run_plan_pass_s(ENGINE_PROGRAMS, test("whetstone-double"), true) == 0.25 + 12);
	/* a tree's File Copy primes with its own sync/sleep gaps, ours do not in a quick run */
	assert_true(run_plan_pass_s(ENGINE_PROGRAMS, test("fstime"), true) == 0.25 + 2 + 15);
	assert_true(run_plan_pass_s(ENGINE_WORKLOADS, test("fstime"), true) == 0.25 + 2 + 0.4);
	/* Run keeps its durations and settling whatever --quick says */
	assert_true(run_plan_duration_s(ENGINE_RUN, test("execl"), true) == 30);
	assert_true(run_plan_pass_s(ENGINE_RUN, test("shell8"), true) == 3 + 60);
	assert_true(run_plan_pass_s(ENGINE_WORKLOADS, test("shell8"), false) == 3 + 60);
}

static void whole_runs(void **state)
{
	unsigned all[UB_NINDEX];
	for (unsigned i = 0; i < UB_NINDEX; i++)
		all[i] = i;
	/* UnixBench's table: 5 long tests of 10 passes (4 of 10 s, Whetstone's
	 * 12 s), 7 short ones of 3 (execl, spawn 30 s; File Copy 30 s + 15 s of
	 * priming; the shells 60 s), each pass after 3 s of settling:
	 * 10 x (4 x 13 + 15) + 3 x (2 x 33 + 3 x 48 + 2 x 63) = 670 + 1008 */
	assert_true(fabs(run_plan_copy_count_s(ENGINE_WORKLOADS, all, UB_NINDEX, 0, false) - 1678) < 1e-9);
	/* Run's -i 3: 3 x 67 + 1 x 336 */
	assert_true(fabs(run_plan_copy_count_s(ENGINE_RUN, all, UB_NINDEX, 0, true) - 537) < 1e-9);
	/* --iterations 1: one pass of everything */
	assert_true(fabs(run_plan_copy_count_s(ENGINE_RUN, all, UB_NINDEX, 1, false) - (67 + 336)) < 1e-9);
	/* ours quick: 3 passes of 1 s (Whetstone 2 s + 0.3 s) and 1 of 2 s
	 * (File Copy + 0.4 s, the shells 4 s), each after 0.25 s */
	double quick = 3 * (4 * 1.25 + 2.55) + (2 * 2.25 + 3 * 2.65 + 2 * 4.25);
	assert_true(fabs(run_plan_copy_count_s(ENGINE_WORKLOADS, all, UB_NINDEX, 0, true) - quick) < 1e-9);
}

static void duration_text(void **state)
{
	static const struct {
		double s;
		const char *text;
	} cases[] = {
		{ 0, "0 s" },         { 4.2, "5 s" },       { 44, "45 s" },       { 61, "1 min" },
		{ 89, "1.5 min" },    { 537, "9 min" },     { 599, "10 min" },    { 1678, "28 min" },
		{ 3356, "56 min" },   { 4000, "1 h 07 min" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *t = run_plan_duration_text(cases[i].s);
		assert_string_equal(t, cases[i].text);
	}
}

static void plan_record(void **state)
{
	struct bench_engine e = { .kind = ENGINE_WORKLOADS, .build_needed = true, .description = (char *)"test" };
	struct bench_opts o = { .ntests = 2, .tests = { 0, 9 }, .ncopies = 2, .copies = { 1, 4 }, .quick = true,
				.workdir = "/", .workdir_source = "--workdir", .engine = &e };
	_cleanup_json_ json_object *p = run_plan_json(&o);
	assert_jstr(p, "schema", "ubtune.bench-plan/1");
	assert_int_equal(jpath_len(p, "tests"), 2);
	assert_jstr(json_object_array_get_idx(jpath(p, "tests"), 1), "id", "syscall");
	double per, total, build;
	assert_true(jpath_double(p, "expected.per_copy_count_s", &per));
	assert_true(jpath_double(p, "expected.total_s", &total));
	assert_true(jpath_double(p, "expected.build_s", &build));
	/* Dhrystone and System Call: 3 passes of 1 s after 0.25 s each */
	assert_true(fabs(per - 7.5) < 0.05);
	assert_true(build == RUN_PLAN_BUILD_WORKLOADS_S);
	assert_true(fabs(total - (1 + build + 2 * per)) < 0.05);
	assert_jstr(p, "settle", "sync; sleep 0.25");
	assert_jstr(p, "workdir", "/");
	assert_jnull(p, "workdir_error");
	_cleanup_free_ char *text = run_plan_expected_text(p);
	assert_true(startswith(text, "about 25 s (2 copy counts of about 8 s each, a build of about 10 s first and "
				     "1 s checking"));

	o.workdir = "/nonexistent/dir";
	_cleanup_json_ json_object *bad = run_plan_json(&o);
	assert_non_null(strstr(jpath_str(bad, "workdir_error"), "cannot use /nonexistent/dir as the working directory (--workdir)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pass_durations),
		cmocka_unit_test(whole_runs),
		cmocka_unit_test(duration_text),
		cmocka_unit_test(plan_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
