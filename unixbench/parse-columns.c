/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs side by side: a table with one column per run (a Markdown table,
 * or plain text whose columns are runs of spaces or tabs), titled by the
 * condition of each ("before", "5.10", "1P"), and rows whose run is named
 * by a label glued before the test ("base  Dhrystone 2 ..."). */
#include "unixbench/parse.h"

#include <ctype.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

#define LABEL_MAX 40

void columns_reset(struct parser *p)
{
	for (size_t i = 0; i < p->ncols; i++)
		free(p->cols[i].title);
	p->ncols = 0;
	p->cols_open = false;
	p->cols_plain = false;
	p->cols_pct = false;
}

void columns_title(struct parser *p, const char *title)
{
	if (p->ncols < UB_COLUMNS_MAX)
		p->cols[p->ncols++] = (struct run_column){ .title = xstrdup(title) };
}

/* "4,151" or "1825.8" (a trailing '%' makes it no value). */
bool cell_number(const char *c, double *v)
{
	char b[48];
	size_t n = 0;
	for (const char *q = c; *q && n + 1 < sizeof(b); q++)
		if (*q != ',' || !isdigit((unsigned char)q[1]))
			b[n++] = *q;
	b[n] = '\0';
	return parse_number(b, n, v);
}

/* A change rather than a result: "+5.2%", "-0.3 %", "1.04x". */
static bool cell_change(const char *c)
{
	const char *v = c + (*c == '+' || *c == '-');
	size_t digits = strspn(v, "0123456789.,");
	if (!digits)
		return false;
	v = skip_spaces(v + digits);
	return streq(v, "%") || streq(v, "x") || streq(v, "X");
}

/* The test a row of runs starts with: its name, or in a script's table
 * the id Run knows it by ("dhry2reg  lps  397470665.9  431779110.2"). */
static const struct ub_test_info *row_test(const char *s, const char **rest, char **name)
{
	const struct ub_test_info *t = known_name(s, rest, name);
	if (t)
		return t;
	size_t n = strcspn(s, " \t");
	_cleanup_free_ char *id = xstrndup(s, n);
	if (!(t = ub_index_test(id)))
		return NULL;
	*rest = s + n;
	*name = xstrdup(t->name);
	return t;
}

/* The copies a run column's title gives ("160P", "8 copies"), 0: none. */
static unsigned title_copies(const char *t)
{
	unsigned c;
	const char *q = t;
	if (take_uint(&q, UB_COPIES_MAX, &c) && streq(q, "P") && c)
		return c;
	return heading_copies(t);
}

/* A column of changes or ratios, not of a run: "160P/1P", "change", "+/-". */
static bool title_change(const char *t)
{
	static const char *const words[] = { "/", "%", "change", "diff", "delta", "gain", "ratio", "improve",
					     "speedup", "提升", "变化", "对比", "差", "增幅" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strcasestr(t, words[i]))
			return true;
	return false;
}

/* Whether every run column is titled by its copies, each by other copies
 * ("| 1P | 160P |"): one run at several copy counts, not several runs. */
static bool one_set(struct parser *p)
{
	size_t n = 0;
	unsigned seen[UB_COLUMNS_MAX];
	for (size_t i = 0; i < p->ncols; i++) {
		if (p->cols[i].skip)
			continue;
		unsigned c = title_copies(p->cols[i].title);
		for (size_t k = 0; k < n; k++)
			if (seen[k] == c)
				return false;
		if (!c)
			return false;
		seen[n++] = c;
	}
	return n > 1;
}

/* A column titled as a repeat ("Run 1", "pass 2", "#3", "第1次"), not as
 * a condition. */
static bool title_repeat(const char *t)
{
	static const char *const words[] = { "run", "pass", "round", "iteration", "try", "#", "第" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);
		if (strncasecmp(t, words[i], n) != 0)
			continue;
		const char *v = skip_spaces(t + n);
		size_t digits = strspn(v, "0123456789");
		if (digits && (!v[digits] || streq(v + digits, "次")))
			return true;
	}
	return false;
}

/* A block titled by its column: the title is its label, and the last of
 * the headings above it (relabel() picks among them). */
static void block_title(struct ub_block *b, const char *title)
{
	free(b->label);
	b->label = xstrdup(title);
	b->path = xrealloc(b->path, (b->npath + 1) * sizeof(*b->path));
	b->path[b->npath++] = xstrdup(title);
	b->titled = true;
}

/* The run of column i: a result each, titled by the column, copies from
 * the title ("160P", "8 copies") or the text; columns that differ only
 * in their copies are the blocks of one result. */
