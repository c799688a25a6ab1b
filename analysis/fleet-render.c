/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form of the fleet record. */
#include <inttypes.h>
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

static bool relevant(json_object *d)
{
	bool r = false;
	return jpath_bool(d, "relevant", &r) && r;
}

/* Under the sentence, the facts that move the test only: one that does
 * not is no reason, and the record says so ("relevant": false). */
static void outlier_details(json_object *o, FILE *out)
{
	hanging(out, 2, jpath_str(o, "sentence") ?: "?");
	json_object *all = jpath(o, "differences"), *diffs = json_object_new_array();
	for (size_t i = 0; i < jarr_len(all); i++)
		if (relevant(at(all, i)))
			json_object_array_add(diffs, json_object_get(at(all, i)));
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
	json_object_put(diffs);
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

/* "result 12", or in a view of results given, the file it came from. */
static char *result_name(json_object *fleet, json_object *sel, int64_t id)
{
	bool given = false;
	jpath_bool(sel, "given", &given);
	json_object *r = given ? at(jpath(fleet, "results"), (size_t)(id - 1)) : NULL;
	return r ? xstrdup(jpath_str(r, "source") ?: "?") : xasprintf("result %" PRId64, id);
}

/* "results 3, 4 and 7", "results 3, 4, ... (120 in all)" */
static char *id_list(json_object *fleet, json_object *sel, json_object *ids, int64_t count)
{
	struct buf b = {0};
	size_t n = jarr_len(ids);
	for (size_t i = 0; i < n && i < 5; i++) {
		_cleanup_free_ char *name = result_name(fleet, sel, json_object_get_int64(at(ids, i)));
		buf_printf(&b, "%s%s", i ? (i + 1 == n && count == (int64_t)n ? " and " : ", ") : "", name);
	}
	if (count > 5)
		buf_printf(&b, ", ... (%" PRId64 " in all)", count);
	return buf_steal(&b);
}

/* How many hosts from how many results, and which round. */
static char *heading(json_object *fleet, json_object *sel)
{
	int64_t hosts = 0, shown = 0, stored = 0;
	bool given = false;
	jpath_int(sel, "hosts", &hosts);
	jpath_int(sel, "shown", &shown);
	jpath_int(sel, "stored", &stored);
	jpath_bool(sel, "given", &given);
	const char *round = jpath_str(sel, "round");
	_cleanup_free_ char *from = given ? xasprintf("%" PRId64 " result%s given", shown, shown == 1 ? "" : "s")
					  : xasprintf("%" PRId64 " of %" PRId64 " stored results", shown, stored);
	if (round)
		return xasprintf("Round %s: %" PRId64 " host%s, from %s.", round, hosts, hosts == 1 ? "" : "s", from);
	return xasprintf("Fleet of %" PRId64 " host%s, from %s%s.", hosts, hosts == 1 ? "" : "s", from,
			 given ? "" : ": the latest result of each host at each copy count");
}

/* Which results were grouped as one host, which were left out, which
 * hosts of other rounds are missing. */
static void selection(json_object *fleet, json_object *sel, FILE *out)
{
	json_object *missing = jpath(sel, "missing"), *grouped = jpath(sel, "grouped"), *left = jpath(sel, "left_out");
	if (jarr_len(missing)) {
		struct buf b = {0};
		buf_printf(&b, "Missing from round %s (%zu host%s): ", jpath_str(sel, "round") ?: "?", jarr_len(missing),
			   jarr_len(missing) == 1 ? "" : "s");
		for (size_t i = 0; i < jarr_len(missing); i++) {
			json_object *m = at(missing, i);
			int64_t id = 0;
			jpath_int(m, "latest", &id);
			const char *round = jpath_str(m, "round"), *when = jpath_str(m, "started_at");
			buf_printf(&b, "%s%s (its latest result, %" PRId64 ", is %s%s", i ? "; " : "", jpath_str(m, "host") ?: "?",
				   id, round ? "of round " : "of no round", round ?: "");
			if (when && strlen(when) >= 16)
				buf_printf(&b, ", started %.10s %.5s", when, when + 11);
			buf_puts(&b, ")");
		}
		buf_puts(&b, ".");
		hanging(out, 0, b.s);
		buf_free(&b);
	}
	for (size_t i = 0; i < jarr_len(grouped); i++) {
		json_object *g = at(grouped, i), *ids = jpath(g, "results");
		_cleanup_free_ char *list = id_list(fleet, sel, ids, (int64_t)jarr_len(ids));
		_cleanup_free_ char *text = xasprintf("One host: %s, %s (%s).", jpath_str(g, "host") ?: "?", list,
						      jpath_str(g, "why") ?: "?");
		hanging(out, 0, text);
	}
	if (jarr_len(left)) {
		struct buf b = {0}, rounds = {0};
		int64_t other = 0, nrounds = 0;
		buf_puts(&b, "Left out: ");
		for (size_t i = 0; i < jarr_len(left); i++) {
			json_object *l = at(left, i);
			int64_t count = 0;
			jpath_int(l, "results", &count);
			const char *why = jpath_str(l, "why") ?: "?", *round = jpath_str(l, "round");
			/* the other rounds in one count, a round at most named */
			if (round) {
				other += count;
				if (nrounds++ < 3)
					buf_printf(&rounds, "%s%s", rounds.len ? ", " : "", round);
				continue;
			}
			_cleanup_free_ char *list = id_list(fleet, sel, jpath(l, "ids"), count);
			buf_printf(&b, "%s%s (%s)", b.len > strlen("Left out: ") ? "; " : "", list, why);
		}
		if (other)
			buf_printf(&b, "%s%" PRId64 " result%s of %" PRId64 " other round%s (%s%s)",
				   b.len > strlen("Left out: ") ? "; " : "", other, other == 1 ? "" : "s", nrounds,
				   nrounds == 1 ? "" : "s", rounds.s, nrounds > 3 ? ", ..." : "");
		buf_puts(&b, ".");
		hanging(out, 0, b.s);
		buf_free(&b);
		buf_free(&rounds);
	}
}

/* Names in a list, at most this many (--json has them all). */
#define SHOWN_NAMES 20

/* "h1, h2 and h3", or "25 hosts" */
static char *names_text(const struct strv *names)
{
	if (names->n > SHOWN_NAMES)
		return xasprintf("%zu hosts (--json lists them)", names->n);
	return strv_join(names, ", ");
}

/* fleet --since: the sentences of what moved, and who did not move. */
static void since(json_object *s, FILE *out)
{
	json_object *moved = jpath(s, "moved"), *hosts = jpath(s, "hosts");
	const char *round = jpath_str(s, "round") ?: "?";
	/* a host is listed per copy count: it moved when it did at any */
	struct strv all = {0}, went = {0}, still = {0};
	for (size_t i = 0; i < jarr_len(hosts); i++) {
		json_object *h = at(hosts, i);
		const char *name = jpath_str(h, "host") ?: "?";
		bool m = false;
		if (!strv_contains(&all, name))
			strv_push(&all, name);
		if (jpath_bool(h, "moved", &m) && m && !strv_contains(&went, name))
			strv_push(&went, name);
	}
	for (size_t i = 0; i < all.n; i++)
		if (!strv_contains(&went, all.v[i]))
			strv_push(&still, all.v[i]);
	_cleanup_free_ char *head = xasprintf("Since round %s: %zu of %zu host%s moved beyond their runs' spread "
					      "and %g %%.",
					      round, went.n, all.n, all.n == 1 ? "" : "s", FLEET_MIN_PCT);
	fputc('\n', out);
	hanging(out, 0, head);
	for (size_t i = 0; i < jarr_len(moved); i++)
		hanging(out, 2, json_object_get_string(at(moved, i)));
	if (still.n) {
		_cleanup_free_ char *list = names_text(&still), *text = xasprintf("Nothing moved: %s.", list);
		hanging(out, 2, text);
	}
	static const char *const lists[][2] = { { "new", "New since then" }, { "gone", "Gone since then" } };
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		json_object *a = jpath(s, lists[l][0]);
		struct strv names = {0};
		for (size_t i = 0; i < jarr_len(a); i++)
			strv_push(&names, json_object_get_string(at(a, i)));
		if (names.n) {
			_cleanup_free_ char *list = names_text(&names), *text = xasprintf("%s: %s.", lists[l][1], list);
			hanging(out, 2, text);
		}
		strv_free(&names);
	}
	strv_free(&all);
	strv_free(&went);
	strv_free(&still);
}

