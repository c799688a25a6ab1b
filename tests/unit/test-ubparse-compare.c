/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading comparisons as people publish them: runs side by side in
 * columns, before and after a patch, one block per machine, score lists,
 * and the damage web pages and mail do to them. */
#include <errno.h>
#include <math.h>

#include "bench/ubimport.h"
#include "unixbench/parse.h"
#include "testlib.h"

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

static int parse_text(const char *text, struct ub_doc *doc)
{
	return ub_parse(text, strlen(text), doc);
}

/* The blocks of a document in order, whatever results hold them. */
static size_t blocks_of(const struct ub_doc *d, const struct ub_block **v, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nresults; i++)
		for (size_t k = 0; k < d->results[i].nblocks && n < max; k++)
			v[n++] = &d->results[i].blocks[k];
	return n;
}

static const struct ub_test *test_of(const struct ub_block *b, const char *id)
{
	for (size_t i = 0; i < b->ntests; i++)
		if (b->tests[i].info && streq(b->tests[i].info->id, id))
			return &b->tests[i];
	return NULL;
}

/* A page that lost its line breaks around the rules: the last index row
 * and the score glued to them ("...135.4========", "Score 326.4-----"). */
static void score_glued_to_rules(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
				    "Dhrystone 2 using register variables         116700.0   18111605.8   1552.0\n"
				    "System Call Overhead                          15000.0     203100.0    135.4========\n"
				    "System Benchmarks Index Score                                         "
				    "326.4------------------------------------\n",
				    &d),
			 0);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_true(b->has_score);
	assert_near(b->score, 326.4);
	assert_near(test_of(b, "syscall")->index, 135.4);
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);
}

/* "116,700.0  41,920,798.1  3,592.2": a spreadsheet's or a blog's
 * thousands separators; "116700,0" stays a decimal comma. */
static void thousands_separators(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
				    "Dhrystone 2 using register variables         116,700.0   41,920,798.1   3,592.2\n"
				    "Double-Precision Whetstone                       55.0       8,470.5    1,540.1\n"
				    "Execl Throughput                                 43,0       1794,1      417,2\n"
				    "System Benchmarks Index Score (Partial Only)                        1,860.3\n",
				    &d),
			 0);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_near(test_of(b, "dhry2reg")->baseline, 116700.0);
	assert_near(test_of(b, "dhry2reg")->result, 41920798.1);
	assert_near(test_of(b, "dhry2reg")->index, 3592.2);
	assert_near(test_of(b, "whetstone-double")->index, 1540.1);
	assert_near(test_of(b, "execl")->result, 1794.1);
	assert_near(b->score, 1860.3);
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);

	/* a group of other than three digits is no thousands separator */
	assert_int_equal(parse_text("Dhrystone 2 using register variables         116700.0   41,92,798.1   3592.2\n", &d),
			 -ENOMSG);
	assert_true(d.nproblems > 0);
	ub_doc_free(&d);
}

#define FC_ROWS(a, b, c)                                                                                               \
	"File Copy 1024 bufsize 2000 maxblocks          3960.0     " a "\n"                                          \
	"File Copy 256 bufsize 500 maxblocks            1655.0     " b "\n"                                          \
	"File Copy 4096 bufsize 8000 maxblocks          5800.0     " c "\n"

/* Runs are labelled by what tells them apart, not by a heading they all
 * share; the tables of two conditions are two runs of Run. */
