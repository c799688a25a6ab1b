/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Markdown tables: the .html's table rewritten, Run's index table as
 * cells, and tables with one column per run. */
#include "unixbench/parse.h"

#include <ctype.h>
#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

#define PIPE_CELLS_MAX 12

/* The cells of "| a | b |" or "a | b" (at most max), trimmed, in place. */
static int pipe_cells(char *s, char **cells, int max)
{
	if (!strchr(s, '|'))
		return 0;
	if (*s == '|')
		s++;
	int n = 0;
	for (char *c = s; c && n < max;) {
		char *bar = strchr(c, '|');
		if (bar)
			*bar = '\0';
		cells[n++] = strstrip(c);
		c = bar ? bar + 1 : NULL;
	}
	while (n > 0 && !*cells[n - 1])
		n--;
	return n;
}

/* "4,151" or "1825.8" (a trailing '%' makes it no value). */
static bool cell_number(const char *c, double *v)
{
	char b[48];
	size_t n = 0;
	for (const char *q = c; *q && n + 1 < sizeof(b); q++)
		if (*q != ',' || !isdigit((unsigned char)q[1]))
			b[n++] = *q;
	b[n] = '\0';
	return parse_number(b, n, v);
}

/* A test name with its runs of spaces made one ("File Copy   1024 ..."). */
static char *cell_name(const char *c)
{
	char *name = xstrdup(c);
	size_t k = 0;
	for (size_t i = 0; name[i]; i++)
		if (name[i] != ' ' || (k && name[k - 1] != ' '))
			name[k++] = name[i];
	name[k] = '\0';
	return name;
}

void pipe_reset(struct parser *p)
{
	for (size_t i = 0; i < p->npipe; i++)
		free(p->pipe_titles[i]);
	p->npipe = 0;
	p->pipe = PIPE_NONE;
	p->pipe_open = false;
}

/* The non-empty cells joined by spaces: a row as Run prints it. */
static char *pipe_join(char **cells, int n)
{
	struct buf b = {0};
	for (int i = 0; i < n; i++)
		if (*cells[i])
			buf_printf(&b, "%s%s", b.len ? " " : "", cells[i]);
	return buf_steal(&b);
}

/* Whether the first row under a table's three titles holds a test's
 * baseline, a result and the index they give (10 x result / baseline):
 * Run's index table titled in another language ("| 测试项 | 标准 | 结果 | 指数 |",
 * in VPS reviews), not three runs side by side. */
static bool pipe_index_below(struct parser *p)
{
	for (size_t k = p->i + 1; k < p->lines->n && k <= p->i + 2; k++) {
		const char *s = p->lines->v[k].s, *rest;
		if (strspn(s, "|-: ") == strlen(s))
			continue;
		_cleanup_free_ char *copy = xstrdup(s);
		char *cells[PIPE_CELLS_MAX];
		if (pipe_cells(copy, cells, PIPE_CELLS_MAX) != 4)
			return false;
		_cleanup_free_ char *name = cell_name(cells[0]), *known = NULL;
		const struct ub_test_info *t = known_name(name, &rest, &known);
		double v[3];
		if (!t || *skip_spaces(rest) || t->baseline <= 0)
			return false;
		for (int i = 0; i < 3; i++)
			if (!cell_number(cells[i + 1], &v[i]))
				return false;
		return fabs(v[0] - t->baseline) < 0.05 && fabs(v[2] - 10 * v[1] / v[0]) <= 0.05 + 1e-3 * v[2];
	}
	return false;
}

/* "| System Benchmarks Index Values | BASELINE | RESULT | INDEX |": Run's
 * index table of one run, its columns as cells; titled "Baseline" too, or
 * in other words when its first row says so. */
static bool pipe_index_header(struct parser *p, char **cells, int n)
{
	static const char *const cols[] = { "BASELINE", "RESULT", "INDEX" };
	bool titled = true;
	for (int i = 1; i < n; i++) {
		bool col = false;
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
			col |= strcasecmp(cells[i], cols[k]) == 0;
		titled &= col;
	}
	if (!titled && !(n == 4 && pipe_index_below(p)))
		return false;
	for (int i = 1; titled && i < n; i++)
		for (char *c = cells[i]; *c; c++)
			*c = (char)toupper((unsigned char)*c);
	_cleanup_free_ char *line = titled ? pipe_join(cells, n) : xasprintf("%s BASELINE RESULT INDEX", cells[0]);
	pipe_reset(p);
	if (!index_header(p, line))
		return false;
	p->pipe = PIPE_TEXT;
	return true;
}

