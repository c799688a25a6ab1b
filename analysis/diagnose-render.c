/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text form of a diagnosis report: causes worst first, then what is fine. */
#include "diagnose.h"
#include "lib/schema-table.h"
#include "lib/term.h"

#define LABEL 12 /* "   evidence " */
/* Columns the reference table takes with the tests' full names. */
#define REF_TABLE_WIDE 84
#define MAX_GAIN_LINES 6

/* The report (ubtune.diagnosis/1) as diagnose() writes it, read back for the text. */
struct rep_gain {
	const char *test, *name;
	struct opt_num copies, now, expected, change_pct;
};
struct rep_score {
	struct opt_num copies, now, expected;
};
struct rep_cause {
	const char *id, *title, *confidence, *reason, *fix, *expect, *explained_by;
	struct opt_int rank;
	ARRAY_OF(const char *) evidence;
	ARRAY_OF(struct rep_gain) gains;
	ARRAY_OF(struct rep_score) score;
};
struct rep_note {
	const char *id, *text;
};
struct rep_ref_run {
	const char *id, *description;
	struct opt_num score;
};
struct rep_ref_test {
	const char *test, *name;
	struct opt_num index, expected_low, expected_high, ratio;
};
struct rep_reference {
	const char *basis;
	struct opt_num copies;
	ARRAY_OF(struct rep_ref_run) runs;
	ARRAY_OF(struct rep_ref_test) tests;
};
struct rep_exp_test {
	const char *test, *name;
	struct opt_num index, expected_index, low, high, ratio;
};
struct rep_expected {
	json_object *json; /* NULL: nothing expected */
	struct opt_num score, low, high;
	struct {
		const char *text;
	} basis;
	ARRAY_OF(struct rep_exp_test) tests;
};
struct rep_run {
	struct opt_int copies;
	struct rep_expected expected;
};
struct rep_level {
	const char *text, *basis;
};
typedef ARRAY_OF(struct rep_note) rep_notes;
struct report {
	ARRAY_OF(struct rep_level) level;
	const char *summary;
	struct {
		ARRAY_OF(struct rep_run) runs;
		struct opt_bool scores_judged;
	} result;
	ARRAY_OF(struct rep_cause) causes;
	rep_notes normal, not_checked;
	ARRAY_OF(struct rep_reference) references;
	ARRAY_OF(const char *) experiments;
};

#define T struct rep_gain
static const struct schema gain_schema = SCHEMA(T, S(test), S(name), N(copies), N(now), N(expected), N(change_pct));
#undef T
#define T struct rep_score
static const struct schema score_schema = SCHEMA(T, N(copies), N(now), N(expected));
#undef T
#define T struct rep_cause
static const struct schema cause_schema = SCHEMA(T, S(id), S(title), S(confidence), S(reason), S(fix), S(expect),
						 S(explained_by), I(rank), FIELD_STR_ARRAY(T, evidence, OPTIONAL),
						 L(gains, gain_schema), L(score, score_schema));
#undef T
#define T struct rep_note
static const struct schema note_schema = SCHEMA(T, S(id), S(text));
#undef T
#define T struct rep_ref_run
static const struct schema ref_run_schema = SCHEMA(T, S(id), S(description), N(score));
#undef T
#define T struct rep_ref_test
static const struct schema ref_test_schema = SCHEMA(T, S(test), S(name), N(index), N(expected_low), N(expected_high),
						    N(ratio));
#undef T
#define T struct rep_reference
static const struct schema reference_schema = SCHEMA(T, S(basis), N(copies), L(runs, ref_run_schema),
						     L(tests, ref_test_schema));
#undef T
#define T struct rep_exp_test
static const struct schema exp_test_schema = SCHEMA(T, S(test), S(name), N(index), N(expected_index), N(low), N(high),
						    N(ratio));
#undef T
#define T typeof(((struct rep_expected *)0)->basis)
static const struct schema exp_basis_schema = SCHEMA(T, S(text));
#undef T
#define T struct rep_expected
static const struct schema expected_schema = SCHEMA(T, FIELD_SELF(T, json), N(score), N(low), N(high), O(basis, exp_basis_schema),
						    L(tests, exp_test_schema));
#undef T
#define T struct rep_run
static const struct schema run_schema = SCHEMA(T, I(copies), O(expected, expected_schema));
#undef T
#define T struct rep_level
static const struct schema level_schema = SCHEMA(T, S(text), S(basis));
#undef T
#define T typeof(((struct report *)0)->result)
static const struct schema result_schema = SCHEMA(T, L(runs, run_schema), B(scores_judged));
#undef T
#define T struct report
static const struct schema report_schema = SCHEMA(T, L(level, level_schema), S(summary), O(result, result_schema), L(causes, cause_schema),
						  L(normal, note_schema), L(not_checked, note_schema),
						  L(references, reference_schema),
						  FIELD_STR_ARRAY(T, experiments, OPTIONAL));
#undef T

static void labelled(FILE *out, const char *label, const char *text)
{
	fprintf(out, "   %-8s ", label);
	term_print_wrapped(out, text, LABEL, term_width(out));
}

