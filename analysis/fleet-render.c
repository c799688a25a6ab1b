/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form of the fleet record. */
#include <math.h>
#include <string.h>

#include "analysis/fleet.h"
#include "lib/table.h"
#include "lib/term.h"
#include "lib/util.h"

/* Facts and causes shown under each outlier, at most. */
#define SHOWN_FACTS 3
#define SHOWN_CAUSES 2

/* Column heads: short, and explained under the table. */
static const char *const codes[DIAG_NTESTS] = {
	[DT_DHRY] = "dhry", [DT_WHET] = "whet", [DT_EXECL] = "execl", [DT_FC1K] = "fc1k",
	[DT_FC256] = "fc256", [DT_FC4K] = "fc4k", [DT_PIPE] = "pipe", [DT_CTX] = "ctx",
	[DT_SPAWN] = "spawn", [DT_SYSCALL] = "syscall", [DT_SH1] = "sh1", [DT_SH8] = "sh8",
};

static const char *code_of(json_object *row)
{
	const char *id = jpath_str(row, "id") ?: "?";
	int t = diag_test_lookup(id);
	return t >= 0 ? codes[t] : id;
}

static json_object *at(json_object *a, size_t i)
{
	return i < jarr_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

/* 'v' or '^' after a value outside the normal range. */
static char mark(json_object *row, size_t result)
{
	json_object *outliers = jpath(row, "outliers");
	for (size_t i = 0; i < jarr_len(outliers); i++) {
		int64_t r;
		json_object *o = at(outliers, i);
		if (jpath_int(o, "result", &r) && (size_t)r == result)
			return streq_ptr(jpath_str(o, "direction"), "low") ? 'v' : '^';
	}
	return ' ';
}

/*
 * Where the table does not fit, the tests are left out in groups, those
 * farthest from the question "which host is off" first: File Copy (the
 * medium more than the host), then the kernel's, the processes', the
 * shell's and last the CPU's. A test in which a host of the section is
 * an outlier stays while any test does. The host, its score, its distance
 * from the median and the tests it is off in never go.
 */
static unsigned drop_rank(json_object *row)
{
	static const unsigned rank[DIAG_NTESTS] = {
		[DT_DHRY] = 2, [DT_WHET] = 2, [DT_SH1] = 3, [DT_SH8] = 3, [DT_EXECL] = 4, [DT_SPAWN] = 4,
		[DT_PIPE] = 5, [DT_CTX] = 5, [DT_SYSCALL] = 5, [DT_FC1K] = 6, [DT_FC256] = 6, [DT_FC4K] = 6,
	};
	if (jarr_len(jpath(row, "outliers")))
		return 1;
	int t = diag_test_lookup(jpath_str(row, "id") ?: "");
	return t >= 0 ? rank[t] : 6;
}

/* A value, and its mark (or a space) where the column has marks. */
static char *cell(json_object *row, json_object *v, size_t result, bool marks)
{
	char b[32];
	fleet_value_text(v, b, sizeof(b));
	return marks ? xasprintf("%s%c", b, result == SIZE_MAX ? ' ' : mark(row, result)) : xstrdup(b);
}

/* "-12.5 %": the host's score from the fleet's median. */
static char *vs_median(json_object *score, size_t k)
{
	json_object *v = at(jpath(score, "values"), k), *median = jpath(score, "stats.median");
	double m = json_object_get_double(median);
	if (!v || !median || m == 0)
		return xstrdup("-");
	return xasprintf("%+.1f %%", (json_object_get_double(v) / m - 1) * 100);
}

/* "low: fc1k fc256; high: dhry": the tests a host is outside the normal range in. */
static char *off_in(json_object *const *rows, size_t nrows, json_object *score, size_t result)
{
	struct buf low = {0}, high = {0};
	for (size_t r = 0; r < nrows; r++) {
		char m = mark(rows[r], result);
		struct buf *b = m == 'v' ? &low : m == '^' ? &high : NULL;
		if (b)
			buf_printf(b, " %s", rows[r] == score ? "score" : code_of(rows[r]));
	}
	char *s = xasprintf("%s%s%s%s%s", low.len ? "low:" : "", low.s ?: "", low.len && high.len ? "; " : "",
			    high.len ? "high:" : "", high.s ?: "");
	buf_free(&low);
	buf_free(&high);
	return s;
}

/* A row of the table: a host's (result, its k-th value), else the
 * fleet's stat ("stats.median") with its name. */
static void add_row(struct table *tb, json_object *const *rows, size_t nrows, json_object *score, const bool *marks,
		    const char *name, size_t k, size_t result, const char *stat)
{
	struct strv line = {0};
	strv_push(&line, name);
	for (size_t r = 0; r < nrows; r++) {
		json_object *v = stat ? jpath(rows[r], stat) : at(jpath(rows[r], "values"), k);
		strv_take(&line, cell(rows[r], v, result, marks[r]));
		if (rows[r] == score)
			strv_take(&line, stat ? xstrdup("") : vs_median(score, k));
	}
	strv_take(&line, stat ? xstrdup("") : off_in(rows, nrows, score, result));
	table_add(tb, (const char *const *)line.v);
	strv_free(&line);
}

static void table(json_object *fleet, json_object *sec, FILE *out)
{
	json_object *tests = jpath(sec, "tests"), *hosts = jpath(sec, "hosts"), *results = jpath(fleet, "results");
	json_object *score = jpath(sec, "score.stats.median") ? jpath(sec, "score") : NULL;
	/* the score first, then the tests */
	json_object *rows[64];
	size_t nrows = 0;
	if (score)
		rows[nrows++] = score;
	for (size_t t = 0; t < jarr_len(tests) && nrows < ARRAY_SIZE(rows); t++)
		rows[nrows++] = at(tests, t);
	/* HOST, the values (vs median after the score), the tests a host is off in */
	size_t ncols = 1 + nrows + (score ? 1 : 0) + 1, c = 0;
	struct table_column *cols = xcalloc(ncols, sizeof(*cols));
	bool *marks = xcalloc(nrows, sizeof(*marks));
	cols[c++] = (struct table_column){ .head = "HOST", .flags = TABLE_WRAP, .min = 10 };
	for (size_t r = 0; r < nrows; r++) {
		marks[r] = jarr_len(jpath(rows[r], "outliers")) > 0;
		cols[c++] = (struct table_column){ .head = rows[r] == score ? "score" : code_of(rows[r]),
						   .flags = TABLE_RIGHT, .drop = rows[r] == score ? 0 : drop_rank(rows[r]) };
		if (rows[r] == score)
			cols[c++] = (struct table_column){ .head = "vs median", .flags = TABLE_RIGHT };
	}
	cols[c++] = (struct table_column){ .head = "off in", .flags = TABLE_WRAP, .min = 12 };
	struct table *tb = table_new(cols, ncols, 0, 2);
	table_set_hint(tb, "--width or --json shows them all");
	for (size_t k = 0; k < jarr_len(hosts); k++) {
		size_t result = (size_t)json_object_get_int64(at(hosts, k));
		add_row(tb, rows, nrows, score, marks, jpath_str(at(results, result), "label") ?: "?", k, result, NULL);
	}
	add_row(tb, rows, nrows, score, marks, "median", 0, SIZE_MAX, "stats.median");
	add_row(tb, rows, nrows, score, marks, "spread %", 0, SIZE_MAX, "stats.spread_pct");
	table_print(tb, out, term_width(out));
	table_free(tb);
	free(marks);
	free(cols);
}

static void legend(json_object *sec, FILE *out)
{
	json_object *tests = jpath(sec, "tests");
	struct buf b = {0};
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = at(tests, k);
		buf_printf(&b, "%s%s %s%s", k ? ", " : "", code_of(t), jpath_str(t, "name") ?: "?",
			   streq_ptr(jpath_str(t, "basis"), "result") ? " (result)" : "");
	}
	_cleanup_free_ char *text = xasprintf("Columns: %s; index values unless marked; v/^ below/above the normal "
					      "range; vs median: the score's distance from the fleet's median; off "
					      "in: the tests a host is outside the normal range in.",
					      b.s ? b.s : "");
	term_print_wrapped(out, text, 0, term_width(out));
	buf_free(&b);
}