/* "|Test|Score|Unit|Time|Iters.|Baseline|Index|" or "| Test | after | before |". */
static bool pipe_header(struct parser *p, char **cells, int n)
{
	if (n >= 7 && streq(cells[1], "Score") && streq(cells[5], "Baseline") && streq(cells[6], "Index")) {
		pipe_reset(p);
		p->pipe = PIPE_HTML;
		return true;
	}
	if (pipe_index_header(p, cells, n))
		return true;
	double v;
	for (int i = 1; i < n; i++)
		if (!*cells[i] || cell_number(cells[i], &v))
			return false;
	pipe_reset(p);
	p->pipe = PIPE_RUNS;
	/* all cells: whether the first titles the test column shows in the rows */
	for (int i = 0; i < n && p->npipe < UB_PIPE_RUNS_MAX; i++)
		p->pipe_titles[p->npipe++] = xstrdup(cells[i]);
	return true;
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

/* Whether every run column is titled by its copies, each by other copies
 * ("| 1P | 160P |"): one run at several copy counts, not several runs. */
static bool pipe_one_set(struct parser *p)
{
	size_t n = 0;
	unsigned seen[UB_PIPE_RUNS_MAX];
	for (size_t i = 0; i < p->npipe; i++) {
		if (p->pipe_skip[i])
			continue;
		unsigned c = title_copies(p->pipe_titles[i]);
		for (size_t k = 0; k < n; k++)
			if (seen[k] == c)
				return false;
		if (!c)
			return false;
		seen[n++] = c;
	}
	return n > 1;
}

/* The runs of a table with one column per run: a result each, titled by
 * the column; copies from the title ("160P", "8 copies") or the text.
 * Columns that differ only in their copies are the blocks of one result. */
static bool pipe_open_runs(struct parser *p, int cells)
{
	/* "  | 1P | 160P" above "File Copy ... | 4,151 | 2,477": no title over the tests */
	if ((size_t)cells != p->npipe + 1) {
		free(p->pipe_titles[0]);
		memmove(p->pipe_titles, p->pipe_titles + 1, --p->npipe * sizeof(*p->pipe_titles));
	}
	for (size_t i = 0; i < p->npipe; i++)
		p->pipe_skip[i] = strchr(p->pipe_titles[i], '/') != NULL;
	bool one = pipe_one_set(p);
	if (one && !result_new(p))
		return false;
	for (size_t i = 0; i < p->npipe; i++) {
		if (p->pipe_skip[i])
			continue;
		if (!one && !result_new(p))
			return false;
		p->pipe_results[i] = p->doc->nresults - 1;
		struct ub_block *b = block_new(p, PH_INDEX);
		if (!b)
			return false;
		p->pipe_blocks[i] = p->doc->results[p->pipe_results[i]].nblocks - 1;
		free(b->label);
		b->label = xstrdup(p->pipe_titles[i]);
		unsigned c = title_copies(p->pipe_titles[i]);
		if (c)
			b->copies = c, b->copies_from_text = true;
		b->columns[0] = COL_INDEX;
		b->ncolumns = 1;
		mark_format(p, UB_FMT_TABLE);
	}
	p->pipe_open = true;
	return true;
}

static void pipe_run_row(struct parser *p, char **cells, int n)
{
	_cleanup_free_ char *name = cell_name(cells[0]);
	const char *rest;
	_cleanup_free_ char *known = NULL;
	bool score = after_category(name) && strstr(name, "Index Score");
	if (!score && !(known_name(name, &rest, &known) && !*skip_spaces(rest)))
		return;
	if (!p->pipe_open && !pipe_open_runs(p, n))
		return;
	for (size_t i = 0; i < p->npipe && (int)i + 1 < n; i++) {
		double v;
		if (p->pipe_skip[i] || !cell_number(cells[i + 1], &v))
			continue;
		struct ub_result *r = &p->doc->results[p->pipe_results[i]];
		struct ub_block *b = &r->blocks[p->pipe_blocks[i]];
		if (score) {
			b->score = v;
			b->has_score = true;
			continue;
		}
		struct ub_test *t = test_find(b, known) ?: test_add(p, b, known);
		if (t)
			t->index = v, t->has_index = true;
	}
}

/* The .html's row as Markdown: the line the .html gives as text. */
static void pipe_html_row(struct parser *p, char **cells, int n)
{
	_cleanup_free_ char *name = cell_name(cells[0]);
	if (after_category(name) && strstr(name, "Index Score")) {
		const char *last = n > 1 ? cells[n - 1] : "";
		_cleanup_free_ char *line = xasprintf("%s %s", name, last);
		score_line(p, line);
		return;
	}
	/* a row left empty ("|Pipe Throughput||lps|10.0 s|7|12440.0||") holds no result */
	double v;
	if (n < 7 || !cell_number(cells[1], &v))
		return;
	_cleanup_free_ char *line = xasprintf("%s %s %s (%s, %s) %s %s", name, cells[1], cells[2], cells[3],
					      cells[4], cells[5], cells[6]);
	test_line(p, line, true);
}

/* A line of a Markdown table; false when s is none. */
bool pipe_line(struct parser *p, const char *s)
{
	if (!strchr(s, '|')) {
		if (p->pipe != PIPE_NONE)
			pipe_reset(p);
		return false;
	}
	_cleanup_free_ char *copy = xstrdup(s);
	char *cells[PIPE_CELLS_MAX];
	int n = pipe_cells(copy, cells, PIPE_CELLS_MAX);
	if (n < 2)
		return false;
	if (strspn(s, "|-: ") == strlen(s))
		return true;
	if (p->pipe == PIPE_NONE)
		return pipe_header(p, cells, n);
	if (p->pipe == PIPE_HTML) {
		pipe_html_row(p, cells, n);
	} else if (p->pipe == PIPE_TEXT) {
		_cleanup_free_ char *line = pipe_join(cells, n);
		if (!score_line(p, line))
			test_line(p, line, true);
	} else
		pipe_run_row(p, cells, n);
	return true;
}
