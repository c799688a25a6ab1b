/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Comparisons: the statistics, which runs face each other, changes and
 * their significance, highlights, the environment diff, and what the
 * renderers, charts and the HTML page draw from it. */
#include <errno.h>
#include <math.h>

#include "analysis/chart.h"
#include "analysis/compare.h"
#include "analysis/report-html.h"
#include "analysis/stats.h"
#include "bench/ubimport.h"
#include "testlib.h"

#define LOGS SRCDIR "/tests/fixtures/unixbench-logs/"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* ---- statistics ---- */

static void t_distribution(void **state)
{
	/* df 1 is Cauchy: p = 1 - 2 atan|t| / pi; df 2: p = 1 - |t| / sqrt(t^2 + 2) */
	assert_close(stats_t_pvalue(1, 1), 0.5, 1e-12);
	assert_close(stats_t_pvalue(3, 1), 1 - 2 * atan(3) / M_PI, 1e-12);
	assert_close(stats_t_pvalue(2, 2), 1 - 2 / sqrt(6), 1e-12);
	assert_close(stats_t_pvalue(-2, 2), 1 - 2 / sqrt(6), 1e-12);
	/* the two-sided 5 % point of t with 10 degrees of freedom */
	assert_close(stats_t_pvalue(2.228138852, 10), 0.05, 1e-7);
	assert_close(stats_t_pvalue(0, 7), 1, 1e-12);
	assert_close(stats_betai(2, 3, 0.4), 0.5248, 1e-12);
	assert_close(stats_betai(3, 2, 0.6), 1 - stats_betai(2, 3, 0.4), 1e-12);
}

static void welch(void **state)
{
	struct welch w;
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 110, 112, 108, 111, 109 };
	assert_int_equal(stats_welch(a, 5, b, 5, &w), 0);
	assert_close(w.t, 10, 1e-9);
	assert_close(w.df, 8, 1e-9);
	assert_close(w.p, stats_t_pvalue(10, 8), 1e-15);
	assert_true(w.p < 1e-4);

	/* unequal variances and sizes: df by Welch-Satterthwaite */
	const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 2, 4, 6, 8, 10 };
	assert_int_equal(stats_welch(c, 5, d, 5, &w), 0);
	assert_close(w.t, 3 / sqrt(2.5), 1e-9);
	assert_close(w.df, 6.25 / (0.0625 + 1), 1e-9);

	const double same[] = { 5, 5, 5 };
	assert_int_equal(stats_welch(same, 3, same, 3, &w), 0);
	assert_close(w.p, 1, 0);
	assert_int_equal(stats_welch(a, 1, b, 5, &w), -EINVAL);

}

/* ---- records built for the tests ---- */

/* A run with one test per (id, index, rates...) given as JSON text pieces. */
static json_object *record(const char *host, const char *runs, const char *env)
{
	_cleanup_free_ char *s = xasprintf("{\"schema\": \"ubtune.result/1\", \"run_id\": \"%s\", \"host\": \"%s\","
					   " \"started_at\": \"2026-01-01T10:00:00+0000\", \"suite\": {\"name\": \"native\","
					   " \"version\": \"0.1.0\"}, \"engine\": {\"kind\": \"workloads\"}, \"imported\": false,"
					   " \"quick\": false, \"environment\": {\"before\": %s}, \"events\": [], \"runs\": %s}",
					   host, host, env ? env : "null", runs);
	return json_lit(s);
}

/* A test entry whose passes have the given rates (all kept). */
static char *test_entry(const char *id, double index, const double *rates, size_t n)
{
	struct buf b = {0};
	buf_printf(&b, "{\"id\": \"%s\", \"name\": \"%s test\", \"unit\": \"lps\", \"baseline\": 10, \"result\": %g,"
		       " \"index\": %g, \"passes\": [", id, id, index, index);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s{\"rate\": %g, \"dropped\": false}", i ? ", " : "", rates[i]);
	buf_puts(&b, "]}");
	return buf_steal(&b);
}