/* A line of text from column at, wrapped to the width two columns further in. */
static void hanging(FILE *out, size_t at, const char *text)
{
	fprintf(out, "%*s", (int)at, "");
	term_print_wrapped(out, text, at + 2, term_width(out));
}

static void outlier_details(json_object *o, FILE *out)
{
	hanging(out, 2, jpath_str(o, "sentence") ?: "?");
	json_object *diffs = jpath(o, "differences");
	for (size_t i = 0; i < jarr_len(diffs) && i < SHOWN_FACTS; i++) {
		json_object *d = at(diffs, i);
		_cleanup_free_ char *text = xasprintf("%s; %s", jpath_str(d, "own") ?: "?", jpath_str(d, "theirs") ?: "?");
		/* the fact's name as a label, its sentence wrapped beside it */
		fprintf(out, "    %-18s ", jpath_str(d, "fact") ?: "?");
		term_print_wrapped(out, text, 4 + 18 + 1, term_width(out));
	}
	if (jarr_len(diffs) > SHOWN_FACTS) {
		_cleanup_free_ char *text = xasprintf("(%zu more facts differ: --json lists them)",
						      jarr_len(diffs) - SHOWN_FACTS);
		hanging(out, 4, text);
	}
	json_object *causes = jpath(o, "causes");
	for (size_t i = 0; i < jarr_len(causes) && i < SHOWN_CAUSES; i++) {
		json_object *c = at(causes, i);
		_cleanup_free_ char *text = xasprintf("diagnose: %s (%s, %s confidence): %s", jpath_str(c, "title") ?: "?",
						      jpath_str(c, "id") ?: "?", jpath_str(c, "confidence") ?: "?",
						      jpath_str(c, "reason") ?: "");
		hanging(out, 4, text);
	}
}

