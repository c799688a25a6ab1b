/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stability.h"

#include <inttypes.h>
#include <stdlib.h>

#include "lib/result-record.h"

#define REASONS_SHOWN 3

/* Whether a test kept two or more passes to judge by. */
static bool has_passes(const struct result_record *r)
{
	for (size_t i = 0; i < r->runs.n; i++)
		for (size_t k = 0; k < r->runs.v[i].tests.n; k++)
			if (r->runs.v[i].tests.v[k].passes.n >= 2)
				return true;
	return false;
}

size_t stability_render(json_object *rec, FILE *out)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	if (result_decode(rec, &r, &error) < 0) {
		fprintf(out, "Stability: not judged: %s\n", error);
		return 0;
	}
	struct strv reasons = {0};
	size_t n = result_stability(&r, &reasons);
	if (!n && is_true(r.imported) && !has_passes(&r)) {
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
	result_record_free(&r);
	return n;
}