static json_object *find_row(json_object *section, const char *id)
{
	json_object *tests = jpath(section, "tests");
	for (size_t i = 0; i < jarr_len(tests); i++)
		if (streq(jpath_str(json_object_array_get_idx(tests, i), "id"), id))
			return json_object_array_get_idx(tests, i);
	fail_msg("no row %s", id);
	return NULL;
}

static json_object *change_of(json_object *row, size_t i)
{
	return json_object_array_get_idx(jpath(row, "changes"), i);
}

static json_object *two_runs(double a_index, const double *a, double b_index, const double *b, size_t n)
{
	_cleanup_free_ char *ta = test_entry("pipe", a_index, a, n), *tb = test_entry("pipe", b_index, b, n);
	_cleanup_free_ char *ra = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", ta);
	_cleanup_free_ char *rb = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", tb);
	json_object *recs = json_object_new_array();
	json_object_array_add(recs, record("a", ra, NULL));
	json_object_array_add(recs, record("b", rb, NULL));
	return recs;
}

static json_object *compare_records(json_object *recs, unsigned copies)
{
	struct compare_input in[COMPARE_MAX];
	size_t n = jarr_len(recs);
	for (size_t i = 0; i < n; i++)
		in[i] = (struct compare_input){ json_object_array_get_idx(recs, i), "test", 0 };
	struct compare_opts o = { .copies = copies };
	return compare_build(in, n, &o);
}

/* ---- changes and their significance ---- */

static void significance(void **state)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 110, 112, 108, 111, 109 };
	_cleanup_json_ json_object *recs = two_runs(100, a, 110, b, 5);
	_cleanup_json_ json_object *cmp = compare_records(recs, 0);
	json_object *c = change_of(find_row(json_object_array_get_idx(jpath(cmp, "sections"), 0), "pipe"), 1);
	assert_jstr(c, "test", "welch");
	double pct, p;
	bool sig;
	assert_true(jpath_double(c, "pct", &pct) && jpath_double(c, "p", &p) && jpath_bool(c, "significant", &sig));
	assert_close(pct, 10, 1e-9);
	assert_close(p, 1e-4, 0);
	assert_true(sig);
	char v[32];
	assert_string_equal(compare_verdict(c, v, sizeof(v)), "p<0.01");

	/* the same means in noisy passes: not significant */
	const double na[] = { 100, 110, 90, 105, 95 }, nb[] = { 101, 111, 91, 106, 96 };
	_cleanup_json_ json_object *recs2 = two_runs(100, na, 101, nb, 5);
	_cleanup_json_ json_object *cmp2 = compare_records(recs2, 0);
	c = change_of(find_row(json_object_array_get_idx(jpath(cmp2, "sections"), 0), "pipe"), 1);
	assert_true(jpath_double(c, "p", &p) && jpath_bool(c, "significant", &sig));
	assert_close(p, stats_t_pvalue(0.2, 8), 1e-4);
	assert_false(sig);
	assert_string_equal(compare_verdict(c, v, sizeof(v)), "~ p=0.85");

	/* one side without passes: inside the other's spread, or untested */
	_cleanup_free_ char *ta = test_entry("pipe", 100, na, 5), *tb = test_entry("pipe", 103, NULL, 0);
	_cleanup_free_ char *ra = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", ta);
	_cleanup_free_ char *rb = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", tb);
	_cleanup_json_ json_object *recs3 = json_object_new_array();
	json_object_array_add(recs3, record("a", ra, NULL));
	json_object_array_add(recs3, record("b", rb, NULL));
	_cleanup_json_ json_object *cmp3 = compare_records(recs3, 0);
	c = change_of(find_row(json_object_array_get_idx(jpath(cmp3, "sections"), 0), "pipe"), 1);
	assert_jstr(c, "test", "spread");
	assert_true(jpath_bool(c, "significant", &sig) && !sig);
	assert_string_equal(compare_verdict(c, v, sizeof(v)), "~ in spread");

	_cleanup_json_ json_object *recs4 = two_runs(100, NULL, 103, NULL, 0);
	_cleanup_json_ json_object *cmp4 = compare_records(recs4, 0);
	c = change_of(find_row(json_object_array_get_idx(jpath(cmp4, "sections"), 0), "pipe"), 1);
	assert_jstr(c, "test", "none");
	assert_null(jpath(c, "significant"));
	assert_string_equal(compare_verdict(c, v, sizeof(v)), "untested");
	/* nothing to test: the notes say why */
	json_object *notes = jpath(cmp4, "notes");
	assert_true(jarr_len(notes) >= 1);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(notes, 0)), "A and B have no per-pass"));
}

