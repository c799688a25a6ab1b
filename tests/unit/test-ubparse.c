/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading UnixBench output: real output of every layout of 5.1.3 and 6.0.0
 * (tests/fixtures/unixbench-logs) and the mangled ways people paste it. */
#include <errno.h>
#include <math.h>

#include "bench/ubimport.h"
#include "unixbench/parse.h"
#include "unixbench/text.h"
#include "testlib.h"

#define LOGS SRCDIR "/tests/fixtures/unixbench-logs/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	struct buf b = {0};
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_steal(&b);
}

static void parse_fixture(const char *name, struct ub_doc *doc)
{
	size_t len;
	_cleanup_free_ char *path = xasprintf("%s%s", LOGS, name);
	_cleanup_free_ char *data = slurp(path, &len);
	int r = ub_parse(data, len, doc);
	if (r < 0)
		fail_msg("%s: ub_parse returned %d", name, r);
}

static int parse_text(const char *text, struct ub_doc *doc)
{
	return ub_parse(text, strlen(text), doc);
}

static const struct ub_test *find_test(const struct ub_block *b, const char *id)
{
	for (size_t i = 0; i < b->ntests; i++)
		if (b->tests[i].info && streq(b->tests[i].info->id, id))
			return &b->tests[i];
	fail_msg("no test %s in the block", id);
	return NULL;
}

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

/* The 1-copy run of v6-full, as every variant of it must read. */
static void check_v6_full(const struct ub_block *b, bool with_times)
{
	static const struct {
		const char *id;
		double result, index;
	} expect[] = {
		{ "dhry2reg", 41920798.1, 3592.2 }, { "whetstone-double", 8470.5, 1540.1 }, { "execl", 1794.1, 417.2 },
		{ "fstime", 748942.0, 1891.3 },     { "fsbuffer", 204710.0, 1236.9 },       { "fsdisk", 1873393.0, 3230.0 },
		{ "pipe", 1430147.1, 1149.6 },      { "context1", 31423.3, 78.6 },          { "spawn", 5512.0, 437.5 },
		{ "shell1", 7654.9, 1805.4 },       { "shell8", 1608.9, 2681.5 },           { "syscall", 1194640.8, 796.4 },
	};
	assert_int_equal(b->ntests, 12);
	for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
		const struct ub_test *t = find_test(b, expect[i].id);
		assert_true(t->has_result && t->has_index);
		assert_near(t->result, expect[i].result);
		assert_near(t->index, expect[i].index);
		if (with_times) {
			assert_true(t->has_time && t->has_samples);
			assert_int_equal(t->samples, 1);
		}
	}
	assert_true(b->has_score);
	assert_near(b->score, 1084.8);
	assert_false(b->partial);
}

/* ---- real output of every layout ---- */

static void text_report_v6(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-full/vm-2026-11-29-01", &d);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.manglings, 0);
	assert_int_equal(d.formats, UB_FMT_REPORT);
	const struct ub_result *r = &d.results[0];
	assert_true(r->has_header);
	assert_string_equal(r->h.version, "6.0.0");
	assert_string_equal(r->h.hostname, "vm");
	assert_string_equal(r->h.system, "GNU/Linux");
	assert_string_equal(r->h.os_release, "6.18.44-fc-v669");
	assert_string_equal(r->h.os_version, "#1 SMP PREEMPT_DYNAMIC @0");
	assert_string_equal(r->h.machine, "x86_64");
	assert_string_equal(r->h.platform, "unknown");
	assert_string_equal(r->h.runlevel, "");
	assert_int_equal(r->h.ncpus, 2);
	assert_string_equal(r->h.cpus[1].model, "AMD EPYC");
	assert_near(r->h.cpus[1].bogomips, 5192.3);
	assert_non_null(strstr(r->h.cpus[0].flags, "SYSCALL/SYSRET"));
	assert_int_equal(r->nblocks, 1);
	const struct ub_block *b = &r->blocks[0];
	assert_int_equal(b->copies, 1);
	assert_int_equal(b->cpus, 2);
	assert_string_equal(b->date, "2026-11-29");
	assert_string_equal(b->start, "22:36:13");
	assert_string_equal(b->end, "22:42:58");
	check_v6_full(b, true);
	const struct ub_test *w = find_test(b, "whetstone-double");
	assert_string_equal(w->unit, "MWIPS");
	assert_near(w->time_s, 10.1);
	assert_near(w->baseline, 55.0);
	ub_doc_free(&d);
}

static void text_report_v5(void **state)
{
	struct ub_doc d;
	parse_fixture("v5-full/vm-2026-11-29-01", &d);
	assert_int_equal(d.nresults, 1);
	const struct ub_result *r = &d.results[0];
	assert_string_equal(r->h.version, "5.1.3");
	assert_string_equal(r->h.runlevel, "unknown");
	const struct ub_block *b = &r->blocks[0];
	assert_int_equal(b->ntests, 12);
	assert_near(find_test(b, "dhry2reg")->result, 55342632.2);
	assert_near(find_test(b, "shell8")->time_s, 60.1);
	assert_near(b->score, 1089.9);
	ub_doc_free(&d);
}

static void text_report_multi(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-multi/vm-2026-11-29-02", &d);
	assert_int_equal(d.nresults, 1);
	const struct ub_result *r = &d.results[0];
	assert_int_equal(r->nblocks, 2);
	assert_int_equal(r->blocks[0].copies, 1);
	assert_int_equal(r->blocks[1].copies, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(r->blocks[i].ntests, 3);
		assert_true(r->blocks[i].partial);
	}
	assert_near(r->blocks[0].score, 737.5);
	assert_near(r->blocks[1].score, 1109.4);
	assert_near(find_test(&r->blocks[1], "spawn")->index, 702.5);
	ub_doc_free(&d);
}

/* 6.0.0's -b: no CPU lines */
static void text_report_brief(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-brief-i3/vm-2026-11-29-01", &d);
	const struct ub_result *r = &d.results[0];
	assert_int_equal(r->h.ncpus, 0);
	assert_non_null(r->h.uptime);
	assert_int_equal(r->nblocks, 2);
	assert_int_equal(find_test(&r->blocks[0], "pipe")->samples, 2);
	ub_doc_free(&d);
}

static void html_reports(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-multi/vm-2026-11-29-02.html", &d);
	assert_int_equal(d.formats, UB_FMT_HTML);
	assert_int_equal(d.nproblems, 0);
	const struct ub_result *r = &d.results[0];
	assert_string_equal(r->h.version, "6.0.0");
	assert_string_equal(r->h.hostname, "vm");
	assert_string_equal(r->h.machine, "x86_64");
	assert_string_equal(r->h.platform, "unknown");
	assert_int_equal(r->h.ncpus, 2);
	assert_non_null(r->h.cpus[1].flags);
	assert_int_equal(r->nblocks, 2);
	assert_int_equal(r->blocks[1].copies, 2);
	assert_int_equal(r->blocks[1].cpus, 2);
	assert_string_equal(r->blocks[1].date, "2026-11-29");
	assert_string_equal(r->blocks[1].start, "22:43:57");
	assert_string_equal(r->blocks[1].end, "22:44:56");
	const struct ub_test *t = find_test(&r->blocks[1], "pipe");
	assert_near(t->result, 2701063.8);
	assert_near(t->baseline, 12440.0);
	assert_near(t->index, 2171.3);
	assert_near(t->time_s, 10.0);
	assert_int_equal(t->samples, 1);
	assert_near(r->blocks[1].score, 1109.4);
	assert_true(r->blocks[1].partial);
	ub_doc_free(&d);

	parse_fixture("v6-full/vm-2026-11-29-01.html", &d);
	check_v6_full(&d.results[0].blocks[0], true);
	ub_doc_free(&d);
	parse_fixture("v5-full/vm-2026-11-29-01.html", &d);
	assert_string_equal(d.results[0].h.runlevel, "unknown");
	assert_near(d.results[0].blocks[0].score, 1089.9);
	ub_doc_free(&d);
}