static void section(json_object *fleet, json_object *sec, FILE *out)
{
	int64_t copies = 0;
	jpath_int(sec, "copies", &copies);
	size_t nhosts = jarr_len(jpath(sec, "hosts"));
	fprintf(out, "%lld cop%s, %zu host%s\n\n", (long long)copies, copies == 1 ? "y" : "ies", nhosts,
		nhosts == 1 ? "" : "s");
	table(fleet, sec, out);
	fputc('\n', out);
	legend(sec, out);
	json_object *rows[64];
	size_t nrows = fleet_section_rows(sec, rows, ARRAY_SIZE(rows)), shown = 0;
	for (size_t r = 0; r < nrows; r++) {
		json_object *outliers = jpath(rows[r], "outliers");
		for (size_t i = 0; i < jarr_len(outliers); i++) {
			if (!shown++)
				fprintf(out, "\nOutliers:\n");
			outlier_details(at(outliers, i), out);
		}
	}
	if (!shown)
		fprintf(out, "\nNo host is outside the normal range.\n");
}

void fleet_render(json_object *fleet, FILE *out)
{
	json_object *sections = jpath(fleet, "sections");
	size_t n = jarr_len(jpath(fleet, "results"));
	_cleanup_free_ char *head = xasprintf("Fleet of %zu result%s. A host is an outlier in a test %g robust standard "
					      "deviations (%g x MAD of the logarithms) and %g %% or more from the "
					      "fleet's median.",
					      n, n == 1 ? "" : "s", FLEET_K, FLEET_MAD_SCALE, FLEET_MIN_PCT);
	term_print_wrapped(out, head, 0, term_width(out));
	for (size_t s = 0; s < jarr_len(sections); s++) {
		fputc('\n', out);
		section(fleet, at(sections, s), out);
	}
	json_object *notes = jpath(fleet, "notes");
	for (size_t i = 0; i < jarr_len(notes); i++) {
		fputs(i ? "" : "\n", out);
		_cleanup_free_ char *text = xasprintf("Note: %s", json_object_get_string(at(notes, i)));
		hanging(out, 0, text);
	}
}