/* The biggest changes that are not noise, at most three, at least 1 %. */
static void highlights(void **state)
{
	static const struct {
		const char *id;
		double b_index;
	} rows[] = { { "dhry2reg", 150 }, { "execl", 60 }, { "pipe", 130 }, { "spawn", 100.5 }, { "syscall", 97 },
		     { "shell1", 180 } };
	const double quiet[] = { 90, 110, 100, 95, 105 };
	struct buf ta = {0}, tb = {0};
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		/* shell1 doubles in noise: its passes overlap A's completely */
		double wide[5];
		for (size_t k = 0; k < 5; k++)
			wide[k] = streq(rows[i].id, "shell1") ? quiet[k] * (k % 2 ? 0.3 : 3.4) : quiet[k] * rows[i].b_index / 100;
		_cleanup_free_ char *a = test_entry(rows[i].id, 100, NULL, 0);
		_cleanup_free_ char *b = test_entry(rows[i].id, rows[i].b_index, streq(rows[i].id, "shell1") ? wide : NULL,
						    streq(rows[i].id, "shell1") ? 5 : 0);
		buf_printf(&ta, "%s%s", i ? ", " : "", a);
		buf_printf(&tb, "%s%s", i ? ", " : "", b);
	}
	/* shell1 in A has passes too, so its change is tested (and found to be noise) */
	char *shell1a = test_entry("shell1", 100, quiet, 5);
	_cleanup_free_ char *ra = xasprintf("[{\"copies\": 1, \"tests\": [%s, %s]}]", ta.s, shell1a);
	free(shell1a);
	_cleanup_free_ char *rb = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", tb.s);
	buf_free(&ta);
	buf_free(&tb);
	_cleanup_json_ json_object *recs = json_object_new_array();
	json_object_array_add(recs, record("a", ra, NULL));
	json_object_array_add(recs, record("b", rb, NULL));
	_cleanup_json_ json_object *cmp = compare_records(recs, 0);
	json_object *sec = json_object_array_get_idx(jpath(cmp, "sections"), 0);
	bool h;
	static const struct {
		const char *id;
		bool highlighted;
	} expect[] = { { "dhry2reg", true }, { "execl", true }, { "pipe", true }, { "spawn", false },
		       { "syscall", false }, { "shell1", false } };
	for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
		json_object *c = change_of(find_row(sec, expect[i].id), 1);
		assert_true(jpath_bool(c, "highlight", &h));
		if (h != expect[i].highlighted)
			fail_msg("%s: highlight %d", expect[i].id, h);
	}
	/* rows follow UnixBench's report order, whatever the records' */
	json_object *tests = jpath(sec, "tests");
	assert_jstr(json_object_array_get_idx(tests, 0), "id", "dhry2reg");
	assert_jstr(json_object_array_get_idx(tests, 5), "id", "syscall");
}

/* ---- which runs face each other ---- */

static json_object *copies_record(const char *host, const unsigned *copies, size_t n)
{
	const double r[] = { 1, 2 };
	_cleanup_free_ char *t = test_entry("pipe", 100, r, 2);
	struct buf b = {0};
	buf_puts(&b, "[");
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s{\"copies\": %u, \"tests\": [%s]}", i ? ", " : "", copies[i], t);
	buf_puts(&b, "]");
	json_object *rec = record(host, b.s, NULL);
	buf_free(&b);
	return rec;
}

static const char *section_title(json_object *cmp, size_t s)
{
	return jpath_str(json_object_array_get_idx(jpath(cmp, "sections"), s), "title");
}