static void logs(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-brief-i3/vm-2026-11-29-01.log", &d);
	assert_int_equal(d.formats, UB_FMT_LOG);
	assert_int_equal(d.nresults, 1);
	const struct ub_result *r = &d.results[0];
	assert_false(r->has_header);
	assert_int_equal(r->nblocks, 2);
	assert_int_equal(r->blocks[0].copies, 1);
	assert_int_equal(r->blocks[1].copies, 2);
	const struct ub_test *t = find_test(&r->blocks[1], "pipe");
	assert_int_equal(t->npasses, 3);
	assert_int_equal(t->passes[0].ncopies, 2);
	assert_near(t->result, 1304835.84);
	assert_int_equal(t->samples, 2);
	assert_string_equal(t->unit, "lps");
	assert_non_null(strstr(t->command, "pgms/pipe"));
	double count, time, timebase;
	ub_pass_value(&t->passes[0], &count, &time, &timebase);
	assert_near(timebase, 1);
	assert_true(count > 0 && time > 9.9 && time < 10.2);
	ub_doc_free(&d);

	/* Whetstone's table and fstime's lines are the programs' output, not tests */
	parse_fixture("v6-full/vm-2026-11-29-01.log", &d);
	assert_int_equal(d.nproblems, 0);
	const struct ub_test *w = find_test(&d.results[0].blocks[0], "whetstone-double");
	assert_int_equal(w->npasses, 1);
	assert_true(w->passes[0].copies[0].has_time);
	assert_near(w->passes[0].copies[0].time, 10.082);
	assert_near(w->result, 8470.498);
	ub_doc_free(&d);
}

static void csv(void **state)
{
	struct ub_doc d;
	parse_fixture("v6-brief-i3/vm-2026-11-29-01.csv", &d);
	assert_true(d.formats & UB_FMT_CSV);
	const struct ub_result *r = &d.results[0];
	assert_int_equal(r->nblocks, 2);
	assert_int_equal(r->blocks[1].copies, 2);
	assert_near(find_test(&r->blocks[1], "syscall")->result, 930059.5);
	ub_doc_free(&d);
}

static void run_output(void **state)
{
	struct ub_doc d;
	parse_fixture("run-output/ub6-full-c1.out", &d);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.formats, UB_FMT_REPORT | UB_FMT_RUN_OUTPUT);
	assert_string_equal(d.results[0].h.tmpdir, "/work/ub-6.0.0/tmp");
	assert_string_equal(d.results[0].h.resultdir, "/work/ub-6.0.0/results");
	check_v6_full(&d.results[0].blocks[0], true);
	ub_doc_free(&d);

	parse_fixture("run-output/ub5-multi-i3.out", &d);
	assert_int_equal(d.nresults, 1);
	assert_string_equal(d.results[0].h.version, "5.1.3");
	assert_int_equal(d.results[0].nblocks, 2);
	assert_near(d.results[0].blocks[1].score, 573.6);
	ub_doc_free(&d);

	static const char *const others[] = { "run-output/ub6-multi.out", "run-output/ub5-full-c1.out",
					      "run-output/ub6-brief-i3.out" };
	for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
		parse_fixture(others[i], &d);
		assert_int_equal(d.nresults, 1);
		assert_int_equal(d.nproblems, 0);
		ub_doc_free(&d);
	}
}

/* The .log beside a report gives its tests their passes. */
static void report_with_log(void **state)
{
	struct ub_doc rep, log;
	parse_fixture("v5-multi-i3/vm-2026-11-29-01", &rep);
	parse_fixture("v5-multi-i3/vm-2026-11-29-01.log", &log);
	assert_int_equal(ub_attach_log(&rep, &log), 4);
	const struct ub_test *t = find_test(&rep.results[0].blocks[1], "syscall");
	assert_int_equal(t->npasses, 3);
	assert_int_equal(t->passes[2].ncopies, 2);
	ub_doc_free(&log);
	/* a log of another run attaches nothing */
	parse_fixture("v6-brief-i3/vm-2026-11-29-01.log", &log);
	struct ub_doc other;
	parse_fixture("v6-multi/vm-2026-11-29-02", &other);
	assert_int_equal(ub_attach_log(&other, &log), 0);
	ub_doc_free(&other);
	ub_doc_free(&log);
	ub_doc_free(&rep);
}

/* ---- mangled ---- */

static void mangled_like_v6(void **state)
{
	static const struct {
		const char *file;
		unsigned mangling;
	} cases[] = {
		{ "mangled/crlf.txt", UB_MANGLE_CRLF },
		{ "mangled/nbsp.txt", UB_MANGLE_NBSP },
		{ "mangled/glued.txt", UB_MANGLE_GLUED },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ub_doc d;
		parse_fixture(cases[i].file, &d);
		if (d.nproblems)
			fail_msg("%s: %s", cases[i].file, d.problems[0].why);
		assert_int_equal(d.manglings, cases[i].mangling);
		assert_int_equal(d.nresults, 1);
		assert_string_equal(d.results[0].h.version, "6.0.0");
		assert_int_equal(d.results[0].h.ncpus, 2);
		assert_int_equal(d.results[0].blocks[0].copies, 1);
		check_v6_full(&d.results[0].blocks[0], true);
		ub_doc_free(&d);
	}
}

static void mangled_quoted_typographic(void **state)
{
	struct ub_doc d;
	parse_fixture("mangled/quoted.txt", &d);
	assert_int_equal(d.manglings, UB_MANGLE_QUOTED);
	assert_int_equal(d.nproblems, 0);
	assert_string_equal(d.results[0].h.version, "5.1.3");
	assert_int_equal(d.results[0].blocks[0].ntests, 12);
	assert_near(d.results[0].blocks[0].score, 1089.9);
	ub_doc_free(&d);

	parse_fixture("mangled/typographic.txt", &d);
	assert_true(d.manglings & UB_MANGLE_TYPOGRAPHIC);
	assert_int_equal(d.nproblems, 0);
	const struct ub_result *r = &d.results[0];
	assert_string_equal(r->h.os, "GNU/Linux");
	assert_string_equal(r->h.os_release, "6.18.44-fc-v669");
	assert_non_null(strstr(r->h.language, "charmap=\"ANSI_X3.4-1968\""));
	assert_int_equal(r->blocks[0].ntests, 12);
	assert_near(find_test(&r->blocks[0], "fstime")->result, 716023.0);
	ub_doc_free(&d);
}

static void mangled_wrapped(void **state)
{
	struct ub_doc d;
	parse_fixture("mangled/wrapped.txt", &d);
	assert_true(d.manglings & UB_MANGLE_WRAPPED);
	assert_int_equal(d.nproblems, 0);
	const struct ub_result *r = &d.results[0];
	assert_non_null(strstr(r->h.uptime, "0.97"));
	assert_int_equal(r->nblocks, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(r->blocks[i].ntests, 3);
		assert_true(r->blocks[i].has_score);
	}
	const struct ub_test *t = find_test(&r->blocks[0], "pipe");
	assert_near(t->result, 1315224.4);
	assert_near(t->time_s, 10.0);
	assert_near(t->baseline, 12440.0);
	assert_near(t->index, 1057.3);
	assert_near(r->blocks[1].score, 1109.4);
	ub_doc_free(&d);
}

