/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "analysis/report-html.h"

#include <math.h>
#include <time.h>

#include "analysis/chart.h"
#include "analysis/xml.h"
#include "lib/result-record.h"
#include "lib/result-stability.h"
#include "lib/util.h"

static const char style[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:1000px;padding:0 1em;"
	"color:#222;line-height:1.4}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em;"
	"margin-top:2em}h3{font-size:1.05em;margin-bottom:.3em}\n"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-size:.88em}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}th{background:#f2f2f2;text-align:left}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"tr>td:first-child{white-space:nowrap}table.tests td:first-child{white-space:normal;min-width:10em}"
	"table.tests th{white-space:normal}td.range{white-space:normal;min-width:6em}\n"
	"table.fleet{font-size:.8em}table.fleet th{white-space:normal;vertical-align:bottom}"
	"table.fleet td,table.fleet th{padding:.2em .3em}\n"
	"tr.diff td{background:#fff4cc}tr.score td{font-weight:bold;border-top:2px solid #999}\n"
	".up{color:#0a7a2f}.down{color:#b00020}.big{font-weight:bold}.muted{color:#777}\n"
	".crit{color:#b00020;font-weight:bold}.warn{color:#9a6400;font-weight:bold}.info{color:#555}\n"
	".verdict-untrusted{color:#b00020;font-weight:bold}.verdict-not-judged{color:#9a6400;font-weight:bold}"
	".verdict-stable{color:#0a7a2f;font-weight:bold}\n"
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

/* A number cell: "%.1f" (or the format given), "-" when unknown. */
static void opt_cell(FILE *out, bool known, double v, const char *fmt)
{
	char b[64];
	if (known)
		snprintf(b, sizeof(b), fmt, v);
	else
		snprintf(b, sizeof(b), "-");
	text(out, "td", "num", b);
}

static void num_cell(FILE *out, struct opt_num v, const char *fmt)
{
	opt_cell(out, v.known, v.v, fmt);
}

/* The same for a number of the comparison record. */
static void cmp_cell(FILE *out, json_object *o, const char *key, const char *fmt)
{
	double v = 0;
	bool known = o && jpath_double(o, key, &v);
	opt_cell(out, known, v, fmt);
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

/* "verdict-untrusted": the class of a verdict's words. */
static const char *verdict_class(enum verdict_state s)
{
	return s == VERDICT_UNTRUSTED ? "verdict-untrusted" : s == VERDICT_NOT_JUDGED ? "verdict-not-judged" : "verdict-stable";
}

static const char *verdict_words(enum verdict_state s)
{
	return s == VERDICT_UNTRUSTED ? "not to be trusted" : s == VERDICT_NOT_JUDGED ? "not judged" : "to be trusted";
}

/* The verdict in a card: its words and how many reasons the findings list. */
static void verdict_line(FILE *out, const struct result_record *r)
{
	struct result_verdict v;
	result_verdict(r, &v);
	fputs("<div>Stability: ", out);
	text(out, "span", verdict_class(v.state), verdict_words(v.state));
	_cleanup_free_ char *more = v.state == VERDICT_UNTRUSTED
					    ? xasprintf(" (%zu reason%s under Findings)", v.reasons.n, v.reasons.n == 1 ? "" : "s")
				    : v.state == VERDICT_NOT_JUDGED ? xasprintf(": %s", v.reasons.v[0])
								    : NULL;
	if (more)
		xml_escape(out, more);
	fputs("</div>\n", out);
	result_verdict_free(&v);
}

static void summary(FILE *out, json_object *cmp, const struct result_env *in, size_t n)
{
	fputs("<h2 id=\"summary\">Scores</h2>\n<div class=\"cards\">\n", out);
	for (size_t i = 0; i < n; i++) {
		json_object *r = at(jpath(cmp, "results"), i);
		fputs("<div class=\"card\">\n<div>", out);
		text(out, "span", "label", label(cmp, i));
		xml_escape(out, jpath_str(r, "name") ?: "?");
		fputs("</div>\n", out);
		for (size_t k = 0; k < in[i].r.runs.n; k++) {
			const struct result_run *run = &in[i].r.runs.v[k];
			int64_t copies = int_or(run->copies, 0);
			bool partial = is_true(run->index.partial);
			char b[160];
			fputs("<div>", out);
			if (run->index.score.known)
				snprintf(b, sizeof(b), "%.1f", run->index.score.v);
			else
				snprintf(b, sizeof(b), "-");
			text(out, "span", "score", b);
			if (copies)
				snprintf(b, sizeof(b), " %lld cop%s%s", (long long)copies, copies == 1 ? "y" : "ies",
					 partial ? ", partial index" : "");
			else
				snprintf(b, sizeof(b), " copies not said%s", partial ? ", partial index" : "");
			xml_escape(out, b);
			if (run->index.ci95.n == 2) {
				snprintf(b, sizeof(b), " (95 %% interval %.1f to %.1f)", run->index.ci95.v[0].v,
					 run->index.ci95.v[1].v);
				text(out, "span", "muted", b);
			}
			fputs("</div>\n", out);
		}
		verdict_line(out, &in[i].r);
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
	fputs("<table>\n", out);
	/* one result's facts need no heading: a row names its fact */
	if (n > 1) {
		fputs("<tr><th>fact</th>", out);
		for (size_t i = 0; i < n; i++)
			text(out, "th", NULL, label(cmp, i));
		fputs("</tr>\n", out);
	}
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

static void finding_item(FILE *out, const struct env_finding *f, int rank)
{
	fputs("<li>", out);
	text(out, "span", rank == 0 ? "crit" : rank == 1 ? "warn" : "info", f->severity ?: "?");
	fputc(' ', out);
	text(out, "code", NULL, f->id ?: "?");
	fputc(' ', out);
	xml_escape(out, f->message ?: "");
	if (f->evidence) {
		fputs("<br/>evidence ", out);
		text(out, "code", NULL, f->evidence);
	}
	if (f->fix) {
		fputs("<br/>fix ", out);
		text(out, "code", NULL, f->fix);
	}
	fputs("</li>\n", out);
}

static void problem_item(FILE *out, const struct result_problem *p)
{
	char b[64];
	if (p->line.known)
		snprintf(b, sizeof(b), "import, line %lld", (long long)p->line.v);
	else
		snprintf(b, sizeof(b), "import");
	fputs("<li>", out);
	text(out, "span", "warn", b);
	fputc(' ', out);
	xml_escape(out, p->problem ?: "?");
	if (p->text) {
		fputc(' ', out);
		text(out, "code", NULL, p->text);
	}
	fputs("</li>\n", out);
}

/* Where an imported result came from and what had to be repaired. */
static void import_note(FILE *out, const struct result_record *r)
{
	typeof(r->import) *imp = &r->import;
	if (!imp->json)
		return;
	struct buf b = {0};
	buf_printf(&b, "Imported from %s", imp->source ?: "standard input");
	for (size_t i = 0; i < imp->formats.n; i++)
		buf_printf(&b, "%s%s", i ? ", " : " (", imp->formats.v[i]);
	buf_puts(&b, imp->formats.n ? ")" : "");
	if (imp->log)
		buf_printf(&b, "; per-pass values from %s", imp->log);
	for (size_t i = 0; i < imp->repaired.n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "; repaired: ", imp->repaired.v[i]);
	buf_puts(&b, ".");
	text(out, "p", NULL, b.s);
	buf_free(&b);
}

/* The verdict with all its reasons, at the head of a result's findings. */
static void verdict_block(FILE *out, const struct result_record *r)
{
	struct result_verdict v;
	result_verdict(r, &v);
	fputs("<p>Stability: ", out);
	text(out, "span", verdict_class(v.state), verdict_words(v.state));
	if (v.state == VERDICT_STABLE)
		xml_escape(out, ": no test's passes vary by more than 5 % or fall into two groups, no test shared the "
				"machine past a threshold, no event during the run, no critical finding.");
	fputs("</p>\n", out);
	/* the tests' reasons folded when there are more than a few: their rows say them too */
	size_t tests = v.state == VERDICT_UNTRUSTED ? v.reasons.n - v.run_reasons : 0;
	size_t shown = tests > 3 ? v.run_reasons : v.reasons.n;
	if (v.reasons.n) {
		fputs("<ul class=\"reasons\">\n", out);
		for (size_t i = 0; i < shown; i++)
			text(out, "li", NULL, v.reasons.v[i]);
		if (shown < v.reasons.n) {
			_cleanup_free_ char *head = xasprintf("%zu tests not to be trusted (their rows under Tests say why): ",
							      v.reasons.n - shown);
			fputs("<li>", out);
			xml_escape(out, head);
			fputs("<details><summary>all of them</summary><ul>\n", out);
			for (size_t i = shown; i < v.reasons.n; i++)
				text(out, "li", NULL, v.reasons.v[i]);
			fputs("</ul></details></li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	result_verdict_free(&v);
}

/* The sampler's and the kernel's events, one line per kind with its count
 * and first message; every message in a fold below it, numbered as the
 * timeline numbers its triangles. */
static void event_items(FILE *out, const struct result_record *r)
{
	struct strv kinds = {0};
	for (size_t i = 0; i < r->events.n; i++)
		if (!strv_contains(&kinds, r->events.v[i].kind ?: "other"))
			strv_push(&kinds, r->events.v[i].kind ?: "other");
	for (size_t k = 0; k < kinds.n; k++) {
		size_t n = 0;
		size_t first = 0;
		for (size_t i = 0; i < r->events.n; i++)
			if (streq(r->events.v[i].kind ?: "other", kinds.v[k]) && !n++)
				first = i;
		_cleanup_free_ char *head = xasprintf("%zu event%s (%s)", n, n == 1 ? "" : "s", kinds.v[k]);
		_cleanup_free_ char *lead = xasprintf("%s %zu: ", n == 1 ? ", event" : ", the first, event", first + 1);
		fputs("<li class=\"events\">", out);
		text(out, "span", "warn", "during the run");
		fputc(' ', out);
		text(out, "strong", NULL, head);
		xml_escape(out, lead);
		xml_escape(out, r->events.v[first].message ?: r->events.v[first].kind ?: "?");
		if (n > 1) {
			_cleanup_free_ char *fold = xasprintf("all %zu", n);
			fputs("<details><summary>", out);
			xml_escape(out, fold);
			fputs("</summary><ol>\n", out);
			for (size_t i = 0; i < r->events.n; i++) {
				if (!streq(r->events.v[i].kind ?: "other", kinds.v[k]))
					continue;
				fprintf(out, "<li value=\"%zu\">", i + 1);
				xml_escape(out, r->events.v[i].message ?: "?");
				fputs("</li>", out);
			}
			fputs("</ol></details>", out);
		}
		fputs("</li>\n", out);
	}
	strv_free(&kinds);
}

static void findings_of(FILE *out, const struct result_env *s)
{
	const struct result_record *r = &s->r;
	size_t nf = s->env.findings.n;
	import_note(out, r);
	verdict_block(out, r);
	if (!nf && !r->events.n && !r->import.problems.n) {
		text(out, "p", "muted",
		     is_true(r->imported) ? "Imported from UnixBench output: it has no probe findings or sampler events."
					  : "No findings, no events during the run.");
		return;
	}
	fputs("<ul class=\"findings\">\n", out);
	for (int rank = 0; rank <= 3; rank++)
		for (size_t i = 0; i < nf; i++)
			if (severity_rank(s->env.findings.v[i].severity) == rank)
				finding_item(out, &s->env.findings.v[i], rank);
	event_items(out, r);
	for (size_t i = 0; i < r->import.problems.n; i++)
		problem_item(out, &r->import.problems.v[i]);
	fputs("</ul>\n", out);
}

static void findings(FILE *out, json_object *cmp, const struct result_env *in, size_t n)
{
	fputs("<h2 id=\"findings\">Findings and events</h2>\n", out);
	for (size_t i = 0; i < n; i++) {
		if (n > 1) {
			_cleanup_free_ char *h = xasprintf("%s: %s", label(cmp, i), jpath_str(at(jpath(cmp, "results"), i), "name") ?: "?");
			text(out, "h3", NULL, h);
		}
		findings_of(out, &in[i]);
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
			cmp_cell(out, v, "result", "%.1f");
			cmp_cell(out, v, "index", "%.1f");
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
		cmp_cell(out, v, "score", "%.1f");
		if (i)
			change_cells(out, at(jpath(sec, "score.changes"), i));
	}
	fputs("</tr>\n</table></div>\n", out);
}

/* Whether a test of the run kept its passes (an imported report has none). */
static bool run_has_passes(const struct result_run *run)
{
	for (size_t k = 0; k < run->tests.n; k++)
		if (run->tests.v[k].passes.n)
			return true;
	return false;
}

/* "a to b", or "-"; the cell may wrap at its spaces. */
static void range_cell(FILE *out, bool known, double lo, double hi)
{
	char b[96];
	if (known)
		snprintf(b, sizeof(b), "%.1f to %.1f", lo, hi);
	else
		snprintf(b, sizeof(b), "-");
	text(out, "td", "num range", b);
}

/* A test's verdict, its reasons as the cell's tooltip. */
static void verdict_cell(FILE *out, const struct result_record *r, const struct result_run *run,
			 const struct result_test *t)
{
	struct strv why = {0};
	enum verdict_state s = result_test_verdict(r, run, t, &why);
	_cleanup_free_ char *tip = strv_join(&why, "; ");
	fprintf(out, "<td class=\"%s\" title=\"", verdict_class(s));
	xml_escape(out, tip ?: "");
	fputs("\">", out);
	xml_escape(out, s == VERDICT_UNTRUSTED ? "untrusted" : s == VERDICT_NOT_JUDGED ? "not judged" : "stable");
	fputs("</td>", out);
	strv_free(&why);
}

/* Every test of one run with its dispersion and verdict, as UnixBench does
 * not show them; a run without passes (an imported report) has UnixBench's
 * columns only. Cells wrap where they can so that the table fits the page. */
static void run_table(FILE *out, const struct result_record *r, const struct result_run *run)
{
	static const char *const heads[] = { "Test", "result", "unit", "index", "time (s)", "samples" };
	static const char *const pass_heads[] = { "passes", "CV %", "min to max", "95 % interval", "verdict" };
	bool passes = run_has_passes(run);
	fputs("<div class=\"wide\"><table class=\"tests\">\n<tr>", out);
	for (size_t i = 0; i < ARRAY_SIZE(heads); i++)
		text(out, "th", i == 0 || i == 2 ? NULL : "num", heads[i]);
	for (size_t i = 0; passes && i < ARRAY_SIZE(pass_heads); i++)
		text(out, "th", i == 4 ? NULL : "num", pass_heads[i]);
	fputs("</tr>\n", out);
	for (size_t k = 0; k < run->tests.n; k++) {
		const struct result_test *t = &run->tests.v[k];
		fputs("<tr>", out);
		text(out, "td", NULL, t->name ?: t->id ?: "?");
		num_cell(out, t->result, "%.1f");
		text(out, "td", NULL, t->unit ?: "");
		num_cell(out, t->index, "%.1f");
		num_cell(out, t->time_s, "%.1f");
		opt_cell(out, t->samples.known, (double)t->samples.v, "%.0f");
		if (passes) {
			/* one pass has no spread: its min, max and interval are the result */
			bool spread = t->passes.n > 1;
			opt_cell(out, true, (double)t->passes.n, "%.0f");
			num_cell(out, t->dispersion.cv_pct, "%.1f");
			range_cell(out, spread && t->dispersion.min.known && t->dispersion.max.known, t->dispersion.min.v,
				   t->dispersion.max.v);
			range_cell(out, spread && t->ci95.n == 2, t->ci95.n == 2 ? t->ci95.v[0].v : 0,
				   t->ci95.n == 2 ? t->ci95.v[1].v : 0);
			verdict_cell(out, r, run, t);
		}
		if (t->error) {
			fprintf(out, "</tr>\n<tr><td></td><td colspan=\"%zu\" class=\"warn\">",
				ARRAY_SIZE(heads) - 1 + (passes ? ARRAY_SIZE(pass_heads) : 0));
			xml_escape(out, t->error);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
	text(out, "p", "muted",
	     passes ? "samples: the passes UnixBench kept (it drops the lowest third) of the passes that ran; "
		      "CV, min and max are over the rates of all passes, the 95 % interval is a bootstrap over the "
		      "passes of this run only (a single pass has neither); the verdict's reasons are the cell's "
		      "tooltip."
		    : "samples: the passes UnixBench kept and averaged; the output holds no per-pass values, so "
		      "their spread and an interval are not known.");
}

static void tests(FILE *out, json_object *cmp, const struct result_env *in, size_t n)
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
		for (size_t k = 0; k < in[i].r.runs.n; k++) {
			int64_t copies = int_or(in[i].r.runs.v[k].copies, 0);
			_cleanup_free_ char *h = copies ? xasprintf("%s%s%lld cop%s: every test", n > 1 ? label(cmp, i) : "",
								    n > 1 ? ", " : "", (long long)copies, copies == 1 ? "y" : "ies")
							: xasprintf("%s%scopies not said: every test", n > 1 ? label(cmp, i) : "",
								    n > 1 ? ", " : "");
			text(out, "h3", NULL, h);
			run_table(out, &in[i].r, &in[i].r.runs.v[k]);
		}
	}
	fputc('\n', out);
}

/* what published runs of the CPU reach: nothing said when the shipped model is missing */
static void expected(FILE *out, json_object *cmp, const struct result_env *in, size_t n)
{
	struct expect_ref ref;
	_cleanup_free_ char *why = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &why) < 0)
		return;
	_cleanup_free_ const char **labels = xcalloc(n ? n : 1, sizeof(*labels));
	for (size_t i = 0; i < n; i++)
		labels[i] = label(cmp, i);
	report_html_expected(out, in, n, labels, &ref);
	expect_ref_free(&ref);
}

/* ---- charts ---- */

static void charts(FILE *out, json_object *cmp, const struct result_env *in, size_t n)
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
		any = any || chart_has_timeline(&in[i].r);
	if (!any)
		return;
	fputs("<h2 id=\"timeline\">During the run</h2>\n", out);
	for (size_t i = 0; i < n; i++) {
		if (n > 1) {
			_cleanup_free_ char *h = xasprintf("%s: %s", label(cmp, i), jpath_str(at(jpath(cmp, "results"), i), "name") ?: "?");
			text(out, "h3", NULL, h);
		}
		fputs("<figure>\n", out);
		if (!chart_timeline(&in[i].r, CHART_INLINE, out))
			text(out, "p", "muted",
			     is_true(in[i].r.imported) ? "Imported results have no readings of clock, temperature or alarms."
				      : "The sampler took no readings during this run.");
		fputs("</figure>\n", out);
	}
}

int report_html(const struct compare_input *in, size_t n, FILE *out, char **error)
{
	struct result_env *s = xcalloc(n ? n : 1, sizeof(*s));
	int r = 0;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = result_env_decode(in[i].rec, &s[i], error);
	if (r == 0) {
		struct compare_opts o = {0};
		_cleanup_json_ json_object *cmp = compare_build(in, n, &o);
		head(out, cmp, n);
		summary(out, cmp, s, n);
		environment(out, cmp, n);
		findings(out, cmp, s, n);
		tests(out, cmp, s, n);
		expected(out, cmp, s, n);
		charts(out, cmp, s, n);
		report_html_close(out);
	}
	for (size_t i = 0; i < n; i++)
		result_env_free(&s[i]);
	free(s);
	return r;
}