static bool open_column(struct parser *p, size_t i, bool one)
{
	if (!one && !result_new(p))
		return false;
	struct ub_block *b = block_new(p, PH_INDEX);
	if (!b)
		return false;
	p->cols[i].result = p->doc->nresults - 1;
	p->cols[i].block = p->doc->results[p->cols[i].result].nblocks - 1;
	/* "Run 1", "Run 2": repeats of the condition the heading names */
	if (!title_repeat(p->cols[i].title) || !heading_top(p))
		block_title(b, p->cols[i].title);
	unsigned c = title_copies(p->cols[i].title);
	if (c)
		b->copies = c, b->copies_from_text = true;
	b->columns[0] = COL_INDEX;
	b->ncolumns = 1;
	mark_format(p, UB_FMT_TABLE);
	return true;
}

/* The runs of the columns, at the first row (of cells values after the
 * test's name). */
static bool columns_open(struct parser *p, size_t cells)
{
	/* "  | 1P | 160P" above "File Copy ... | 4,151 | 2,477": no title over the tests;
	 * else the tests' title may say the copies of every run ("| 单核 | 基线 | 优化后 |") */
	unsigned all = 0;
	if (cells < p->ncols) {
		all = heading_copies(p->cols[0].title);
		free(p->cols[0].title);
		memmove(p->cols, p->cols + 1, --p->ncols * sizeof(*p->cols));
	}
	for (size_t i = 0; i < p->ncols; i++)
		p->cols[i].skip = title_change(p->cols[i].title);
	bool one = one_set(p);
	if (one && !result_new(p))
		return false;
	for (size_t i = 0; i < p->ncols; i++) {
		if (p->cols[i].skip)
			continue;
		if (!open_column(p, i, one))
			return false;
		struct ub_block *b = &p->doc->results[p->cols[i].result].blocks[p->cols[i].block];
		if (!b->copies && all)
			b->copies = all, b->copies_from_text = true;
	}
	p->cols_open = true;
	return true;
}

/* Whether a row's value v of test t is a result, not an index: only a test
 * whose baseline is large tells (an index is far below it, a result far
 * above); 0 when it does not. */
static int vote_result(const struct ub_test_info *t, double v)
{
	if (!t || t->baseline < 3960)
		return 0;
	return v > 10 * t->baseline ? 1 : v < t->baseline ? -1 : 0;
}

/* A row that gives a run's index score under another name than Run's:
 * "Unix Bench Single Core (Index Score, higher is better)", "UnixBench
 * 多核得分". 1: the 1-copy run's, 2: the many-copy run's, 0: none. */
static int score_row(const char *name)
{
	if (!(strcasestr(name, "unixbench") || strcasestr(name, "unix bench")) ||
	    !(strcasestr(name, "score") || strcasestr(name, "index") || strstr(name, "分")))
		return 0;
	if (strcasestr(name, "multi") || strstr(name, "多"))
		return 2;
	return strcasestr(name, "single") || strstr(name, "单") || heading_copies(name) == 1 ? 1 : 0;
}

/* The block of column i that a score row of this kind goes to: its own for
 * the 1-copy score, a second one of its result for the many-copy score. */
static struct ub_block *score_block(struct parser *p, struct run_column *col, int kind)
{
	struct ub_result *r = &p->doc->results[col->result];
	if (kind == 1) {
		struct ub_block *b = &r->blocks[col->block];
		if (!b->copies)
			b->copies = 1, b->copies_from_text = true;
		return b;
	}
	if (!col->many) {
		const char *title = r->blocks[col->block].label;
		_cleanup_free_ char *t = title ? xstrdup(title) : NULL;
		struct ub_block *b = block_append(p, r, PH_INDEX);
		if (!b)
			return NULL;
		if (t)
			block_title(b, t);
		col->many = r->nblocks - 1;
	}
	return &r->blocks[col->many];
}

/* A row of the runs: the test (or "System Benchmarks Index Score") and a
 * value per column ("failed." and empty cells hold none). */
