/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test catalogue: its index tests and their runs, the order of
 * UnixBench's report, names, and the lists of tests and copies. */
#include <errno.h>

#include "testlib.h"
#include "unixbench/catalogue.h"

static void index_tests(void **state)
{
	size_t n = 0;
	for (const struct ub_test_info *t = ub_tests; t->id; t++, n++) {
		bool indexed = n < UB_NINDEX;
		/* the index tests are the ones with a way to run them, and only they */
		assert_int_equal(t->program != NULL, indexed);
		assert_int_equal(t->label != NULL, indexed);
		if (indexed) {
			assert_string_equal(t->category, "system");
			assert_true(t->baseline > 0);
			assert_ptr_equal(ub_index_test(t->id), t);
			assert_true(t->procs >= 1);
		} else {
			assert_null(ub_index_test(t->id));
			assert_int_equal(t->procs, 0);
		}
		assert_ptr_equal(ub_test_by_name(t->name), t);
	}
	assert_true(n > UB_NINDEX);
	assert_string_equal(ub_test_by_name("C Compiler Throughput (clang-16)")->id, "C");
	assert_null(ub_test_by_name("C Compiler Throughput (gcc"));
	/* UnixBench 4.1 writes no spaces around "--" */
	assert_string_equal(ub_test_by_name("Recursion Test--Tower of Hanoi")->id, "hanoi");
	assert_string_equal(ub_test_by_name("Recursion Test --Tower of Hanoi")->id, "hanoi");
	assert_null(ub_test_by_name("Recursion Test-Tower of Hanoi"));
	assert_null(ub_test_by_name("Recursion Test--Tower of Hanoi 2"));
	assert_null(ub_index_test("index"));
	/* multi.sh, 8 tst.sh and up to 3 pipeline stages each: what a run
	 * needs per copy, read by bench and by the probe's limits rule */
	assert_string_equal(ub_most_procs()->id, "shell8");
	assert_int_equal(ub_most_procs()->procs, 33);
	assert_int_equal(ub_index_test("shell1")->procs, 5);
	assert_int_equal(ub_index_test("spawn")->procs, 2);
	assert_int_equal(ub_index_test("context1")->procs, 2);
	assert_int_equal(ub_index_test("dhry2reg")->procs, 1);
	_cleanup_free_ char *ids = ub_index_ids(",");
	assert_string_equal(ids, "dhry2reg,whetstone-double,execl,fstime,fsbuffer,fsdisk,pipe,context1,spawn,"
				 "syscall,shell1,shell8");
}

/* Run sorts its report by name; the others follow in the table's order. */
static void report_order(void **state)
{
	const char *want[] = { "dhry2reg", "whetstone-double", "execl", "fstime", "fsbuffer", "fsdisk", "pipe",
			       "context1", "spawn", "shell1", "shell8", "syscall", "fstime-w" };
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(ub_test_in_report_order(i)->id, want[i]);
	size_t n = 0;
	for (; ub_test_in_report_order(n); n++) {
		const struct ub_test_info *t = ub_test_in_report_order(n);
		if (n >= UB_NINDEX)
			assert_ptr_equal(t, &ub_tests[n]);
		else if (n > 0)
			assert_true(strcmp(ub_test_in_report_order(n - 1)->name, t->name) < 0);
	}
	assert_non_null(ub_tests[n - 1].id);
	assert_null(ub_tests[n].id);
}

static void passes_and_durations(void **state)
{
	const struct ub_test_info *d = ub_index_test("dhry2reg"), *s = ub_index_test("spawn");
	assert_int_equal(ub_passes(d, 0, false), 10);
	assert_int_equal(ub_passes(s, 0, false), 3);
	/* -i 10: 10 and 3; -i 5: 5 and 2; -i 1: 1 and 1 (int((1+1)/3) = 0, at least 1) */
	assert_int_equal(ub_passes(d, 5, false), 5);
	assert_int_equal(ub_passes(s, 5, false), 2);
	assert_int_equal(ub_passes(s, 10, false), 3);
	assert_int_equal(ub_passes(s, 1, false), 1);
	assert_int_equal(ub_passes(d, 0, true), 3);
	assert_int_equal(ub_passes(s, 0, true), 1);
	assert_int_equal(ub_duration(s, false), 30);
	assert_true(ub_duration(s, true) < 30);

	struct strv argv = {0};
	ub_expand_args(ub_index_test("fsdisk"), false, false, "/tmp/w d", "/b", &argv);
	const char *want[] = { "-c", "-t", "30", "-d", "/tmp/w d", "-b", "4096", "-m", "8000" };
	assert_int_equal(argv.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < argv.n; i++)
		assert_string_equal(argv.v[i], want[i]);
	strv_free(&argv);
	ub_expand_args(ub_index_test("shell8"), false, false, "/w", "/ub/pgms", &argv);
	assert_int_equal(argv.n, 3);
	assert_string_equal(argv.v[0], "60");
	assert_string_equal(argv.v[1], "/ub/pgms/multi.sh");
	assert_string_equal(argv.v[2], "8");
	strv_free(&argv);
	/* whetstone takes a target time only from engines that know -t */
	ub_expand_args(ub_index_test("whetstone-double"), true, false, "/w", "/b", &argv);
	assert_int_equal(argv.n, 0);
	ub_expand_args(ub_index_test("whetstone-double"), true, true, "/w", "/b", &argv);
	assert_int_equal(argv.n, 2);
	assert_string_equal(argv.v[0], "-t");
	strv_free(&argv);

	/* the baselines are those of pgms/index.base */
	double sum = 0;
	for (size_t i = 0; i < UB_NINDEX; i++)
		sum += ub_tests[i].baseline;
	assert_float_equal(sum, 116700 + 55.0 + 43.0 + 3960 + 1655 + 5800 + 12440 + 4000 + 126 + 15000 + 42.4 + 6, 1e-9);
}

