/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fleet view as a page: the outliers in a sentence each, then per copy
 * count the table of hosts × tests, the strips, and each outlier's facts
 * and causes. Markup through analysis/xml.h, the look of report-html. */
#include <math.h>

#include "analysis/chart.h"
#include "analysis/fleet.h"
#include "analysis/report-html.h"
#include "analysis/xml.h"
#include "lib/util.h"

static json_object *at(json_object *a, size_t i)
{
	return i < jarr_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

static void cell(FILE *out, const char *tag, const char *cls, const char *s)
{
	fprintf(out, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	xml_escape(out, s);
	fprintf(out, "</%s>", tag);
}

static void num(FILE *out, json_object *v, const char *cls)
{
	char b[32];
	fleet_value_text(v, b, sizeof(b));
	cell(out, "td", cls, b);
}

/* "num down" for a low outlier's cell, "num up" for a high one. */
static const char *cell_class(json_object *row, int64_t result)
{
	json_object *outliers = jpath(row, "outliers");
	int64_t r;
	for (size_t i = 0; i < jarr_len(outliers); i++)
		if (jpath_int(at(outliers, i), "result", &r) && r == result)
			return streq_ptr(jpath_str(at(outliers, i), "direction"), "low") ? "num down big" : "num up big";
	return "num";
}

static void table(FILE *out, json_object *fleet, json_object *sec)
{
	json_object *rows[64], *hosts = jpath(sec, "hosts");
	size_t n = fleet_section_rows(sec, rows, ARRAY_SIZE(rows));
	fputs("<div class=\"wide\"><table class=\"fleet\">\n<tr><th>host</th>", out);
	for (size_t r = 0; r < n; r++)
		cell(out, "th", "num", rows[r] == jpath(sec, "score") ? "Index score" : jpath_str(rows[r], "label") ?: "?");
	fputs("</tr>\n", out);
	for (size_t k = 0; k < jarr_len(hosts); k++) {
		int64_t result = json_object_get_int64(at(hosts, k));
		fputs("<tr>", out);
		cell(out, "td", NULL, jpath_str(at(jpath(fleet, "results"), (size_t)result), "label") ?: "?");
		for (size_t r = 0; r < n; r++)
			num(out, at(jpath(rows[r], "values"), k), cell_class(rows[r], result));
		fputs("</tr>\n", out);
	}
	static const char *const stats[][2] = { { "median", "stats.median" }, { "spread %", "stats.spread_pct" } };
	for (size_t s = 0; s < ARRAY_SIZE(stats); s++) {
		fputs("<tr class=\"score\">", out);
		cell(out, "td", NULL, stats[s][0]);
		for (size_t r = 0; r < n; r++)
			num(out, jpath(rows[r], stats[s][1]), "num");
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

static void outlier(FILE *out, json_object *o)
{
	fputs("<li>", out);
	cell(out, "strong", NULL, jpath_str(o, "sentence") ?: "?");
	json_object *diffs = jpath(o, "differences"), *causes = jpath(o, "causes");
	size_t relevant = 0;
	for (size_t i = 0; i < jarr_len(diffs); i++)
		relevant += json_object_get_boolean(jpath(at(diffs, i), "relevant"));
	if (relevant) {
		fputs("\n<table>\n<tr><th>fact</th><th>this host</th><th>its peers</th></tr>\n", out);
		for (size_t i = 0; i < jarr_len(diffs); i++) {
			json_object *d = at(diffs, i);
			/* a fact that does not move the test is no reason: --json has it */
			if (!json_object_get_boolean(jpath(d, "relevant")))
				continue;
			fputs("<tr class=\"diff\">", out);
			cell(out, "td", NULL, jpath_str(d, "fact") ?: "?");
			cell(out, "td", NULL, jpath_str(d, "own") ?: "?");
			cell(out, "td", NULL, jpath_str(d, "theirs") ?: "?");
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	if (jarr_len(causes)) {
		fputs("<ul>\n", out);
		for (size_t i = 0; i < jarr_len(causes); i++) {
			json_object *c = at(causes, i);
			_cleanup_free_ char *s = xasprintf("diagnose: %s (%s, %s confidence): %s", jpath_str(c, "title") ?: "?",
							   jpath_str(c, "id") ?: "?", jpath_str(c, "confidence") ?: "?",
							   jpath_str(c, "reason") ?: "");
			cell(out, "li", NULL, s);
			fputc('\n', out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</li>\n", out);
}

static void section(FILE *out, json_object *fleet, json_object *sec)
{
	int64_t copies = 0;
	jpath_int(sec, "copies", &copies);
	_cleanup_free_ char *h = xasprintf("%lld cop%s, %zu hosts", (long long)copies, copies == 1 ? "y" : "ies",
					   jarr_len(jpath(sec, "hosts")));
	cell(out, "h2", NULL, h);
	fputc('\n', out);
	table(out, fleet, sec);
	fputs("<figure>\n", out);
	chart_fleet(fleet, sec, CHART_INLINE, out);
	fputs("</figure>\n", out);
	json_object *rows[64];
	size_t n = fleet_section_rows(sec, rows, ARRAY_SIZE(rows)), shown = 0;
	for (size_t r = 0; r < n; r++) {
		json_object *outliers = jpath(rows[r], "outliers");
		for (size_t i = 0; i < jarr_len(outliers); i++) {
			if (!shown++)
				fputs("<h3>Outliers</h3>\n<ul class=\"findings\">\n", out);
			outlier(out, at(outliers, i));
		}
	}
	if (shown)
		fputs("</ul>\n", out);
	else
		cell(out, "p", "muted", "No host is outside the normal range.");
}

void fleet_html(json_object *fleet, FILE *out)
{
	const char *round = jpath_str(fleet, "round");
	_cleanup_free_ char *title = round ? xasprintf("UnixBench fleet, round %s", round)
					   : xasprintf("UnixBench fleet of %zu results", jarr_len(jpath(fleet, "results")));
	report_html_open(out, title);
	_cleanup_free_ char *rule = xasprintf("A host is an outlier in a test when it is more than %g robust standard "
					      "deviations (%g × the median absolute deviation) and at least %g %% "
					      "from the fleet's median.",
					      FLEET_K, FLEET_MAD_SCALE, FLEET_MIN_PCT);
	cell(out, "p", NULL, rule);
	fputc('\n', out);
	json_object *all = jpath(fleet, "outliers");
	if (jarr_len(all)) {
		fputs("<ul>\n", out);
		for (size_t i = 0; i < jarr_len(all); i++)
			cell(out, "li", NULL, jpath_str(at(all, i), "sentence") ?: "?");
		fputs("</ul>\n", out);
	}
	json_object *sections = jpath(fleet, "sections");
	for (size_t s = 0; s < jarr_len(sections); s++)
		section(out, fleet, at(sections, s));
	json_object *notes = jpath(fleet, "notes");
	for (size_t i = 0; i < jarr_len(notes); i++)
		cell(out, "p", "muted", json_object_get_string(at(notes, i)));
	report_html_close(out);
}