static const char *copies_word(double n)
{
	return n == 1 ? "copy" : "copies";
}

static void gains(FILE *out, const struct rep_cause *cause)
{
	size_t ng = cause->gains.n, ns = cause->score.n, line = 0;
	const char *expect = cause->expect;
	for (size_t i = 0; i < ng && i < MAX_GAIN_LINES; i++, line++) {
		const struct rep_gain *x = &cause->gains.v[i];
		double copies = num_or(x->copies, NAN);
		int t = diag_test_lookup(x->test);
		double now = num_or(x->now, NAN), expected = num_or(x->expected, NAN);
		char change[32];
		/* past a tripling, a factor reads better than a percentage */
		if (expected > 3 * now)
			snprintf(change, sizeof(change), "×%.0f", expected / now);
		else
			snprintf(change, sizeof(change), "%+.0f %%", num_or(x->change_pct, NAN));
		_cleanup_free_ char *text = xasprintf("%s, %.0f %s: %.1f → ≈%.1f (%s)",
						      t >= 0 ? ub_tests[t].label : x->name, copies,
						      copies_word(copies), now, expected, change);
		labelled(out, line ? "" : "expect", text);
	}
	if (ng > MAX_GAIN_LINES) {
		_cleanup_free_ char *text = xasprintf("and %zu more tests (--json lists them)", ng - MAX_GAIN_LINES);
		labelled(out, "", text);
		line++;
	}
	for (size_t i = 0; i < ns; i++, line++) {
		const struct rep_score *x = &cause->score.v[i];
		double copies = num_or(x->copies, NAN);
		_cleanup_free_ char *text = xasprintf("index score, %.0f %s: %.1f → ≈%.1f", copies, copies_word(copies),
						      num_or(x->now, NAN), num_or(x->expected, NAN));
		labelled(out, line ? "" : "expect", text);
	}
	if (expect)
		labelled(out, line ? "" : "expect", expect);
}

/* The rank of the cause with this id. */
static int64_t rank_of(const struct report *rep, const char *id)
{
	int64_t rank = 0;
	for (size_t i = 0; i < rep->causes.n; i++)
		if (streq_ptr(rep->causes.v[i].id, id))
			rank = int_or(rep->causes.v[i].rank, rank);
	return rank;
}

static void cause(FILE *out, const struct rep_cause *c, const struct report *rep)
{
	const char *conf = c->confidence;
	const char *color = streq_ptr(conf, "high") ? ANSI_RED : streq_ptr(conf, "medium") ? ANSI_YELLOW : ANSI_DIM;
	_cleanup_free_ char *head = xasprintf("%lld. %s%s%s (confidence: %s%s%s)  %s", (long long)int_or(c->rank, 0),
					      term_esc(out, ANSI_BOLD), c->title, term_esc(out, ANSI_RESET),
					      term_esc(out, color), conf, term_esc(out, ANSI_RESET), c->id);
	/* on one line where it fits, the id two spaces apart; else wrapped */
	if (strlen(head) <= term_width(out))
		fprintf(out, "\n%s\n", head);
	else {
		fputc('\n', out);
		term_print_wrapped(out, head, 3, term_width(out));
	}
	labelled(out, "why", c->reason ?: "");
	const char *by = c->explained_by;
	if (by) {
		_cleanup_free_ char *text = xasprintf("%lld above names the cause of these tests (%s)",
						      (long long)rank_of(rep, by), by);
		labelled(out, "see", text);
		return;
	}
	for (size_t i = 0; i < c->evidence.n; i++)
		labelled(out, i ? "" : "evidence", c->evidence.v[i]);
	if (c->fix)
		labelled(out, "fix", c->fix);
	gains(out, c);
}

static void notes(FILE *out, const rep_notes *a, const char *heading)
{
	if (!a->n)
		return;
	fprintf(out, "\n%s%s%s\n", term_esc(out, ANSI_BOLD), heading, term_esc(out, ANSI_RESET));
	for (size_t i = 0; i < a->n; i++) {
		fputs("  - ", out);
		term_print_wrapped(out, a->v[i].text ?: "", 4, term_width(out));
	}
}