static void sections(void **state)
{
	const unsigned c12[] = { 1, 2 }, c14[] = { 1, 4 }, c2[] = { 2 };
	_cleanup_json_ json_object *a = json_object_new_array();
	json_object_array_add(a, copies_record("a", c12, 2));
	json_object_array_add(a, copies_record("b", c14, 2));
	_cleanup_json_ json_object *cmp = compare_records(a, 0);
	/* 1 and "all CPUs" of two machines face each other */
	assert_int_equal(jarr_len(jpath(cmp, "sections")), 2);
	assert_string_equal(section_title(cmp, 0), "1 copy");
	assert_string_equal(section_title(cmp, 1), "copies: A 2, B 4");

	_cleanup_json_ json_object *b = json_object_new_array();
	json_object_array_add(b, copies_record("a", c12, 2));
	json_object_array_add(b, copies_record("b", c2, 1));
	_cleanup_json_ json_object *cmp2 = compare_records(b, 0);
	assert_int_equal(jarr_len(jpath(cmp2, "sections")), 2);
	json_object *one = json_object_array_get_idx(jpath(cmp2, "sections"), 0);
	assert_string_equal(section_title(cmp2, 0), "1 copy");
	assert_null(json_object_array_get_idx(jpath(find_row(one, "pipe"), "values"), 1));
	assert_string_equal(section_title(cmp2, 1), "2 copies");

	_cleanup_json_ json_object *cmp3 = compare_records(b, 2);
	assert_int_equal(jarr_len(jpath(cmp3, "sections")), 1);
	assert_string_equal(section_title(cmp3, 0), "2 copies");
}

/* ---- the environment ---- */

static void environment_diff(void **state)
{
	const double r[] = { 1, 2 };
	_cleanup_free_ char *t = test_entry("pipe", 100, r, 2);
	_cleanup_free_ char *runs = xasprintf("[{\"copies\": 1, \"tests\": [%s]}]", t);
	_cleanup_json_ json_object *recs = json_object_new_array();
	json_object_array_add(recs, record("a", runs,
					   "{\"host\": {\"kernel_release\": \"6.1.0\", \"arch\": \"aarch64\"},"
					   " \"cpu\": {\"freq\": {\"governor\": \"powersave\"}},"
					   " \"storage\": {\"device\": {\"kind\": \"mmc\"}, \"mount\": {\"fstype\": \"ext4\"}},"
					   " \"virt\": {\"role\": \"none\"}}"));
	json_object_array_add(recs, record("b", runs,
					   "{\"host\": {\"kernel_release\": \"6.6.0\", \"arch\": \"aarch64\"},"
					   " \"storage\": {\"device\": {\"kind\": \"tmpfs\"}, \"mount\": {\"fstype\": \"tmpfs\"}},"
					   " \"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\"}}"));
	_cleanup_json_ json_object *cmp = compare_records(recs, 0);
	struct strv differs = {0}, unknown = {0}, same = {0};
	static const char *const keys[] = { "environment.differs", "environment.unknown", "environment.same" };
	struct strv *lists[] = { &differs, &unknown, &same };
	for (size_t k = 0; k < 3; k++)
		for (size_t i = 0; i < jarr_len(jpath(cmp, keys[k])); i++)
			strv_push(lists[k], jpath_str(json_object_array_get_idx(jpath(cmp, keys[k]), i), "fact"));
	assert_true(strv_contains(&differs, "kernel"));
	assert_true(strv_contains(&differs, "workdir medium"));
	assert_true(strv_contains(&differs, "virtualisation"));
	assert_true(strv_contains(&differs, "host"));
	assert_true(strv_contains(&unknown, "governor"));
	assert_true(strv_contains(&same, "arch"));
	assert_false(strv_contains(&differs, "arch"));
	json_object *virt = NULL;
	for (size_t i = 0; i < jarr_len(jpath(cmp, keys[0])); i++)
		if (streq(jpath_str(json_object_array_get_idx(jpath(cmp, keys[0]), i), "fact"), "virtualisation"))
			virt = json_object_array_get_idx(jpath(cmp, keys[0]), i);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(jpath(virt, "values"), 0)), "bare metal");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(jpath(virt, "values"), 1)), "guest (kvm)");
	for (size_t k = 0; k < 3; k++)
		strv_free(lists[k]);
}

