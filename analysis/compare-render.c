/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A comparison record as text, Markdown, CSV or JSON. */
#include <math.h>

#include "analysis/compare.h"
#include "lib/table.h"
#include "lib/term.h"
#include "lib/util.h"


static json_object *at(json_object *a, size_t i)
{
	return i < jarr_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

static const char *label(json_object *cmp, size_t i)
{
	return jpath_str(at(jpath(cmp, "results"), i), "label") ?: "?";
}

/* "%.1f" of a member, or "-". */
static const char *num1(json_object *o, const char *key, char *b, size_t n)
{
	double v;
	if (o && jpath_double(o, key, &v))
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "-");
	return b;
}

void compare_format_pct(json_object *change, char *b, size_t n)
{
	double pct;
	if (change && jpath_double(change, "pct", &pct))
		snprintf(b, n, "%+.1f %%", fabs(pct) < 0.05 ? 0.0 : pct);
	else
		snprintf(b, n, "%s", "");
}

const char *compare_verdict(json_object *change, char *b, size_t n)
{
	const char *test = jpath_str(change, "test");
	bool sig;
	double p;
	if (!change || !test) {
		snprintf(b, n, "%s", "");
	} else if (streq(test, "partial")) {
		snprintf(b, n, "%s", "not comparable");
	} else if (streq(test, "welch") && jpath_double(change, "p", &p) && jpath_bool(change, "significant", &sig)) {
		if (p < 0.01)
			snprintf(b, n, "%sp<0.01", sig ? "" : "~ ");
		else
			snprintf(b, n, "%sp=%.2f", sig ? "" : "~ ", p);
	} else if (jpath_bool(change, "significant", &sig)) {
		const char *note = jpath_str(change, "note");
		bool one_sided = note && strstr(note, "inside");
		snprintf(b, n, "%s", sig ? "CIs apart" : streq(test, "spread") ? "~ in spread" : one_sided ? "~ in CI"
											  : "~ CIs overlap");
	} else if (streq(test, "spread") || streq(test, "ci95")) {
		/* one side's value beyond the other's passes or interval: not a test, but telling */
		snprintf(b, n, "%s", streq(test, "spread") ? "beyond spread" : "beyond CI");
	} else {
		snprintf(b, n, "%s", "untested");
	}
	return b;
}

static bool highlighted(json_object *change)
{
	bool h = false;
	return change && jpath_bool(change, "highlight", &h) && h;
}

/* Green for a change that is real and up, red for real and down. */
static const char *change_colour(json_object *change, FILE *out)
{
	bool sig = false;
	double pct;
	if (!change || !jpath_bool(change, "significant", &sig) || !sig || !jpath_double(change, "pct", &pct))
		return "";
	return term_esc(out, pct > 0 ? ANSI_GREEN : ANSI_RED);
}

/* ---- text ---- */

/* The columns of a section's table: test, unit, then per result its
 * result and index, and for B, C... the change against A, its verdict; a
 * last column marks the biggest changes. Narrow, the test names wrap,
 * then the raw results are left out (the index stays), then the verdicts
 * wrap, and for three results or more are left out. */
static struct table *text_table(json_object *cmp, size_t n)
{
	struct table_column cols[2 + 4 * COMPARE_MAX + 1] = {
		/* the longest names but one on a line, then the results go */
		{ .head = "Test", .flags = TABLE_WRAP, .min = 28 },
		/* the unit is the results': it goes with them */
		{ .head = "unit", .drop = 2 },
	};
	size_t nc = 2;
	struct strv heads = {0};
	for (size_t i = 0; i < n; i++) {
		strv_take(&heads, xasprintf("%s result", label(cmp, i)));
		cols[nc++] = (struct table_column){ .head = heads.v[heads.n - 1], .flags = TABLE_RIGHT, .drop = 2 };
		strv_take(&heads, xasprintf("%s index", label(cmp, i)));
		cols[nc++] = (struct table_column){ .head = heads.v[heads.n - 1], .flags = TABLE_RIGHT };
		if (i) {
			strv_take(&heads, xasprintf("%s vs %s", label(cmp, i), label(cmp, 0)));
			cols[nc++] = (struct table_column){ .head = heads.v[heads.n - 1], .flags = TABLE_RIGHT };
			/* beside two or more changes, the verdicts go last */
			cols[nc++] = (struct table_column){ .head = "verdict", .flags = TABLE_WRAP, .drop = n > 2 };
		}
	}
	cols[nc++] = (struct table_column){ .head = "" };
	struct table *t = table_new(cols, nc, 0, 2);
	strv_free(&heads);
	return t;
}

