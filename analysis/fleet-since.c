/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fleet --since ROUND: per host, what moved since an earlier round, and
 * whether it stands out of the runs' own noise. */
#include <math.h>

#include "analysis/compare.h"
#include "analysis/fleet.h"
#include "analysis/stats.h"
#include "lib/util.h"

/* The input of the same host with a run of this copy count; NULL when none. */
static const struct fleet_run *then_run(const struct fleet_input *then, size_t nthen, const char *machine,
					unsigned copies, size_t *which)
{
	for (size_t j = 0; j < nthen; j++) {
		if (!streq_ptr(then[j].machine, machine))
			continue;
		for (size_t k = 0; k < then[j].d.nruns; k++)
			if (then[j].d.runs[k].copies == copies) {
				*which = j;
				return &then[j].d.runs[k];
			}
	}
	return NULL;
}

static bool has_machine(const struct fleet_input *v, size_t n, const char *machine)
{
	for (size_t i = 0; i < n; i++)
		if (streq_ptr(v[i].machine, machine))
			return true;
	return false;
}

/* A change of one test: index where both have one, else result; Welch's
 * test of the kept passes' rates where both have two or more. */
static json_object *test_change(const struct fleet_test *a, const struct fleet_test *b, double *pct, bool *moved)
{
	bool index = isfinite(a->index) && isfinite(b->index);
	double va = index ? a->index : a->result, vb = index ? b->index : b->result;
	*moved = false;
	if (!(va > 0) || !isfinite(vb))
		return NULL;
	json_object *o = json_object_new_object();
	*pct = (vb / va - 1) * 100;
	jset_str(o, "test", a->id);
	jset_str(o, "name", a->name);
	jset_str(o, "basis", index ? "index" : "result");
	jset_double(o, "then", va);
	jset_double(o, "now", vb);
	jset_round(o, "pct", *pct, 2);
	struct welch w;
	if (a->nkept >= 2 && b->nkept >= 2 && stats_welch(a->kept, a->nkept, b->kept, b->nkept, &w) == 0) {
		jset_str(o, "method", "welch");
		jset_double(o, "p", w.p < 1e-4 ? 1e-4 : round(w.p * 1e4) / 1e4);
		jset_bool(o, "significant", w.p < COMPARE_ALPHA);
		*moved = w.p < COMPARE_ALPHA && fabs(*pct) >= FLEET_MIN_PCT;
	} else {
		jset_str(o, "method", "none");
		jset_null(o, "p");
		jset_null(o, "significant");
	}
	jset_bool(o, "moved", *moved);
	return o;
}

/* The index score's change: significant when the 95 % intervals are apart. */
static json_object *score_change(const struct fleet_run *a, const struct fleet_run *b, double *pct, bool *moved)
{
	*moved = false;
	if (!(a->score > 0) || !isfinite(b->score))
		return NULL;
	json_object *o = json_object_new_object();
	*pct = (b->score / a->score - 1) * 100;
	jset_str(o, "test", "score");
	jset_str(o, "name", "System Benchmarks Index Score");
	jset_str(o, "basis", "score");
	jset_double(o, "then", a->score);
	jset_double(o, "now", b->score);
	jset_round(o, "pct", *pct, 2);
	jset_null(o, "p");
	if (isfinite(a->ci_lo) && isfinite(a->ci_hi) && isfinite(b->ci_lo) && isfinite(b->ci_hi) && a->ci_lo < a->ci_hi &&
	    b->ci_lo < b->ci_hi) {
		bool apart = b->ci_hi < a->ci_lo || b->ci_lo > a->ci_hi;
		jset_str(o, "method", "ci95");
		jset_bool(o, "significant", apart);
		*moved = apart && fabs(*pct) >= FLEET_MIN_PCT;
	} else {
		jset_str(o, "method", "none");
		jset_null(o, "significant");
	}
	jset_bool(o, "moved", *moved);
	return o;
}

