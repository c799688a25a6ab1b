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
		p->hint_level = 0;
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

/* Whether the next line (past a code fence) starts a UnixBench table: a
 * test row, Run's "Benchmark Run", CPUs or index lines, a header. */
static bool above_table(struct parser *p)
{
	for (size_t k = p->i + 1; k < p->lines->n && k <= p->i + 2; k++) {
		const char *s = p->lines->v[k].s, *rest;
		_cleanup_free_ char *name = NULL;
		if (startswith(s, "```") || startswith(s, "~~~"))
			continue;
		unsigned n;
		const char *v = s;
		return known_name(s, &rest, &name) || startswith(s, "Benchmark Run") || startswith(s, "BYTE UNIX") ||
		       startswith(s, "System Benchmarks Index") || startswith(s, "=======") ||
		       (take_uint(&v, UB_CPUS_MAX, &n) && startswith(v, " CPU"));
	}
	return false;
}

/* A short line right above a table that names it ("without patch",
 * "Kunpeng 920, 5.10"): it starts with a letter and holds no clock, no
 * code and none of Run's own lines. */
static bool label_line(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	if (n > 60 || !(isalpha((unsigned char)*s) || (unsigned char)*s >= 0xe4) || strchr(s, '`') ||
	    strcasestr(s, "benchmark run") || !above_table(p))
		return false;
	for (const char *c = s; *c; c++)
		if (isdigit((unsigned char)c[0]) && c[1] == ':' && isdigit((unsigned char)c[2]))
			return false;
	return true;
}

/* A line that titles what follows: a Markdown heading or list item, a
 * short line ending in ':', a short line standing alone between blank
 * lines or right above a table ("without patch"). The title, or NULL;
 * *level its depth: a Markdown heading's, else UB_TITLE_LEVEL. */