void columns_row(struct parser *p, const char *name, char **cells, size_t n)
{
	const char *rest;
	_cleanup_free_ char *known = NULL;
	bool score = after_category(name) && strstr(name, "Index Score");
	int kind = score ? 0 : score_row(name);
	if (!score && !kind && !(row_test(name, &rest, &known) && !*skip_spaces(rest)))
		return;
	size_t changes = 0, values = 0;
	for (size_t i = 0; i < n; i++) {
		double v;
		changes += cell_change(cells[i]);
		values += cell_number(cells[i], &v);
	}
	if (!values && changes) {
		/* once per table */
		if (!p->cols_pct)
			problem(p, line_src(p), line_text(p), "only changes in percent: no absolute result is printed, "
				"so there is no run to read");
		p->cols_pct = true;
		return;
	}
	if (!p->cols_open && !columns_open(p, n))
		return;
	for (size_t i = 0; i < p->ncols && i < n; i++) {
		double v;
		if (p->cols[i].skip || !cell_number(cells[i], &v))
			continue;
		struct ub_result *r = &p->doc->results[p->cols[i].result];
		struct ub_block *b = &r->blocks[p->cols[i].block];
		if (kind && (b = score_block(p, &p->cols[i], kind))) {
			b->score = v;
			b->has_score = true;
			continue;
		}
		if (kind)
			continue;
		if (score) {
			b->score = v;
			b->has_score = true;
			continue;
		}
		struct ub_test *t = test_find(b, known) ?: test_add(p, b, known);
		if (!t)
			continue;
		t->index = v, t->has_index = true;
		b->result_votes += vote_result(t->info, v);
	}
}

/* A rule of '-' or '=' under a table's titles. */
static bool rule_line(const char *s)
{
	return (s[0] == '-' || s[0] == '=') && strspn(s, "-= ") == strlen(s);
}

/* A unit column ("lps  1430147.1  1452805.5"): it belongs to the test. */
static bool unit_cell(const char *c)
{
	return !cell_change(c) && isalpha((unsigned char)c[0]) && !startswith(c, "fail");
}

bool columns_tests_title(struct parser *p, char **titles, size_t n)
{
	const char *rest;
	if (n < 2)
		return false;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *name = NULL;
		if (!row_test(titles[i], &rest, &name) || *skip_spaces(rest))
			return false;
	}
	columns_reset(p);
	for (size_t i = 0; i < n && p->ncols < UB_COLUMNS_MAX; i++) {
		_cleanup_free_ char *name = NULL;
		row_test(titles[i], &rest, &name);
		columns_title(p, name);
	}
	return true;
}

void columns_run_row(struct parser *p, char **cells, size_t n)
{
	double v;
	/* "Linux/Asterinas": a row of ratios, of no run */
	if (n < 2 || title_change(cells[0]) || !cell_number(cells[1], &v) || !result_new(p))
		return;
	struct ub_block *b = block_new(p, PH_INDEX);
	if (!b)
		return;
	block_title(b, cells[0]);
	mark_format(p, UB_FMT_TABLE);
	for (size_t i = 1; i < n && i - 1 < p->ncols; i++) {
		if (!cell_number(cells[i], &v))
			continue;
		struct ub_test *t = test_add(p, b, p->cols[i - 1].title);
		if (!t)
			return;
		t->index = v, t->has_index = true;
		b->result_votes += vote_result(t->info, v);
	}
}

/* The cells of a plain-text row: split where two spaces or more are
 * (tabs arrive as two spaces), in place; at most max. */
static size_t plain_cells(char *s, char **cells, size_t max)
{
	size_t n = 0;
	char *c = s;
	while (*c && n < max) {
		c += strspn(c, " ");
		if (!*c)
			break;
		char *gap = strstr(c, "  ");
		cells[n++] = c;
		if (!gap)
			break;
		*gap = '\0';
		c = gap + 2;
	}
	for (size_t i = 0; i < n; i++)
		strstrip(cells[i]);
	return n;
}

/* A test row of a plain-text table of runs: the name, then one cell per
 * run column. */
static bool plain_row(struct parser *p, const char *s)
{
	const char *rest;
	_cleanup_free_ char *name = NULL;
	bool score = after_category(s) && strstr(s, "Index Score");
	if (score) {
		const char *v = strstr(s, "Index Score") + strlen("Index Score");
		name = xstrndup(s, (size_t)(v - s));
		rest = v;
	} else if (!row_test(s, &rest, &name)) {
		return false;
	}
	_cleanup_free_ char *copy = xstrdup(rest);
	char *cells[UB_COLUMNS_MAX + 1];
	size_t n = plain_cells(copy, cells, ARRAY_SIZE(cells));
	size_t first = n && unit_cell(cells[0]) ? 1 : 0;
	if (n - first != p->ncols && !(n - first + 1 == p->ncols && !p->cols_open))
		return false;
	columns_row(p, name, cells + first, n - first);
	return true;
}

/*
 * A plain-text table of runs: a line of titles ("Test  before  after",
 * "baseline   patched", "5.10\t6.1\t6.6"), split by runs of spaces or tabs,
 * right above a test row with as many values as there are run titles.
 * Then its rows, until a line that is none.
 */
