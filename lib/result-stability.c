/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result-stability.h"

#include <inttypes.h>
#include <stdlib.h>

#include "lib/doubles.h"

/* Passes in two groups: the widest gap between neighbouring rates, in %
 * of the lower, when each side holds at least two passes; else 0. */
static double bimodal_gap_pct(const struct result_test *t)
{
	size_t n = 0, len = t->passes.n;
	if (len < 4)
		return 0;
	double *v = xcalloc(len, sizeof(double));
	for (size_t i = 0; i < len; i++)
		if (t->passes.v[i].rate.known && t->passes.v[i].rate.v > 0)
			v[n++] = t->passes.v[i].rate.v;
	doubles_sort(v, n);
	double widest = 0;
	/* v[0..i) below the gap, v[i..n) above it, two or more on each side */
	for (size_t i = 2; i + 2 <= n; i++)
		if ((v[i] / v[i - 1] - 1) * 100 > widest)
			widest = (v[i] / v[i - 1] - 1) * 100;
	free(v);
	return widest;
}

static void judge_test(const struct result_test *t, int64_t copies, struct strv *reasons)
{
	const char *name = t->name ?: t->id ?: "?";
	_cleanup_free_ char *where = xasprintf("%s, %" PRId64 " cop%s", name, copies, copies == 1 ? "y" : "ies");
	double gap = bimodal_gap_pct(t);
	struct opt_num cv = t->dispersion.cv_pct;
	if (gap >= STABILITY_GAP_MIN_PCT)
		strv_take(reasons, xasprintf("%s: bimodal, its passes fall into two groups %.0f %% apart", where, gap));
	else if (cv.known && cv.v > STABILITY_CV_MAX_PCT)
		strv_take(reasons, xasprintf("%s: CV %.1f %% (above %.0f %%)", where, cv.v, STABILITY_CV_MAX_PCT));
}

size_t result_stability(const struct result_record *r, struct strv *reasons)
{
	size_t before = reasons->n;
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct result_run *run = &r->runs.v[i];
		for (size_t k = 0; k < run->tests.n; k++)
			judge_test(&run->tests.v[k], int_or(run->copies, 0), reasons);
	}
	/* events: how many of each kind */
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
	return reasons->n - before;
}
