/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result-stability.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "lib/doubles.h"
#include "lib/json.h"

const char *verdict_state_name(enum verdict_state s)
{
	return s == VERDICT_UNTRUSTED ? "untrusted" : s == VERDICT_NOT_JUDGED ? "not judged" : "stable";
}

/* The rates of a test's passes that have one, sorted; returns their number. */
static size_t pass_rates(const struct result_test *t, double **out)
{
	size_t n = 0;
	double *v = xcalloc(t->passes.n ? t->passes.n : 1, sizeof(double));
	for (size_t i = 0; i < t->passes.n; i++)
		if (t->passes.v[i].rate.known && t->passes.v[i].rate.v > 0)
			v[n++] = t->passes.v[i].rate.v;
	doubles_sort(v, n);
	*out = v;
	return n;
}

/* Passes in two groups: the widest gap between neighbouring rates, in %
 * of the lower, when each side holds at least two passes; else 0. */
static double bimodal_gap_pct(const double *v, size_t n)
{
	double widest = 0;
	/* v[0..i) below the gap, v[i..n) above it, two or more on each side */
	for (size_t i = 2; i + 2 <= n; i++)
		if ((v[i] / v[i - 1] - 1) * 100 > widest)
			widest = (v[i] / v[i - 1] - 1) * 100;
	return widest;
}

/* What the test's background passed, in words ("other processes used
 * 29.1 % of a CPU, kernel time 19.9 %"); NULL when nothing. */
static char *background_text(const struct result_background *b)
{
	struct buf s = {0};
	for (size_t i = 0; i < b->untrusted.n; i++) {
		const char *k = b->untrusted.v[i] ?: "?";
		const char *sep = s.len ? ", " : "";
		if (streq(k, "others"))
			buf_printf(&s, "%sother processes used %.1f %% of a CPU", sep, num_or(b->others_pct, 0));
		else if (streq(k, "iowait"))
			buf_printf(&s, "%sI/O wait %.1f %%", sep, num_or(b->iowait_pct, 0));
		else if (streq(k, "steal"))
			buf_printf(&s, "%ssteal time %.1f %%", sep, num_or(b->steal_pct, 0));
		else if (streq(k, "sys"))
			buf_printf(&s, "%skernel time %.1f %% in a user-space test", sep, num_or(b->sys_pct, 0));
		else
			buf_printf(&s, "%s%s", sep, k);
	}
	return s.s;
}

/* The events the sampler or the kernel log tied to this test. */
static size_t test_events(const struct result_record *r, const struct result_run *run, const struct result_test *t)
{
	size_t n = 0;
	for (size_t i = 0; i < r->events.n; i++) {
		const struct result_event *e = &r->events.v[i];
		n += e->test && streq_ptr(e->test, t->id) && int_or(e->copies, -1) == int_or(run->copies, -2);
	}
	return n;
}

enum verdict_state result_test_verdict(const struct result_record *r, const struct result_run *run,
				       const struct result_test *t, struct strv *why)
{
	struct strv local = {0}, *w = why ?: &local;
	size_t before = w->n;
	double *rates;
	size_t n = pass_rates(t, &rates);
	double gap = bimodal_gap_pct(rates, n);
	free(rates);
	struct opt_num cv = t->dispersion.cv_pct;
	if (gap >= STABILITY_GAP_MIN_PCT)
		strv_take(w, xasprintf("bimodal, its passes fall into two groups %.0f %% apart", gap));
	else if (cv.known && cv.v > STABILITY_CV_MAX_PCT)
		strv_take(w, xasprintf("CV %.1f %% (above %.0f %%)", cv.v, STABILITY_CV_MAX_PCT));
	char *bg = background_text(&t->background);
	if (bg)
		strv_take(w, bg);
	size_t ev = test_events(r, run, t);
	if (ev)
		strv_take(w, xasprintf("%zu event%s during it", ev, ev == 1 ? "" : "s"));
	enum verdict_state s = w->n > before ? VERDICT_UNTRUSTED : n < 2 ? VERDICT_NOT_JUDGED : VERDICT_STABLE;
	if (s == VERDICT_NOT_JUDGED)
		strv_take(w, xstrdup(n ? "one pass: how much its passes vary is not known"
				       : "no per-pass values: how much its passes vary is not known"));
	strv_free(&local);
	return s;
}

/* "Pipe Throughput, 1 copy" */
static char *test_where(const struct result_run *run, const struct result_test *t)
{
	int64_t copies = int_or(run->copies, 0);
	return xasprintf("%s, %" PRId64 " cop%s", t->name ?: t->id ?: "?", copies, copies == 1 ? "y" : "ies");
}

/* The critical findings of the probe before and after the run, by id. */
static void critical_findings(const struct result_record *r, struct strv *reasons)
{
	json_object *env[2] = { r->environment.before, r->environment.after };
	struct strv ids = {0};
	unsigned where[64] = {0}; /* bit 0: before, bit 1: after */
	for (int k = 0; k < 2; k++) {
		struct env_record e = {0};
		_cleanup_free_ char *error = NULL;
		if (!env[k] || env_decode(env[k], k ? "environment.after" : "environment.before", &e, &error) < 0) {
			env_record_free(&e);
			continue;
		}
		for (size_t i = 0; i < e.findings.n; i++) {
			const struct env_finding *f = &e.findings.v[i];
			if (!streq_ptr(f->severity, "crit") || !f->id)
				continue;
			size_t at = 0;
			while (at < ids.n && !streq(ids.v[at], f->id))
				at++;
			if (at == ids.n && at < ARRAY_SIZE(where))
				strv_push(&ids, f->id);
			if (at < ARRAY_SIZE(where))
				where[at] |= 1u << k;
		}
		env_record_free(&e);
	}
	for (size_t i = 0; i < ids.n; i++)
		strv_take(reasons, xasprintf("the probe %s the run found %s (critical)",
					     where[i] == 3 ? "before and after" : where[i] == 1 ? "before" : "after",
					     ids.v[i]));
	strv_free(&ids);
}

