/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form of the fleet record. */
#include <math.h>
#include <string.h>

#include "analysis/fleet.h"
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

static void number(FILE *out, json_object *v, int width)
{
	char b[32];
	fleet_value_text(v, b, sizeof(b));
	fprintf(out, "%*s", width, b);
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

static void table(json_object *fleet, json_object *sec, FILE *out)
{
	json_object *rows[64];
	size_t nrows = fleet_section_rows(sec, rows, ARRAY_SIZE(rows));
	json_object *hosts = jpath(sec, "hosts"), *results = jpath(fleet, "results");
	int w = 8;
	for (size_t k = 0; k < jarr_len(hosts); k++) {
		const char *l = jpath_str(at(results, (size_t)json_object_get_int64(at(hosts, k))), "label") ?: "?";
		w = (int)strlen(l) > w ? (int)strlen(l) : w;
	}
	fprintf(out, "%-*s", w, "HOST");
	for (size_t r = 0; r < nrows; r++)
		fprintf(out, " %9s", rows[r] == jpath(sec, "score") ? "score" : code_of(rows[r]));
	fputc('\n', out);
	for (size_t k = 0; k < jarr_len(hosts); k++) {
		size_t result = (size_t)json_object_get_int64(at(hosts, k));
		fprintf(out, "%-*s", w, jpath_str(at(results, result), "label") ?: "?");
		for (size_t r = 0; r < nrows; r++) {
			fputc(' ', out);
			number(out, at(jpath(rows[r], "values"), k), 8);
			fputc(mark(rows[r], result), out);
		}
		fputc('\n', out);
	}
	fprintf(out, "%-*s", w, "median");
	for (size_t r = 0; r < nrows; r++) {
		fputc(' ', out);
		number(out, jpath(rows[r], "stats.median"), 8);
		fputc(' ', out);
	}
	fprintf(out, "\n%-*s", w, "spread %");
	for (size_t r = 0; r < nrows; r++) {
		fputc(' ', out);
		number(out, jpath(rows[r], "stats.spread_pct"), 8);
		fputc(' ', out);
	}
	fputc('\n', out);
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
	fprintf(out, "Columns: %s; index values unless marked; v/^ below/above the normal range.\n", b.s ? b.s : "");
	buf_free(&b);
}

static void outlier_details(json_object *o, FILE *out)
{
	fprintf(out, "  %s\n", jpath_str(o, "sentence") ?: "?");
	json_object *diffs = jpath(o, "differences");
	for (size_t i = 0; i < jarr_len(diffs) && i < SHOWN_FACTS; i++) {
		json_object *d = at(diffs, i);
		fprintf(out, "    %-18s %s; %s\n", jpath_str(d, "fact") ?: "?", jpath_str(d, "own") ?: "?",
			jpath_str(d, "theirs") ?: "?");
	}
	if (jarr_len(diffs) > SHOWN_FACTS)
		fprintf(out, "    (%zu more facts differ: --json lists them)\n", jarr_len(diffs) - SHOWN_FACTS);
	json_object *causes = jpath(o, "causes");
	for (size_t i = 0; i < jarr_len(causes) && i < SHOWN_CAUSES; i++) {
		json_object *c = at(causes, i);
		fprintf(out, "    diagnose: %s (%s, %s confidence): %s\n", jpath_str(c, "title") ?: "?",
			jpath_str(c, "id") ?: "?", jpath_str(c, "confidence") ?: "?", jpath_str(c, "reason") ?: "");
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
	fprintf(out, "Fleet of %zu result%s. A host is an outlier in a test %g robust standard deviations\n"
		     "(%g x MAD of the logarithms) and %g %% or more from the fleet's median.\n",
		jarr_len(jpath(fleet, "results")), jarr_len(jpath(fleet, "results")) == 1 ? "" : "s", FLEET_K,
		FLEET_MAD_SCALE, FLEET_MIN_PCT);
	for (size_t s = 0; s < jarr_len(sections); s++) {
		fputc('\n', out);
		section(fleet, at(sections, s), out);
	}
	json_object *notes = jpath(fleet, "notes");
	for (size_t i = 0; i < jarr_len(notes); i++)
		fprintf(out, "%sNote: %s\n", i ? "" : "\n", json_object_get_string(at(notes, i)));
}