/* "File Copy 1024 -40 % (p<0.01)", "the index score -12 % (intervals apart)" */
static void moved_text(struct buf *b, json_object *c)
{
	const char *test = jpath_str(c, "test");
	int t = diag_test_lookup(test ?: "");
	double pct = 0, p = 1;
	jpath_double(c, "pct", &pct);
	buf_printf(b, "%s %+.0f %%", streq_ptr(test, "score") ? "the index score" : t >= 0 ? ub_tests[t].label
											   : jpath_str(c, "name") ?: "?",
		   pct);
	if (jpath_double(c, "p", &p))
		buf_printf(b, p < 0.01 ? " (p<0.01)" : " (p=%.2f)", p);
	else
		buf_puts(b, " (95 % intervals apart)");
}

/* One host at one copy count: every change, and the sentence when something moved. */
static json_object *host_json(const char *label, const struct fleet_input *now, const struct fleet_run *rn,
			      const struct fleet_input *then, const struct fleet_run *rt, const char *since,
			      bool several_copies, json_object *sentences)
{
	json_object *o = json_object_new_object(), *changes = json_object_new_array();
	jset_str(o, "host", label);
	jset_int(o, "copies", rn->copies);
	jset(o, "then", then->id ? json_object_new_int64(then->id) : NULL);
	jset(o, "now", now->id ? json_object_new_int64(now->id) : NULL);
	struct buf moved = {0};
	size_t up = 0, down = 0;
	double pct;
	bool m;
	json_object *score = score_change(rt, rn, &pct, &m);
	if (score) {
		json_object_array_add(changes, score);
		if (m) {
			moved_text(&moved, score);
			*(pct < 0 ? &down : &up) += 1;
		}
	}
	for (size_t k = 0; k < rn->ntests; k++) {
		const struct fleet_test *b = &rn->tests[k], *a = fleet_run_test(rt, b->id);
		json_object *c = a ? test_change(a, b, &pct, &m) : NULL;
		if (!c)
			continue;
		json_object_array_add(changes, c);
		if (m) {
			buf_puts(&moved, moved.len ? ", " : "");
			moved_text(&moved, c);
			*(pct < 0 ? &down : &up) += 1;
		}
	}
	jset(o, "changes", changes);
	jset_bool(o, "moved", moved.len > 0);
	if (moved.len) {
		_cleanup_free_ char *copies = several_copies ? xasprintf(" (%u cop%s)", rn->copies,
									 rn->copies == 1 ? "y" : "ies")
							     : xstrdup("");
		_cleanup_free_ char *s = xasprintf("host %s %s since round %s%s: %s", label,
						   !up ? "got slower" : !down ? "got faster" : "moved", since, copies,
						   moved.s);
		jarr_add_str(sentences, s);
	}
	buf_free(&moved);
	return o;
}

json_object *fleet_since(const struct fleet_input *now, size_t n, char *const *labels, const struct fleet_input *then,
			 size_t nthen, const char *since)
{
	json_object *o = json_object_new_object(), *hosts = json_object_new_array();
	json_object *sentences = json_object_new_array(), *fresh = json_object_new_array(), *gone = json_object_new_array();
	jset_str(o, "round", since);
	bool several = false;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < now[i].d.nruns; k++)
			several |= now[i].d.runs[k].copies != now[0].d.runs[0].copies;
	for (size_t i = 0; i < n; i++) {
		if (!has_machine(then, nthen, now[i].machine)) {
			jarr_add_str(fresh, labels[i]);
			continue;
		}
		for (size_t k = 0; k < now[i].d.nruns; k++) {
			const struct fleet_run *rn = &now[i].d.runs[k];
			size_t j;
			const struct fleet_run *rt = rn->copies ? then_run(then, nthen, now[i].machine, rn->copies, &j) : NULL;
			if (rt)
				json_object_array_add(hosts, host_json(labels[i], &now[i], rn, &then[j], rt, since, several,
								       sentences));
		}
	}
	for (size_t j = 0; j < nthen; j++)
		if (!has_machine(now, n, then[j].machine) && !has_machine(then, j, then[j].machine))
			jarr_add_str(gone, then[j].label);
	jset(o, "hosts", hosts);
	jset(o, "moved", sentences);
	jset(o, "new", fresh);
	jset(o, "gone", gone);
	return o;
}