/* How many events of each kind: "21 events during the run (others)". */
static void events_reason(const struct result_record *r, struct strv *reasons)
{
	struct strv kinds = {0};
	for (size_t i = 0; i < r->events.n; i++) {
		const char *k = r->events.v[i].kind ?: "other";
		if (!strv_contains(&kinds, k))
			strv_push(&kinds, k);
	}
	if (kinds.n) {
		_cleanup_free_ char *list = strv_join(&kinds, ", ");
		size_t n = r->events.n;
		strv_take(reasons, xasprintf("%zu event%s during the run (%s)", n, n == 1 ? "" : "s", list));
	}
	strv_free(&kinds);
}

void result_verdict(const struct result_record *r, struct result_verdict *v)
{
	*v = (struct result_verdict){0};
	if (is_true(r->preflight.busy))
		strv_take(&v->reasons, xasprintf("the machine was busy as the run started (%.1f processes runnable "
						 "besides ubtune, %.0f %% of CPU time in use)",
						 num_or(r->preflight.runnable, 0), num_or(r->preflight.cpu_pct, 0)));
	critical_findings(r, &v->reasons);
	events_reason(r, &v->reasons);
	v->run_reasons = v->reasons.n;
	struct strv not_judged = {0};
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct result_run *run = &r->runs.v[i];
		for (size_t k = 0; k < run->tests.n; k++) {
			const struct result_test *t = &run->tests.v[k];
			struct strv why = {0};
			enum verdict_state s = result_test_verdict(r, run, t, &why);
			_cleanup_free_ char *where = test_where(run, t);
			v->tests++;
			if (s == VERDICT_UNTRUSTED) {
				/* the run's events are counted once, above */
				_cleanup_free_ char *list = NULL;
				struct strv own = {0};
				for (size_t w = 0; w < why.n; w++)
					if (!strstr(why.v[w], " during it"))
						strv_push(&own, why.v[w]);
				list = strv_join(&own, ", ");
				if (own.n)
					strv_take(&v->reasons, xasprintf("%s: %s", where, list));
				strv_free(&own);
				v->tests_untrusted++;
			} else if (s == VERDICT_NOT_JUDGED) {
				strv_push(&not_judged, where);
				v->tests_not_judged++;
			}
			strv_free(&why);
		}
	}
	if (v->reasons.n) {
		v->state = VERDICT_UNTRUSTED;
	} else if (v->tests_not_judged || !v->tests) {
		v->state = VERDICT_NOT_JUDGED;
		bool passes = false;
		for (size_t i = 0; i < r->runs.n; i++)
			for (size_t k = 0; k < r->runs.v[i].tests.n; k++)
				passes |= r->runs.v[i].tests.v[k].passes.n > 0;
		if (!v->tests)
			strv_push(&v->reasons, "the result holds no test");
		else if (!passes)
			strv_push(&v->reasons, is_true(r->imported) ? "the imported output holds no per-pass values: how much "
								      "the passes vary is not known"
								    : "no test kept its passes: how much they vary is not known");
		else if (v->tests_not_judged == v->tests)
			strv_push(&v->reasons, "one pass per test: how much the passes vary is not known");
		else
			strv_take(&v->reasons,
				  xasprintf("%zu of %zu tests ran one pass (%s%s): how much their passes vary is not known",
					    v->tests_not_judged, v->tests, not_judged.v[0],
					    not_judged.n > 1 ? " and more" : ""));
	}
	strv_free(&not_judged);
}

void result_verdict_free(struct result_verdict *v)
{
	strv_free(&v->reasons);
	*v = (struct result_verdict){0};
}

static json_object *verdict_json(enum verdict_state s, const struct strv *reasons)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	jset_str(o, "state", verdict_state_name(s));
	for (size_t i = 0; i < reasons->n; i++)
		jarr_add_str(list, reasons->v[i]);
	jset(o, "reasons", list);
	return o;
}

int result_verdict_set(json_object *rec)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	if (result_decode(rec, &r, &error) < 0)
		return -EBADMSG;
	struct result_verdict v;
	result_verdict(&r, &v);
	for (size_t i = 0; i < r.runs.n; i++) {
		const struct result_run *run = &r.runs.v[i];
		for (size_t k = 0; k < run->tests.n; k++) {
			struct strv why = {0};
			enum verdict_state s = result_test_verdict(&r, run, &run->tests.v[k], &why);
			jset(run->tests.v[k].json, "verdict", verdict_json(s, &why));
			strv_free(&why);
		}
	}
	jset(rec, "verdict", verdict_json(v.state, &v.reasons));
	result_verdict_free(&v);
	result_record_free(&r);
	return 0;
}