void fleet_render(json_object *fleet, FILE *out)
{
	json_object *sections = jpath(fleet, "sections"), *sel = jpath(fleet, "selection");
	size_t n = jarr_len(jpath(fleet, "results"));
	_cleanup_free_ char *count = sel ? heading(fleet, sel) : xasprintf("Fleet of %zu result%s.", n, n == 1 ? "" : "s");
	_cleanup_free_ char *head = xasprintf("%s A host is an outlier in a test %g robust standard deviations (%g x MAD "
					      "of the logarithms) and %g %% or more from the fleet's median.",
					      count, FLEET_K, FLEET_MAD_SCALE, FLEET_MIN_PCT);
	term_print_wrapped(out, head, 0, term_width(out));
	if (sel)
		selection(fleet, sel, out);
	for (size_t s = 0; s < jarr_len(sections); s++) {
		fputc('\n', out);
		section(fleet, at(sections, s), out);
	}
	if (jpath(fleet, "since"))
		since(jpath(fleet, "since"), out);
	json_object *notes = jpath(fleet, "notes");
	for (size_t i = 0; i < jarr_len(notes); i++) {
		fputs(i ? "" : "\n", out);
		_cleanup_free_ char *text = xasprintf("Note: %s", json_object_get_string(at(notes, i)));
		hanging(out, 0, text);
	}
}
