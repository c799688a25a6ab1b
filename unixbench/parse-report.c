/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Run's tables, as the text report, Run's output and the .html print
 * them: "Benchmark Run:", the CPUs line, the results table, the index
 * table and its score line, pasted or wrapped. */
#include "unixbench/parse.h"

#include <ctype.h>
#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

static const char *const categories[] = { "System Benchmarks", "Non-Index Benchmarks", "2D Graphics Benchmarks",
					  "3D Graphics Benchmarks" };

/* 1: a 2D graphics, 2: a 3D graphics table or score; 0: the system index. */
static int graphics_category(const char *s)
{
	return startswith(s, "2D Graphics Benchmarks") ? 1 : startswith(s, "3D Graphics Benchmarks") ? 2 : 0;
}

const char *after_category(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(categories); i++) {
		const char *v = startswith(s, categories[i]);
		if (v)
			return v;
	}
	return NULL;
}

/* The block index rows go to: the open one, unless its index table is
 * over or already has this test. */
static struct ub_block *block_for_index(struct parser *p, const char *name)
{
	struct ub_block *b = block_last(p);
	if (!b || b->phase == PH_DONE || b->phase == PH_LOG || b->phase == PH_CSV)
		return block_new(p, PH_INDEX);
	struct ub_test *t = name ? test_find(b, name) : NULL;
	if (t && t->has_index)
		return block_new(p, PH_INDEX);
	return b;
}

static struct ub_block *block_for_raw(struct parser *p, const char *name)
{
	struct ub_block *b = block_last(p);
	if (!b || b->phase > PH_RAW)
		return block_new(p, PH_RAW);
	struct ub_test *t = test_find(b, name);
	if (t && t->has_time)
		return block_new(p, PH_RAW);
	return b;
}

static bool index_rows(const struct ub_block *b)
{
	for (size_t i = 0; i < b->ntests; i++)
		if (b->tests[i].has_index || b->tests[i].has_baseline || b->tests[i].has_lone)
			return true;
	return false;
}

/* "System Benchmarks Index Values   BASELINE   RESULT   INDEX", or a
 * pasted header naming fewer columns ("Test  INDEX"). */
bool index_header(struct parser *p, const char *s)
{
	struct tok t[TOKENS_MAX];
	int n = tokenize(s, t, TOKENS_MAX);
	if (n <= 0)
		return false;
	unsigned cols[3], ncols = 0;
	int k = n;
	while (k > 0 && ncols < 3) {
		const struct tok *w = &t[k - 1];
		enum column c;
		if (tok_is(w, "BASELINE"))
			c = COL_BASELINE;
		else if (tok_is(w, "RESULT"))
			c = COL_RESULT;
		else if (tok_is(w, "INDEX"))
			c = COL_INDEX;
		else
			break;
		memmove(cols + 1, cols, ncols * sizeof(*cols));
		cols[0] = c;
		ncols++;
		k--;
	}
	const char *rest = after_category(s);
	bool titled = rest && (startswith(rest, " Index Values") || startswith(rest, " Partial Index"));
	for (int i = 0; i < k; i++)
		if (t[i].kind == T_NUM)
			return false;
	if (!titled && ncols == 0)
		return false;
	if (!titled && k > 3)
		return false;
	struct ub_block *b = block_last(p);
	/* the rest of a wrapped header: "RESULT    INDEX" */
	if (k == 0 && b && b->phase == PH_INDEX && !index_rows(b) && b->ncolumns + ncols <= 3) {
		memcpy(b->columns + b->ncolumns, cols, ncols * sizeof(*cols));
		b->ncolumns += ncols;
		p->doc->manglings |= UB_MANGLE_WRAPPED;
		return true;
	}
	/* a graphics index table follows the system one of the same run */
	bool same_run = b && titled && graphics_category(s) && (b->phase == PH_INDEX || b->phase == PH_DONE);
	if (!same_run && (!b || b->phase >= PH_INDEX))
		b = block_new(p, PH_INDEX);
	if (!b)
		return true;
	b->phase = PH_INDEX;
	if (!graphics_category(s))
		b->partial = titled && startswith(rest, " Partial Index");
	if (ncols == 0) {
		cols[0] = COL_BASELINE, cols[1] = COL_RESULT, cols[2] = COL_INDEX;
		ncols = 3;
	}
	memcpy(b->columns, cols, sizeof(cols));
	b->ncolumns = ncols;
	return true;
}