static void labels_tell_runs_apart(void **state)
{
	(void)state;
	struct ub_doc d;
	const struct ub_block *v[8];
	/* a mail: the ramdisk in a heading both runs share, "without" and
	 * "with" the patch right above each table */
	assert_int_equal(parse_text("## UnixBench fstime on a ramdisk (brd, ext4)\n"
				    "\n"
				    "without patch\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0")
				    "\n"
				    "with patch\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6", "2060732.3   3553.0"),
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(blocks_of(&d, v, 8), 2);
	assert_string_equal(v[0]->label, "without patch");
	assert_string_equal(v[1]->label, "with patch");
	assert_null(v[0]->group);
	assert_int_equal(v[0]->copies, 0);
	ub_doc_free(&d);

	/* Markdown: a 1-copy and an 8-copy table for each of two kernels */
	assert_int_equal(parse_text("# Results\n"
				    "## base kernel\n### 1 copy\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9",
									   "1873393.0   3230.0")
				    "### 8 copies\n" FC_ROWS("5991536.0  15130.1", "1637680.0  9895.4",
							     "14987144.0  25839.9")
				    "## patched kernel\n### 1 copy\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6",
									      "2060732.3   3553.0")
				    "### 8 copies\n" FC_ROWS("6590689.6  16643.2", "1801448.0  10884.9",
							     "16485858.4  28423.9"),
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(d.results[0].nblocks, 2);
	assert_int_equal(d.results[1].nblocks, 2);
	assert_int_equal(blocks_of(&d, v, 8), 4);
	static const unsigned copies[] = { 1, 8, 1, 8 };
	static const char *const labels[] = { "base kernel", "base kernel", "patched kernel", "patched kernel" };
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(v[i]->copies, copies[i]);
		assert_string_equal(v[i]->label, labels[i]);
	}
	ub_doc_free(&d);

	/* a mail: every core, a block per machine with its count, before and
	 * after on each */
	assert_int_equal(parse_text("The runs use all cores of each machine.\n"
				    "\n"
				    "Machine 1: Intel Xeon Gold 6248, 2 sockets, 40 cores, 80 threads\n"
				    "before:\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0")
				    "after:\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6", "2060732.3   3553.0")
				    "\n"
				    "Machine 2: Kunpeng 920, 96 cores\n"
				    "before:\n" FC_ROWS("648942.0   1638.7", "184710.0   1116.1", "1573393.0   2712.7")
				    "after:\n" FC_ROWS("713836.2   1802.6", "203181.0   1227.7", "1730732.3   2984.0"),
				    &d),
			 0);
	assert_int_equal(d.nresults, 4);
	assert_int_equal(blocks_of(&d, v, 8), 4);
	static const unsigned cpus[] = { 80, 80, 96, 96 };
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(v[i]->copies, cpus[i]);
		assert_true(v[i]->copies_from_text);
		assert_string_equal(v[i]->label, i % 2 ? "after" : "before");
		assert_non_null(v[i]->group);
		assert_true(strstr(v[i]->group, i < 2 ? "Machine 1" : "Machine 2") != NULL);
	}
	ub_doc_free(&d);

	/* "before" printed whole with its CPUs lines, "after" as index tables
	 * only: the same copies, in order */
	assert_int_equal(parse_text("Before patch:\n"
				    "8 CPUs in system; running 1 parallel copy of tests\n" FC_ROWS("748942.0   1891.3",
												      "204710.0   1236.9",
												      "1873393.0   3230.0")
				    "8 CPUs in system; running 8 parallel copies of tests\n" FC_ROWS("5991536.0  15130.1",
													"1637680.0  9895.4",
													"14987144.0  25839.9")
				    "\nAfter patch:\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6", "2060732.3   3553.0")
				    "\n" FC_ROWS("6590689.6  16643.2", "1801448.0  10884.9", "16485858.4  28423.9"),
				    &d),
			 0);
	assert_int_equal(blocks_of(&d, v, 8), 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(v[i]->copies, i % 2 ? 8 : 1);
	assert_true(v[2]->copies_from_text);
	assert_string_equal(v[3]->label, "After patch");
	ub_doc_free(&d);

	/* headings that differ only in the copy count they name are one
	 * condition run twice; the next condition is a run of its own */
	assert_int_equal(parse_text("pi4-disk-c1:\n"
				    "4 CPUs in system; running 1 parallel copy of tests\n" FC_ROWS("748942.0   1891.3",
												      "204710.0   1236.9",
												      "1873393.0   3230.0")
				    "\npi4-disk-c4:\n"
				    "4 CPUs in system; running 4 parallel copies of tests\n" FC_ROWS("2991536.0  7554.4",
												       "837680.0  5061.5",
												       "7487144.0  12908.9")
				    "\npi4-tmpfs-c1:\n"
				    "4 CPUs in system; running 1 parallel copy of tests\n" FC_ROWS("823836.2   2080.4",
												      "225181.0   1360.6",
												      "2060732.3   3553.0")
				    "\npi4-tmpfs-c4:\n"
				    "4 CPUs in system; running 4 parallel copies of tests\n" FC_ROWS("3295344.8  8321.6",
												       "900724.0  5442.4",
												       "8242929.2  14211.9"),
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(d.results[0].nblocks, 2);
	assert_int_equal(d.results[1].nblocks, 2);
	assert_string_equal(d.results[0].blocks[1].label, "pi4-disk-c4");
	assert_string_equal(d.results[1].blocks[0].label, "pi4-tmpfs-c1");
	ub_doc_free(&d);
	assert_int_equal(parse_text("## Pi 4, disk, 1 copy\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9",
									   "1873393.0   3230.0")
				    "## Pi 4, disk, 4 copies\n" FC_ROWS("2991536.0  7554.4", "837680.0  5061.5",
									 "7487144.0  12908.9")
				    "## Pi 4, kernel 6.1, 1 copy\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6",
									     "2060732.3   3553.0"),
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(d.results[0].nblocks, 2);
	ub_doc_free(&d);

	/* no "all cores": the count of a machine's description is no copy count */
	assert_int_equal(parse_text("Machine 2: Kunpeng 920, 96 cores\n"
				    "before:\n" FC_ROWS("648942.0   1638.7", "184710.0   1116.1", "1573393.0   2712.7"),
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 0);
	ub_doc_free(&d);
}

/* The label and index of every block, in order, against what is expected. */
static void expect_runs(const struct ub_doc *d, size_t n, const char *const *labels, const char *id,
			const double *values, bool results)
{
	const struct ub_block *v[8];
	assert_int_equal(blocks_of(d, v, 8), n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(v[i]->label, labels[i]);
		const struct ub_test *t = test_of(v[i], id);
		if (isnan(values[i])) {
			assert_null(t);
			continue;
		}
		assert_non_null(t);
		assert_true(results ? t->has_result : t->has_index);
		assert_near(results ? t->result : t->index, values[i]);
	}
}

/* One column per run: Markdown (quoted in a mail too) with kernel versions
 * as titles and a "failed." cell, plain text split by spaces or tabs, a
 * column of changes left out, results told from indexes. */
static void runs_as_columns(void **state)
{
	(void)state;
	struct ub_doc d;
	static const char *const kernels[] = { "5.10", "6.1", "6.6" };
	assert_int_equal(parse_text("| Test | 5.10 | 6.1 | 6.6 |\n|---|---|---|---|\n"
				    "| Dhrystone 2 using register variables | 3894.5 | 3919.1 | failed. |\n"
				    "| Pipe Throughput | 1335.0 | 1404.7 | 1390.1 |\n"
				    "| System Benchmarks Index Score | 1534.7 | 1595.2 | 1560.0 |\n",
				    &d),
			 0);
	expect_runs(&d, 3, kernels, "dhry2reg", (const double[]){ 3894.5, 3919.1, NAN }, false);
	expect_runs(&d, 3, kernels, "pipe", (const double[]){ 1335.0, 1404.7, 1390.1 }, false);
	assert_near(d.results[2].blocks[0].score, 1560.0);
	assert_int_equal(d.nresults, 3);
	ub_doc_free(&d);

	static const char *const ba[] = { "before", "after" };
	assert_int_equal(parse_text("> | Test | before | after | change |\n> |---|---|---|---|\n"
				    "> | Dhrystone 2 using register variables | 3894.5 | 3919.1 | +0.6% |\n"
				    "> | Pipe Throughput | 1335.0 | 1404.7 | +5.2% |\n",
				    &d),
			 0);
	expect_runs(&d, 2, ba, "pipe", (const double[]){ 1335.0, 1404.7 }, false);
	ub_doc_free(&d);

	static const char *const bp[] = { "baseline", "patched" };
	assert_int_equal(parse_text("                                      baseline   patched\n"
				    "Dhrystone 2 using register variables    3894.5    3919.1\n"
				    "System Call Overhead                     968.5     964.9\n"
				    "System Benchmarks Index Score           1534.7    1595.2\n",
				    &d),
			 0);
	expect_runs(&d, 2, bp, "syscall", (const double[]){ 968.5, 964.9 }, false);
	assert_near(d.results[1].blocks[0].score, 1595.2);
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);

	/* tabs, and results rather than indexes (Pipe Throughput far above its baseline) */
	assert_int_equal(parse_text("Test\tbefore\tafter\n"
				    "Dhrystone 2 using register variables\t45448570.8\t45735929.7\n"
				    "Pipe Throughput\t1660768.6\t1747502.7\n",
				    &d),
			 0);
	expect_runs(&d, 2, ba, "pipe", (const double[]){ 1660768.6, 1747502.7 }, true);
	ub_doc_free(&d);

	/* only changes: refused, saying why */
	assert_int_equal(parse_text("| Test | change |\n|---|---|\n"
				    "| Dhrystone 2 using register variables | +0.7% |\n| Pipe Throughput | +5.2% |\n",
				    &d),
			 -ENOMSG);
	assert_true(d.nproblems > 0);
	assert_non_null(strstr(d.problems[0].why, "no absolute result is printed"));
	ub_doc_free(&d);
	assert_int_equal(parse_text("Dhrystone 2 using register variables   +0.7%\nPipe Throughput   +5.2 %\n", &d),
			 -ENOMSG);
	assert_non_null(strstr(d.problems[0].why, "no absolute result is printed"));
	ub_doc_free(&d);
}

/* "base    Dhrystone 2 ...", "patched Dhrystone 2 ...": the label before
 * the test name names the run. */
static void labels_glued_before_tests(void **state)
{
	(void)state;
	struct ub_doc d;
	static const char *const labels[] = { "base", "patched" };
	assert_int_equal(parse_text("base    Dhrystone 2 using register variables   45448570.8 lps   (10.0 s, 7 samples)\n"
				    "patched Dhrystone 2 using register variables   45735929.7 lps   (10.0 s, 7 samples)\n"
				    "base    Pipe Throughput                         1660768.6 lps   (10.0 s, 7 samples)\n"
				    "patched Pipe Throughput                         1747502.7 lps   (10.0 s, 7 samples)\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	expect_runs(&d, 2, labels, "dhry2reg", (const double[]){ 45448570.8, 45735929.7 }, true);
	expect_runs(&d, 2, labels, "pipe", (const double[]){ 1660768.6, 1747502.7 }, true);
	ub_doc_free(&d);

	static const char *const versions[] = { "6.1", "6.6" };
	assert_int_equal(parse_text("[6.1] System Call Overhead   15000.0  1452805.5   968.5\n"
				    "[6.6] System Call Overhead   15000.0  1447375.3   964.9\n",
				    &d),
			 0);
	expect_runs(&d, 2, versions, "syscall", (const double[]){ 968.5, 964.9 }, false);
	ub_doc_free(&d);
}

/* Only the scores, a run each under its heading or in a list under a
 * heading naming UnixBench. */
static void score_lists(void **state)
{
	(void)state;
	struct ub_doc d;
	const struct ub_block *v[8];
	assert_int_equal(parse_text("## UnixBench scores\n\n- 5.10: 1534.7\n- 6.1: 1595.2\n- 6.6: 1560.0\n", &d), 0);
	assert_int_equal(blocks_of(&d, v, 8), 3);
	assert_string_equal(v[1]->label, "6.1");
	assert_true(v[1]->has_score);
	assert_near(v[1]->score, 1595.2);
	assert_int_equal(v[1]->ntests, 0);
	ub_doc_free(&d);

	assert_int_equal(parse_text("## kernel 5.10\n\nSystem Benchmarks Index Score   1534.7\n\n"
				    "## kernel 6.1\n\nSystem Benchmarks Index Score   1595.2\n",
				    &d),
			 0);
	assert_int_equal(blocks_of(&d, v, 8), 2);
	assert_string_equal(v[0]->label, "kernel 5.10");
	assert_near(v[0]->score, 1534.7);
	assert_near(v[1]->score, 1595.2);
	ub_doc_free(&d);

	/* a list of numbers under a heading that names no UnixBench: nothing */
	assert_int_equal(parse_text("## Prices\n\n- small: 5\n- large: 20\n", &d), -ENOMSG);
	ub_doc_free(&d);
}

/* A 4.1.0 report indexed against the author's own machine: the FINAL
 * SCORE as printed, marked as no index. */
static void own_baselines(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("  BYTE UNIX Benchmarks (Version 4.1.0)\n"
				    "  System -- Linux box 2.6.18 #1 SMP x86_64\n"
				    "                     INDEX VALUES\n"
				    "TEST                                        BASELINE     RESULT      INDEX\n"
				    "Dhrystone 2 using register variables       3100125.0  3257766.6       10.5\n"
				    "Double-Precision Whetstone                     674.3      690.1       10.2\n"
				    "Execl Throughput                               812.6      803.0        9.9\n"
				    "                                                                 =========\n"
				    "     FINAL SCORE                                                     10.2\n",
				    &d),
			 0);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_near(b->score, 10.2);
	static const unsigned copies[] = { 1 };
	struct ub_import_opts o = { .source = "own.txt", .copies = copies, .ncopies = 1 };
	json_object *recs = ub_import_records(&d, &o);
	json_object *idx = jpath(json_object_array_get_idx(recs, 0), "runs.0.index");
	assert_near(json_object_get_double(jpath(idx, "score")), 10.2);
	assert_false(json_object_get_boolean(jpath(idx, "comparable")));
	json_object_put(recs);
	ub_doc_free(&d);
}

/* A report of builds, one column each, giving UnixBench as its single- and
 * multi-core index scores among other benchmarks' rows. */
static void score_rows_in_columns(void **state)
{
	(void)state;
	struct ub_doc d;
	const struct ub_block *v[8];
	assert_int_equal(parse_text("### k1\n\n| 测试项目 | k1 rv64gc | k1 rv64gc_zba_zbb_zbc_zbs | diff percentage |\n"
				    "| --- | --- | --- | --- |\n"
				    "| Coremark (Score, higher is better) | 4252.604720 | 4311.583788 | 1.39% |\n"
				    "| Unix Bench Single Core (Index Score, higher is better) | 284.5 | 284.0 | -0.18% |\n"
				    "| Unix Bench Multi Core (Index Score, higher is better) | 1630.7 | 1633.3 | 0.16% |\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(blocks_of(&d, v, 8), 4);
	static const double scores[] = { 284.5, 1630.7, 284.0, 1633.3 };
	for (size_t i = 0; i < 4; i++) {
		assert_near(v[i]->score, scores[i]);
		assert_int_equal(v[i]->ntests, 0);
		assert_int_equal(v[i]->copies, i % 2 ? 0 : 1);
		assert_string_equal(v[i]->label, i < 2 ? "k1 rv64gc" : "k1 rv64gc_zba_zbb_zbc_zbs");
	}
	ub_doc_free(&d);
}

/* Two tables of the same titles one right after the other (a single- and
 * a multi-core table of a release test report, no blank line between):
 * four runs, not the second table's values over the first's; the tests'
 * title "单核" (single core) gives its table's runs one copy, and the
 * other table does not borrow it. */
static void same_titles_twice(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("| 单核 | 基线 | sysboost优化后 | 提升比例 |\n| --- | --- | --- | --- |\n"
				    "| Dhrystone 2 using register variables | 3330.35 | 3328.49 | -0.06% |\n"
				    "| Shell Scripts (1 concurrent) | 1301.38 | 1655.79 | 27.23% |\n"
				    "| System Benchmarks Index Score | 1263.79 | 1330.6 | 5.29% |\n"
				    "|          |            |              |              |\n"
				    "| 多核 | 基线 | sysboost优化后 | 提升比例 |\n| --- | --- | --- | --- |\n"
				    "| Dhrystone 2 using register variables | 424935.27 | 423978.74 | -0.23% |\n"
				    "| Shell Scripts (1 concurrent) | 24126.88 | 37933.26 | 57.22% |\n"
				    "| System Benchmarks Index Score | 24848.56 | 26531.43 | 6.77% |\n",
				    &d),
			 0);
	static const char *const labels[] = { "基线", "sysboost优化后", "基线", "sysboost优化后" };
	expect_runs(&d, 4, labels, "shell1", (const double[]){ 1301.38, 1655.79, 24126.88, 37933.26 }, false);
	const struct ub_block *v[8];
	blocks_of(&d, v, 8);
	static const double scores[] = { 1263.79, 1330.6, 24848.56, 26531.43 };
	for (size_t i = 0; i < 4; i++) {
		assert_near(v[i]->score, scores[i]);
		assert_int_equal(v[i]->copies, i < 2 ? 1 : 0);
	}
	ub_doc_free(&d);
}

/* A blog post in Markdown with its tables in <pre> blocks: its paragraphs
 * stay lines of their own, so each table is labelled by the text before
 * it (the last sentence of a longer line); "Single core" is one copy; the
 * prose's "32 cores" of a parts list and "2 CPUs" of a board do not say
 * the machine's CPUs, so the multi-core tables stay copies unknown. */
static void tables_in_pre_blocks(void **state)
{
	(void)state;
	struct ub_doc d;
	static const char row[] = "<pre>\nSystem Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
				  "Dhrystone 2 using register variables         116700.0   %s   %s\n"
				  "System Benchmarks Index Score                                        %s\n</pre>\n\n";
	_cleanup_free_ char *t1 = xasprintf(row, "30919412.5", "2649.5", "2649.5");
	_cleanup_free_ char *t2 = xasprintf(row, "26919412.5", "2306.7", "2306.7");
	_cleanup_free_ char *t3 = xasprintf(row, "61838825.0", "5299.0", "5299.0");
	_cleanup_free_ char *t4 = xasprintf(row, "354000000.0", "30334.2", "30334.2");
	_cleanup_free_ char *text = xasprintf(
		"Around $100 you can easily get 32 cores, 32 GB RAM. A power supply to drive 2\nCPUs.\n\n"
		"### Single core\n\nFirst, the laptop:\n\n%s"
		"Not terrible. How did the $600 workstation with old parts do?\n\n%s"
		"### Multicore\n\nAgain, first the laptop:\n\n%sAnd now the workstation:\n\n%s",
		t1, t2, t3, t4);
	assert_int_equal(parse_text(text, &d), 0);
	static const char *const labels[] = { "First, the laptop", "How did the $600 workstation with old parts do?",
					      "Again, first the laptop", "And now the workstation" };
	expect_runs(&d, 4, labels, "dhry2reg", (const double[]){ 2649.5, 2306.7, 5299.0, 30334.2 }, false);
	const struct ub_block *v[8];
	blocks_of(&d, v, 8);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(v[i]->copies, i < 2 ? 1 : 0);
	ub_doc_free(&d);
}

/* Repeats in columns ("Run 1", "Run 2") under a heading that names the
 * condition and the copies ("112-instance"): each run labelled by the
 * heading; index values far above their baselines stay indexes, as the
 * bold score row they give says ("**63,899.8**", printed, not recomputed). */
static void repeats_in_columns(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("### UnixBench 112-instance - raw 3 runs (Clang no LTO, pinned)\n\n"
				    "| Test | Run 1 | Run 2 |\n|---|---|---|\n"
				    "| Dhrystone 2 using register variables  | 369,489.8 | 368,983.6 |\n"
				    "| Pipe Throughput                       | 184,136.2 | 184,384.3 |\n"
				    "| File Copy 4096 bufsize 8000 maxblocks | 75,996.0  | 75,467.0  |\n"
				    "| **System Benchmarks Index Score**     | **172,919.6** | **172,516.0** |\n",
				    &d),
			 0);
	static const char *const labels[] = { "UnixBench 112-instance - raw 3 runs (Clang no LTO, pinned)",
					      "UnixBench 112-instance - raw 3 runs (Clang no LTO, pinned)" };
	expect_runs(&d, 2, labels, "pipe", (const double[]){ 184136.2, 184384.3 }, false);
	const struct ub_block *v[8];
	blocks_of(&d, v, 8);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(v[i]->copies, 112);
		assert_true(v[i]->has_score);
	}
	assert_near(v[0]->score, 172919.6);
	ub_doc_free(&d);
}

/* A script's table of runs: Run's program ids for names, a unit column,
 * a rule under the titles, a ratio and an overhead column (no runs), an
 * "N/A" cell (no value). */
static void program_ids_in_columns(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("======================================================\n"
				    "Benchmark            Unit           Native      LiteBox    Ratio   Overhead\n"
				    "------------------------------------------------------\n"
				    "dhry2reg             lps       397470665.9  431779110.2   1.0863     -8.63%\n"
				    "execl                lps           53721.7       8399.0   0.1563     84.37%\n"
				    "fsdisk               KBps        5628540.3    7100348.3   1.2615    -26.15%\n"
				    "context1             lps           89310.6          N/A      N/A        N/A\n",
				    &d),
			 0);
	static const char *const labels[] = { "Native", "LiteBox" };
	expect_runs(&d, 2, labels, "execl", (const double[]){ 53721.7, 8399.0 }, true);
	expect_runs(&d, 2, labels, "fsdisk", (const double[]){ 5628540.3, 7100348.3 }, true);
	expect_runs(&d, 2, labels, "context1", (const double[]){ 89310.6, NAN }, true);
	ub_doc_free(&d);
}

/* Tests as columns (Run's ids), runs as rows, in bold, and a row of
 * ratios that is no run. */
static void tests_as_columns(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("| |pipe|spawn|context1|syscall|\n|-|-|-|-|-|\n"
				    "|**Asterinas**|4931483|66197|1102244|4328029|\n"
				    "|**Linux**|28419638|116831|3403803|29433054|\n"
				    "|**Linux/Asterinas**| 5.76| 1.76| 3.09| 6.8|\n",
				    &d),
			 0);
	static const char *const labels[] = { "Asterinas", "Linux" };
	expect_runs(&d, 2, labels, "spawn", (const double[]){ 66197, 116831 }, true);
	expect_runs(&d, 2, labels, "syscall", (const double[]){ 4328029, 29433054 }, true);
	ub_doc_free(&d);
}