/* The cells of a change and its verdict; colours as out allows. */
static void change_cells(json_object *change, FILE *out, struct strv *cells)
{
	char pct[32], verdict[32];
	compare_format_pct(change, pct, sizeof(pct));
	compare_verdict(change, verdict, sizeof(verdict));
	bool h = highlighted(change);
	const char *on = h ? term_esc(out, ANSI_BOLD) : "", *colour = change_colour(change, out);
	strv_take(cells, xasprintf("%s%s%s%s", on, colour, pct, *on || *colour ? term_esc(out, ANSI_RESET) : ""));
	strv_push(cells, verdict);
}

static void add_row(struct table *t, struct strv *cells)
{
	table_add(t, (const char *const *)cells->v);
	strv_free(cells);
}

static void text_row(struct table *tab, json_object *t, size_t n, FILE *out)
{
	char b[64];
	struct strv cells = {0};
	strv_push(&cells, jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?");
	strv_push(&cells, jpath_str(t, "unit") ?: "");
	bool mark = false;
	for (size_t i = 0; i < n; i++) {
		json_object *v = at(jpath(t, "values"), i);
		strv_push(&cells, num1(v, "result", b, sizeof(b)));
		strv_push(&cells, num1(v, "index", b, sizeof(b)));
		if (i) {
			json_object *c = at(jpath(t, "changes"), i);
			change_cells(c, out, &cells);
			mark = mark || highlighted(c);
		}
	}
	strv_push(&cells, mark ? "<<" : "");
	add_row(tab, &cells);
}

static void text_score(struct table *tab, json_object *section, size_t n, FILE *out)
{
	char b[64];
	struct strv cells = {0};
	strv_push(&cells, "System Benchmarks Index Score");
	strv_push(&cells, "");
	for (size_t i = 0; i < n; i++) {
		json_object *v = at(jpath(section, "score.values"), i);
		bool partial = false;
		jpath_bool(v, "partial", &partial);
		strv_push(&cells, partial ? "(partial)" : "");
		strv_push(&cells, num1(v, "score", b, sizeof(b)));
		if (i)
			change_cells(at(jpath(section, "score.changes"), i), out, &cells);
	}
	strv_push(&cells, "");
	add_row(tab, &cells);
}

/* Runs of different test sets: the tests they share, on their own. */
static void text_partial(json_object *section, size_t n, FILE *out)
{
	for (size_t i = 1; i < n; i++) {
		json_object *c = at(jpath(section, "score.changes"), i);
		double ga, gb, pct;
		if (!streq_ptr(jpath_str(c, "test"), "partial") || !jpath_double(c, "common.geomean", &ga) ||
		    !jpath_double(c, "common.geomean_other", &gb) || !jpath_double(c, "common.pct", &pct))
			continue;
		_cleanup_free_ char *line =
			xasprintf("Partial: not comparable; the %zu tests both indexed: geometric mean %.1f and %.1f (%+.1f %%)",
				  jpath_len(c, "common.tests"), ga, gb, pct);
		term_print_wrapped(out, line, 2, term_width(out));
	}
}

struct big {
	const char *name;
	double pct;
};

static int cmp_big(const void *a, const void *b)
{
	double x = fabs(((const struct big *)a)->pct), y = fabs(((const struct big *)b)->pct);
	return (x < y) - (x > y);
}

/* "Biggest changes (B vs A): X +372.1 %, Y -44.5 %", largest first. */
static void text_biggest(json_object *cmp, json_object *section, size_t n, FILE *out)
{
	json_object *tests = jpath(section, "tests");
	for (size_t i = 1; i < n; i++) {
		struct big big[COMPARE_HIGHLIGHTS];
		size_t nb = 0;
		for (size_t k = 0; k < jarr_len(tests) && nb < COMPARE_HIGHLIGHTS; k++) {
			json_object *c = at(jpath(at(tests, k), "changes"), i);
			if (highlighted(c) && jpath_double(c, "pct", &big[nb].pct))
				big[nb++].name = jpath_str(at(tests, k), "name") ?: "?";
		}
		if (!nb)
			continue;
		qsort(big, nb, sizeof(*big), cmp_big);
		struct buf b = {0};
		buf_printf(&b, "Biggest changes (%s vs %s):", label(cmp, i), label(cmp, 0));
		for (size_t k = 0; k < nb; k++)
			buf_printf(&b, "%s %s %+.1f %%", k ? "," : "", big[k].name, big[k].pct);
		term_print_items(out, b.s, ", ", 2, term_width(out));
		buf_free(&b);
	}
}

static void text_environment(json_object *cmp, size_t n, FILE *out)
{
	json_object *differs = jpath(cmp, "environment.differs");
	fprintf(out, "\n%sEnvironment differences%s\n", term_esc(out, ANSI_BOLD), term_esc(out, ANSI_RESET));
	if (!jarr_len(differs))
		fprintf(out, "  none among the facts recorded by all\n");
	size_t width = 0;
	for (size_t f = 0; f < jarr_len(differs); f++) {
		size_t w = strlen(jpath_str(at(differs, f), "fact") ?: "");
		width = w > width ? w : width;
	}
	for (size_t f = 0; f < jarr_len(differs); f++) {
		json_object *o = at(differs, f);
		fprintf(out, "  %-*s  ", (int)width, jpath_str(o, "fact") ?: "?");
		struct buf b = {0};
		for (size_t i = 0; i < n; i++) {
			json_object *v = at(jpath(o, "values"), i);
			buf_printf(&b, "%s%s: %s", i ? " | " : "", label(cmp, i), v ? json_object_get_string(v) : "?");
		}
		term_print_items(out, b.s, " | ", width + 4, term_width(out));
		buf_free(&b);
	}
	/* facts some results do not record */
	json_object *unknown = jpath(cmp, "environment.unknown");
	for (size_t i = 0; i < n; i++) {
		struct buf b = {0};
		for (size_t f = 0; f < jarr_len(unknown); f++)
			if (!at(jpath(at(unknown, f), "values"), i))
				buf_printf(&b, "%s%s", b.len ? ", " : "", jpath_str(at(unknown, f), "fact") ?: "?");
		if (b.len) {
			_cleanup_free_ char *line = xasprintf("Not recorded for %s: %s", label(cmp, i), b.s);
			fputs("  ", out);
			term_print_wrapped(out, line, 4, term_width(out));
		}
		buf_free(&b);
	}
}

static void render_text(json_object *cmp, FILE *out)
{
	json_object *results = jpath(cmp, "results");
	size_t n = jarr_len(results);
	fprintf(out, "%sComparison of %zu results%s\n", term_esc(out, ANSI_BOLD), n, term_esc(out, ANSI_RESET));
	for (size_t i = 0; i < n; i++) {
		json_object *r = at(results, i);
		_cleanup_free_ char *line = xasprintf("%s (%s)", jpath_str(r, "name") ?: "?", jpath_str(r, "source") ?: "?");
		fprintf(out, "  %s  ", label(cmp, i));
		term_print_wrapped(out, line, 5, term_width(out));
	}
	json_object *sections = jpath(cmp, "sections");
	for (size_t s = 0; s < jarr_len(sections); s++) {
		json_object *sec = at(sections, s);
		fprintf(out, "\n%s%s%s\n", term_esc(out, ANSI_BOLD), jpath_str(sec, "title") ?: "", term_esc(out, ANSI_RESET));
		struct table *tab = text_table(cmp, n);
		json_object *tests = jpath(sec, "tests");
		for (size_t k = 0; k < jarr_len(tests); k++)
			text_row(tab, at(tests, k), n, out);
		text_score(tab, sec, n, out);
		table_print(tab, out, term_width(out));
		table_free(tab);
		text_partial(sec, n, out);
		text_biggest(cmp, sec, n, out);
	}
	text_environment(cmp, n, out);
	json_object *notes = jpath(cmp, "notes");
	if (jarr_len(notes))
		fprintf(out, "\n%sNotes%s\n", term_esc(out, ANSI_BOLD), term_esc(out, ANSI_RESET));
	for (size_t i = 0; i < jarr_len(notes); i++) {
		fputs("  - ", out);
		term_print_wrapped(out, json_object_get_string(at(notes, i)), 4, term_width(out));
	}
	_cleanup_free_ char *key = xasprintf("Change: the index (else the result) against %s. p: Welch's t-test on the rates "
					     "of the passes UnixBench kept; \"~\" within the noise; \"untested\": no "
					     "per-pass values; \"<<\": the biggest changes.",
					     label(cmp, 0));
	fputc('\n', out);
	term_print_wrapped(out, key, 0, term_width(out));
}

/* ---- Markdown ---- */

/* Markdown table cells: '|' escaped, line breaks as spaces. */
static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc(' ', out);
}