static void references(FILE *out, const struct report *rep)
{
	for (size_t i = 0; i < rep->references.n; i++) {
		const struct rep_reference *r = &rep->references.v[i];
		double copies = num_or(r->copies, NAN);
		_cleanup_free_ char *head = xasprintf("%sClosest reference runs, %.0f %s (%s)%s", term_esc(out, ANSI_BOLD),
						      copies, copies_word(copies), r->basis ?: "", term_esc(out, ANSI_RESET));
		fputc('\n', out);
		term_print_wrapped(out, head, 2, term_width(out));
		for (size_t k = 0; k < r->runs.n; k++) {
			const struct rep_ref_run *x = &r->runs.v[k];
			_cleanup_free_ char *text = xasprintf("%s, score %.1f: %s", x->id, num_or(x->score, NAN),
							      x->description ?: "");
			fputs("  ", out);
			term_print_wrapped(out, text, 4, term_width(out));
		}
		if (!r->tests.n) {
			fputs("  (none of them is a healthy run to expect scores from)\n", out);
			continue;
		}
		/* the tests by their short labels where the full names do not fit */
		bool wide = term_width(out) >= REF_TABLE_WIDE;
		int name_w = wide ? 40 : 18;
		fprintf(out, "  %-*s %10s %21s\n", name_w, "test", "this run", "expected");
		for (size_t k = 0; k < r->tests.n; k++) {
			const struct rep_ref_test *x = &r->tests.v[k];
			const struct ub_test_info *t = wide || !x->name ? NULL : ub_test_by_name(x->name);
			double lo = num_or(x->expected_low, NAN), hi = num_or(x->expected_high, NAN);
			double ratio = num_or(x->ratio, NAN);
			char range[48];
			if (lo == hi)
				snprintf(range, sizeof(range), "%.1f", lo);
			else
				snprintf(range, sizeof(range), "%.1f-%.1f", lo, hi);
			fprintf(out, "  %-*s %10.1f %21s %6.0f %%\n", name_w, t && t->label ? t->label : x->name,
				num_or(x->index, NAN), range, ratio * 100);
		}
	}
}

/* The level each run reached against its expectation: the report's first lines. */
static void level(FILE *out, const struct report *rep)
{
	for (size_t i = 0; i < rep->level.n; i++) {
		const struct rep_level *l = &rep->level.v[i];
		term_print_wrapped(out, l->text ?: "", 0, term_width(out));
		if (l->basis) {
			_cleanup_free_ char *b = xasprintf("%s(%s)%s", term_esc(out, ANSI_DIM), l->basis,
							   term_esc(out, ANSI_RESET));
			fputs("  ", out);
			term_print_wrapped(out, b, 2, term_width(out));
		}
	}
	if (rep->level.n)
		fputc('\n', out);
}

/* Every test of a run against its expected index. */
static void expected_tables(FILE *out, const struct report *rep)
{
	bool wide = term_width(out) >= REF_TABLE_WIDE;
	int name_w = wide ? 40 : 18;
	for (size_t i = 0; i < rep->result.runs.n; i++) {
		const struct rep_run *r = &rep->result.runs.v[i];
		const struct rep_expected *e = &r->expected;
		if (!e->json || !e->tests.n)
			continue;
		double copies = (double)int_or(r->copies, 0);
		fprintf(out, "\n%sAgainst the expectation, %.0f %s%s\n", term_esc(out, ANSI_BOLD), copies,
			copies_word(copies), term_esc(out, ANSI_RESET));
		fprintf(out, "  %-*s %10s %21s\n", name_w, "test", "this run", "expected");
		for (size_t k = 0; k < e->tests.n; k++) {
			const struct rep_exp_test *x = &e->tests.v[k];
			const struct ub_test_info *t = wide || !x->name ? NULL : ub_test_by_name(x->name);
			char range[64];
			snprintf(range, sizeof(range), "%.0f (%.0f-%.0f)", num_or(x->expected_index, NAN),
				 num_or(x->low, NAN), num_or(x->high, NAN));
			double index = num_or(x->index, NAN), lo = num_or(x->low, NAN), hi = num_or(x->high, NAN);
			fprintf(out, "  %-*s %10.1f %21s %6.0f %%%s\n", name_w, t && t->label ? t->label : x->name, index,
				range, num_or(x->ratio, NAN) * 100, index < lo ? "  low" : index > hi ? "  high" : "");
		}
	}
}

void diagnose_render(json_object *report, FILE *out)
{
	struct report rep;
	_cleanup_free_ char *error = NULL;
	/* diagnose() wrote it: a report that does not fit is a bug, drawn as empty */
	(void)schema_decode(&report_schema, report, "", &rep, &error);
	level(out, &rep);
	term_print_wrapped(out, rep.summary ?: "", 0, term_width(out));
	size_t n = rep.causes.n;
	bool unknown = false;
	for (size_t i = 0; i < rep.result.runs.n; i++)
		unknown |= !rep.result.runs.v[i].copies.known;
	if (!n && (unknown || (rep.result.scores_judged.known && !rep.result.scores_judged.v)))
		fprintf(out, "\nNo cause found in the header; the scores were not judged.\n");
	else if (!n)
		term_print_wrapped(out, "\nNo cause found: nothing in the scores, the environment or the references points "
					"at a known problem.", 0, term_width(out));
	for (size_t i = 0; i < n; i++)
		cause(out, &rep.causes.v[i], &rep);
	notes(out, &rep.normal, "Looks normal");
	notes(out, &rep.not_checked, "Not checked");
	expected_tables(out, &rep);
	references(out, &rep);
	size_t ne = rep.experiments.n;
	if (ne) {
		fprintf(out, "\n%sTry next%s\n", term_esc(out, ANSI_BOLD), term_esc(out, ANSI_RESET));
		for (size_t i = 0; i < ne && i < 3; i++) {
			fprintf(out, "  %zu. ", i + 1);
			term_print_wrapped(out, rep.experiments.v[i], 5, term_width(out));
		}
	}
	schema_free(&report_schema, &rep);
}
