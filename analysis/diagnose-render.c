/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form of a diagnosis report: causes worst first, then what is fine. */
#include "diagnose.h"
#include "lib/term.h"

#define WIDTH 100
#define LABEL 12 /* "   evidence " */
#define MAX_GAIN_LINES 6

static json_object *item(json_object *a, size_t i)
{
	return json_object_array_get_idx(a, i);
}

static double num(json_object *o, const char *key)
{
	double v = NAN;
	jpath_double(o, key, &v);
	return v;
}

static void labelled(FILE *out, const char *label, const char *text)
{
	fprintf(out, "   %-8s ", label);
	term_print_wrapped(out, text, LABEL, WIDTH);
}

static const char *copies_word(double n)
{
	return n == 1 ? "copy" : "copies";
}

static void gains(FILE *out, json_object *cause)
{
	json_object *g = jpath(cause, "gains"), *s = jpath(cause, "score");
	size_t ng = jpath_len(cause, "gains"), ns = jpath_len(cause, "score"), line = 0;
	const char *expect = jpath_str(cause, "expect");
	for (size_t i = 0; i < ng && i < MAX_GAIN_LINES; i++, line++) {
		json_object *x = item(g, i);
		double copies = num(x, "copies");
		int t = diag_test_lookup(jpath_str(x, "test"));
		double now = num(x, "now"), expected = num(x, "expected");
		char change[32];
		/* past a tripling, a factor reads better than a percentage */
		if (expected > 3 * now)
			snprintf(change, sizeof(change), "×%.0f", expected / now);
		else
			snprintf(change, sizeof(change), "%+.0f %%", num(x, "change_pct"));
		_cleanup_free_ char *text = xasprintf("%s, %.0f %s: %.1f → ≈%.1f (%s)",
						      t >= 0 ? ub_tests[t].label : jpath_str(x, "name"), copies,
						      copies_word(copies), now, expected, change);
		labelled(out, line ? "" : "expect", text);
	}
	if (ng > MAX_GAIN_LINES) {
		_cleanup_free_ char *text = xasprintf("and %zu more tests (--json lists them)", ng - MAX_GAIN_LINES);
		labelled(out, "", text);
		line++;
	}
	for (size_t i = 0; i < ns; i++, line++) {
		json_object *x = item(s, i);
		double copies = num(x, "copies");
		_cleanup_free_ char *text = xasprintf("index score, %.0f %s: %.1f → ≈%.1f", copies, copies_word(copies),
						      num(x, "now"), num(x, "expected"));
		labelled(out, line ? "" : "expect", text);
	}
	if (expect)
		labelled(out, line ? "" : "expect", expect);
}

/* The rank of the cause with this id. */
static int64_t rank_of(json_object *causes, const char *id)
{
	int64_t rank = 0;
	for (size_t i = 0; i < json_object_array_length(causes); i++)
		if (streq_ptr(jpath_str(item(causes, i), "id"), id))
			jpath_int(item(causes, i), "rank", &rank);
	return rank;
}

static void cause(FILE *out, json_object *c, json_object *causes)
{
	const char *conf = jpath_str(c, "confidence");
	const char *color = streq_ptr(conf, "high") ? ANSI_RED : streq_ptr(conf, "medium") ? ANSI_YELLOW : ANSI_DIM;
	int64_t rank = 0;
	jpath_int(c, "rank", &rank);
	fprintf(out, "\n%lld. %s%s%s (confidence: %s%s%s)  %s\n", (long long)rank, term_esc(out, ANSI_BOLD),
		jpath_str(c, "title"), term_esc(out, ANSI_RESET), term_esc(out, color), conf, term_esc(out, ANSI_RESET),
		jpath_str(c, "id"));
	labelled(out, "why", jpath_str(c, "reason") ?: "");
	const char *by = jpath_str(c, "explained_by");
	if (by) {
		_cleanup_free_ char *text = xasprintf("%lld above names the cause of these tests (%s)",
						      (long long)rank_of(causes, by), by);
		labelled(out, "see", text);
		return;
	}
	json_object *ev = jpath(c, "evidence");
	for (size_t i = 0; i < jpath_len(c, "evidence"); i++)
		labelled(out, i ? "" : "evidence", json_object_get_string(item(ev, i)));
	if (jpath_str(c, "fix"))
		labelled(out, "fix", jpath_str(c, "fix"));
	gains(out, c);
}