static void md_change(json_object *change, FILE *out)
{
	char pct[32], verdict[32], cell[80];
	compare_format_pct(change, pct, sizeof(pct));
	compare_verdict(change, verdict, sizeof(verdict));
	snprintf(cell, sizeof(cell), highlighted(change) ? "**%s**" : "%s", pct);
	md_cell(out, *pct ? cell : "");
	md_cell(out, verdict);
}

static void render_markdown(json_object *cmp, FILE *out)
{
	json_object *results = jpath(cmp, "results");
	size_t n = jarr_len(results);
	fprintf(out, "## Comparison of %zu results\n\n", n);
	for (size_t i = 0; i < n; i++) {
		json_object *r = at(results, i);
		fprintf(out, "- **%s**: %s (`%s`)\n", label(cmp, i), jpath_str(r, "name") ?: "?", jpath_str(r, "source") ?: "?");
	}
	json_object *sections = jpath(cmp, "sections");
	char b[64];
	for (size_t s = 0; s < jarr_len(sections); s++) {
		json_object *sec = at(sections, s);
		fprintf(out, "\n### %s\n\n", jpath_str(sec, "title") ?: "");
		md_cell(out, "Test");
		md_cell(out, "Unit");
		for (size_t i = 0; i < n; i++) {
			snprintf(b, sizeof(b), "%s result", label(cmp, i));
			md_cell(out, b);
			snprintf(b, sizeof(b), "%s index", label(cmp, i));
			md_cell(out, b);
			if (i) {
				snprintf(b, sizeof(b), "%s vs %s", label(cmp, i), label(cmp, 0));
				md_cell(out, b);
				md_cell(out, "significance");
			}
		}
		fputs("|\n|---|---|", out);
		for (size_t i = 0; i < n; i++)
			fputs(i ? "---:|---:|---:|---|" : "---:|---:|", out);
		fputc('\n', out);
		json_object *tests = jpath(sec, "tests");
		for (size_t k = 0; k < jarr_len(tests); k++) {
			json_object *t = at(tests, k);
			md_cell(out, jpath_str(t, "name") ?: jpath_str(t, "id"));
			md_cell(out, jpath_str(t, "unit") ?: "");
			for (size_t i = 0; i < n; i++) {
				json_object *v = at(jpath(t, "values"), i);
				num1(v, "result", b, sizeof(b));
				md_cell(out, b);
				num1(v, "index", b, sizeof(b));
				md_cell(out, b);
				if (i)
					md_change(at(jpath(t, "changes"), i), out);
			}
			fputs("|\n", out);
		}
		md_cell(out, "**System Benchmarks Index Score**");
		md_cell(out, "");
		for (size_t i = 0; i < n; i++) {
			json_object *v = at(jpath(sec, "score.values"), i);
			bool partial = false;
			jpath_bool(v, "partial", &partial);
			md_cell(out, partial ? "(partial)" : "");
			num1(v, "score", b, sizeof(b));
			char bold[80];
			snprintf(bold, sizeof(bold), "**%s**", b);
			md_cell(out, bold);
			if (i)
				md_change(at(jpath(sec, "score.changes"), i), out);
		}
		fputs("|\n", out);
	}
	json_object *differs = jpath(cmp, "environment.differs");
	fputs("\n### Environment differences\n\n", out);
	if (!jarr_len(differs)) {
		fputs("None among the facts recorded by all.\n", out);
	} else {
		md_cell(out, "Fact");
		for (size_t i = 0; i < n; i++)
			md_cell(out, label(cmp, i));
		fputs("|\n|---|", out);
		for (size_t i = 0; i < n; i++)
			fputs("---|", out);
		fputc('\n', out);
		for (size_t f = 0; f < jarr_len(differs); f++) {
			json_object *o = at(differs, f);
			md_cell(out, jpath_str(o, "fact"));
			for (size_t i = 0; i < n; i++) {
				json_object *v = at(jpath(o, "values"), i);
				md_cell(out, v ? json_object_get_string(v) : "?");
			}
			fputs("|\n", out);
		}
	}
	json_object *notes = jpath(cmp, "notes");
	if (jarr_len(notes))
		fputs("\n### Notes\n\n", out);
	for (size_t i = 0; i < jarr_len(notes); i++)
		fprintf(out, "- %s\n", json_object_get_string(at(notes, i)));
	fprintf(out, "\nChange: the index (else the result) against %s; p: Welch's t-test on the rates of the passes "
		     "UnixBench kept; \"~\": within the noise; bold: the biggest changes.\n",
		label(cmp, 0));
}