bool columns_line(struct parser *p, const char *s)
{
	if (p->cols_plain) {
		if (plain_row(p, s))
			return true;
		/* the rule under the titles */
		if (!p->cols_open && rule_line(s))
			return true;
		columns_reset(p);
		return false;
	}
	if (p->i + 1 >= p->lines->n || strchr(s, '|') || strlen(s) > 200)
		return false;
	const char *rest;
	_cleanup_free_ char *name = NULL;
	if (known_name(s, &rest, &name) || after_category(s))
		return false;
	_cleanup_free_ char *copy = xstrdup(s);
	char *titles[UB_COLUMNS_MAX + 1];
	size_t n = plain_cells(copy, titles, ARRAY_SIZE(titles));
	if (n < 2 || n > UB_COLUMNS_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strlen(titles[i]) > LABEL_MAX)
			return false;
	/* the row below (past a rule of '-' or '='): its values, as many as the runs */
	size_t k = p->i + 1;
	const char *next = p->lines->v[k].s;
	if (rule_line(next) && k + 1 < p->lines->n)
		next = p->lines->v[++k].s;
	_cleanup_free_ char *nname = NULL;
	if (!row_test(next, &rest, &nname))
		return false;
	_cleanup_free_ char *ncopy = xstrdup(rest);
	char *all[UB_COLUMNS_MAX + 1], **cells = all;
	size_t m = plain_cells(ncopy, all, ARRAY_SIZE(all));
	if (m && unit_cell(cells[0]))
		cells++, m--;
	size_t values = 0;
	for (size_t i = 0; i < m; i++) {
		double v;
		values += cell_number(cells[i], &v) || cell_change(cells[i]) || startswith(cells[i], "fail");
	}
	if (m < 2 || values != m || m > n)
		return false;
	/* Run's own index header ("TEST  BASELINE  RESULT  INDEX") is no runs */
	size_t words = 0;
	for (size_t i = n - m; i < n; i++)
		words += streq(titles[i], "BASELINE") || strcasecmp(titles[i], "RESULT") == 0 ||
			 strcasecmp(titles[i], "INDEX") == 0;
	if (words)
		return false;
	columns_reset(p);
	for (size_t i = n - m; i < n; i++)
		columns_title(p, titles[i]);
	p->cols_plain = true;
	return true;
}

/* The run a label glued before the test names ("base  Dhrystone 2 ...",
 * "[6.6] Pipe Throughput ..."): its block, made at its first row. */
static struct ub_block *glued_block(struct parser *p, const char *label)
{
	for (size_t i = 0; i < p->nglued; i++)
		if (streq(p->glued[i].title, label))
			return &p->doc->results[p->glued[i].result].blocks[p->glued[i].block];
	if (p->nglued == UB_COLUMNS_MAX || !result_new(p))
		return NULL;
	struct ub_block *b = block_new(p, PH_INDEX);
	if (!b)
		return NULL;
	block_title(b, label);
	unsigned c = title_copies(label);
	if (c)
		b->copies = c, b->copies_from_text = true;
	p->glued[p->nglued++] = (struct run_column){ .title = xstrdup(label), .result = p->doc->nresults - 1,
						   .block = p->doc->results[p->doc->nresults - 1].nblocks - 1 };
	return b;
}

void glued_free(struct parser *p)
{
	for (size_t i = 0; i < p->nglued; i++)
		free(p->glued[i].title);
	p->nglued = 0;
}

/* "base    Dhrystone 2 using register variables   45448570.8 lps ...": a
 * short label, then a test row; the row goes to the run of that label. */
bool glued_line(struct parser *p, const char *s)
{
	if (!isalnum((unsigned char)*s) && *s != '[' && *s != '(')
		return false;
	for (const char *c = s + 1; *c && c - s <= LABEL_MAX + 2; c++) {
		if (c[-1] != ' ' && c[-1] != ':' && c[-1] != ']' && c[-1] != ')')
			continue;
		const char *rest;
		_cleanup_free_ char *name = NULL;
		if (!isupper((unsigned char)*c) || !known_name(c, &rest, &name))
			continue;
		struct row r;
		if (!parse_row(rest, &r))
			return false;
		_cleanup_free_ char *label = field(s, (size_t)(c - s));
		size_t n = strlen(label);
		while (n && strchr(":-", label[n - 1]))
			label[--n] = '\0';
		strstrip(label);
		if (*label == '[' || *label == '(') {
			memmove(label, label + 1, strlen(label));
			n = strlen(label);
			if (n && strchr("])", label[n - 1]))
				label[n - 1] = '\0';
		}
		if (!*label)
			return false;
		struct ub_block *b = glued_block(p, label);
		if (b)
			apply_row_to(p, b, name, &r);
		return true;
	}
	return false;
}