static char *heading_text(struct parser *p, const char *s, int *level)
{
	size_t n = strlen(s);
	const char *v;
	*level = UB_TITLE_LEVEL;
	if (*s == '#') {
		*level = (int)strspn(s, "#");
		if (*level >= UB_TITLE_LEVEL)
			*level = UB_TITLE_LEVEL - 1;
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
		if ((alone ? n > 40 : !label_line(p, s)) || s[n - 1] == '.' || strchr("`$<|[(", *s))
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

const char *heading_top(const struct parser *p)
{
	return p->nheads ? p->heads[p->nheads - 1].text : NULL;
}

void headings_free(struct parser *p)
{
	for (size_t i = 0; i < p->nheads; i++)
		free(p->heads[i].text);
	p->nheads = 0;
}

/* A heading replaces those of its level and below. */
static void heading_push(struct parser *p, char *h, int level)
{
	while (p->nheads && p->heads[p->nheads - 1].level >= level)
		free(p->heads[--p->nheads].text);
	if (p->nheads == UB_HEADS_MAX) {
		free(p->heads[0].text);
		memmove(p->heads, p->heads + 1, --p->nheads * sizeof(*p->heads));
	}
	p->heads[p->nheads].text = h;
	p->heads[p->nheads++].level = level;
}

/* 1: what follows a number counts cores ("8 cores", "4C8T", "16 vCPUs",
 * "8核"), 2: threads ("16 threads", "8T", "16线程"), 0: neither. */
static int cpu_word(const char *v)
{
	if ((*v == 'C' || *v == 'c' || *v == 'T' || *v == 't') && !isalpha((unsigned char)v[1]))
		return *v == 'C' || *v == 'c' ? 1 : 2;
	const char *w = *v == '-' ? v + 1 : skip_spaces(v);
	static const char *const words[] = { "cores", "core", "vcpus", "vcpu", "cpus", "cpu", "物理核", "核心", "核",
					     "threads", "thread", "logical", "线程", "逻辑" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		const char *e = startswith(w, words[i]) ?: strncasecmp(w, words[i], strlen(words[i])) == 0 ? w + strlen(words[i]) : NULL;
		if (!e || isalpha((unsigned char)*e))
			continue;
		/* "8 CPUs in system" is Run's own line, read where it is */
		if (startswith(e, " in system"))
			return 0;
		return i < 9 ? 1 : 2;
	}
	return 0;
}

/* A row of a machine's facts: "核心数 | 1", "vCPU | 4", "CPU(s) | 8". */
void machine_count(struct parser *p, const char *key, const char *value)
{
	static const char *const keys[] = { "核心数", "核数", "核心", "线程数", "cores", "cpu cores", "vcpu", "vcpus",
					    "cpu(s)", "cpus", "threads" };
	unsigned n;
	if (!parse_uint(value, UB_CPUS_MAX, &n) || !n)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcasecmp(key, keys[i]) == 0 || (strstr(key, keys[i]) && (unsigned char)keys[i][0] >= 0x80)) {
			p->machine_cpus = n;
			return;
		}
}

/* What a line of prose says of the machine: that the runs used every CPU
 * ("all cores", "-c $(nproc)", "所有核"), and its CPUs ("8 cores", "16
 * vCPUs", "4C8T", "8核16线程": the threads where both are given). */
static void machine_facts(struct parser *p, const char *s)
{
	static const char *const all[] = { "all cores", "all the cores", "all cpus", "all the cpus", "all threads",
					   "all vcpus", "every core", "every cpu", "$(nproc)", "`nproc`", "所有核",
					   "全部核", "满核", "所有cpu", "全核" };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (strcasestr(s, all[i]))
			p->all_cores = true;
	unsigned cores = 0, threads = 0;
	for (const char *q = s; *q; q++) {
		unsigned c;
		const char *v = q;
		if ((q > s && (isdigit((unsigned char)q[-1]) || q[-1] == '.')) || !take_uint(&v, UB_CPUS_MAX, &c) || !c)
			continue;
		int kind = cpu_word(v);
		if (kind == 2)
			threads = c;
		else if (kind == 1 && !cores)
			cores = c;
	}
	if (threads || cores)
		p->machine_cpus = threads ? threads : cores;
}

/* A heading of the run on every CPU: "多核心", "Multi-core test", "多线程". */
static bool many_copies(const char *h)
{
	static const char *const words[] = { "multi-core", "multi core", "multicore", "multi-thread", "multi thread",
					     "多核", "多线程", "全核" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strcasestr(h, words[i]))
			return true;
	return false;
}

/* A title that numbers a machine: "Machine 1", "host B", "服务器2". */
static bool names_machine(const char *h)
{
	static const char *const words[] = { "machine", "host", "server", "node", "system", "board", "instance",
					     "guest", "vm", "机器", "服务器", "主机", "节点" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		const char *v = strncasecmp(h, words[i], strlen(words[i])) == 0 ? h + strlen(words[i]) : NULL;
		if (!v)
			continue;
		v = skip_spaces(v);
		if (*v == '#')
			v++;
		if (isdigit((unsigned char)*v) || (isupper((unsigned char)*v) && !isalpha((unsigned char)v[1])))
			return true;
	}
	return false;
}

/* A run of which only the score is printed, labelled. */
void score_only(struct parser *p, const char *label, double score, bool partial)
{
	if (!result_new(p))
		return;
	struct ub_block *b = block_new(p, PH_DONE);
	if (!b)
		return;
	free(b->label);
	b->label = xstrdup(label);
	b->score = score;
	b->has_score = true;
	b->partial = partial;
	mark_format(p, UB_FMT_TABLE);
}

/* Whether the nearest headings (up to the nearest Markdown one) say that
 * scores of UnixBench follow. */
static bool scores_context(const struct parser *p)
{
	static const char *const words[] = { "unixbench", "index score", "unix bench", "跑分" };
	for (size_t i = p->nheads; i-- > 0;) {
		for (size_t k = 0; k < ARRAY_SIZE(words); k++)
			if (strcasestr(p->heads[i].text, words[k]))
				return true;
		if (p->heads[i].level < UB_MACHINE_LEVEL)
			break;
	}
	return false;
}

/* "- 5.10: 1534.7", "6.1  1595.2 points" under a heading that names
 * UnixBench's scores: a run each, of which only the score is printed. */
static bool score_list_line(struct parser *p, const char *s)
{
	if (!scores_context(p))
		return false;
	const char *v = s;
	if (startswith(v, "- ") || startswith(v, "* "))
		v += 2;
	v = skip_spaces(v);
	const char *sep = NULL;
	for (const char *c = v; *c && c - v <= 40 && !sep; c++)
		if (*c == ':' || *c == '|' || (c[0] == ' ' && c[1] == ' '))
			sep = c;
	if (!sep || sep == v)
		return false;
	const char *num = skip_spaces(sep + (*sep != ' ')), *end = num;
	while (isdigit((unsigned char)*end) || *end == '.' || *end == ',')
		end++;
	double score;
	_cleanup_free_ char *n = xstrndup(num, (size_t)(end - num));
	end = skip_spaces(end);
	if (!parse_number(n, strlen(n), &score) || !(score > 0) ||
	    !(!*end || startswith(end, "points") || startswith(end, "分") || *end == '|'))
		return false;
	_cleanup_free_ char *label = field(v, (size_t)(sep - v));
	bool letters = false;
	for (const char *c = label; *c; c++)
		letters |= isalnum((unsigned char)*c) || (unsigned char)*c >= 0x80;
	if (!letters)
		return false;
	score_only(p, label, score, false);
	return true;
}

/* A heading ends the table above it and titles the runs below it. */
bool heading_line(struct parser *p, const char *s)
{
	if (run_command(p, s) || score_list_line(p, s))
		return true;
	unsigned cpus = p->machine_cpus;
	machine_facts(p, s);
	int level;
	char *h = heading_text(p, s, &level);
	/* a line describing a machine ("Machine 2: Kunpeng 920, 96 cores")
	 * heads the runs of that machine, above their "before" and "after" */
	if (!h && p->machine_cpus != cpus && strlen(s) <= 100 && s[strlen(s) - 1] != '.' && isalpha((unsigned char)*s)) {
		h = field(s, strlen(s));
		level = UB_MACHINE_LEVEL;
	} else if (h && level == UB_TITLE_LEVEL && (p->machine_cpus != cpus || names_machine(h))) {
		level = UB_MACHINE_LEVEL;
	}
	if (!h)
		return false;
	heading_push(p, h, level);
	/* the CPUs of a machine's description are no copy count ("all
	 * cores" makes them one) */
	unsigned c = level == UB_MACHINE_LEVEL ? 0 : heading_copies(h);
	/* "多核心", "multi-core": every CPU the machine's description gives */
	if (!c && level != UB_MACHINE_LEVEL && many_copies(h))
		c = p->machine_cpus;
	if (c) {
		p->hints[0] = c;
		p->nhints = 1;
		p->hint_next = 0;
		p->hint_level = level;
	} else if (p->nhints && (level < p->hint_level || (level == p->hint_level && level < UB_TITLE_LEVEL))) {
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

/* A heading that only says how many copies ran ("1 copy", "8 copies",
 * "单线程测试"): it tells the runs of one Run apart, not two conditions. */
static bool copies_only(const char *h)
{
	static const char *const kinds[] = { "single", "multi", "parallel", "多核", "多线程", "多进程", "并行", "单核",
					     "单线程" };
	bool said = heading_copies(h) != 0;
	for (size_t i = 0; i < ARRAY_SIZE(kinds) && !said; i++)
		said = strcasestr(h, kinds[i]) != NULL;
	if (!said)
		return false;
	size_t words = 1;
	for (const char *c = h; *c; c++)
		words += *c == ' ';
	return words <= 3;
}

/* A copy count as a word of a heading: "4 copies", "16 threads", or Run's
 * option as a name gives it ("c4" of "pi4-tmpfs-c4", "-c 4"). */
static bool copies_word(const char *s, size_t n)
{
	_cleanup_free_ char *w = xstrndup(s, n);
	if (heading_copies(w))
		return true;
	return (w[0] == 'c' || w[0] == 'C') && n > 1 && strspn(w + 1, "0123456789") == n - 1;
}

/* Two headings that are the same but for the copy count they name
 * ("disk, 1 copy" and "disk, 4 copies", "xfs-ssd-c1" and "xfs-ssd-c64"):
 * one condition, run at two copy counts. */
static bool same_but_copies(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), pre = 0, suf = 0;
	while (pre < la && pre < lb && a[pre] == b[pre])
		pre++;
	while (pre > 0 && isalnum((unsigned char)a[pre - 1]))
		pre--;
	while (suf < la - pre && suf < lb - pre && a[la - 1 - suf] == b[lb - 1 - suf])
		suf++;
	while (suf > 0 && isalnum((unsigned char)a[la - suf]))
		suf--;
	return pre + suf < la && pre + suf < lb && copies_word(a + pre, la - pre - suf) &&
	       copies_word(b + pre, lb - pre - suf);
}

static bool in_path(const struct ub_block *b, const char *h)
{
	for (size_t i = 0; i < b->npath; i++)
		if (streq(b->path[i], h))
			return true;
	return false;
}

/* Whether b's headings hold h, or h but for its copy count. */
static bool in_path_but_copies(const struct ub_block *b, const char *h)
{
	for (size_t i = 0; i < b->npath; i++)
		if (streq(b->path[i], h) || same_but_copies(b->path[i], h))
			return true;
	return false;
}

/* Whether the headings above the line name another condition than those
 * above b: one that is not a copy count is not the same. */
bool headings_differ(const struct parser *p, const struct ub_block *b)
{
	for (size_t i = 0; i < p->nheads; i++)
		if (!copies_only(p->heads[i].text) && !in_path_but_copies(b, p->heads[i].text))
			return true;
	for (size_t i = 0; i + b->titled < b->npath; i++) {
		bool here = false;
		for (size_t k = 0; k < p->nheads && !here; k++)
			here = streq(p->heads[k].text, b->path[i]) || same_but_copies(p->heads[k].text, b->path[i]);
		if (!here && !copies_only(b->path[i]))
			return true;
	}
	return false;
}

/* Whether every block of r says its copies (known), or none does (!known). */
static bool copies_all(const struct ub_result *r, bool known)
{
	for (size_t k = 0; k < r->nblocks; k++)
		if (!r->blocks[k].copies == known)
			return false;
	return r->nblocks > 0;
}

/* A run of Run whose tables say no copies, beside one of the same machine
 * (group) with as many tables whose CPUs lines say them ("before" printed
 * whole, "after" as index tables only): the same copies, in order. */
static void sibling_copies(struct ub_doc *d)
{
	for (size_t i = 0; i < d->nresults; i++) {
		struct ub_result *r = &d->results[i];
		if (!copies_all(r, false))
			continue;
		for (size_t j = 0; j < d->nresults; j++) {
			const struct ub_result *s = &d->results[j];
			if (j == i || s->nblocks != r->nblocks || !copies_all(s, true) ||
			    !streq_ptr(s->blocks[0].group, r->blocks[0].group))
				continue;
			for (size_t k = 0; k < r->nblocks; k++) {
				r->blocks[k].copies = s->blocks[k].copies;
				r->blocks[k].copies_from_text = true;
			}
			break;
		}
	}
}

/*
 * The label of each run is what tells it from the others: of the headings
 * above it, those that not every run has and that say more than a copy
 * count ("with the patch" under a heading all runs share). The innermost
 * is the label; the ones above it, if any, the group (a machine of
 * several, each before and after). A text that says every CPU ran gives
 * the runs that say no copies the CPUs their machine has; else a sibling
 * run of their machine whose tables say them (sibling_copies()).
 */
static void label_runs(struct ub_doc *d, bool all_cores)
{
	struct ub_block *v[UB_RESULTS_MAX];
	size_t n = 0;
	for (size_t i = 0; i < d->nresults; i++)
		for (size_t k = 0; k < d->results[i].nblocks && n < ARRAY_SIZE(v); k++) {
			struct ub_block *b = &d->results[i].blocks[k];
			/* every CPU, or the only one: Run on one CPU runs one copy */
			if ((all_cores || b->text_cpus == 1) && !b->copies && b->text_cpus) {
				b->copies = b->text_cpus;
				b->copies_from_text = true;
			}
			if (b->npath)
				v[n++] = b;
		}
	if (n < 2)
		return;
	const char *last[ARRAY_SIZE(v)];
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		last[i] = NULL;
		for (size_t k = v[i]->npath; k-- > 0 && !last[i];) {
			const char *h = v[i]->path[k];
			bool shared = true;
			for (size_t j = 0; j < n && shared; j++)
				shared = in_path(v[j], h);
			if (!shared && !copies_only(h))
				last[i] = h;
		}
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = streq_ptr(last[j], last[i]);
		distinct += last[i] && !seen;
	}
	if (distinct < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!last[i])
			continue;
		struct buf g = {0};
		for (size_t k = 0; k < v[i]->npath && v[i]->path[k] != last[i]; k++) {
			const char *h = v[i]->path[k];
			bool shared = true;
			for (size_t j = 0; j < n && shared; j++)
				shared = in_path(v[j], h);
			if (!shared && !copies_only(h))
				buf_printf(&g, "%s%s", g.len ? ", " : "", h);
		}
		free(v[i]->label);
		v[i]->label = xstrdup(last[i]);
		free(v[i]->group);
		v[i]->group = g.len ? buf_steal(&g) : NULL;
		buf_free(&g);
	}
}

void relabel(struct ub_doc *d, bool all_cores)
{
	label_runs(d, all_cores);
	sibling_copies(d);
}