/* ---- imported UnixBench output, end to end through the model ---- */

static json_object *import_one(const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s%s", LOGS, name);
	struct ub_import_opts o = { .source = name };
	json_object *recs = NULL;
	_cleanup_free_ char *error = NULL;
	if (ub_import_file(path, &o, &recs, NULL, &error) < 0)
		fail_msg("%s", error);
	json_object *rec = json_object_get(json_object_array_get_idx(recs, 0));
	json_object_put(recs);
	return rec;
}

static char *render(json_object *cmp, enum compare_format f)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	compare_render(cmp, f, m);
	fclose(m);
	return out;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void imported_runs(void **state)
{
	_cleanup_json_ json_object *recs = json_object_new_array();
	json_object_array_add(recs, import_one("v6-brief-i3/vm-2026-11-29-01"));
	json_object_array_add(recs, import_one("v5-multi-i3/vm-2026-11-29-01"));
	_cleanup_json_ json_object *cmp = compare_records(recs, 0);
	assert_jstr(cmp, "schema", COMPARE_SCHEMA);
	assert_int_equal(jarr_len(jpath(cmp, "sections")), 2);
	json_object *one = json_object_array_get_idx(jpath(cmp, "sections"), 0);
	json_object *pipe = find_row(one, "pipe");
	double pct;
	assert_true(jpath_double(change_of(pipe, 1), "pct", &pct));
	assert_close(pct, (737.7 / 649.8 - 1) * 100, 0.006);
	/* both .log files gave passes: the change is tested */
	assert_jstr(change_of(pipe, 1), "test", "welch");
	assert_jstr(json_object_array_get_idx(jpath(cmp, "environment.differs"), 0), "fact", "suite");

	_cleanup_free_ char *text = render(cmp, COMPARE_TEXT);
	assert_non_null(strstr(text, "Pipe Throughput"));
	assert_non_null(strstr(text, "System Call Overhead"));
	assert_non_null(strstr(text, "B vs A"));
	assert_int_equal(count(text, "System Benchmarks Index Score"), 2);
	_cleanup_free_ char *md = render(cmp, COMPARE_MARKDOWN);
	assert_int_equal(count(md, "|---|---|---:|---:|---:|---:|---:|---|"), 2);
	assert_non_null(strstr(md, "| UnixBench 6.0.0 | UnixBench 5.1.3 |"));
	_cleanup_free_ char *csv = render(cmp, COMPARE_CSV);
	/* a header, 2 sections x (2 tests + the score) x 2 results */
	assert_int_equal(count(csv, "\r\n"), 1 + 2 * 3 * 2);
	assert_true(startswith(csv, "section,copies,test_id,test,unit,label,result,index,"));
	_cleanup_free_ char *js = render(cmp, COMPARE_JSON);
	json_object *back = json_lit(js);
	assert_jstr(back, "schema", COMPARE_SCHEMA);
	json_object_put(back);
}

/* ---- charts and the page ---- */

static char *capture_chart(json_object *cmp, bool relative)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	chart_compare(cmp, relative, CHART_FILE, m);
	fclose(m);
	return out;
}

/* The comparison of two UnixBench logs; *recs keeps what it was made of. */
static json_object *compare_logs(const char *a, const char *b, unsigned copies, json_object **recs)
{
	*recs = json_object_new_array();
	json_object_array_add(*recs, import_one(a));
	json_object_array_add(*recs, import_one(b));
	return compare_records(*recs, copies);
}

