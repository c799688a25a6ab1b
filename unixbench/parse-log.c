/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The .log of results/: every pass of every test, and attaching those
 * passes to the report of the same run. */
#include "unixbench/parse.h"

#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

static struct ub_test *log_test(struct parser *p)
{
	struct ub_block *b = block_last(p);
	return b && b->phase == PH_LOG && b->ntests ? &b->tests[b->ntests - 1] : NULL;
}

static struct ub_pass *log_pass(struct parser *p)
{
	struct ub_test *t = log_test(p);
	return t && t->npasses ? &t->passes[t->npasses - 1] : NULL;
}

/* "Pipe Throughput -- 2 copies" */
bool log_test_line(struct parser *p, const char *s)
{
	const char *sep = strstr(s, " -- ");
	while (sep && strstr(sep + 4, " -- "))
		sep = strstr(sep + 4, " -- ");
	unsigned copies;
	const char *v = sep ? sep + 4 : NULL;
	if (!v || !take_uint(&v, UB_COPIES_MAX, &copies) || copies == 0 ||
	    !(streq(v, " copy") || streq(v, " copies")))
		return false;
	_cleanup_free_ char *name = field(s, (size_t)(sep - s));
	struct ub_block *b = block_last(p);
	if (!b || b->phase != PH_LOG || b->copies != copies || test_find(b, name)) {
		b = block_new(p, PH_LOG);
		if (b)
			b = block_set_copies(p, b, copies);
	}
	if (b)
		test_add(p, b, name);
	mark_format(p, UB_FMT_LOG);
	return true;
}

static void log_copy_field(struct parser *p, const char *key, const char *value)
{
	struct ub_pass *pass = log_pass(p);
	if (!pass)
		return;
	struct ub_copy *c = pass->ncopies ? &pass->copies[pass->ncopies - 1] : NULL;
	if (streq(key, "COUNT0")) {
		if (pass->ncopies >= UB_COPIES_MAX)
			return;
		pass->copies = xrealloc(pass->copies, (pass->ncopies + 1) * sizeof(*pass->copies));
		c = &pass->copies[pass->ncopies++];
		*c = (struct ub_copy){0};
		c->has_count = parse_number(value, strlen(value), &c->count);
		return;
	}
	if (!c)
		return;
	if (streq(key, "COUNT1")) {
		c->has_timebase = parse_number(value, strlen(value), &c->timebase);
	} else if (streq(key, "COUNT2")) {
		struct ub_test *t = log_test(p);
		if (!t->unit && *value)
			t->unit = field(value, strlen(value));
	} else if (streq(key, "TIME")) {
		c->has_time = parse_number(value, strlen(value), &c->time);
	} else if (streq(key, "elapsed")) {
		c->has_elapsed = parse_number(value, strlen(value), &c->elapsed);
	} else if (streq(key, "status")) {
		unsigned st;
		c->status = parse_uint(value, 65535, &st) ? (int)st : -1;
	}
}

bool log_line(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	if (n >= 20 && strspn(s, "#") == n)
		return true;
	struct ub_test *t = log_test(p);
	if (!t)
		return false;
	const char *v;
	double d;
	unsigned u;
	if ((v = startswith(s, "==> "))) {
		if (!t->command)
			t->command = field(v, strlen(v));
	} else if (startswith(s, "#### Pass ")) {
		if (t->npasses < UB_PASSES_MAX) {
			t->passes = xrealloc(t->passes, (t->npasses + 1) * sizeof(*t->passes));
			t->passes[t->npasses++] = (struct ub_pass){0};
		}
	} else if ((v = startswith(s, "# ")) && strchr(v, ':')) {
		const char *colon = strchr(v, ':');
		_cleanup_free_ char *key = xstrndup(v, (size_t)(colon - v));
		log_copy_field(p, key, skip_spaces(colon + 1));
	} else if ((v = startswith(s, ">>>> score: ")) && parse_number(v, strlen(v), &d)) {
		t->result = d, t->has_result = true;
	} else if ((v = startswith(s, ">>>> time: ")) && parse_number(v, strlen(v), &d)) {
		t->time_s = d, t->has_time = true;
	} else if ((v = startswith(s, ">>>> iterations: ")) && parse_uint(v, SAMPLES_MAX, &u)) {
		t->samples = u, t->has_samples = true;
	}
	/* anything else is the programs' own output (Whetstone's table,
	 * fstime's "Write done"), or "Count score:" lines derived from the above */
	return true;
}

void ub_pass_value(const struct ub_pass *p, double *count, double *time, double *timebase)
{
	double sum = 0, t = 0;
	for (size_t i = 0; i < p->ncopies; i++) {
		const struct ub_copy *c = &p->copies[i];
		sum += c->count;
		t += c->has_time && c->time > 0 ? c->time : c->elapsed;
	}
	*count = sum;
	*time = p->ncopies ? t / (double)p->ncopies : 0;
	*timebase = p->ncopies ? p->copies[0].timebase : 0;
}

/* A pass Run could have scored: every copy has a count, a timebase and a time. */
static bool pass_complete(const struct ub_pass *p)
{
	if (p->ncopies == 0)
		return false;
	for (size_t i = 0; i < p->ncopies; i++) {
		const struct ub_copy *c = &p->copies[i];
		if (!c->has_count || !c->has_timebase || !(c->has_time || c->has_elapsed) || c->status != 0)
			return false;
	}
	return true;
}

static void copy_passes(struct ub_test *to, const struct ub_test *from)
{
	to->passes = xcalloc(from->npasses, sizeof(*to->passes));
	for (size_t i = 0; i < from->npasses; i++) {
		const struct ub_pass *p = &from->passes[i];
		if (!pass_complete(p))
			continue;
		struct ub_pass *q = &to->passes[to->npasses++];
		q->ncopies = p->ncopies;
		q->copies = xmalloc(p->ncopies * sizeof(*q->copies));
		memcpy(q->copies, p->copies, p->ncopies * sizeof(*q->copies));
	}
	if (!to->command && from->command)
		to->command = xstrdup(from->command);
}

/* Blocks of a report and of its .log, in the order Run wrote both. */
static size_t attach_blocks(struct ub_block *rb, const struct ub_block *lb)
{
	size_t n = 0;
	if (rb->copies != lb->copies)
		return 0;
	for (size_t i = 0; i < rb->ntests; i++) {
		struct ub_test *t = &rb->tests[i];
		for (size_t k = 0; k < lb->ntests; k++) {
			const struct ub_test *l = &lb->tests[k];
			/* the report prints %.1f of the .log's score */
			if (!streq(t->name, l->name) || t->npasses || !l->npasses || !l->has_result || !t->has_result ||
			    fabs(t->result - l->result) > 0.051 + 1e-9 * l->result)
				continue;
			copy_passes(t, l);
			n += t->npasses > 0;
		}
	}
	return n;
}

size_t ub_attach_log(struct ub_doc *report, const struct ub_doc *log)
{
	size_t n = 0, lr = 0, lbk = 0;
	for (size_t i = 0; i < report->nresults; i++) {
		struct ub_result *r = &report->results[i];
		for (size_t k = 0; k < r->nblocks; k++) {
			if (lr >= log->nresults)
				return n;
			const struct ub_result *l = &log->results[lr];
			n += attach_blocks(&r->blocks[k], &l->blocks[lbk]);
			if (++lbk == l->nblocks) {
				lbk = 0;
				lr++;
			}
		}
	}
	return n;
}
