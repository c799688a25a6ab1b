/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plan as the table `ubtune apply` shows before it changes anything. */
#include "plan.h"

#include <ctype.h>

#include "lib/table.h"
#include "lib/term.h"

/* "policy12 (CPUs 12-15) governor" -> "policy# (CPUs #-#) governor":
 * knobs that differ only in their numbers look alike. */
static char *shape(const char *s)
{
	struct buf b = {0};
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			buf_add(&b, s, 1);
		else if (!b.len || b.s[b.len - 1] != '#')
			buf_add(&b, "#", 1);
	}
	return b.len ? buf_steal(&b) : xstrdup("");
}

/* A run of three or more alike knobs is shown as one line. */
#define RUN_MIN 3

/* The plan's table. The knob and its reason wrap; where the reason has
 * not PLAN_WHY_MIN columns beside a knob of PLAN_WHAT_MIN, it goes under
 * its row. Values stay whole: the arrow leads the new value, its head
 * stands over the value. */
#define PLAN_WHAT_MIN 30
#define PLAN_WHY_MIN 40
static const struct table_column plan_columns[] = {
	{ .head = "area" },
	{ .head = "what", .flags = TABLE_WRAP, .min = PLAN_WHAT_MIN },
	{ .head = "from" },
	{ .head = "   to" },
	{ .head = "why", .flags = TABLE_WRAP | TABLE_UNDER, .min = PLAN_WHY_MIN, .drop = 1 },
};

static char *run_label(const char *first, const char *last, size_t n)
{
	return n >= RUN_MIN ? xasprintf("%s ... %s (%zu alike)", first, last, n) : xstrdup(first);
}

static bool alike_actions(const struct action *a, const struct action *b)
{
	_cleanup_free_ char *sa = shape(a->what), *sb = shape(b->what);
	return streq(sa, sb) && streq(a->area, b->area) && streq(a->from, b->from) && streq(a->to, b->to) &&
	       streq(a->why, b->why);
}

/* "what: value" lines; alike when the whats look alike and the values match. */
static bool alike_lines(const char *a, const char *b)
{
	const char *va = strrchr(a, ':'), *vb = strrchr(b, ':');
	if (!va || !vb || !streq(va, vb))
		return false;
	_cleanup_free_ char *wa = xstrndup(a, (size_t)(va - a)), *wb = xstrndup(b, (size_t)(vb - b));
	_cleanup_free_ char *sa = shape(wa), *sb = shape(wb);
	return streq(sa, sb);
}

/* An entry of a list: from column 2, wrapped to the width under itself. */
static void print_entry(FILE *f, const char *text)
{
	fputs("  ", f);
	term_print_wrapped(f, text, 4, term_width(f));
}

static void print_list(FILE *f, const char *title, const struct strv *l, bool group)
{
	if (!l->n)
		return;
	fprintf(f, "%s\n", title);
	for (size_t i = 0, n; i < l->n; i += n) {
		for (n = 1; group && i + n < l->n && alike_lines(l->v[i], l->v[i + n]); n++)
			;
		if (n < RUN_MIN) {
			n = 1;
			print_entry(f, l->v[i]);
			continue;
		}
		const char *last = l->v[i + n - 1];
		_cleanup_free_ char *run = xasprintf("%.*s ... %s (%zu alike)", (int)(strrchr(l->v[i], ':') - l->v[i]),
						     l->v[i], last, n);
		print_entry(f, run);
	}
}

static void print_record(json_object *rec, FILE *f)
{
	if (!json_object_object_length(rec))
		return;
	fprintf(f, "Recorded for `ubtune bench`:\n");
	json_object_object_foreach(rec, key, val)
	{
		fprintf(f, "  %-8s ", key);
		term_print_wrapped(f, json_object_to_json_string_ext(val, JSON_C_TO_STRING_SPACED |
									      JSON_C_TO_STRING_NOSLASHESCAPE),
				   11, term_width(f));
	}
}

/* Values as one line: tabs and other control characters become spaces. */
static char *oneline(const char *s)
{
	char *o = xstrdup(s);
	for (char *c = o; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
	return o;
}

void plan_print(const struct profile *p, const struct plan *plan, FILE *f)
{
	_cleanup_free_ char *chain = strv_join(&p->chain, " -> ");
	_cleanup_free_ char *head = xasprintf("Profile %s (%s)%s%s", p->name, chain, p->description ? ": " : "",
					      p->description ? p->description : "");
	size_t width = term_width(f);
	term_print_wrapped(f, head, 2, width);
	for (size_t i = 0; i < p->notes.n; i++)
		print_entry(f, p->notes.v[i]);

	/* rows: one per action, or per run of alike actions */
	struct table *t = table_new(plan_columns, ARRAY_SIZE(plan_columns), 0, 2);
	size_t rows = 0;
	for (size_t i = 0, n; i < plan->n_actions; i += n, rows++) {
		for (n = 1; i + n < plan->n_actions && alike_actions(&plan->actions[i], &plan->actions[i + n]); n++)
			;
		if (n < RUN_MIN)
			n = 1;
		const struct action *a = &plan->actions[i];
		_cleanup_free_ char *what = run_label(a->what, plan->actions[i + n - 1].what, n);
		_cleanup_free_ char *from = oneline(a->from), *to = oneline(a->to);
		_cleanup_free_ char *arrow = xasprintf("-> %s", to);
		table_addv(t, a->area, what, from, arrow, a->why);
	}
	if (rows) {
		fputc('\n', f);
		table_print(t, f, width);
	} else {
		fprintf(f, "\nNothing to change.\n");
	}
	table_free(t);
	fputc('\n', f);
	print_list(f, "Already as the profile wants:", &plan->unchanged, true);
	print_list(f, "Left alone:", &plan->skipped, false);
	print_record(plan->record, f);
	print_list(f, "Cannot apply:", &plan->errors, false);
}
