/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stability.h"

#include <inttypes.h>
#include <stdlib.h>

#include "lib/result-record.h"
#include "lib/term.h"

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

size_t stability_render(json_object *rec, const char *prefix, FILE *out)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	struct buf b = {0};
	buf_printf(&b, "%sStability: ", prefix);
	size_t n = 0;
	struct strv reasons = {0};
	if (result_decode(rec, &r, &error) < 0) {
		buf_printf(&b, "not judged: %s", error);
		goto print;
	}
	n = result_stability(&r, &reasons);
	if (!n && is_true(r.imported) && !has_passes(&r)) {
		buf_puts(&b, "not judged: the imported output holds no passes and no events");
	} else if (!n) {
		buf_printf(&b, "no test's passes vary by more than %.0f %%, none is bimodal, no event during the run",
			   STABILITY_CV_MAX_PCT);
	} else {
		buf_puts(&b, "not to be trusted: ");
		for (size_t i = 0; i < n && i < REASONS_SHOWN; i++)
			buf_printf(&b, "%s%s", i ? "; " : "", reasons.v[i]);
		if (n > REASONS_SHOWN)
			buf_printf(&b, "; and %zu more", n - REASONS_SHOWN);
	}
	result_record_free(&r);
print:
	/* continuation lines indented: the first starts at 0, two short */
	term_print_wrapped(out, b.s, 2, term_width(out));
	buf_free(&b);
	strv_free(&reasons);
	return n;
}