static void index_tables(void **state)
{
	struct ub_doc d;
	parse_fixture("mangled/index-only.txt", &d);
	assert_int_equal(d.formats, UB_FMT_TABLE);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->copies, 0);
	check_v6_full(b, false);
	ub_doc_free(&d);

	parse_fixture("mangled/index-column.txt", &d);
	assert_int_equal(d.nproblems, 0);
	b = &d.results[0].blocks[0];
	assert_int_equal(b->ntests, 12);
	const struct ub_test *t = find_test(b, "context1");
	assert_false(t->has_result);
	assert_near(t->index, 78.6);
	assert_near(b->score, 1084.8);
	ub_doc_free(&d);

	/* a lone number with neither header nor score: result or index? */
	assert_int_equal(parse_text("Pipe Throughput   1149.6\nProcess Creation  437.5\n", &d), -ENOMSG);
	assert_int_equal(d.nproblems, 2);
	assert_non_null(strstr(d.problems[0].why, "lone number"));
	ub_doc_free(&d);
}

/* Numbers UnixBench never prints (1e308, negative, NaN, inf, a baseline of
 * 0) are a problem of their line, never a value: the row is left out. */
static void absurd_numbers(void **state)
{
	static const char *const rows[] = {
		"0.0   41920798.1   1e308", "116700.0   41920798.1   1e308", "116700.0   1e308   3592.2",
		"116700.0   41920798.1   -3592.2", "116700.0   41920798.1   NaN", "116700.0   inf   3592.2",
		"0.0   41920798.1   3592.2", "0   41920798.1   inf",
	};
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		_cleanup_free_ char *text = xasprintf(
			"System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
			"Dhrystone 2 using register variables         %s\n"
			"Double-Precision Whetstone                       55.0       8470.5   1540.1\n",
			rows[i]);
		struct ub_doc d;
		assert_int_equal(parse_text(text, &d), 0);
		if (d.nproblems != 1 || d.problems[0].line != 2)
			fail_msg("'%s': %zu problems, the first on line %u", rows[i], d.nproblems,
				 d.nproblems ? d.problems[0].line : 0);
		const struct ub_block *b = &d.results[0].blocks[0];
		for (size_t k = 0; k < b->ntests; k++)
			if (streq(b->tests[k].info->id, "dhry2reg") && (b->tests[k].has_index || b->tests[k].has_baseline))
				fail_msg("'%s' was read as a value", rows[i]);
		assert_near(find_test(b, "whetstone-double")->index, 1540.1);
		ub_doc_free(&d);
	}
}

static void several_runs_and_no_header(void **state)
{
	struct ub_doc d;
	parse_fixture("mangled/several-runs.txt", &d);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(d.nproblems, 0);
	assert_string_equal(d.results[0].h.version, "6.0.0");
	assert_string_equal(d.results[1].h.version, "5.1.3");
	check_v6_full(&d.results[0].blocks[0], true);
	assert_near(d.results[1].blocks[0].score, 1089.9);
	ub_doc_free(&d);

	parse_fixture("mangled/no-header.txt", &d);
	assert_int_equal(d.nresults, 1);
	assert_false(d.results[0].has_header);
	assert_int_equal(d.results[0].nblocks, 2);
	assert_int_equal(d.results[0].blocks[1].copies, 2);
	ub_doc_free(&d);

	/* two headerless 1-copy runs are two runs, not one */
	_cleanup_free_ char *twice = NULL;
	size_t len;
	_cleanup_free_ char *tables = slurp(LOGS "mangled/no-header.txt", &len);
	twice = xasprintf("%s\n%s", tables, tables);
	assert_int_equal(parse_text(twice, &d), 0);
	assert_int_equal(d.nresults, 2);
	ub_doc_free(&d);
}

/* Headers of other machines: arm64 CPU lines (6.0.0), a release file's
 * system name, graphics, uptimes of days and hours; the partial
 * environment record made of them. */
/* What the text around a pasted table says: its copies, its title, a
 * localized date, a "0 CPUs in system" header. */