/* "System Benchmarks Index Score (Partial Only)   737.5" */
bool score_line(struct parser *p, const char *s)
{
	const char *v = after_category(s);
	if (!v || !(v = startswith(v, " Index Score")))
		v = startswith(s, "FINAL SCORE"); /* 4.1.0 */
	if (!v)
		return false;
	bool partial = false;
	if (startswith(v, " (Partial Only)")) {
		partial = true;
		v += strlen(" (Partial Only)");
	}
	if (*v == ':')
		v++;
	v = skip_spaces(v);
	double score;
	struct ub_block *b = block_last(p);
	/* "Index Score 1362.9 -----" or "Index Score 326.4-----": the rule
	 * under it glued on, with or without a space */
	_cleanup_free_ char *cut = NULL;
	const char *rule = v + strspn(v, "0123456789.,");
	if (*rule != ' ' && !(rule > v && *rule && strspn(rule, "-=") == strlen(rule)))
		rule = strchr(v, ' ');
	if (rule && strlen(skip_spaces(rule)) >= 8 && strspn(skip_spaces(rule), "-=") == strlen(skip_spaces(rule))) {
		cut = xstrndup(v, (size_t)(rule - v));
		v = cut;
		p->doc->manglings |= UB_MANGLE_GLUED;
	}
	if (!*v && p->i + 1 < p->lines->n) {
		/* wrapped: the score on the next line */
		const char *next = p->lines->v[p->i + 1].s;
		if (parse_number(next, strlen(next), &score)) {
			p->i++;
			p->doc->manglings |= UB_MANGLE_WRAPPED;
			v = next;
		}
	}
	if (!parse_number(v, strlen(v), &score)) {
		problem(p, line_src(p), s, "the score line has no number");
		return true;
	}
	if (!b || b->phase == PH_DONE || b->phase == PH_LOG || b->phase == PH_CSV) {
		/* a score alone under a heading of its own ("## 6.1" then the
		 * score line): a run of which only the score is printed */
		if (!graphics_category(s) && heading_top(p) && (!b || !streq_ptr(b->label, heading_top(p))))
			score_only(p, heading_top(p), score, partial);
		else
			problem(p, line_src(p), s, "a score line without a table of tests before it");
		return true;
	}
	int g = graphics_category(s);
	if (g) {
		b->graphics_score[g - 1] = score;
		b->has_graphics_score[g - 1] = true;
	} else {
		b->score = score;
		b->has_score = true;
		b->partial = b->partial || partial;
	}
	b->phase = PH_DONE;
	return true;
}

/* Lines of the tables that carry no test: separators, headers, notes. */
bool table_furniture(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	if (n >= 8 && strspn(s, "=") == n)
		return true;
	if (n >= 10 && strspn(s, "-") == n)
		return true;
	if (startswith(s, "No index results available for "))
		return true;
	/* 4.1.0: "INDEX VALUES" above its table, "N interactive users." in the header */
	if (streq(s, "INDEX VALUES") || endswith(s, " interactive users."))
		return true;
	/* 4.1-wht: "End Benchmark Run: DATE" and the uptime then, after the header */
	if (startswith(s, "End Benchmark Run: ") || (strstr(s, " up ") && strstr(s, "load average")))
		return true;
	/* the .html's table header and category headings */
	if (streq(s, "Test Score Unit Time Iters. Baseline Index"))
		return true;
	const char *v = after_category(s);
	if (v && (!*v || startswith(v, " - ")))
		return true;
	(void)p;
	return false;
}

/* "Benchmark Run: Sun Nov 29 2026 22:36:13 - 22:42:58", or in the .html
 * "Benchmark Run: 2 CPUs; 1 parallel process". */
bool run_line(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Benchmark Run: ");
	if (!v)
		return false;
	struct ub_block *b = block_new(p, PH_OPEN);
	if (!b)
		return true;
	unsigned cpus, copies;
	const char *q = v;
	if (take_uint(&q, UB_CPUS_MAX, &cpus) && startswith(q, " CPU")) {
		q = strstr(q, "; ");
		b->cpus = cpus;
		b->cpus_said = true;
		if (cpus)
			p->machine_cpus = cpus;
		if (q && (q += 2) && take_uint(&q, UB_COPIES_MAX, &copies) && startswith(q, " parallel process") &&
		    copies > 0)
			b = block_set_copies(p, b, copies);
		struct ub_result *r = result_last(p);
		if (b && r->h.date) {
			/* block_new() may have set it already (4.x) */
			free(b->date);
			b->date = xstrdup(r->h.date);
		}
		mark_format(p, UB_FMT_HTML);
		return true;
	}
	free(b->date);
	b->date = parse_date(v);
	/* the clock follows the 4-word date */
	const char *c = v;
	for (int w = 0; w < 4 && c; w++) {
		c = strchr(c, ' ');
		if (c)
			c = skip_spaces(c);
	}
	if (c)
		parse_span(c, b);
	if (!b->date)
		problem(p, line_src(p), s, "the date of this run could not be read");
	return true;
}

/* ".html": "Time: 22:42:58 - 22:43:57; 0m 59s" */
bool html_time_line(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Time: ");
	struct ub_block *b = block_last(p);
	if (!v || !b || b->phase != PH_OPEN)
		return false;
	parse_span(v, b);
	return true;
}