/* A CI report: a table per test, a row per copy count ("Parallel"): one
 * run per copy count across the tables; no baseline, no index. */
static void a_table_per_test(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("### unixbench-dhry2reg-test\n\n"
				    "  | 指标名称 | Parallel | Baseline | Result | Index |\n  | --- | --- | --- | --- | --- |\n"
				    "  | Dhrystone 2 using register variables | 1 | 116700.00 | 2424068.50 | 207.70 |\n"
				    "  | Dhrystone 2 using register variables | 4 | 116700.00 | 5838492.50 | 500.30 |\n\n"
				    "### unixbench-fstime-test\n\n"
				    "  | 指标名称 | Parallel | Baseline | Result | Index |\n  | --- | --- | --- | --- | --- |\n"
				    "  | File Copy 1024 bufsize 2000 maxblocks | 1 | 3960.00 | 2283.00 | 5.80 |\n"
				    "  | File Read 1024 bufsize 2000 maxblocks | 1 | --- | 9015.90 | --- |\n"
				    "  | File Copy 1024 bufsize 2000 maxblocks | 4 | 3960.00 | 4109.10 | 10.40 |\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct ub_block *b = &d.results[i].blocks[0];
		assert_int_equal(d.results[i].nblocks, 1);
		assert_int_equal(b->copies, i ? 4 : 1);
		assert_null(b->label);
		assert_near(test_of(b, "dhry2reg")->index, i ? 500.3 : 207.7);
		assert_near(test_of(b, "fstime")->result, i ? 4109.1 : 2283.0);
	}
	const struct ub_block *one = &d.results[0].blocks[0];
	assert_int_equal(one->ntests, 3);
	for (size_t k = 0; k < one->ntests; k++)
		if (strstr(one->tests[k].name, "File Read")) {
			assert_true(one->tests[k].has_result);
			assert_false(one->tests[k].has_index);
		}
	ub_doc_free(&d);
}

