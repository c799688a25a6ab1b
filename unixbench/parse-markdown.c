/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Markdown tables: the .html's table rewritten, Run's index table as
 * cells, and tables with one column per run. */
#include "unixbench/parse.h"

#include <ctype.h>
#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

#define PIPE_CELLS_MAX 12

/* "**63,899.8**": a cell in bold, without the marks (in place). */
static char *unbold(char *c)
{
	size_t n = strlen(c);
	if (n > 4 && (startswith(c, "**") || startswith(c, "__")) && c[n - 1] == c[0] && c[n - 2] == c[0]) {
		c[n - 2] = '\0';
		return strstrip(c + 2);
	}
	return c;
}

/* The cells of "| a | b |" or "a | b" (at most max), trimmed, bold marks
 * dropped, in place. */
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
		cells[n++] = unbold(strstrip(c));
		c = bar ? bar + 1 : NULL;
	}
	while (n > 0 && !*cells[n - 1])
		n--;
	return n;
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
	columns_reset(p);
	p->pipe = PIPE_NONE;
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

/* "| Dhrystone 2 using register variables | 4 | 116700.00 | 5838492.50 | 500.30 |"
 * under "| 指标名称 | Parallel | Baseline | Result | Index |": a test at one
 * copy count, in the run of that count (every table of a report adds to
 * the same runs); a baseline of "---" leaves a result without index. */
static void pipe_parallel_row(struct parser *p, char **cells, int n)
{
	_cleanup_free_ char *name = cell_name(cells[0]), *known = NULL;
	const char *rest;
	unsigned copies;
	if (n < 4 || !known_name(name, &rest, &known) || *skip_spaces(rest) ||
	    !parse_uint(cells[1], UB_COPIES_MAX, &copies) || !copies)
		return;
	size_t k = 0;
	while (k < p->nparallel && p->parallel[k].copies != copies)
		k++;
	if (k == p->nparallel) {
		if (k == ARRAY_SIZE(p->parallel) || !result_new(p))
			return;
		struct ub_block *b = block_new(p, PH_INDEX);
		if (!b)
			return;
		/* the heading above is the first test's, not the run's */
		free(b->label);
		b->label = NULL;
		b->copies = copies, b->copies_from_text = true;
		mark_format(p, UB_FMT_TABLE);
		p->parallel[p->nparallel++] = (typeof(p->parallel[0])){ copies, p->doc->nresults - 1 };
	}
	struct ub_block *b = &p->doc->results[p->parallel[k].result].blocks[0];
	struct ub_test *t = test_find(b, known) ?: test_add(p, b, known);
	if (!t)
		return;
	t->has_baseline = cell_number(cells[2], &t->baseline);
	t->has_result = cell_number(cells[3], &t->result);
	t->has_index = t->has_baseline && n > 4 && cell_number(cells[4], &t->index);
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
	if (n == 5 && (strcasecmp(cells[1], "Parallel") == 0 || strcasecmp(cells[1], "Copies") == 0) &&
	    strcasecmp(cells[2], "Baseline") == 0 && strcasecmp(cells[3], "Result") == 0 &&
	    strcasecmp(cells[4], "Index") == 0) {
		pipe_reset(p);
		p->pipe = PIPE_PARALLEL;
		return true;
	}
	/* titles, not values: a first row that names no test ("| Test | 5.10 | 6.1 |") */
	const char *rest;
	_cleanup_free_ char *name = cell_name(cells[0]), *known = NULL;
	double v;
	bool numbers = false;
	for (int i = 1; i < n; i++) {
		if (!*cells[i])
			return false;
		numbers |= cell_number(cells[i], &v);
	}
	if (numbers && (known_name(name, &rest, &known) || after_category(name)))
		return false;
	/* "| | pipe | spawn | context1 |": the tests are the columns, the runs the rows */
	if (columns_tests_title(p, cells + 1, (size_t)n - 1)) {
		p->pipe = PIPE_TESTS;
		return true;
	}
	pipe_reset(p);
	p->pipe = PIPE_RUNS;
	/* all cells: whether the first titles the test column shows in the rows */
	for (int i = 0; i < n; i++)
		columns_title(p, cells[i]);
	return true;
}

/* A row of a table of runs: the test, then a value per run. */
static void pipe_run_row(struct parser *p, char **cells, int n)
{
	_cleanup_free_ char *name = cell_name(cells[0]);
	columns_row(p, name, cells + 1, (size_t)n - 1);
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

/* "| --- | :---: |": the rule under a table's titles. */
static bool pipe_rule(const char *s)
{
	return strchr(s, '|') && strchr(s, '-') && strspn(s, "|-: ") == strlen(s);
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
	/* a row above a rule is the titles of a new table, though no blank
	 * line ended the last one (two tables of the same titles in a row) */
	if (p->pipe != PIPE_NONE && p->i + 1 < p->lines->n && pipe_rule(p->lines->v[p->i + 1].s))
		pipe_reset(p);
	/* "| 核心数 | 1 |", "| vCPU | 4 |": a machine's table of facts */
	if (n == 2)
		machine_count(p, cells[0], cells[1]);
	if (p->pipe == PIPE_NONE)
		return pipe_header(p, cells, n);
	if (p->pipe == PIPE_HTML) {
		pipe_html_row(p, cells, n);
	} else if (p->pipe == PIPE_TEXT) {
		_cleanup_free_ char *line = pipe_join(cells, n);
		if (!score_line(p, line))
			test_line(p, line, true);
	} else if (p->pipe == PIPE_PARALLEL) {
		pipe_parallel_row(p, cells, n);
	} else if (p->pipe == PIPE_TESTS) {
		columns_run_row(p, (char **)cells, (size_t)n);
	} else
		pipe_run_row(p, cells, n);
	return true;
}
