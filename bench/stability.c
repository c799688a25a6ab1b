/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stability.h"

#include <inttypes.h>
#include <stdlib.h>

#include "lib/json.h"

#define REASONS_SHOWN 3

/* Whether a test kept two or more passes to judge by. */
static bool has_passes(json_object *rec)
{
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++) {
		json_object *tests = jpath(json_object_array_get_idx(runs, i), "tests");
		for (size_t k = 0; k < jarr_len(tests); k++)
			if (jpath_len(json_object_array_get_idx(tests, k), "passes") >= 2)
				return true;
	}
	return false;
}

size_t stability_render(json_object *rec, FILE *out)
{
	struct strv reasons = {0};
	size_t n = result_stability(rec, &reasons);
	bool imported = false;
	jpath_bool(rec, "imported", &imported);
	if (!n && imported && !has_passes(rec)) {
		fprintf(out, "Stability: not judged: the imported output holds no passes and no events\n");
	} else if (!n) {
		fprintf(out, "Stability: no test's passes vary by more than %.0f %%, none is bimodal, no event "
			     "during the run\n",
			STABILITY_CV_MAX_PCT);
	} else {
		fprintf(out, "Stability: not to be trusted: ");
		for (size_t i = 0; i < n && i < REASONS_SHOWN; i++)
			fprintf(out, "%s%s", i ? "; " : "", reasons.v[i]);
		if (n > REASONS_SHOWN)
			fprintf(out, "; and %zu more", n - REASONS_SHOWN);
		fputc('\n', out);
	}
	strv_free(&reasons);
	return n;
}