static void charts(void **state)
{
	_cleanup_json_ json_object *recs = NULL;
	_cleanup_json_ json_object *cmp = compare_logs("v6-full/vm-2026-11-29-01", "v5-full/vm-2026-11-29-01", 0, &recs);
	_cleanup_free_ char *svg = capture_chart(cmp, false);
	assert_true(startswith(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_true(endswith(svg, "</svg>\n"));
	for (size_t k = 0; k < 12; k++)
		assert_non_null(strstr(svg, ub_test_in_report_order(k)->name));
	/* a bar per test and result, the scores outlined */
	assert_int_equal(count(svg, "fill=\"#0072B2\"><title>A, "), 12);
	assert_int_equal(count(svg, "fill=\"#E69F00\"><title>B, "), 12);
	assert_int_equal(count(svg, "stroke=\"#333333\" stroke-width=\"0.5\"><title>"), 2);
	_cleanup_free_ char *rel = capture_chart(cmp, true);
	assert_non_null(strstr(rel, "100.0 %"));
	assert_non_null(strstr(rel, "stroke-dasharray=\"4 3\""));
}

/* Runs of different test sets: the chart draws the tests both ran and
 * their geometric mean, never a bar facing nothing or the partial scores;
 * a copy count only one side ran is left out. */
static void charts_of_different_tests(void **state)
{
	_cleanup_json_ json_object *recs = NULL;
	_cleanup_json_ json_object *cmp = compare_logs("v6-full/vm-2026-11-29-01", "v6-brief-i3/vm-2026-11-29-01", 0,
						       &recs);
	json_object *one = json_object_array_get_idx(jpath(cmp, "sections"), 0);
	json_object *common = jpath(one, "common");
	assert_int_equal(jpath_len(common, "tests"), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(jpath(common, "tests"), 0)), "pipe");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(jpath(common, "tests"), 1)), "syscall");
	/* the same means as the score's note gives for the pair */
	json_object *pair = json_object_array_get_idx(jpath(one, "score.changes"), 1);
	double mean, pair_mean;
	assert_true(jpath_double(pair, "common.geomean_other", &pair_mean));
	mean = json_object_get_double(json_object_array_get_idx(jpath(common, "geomeans"), 1));
	assert_close(mean, pair_mean, 0.11);
	/* the runs of the same tests have none */
	assert_null(jpath(json_object_array_get_idx(jpath(cmp, "sections"), 1), "common"));

	_cleanup_free_ char *svg = capture_chart(cmp, false);
	assert_int_equal(count(svg, "fill=\"#0072B2\"><title>A, "), 2);
	assert_int_equal(count(svg, "fill=\"#E69F00\"><title>B, "), 2);
	/* the summary, outlined: the common tests' mean */
	assert_int_equal(count(svg, "stroke=\"#333333\" stroke-width=\"0.5\"><title>"), 2);
	assert_non_null(strstr(svg, "<title>B, Geometric mean of the 2 common tests: 574.7</title>"));
	assert_non_null(strstr(svg, "the 2 tests every result ran"));
	assert_null(strstr(svg, "System Benchmarks Index Score"));
	assert_null(strstr(svg, "Dhrystone"));
	assert_null(strstr(svg, "n/a"));
	assert_null(strstr(svg, "2 copies"));
	_cleanup_free_ char *rel = capture_chart(cmp, true);
	assert_null(strstr(rel, "n/a"));
	assert_non_null(strstr(rel, "Geometric mean of the 2 common tests"));

	/* nothing in common: the chart says so instead of drawing empty panels */
	_cleanup_json_ json_object *apart = NULL;
	_cleanup_json_ json_object *cmp2 = compare_logs("v6-full/vm-2026-11-29-01", "v6-brief-i3/vm-2026-11-29-01", 2,
							&apart);
	_cleanup_free_ char *none = capture_chart(cmp2, false);
	assert_non_null(strstr(none, "nothing to draw side by side"));
	assert_int_equal(count(none, "><title>B, "), 0);
}

/* A result record of runs without tests, and what follows it. */
#define TIMELINE_HEAD                                                                                                  \
	"{\"schema\": \"ubtune.result/1\", \"run_id\": \"ab\", \"started_at\": \"2026-01-01T12:00:00+0000\","       \
	" \"suite\": {\"name\": \"native\"}, \"runs\": [],"

/* Draws the timeline of rec; chart_has_timeline() must agree. */
static bool timeline_of(json_object *rec, FILE *m)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	if (result_decode(rec, &r, &error) < 0)
		fail_msg("%s", error);
	bool has = chart_has_timeline(&r), drawn = chart_timeline(&r, CHART_INLINE, m);
	assert_true(has == drawn);
	result_record_free(&r);
	return drawn;
}

