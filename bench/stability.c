/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stability.h"

#include <stdlib.h>

#include "lib/result-record.h"
#include "lib/term.h"

#define REASONS_SHOWN 3

enum verdict_state stability_render(json_object *rec, const char *prefix, FILE *out)
{
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	struct buf b = {0};
	buf_printf(&b, "%sStability: ", prefix);
	struct result_verdict v = { .state = VERDICT_NOT_JUDGED };
	if (result_decode(rec, &r, &error) < 0) {
		buf_printf(&b, "not judged: %s", error);
		goto print;
	}
	result_verdict(&r, &v);
	if (v.state == VERDICT_STABLE) {
		buf_printf(&b, "to be trusted: no test's passes vary by more than %.0f %% or fall into two groups, "
			       "no test shared the machine past a threshold, no event during the run, no critical "
			       "finding",
			   STABILITY_CV_MAX_PCT);
	} else {
		buf_puts(&b, v.state == VERDICT_UNTRUSTED ? "not to be trusted: " : "not judged: ");
		for (size_t i = 0; i < v.reasons.n && i < REASONS_SHOWN; i++)
			buf_printf(&b, "%s%s", i ? "; " : "", v.reasons.v[i]);
		if (v.reasons.n > REASONS_SHOWN)
			buf_printf(&b, "; and %zu more", v.reasons.n - REASONS_SHOWN);
	}
	result_record_free(&r);
print:
	/* continuation lines indented: the first starts at 0, two short */
	term_print_wrapped(out, b.s, 2, term_width(out));
	buf_free(&b);
	enum verdict_state state = v.state;
	result_verdict_free(&v);
	return state;
}