/* ---- CSV ---- */

/* RFC 4180: quoted when it holds a comma, quote or line break. */
static void csv_field(FILE *out, const char *s, bool last)
{
	s = s ? s : "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputs(last ? "\r\n" : ",", out);
}

static void csv_member(FILE *out, json_object *o, const char *key, bool last)
{
	json_object *v = o ? jpath(o, key) : NULL;
	char b[64];
	double d;
	if (v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) &&
	    jpath_double(o, key, &d)) {
		snprintf(b, sizeof(b), "%.10g", d);
		csv_field(out, b, last);
	} else {
		csv_field(out, v ? json_object_get_string(v) : "", last);
	}
}

static void csv_row(FILE *out, json_object *cmp, json_object *sec, size_t i, const char *id, const char *name,
		    const char *unit, json_object *value, const char *result_key, const char *index_key, json_object *change)
{
	char b[32];
	csv_field(out, jpath_str(sec, "title"), false);
	json_object *copies = at(jpath(sec, "copies"), i);
	csv_field(out, copies ? json_object_get_string(copies) : "", false);
	csv_field(out, id, false);
	csv_field(out, name, false);
	csv_field(out, unit, false);
	csv_field(out, label(cmp, i), false);
	csv_member(out, value, result_key, false);
	csv_member(out, value, index_key, false);
	csv_member(out, value, "samples", false);
	csv_member(out, value, "passes", false);
	csv_member(out, change, "pct", false);
	csv_member(out, change, "test", false);
	csv_member(out, change, "p", false);
	csv_member(out, change, "significant", false);
	snprintf(b, sizeof(b), "%s", highlighted(change) ? "true" : change ? "false" : "");
	csv_field(out, b, true);
}

