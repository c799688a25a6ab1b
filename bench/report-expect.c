/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A result's runs against their expectation (bench/report-expect.h). */
#include "report-expect.h"

#include <inttypes.h>
#include <math.h>

#include "lib/table.h"
#include "lib/term.h"

/* The index a test entry holds: its own, else 10 × result / baseline. */
static double index_of(const struct result_test *t)
{
	if (t->index.known)
		return t->index.v;
	if (t->result.known && t->baseline.known && t->baseline.v > 0)
		return 10 * t->result.v / t->baseline.v;
	return NAN;
}

bool report_expect_run(const struct expect_ref *ref, const struct result_env *re, const struct result_run *run,
		       struct expectation *e)
{
	struct expect_facts f;
	expect_facts_init(&f);
	expect_facts_env(&f, &re->env);
	int64_t copies = int_or(run->copies, 0), online = int_or(re->r.online_cpus, 0);
	f.copies = copies > 0 && copies < 100000 ? (unsigned)copies : 0;
	if (online > 0 && online < 100000)
		f.cpus = (unsigned)online;
	if (f.cores >= f.cpus)
		f.cores = 0;
	return expect_run(ref, &f, e);
}

/* The expected score of the tests the run has; *mask gets them. */
static double expected_score(const struct result_run *run, const struct expectation *e,
			     double *low, double *high, unsigned *mask)
{
	/* a score the log printed is of all its tests, read or not */
	bool printed = streq_ptr(run->index.score_source, "report") && !is_true(run->index.partial);
	*mask = printed ? (1u << UB_NINDEX) - 1 : 0;
	for (size_t i = 0; i < run->tests.n; i++) {
		const struct ub_test_info *t = ub_index_test(run->tests.v[i].id);
		if (t && index_of(&run->tests.v[i]) > 0)
			*mask |= 1u << (t - ub_tests);
	}
	return expect_score_of(e, *mask, low, high);
}

static const char *virt_word(const struct env_record *env, bool *guest)
{
	*guest = streq_ptr(env->virt.role, "guest");
	if (streq_ptr(env->virt.hypervisor, "qemu-tcg"))
		return "emulated";
	if (*guest)
		return expect_hypervisor_word(env->virt.hypervisor) ?: "a guest";
	if (streq_ptr(env->virt.role, "none") || streq_ptr(env->virt.role, "host"))
		return "bare metal";
	return NULL;
}

char *report_expect_line(const struct result_env *re, const struct result_run *run, const struct expectation *e)
{
	bool guest;
	const char *virt = virt_word(&re->env, &guest);
	double low, high;
	unsigned mask;
	double want = expected_score(run, e, &low, &high, &mask);
	int64_t online = int_or(re->r.online_cpus, 0);
	return expect_level_text(e, run->index.score.v, is_true(run->index.partial), want, low, high,
				 (unsigned)int_or(run->copies, 0), online > 0 && online < 100000 ? (unsigned)online : 0,
				 guest, virt);
}

size_t report_expect_rows(const struct result_run *run, const struct expectation *e, struct report_expect_row *rows)
{
	size_t n = 0;
	for (int k = 0; k < UB_NINDEX; k++) {
		const struct result_test *test = result_run_test(run, ub_tests[k].id);
		double v = test ? index_of(test) : NAN;
		if (v > 0 && e->index[k] > 0)
			rows[n++] = (struct report_expect_row){ &ub_tests[k], v, e->index[k], e->low[k], e->high[k] };
	}
	return n;
}

void report_expect_texts(const struct report_expect_row *row, char *mid, size_t mid_size, char *range,
			 size_t range_size)
{
	char lo[32], hi[32];
	expect_number_text(row->expected, mid, mid_size);
	expect_number_text(row->low, lo, sizeof(lo));
	expect_number_text(row->high, hi, sizeof(hi));
	snprintf(range, range_size, "%s-%s", lo, hi);
}

char *report_expect_pct(const struct report_expect_row *row)
{
	return xasprintf("%.0f %%%s", row->index / row->expected * 100,
			 row->index < row->low ? " low" : row->index > row->high ? " high" : "");
}