static void text_around_tables(void **state)
{
	(void)state;
	struct ub_doc d;
	parse_fixture("mangled/blog-zh-copies.md", &d);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.results[0].nblocks, 2);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->copies, 1);
	assert_true(b->copies_from_text);
	assert_string_equal(b->label, "单线程测试");
	assert_near(b->score, 737.5);
	b = &d.results[0].blocks[1];
	assert_int_equal(b->copies, 2);
	assert_string_equal(b->label, "2线程测试");
	assert_near(b->score, 1109.4);
	ub_doc_free(&d);

	parse_fixture("mangled/run-c.txt", &d);
	assert_int_equal(d.results[0].blocks[0].copies, 2);
	assert_null(d.results[0].blocks[0].label);
	ub_doc_free(&d);

	/* "./Run -c 1 -c 8": in order; a "running N" line wins over the command */
	assert_int_equal(parse_text("$ ./Run -c 1 -c 8 pipe\n"
				    "Before:\n"
				    "Pipe Throughput   12440.0  1315224.4  1057.3\n"
				    "Pipe Throughput   12440.0  2701063.8  2171.3\n"
				    "After:\n"
				    "2 CPUs in system; running 2 parallel copies of tests\n"
				    "Pipe Throughput   12440.0  2701063.8  2171.3\n",
				    &d),
			 0);
	size_t n = 0;
	unsigned copies[4] = {0};
	const char *labels[4] = {0};
	for (size_t i = 0; i < d.nresults; i++)
		for (size_t k = 0; k < d.results[i].nblocks && n < 4; k++, n++) {
			copies[n] = d.results[i].blocks[k].copies;
			labels[n] = d.results[i].blocks[k].label;
		}
	assert_int_equal(n, 3);
	assert_int_equal(copies[0], 1);
	assert_int_equal(copies[1], 8);
	assert_int_equal(copies[2], 2);
	assert_string_equal(labels[0], "Before");
	assert_string_equal(labels[1], "Before");
	assert_string_equal(labels[2], "After");
	ub_doc_free(&d);

	/* a Markdown heading ends what a plain title counted: the spec list of a
	 * VPS review (catcat-crunchbits-17-vds.md of the published corpus) does
	 * not count the copies of the run under its later heading;
	 * "1 parallel:" still counts the one under "before:" (deepin-kernel-pr485.txt) */
	assert_int_equal(parse_text("## 套餐\n\n"
				    "- 1 core / 2 threads \\[DEDICATED\\]\n\n"
				    "- 4GB DDR5 (4800MHz)\n\n"
				    "## **UnixBench**\n\n"
				    "Dhrystone 2 using register variables       79349675.4 lps   (10.0 s, 7 samples)\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 0);
	assert_string_equal(d.results[0].blocks[0].label, "**UnixBench**");
	ub_doc_free(&d);
	assert_int_equal(parse_text("1 parallel:\n"
				    "before:\n"
				    "Dhrystone 2 using register variables         116700.0   40211977.7   3445.8\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 1);
	ub_doc_free(&d);
	/* a deeper heading stays inside the section its parent counted */
	assert_int_equal(parse_text("## 2 threads\n"
				    "### before\n"
				    "Dhrystone 2 using register variables         116700.0   40211977.7   3445.8\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 2);
	ub_doc_free(&d);

	/* nothing says: copies unknown, and no title from a sentence */
	assert_int_equal(parse_text("Here are the numbers we got on the new board, as printed.\n"
				    "Pipe Throughput   12440.0  1315224.4  1057.3\n",
				    &d),
			 0);
	assert_int_equal(d.results[0].blocks[0].copies, 0);
	assert_null(d.results[0].blocks[0].label);
	ub_doc_free(&d);

	parse_fixture("mangled/locale-date.txt", &d);
	assert_string_equal(d.results[0].blocks[0].date, "2026-11-29");
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);

	assert_int_equal(parse_text("0 CPUs in system; running 1 parallel copy of tests\n"
				    "Pipe Throughput   1315224.4 lps   (10.0 s, 7 samples)\n",
				    &d),
			 0);
	assert_true(d.results[0].blocks[0].cpus_said);
	assert_int_equal(d.results[0].blocks[0].cpus, 0);
	ub_doc_free(&d);
}

/* Layouts of pasted tables: graphics index blocks beside the system one,
 * one column per run, the .html's table as Markdown, "COPIES -> INDEX". */
static void pasted_layouts(void **state)
{
	(void)state;
	struct ub_doc d;
	assert_int_equal(parse_text("1 CPU in system; running 1 parallel copy of tests\n"
				    "System Benchmarks Partial Index              BASELINE       RESULT    INDEX\n"
				    "Pipe Throughput                               12440.0    1315224.4   1057.3\n"
				    "                                                                   ========\n"
				    "System Benchmarks Index Score (Partial Only)                          1057.3\n"
				    "2D Graphics Benchmarks Index Values          BASELINE       RESULT    INDEX\n"
				    "2D graphics: rectangles                          15.0        301.2    200.8\n"
				    "                                                                   ========\n"
				    "2D Graphics Benchmarks Index Score                                    200.8\n"
				    "3D Graphics Benchmarks Index Values          BASELINE       RESULT    INDEX\n"
				    "3D graphics: gears                               33.4       3207.0    960.2\n"
				    "                                                                   ========\n"
				    "3D Graphics Benchmarks Index Score                                    960.2\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.results[0].nblocks, 1);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->ntests, 3);
	assert_near(b->score, 1057.3);
	assert_true(b->partial);
	assert_true(b->has_graphics_score[0] && b->has_graphics_score[1]);
	assert_near(b->graphics_score[0], 200.8);
	assert_near(b->graphics_score[1], 960.2);
	ub_doc_free(&d);

	parse_fixture("mangled/comparison.md", &d);
	assert_int_equal(d.nresults, 2);
	static const char *const titles[] = { "after-patch", "before-patch" };
	static const double scores[] = { 1084.8, 1089.9 }, dhry[] = { 3592.2, 4742.3 };
	for (size_t i = 0; i < 2; i++) {
		b = &d.results[i].blocks[0];
		assert_string_equal(b->label, titles[i]);
		assert_int_equal(b->copies, 1);
		assert_int_equal(b->ntests, 12);
		assert_near(b->score, scores[i]);
		assert_near(find_test(b, "dhry2reg")->index, dhry[i]);
	}
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);

	/* GitHub's table without borders, thousands separators, a ratio column, copies in the
	 * titles: columns that differ only in their copies are one run at two copy counts */
	assert_int_equal(parse_text("<html><body>\n  | 1P | 160P | 160P/1P\n-- | -- | -- | --\n"
				    "File Copy   1024 bufsize 2000 maxblocks | 4,151 | 2,477 | 59.68%\n"
				    "File Copy 256   bufsize 500 maxblocks | 2,816 | 1,554 | 55.16%\n</body></html>\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.results[0].nblocks, 2);
	assert_string_equal(d.results[0].blocks[0].label, "1P");
	assert_string_equal(d.results[0].blocks[1].label, "160P");
	assert_int_equal(d.results[0].blocks[0].copies, 1);
	assert_int_equal(d.results[0].blocks[1].copies, 160);
	assert_near(find_test(&d.results[0].blocks[0], "fstime")->index, 4151);
	assert_near(find_test(&d.results[0].blocks[1], "fstime")->index, 2477);
	assert_near(find_test(&d.results[0].blocks[1], "fsbuffer")->index, 1554);
	ub_doc_free(&d);

	/* two columns at the same copies are two conditions: a result each */
	assert_int_equal(parse_text("| Test | 8 copies before | 8 copies after |\n|--|--|--|\n"
				    "| Pipe Throughput | 1149.6 | 1230.4 |\n",
				    &d),
			 0);
	assert_int_equal(d.nresults, 2);
	assert_int_equal(d.results[0].blocks[0].copies, 8);
	assert_int_equal(d.results[1].blocks[0].copies, 8);
	assert_near(find_test(&d.results[1].blocks[0], "pipe")->index, 1230.4);
	ub_doc_free(&d);

	assert_int_equal(parse_text("`Benchmark Run: 8 CPUs; 8 parallel processes`\n\n"
				    "|Test|Score|Unit|Time|Iters.|Baseline|Index|\n|:--|:--|:--|:--|:--|:--|:--|\n"
				    "|Execl Throughput|19268.2|lps|30.0 s|2|43.0|4481.0|\n"
				    "|Pipe Throughput||lps|10.0 s|7|12440.0||\n"
				    "|System Benchmarks Index Score:||||||4140.6|\n",
				    &d),
			 0);
	b = &d.results[0].blocks[0];
	assert_int_equal(b->copies, 8);
	assert_int_equal(b->ntests, 1);
	assert_near(find_test(b, "execl")->result, 19268.2);
	assert_near(find_test(b, "execl")->index, 4481.0);
	assert_int_equal(find_test(b, "execl")->samples, 2);
	assert_near(b->score, 4140.6);
	ub_doc_free(&d);

	/* Run's index table as Markdown: its columns are one run's, not three; titled in another
	 * language, the first row's baseline, result and index (10 x result / baseline) say so */
	static const struct {
		const char *text;
		unsigned copies;
		double dhry, pipe, score;
	} index_tables[] = {
		{ "8 copies:\n\n| System Benchmarks Index Values | BASELINE | RESULT | INDEX |\n"
		  "| --- | --- | --- | --- |\n"
		  "| Dhrystone 2 using register variables | 116700.0 | 30971628.9 | 2653.9 |\n"
		  "| Pipe Throughput | 12440.0 | 1045565.9 | 840.5 |\n"
		  "| System Benchmarks Index Score | | | 1493.6 |\n",
		  8, 30971628.9, 840.5, 1493.6 },
		{ "#### 单核心\n\n| 测试项 | 标准 | 结果 | 指数 |\n|---|---|---|---|\n"
		  "| Dhrystone 2 using register variables  | 116700.0 | 33727286.8 | 2890.1 |\n"
		  "| Pipe Throughput                       | 12440.0  | 955146.0   | 767.8  |\n"
		  "| System Benchmarks Index Score         |          | 799.3      |        |\n",
		  1, 33727286.8, 767.8, 799.3 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(index_tables); i++) {
		assert_int_equal(parse_text(index_tables[i].text, &d), 0);
		assert_int_equal(d.nresults, 1);
		assert_int_equal(d.results[0].nblocks, 1);
		b = &d.results[0].blocks[0];
		assert_int_equal(b->copies, index_tables[i].copies);
		assert_int_equal(b->ntests, 2);
		assert_near(find_test(b, "dhry2reg")->baseline, 116700.0);
		assert_near(find_test(b, "dhry2reg")->result, index_tables[i].dhry);
		assert_near(find_test(b, "pipe")->index, index_tables[i].pipe);
		assert_near(b->score, index_tables[i].score);
		ub_doc_free(&d);
	}
	/* three columns of indexes are three runs */
	assert_int_equal(parse_text("| Test | A | B | C |\n|--|--|--|--|\n| Pipe Throughput | 767.8 | 770.1 | 801.4 |\n", &d), 0);
	assert_int_equal(d.nresults, 3);
	ub_doc_free(&d);
	/* titled in other letters, fewer columns */
	assert_int_equal(parse_text("| Test | Result | Index |\n|--|--|--|\n| Execl Throughput | 3117.6 | 725.0 |\n", &d), 0);
	assert_int_equal(d.nresults, 1);
	assert_near(find_test(&d.results[0].blocks[0], "execl")->result, 3117.6);
	assert_near(find_test(&d.results[0].blocks[0], "execl")->index, 725.0);
	ub_doc_free(&d);

	assert_int_equal(parse_text("./Run -c $COPIES -i 1 fstime:\n\n$COPIES -> INDEX\n1 -> 3397.4\n8  -> 1646.2\n", &d), 0);
	assert_int_equal(d.results[0].nblocks, 2);
	assert_int_equal(d.results[0].blocks[1].copies, 8);
	assert_near(find_test(&d.results[0].blocks[1], "fstime")->index, 1646.2);
	assert_near(d.results[0].blocks[1].score, 1646.2);
	ub_doc_free(&d);
}

/* Mail encodings, the score glued to the rule, UnixBench 4.1.0's layout. */
static void mail_and_old_layouts(void **state)
{
	(void)state;
	struct ub_doc d;
	static const char *const v6[] = { "mangled/mail-qp.txt", "mangled/score-glued.txt" };
	for (size_t i = 0; i < ARRAY_SIZE(v6); i++) {
		parse_fixture(v6[i], &d);
		assert_int_equal(d.nresults, 1);
		check_v6_full(&d.results[0].blocks[0], true);
		assert_near(d.results[0].blocks[0].score, 1084.8);
		assert_int_equal(d.nproblems, 0);
		ub_doc_free(&d);
	}
	parse_fixture("mangled/mail-qp.txt", &d);
	assert_true(d.manglings & UB_MANGLE_MAIL);
	ub_doc_free(&d);

	parse_fixture("mangled/mail-flowed.txt", &d);
	assert_true(d.manglings & UB_MANGLE_MAIL);
	assert_int_equal(d.results[0].blocks[0].ntests, 12);
	assert_near(d.results[0].blocks[0].score, 1089.9);
	assert_string_equal(d.results[0].h.version, "5.1.3");
	ub_doc_free(&d);

	parse_fixture("mangled/v4-layout.txt", &d);
	assert_int_equal(d.nresults, 1);
	const struct ub_result *r = &d.results[0];
	assert_string_equal(r->h.version, "4.1.0");
	assert_int_equal(r->nblocks, 1);
	const struct ub_block *b = &r->blocks[0];
	assert_int_equal(b->copies, 1);
	assert_string_equal(b->date, "2026-11-29");
	assert_string_equal(b->start, "22:44:56");
	assert_near(b->score, 1213.1);
	assert_int_equal(b->ntests, 13);
	assert_near(find_test(b, "dhry2reg")->result, 55342632.2);
	assert_near(find_test(b, "dhry2reg")->index, 4742.3);
	assert_near(find_test(b, "dhry2reg")->time_s, 10.0);
	assert_false(find_test(b, "context1")->has_index);
	assert_int_equal(d.nproblems, 0);
	ub_doc_free(&d);
}

/* A site that rewrites "Benchmark" as "BenchMark" wherever it appears: Run's
 * lines are read again, prose and headings keep their letters. */
static void letter_case(void **state)
{
	(void)state;
	static const char text[] =
		"### My BENCHMARK notes\n"
		"   BYTE UNIX BenchMarks (Version 5.1.3)\n"
		"   System: catcat: GNU/Linux\n"
		"------------------------------------------------------------------------\n"
		"BenchMark Run: Fri Jan 12 2024 03:51:44 - 04:19:44\n"
		"0 CPUs in system; running 1 parallel copy of tests\n"
		"Pipe Throughput                             1641870.5 lps   (10.0 s, 7 samples)\n"
		"System BenchMarks Index Values               BASELINE       RESULT    INDEX\n"
		"Pipe Throughput                               12440.0    1641870.5   1319.8\n"
		"                                                                   ========\n"
		"System BenchMarks Index Score                                        1319.8\n";
	struct ub_doc d;
	assert_int_equal(parse_text(text, &d), 0);
	assert_int_equal(d.manglings, UB_MANGLE_CASE);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	assert_string_equal(d.results[0].h.version, "5.1.3");
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_string_equal(b->label, "My BENCHMARK notes");
	assert_string_equal(b->date, "2024-01-12");
	assert_true(b->cpus_said);
	assert_int_equal(b->cpus, 0);
	assert_int_equal(b->ntests, 1);
	assert_near(find_test(b, "pipe")->index, 1319.8);
	assert_true(b->has_score);
	assert_near(b->score, 1319.8);
	ub_doc_free(&d);

	/* the word in another case where no line of Run's comes of it stays */
	assert_int_equal(parse_text("UnixBench BenchMark Results:\n"
				    "Pipe Throughput                             1641870.5 lps   (10.0 s, 7 samples)\n",
				    &d),
			 0);
	assert_int_equal(d.manglings, 0);
	ub_doc_free(&d);
}

/* UnixBench 4.1-wht's report set as a Markdown code block: every line
 * indented by four spaces, File Read 4096 in the index, a test that could
 * not run (Process Creation 1.0, index 0.0) and the FINAL SCORE. */
static void v4_indented(void **state)
{
	(void)state;
	static const char text[] =
		"下面是 UNIX Benchmarks 的测评结果:\n"
		"\n"
		"    BYTE UNIX Benchmarks (Version 4.1-wht.2)\n"
		"    System -- Linux vps 2.6.27 #1 SMP Mon Jun 13 17:16:12 UTC 2011 x86_64 GNU/Linux\n"
		"    /dev/simfs            62914560    812072  62102488   2% /\n"
		"    \n"
		"    Start Benchmark Run: Sat Jul 16 10:21:35 UTC 2011\n"
		"     10:21:35 up 17:30,  1 user,  load average: 0.00, 0.03, 0.01\n"
		"    \n"
		"    End Benchmark Run: Sat Jul 16 10:34:26 UTC 2011\n"
		"     10:34:26 up 17:43,  1 user,  load average: 13.25, 5.34, 2.38\n"
		"    \n"
		"                         INDEX VALUES\n"
		"    TEST                                        BASELINE     RESULT      INDEX\n"
		"    \n"
		"    Dhrystone 2 using register variables        376783.7 21991555.2      583.7\n"
		"    File Read 4096 bufsize 8000 maxblocks        15382.0  1844144.0     1198.9\n"
		"    Process Creation                               569.3        1.0        0.0\n"
		"                                                                     =========\n"
		"         FINAL SCORE                                                     222.8\n";
	struct ub_doc d;
	assert_int_equal(parse_text(text, &d), 0);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	assert_string_equal(d.results[0].h.version, "4.1-wht.2");
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_string_equal(b->date, "2011-07-16");
	assert_string_equal(b->start, "10:21:35");
	assert_int_equal(b->ntests, 3);
	assert_near(find_test(b, "dhry2reg")->index, 583.7);
	assert_near(find_test(b, "fsdisk-r")->result, 1844144.0);
	assert_near(find_test(b, "spawn")->result, 1.0);
	assert_true(find_test(b, "spawn")->has_index);
	assert_near(find_test(b, "spawn")->index, 0.0);
	assert_near(b->score, 222.8);
	ub_doc_free(&d);
}

/* The Benchmark Run date as other locales print "%a %b %d %Y": the month's
 * name in Spanish, German, French, Italian, Portuguese and Swedish, and the
 * zh_CN and ja_JP "11月" (ja_JP pads a one-digit month with a space). */
static void localized_dates(void **state)
{
	(void)state;
	static const struct {
		const char *run, *date;
	} cases[] = {
		{ "mi\xc3\xa9 abr 26 2017 08:19:56 - 08:48:07", "2017-04-26" },
		{ "Di Dez 05 2023 10:00:00 - 10:28:00", "2023-12-05" },
		{ "Mi M\xc3\xa4r 13 2024 10:00:00 - 10:28:00", "2024-03-13" },
		{ "jeu. f\xc3\xa9vr. 09 2023 10:00:00 - 10:28:00", "2023-02-09" },
		{ "ven. ao\xc3\xbbt 04 2023 10:00:00 - 10:28:00", "2023-08-04" },
		{ "gio ott 12 2023 10:00:00 - 10:28:00", "2023-10-12" },
		{ "qui out 12 2023 10:00:00 - 10:28:00", "2023-10-12" },
		{ "l\xc3\xb6r mar 28 2015 05:03:04 - 05:31:19", "2015-03-28" },
		{ "\xe6\x97\xa5 11\xe6\x9c\x88 29 2026 22:36:13 - 22:44:56", "2026-11-29" },
		{ "\xe7\x81\xab  8\xe6\x9c\x88 13 2013 16:06:47 - 16:34:54", "2013-08-13" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *text = xasprintf("Benchmark Run: %s\n"
						      "1 CPU in system; running 1 parallel copy of tests\n"
						      "Pipe Throughput 2084722.8 lps (10.0 s, 7 samples)\n",
						      cases[i].run);
		struct ub_doc d;
		assert_int_equal(parse_text(text, &d), 0);
		assert_int_equal(d.nproblems, 0);
		assert_non_null(d.results[0].blocks[0].date);
		assert_string_equal(d.results[0].blocks[0].date, cases[i].date);
		ub_doc_free(&d);
	}
	/* a month no locale of these names is no date, never a guessed one */
	struct ub_doc d;
	assert_int_equal(parse_text("Benchmark Run: Sun Xyz 29 2026 22:36:13 - 22:44:56\n"
				    "1 CPU in system; running 1 parallel copy of tests\n"
				    "Pipe Throughput 2084722.8 lps (10.0 s, 7 samples)\n",
				    &d),
			 0);
	assert_null(d.results[0].blocks[0].date);
	ub_doc_free(&d);
}

/* The header's load average as the record holds it: a locale with decimal
 * commas ("0,08, 0,03, 0,07") reads as with points; one that cannot be
 * told apart ("1,2,3") is no load average. */
static void decimal_comma_load(void **state)
{
	(void)state;
	static const struct {
		const char *uptime;
		double load[3];
		bool known;
	} cases[] = {
		{ "05:03:04 up 16:24,  2 users,  load average: 0,08, 0,03, 0,07; runlevel 2", { 0.08, 0.03, 0.07 }, true },
		{ "08:19:55 up 12 min, 1 user, load average: 1,03, 1,74, 1,31; runlevel 2017-04-26", { 1.03, 1.74, 1.31 },
		  true },
		{ "10:21:35 up 17:30,  1 user,  load average: 13.25, 5.34, 2.38; runlevel 3", { 13.25, 5.34, 2.38 }, true },
		{ "10:21:35 up 17:30,  1 user,  load average: 1,2,3; runlevel 3", { 0 }, false },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *text = xasprintf("BYTE UNIX Benchmarks (Version 5.1.3)\n"
						      "System: pc: GNU/Linux\n"
						      "%s\n"
						      "Benchmark Run: Sat Mar 28 2015 05:03:04 - 05:31:19\n"
						      "1 CPU in system; running 1 parallel copy of tests\n"
						      "Pipe Throughput 2084722.8 lps (10.0 s, 7 samples)\n",
						      cases[i].uptime);
		struct ub_doc d;
		assert_int_equal(parse_text(text, &d), 0);
		struct ub_import_opts o = { .source = "pasted" };
		_cleanup_json_ json_object *recs = ub_import_records(&d, &o);
		json_object *load = jpath(json_object_array_get_idx(recs, 0), "environment.before.host.load_avg");
		if (!cases[i].known) {
			assert_null(load);
		} else {
			assert_int_equal(json_object_array_length(load), 3);
			for (size_t k = 0; k < 3; k++)
				assert_near(json_object_get_double(json_object_array_get_idx(load, k)), cases[i].load[k]);
		}
		ub_doc_free(&d);
	}
}

/* A paste site's rendering: every line numbered ("  12. ") or bulleted
 * ("- "); UnixBench 4.1-wht's header ends with "End Benchmark Run:" and the
 * uptime then, whose three load averages are no table row. */
static void listed_pastes(void **state)
{
	(void)state;
	static const char numbered[] =
		"  1. BYTE UNIX Benchmarks (Version 5.1.3)\n"
		"  2.  \n"
		"  3. System: vps: GNU/Linux\n"
		"  4. 10:00:27 up 1 day, 19:03, 1 user, load average: 0.01, 0.14, 0.08; runlevel 3\n"
		"  5.  \n"
		"  6. ------------------------------------------------------------------------\n"
		"  7. Benchmark Run: Fri Jan 04 2013 10:00:27 - 10:03:11\n"
		"  8. 1 CPU in system; running 1 parallel copy of tests\n"
		"  9.  \n"
		"  10. Double-Precision Whetstone 2955.0 MWIPS (10.0 s, 7 samples)\n"
		"  11.  \n"
		"  12. System Benchmarks Partial Index BASELINE RESULT INDEX\n"
		"  13. Double-Precision Whetstone 55.0 2955.0 537.3\n"
		"  14. ========\n"
		"  15. System Benchmarks Index Score (Partial Only) 537.3\n";
	struct ub_doc d;
	assert_int_equal(parse_text(numbered, &d), 0);
	assert_int_equal(d.manglings, UB_MANGLE_LISTED);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->cpus, 1);
	assert_int_equal(b->copies, 1);
	assert_int_equal(b->ntests, 1);
	assert_near(find_test(b, "whetstone-double")->result, 2955.0);
	assert_near(find_test(b, "whetstone-double")->index, 537.3);
	assert_near(b->score, 537.3);
	ub_doc_free(&d);

	static const char bulleted[] =
		"- ==============================================================\n"
		"- BYTE UNIX Benchmarks (Version 4.1-wht.2)\n"
		"- System -- Linux vps 2.6.18 #1 SMP x86_64 GNU/Linux\n"
		"- Start Benchmark Run: Wed Nov 17 10:53:44 EST 2010\n"
		"- 10:53:44 up 8:21, 1 user, load average: 0.00, 0.00, 0.00\n"
		"- End Benchmark Run: Wed Nov 17 11:03:50 EST 2010\n"
		"- 11:03:50 up 8:31, 2 users, load average: 15.80, 6.40, 2.73\n"
		"- INDEX VALUES\n"
		"- TEST BASELINE RESULT INDEX\n"
		"- Dhrystone 2 using register variables 376783.7 22647400.3 601.1\n"
		"- File Read 4096 bufsize 8000 maxblocks 15382.0 2138334.0 1390.2\n"
		"- Pipe Throughput 111814.6 3675161.6 328.7\n"
		"- =========\n"
		"- FINAL SCORE 650.0\n";
	assert_int_equal(parse_text(bulleted, &d), 0);
	assert_int_equal(d.manglings, UB_MANGLE_LISTED);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	assert_string_equal(d.results[0].h.version, "4.1-wht.2");
	assert_int_equal(d.results[0].nblocks, 1);
	b = &d.results[0].blocks[0];
	assert_int_equal(b->ntests, 3);
	assert_near(find_test(b, "dhry2reg")->index, 601.1);
	assert_near(find_test(b, "pipe")->result, 3675161.6);
	assert_near(b->score, 650.0);
	/* its score counts every row of its table, File Read 4096 too: no mismatch to note, only
	 * that its baselines are 4.1-wht's own */
	struct ub_import_opts wht = { .source = "pasted" };
	_cleanup_json_ json_object *wrecs = ub_import_records(&d, &wht);
	json_object *wnotes = jpath(json_object_array_get_idx(wrecs, 0), "import.notes");
	assert_int_equal(json_object_array_length(wnotes), 1);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(wnotes, 0)), "baselines of its own"));
	ub_doc_free(&d);

	/* decimal commas ("3363,7") are numbers; "4,151" stays a thousands separator */
	static const char commas[] =
		"INDEX VALUES\n"
		"TEST BASELINE RESULT INDEX\n"
		"Dhrystone 2 using register variables 116700,0 13885300,2 1189,8\n"
		"Double-Precision Whetstone 55,0 3363,7 611,6\n"
		"=========\n"
		"FINAL SCORE 853,1\n";
	assert_int_equal(parse_text(commas, &d), 0);
	assert_int_equal(d.nproblems, 0);
	b = &d.results[0].blocks[0];
	assert_near(find_test(b, "dhry2reg")->result, 13885300.2);
	assert_near(find_test(b, "dhry2reg")->baseline, 116700.0);
	assert_near(find_test(b, "whetstone-double")->index, 611.6);
	assert_near(b->score, 853.1);
	ub_doc_free(&d);

	/* a page that lost its line breaks: the index header glued to its first
	 * row ("INDEXDhrystone"), the score to the rule after it */
	static const char glued[] =
		"4 CPUs in system; running 1 parallel copy of tests Dhrystone 2 using register variables "
		"30971628.9 lps (10.0 s, 7 samples) Double-Precision Whetstone 3928.1 MWIPS (12.4 s, 7 samples)"
		"System Benchmarks Index Values BASELINE RESULT INDEXDhrystone 2 using register variables "
		"116700.0 30971628.9 2654.0Double-Precision Whetstone 55.0 3928.1 714.2\n"
		"========\n"
		"System Benchmarks Index Score 1376.7 ------------------------------------------------------------\n";
	assert_int_equal(parse_text(glued, &d), 0);
	assert_int_equal(d.nproblems, 0);
	assert_true(d.manglings & UB_MANGLE_GLUED);
	b = &d.results[0].blocks[0];
	assert_int_equal(b->copies, 1);
	assert_int_equal(b->ntests, 2);
	assert_near(find_test(b, "dhry2reg")->index, 2654.0);
	assert_near(find_test(b, "whetstone-double")->result, 3928.1);
	assert_near(b->score, 1376.7);
	ub_doc_free(&d);

	/* a Spanish locale: "mié abr 26 2017" and a load of "1,03, 1,74, 1,31" */
	static const char spanish[] =
		"BYTE UNIX Benchmarks (Version 5.1.3)\n"
		"System: PC: GNU/Linux\n"
		"08:19:55 up 12 min, 1 user, load average: 1,03, 1,74, 1,31; runlevel 2017-04-26\n"
		"Benchmark Run: mi\xc3\xa9 abr 26 2017 08:19:56 - 08:48:07\n"
		"1 CPU in system; running 1 parallel copy of tests\n"
		"Pipe Throughput 2084722.8 lps (10.0 s, 7 samples)\n";
	assert_int_equal(parse_text(spanish, &d), 0);
	assert_int_equal(d.nproblems, 0);
	assert_string_equal(d.results[0].blocks[0].date, "2017-04-26");
	struct ub_import_opts o = { .source = "pasted" };
	_cleanup_json_ json_object *recs = ub_import_records(&d, &o);
	json_object *load = jpath(json_object_array_get_idx(recs, 0), "environment.before.host.load_avg");
	assert_int_equal(json_object_array_length(load), 3);
	assert_true(fabs(json_object_get_double(json_object_array_get_idx(load, 0)) - 1.03) < 1e-9);
	assert_true(fabs(json_object_get_double(json_object_array_get_idx(load, 2)) - 1.31) < 1e-9);
	ub_doc_free(&d);

	/* a Markdown list among prose is no numbered paste */
	static const char prose[] =
		"Results:\n"
		"1. the first run\n"
		"Dhrystone 2 using register variables 116700.0 30971628.9 2654.0\n"
		"System Benchmarks Index Score 2654.0\n";
	assert_int_equal(parse_text(prose, &d), 0);
	assert_false(d.manglings & UB_MANGLE_LISTED);
	ub_doc_free(&d);
}

/* A code-hosting page copied as text: every line of the file a row of the
 * page's table, " | |" after it and, for a framed file, "| " before it. */
static void table_cell_rows(void **state)
{
	(void)state;
	static const char rows[] =
		"BYTE UNIX Benchmarks (Version 5.1.3) | |\n"
		"13:13:19 up 1 day, 21:06, 1 user, load average: 0.00, 0.00, 0.00; runlevel 2 | |\n"
		"Benchmark Run: Fri Jun 01 2012 13:13:19 - 13:41:22 | |\n"
		"1 CPU in system; running 1 parallel copy of tests | |\n"
		"Dhrystone 2 using register variables 40932482.6 lps (10.0 s, 7 samples) | |\n"
		"Double-Precision Whetstone 4332.1 MWIPS (9.9 s, 7 samples) | |\n"
		"System Benchmarks Index Values BASELINE RESULT INDEX | |\n"
		"Dhrystone 2 using register variables 116700.0 40932482.6 3507.5 | |\n";
	struct ub_doc d;
	assert_int_equal(parse_text(rows, &d), 0);
	assert_int_equal(d.manglings, UB_MANGLE_CELLS);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->copies, 1);
	assert_int_equal(b->ntests, 2);
	assert_near(find_test(b, "dhry2reg")->result, 40932482.6);
	assert_near(find_test(b, "dhry2reg")->index, 3507.5);
	assert_near(find_test(b, "whetstone-double")->result, 4332.1);
	ub_doc_free(&d);

	/* framed: "| ... | |", the last row's empty cell gone with the page's end */
	static const char framed[] =
		"| CPU model : QEMU Virtual CPU version 1.0 | |\n"
		"| TEST BASELINE RESULT INDEX | |\n"
		"| Dhrystone 2 using register variables 376783.7 15705333.2 416.8 | |\n"
		"| Pipe Throughput 111814.6 615050.9 55.0 | |\n"
		"| ========= | |\n"
		"| FINAL SCORE 189.6 |\n";
	assert_int_equal(parse_text(framed, &d), 0);
	assert_int_equal(d.manglings, UB_MANGLE_CELLS);
	assert_int_equal(d.nproblems, 0);
	b = &d.results[0].blocks[0];
	assert_int_equal(b->ntests, 2);
	assert_near(find_test(b, "dhry2reg")->index, 416.8);
	assert_near(find_test(b, "pipe")->result, 615050.9);
	assert_near(b->score, 189.6);
	ub_doc_free(&d);

	/* a Markdown table's rows end in one '|': no cells to take off */
	parse_fixture("mangled/comparison.md", &d);
	assert_false(d.manglings & UB_MANGLE_CELLS);
	assert_int_equal(d.nresults, 2);
	ub_doc_free(&d);

	parse_fixture("mangled/gist-rows.txt", &d);
	assert_int_equal(d.manglings, UB_MANGLE_CELLS);
	assert_int_equal(d.nproblems, 0);
	assert_int_equal(d.nresults, 1);
	assert_int_equal(d.results[0].nblocks, 2);
	ub_doc_free(&d);
}

static void header_variants(void **state)
{
	static const char text[] =
		"   BYTE UNIX Benchmarks (Version 6.0.0)\n\n"
		"   System: rpi4: openSUSE Leap 15.5\n"
		"   OS: GNU/Linux -- 6.1.21-v8+ -- #1642 SMP PREEMPT Mon Apr  3 17:24:16 BST 2023\n"
		"   Machine: aarch64 (unknown)\n"
		"   Language: en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")\n"
		"   CPU 0: ARM Cortex-A72 (108.0 bogomips)\n"
		"          CPU Features: fp asimd evtstrm crc32 cpuid\n"
		"   CPU 1: ARM Cortex-A72 (108.0 bogomips)\n"
		"          CPU Features: fp asimd evtstrm crc32 cpuid\n"
		"   Graphics: Error: unable to open display\n"
		"   10:02:33 up 5 days,  2:03,  2 users,  load average: 0.51, 0.32, 0.10; runlevel 5\n\n"
		"------------------------------------------------------------------------\n"
		"Benchmark Run: Mon Apr 10 2023 10:02:33 - 10:31:01\n"
		"4 CPUs in system; running 4 parallel copies of tests\n\n"
		"Dhrystone 2 using register variables       48192288.6 lps   (10.0 s, 7 samples)\n";
	struct ub_doc d;
	assert_int_equal(parse_text(text, &d), 0);
	const struct ub_result *r = &d.results[0];
	assert_string_equal(r->h.system, "openSUSE Leap 15.5");
	assert_string_equal(r->h.machine, "aarch64");
	assert_string_equal(r->h.graphics, "Error: unable to open display");
	assert_string_equal(r->h.runlevel, "5");
	assert_int_equal(r->h.ncpus, 2);
	assert_string_equal(r->h.cpus[0].model, "ARM Cortex-A72");
	assert_string_equal(r->h.cpus[0].flags, "CPU Features: fp asimd evtstrm crc32 cpuid");
	assert_int_equal(r->blocks[0].copies, 4);
	assert_int_equal(r->blocks[0].cpus, 4);

	struct ub_import_opts o = { .source = "pasted" };
	_cleanup_json_ json_object *recs = ub_import_records(&d, &o);
	json_object *env = jpath(json_object_array_get_idx(recs, 0), "environment.before");
	assert_jstr(env, "host.os", "openSUSE Leap 15.5");
	assert_jstr(env, "host.arch", "aarch64");
	assert_jstr(env, "cpu.model", "ARM Cortex-A72");
	assert_int_equal(jint(env, "host.uptime_s"), 5 * 86400 + 2 * 3600 + 3 * 60);
	assert_jstr(env, "unixbench.charmap", "UTF-8");
	assert_int_equal(jint(env, "cpu.threads"), 2);
	json_object *rec = json_object_array_get_idx(recs, 0);
	assert_jstr(rec, "started_at", "2023-04-10T10:02:33");
	/* one test, no index line: the index and the score computed, marked so */
	json_object *run = json_object_array_get_idx(jpath(rec, "runs"), 0);
	json_object *t = json_object_array_get_idx(jpath(run, "tests"), 0);
	assert_jstr(t, "source.index", "computed");
	double index;
	assert_true(jpath_double(t, "index", &index));
	assert_true(fabs(index - 10 * 48192288.6 / 116700) < 1e-6);
	assert_jstr(run, "index.score_source", "computed");
	bool partial;
	assert_true(jpath_bool(run, "index.partial", &partial) && partial);
	ub_doc_free(&d);
}

/* A broken table imports what it can and lists the rest. */
static void broken_table(void **state)
{
	struct ub_doc d;
	parse_fixture("mangled/broken.txt", &d);
	assert_int_equal(d.nproblems, 2);
	assert_int_equal(d.problems[0].line, 19);
	assert_non_null(strstr(d.problems[0].why, "Execl Throughput"));
	assert_non_null(strstr(d.problems[0].text, "17#4.1"));
	assert_int_equal(d.problems[1].line, 39);
	assert_non_null(strstr(d.problems[1].why, "Process Creation"));
	const struct ub_block *b = &d.results[0].blocks[0];
	assert_int_equal(b->ntests, 12);
	/* Execl from its index line, Process Creation from its results line */
	const struct ub_test *e = find_test(b, "execl");
	assert_near(e->result, 1794.1);
	assert_near(e->index, 417.2);
	const struct ub_test *s = find_test(b, "spawn");
	assert_near(s->result, 5512.0);
	assert_false(s->has_index);
	ub_doc_free(&d);
}

static void not_unixbench(void **state)
{
	struct ub_doc d;
	size_t len;
	_cleanup_free_ char *data = slurp(LOGS "mangled/not-unixbench.txt", &len);
	assert_int_equal(ub_parse(data, len, &d), -ENOMSG);
	ub_doc_free(&d);
	assert_int_equal(parse_text("", &d), -ENOMSG);
	ub_doc_free(&d);
	assert_int_equal(ub_parse("Pipe\0Throughput", 15, &d), -EBADMSG);
	ub_doc_free(&d);
	assert_int_equal(ub_parse("x", (size_t)UB_INPUT_MAX + 1, &d), -EFBIG);
	ub_doc_free(&d);
}

static void clean_characters(void **state)
{
	unsigned m = 0;
	/* NBSP, narrow NBSP, zero-width space, en dash, curly quotes, Latin-1 NBSP, a bad byte */
	const char in[] = "a\xc2\xa0" "b\xe2\x80\xaf" "c\xe2\x80\x8b" "d\xe2\x80\x93" "e\xe2\x80\x9cq\xe2\x80\x9d\xa0\xff";
	_cleanup_free_ char *out = ub_clean(in, strlen(in), &m);
	assert_string_equal(out, "a b cd-e\"q\" ?");
	assert_int_equal(m, UB_MANGLE_NBSP | UB_MANGLE_TYPOGRAPHIC | UB_MANGLE_CONTROL);
}

/* Random damage to real output: the parser must never crash or read past
 * its input, whatever comes back. */
static void fuzz(void **state)
{
	static const char *const seeds[] = { "v6-full/vm-2026-11-29-01", "v6-multi/vm-2026-11-29-02.html",
					     "v6-brief-i3/vm-2026-11-29-01.log", "mangled/glued.txt",
					     "v6-brief-i3/vm-2026-11-29-01.csv" };
	unsigned seed = 12345;
	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		size_t len;
		_cleanup_free_ char *path = xasprintf("%s%s", LOGS, seeds[s]);
		_cleanup_free_ char *orig = slurp(path, &len);
		for (int round = 0; round < 150; round++) {
			char *copy = xmalloc(len + 1);
			memcpy(copy, orig, len);
			size_t n = len;
			for (int k = 0; k < 1 + round % 20; k++) {
				seed = seed * 1103515245 + 12345;
				size_t at = (seed >> 8) % n;
				static const char noise[] = { '\n', '\r', ' ', '(', ')', '-', '=', '>', '<', '&', ';', '9',
							      '.', ':', '#', (char)0xc2, (char)0xa0, (char)0xe2 };
				copy[at] = noise[(seed >> 20) % sizeof(noise)];
			}
			seed = seed * 1103515245 + 12345;
			if (round % 7 == 0)
				n = (seed >> 8) % n + 1; /* truncated */
			struct ub_doc d;
			int r = ub_parse(copy, n, &d);
			assert_true(r == 0 || r == -ENOMSG || r == -EBADMSG);
			for (size_t i = 0; i < d.nresults; i++)
				assert_true(d.results[i].nblocks > 0);
			ub_doc_free(&d);
			free(copy);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_report_v6),
		cmocka_unit_test(text_report_v5),
		cmocka_unit_test(text_report_multi),
		cmocka_unit_test(text_report_brief),
		cmocka_unit_test(html_reports),
		cmocka_unit_test(logs),
		cmocka_unit_test(csv),
		cmocka_unit_test(run_output),
		cmocka_unit_test(report_with_log),
		cmocka_unit_test(mangled_like_v6),
		cmocka_unit_test(mangled_quoted_typographic),
		cmocka_unit_test(mangled_wrapped),
		cmocka_unit_test(index_tables),
		cmocka_unit_test(several_runs_and_no_header),
		cmocka_unit_test(text_around_tables),
		cmocka_unit_test(pasted_layouts),
		cmocka_unit_test(mail_and_old_layouts),
		cmocka_unit_test(listed_pastes),
		cmocka_unit_test(table_cell_rows),
		cmocka_unit_test(letter_case),
		cmocka_unit_test(v4_indented),
		cmocka_unit_test(localized_dates),
		cmocka_unit_test(decimal_comma_load),
		cmocka_unit_test(header_variants),
		cmocka_unit_test(broken_table),
		cmocka_unit_test(absurd_numbers),
		cmocka_unit_test(not_unixbench),
		cmocka_unit_test(clean_characters),
		cmocka_unit_test(fuzz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
