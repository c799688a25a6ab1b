/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "phases.h"

#include "lib/util.h"
#include "unixbench/catalogue.h"

void phases_mark_at(struct phases *p, double t, int test, unsigned copies)
{
	/* a mark that starts at the same moment as the last replaces it */
	if (p->n && p->v[p->n - 1].t >= t) {
		p->v[p->n - 1] = (struct phase_mark){ p->v[p->n - 1].t, test, copies };
		return;
	}
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = (struct phase_mark){ t, test, copies };
}

void phases_mark(struct phases *p, int test, unsigned copies)
{
	phases_mark_at(p, boottime_s(), test, copies);
}

bool phases_at(const struct phases *p, double t, int *test, unsigned *copies)
{
	const struct phase_mark *found = NULL;
	for (size_t i = 0; i < p->n && p->v[i].t <= t; i++)
		found = &p->v[i];
	if (!found)
		return false;
	*test = found->test;
	*copies = found->copies;
	return true;
}

void phases_free(struct phases *p)
{
	free(p->v);
	*p = (struct phases){0};
}

char *phase_text(int test, unsigned copies)
{
	if (test < 0 || test >= UB_NINDEX)
		return xstrdup("between tests");
	return xasprintf("during %s, %u cop%s", ub_tests[test].name, copies, copies == 1 ? "y" : "ies");
}