/* "2 CPUs in system; running 1 parallel copy of tests" */
bool cpus_line(struct parser *p, const char *s)
{
	unsigned cpus, copies;
	const char *v = s;
	if (!take_uint(&v, UB_CPUS_MAX, &cpus) || !startswith(v, " CPU"))
		return false;
	v = strstr(v, " in system; running ");
	if (!v)
		return false;
	v += strlen(" in system; running ");
	if (!take_uint(&v, UB_COPIES_MAX, &copies) || !startswith(v, " parallel cop") || copies == 0) {
		problem(p, line_src(p), s, "the number of copies could not be read");
		return true;
	}
	struct ub_block *b = block_last(p);
	if (!b || b->phase != PH_OPEN || (b->copies && !b->copies_from_text))
		b = block_new(p, PH_OPEN);
	if (!b)
		return true;
	b->cpus = cpus;
	b->cpus_said = true;
	if (cpus)
		p->machine_cpus = cpus;
	block_set_copies(p, b, copies);
	mark_format(p, UB_FMT_REPORT);
	return true;
}

/* The table entry a test line starts with; *rest points after the name. */
const struct ub_test_info *known_name(const char *s, const char **rest, char **name)
{
	const struct ub_test_info *best = NULL;
	size_t best_n = 0;
	for (const struct ub_test_info *t = ub_tests; t->id; t++) {
		if (s[0] != t->name[0])
			continue;
		size_t n = strlen(t->name);
		if (n <= best_n || strncmp(s, t->name, n) != 0)
			continue;
		if (streq(t->id, "C")) {
			/* "C Compiler Throughput (gcc)" */
			const char *close = s[n] == ' ' && s[n + 1] == '(' ? strchr(s + n, ')') : NULL;
			if (!close)
				continue;
			n = (size_t)(close + 1 - s);
		}
		if (s[n] && s[n] != ' ' && s[n] != ':')
			continue;
		best = t;
		best_n = n;
	}
	if (best) {
		*rest = s + best_n;
		*name = xstrndup(s, best_n);
	}
	return best;
}

/* A line of a results table whose test this table does not know: the
 * name is what comes before the numbers. */
static bool unknown_name(const char *s, const char **rest, char **name)
{
	/* UnixBench 4.1's uptime after "End Benchmark Run:" ends in three numbers */
	if (strstr(s, " up ") && strstr(s, "load average"))
		return false;
	struct tok t[TOKENS_MAX];
	int n = tokenize(s, t, TOKENS_MAX);
	for (int k = 1; k < n; k++) {
		if (t[k].kind == T_WORD)
			continue;
		struct row r;
		if (!parse_row(t[k].s, &r) || !(r.raw ? r.has_samples : r.nnums == 3))
			continue;
		bool letters = false;
		for (const char *c = s; c < t[k].s; c++)
			letters = letters || isalpha((unsigned char)*c);
		if (!letters)
			return false;
		*name = field(s, (size_t)(t[k].s - s));
		*rest = t[k].s;
		return true;
	}
	return false;
}

static void apply_columns(struct parser *p, struct ub_block *b, struct ub_test *t, const struct row *r)
{
	if (r->dashes) {
		t->result = r->result;
		t->has_result = true;
		return;
	}
	if (b->ncolumns == 0 && r->nnums == 3) {
		b->columns[0] = COL_BASELINE, b->columns[1] = COL_RESULT, b->columns[2] = COL_INDEX;
		b->ncolumns = 3;
	}
	if ((unsigned)r->nnums != b->ncolumns) {
		if (r->nnums == 1) {
			t->lone = r->nums[0];
			t->has_lone = true;
			return;
		}
		problem(p, line_src(p), line_text(p), "%s: %d numbers where the table has %u columns", t->name,
			r->nnums, b->ncolumns);
		return;
	}
	for (int i = 0; i < r->nnums; i++)
		if (b->columns[i] == COL_BASELINE && r->nums[i] == 0) {
			problem(p, line_src(p), line_text(p), "%s: a baseline of 0 (the index is the result divided by it)",
				t->name);
			return;
		}
	for (int i = 0; i < r->nnums; i++) {
		double v = r->nums[i];
		switch ((enum column)b->columns[i]) {
		case COL_BASELINE:
			t->baseline = v, t->has_baseline = true;
			break;
		case COL_RESULT:
			if (t->has_result && fabs(t->result - v) > 0.051 + 1e-9 * v)
				problem(p, line_src(p), line_text(p), "the index table's result %.1f differs from the "
					"results line's %.1f", v, t->result);
			t->result = v, t->has_result = true;
			break;
		case COL_INDEX:
			t->index = v, t->has_index = true;
			break;
		}
	}
}

