/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text around the tables: Run's command line ("./Run -c 1 -c 8"),
 * headings that title and count the runs below them, "COPIES -> INDEX"
 * lists of one test. */
#include "unixbench/parse.h"

#include <ctype.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

/* "./Run -c 1 -c 8 ...": the copies of the tables that follow, in order. */
static bool run_command(struct parser *p, const char *s)
{
	const char *v = s;
	if (*v == '$' || *v == '#')
		v = skip_spaces(v + 1);
	v = startswith(v, "./Run ") ?: startswith(v, "Run ") ?: strstr(v, " ./Run ");
	if (!v)
		return false;
	unsigned hints[ARRAY_SIZE(p->hints)], n = 0, c;
	for (const char *q = strstr(v, "-c "); q && n < ARRAY_SIZE(hints); q = strstr(q, " -c ")) {
		q += startswith(q, " -c ") ? 4 : 3;
		if (take_uint(&q, UB_COPIES_MAX, &c) && c > 0)
			hints[n++] = c;
	}
	if (n) {
		memcpy(p->hints, hints, n * sizeof(*hints));
		p->nhints = n;
		p->hint_next = 0;
		p->hint_level = -1;
	}
	struct tok t[TOKENS_MAX];
	int nt = tokenize(v, t, TOKENS_MAX);
	unsigned named = 0;
	p->command_test = NULL;
	for (int i = 0; i < nt; i++)
		for (const struct ub_test_info *info = ub_tests; info->id; info++) {
			if (t[i].kind == T_WORD && tok_is(&t[i], info->id) && info->baseline > 0 && named++ == 0)
				p->command_test = info;
		}
	if (named != 1)
		p->command_test = NULL;
	return true;
}

/* "$COPIES -> INDEX" then "8 -> 1646.2": the index of the one test the
 * Run command above names, per copy count (each a run of its own). */
bool arrow_line(struct parser *p, const char *s)
{
	if (strstr(s, "-> INDEX")) {
		p->arrow_list = p->command_test != NULL;
		return p->arrow_list;
	}
	unsigned copies;
	double index;
	const char *v = s;
	/* the Run command that named the test may have been followed by one
	 * that named none */
	if (!p->arrow_list || !p->command_test || !take_uint(&v, UB_COPIES_MAX, &copies) || copies == 0 ||
	    !(v = startswith(skip_spaces(v), "->")))
		return false;
	v = skip_spaces(v);
	if (!parse_number(v, strlen(v), &index))
		return false;
	struct ub_block *b = block_new(p, PH_DONE);
	if (!b || !(b = block_set_copies(p, b, copies)))
		return true;
	b->copies_from_text = false;
	struct ub_test *t = test_add(p, b, p->command_test->name);
	if (t) {
		t->index = index;
		t->has_index = true;
	}
	b->score = index;
	b->has_score = b->partial = true;
	mark_format(p, UB_FMT_TABLE);
	return true;
}

/* The copies a heading names: "1 copy", "8 copies", "8 parallel", "64
 * threads", "单线程", "64线程", "4核"; 0 when it names none. */
unsigned heading_copies(const char *s)
{
	if (strstr(s, "单线") || strstr(s, "单核") || strstr(s, "单进程"))
		return 1;
	for (const char *q = s; *q; q++) {
		unsigned c;
		const char *v = q;
		if ((q > s && isdigit((unsigned char)q[-1])) || !take_uint(&v, UB_COPIES_MAX, &c) || c == 0)
			continue;
		const char *w = skip_spaces(v);
		static const char *const words[] = { "copy", "copies", "parallel", "thread", "threads", "process",
						     "processes", "线程", "线", "核", "进程", "并发" };
		for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
			const char *e = startswith(w, words[i]);
			if (e && (!isalpha((unsigned char)*e) || (*e == 's' && !isalpha((unsigned char)e[1]))))
				return c;
		}
	}
	return 0;
}

/* A line that titles what follows: a Markdown heading or list item, a
 * short line ending in ':', or a short line standing alone between blank
 * lines. The title, or NULL. */
static char *heading_text(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	const char *v;
	if (*s == '#') {
		v = skip_spaces(s + strspn(s, "#"));
		n = strlen(v);
		while (n && (v[n - 1] == '#' || v[n - 1] == ' '))
			n--;
	} else if ((startswith(s, "- ") || startswith(s, "* ")) && n <= 80) {
		v = skip_spaces(s + 2);
		n = strlen(v);
	} else if (n >= 2 && n <= 48 && s[n - 1] == ':') {
		v = s;
		n--;
	} else {
		unsigned src = line_src(p);
		bool alone = (p->i == 0 || p->lines->v[p->i - 1].src + 1 < src) &&
			     (p->i + 1 >= p->lines->n || p->lines->v[p->i + 1].src > src + 1);
		if (!alone || n > 40 || s[n - 1] == '.' || strchr("`$<|[(", *s))
			return NULL;
		v = s;
	}
	bool letters = false;
	for (size_t i = 0; i < n; i++)
		letters = letters || isalpha((unsigned char)v[i]) || (unsigned char)v[i] >= 0x80;
	if (!letters || n == 0)
		return NULL;
	return field(v, n);
}

/* A heading ends the table above it and titles the runs below it. */
bool heading_line(struct parser *p, const char *s)
{
	if (run_command(p, s))
		return true;
	char *h = heading_text(p, s);
	if (!h)
		return false;
	free(p->heading);
	p->heading = h;
	int level = *s == '#' ? (int)strspn(s, "#") : 0;
	unsigned c = heading_copies(h);
	if (c) {
		p->hints[0] = c;
		p->nhints = 1;
		p->hint_next = 0;
		p->hint_level = level;
	} else if (p->nhints && level && p->hint_level >= 0 && (p->hint_level == 0 || level <= p->hint_level)) {
		/* a Markdown heading ends the section a title of its rank or a
		 * plain title ("- 4 threads", "1 parallel:") counted copies for: a
		 * post's "- 1 core / 2 threads [DEDICATED]" spec line does not count
		 * the copies of the tables under its "## **UnixBench**" far below,
		 * where "1 parallel:" still counts those under its "before:" */
		p->nhints = 0;
	}
	struct ub_block *b = block_last(p);
	if (b && (b->phase == PH_RAW || b->phase == PH_INDEX))
		b->phase = PH_DONE;
	return true;
}