void report_expect_render(const struct expect_ref *ref, const struct result_env *re, FILE *out)
{
	if (!ref || !ref->loaded)
		return;
	bool title = false;
	for (size_t i = 0; i < re->r.runs.n; i++) {
		const struct result_run *run = &re->r.runs.v[i];
		if (!run->index.score.known)
			continue;
		if (!title) {
			fputs("------------------------------------------------------------------------\n", out);
			fprintf(out, "Against what published runs of this CPU reach\n\n");
			title = true;
		}
		struct expectation e;
		if (!report_expect_run(ref, re, run, &e)) {
			term_printf_wrapped(out, 0, "%" PRId64 " %s: nothing expected, %s", int_or(run->copies, 0),
					    int_or(run->copies, 0) == 1 ? "copy" : "copies", e.why);
			fputc('\n', out);
			continue;
		}
		_cleanup_free_ char *line = report_expect_line(re, run, &e);
		term_print_wrapped(out, line, 0, term_width(out));
		_cleanup_free_ char *basis = xasprintf("(%s)", e.basis_text);
		fputs("  ", out);
		term_print_wrapped(out, basis, 2, term_width(out));
		static const struct table_column cols[] = {
			{ .head = "Test", .flags = TABLE_WRAP, .min = 16 },
			{ .head = "INDEX", .flags = TABLE_RIGHT },
			{ .head = "EXPECTED", .flags = TABLE_RIGHT },
			{ .head = "80 % INTERVAL", .flags = TABLE_RIGHT },
			{ .head = "OF EXPECTED", .flags = TABLE_RIGHT },
		};
		struct table *t = table_new(cols, ARRAY_SIZE(cols), 2, 2);
		struct report_expect_row rows[UB_NINDEX];
		size_t n = report_expect_rows(run, &e, rows);
		for (size_t k = 0; k < n; k++) {
			char mid[32], range[64];
			report_expect_texts(&rows[k], mid, sizeof(mid), range, sizeof(range));
			_cleanup_free_ char *idx = xasprintf("%.1f", rows[k].index), *pct = report_expect_pct(&rows[k]);
			table_addv(t, rows[k].test->label, idx, mid, range, pct);
		}
		table_print(t, out, term_width(out));
		table_free(t);
		fputc('\n', out);
	}
}

json_object *report_expect_rows_json(const struct expect_ref *ref, json_object *const *recs, const char *const *labels,
				     size_t n)
{
	json_object *rows = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		struct result_env re;
		_cleanup_free_ char *error = NULL;
		if (result_env_decode(recs[i], &re, &error) < 0)
			continue; /* the command read it: a record that does not decode was refused there */
		for (size_t k = 0; k < re.r.runs.n; k++) {
			const struct result_run *run = &re.r.runs.v[k];
			if (!run->index.score.known)
				continue;
			json_object *o = json_object_new_object();
			jset_str(o, "label", labels[i]);
			jset_int(o, "copies", int_or(run->copies, 0));
			jset_round(o, "score", run->index.score.v, 1);
			struct expectation e;
			if (!ref || !ref->loaded || !report_expect_run(ref, &re, run, &e)) {
				jset(o, "expected", NULL);
				jset_str(o, "why", ref && ref->loaded ? e.why : "no expectation model");
			} else {
				double low, high;
				unsigned mask;
				double want = expected_score(run, &e, &low, &high, &mask);
				jset_str(o, "cpu", e.name);
				jset_round(o, "expected", want, 1);
				jset_round(o, "low", low, 1);
				jset_round(o, "high", high, 1);
				jset_round(o, "of_expected", run->index.score.v / want, 3);
				jset_str(o, "verdict", expect_verdict(run->index.score.v, low, high));
				jset_str(o, "basis", e.basis_text);
			}
			json_object_array_add(rows, o);
		}
		result_env_free(&re);
	}
	return rows;
}

void report_expect_rows_render(json_object *rows, FILE *out)
{
	static const struct table_column cols[] = {
		{ .head = "RESULT", .flags = TABLE_WRAP, .min = 8 },
		{ .head = "COPIES", .flags = TABLE_RIGHT },
		{ .head = "CPU", .flags = TABLE_WRAP, .min = 10, .drop = 1 },
		{ .head = "SCORE", .flags = TABLE_RIGHT },
		{ .head = "EXPECTED", .flags = TABLE_RIGHT },
		{ .head = "80 % INTERVAL", .flags = TABLE_RIGHT, .drop = 2 },
		{ .head = "OF EXPECTED", .flags = TABLE_WRAP, .min = 6 },
	};
	fprintf(out, "\nAgainst what published runs of each CPU reach\n");
	struct table *t = table_new(cols, ARRAY_SIZE(cols), 2, 2);
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *o = json_object_array_get_idx(rows, i);
		_cleanup_free_ char *copies = xasprintf("%" PRId64, (int64_t)json_object_get_int64(jpath(o, "copies")));
		_cleanup_free_ char *score = xasprintf("%.1f", json_object_get_double(jpath(o, "score")));
		double want, low, high, of;
		if (!jpath_double(o, "expected", &want) || !jpath_double(o, "low", &low) || !jpath_double(o, "high", &high) ||
		    !jpath_double(o, "of_expected", &of)) {
			table_addv(t, jpath_str(o, "label"), copies, "-", score, "-", "-", jpath_str(o, "why"));
			continue;
		}
		char mid[32], lo[32], hi[32];
		expect_number_text(want, mid, sizeof(mid));
		expect_number_text(low, lo, sizeof(lo));
		expect_number_text(high, hi, sizeof(hi));
		_cleanup_free_ char *range = xasprintf("%s-%s", lo, hi);
		const char *v = jpath_str(o, "verdict");
		_cleanup_free_ char *pct = xasprintf("%.0f %%%s", of * 100, streq_ptr(v, "below") ? " low"
								     : streq_ptr(v, "above") ? " high" : "");
		table_addv(t, jpath_str(o, "label"), copies, jpath_str(o, "cpu"), score, mid, range, pct);
	}
	table_print(t, out, term_width(out));
	table_free(t);
}
