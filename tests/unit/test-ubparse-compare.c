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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(score_glued_to_rules),
		cmocka_unit_test(thousands_separators),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