/* A machine's table of facts: with one core its run is one copy; its
 * multi-core run ("多核心") is one copy per core. */
static void one_cpu_is_one_copy(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("| 项目 | 数据 |\n|---|---|\n| CPU 型号 | Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz |\n"
				    "| 核心数 | 1 |\n\n"
				    "Dhrystone 2 using register variables         116700.0   28520795.1   2443.9\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 1);
	assert_true(d.results[0].blocks[0].copies_from_text);
	ub_doc_free(&d);
	/* "多核心" (multi-core) under a machine of two cores: two copies */
	assert_int_equal(parse_text("| CPU 核心数 | 2 |\n\n#### 单核心\n\n"
				    "Dhrystone 2 using register variables         116700.0   28520795.1   2443.9\n"
				    "#### 多核心\n\n"
				    "Dhrystone 2 using register variables         116700.0   56030122.4   4801.2\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 1);
	assert_int_equal(d.results[0].blocks[1].copies, 2);
	ub_doc_free(&d);
	/* eight cores and no word of all of them: the copies stay unknown */
	assert_int_equal(parse_text("| 核心数 | 8 |\n\n"
				    "Dhrystone 2 using register variables         116700.0   28520795.1   2443.9\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 0);
	ub_doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(score_glued_to_rules),
		cmocka_unit_test(thousands_separators),
		cmocka_unit_test(labels_tell_runs_apart),
		cmocka_unit_test(runs_as_columns),
		cmocka_unit_test(labels_glued_before_tests),
		cmocka_unit_test(score_lists),
		cmocka_unit_test(own_baselines),
		cmocka_unit_test(score_rows_in_columns),
		cmocka_unit_test(one_cpu_is_one_copy),
		cmocka_unit_test(same_titles_twice),
		cmocka_unit_test(tables_in_pre_blocks),
		cmocka_unit_test(repeats_in_columns),
		cmocka_unit_test(program_ids_in_columns),
		cmocka_unit_test(tests_as_columns),
		cmocka_unit_test(a_table_per_test),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