static void notes(FILE *out, json_object *report, const char *key, const char *heading)
{
	json_object *a = jpath(report, key);
	size_t n = jpath_len(report, key);
	if (!n)
		return;
	fprintf(out, "\n%s%s%s\n", term_esc(out, ANSI_BOLD), heading, term_esc(out, ANSI_RESET));
	for (size_t i = 0; i < n; i++) {
		fputs("  - ", out);
		term_print_wrapped(out, jpath_str(item(a, i), "text") ?: "", 4, WIDTH);
	}
}

static void references(FILE *out, json_object *report)
{
	json_object *a = jpath(report, "references");
	for (size_t i = 0; i < jpath_len(report, "references"); i++) {
		json_object *r = item(a, i), *runs = jpath(r, "runs"), *tests = jpath(r, "tests");
		double copies = num(r, "copies");
		fprintf(out, "\n%sClosest reference runs, %.0f %s (%s)%s\n", term_esc(out, ANSI_BOLD), copies, copies_word(copies),
			jpath_str(r, "basis") ?: "", term_esc(out, ANSI_RESET));
		for (size_t k = 0; k < jpath_len(r, "runs"); k++) {
			json_object *x = item(runs, k);
			_cleanup_free_ char *text = xasprintf("%s, score %.1f: %s", jpath_str(x, "id"), num(x, "score"),
							      jpath_str(x, "description") ?: "");
			fputs("  ", out);
			term_print_wrapped(out, text, 4, WIDTH);
		}
		if (!jpath_len(r, "tests")) {
			fputs("  (none of them is a healthy run to expect scores from)\n", out);
			continue;
		}
		fprintf(out, "  %-40s %10s %21s\n", "test", "this run", "expected");
		for (size_t k = 0; k < jpath_len(r, "tests"); k++) {
			json_object *x = item(tests, k);
			double lo = num(x, "expected_low"), hi = num(x, "expected_high"), ratio = num(x, "ratio");
			char range[48];
			if (lo == hi)
				snprintf(range, sizeof(range), "%.1f", lo);
			else
				snprintf(range, sizeof(range), "%.1f-%.1f", lo, hi);
			fprintf(out, "  %-40s %10.1f %21s %6.0f %%\n", jpath_str(x, "name"), num(x, "index"), range,
				ratio * 100);
		}
	}
}

void diagnose_render(json_object *report, FILE *out)
{
	fprintf(out, "%s\n", jpath_str(report, "summary") ?: "");
	json_object *causes = jpath(report, "causes");
	size_t n = jpath_len(report, "causes");
	bool unknown = false;
	for (size_t i = 0; i < jpath_len(report, "result.runs"); i++)
		unknown |= json_object_get_type(jpath(item(jpath(report, "result.runs"), i), "copies")) == json_type_null;
	if (!n && unknown)
		fprintf(out, "\nNo cause found in the header; the scores were not judged.\n");
	else if (!n)
		fprintf(out, "\nNo cause found: nothing in the scores, the environment or the references points at a "
			     "known problem.\n");
	for (size_t i = 0; i < n; i++)
		cause(out, item(causes, i), causes);
	notes(out, report, "normal", "Looks normal");
	notes(out, report, "not_checked", "Not checked");
	references(out, report);
	json_object *ex = jpath(report, "experiments");
	size_t ne = jpath_len(report, "experiments");
	if (ne) {
		fprintf(out, "\n%sTry next%s\n", term_esc(out, ANSI_BOLD), term_esc(out, ANSI_RESET));
		for (size_t i = 0; i < ne && i < 3; i++) {
			fprintf(out, "  %zu. ", i + 1);
			term_print_wrapped(out, json_object_get_string(item(ex, i)), 5, WIDTH);
		}
	}
}
