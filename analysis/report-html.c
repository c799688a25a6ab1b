/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "analysis/report-html.h"

#include <math.h>
#include <time.h>

#include "analysis/chart.h"
#include "analysis/xml.h"
#include "lib/util.h"

static const char style[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:1000px;padding:0 1em;"
	"color:#222;line-height:1.4}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em;"
	"margin-top:2em}h3{font-size:1.05em;margin-bottom:.3em}\n"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-size:.88em}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}th{background:#f2f2f2;text-align:left}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"tr>td:first-child{white-space:nowrap}\n"
	"tr.diff td{background:#fff4cc}tr.score td{font-weight:bold;border-top:2px solid #999}\n"
	".up{color:#0a7a2f}.down{color:#b00020}.big{font-weight:bold}.muted{color:#777}\n"
	".crit{color:#b00020;font-weight:bold}.warn{color:#9a6400;font-weight:bold}.info{color:#555}\n"
	".wide{overflow-x:auto}\n"
	".cards{display:flex;flex-wrap:wrap;gap:.6em}.card{border:1px solid #ccc;border-radius:4px;padding:.5em .9em}\n"
	".card .score{font-size:1.7em;font-weight:bold}.label{display:inline-block;min-width:1.4em;font-weight:bold}\n"
	"ul.findings li{margin-bottom:.4em}code{font-size:.92em;background:#f4f4f4;padding:0 .2em}\n"
	"svg{max-width:100%;height:auto}footer{margin-top:3em;font-size:.8em;color:#777}\n"
	"@media print{body{max-width:none}h2{break-after:avoid}table,svg{break-inside:avoid}}\n";

static json_object *at(json_object *a, size_t i)
{
	return i < jarr_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

static void text(FILE *out, const char *tag, const char *cls, const char *s)
{
	if (cls) {
		fprintf(out, "<%s class=\"%s\">", tag, cls);
		xml_escape(out, s);
		fprintf(out, "</%s>", tag);
	} else {
		xml_element(out, tag, NULL, s);
	}
}

/* A number cell: "%.1f" (or the format given), "-" when missing. */
static void num_cell(FILE *out, json_object *o, const char *key, const char *fmt)
{
	double v;
	char b[64];
	if (o && jpath_double(o, key, &v))
		snprintf(b, sizeof(b), fmt, v);
	else
		snprintf(b, sizeof(b), "-");
	text(out, "td", "num", b);
}

static const char *label(json_object *cmp, size_t i)
{
	return jpath_str(at(jpath(cmp, "results"), i), "label") ?: "?";
}

/* ---- head and summary ---- */

void report_html_open(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n",
	      out);
	text(out, "title", NULL, title);
	fputs("\n<style>\n", out);
	fputs(style, out);
	fputs("</style>\n</head>\n<body>\n", out);
	text(out, "h1", NULL, title);
	fputc('\n', out);
}

void report_html_close(FILE *out)
{
	char when[40];
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	_cleanup_free_ char *foot = xasprintf("Made by ubtune %s on %s. The page needs no network: its charts are "
					      "inline SVG.",
					      UBTUNE_VERSION, when);
	text(out, "footer", NULL, foot);
	fputs("\n</body>\n</html>\n", out);
}

static void head(FILE *out, json_object *cmp, size_t n)
{
	_cleanup_free_ char *title =
		n == 1 ? xasprintf("UnixBench result: %s", jpath_str(at(jpath(cmp, "results"), 0), "name") ?: "?")
		       : xasprintf("UnixBench comparison of %zu results", n);
	report_html_open(out, title);
}

static void summary(FILE *out, json_object *cmp, const struct compare_input *in, size_t n)
{
	fputs("<h2 id=\"summary\">Scores</h2>\n<div class=\"cards\">\n", out);
	for (size_t i = 0; i < n; i++) {
		json_object *r = at(jpath(cmp, "results"), i);
		fputs("<div class=\"card\">\n<div>", out);
		text(out, "span", "label", label(cmp, i));
		xml_escape(out, jpath_str(r, "name") ?: "?");
		fputs("</div>\n", out);
		json_object *runs = jpath(in[i].rec, "runs");
		for (size_t k = 0; k < jarr_len(runs); k++) {
			json_object *run = at(runs, k);
			int64_t copies = 0;
			double score, lo, hi;
			bool partial = false;
			jpath_int(run, "copies", &copies);
			jpath_bool(run, "index.partial", &partial);
			char b[160];
			fputs("<div>", out);
			if (jpath_double(run, "index.score", &score))
				snprintf(b, sizeof(b), "%.1f", score);
			else
				snprintf(b, sizeof(b), "-");
			text(out, "span", "score", b);
			if (copies)
				snprintf(b, sizeof(b), " %lld cop%s%s", (long long)copies, copies == 1 ? "y" : "ies",
					 partial ? ", partial index" : "");
			else
				snprintf(b, sizeof(b), " copies not said%s", partial ? ", partial index" : "");
			xml_escape(out, b);
			json_object *ci = jpath(run, "index.ci95");
			if (jarr_len(ci) == 2) {
				lo = json_object_get_double(at(ci, 0));
				hi = json_object_get_double(at(ci, 1));
				snprintf(b, sizeof(b), " (95 %% interval %.1f to %.1f)", lo, hi);
				text(out, "span", "muted", b);
			}
			fputs("</div>\n", out);
		}
		fputs("<div class=\"muted\">", out);
		xml_escape(out, jpath_str(r, "source") ?: "");
		fputs("</div>\n</div>\n", out);
	}
	fputs("</div>\n", out);
}

/* ---- environment ---- */

static void env_rows(FILE *out, json_object *list, size_t n, const char *cls)
{
	for (size_t f = 0; f < jarr_len(list); f++) {
		json_object *o = at(list, f);
		fprintf(out, "<tr%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
		text(out, "th", NULL, jpath_str(o, "fact") ?: "?");
		for (size_t i = 0; i < n; i++) {
			json_object *v = at(jpath(o, "values"), i);
			text(out, "td", v ? NULL : "muted", v ? json_object_get_string(v) : "not recorded");
		}
		fputs("</tr>\n", out);
	}
}

static void environment(FILE *out, json_object *cmp, size_t n)
{
	fputs("<h2 id=\"environment\">Environment</h2>\n", out);
	if (n > 1) {
		size_t d = jarr_len(jpath(cmp, "environment.differs"));
		char b[96];
		if (d)
			snprintf(b, sizeof(b), "%zu fact%s differ%s (highlighted).", d, d == 1 ? "" : "s", d == 1 ? "s" : "");
		else
			snprintf(b, sizeof(b), "No recorded fact differs.");
		text(out, "p", NULL, b);
	}
	fputs("<table>\n<tr><th>fact</th>", out);
	for (size_t i = 0; i < n; i++)
		text(out, "th", NULL, label(cmp, i));
	fputs("</tr>\n", out);
	env_rows(out, jpath(cmp, "environment.differs"), n, "diff");
	env_rows(out, jpath(cmp, "environment.same"), n, NULL);
	env_rows(out, jpath(cmp, "environment.unknown"), n, NULL);
	fputs("</table>\n", out);
}

/* ---- findings, events, import problems ---- */

static int severity_rank(const char *s)
{
	return !s ? 3 : streq(s, "crit") ? 0 : streq(s, "warn") ? 1 : streq(s, "info") ? 2 : 3;
}

static void finding_item(FILE *out, json_object *o, int rank)
{
	const char *sev = jpath_str(o, "severity");
	fputs("<li>", out);
	text(out, "span", rank == 0 ? "crit" : rank == 1 ? "warn" : "info", sev ? sev : "?");
	fputc(' ', out);
	text(out, "code", NULL, jpath_str(o, "id") ?: "?");
	fputc(' ', out);
	xml_escape(out, jpath_str(o, "message") ?: "");
	if (jpath_str(o, "evidence")) {
		fputs("<br/>evidence ", out);
		text(out, "code", NULL, jpath_str(o, "evidence"));
	}
	if (jpath_str(o, "fix")) {
		fputs("<br/>fix ", out);
		text(out, "code", NULL, jpath_str(o, "fix"));
	}
	fputs("</li>\n", out);
}

static void problem_item(FILE *out, json_object *p)
{
	int64_t line = 0;
	char b[64];
	if (jpath_int(p, "line", &line))
		snprintf(b, sizeof(b), "import, line %lld", (long long)line);
	else
		snprintf(b, sizeof(b), "import");
	fputs("<li>", out);
	text(out, "span", "warn", b);
	fputc(' ', out);
	xml_escape(out, jpath_str(p, "problem") ?: "?");
	if (jpath_str(p, "text")) {
		fputc(' ', out);
		text(out, "code", NULL, jpath_str(p, "text"));
	}
	fputs("</li>\n", out);
}

/* Where an imported result came from and what had to be repaired. */
static void import_note(FILE *out, json_object *rec)
{
	json_object *imp = jpath(rec, "import");
	if (!imp)
		return;
	struct buf b = {0};
	buf_printf(&b, "Imported from %s", jpath_str(imp, "source") ?: "standard input");
	json_object *formats = jpath(imp, "formats");
	for (size_t i = 0; i < jarr_len(formats); i++)
		buf_printf(&b, "%s%s", i ? ", " : " (", json_object_get_string(at(formats, i)));
	buf_puts(&b, jarr_len(formats) ? ")" : "");
	if (jpath_str(imp, "log"))
		buf_printf(&b, "; per-pass values from %s", jpath_str(imp, "log"));
	json_object *repaired = jpath(imp, "repaired");
	for (size_t i = 0; i < jarr_len(repaired); i++)
		buf_printf(&b, "%s%s", i ? ", " : "; repaired: ", json_object_get_string(at(repaired, i)));
	buf_puts(&b, ".");
	text(out, "p", NULL, b.s);
	buf_free(&b);
}

static void findings_of(FILE *out, json_object *rec)
{
	json_object *f = jpath(rec, "environment.before.findings"), *events = jpath(rec, "events");
	json_object *problems = jpath(rec, "import.problems");
	import_note(out, rec);
	if (!jarr_len(f) && !jarr_len(events) && !jarr_len(problems)) {
		bool imported = false;
		jpath_bool(rec, "imported", &imported);
		text(out, "p", "muted",
		     imported ? "Imported from UnixBench output: it has no probe findings or sampler events."
			      : "No findings, no events during the run.");
		return;
	}
	fputs("<ul class=\"findings\">\n", out);
	for (int rank = 0; rank <= 3; rank++)
		for (size_t i = 0; i < jarr_len(f); i++)
			if (severity_rank(jpath_str(at(f, i), "severity")) == rank)
				finding_item(out, at(f, i), rank);
	for (size_t i = 0; i < jarr_len(events); i++) {
		fputs("<li>", out);
		text(out, "span", "warn", "during the run");
		fputc(' ', out);
		xml_escape(out, jpath_str(at(events, i), "message") ?: jpath_str(at(events, i), "kind") ?: "?");
		fputs("</li>\n", out);
	}
	for (size_t i = 0; i < jarr_len(problems); i++)
		problem_item(out, at(problems, i));
	fputs("</ul>\n", out);
}

static void findings(FILE *out, json_object *cmp, const struct compare_input *in, size_t n)
{
	fputs("<h2 id=\"findings\">Findings and events</h2>\n", out);
	for (size_t i = 0; i < n; i++) {
		if (n > 1) {
			_cleanup_free_ char *h = xasprintf("%s: %s", label(cmp, i), jpath_str(at(jpath(cmp, "results"), i), "name") ?: "?");
			text(out, "h3", NULL, h);
		}
		findings_of(out, in[i].rec);
	}
}

/* ---- tests ---- */

static void change_cells(FILE *out, json_object *c)
{
	char pct[32], verdict[32];
	compare_format_pct(c, pct, sizeof(pct));
	compare_verdict(c, verdict, sizeof(verdict));
	bool sig = false, high = false;
	double v = 0;
	jpath_bool(c, "significant", &sig);
	jpath_bool(c, "highlight", &high);
	jpath_double(c, "pct", &v);
	const char *cls = !sig ? (high ? "num big" : "num") : v > 0 ? (high ? "num up big" : "num up")
								    : (high ? "num down big" : "num down");
	text(out, "td", cls, pct);
	text(out, "td", "muted", verdict);
}

static void comparison_table(FILE *out, json_object *cmp, json_object *sec, size_t n)
{
	text(out, "h3", NULL, jpath_str(sec, "title") ?: "");
	fputs("<div class=\"wide\"><table>\n<tr><th>Test</th><th>unit</th>", out);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *r = xasprintf("%s result", label(cmp, i));
		_cleanup_free_ char *x = xasprintf("%s index", label(cmp, i));
		text(out, "th", "num", r);
		text(out, "th", "num", x);
		if (i) {
			_cleanup_free_ char *c = xasprintf("%s vs %s", label(cmp, i), label(cmp, 0));
			text(out, "th", "num", c);
			text(out, "th", NULL, "significance");
		}
	}
	fputs("</tr>\n", out);
	json_object *tests = jpath(sec, "tests");
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = at(tests, k);
		fputs("<tr>", out);
		text(out, "td", NULL, jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?");
		text(out, "td", NULL, jpath_str(t, "unit") ?: "");
		for (size_t i = 0; i < n; i++) {
			json_object *v = at(jpath(t, "values"), i);
			num_cell(out, v, "result", "%.1f");
			num_cell(out, v, "index", "%.1f");
			if (i)
				change_cells(out, at(jpath(t, "changes"), i));
		}
		fputs("</tr>\n", out);
	}
	fputs("<tr class=\"score\"><td>System Benchmarks Index Score</td><td></td>", out);
	for (size_t i = 0; i < n; i++) {
		json_object *v = at(jpath(sec, "score.values"), i);
		bool partial = false;
		jpath_bool(v, "partial", &partial);
		text(out, "td", "num", partial ? "(partial)" : "");
		num_cell(out, v, "score", "%.1f");
		if (i)
			change_cells(out, at(jpath(sec, "score.changes"), i));
	}
	fputs("</tr>\n</table></div>\n", out);
}

/* Every test of one run with its dispersion, as UnixBench does not show it. */
static void run_table(FILE *out, json_object *run)
{
	static const char *const heads[] = { "Test", "result", "unit", "time (s)", "samples", "passes", "index",
					     "CV %", "min", "max", "95 % interval" };
	fputs("<div class=\"wide\"><table>\n<tr>", out);
	for (size_t i = 0; i < ARRAY_SIZE(heads); i++)
		text(out, "th", i == 0 || i == 2 || i == 10 ? NULL : "num", heads[i]);
	fputs("</tr>\n", out);
	json_object *tests = jpath(run, "tests");
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = at(tests, k);
		char b[96];
		fputs("<tr>", out);
		text(out, "td", NULL, jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?");
		num_cell(out, t, "result", "%.1f");
		text(out, "td", NULL, jpath_str(t, "unit") ?: "");
		num_cell(out, t, "time_s", "%.1f");
		num_cell(out, t, "samples", "%.0f");
		snprintf(b, sizeof(b), "%zu", jarr_len(jpath(t, "passes")));
		text(out, "td", "num", b);
		num_cell(out, t, "index", "%.1f");
		num_cell(out, t, "dispersion.cv_pct", "%.1f");
		num_cell(out, t, "dispersion.min", "%.1f");
		num_cell(out, t, "dispersion.max", "%.1f");
		json_object *ci = jpath(t, "ci95");
		if (jarr_len(ci) == 2)
			snprintf(b, sizeof(b), "%.1f to %.1f", json_object_get_double(at(ci, 0)), json_object_get_double(at(ci, 1)));
		else
			snprintf(b, sizeof(b), "-");
		text(out, "td", "num", b);
		json_object *err = jpath(t, "error");
		if (err) {
			fputs("</tr>\n<tr><td></td><td colspan=\"10\" class=\"warn\">", out);
			xml_escape(out, json_object_get_string(err));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

static void tests(FILE *out, json_object *cmp, const struct compare_input *in, size_t n)
{
	fputs("<h2 id=\"tests\">Tests</h2>\n", out);
	json_object *sections = jpath(cmp, "sections");
	if (n > 1) {
		for (size_t s = 0; s < jarr_len(sections); s++)
			comparison_table(out, cmp, at(sections, s), n);
		json_object *notes = jpath(cmp, "notes");
		text(out, "p", "muted",
		     "Change: the index (else the result) against A; significance: Welch's t-test on the rates of the "
		     "passes UnixBench kept (p < 0.05), \"~\" within the noise, \"untested\" without per-pass values; "
		     "bold: the biggest changes.");
		if (jarr_len(notes)) {
			fputs("<ul>\n", out);
			for (size_t i = 0; i < jarr_len(notes); i++)
				text(out, "li", NULL, json_object_get_string(at(notes, i)));
			fputs("</ul>\n", out);
		}
	}
	for (size_t i = 0; i < n; i++) {
		json_object *runs = jpath(in[i].rec, "runs");
		for (size_t k = 0; k < jarr_len(runs); k++) {
			int64_t copies = 0;
			jpath_int(at(runs, k), "copies", &copies);
			_cleanup_free_ char *h = copies ? xasprintf("%s%s%lld cop%s: every test", n > 1 ? label(cmp, i) : "",
								    n > 1 ? ", " : "", (long long)copies, copies == 1 ? "y" : "ies")
							: xasprintf("%s%scopies not said: every test", n > 1 ? label(cmp, i) : "",
								    n > 1 ? ", " : "");
			text(out, "h3", NULL, h);
			run_table(out, at(runs, k));
		}
	}
	text(out, "p", "muted",
	     "CV, min and max are over the rates of all passes (the ones UnixBench dropped too); the 95 % interval "
	     "is a bootstrap over the passes of this run only.");
	fputc('\n', out);
}

/* ---- charts ---- */

static void charts(FILE *out, json_object *cmp, const struct compare_input *in, size_t n)
{
	fputs("<h2 id=\"charts\">Charts</h2>\n<figure>\n", out);
	chart_compare(cmp, false, CHART_INLINE, out);
	fputs("</figure>\n", out);
	if (n > 1) {
		fputs("<figure>\n", out);
		chart_compare(cmp, true, CHART_INLINE, out);
		fputs("</figure>\n", out);
	}
	/* no readings on any side: no section of empty panels */
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any = any || chart_has_timeline(in[i].rec);
	if (!any)
		return;
	fputs("<h2 id=\"timeline\">During the run</h2>\n", out);
	for (size_t i = 0; i < n; i++) {
		if (n > 1) {
			_cleanup_free_ char *h = xasprintf("%s: %s", label(cmp, i), jpath_str(at(jpath(cmp, "results"), i), "name") ?: "?");
			text(out, "h3", NULL, h);
		}
		fputs("<figure>\n", out);
		bool imported = false;
		jpath_bool(in[i].rec, "imported", &imported);
		if (!chart_timeline(in[i].rec, CHART_INLINE, out))
			text(out, "p", "muted",
			     imported ? "Imported results have no readings of clock, temperature or alarms."
				      : "The sampler took no readings during this run.");
		fputs("</figure>\n", out);
	}
}

void report_html(const struct compare_input *in, size_t n, FILE *out)
{
	struct compare_opts o = {0};
	_cleanup_json_ json_object *cmp = compare_build(in, n, &o);
	head(out, cmp, n);
	summary(out, cmp, in, n);
	environment(out, cmp, n);
	findings(out, cmp, in, n);
	tests(out, cmp, in, n);
	charts(out, cmp, in, n);
	report_html_close(out);
}