static void apply_raw(struct ub_test *t, const struct row *r)
{
	t->result = r->result;
	t->has_result = true;
	if (!t->unit && r->unit[0])
		t->unit = xstrdup(r->unit);
	if (r->has_time) {
		t->time_s = r->time;
		t->has_time = true;
	}
	if (r->has_samples) {
		t->samples = r->samples;
		t->has_samples = true;
	}
	if (r->indexed) {
		t->baseline = r->baseline;
		t->index = r->index;
		t->has_baseline = t->has_index = true;
	}
}

static bool apply_row(struct parser *p, const char *name, const struct row *r)
{
	struct ub_block *b = r->raw ? block_for_raw(p, name) : block_for_index(p, name);
	if (b)
		apply_row_to(p, b, name, r);
	return true;
}

/* A row's numbers into the test of block b. */
void apply_row_to(struct parser *p, struct ub_block *b, const char *name, const struct row *r)
{
	struct ub_test *t = test_find(b, name);
	if (!t)
		t = test_add(p, b, name);
	if (!t)
		return;
	if (r->raw) {
		apply_raw(t, r);
		if (b->phase == PH_OPEN)
			b->phase = PH_RAW;
	} else {
		b->phase = PH_INDEX;
		apply_columns(p, b, t, r);
	}
	struct ub_result *res = result_last(p);
	if (!res->has_header && !(res->formats & (UB_FMT_HTML | UB_FMT_REPORT)))
		mark_format(p, UB_FMT_TABLE);
}

/* A test name broken over two lines ("Dhrystone 2 using register" /
 * "variables  41920798.1 lps ..."): the joined line, or NULL. */
char *join_wrapped_name(struct parser *p, const char *s)
{
	size_t n = strlen(s);
	if (p->i + 1 >= p->lines->n || n < 6)
		return NULL;
	const char *next = p->lines->v[p->i + 1].s;
	for (const struct ub_test_info *t = ub_tests; t->id; t++) {
		const char *name = t->name;
		/* the line is the start of the name: most lines differ at once */
		if (name[0] != s[0] || strncmp(name, s, n) != 0)
			continue;
		const char *rest = name + n;
		if (*rest == ' ' && startswith(next, rest + 1))
			return xasprintf("%s %s", s, next);
	}
	return NULL;
}

/* A row that may have lost its end to the next line: a results line
 * without "(TIME s, N samples)", an index line short of columns. */
static bool row_incomplete(struct parser *p, const struct row *r)
{
	if (r->raw)
		return !r->has_time;
	struct ub_block *b = block_last(p);
	unsigned want = b && b->phase == PH_INDEX && b->ncolumns ? b->ncolumns : 3;
	return !r->dashes && (unsigned)r->nnums < want;
}

/* rest joined with the next extra lines. */
static bool parse_joined(struct parser *p, const char *rest, size_t extra, struct row *r)
{
	struct buf b = {0};
	buf_puts(&b, rest);
	for (size_t k = 1; k <= extra; k++)
		buf_printf(&b, " %s", p->lines->v[p->i + k].s);
	bool ok = parse_row(b.s, r);
	buf_free(&b);
	return ok;
}

/* Whether what follows a test's name is only changes: "+5.2%", "-0.3 %". */
static bool changes_only(const char *rest)
{
	struct tok t[TOKENS_MAX];
	int n = tokenize(rest, t, TOKENS_MAX);
	bool pct = false;
	for (int i = 0; i < n; i++) {
		const char *c = t[i].s;
		size_t len = t[i].n;
		pct |= memchr(c, '%', len) != NULL;
		if (strspn(c, "+-0123456789.%") < len)
			return false;
	}
	return pct;
}

bool test_line(struct parser *p, const char *s, bool in_table)
{
	const char *rest;
	_cleanup_free_ char *name = NULL;
	const struct ub_test_info *info = known_name(s, &rest, &name);
	if (!info && !(in_table && unknown_name(s, &rest, &name)))
		return false;
	struct row r;
	bool ok = parse_row(rest, &r);
	/* wrapped: the end of the row went to the next line or two */
	for (size_t extra = 1; extra <= 2 && p->i + extra < p->lines->n && (!ok || row_incomplete(p, &r)); extra++) {
		struct row joined;
		if (parse_joined(p, rest, extra, &joined) && !row_incomplete(p, &joined)) {
			r = joined;
			ok = true;
			p->i += extra;
			p->doc->manglings |= UB_MANGLE_WRAPPED;
			break;
		}
	}
	if (ok)
		return apply_row(p, name, &r);
	if (changes_only(rest))
		problem(p, line_src(p), s, "%s: only a change in percent, no absolute result is printed", name);
	else
		problem(p, line_src(p), s, "%s: the numbers after the name could not be read", name);
	return true;
}
