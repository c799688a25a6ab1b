/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result-stability.h"

#include <inttypes.h>
#include <stdlib.h>

#include "lib/doubles.h"
#include "lib/json.h"

/* Passes in two groups: the widest gap between neighbouring rates, in %
 * of the lower, when each side holds at least two passes; else 0. */
static double bimodal_gap_pct(json_object *passes)
{
	size_t n = 0, len = jarr_len(passes);
	if (len < 4)
		return 0;
	double *v = xcalloc(len, sizeof(double));
	for (size_t i = 0; i < len; i++)
		if (jpath_double(json_object_array_get_idx(passes, i), "rate", &v[n]) && v[n] > 0)
			n++;
	doubles_sort(v, n);
	double widest = 0;
	/* v[0..i) below the gap, v[i..n) above it, two or more on each side */
	for (size_t i = 2; i + 2 <= n; i++)
		if ((v[i] / v[i - 1] - 1) * 100 > widest)
			widest = (v[i] / v[i - 1] - 1) * 100;
	free(v);
	return widest;
}

static void judge_test(json_object *t, int64_t copies, struct strv *reasons)
{
	const char *name = jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?";
	_cleanup_free_ char *where = xasprintf("%s, %" PRId64 " cop%s", name, copies, copies == 1 ? "y" : "ies");
	double cv, gap = bimodal_gap_pct(jpath(t, "passes"));
	if (gap >= STABILITY_GAP_MIN_PCT)
		strv_take(reasons, xasprintf("%s: bimodal, its passes fall into two groups %.0f %% apart", where, gap));
	else if (jpath_double(t, "dispersion.cv_pct", &cv) && cv > STABILITY_CV_MAX_PCT)
		strv_take(reasons, xasprintf("%s: CV %.1f %% (above %.0f %%)", where, cv, STABILITY_CV_MAX_PCT));
}

size_t result_stability(json_object *rec, struct strv *reasons)
{
	size_t before = reasons->n;
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++) {
		json_object *run = json_object_array_get_idx(runs, i), *tests = jpath(run, "tests");
		int64_t copies = 0;
		jpath_int(run, "copies", &copies);
		for (size_t k = 0; k < jarr_len(tests); k++)
			judge_test(json_object_array_get_idx(tests, k), copies, reasons);
	}
	/* events: how many of each kind */
	json_object *events = jpath(rec, "events");
	struct strv kinds = {0};
	for (size_t i = 0; i < jarr_len(events); i++) {
		const char *k = jpath_str(json_object_array_get_idx(events, i), "kind") ?: "other";
		if (!strv_contains(&kinds, k))
			strv_push(&kinds, k);
	}
	if (kinds.n) {
		_cleanup_free_ char *list = strv_join(&kinds, ", ");
		size_t n = jarr_len(events);
		strv_take(reasons, xasprintf("%zu event%s during the run (%s)", n, n == 1 ? "" : "s", list));
	}
	strv_free(&kinds);
	return reasons->n - before;
}
