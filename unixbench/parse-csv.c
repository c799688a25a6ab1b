/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The .csv of results/ (UnixBench 6.0.0 with UB_OUTPUT_CSV=true). */
#include "unixbench/parse.h"

#include "lib/util.h"
#include "unixbench/parse-internal.h"

void csv_free(struct parser *p)
{
	for (size_t i = 0; i < p->ncsv; i++)
		free(p->csv_names[i]);
	free(p->csv_names);
	p->csv_names = NULL;
	p->ncsv = 0;
}

bool csv_line(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Concurrency,");
	if (v) {
		csv_free(p);
		while (*v && p->ncsv < UB_TESTS_MAX) {
			size_t n = strcspn(v, ",");
			p->csv_names = xrealloc(p->csv_names, (p->ncsv + 1) * sizeof(*p->csv_names));
			p->csv_names[p->ncsv++] = field(v, n);
			v += n + (v[n] == ',');
		}
		return true;
	}
	unsigned copies;
	v = s;
	if (!p->ncsv || !take_uint(&v, UB_COPIES_MAX, &copies) || *v != ',' || copies == 0)
		return false;
	struct ub_block *b = block_new(p, PH_CSV);
	if (!b || !(b = block_set_copies(p, b, copies)))
		return true;
	mark_format(p, UB_FMT_CSV);
	v++;
	for (size_t i = 0; i < p->ncsv; i++) {
		size_t n = strcspn(v, ",");
		double d;
		if (parse_number(v, n, &d)) {
			struct ub_test *t = test_add(p, b, p->csv_names[i]);
			if (t)
				t->result = d, t->has_result = true;
		} else {
			problem(p, line_src(p), s, "%s: '%.*s' is not a number", p->csv_names[i], (int)(n > 40 ? 40 : n), v);
		}
		if (!v[n])
			break;
		v += n + 1;
	}
	return true;
}