static void render_csv(json_object *cmp, FILE *out)
{
	static const char *const header[] = { "section", "copies", "test_id", "test", "unit", "label", "result", "index",
					      "samples", "passes", "change_pct", "significance_test", "p_value",
					      "significant", "highlight" };
	for (size_t i = 0; i < ARRAY_SIZE(header); i++)
		csv_field(out, header[i], i + 1 == ARRAY_SIZE(header));
	size_t n = jarr_len(jpath(cmp, "results"));
	json_object *sections = jpath(cmp, "sections");
	for (size_t s = 0; s < jarr_len(sections); s++) {
		json_object *sec = at(sections, s);
		json_object *tests = jpath(sec, "tests");
		for (size_t k = 0; k < jarr_len(tests); k++) {
			json_object *t = at(tests, k);
			for (size_t i = 0; i < n; i++) {
				json_object *v = at(jpath(t, "values"), i);
				if (v)
					csv_row(out, cmp, sec, i, jpath_str(t, "id"), jpath_str(t, "name"), jpath_str(t, "unit"),
						v, "result", "index", at(jpath(t, "changes"), i));
			}
		}
		for (size_t i = 0; i < n; i++) {
			json_object *v = at(jpath(sec, "score.values"), i);
			if (v)
				csv_row(out, cmp, sec, i, "score", "System Benchmarks Index Score", "", v, "-", "score",
					at(jpath(sec, "score.changes"), i));
		}
	}
}

void compare_render(json_object *cmp, enum compare_format f, FILE *out)
{
	switch (f) {
	case COMPARE_TEXT:
		render_text(cmp, out);
		break;
	case COMPARE_MARKDOWN:
		render_markdown(cmp, out);
		break;
	case COMPARE_CSV:
		render_csv(cmp, out);
		break;
	case COMPARE_JSON:
		fprintf(out, "%s\n", jdump(cmp, true));
		break;
	}
}