static void option_lists(void **state)
{
	unsigned t[UB_NINDEX], n;
	char *bad = NULL;
	assert_int_equal(ub_parse_tests("pipe, syscall,pipe", ",", t, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ub_tests[t[0]].id, "pipe");
	assert_string_equal(ub_tests[t[1]].id, "syscall");
	assert_int_equal(ub_parse_tests("index", ",", t, &n, &bad), 0);
	assert_int_equal(n, UB_NINDEX);
	assert_int_equal(ub_parse_tests("pipe,dhrystone", ",", t, &n, &bad), -EINVAL);
	assert_string_equal(bad, "dhrystone");
	free(bad);
	bad = NULL;
	assert_int_equal(ub_parse_tests(",", ",", t, &n, &bad), -EINVAL);
	free(bad);

	unsigned c[UB_RUNS_MAX];
	assert_int_equal(ub_parse_copies("1,all", ",", 64, c, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 64); /* never capped at 16 */
	assert_int_equal(ub_parse_copies("8", ",", 2, c, &n, NULL), 0);
	assert_int_equal(c[0], 8);
	assert_int_equal(ub_parse_copies("0", ",", 2, c, &n, NULL), -ERANGE);
	assert_int_equal(ub_parse_copies("1,x", ",", 2, c, &n, NULL), -EINVAL);
	assert_int_equal(ub_parse_copies("", ",", 2, c, &n, NULL), -EINVAL);
	assert_int_equal(ub_parse_copies("99999", ",", 2, c, &n, NULL), -ERANGE);
	/* another machine's copy counts: no 'all' */
	assert_int_equal(ub_parse_copies("1,all", ",", 0, c, &n, NULL), -EINVAL);
	assert_int_equal(ub_parse_copies("1, 8", ",", 0, c, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_int_equal(c[1], 8);
}

static void list_errors(void **state)
{
	unsigned t[UB_NINDEX], c[UB_RUNS_MAX], n = 99;
	char *bad = NULL;
	/* Run's groups and aliases are not what bench runs */
	assert_int_equal(ub_parse_tests("system", " \t,", t, &n, &bad), -EINVAL);
	assert_string_equal(bad, "system");
	free(bad);
	assert_int_equal(ub_parse_tests("pipe dhry", " \t,", t, &n, &bad), -EINVAL);
	assert_string_equal(bad, "dhry");
	free(bad);
	assert_int_equal(n, 99); /* untouched on an error */
	assert_int_equal(ub_parse_tests("index shell8", " \t,", t, &n, NULL), 0);
	assert_int_equal(n, UB_NINDEX);

	assert_int_equal(ub_parse_copies("1 8000", " \t,", 1, c, &n, &bad), -ERANGE);
	assert_string_equal(bad, "8000");
	free(bad);
	assert_int_equal(ub_parse_copies("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", ",", 1, c, &n, &bad), -E2BIG);
	assert_null(bad);
	assert_int_equal(ub_parse_copies(" , ", ",", 1, c, &n, &bad), -EINVAL);
	assert_null(bad);
	assert_int_equal(ub_parse_copies("4096,all", ",", 1, c, &n, NULL), 0);
	assert_int_equal(c[0], UB_COPIES_MAX);
	assert_int_equal(c[1], 1);
	assert_int_equal(ub_parse_copies("4097", ",", 1, c, &n, NULL), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_tests),
		cmocka_unit_test(report_order),
		cmocka_unit_test(passes_and_durations),
		cmocka_unit_test(option_lists),
		cmocka_unit_test(list_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