static void timeline(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		TIMELINE_HEAD " \"samples\": ["
		" {\"t\": 1, \"test\": \"pipe\", \"copies\": 1, \"mhz\": [1800, 1800], \"temp_mc\": 61000},"
		" {\"t\": 2, \"test\": \"pipe\", \"copies\": 1, \"mhz\": [600, 1800], \"temp_mc\": 63000,"
		"  \"alarms\": [\"rpi_volt in0\"]},"
		" {\"t\": 3, \"test\": \"spawn\", \"copies\": 1, \"mhz\": [600, 600], \"temp_mc\": 64000}],"
		" \"events\": [{\"kind\": \"undervoltage\", \"offset_s\": 2,"
		"  \"message\": \"undervoltage alarm raised <during> Pipe Throughput\"}]}");
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	assert_true(timeline_of(rec, m));
	fclose(m);
	assert_true(startswith(out, "<svg "));
	assert_int_equal(count(out, "<polyline "), 3);
	assert_non_null(strstr(out, "Pipe Throughput (pipe), 1 copy, 1-2 s"));
	assert_non_null(strstr(out, "alarm at 2 s: rpi_volt in0"));
	/* text from the record is escaped */
	assert_non_null(strstr(out, "raised &lt;during&gt; Pipe"));
	free(out);

	_cleanup_json_ json_object *none = json_lit(TIMELINE_HEAD " \"samples\": []}");
	m = open_memstream(&out, &len);
	assert_false(timeline_of(none, m));
	fclose(m);
	assert_int_equal(len, 0);
	free(out);
	/* readings of nothing the chart draws: no empty axes either */
	_cleanup_json_ json_object *empty = json_lit(TIMELINE_HEAD " \"samples\": [{\"t\": 1, \"test\": \"pipe\","
						     " \"mhz\": [null]}, {\"t\": 2, \"test\": \"pipe\"}]}");
	m = open_memstream(&out, &len);
	assert_false(timeline_of(empty, m));
	fclose(m);
	assert_int_equal(len, 0);
	free(out);
}

static void html_page(void **state)
{
	_cleanup_json_ json_object *a = import_one("v6-brief-i3/vm-2026-11-29-01");
	_cleanup_json_ json_object *b = import_one("mangled/broken.txt");
	struct compare_input in[] = { { a, "first", 0 }, { b, "second & <last>", 0 } };
	char *out = NULL;
	size_t len = 0;
	_cleanup_free_ char *error = NULL;
	FILE *m = open_memstream(&out, &len);
	if (report_html(in, 2, m, &error) < 0)
		fail_msg("%s", error);
	fclose(m);
	assert_true(startswith(out, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\""));
	assert_true(endswith(out, "</html>\n"));
	static const char *const ids[] = { "summary", "environment", "findings", "tests", "charts" };
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		_cleanup_free_ char *id = xasprintf("id=\"%s\"", ids[i]);
		assert_non_null(strstr(out, id));
	}
	/* imported output has no readings on either side: no section of empty timelines */
	assert_null(strstr(out, "id=\"timeline\""));
	assert_null(strstr(out, "no readings"));
	for (size_t k = 0; k < 12; k++)
		assert_non_null(strstr(out, ub_test_in_report_order(k)->name));
	assert_non_null(strstr(out, "second &amp; &lt;last&gt;"));
	/* the broken table's problems are listed with their lines */
	assert_non_null(strstr(out, "import, line 19"));
	assert_int_equal(count(out, "<svg "), 2);
	/* no network asset: the only URLs are XML namespaces */
	for (const char *p = out; (p = strstr(p, "http")); p += 4)
		assert_true(startswith(p, "http://www.w3.org/"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_distribution),
		cmocka_unit_test(welch),
		cmocka_unit_test(significance),
		cmocka_unit_test(highlights),
		cmocka_unit_test(sections),
		cmocka_unit_test(environment_diff),
		cmocka_unit_test(imported_runs),
		cmocka_unit_test(charts),
		cmocka_unit_test(charts_of_different_tests),
		cmocka_unit_test(timeline),
		cmocka_unit_test(html_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
