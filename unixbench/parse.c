/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The second stage of reading UnixBench output: clean lines to runs and
 * tests. Every line is tried against the lines UnixBench writes; what
 * looks like a test line but cannot be read becomes a problem. */
#include "unixbench/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>

#include "unixbench/text.h"
#include "lib/util.h"

#define PROBLEM_TEXT_MAX 120
#define TOKENS_MAX 24
#define UB_PIPE_RUNS_MAX 8
#define PIPE_CELLS_MAX 12
#define SAMPLES_MAX 1000000

enum phase {
	PH_OPEN,  /* a "Benchmark Run" without tables yet */
	PH_RAW,   /* the raw results table */
	PH_INDEX, /* the index table */
	PH_DONE,  /* after the score line */
	PH_LOG,   /* tests of a .log */
	PH_CSV,   /* a row of a .csv */
};

enum column { COL_BASELINE, COL_RESULT, COL_INDEX };

struct parser {
	struct ub_doc *doc;
	struct ub_lines *lines;
	size_t i;
	bool html;
	int expect_flags; /* CPU waiting for its flags line, -1: none */
	/* Run's stdout says these before the report they belong to */
	char *pending_version, *pending_tmpdir, *pending_resultdir;
	char *pending_start; /* 4.1.0's "Start Benchmark Run:" clock */
	unsigned pending_formats;
	char **csv_names;
	size_t ncsv;
	bool results_full;
	/* what the text around the tables says: the nearest heading, and
	 * the copies a command line or a heading names */
	char *heading;
	unsigned hints[8], nhints, hint_next;
	/* the one test a "./Run ... fstime" names, and whether a "COPIES ->
	 * INDEX" list of its index per copy count follows */
	const struct ub_test_info *command_test;
	bool arrow_list;
	/* a Markdown table: the .html's columns, Run's index table, or one column per run */
	enum { PIPE_NONE, PIPE_HTML, PIPE_TEXT, PIPE_RUNS } pipe;
	size_t pipe_results[UB_PIPE_RUNS_MAX], npipe; /* the result of each run column */
	size_t pipe_blocks[UB_PIPE_RUNS_MAX];          /* and its block in that result */
	bool pipe_skip[UB_PIPE_RUNS_MAX];            /* a ratio column ("160P/1P") */
	char *pipe_titles[UB_PIPE_RUNS_MAX];
	bool pipe_open; /* the runs of the columns exist */
};

/* ---- problems ---- */

static void problem(struct parser *p, unsigned line, const char *text, const char *fmt, ...) _printf_(4, 5);
static void problem(struct parser *p, unsigned line, const char *text, const char *fmt, ...)
{
	struct ub_doc *d = p->doc;
	if (d->nproblems >= UB_PROBLEMS_MAX) {
		d->problems_dropped++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	char *why = xvasprintf(fmt, ap);
	va_end(ap);
	d->problems = xrealloc(d->problems, (d->nproblems + 1) * sizeof(*d->problems));
	char *t = NULL;
	if (text) {
		t = xstrndup(text, PROBLEM_TEXT_MAX);
		if (strlen(text) > PROBLEM_TEXT_MAX)
			strcpy(t + PROBLEM_TEXT_MAX - 3, "...");
	}
	d->problems[d->nproblems++] = (struct ub_problem){ line, t, why };
}

static const char *line_text(struct parser *p)
{
	return p->lines->v[p->i].s;
}

static unsigned line_src(struct parser *p)
{
	return p->lines->v[p->i].src;
}

/* ---- small text helpers ---- */

static char *field(const char *s, size_t n)
{
	if (n > UB_FIELD_MAX)
		n = UB_FIELD_MAX;
	char *f = xstrndup(s, n);
	return strstrip(f);
}

static void set_field(char **dst, const char *s, size_t n)
{
	free(*dst);
	*dst = field(s, n);
}

/* Whether s[0] is a decimal comma: a report printed under a locale that
 * writes "116700,0" (one or two digits after it, as UnixBench prints);
 * "4,151" is a thousands separator. */
static bool decimal_comma(const char *s)
{
	if (s[0] != ',' || !isdigit((unsigned char)s[1]))
		return false;
	size_t d = isdigit((unsigned char)s[2]) ? 2 : 1;
	return !isdigit((unsigned char)s[d + 1]) && (s[d + 1] == '\0' || strchr(" ()", s[d + 1]));
}

/* A whole token that is a plain decimal number ("41920798.1", "1e+06",
 * "3363,7"). */
static bool parse_number(const char *s, size_t n, double *out)
{
	char b[48];
	if (n == 0 || n >= sizeof(b))
		return false;
	memcpy(b, s, n);
	b[n] = '\0';
	size_t k = 0;
	if (!isdigit((unsigned char)b[0]))
		return false;
	while (isdigit((unsigned char)b[k]))
		k++;
	if (decimal_comma(b + k))
		b[k] = '.';
	if (b[k] == '.') {
		k++;
		while (isdigit((unsigned char)b[k]))
			k++;
	}
	if (b[k] == 'e' || b[k] == 'E') {
		k++;
		if (b[k] == '+' || b[k] == '-')
			k++;
		if (!isdigit((unsigned char)b[k]))
			return false;
		while (isdigit((unsigned char)b[k]))
			k++;
	}
	if (b[k])
		return false;
	char *end;
	double v = strtod(b, &end);
	/* UnixBench prints nothing near 1e15 (256 copies of Dhrystone: 1e11 lps) */
	if (*end || !isfinite(v) || v < 0 || v > 1e15)
		return false;
	*out = v;
	return true;
}

static bool parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;
	if (parse_u64(s, &v) < 0 || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Reads an unsigned number at *s and advances past it. */
static bool take_uint(const char **s, unsigned max, unsigned *out)
{
	const char *p = *s;
	uint64_t v = 0;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > max)
			return false;
	}
	*out = (unsigned)v;
	*s = p;
	return true;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* ---- tokens of a test line ---- */

enum tok_kind { T_NUM, T_WORD, T_DASH };

struct tok {
	enum tok_kind kind;
	double v;
	const char *s;
	size_t n;
};

/* Splits s on white space, commas, parentheses and colons. -1 when there
 * are more than max tokens. */
static int tokenize(const char *s, struct tok *t, int max)
{
	int n = 0;
	while (*s) {
		while (*s == ' ' || *s == ',' || *s == '(' || *s == ')' || *s == ':')
			s++;
		if (!*s)
			break;
		const char *start = s;
		while (*s && *s != ' ' && (*s != ',' || (s > start && isdigit((unsigned char)s[-1]) && decimal_comma(s))) &&
		       *s != '(' && *s != ')' && *s != ':')
			s++;
		if (n == max)
			return -1;
		size_t len = (size_t)(s - start);
		struct tok *k = &t[n++];
		*k = (struct tok){ T_WORD, 0, start, len };
		if (parse_number(start, len, &k->v))
			k->kind = T_NUM;
		else if (len >= 2 && strspn(start, "-") >= len)
			k->kind = T_DASH;
	}
	return n;
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->kind == T_WORD && t->n == strlen(word) && strncmp(t->s, word, t->n) == 0;
}

/* A unit as UnixBench prints it: lps, lpm, KBps, MWIPS, score, fps. */
static bool tok_unit(const struct tok *t)
{
	if (t->kind != T_WORD || t->n == 0 || t->n > 8 || tok_is(t, "s") || tok_is(t, "secs") || tok_is(t, "samples"))
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (!isalpha((unsigned char)t->s[i]))
			return false;
	return true;
}

/* What the numbers after a test name say. */
struct row {
	bool raw;     /* from a results line (or an HTML row) */
	bool indexed; /* has index-table values */
	double result, time, baseline, index;
	unsigned samples;
	bool has_result, has_time, has_samples, has_baseline, has_index;
	char unit[12];
	double nums[3];
	int nnums; /* bare numbers, to place by the table's columns */
	bool dashes; /* "--- RESULT ---" */
};

static bool set_samples(struct row *r, const struct tok *t)
{
	if (t->kind != T_NUM || t->v != floor(t->v) || t->v > SAMPLES_MAX)
		return false;
	r->samples = (unsigned)t->v;
	r->has_samples = true;
	return true;
}

/* Results line: RESULT UNIT (TIME s, N samples); the HTML row adds
 * BASELINE INDEX; a pasted one may stop after the unit. */
static bool row_raw(const struct tok *t, int n, struct row *r)
{
	if (n < 2 || t[0].kind != T_NUM || !tok_unit(&t[1]))
		return false;
	r->raw = r->has_result = true;
	r->result = t[0].v;
	snprintf(r->unit, sizeof(r->unit), "%.*s", (int)t[1].n, t[1].s);
	if (n == 2)
		return true;
	if (n < 5 || t[2].kind != T_NUM || !(tok_is(&t[3], "s") || tok_is(&t[3], "secs")) || !set_samples(r, &t[4]))
		return false;
	r->time = t[2].v;
	r->has_time = true;
	if (n == 5 || (n == 6 && tok_is(&t[5], "samples")))
		return true;
	if (n == 7 && t[5].kind == T_NUM && t[5].v > 0 && t[6].kind == T_NUM) {
		r->baseline = t[5].v;
		r->index = t[6].v;
		r->has_baseline = r->has_index = r->indexed = true;
		return true;
	}
	return false;
}

/* Index line: BASELINE RESULT INDEX (or "--- RESULT ---"), or fewer bare
 * numbers placed later by the table's columns. */
static bool row_numbers(const struct tok *t, int n, struct row *r)
{
	if (n == 3 && t[0].kind == T_DASH && t[1].kind == T_NUM && t[2].kind == T_DASH) {
		r->dashes = r->has_result = r->indexed = true;
		r->result = t[1].v;
		return true;
	}
	if (n < 1 || n > 3)
		return false;
	for (int i = 0; i < n; i++) {
		if (t[i].kind != T_NUM)
			return false;
		r->nums[i] = t[i].v;
	}
	r->nnums = n;
	r->indexed = true;
	return true;
}

static bool parse_row(const char *rest, struct row *r)
{
	struct tok t[TOKENS_MAX];
	*r = (struct row){0};
	int n = tokenize(rest, t, TOKENS_MAX);
	if (n <= 0)
		return false;
	if (row_raw(t, n, r))
		return true;
	*r = (struct row){0};
	return row_numbers(t, n, r);
}

/* ---- results, blocks, tests ---- */

static struct ub_result *result_last(struct parser *p)
{
	return p->doc->nresults ? &p->doc->results[p->doc->nresults - 1] : NULL;
}

static void take_pending(char **dst, char **pending)
{
	if (*pending && !*dst)
		*dst = TAKE_PTR(*pending);
}

static struct ub_result *result_new(struct parser *p)
{
	struct ub_doc *d = p->doc;
	if (d->nresults >= UB_RESULTS_MAX) {
		if (!p->results_full)
			problem(p, line_src(p), NULL, "more than %d runs in one file: the rest is not read", UB_RESULTS_MAX);
		p->results_full = true;
		return NULL;
	}
	d->results = xrealloc(d->results, (d->nresults + 1) * sizeof(*d->results));
	struct ub_result *r = &d->results[d->nresults++];
	*r = (struct ub_result){ .line = line_src(p), .formats = p->pending_formats };
	p->pending_formats = 0;
	take_pending(&r->h.version, &p->pending_version);
	take_pending(&r->h.tmpdir, &p->pending_tmpdir);
	take_pending(&r->h.resultdir, &p->pending_resultdir);
	return r;
}

/* The result a "System:" line belongs to: the current one while its
 * header is still being read, else a new one (a paste that starts there). */
static struct ub_result *result_for_header(struct parser *p)
{
	struct ub_result *r = result_last(p);
	if (!r || r->nblocks > 0 || !r->has_header || r->h.hostname)
		r = result_new(p);
	if (r)
		r->has_header = true;
	return r;
}

static struct ub_result *result_current(struct parser *p)
{
	struct ub_result *r = result_last(p);
	return r ? r : result_new(p);
}

static struct ub_block *block_last(struct parser *p)
{
	struct ub_result *r = result_last(p);
	return r && r->nblocks ? &r->blocks[r->nblocks - 1] : NULL;
}

static struct ub_block *block_new(struct parser *p, enum phase phase)
{
	struct ub_result *r = result_current(p);
	if (!r)
		return NULL;
	if (r->nblocks >= UB_BLOCKS_MAX) {
		r = result_new(p);
		if (!r)
			return NULL;
	}
	r->blocks = xrealloc(r->blocks, (r->nblocks + 1) * sizeof(*r->blocks));
	struct ub_block *b = &r->blocks[r->nblocks++];
	*b = (struct ub_block){ .line = line_src(p), .phase = phase };
	if (p->heading)
		b->label = xstrdup(p->heading);
	if (r->h.date && r->h.version && startswith(r->h.version, "4.")) {
		b->date = xstrdup(r->h.date);
		b->start = TAKE_PTR(p->pending_start);
	}
	if (p->nhints) {
		b->copies = p->hints[p->hint_next < p->nhints ? p->hint_next : p->nhints - 1];
		b->copies_from_text = true;
		p->hint_next++;
	}
	return b;
}

static void test_free(struct ub_test *t)
{
	free(t->name);
	free(t->unit);
	free(t->command);
	for (size_t i = 0; i < t->npasses; i++)
		free(t->passes[i].copies);
	free(t->passes);
}

static void header_free(struct ub_header *h)
{
	char **fields[] = { &h->version, &h->hostname, &h->system, &h->os, &h->os_release, &h->os_version,
			    &h->machine, &h->platform, &h->language, &h->graphics, &h->uptime, &h->runlevel,
			    &h->tmpdir, &h->resultdir, &h->date };
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		free(*fields[i]);
	for (size_t i = 0; i < h->ncpus; i++) {
		free(h->cpus[i].model);
		free(h->cpus[i].flags);
	}
	free(h->cpus);
}

static void block_free(struct ub_block *b)
{
	for (size_t i = 0; i < b->ntests; i++)
		test_free(&b->tests[i]);
	free(b->tests);
	free(b->label);
	free(b->date);
	free(b->start);
	free(b->end);
}

static void ub_result_free(struct ub_result *r)
{
	header_free(&r->h);
	for (size_t i = 0; i < r->nblocks; i++)
		block_free(&r->blocks[i]);
	free(r->blocks);
}

/*
 * Sets a block's copy count. Two blocks of one run with the same count
 * mean two runs pasted together: without a header to tell them apart,
 * the block moves to a result of its own.
 */
static struct ub_block *block_set_copies(struct parser *p, struct ub_block *b, unsigned copies)
{
	b->copies = copies;
	b->copies_from_text = false;
	struct ub_result *r = result_last(p);
	if (r->has_header)
		return b;
	for (size_t i = 0; i + 1 < r->nblocks; i++) {
		if (r->blocks[i].copies != copies)
			continue;
		struct ub_block moved = *b;
		unsigned formats = r->formats;
		r->nblocks--;
		/* r and b are gone once the results grow */
		struct ub_result *n = result_new(p);
		if (!n) {
			block_free(&moved);
			return NULL;
		}
		n->formats = formats;
		n->blocks = xmalloc(sizeof(*n->blocks));
		n->blocks[0] = moved;
		n->nblocks = 1;
		return &n->blocks[0];
	}
	return b;
}

static struct ub_test *test_find(struct ub_block *b, const char *name)
{
	for (size_t i = 0; i < b->ntests; i++)
		if (streq(b->tests[i].name, name))
			return &b->tests[i];
	return NULL;
}

static struct ub_test *test_add(struct parser *p, struct ub_block *b, const char *name)
{
	if (b->ntests >= UB_TESTS_MAX) {
		problem(p, line_src(p), line_text(p), "more than %d tests in one run: not read", UB_TESTS_MAX);
		return NULL;
	}
	b->tests = xrealloc(b->tests, (b->ntests + 1) * sizeof(*b->tests));
	struct ub_test *t = &b->tests[b->ntests++];
	*t = (struct ub_test){ .name = field(name, strlen(name)), .line = line_src(p) };
	t->info = ub_test_by_name(t->name);
	return t;
}

static void mark_format(struct parser *p, unsigned fmt)
{
	struct ub_result *r = result_last(p);
	if (r)
		r->formats |= fmt;
	p->doc->formats |= fmt;
}

/* ---- the header ---- */

/* A month's abbreviation as "%b" prints it under an English, Spanish,
 * German, French, Italian or Portuguese locale ("abr", "Okt", "févr."):
 * 1..12, 0 when it is none. */
static unsigned month_number(const char *mon)
{
	static const char *const names[][12] = {
		{ "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec" },
		{ "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic" },
		{ "jan", "feb", "m\xc3\xa4r", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez" },
		{ "janv", "f\xc3\xa9vr", "mars", "avr", "mai", "juin", "juil", "ao\xc3\xbbt", "sept", "oct", "nov",
		  "d\xc3\xa9" "c" },
		{ "gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic" },
		{ "jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez" },
	};
	char low[16];
	size_t n = strlen(mon);
	if (n && mon[n - 1] == '.')
		n--;
	if (n == 0 || n >= sizeof(low))
		return 0;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)mon[i]);
	low[n] = '\0';
	for (size_t l = 0; l < ARRAY_SIZE(names); l++)
		for (unsigned m = 0; m < 12; m++)
			if (streq(low, names[l][m]))
				return m + 1;
	return 0;
}

/* "Sun Nov 29 2026" to "2026-11-29"; a zh_CN locale's "日 11月 29 2026"
 * ("%a %b %d %Y" there) and other locales' month names ("mié abr 26 2017")
 * too. */
static char *parse_date(const char *s)
{
	char wday[16], mon[16], zone[16];
	unsigned day, year, m = 0, hh, mm, ss;
	/* date(1)'s "Sun Nov 29 22:44:56 UTC 2026", as UnixBench 4.1.0 prints it */
	if (sscanf(s, "%15s %15s %u %u:%u:%u %15s %u", wday, mon, &day, &hh, &mm, &ss, zone, &year) != 8 &&
	    sscanf(s, "%15s %15s %u %u", wday, mon, &day, &year) != 4)
		return NULL;
	if (day < 1 || day > 31 || year < 1970 || year > 9999)
		return NULL;
	m = month_number(mon);
	const char *v = mon;
	if (!m && take_uint(&v, 12, &m) && !streq(v, "月"))
		m = 0;
	return m ? xasprintf("%04u-%02u-%02u", year, m, day) : NULL;
}

/* "22:36:13" at s; the copy, or NULL. */
static char *parse_clock(const char *s, const char **end)
{
	unsigned h, m, sec;
	const char *p = s;
	if (!take_uint(&p, 23, &h) || *p++ != ':' || !take_uint(&p, 59, &m) || *p++ != ':' ||
	    !take_uint(&p, 60, &sec))
		return NULL;
	if (end)
		*end = p;
	return xasprintf("%02u:%02u:%02u", h, m, sec);
}

/* "HH:MM:SS - HH:MM:SS" into a block. */
static void parse_span(const char *s, struct ub_block *b)
{
	const char *p;
	char *start = parse_clock(skip_spaces(s), &p);
	if (!start)
		return;
	free(b->start);
	b->start = start;
	p = skip_spaces(p);
	if (*p == '-')
		p = skip_spaces(p + 1 + (p[1] == '-'));
	char *end = parse_clock(p, NULL);
	if (end) {
		free(b->end);
		b->end = end;
	}
}

static bool parse_bogomips(const char *s, double *v)
{
	const char *close = strrchr(s, ')');
	const char *open = close ? memrchr(s, '(', (size_t)(close - s)) : NULL;
	if (!open)
		return false;
	char *e;
	*v = strtod(open + 1, &e);
	return e != open + 1 && startswith(skip_spaces(e), "bogomips") && isfinite(*v) && *v >= 0;
}

/* "MODEL (5192.3 bogomips)[ FLAGS]" of CPU n. */
static void header_cpu(struct parser *p, struct ub_result *r, const char *s)
{
	if (r->h.ncpus >= UB_CPUS_MAX)
		return;
	r->h.cpus = xrealloc(r->h.cpus, (r->h.ncpus + 1) * sizeof(*r->h.cpus));
	struct ub_cpu *c = &r->h.cpus[r->h.ncpus++];
	*c = (struct ub_cpu){0};
	const char *b = strstr(s, " bogomips)");
	const char *open = b ? memrchr(s, '(', (size_t)(b - s)) : NULL;
	if (open && parse_bogomips(s, &c->bogomips)) {
		c->has_bogomips = true;
		c->model = field(s, (size_t)(open - s));
		const char *flags = skip_spaces(b + strlen(" bogomips)"));
		if (*flags)
			c->flags = field(flags, strlen(flags));
	} else {
		c->model = field(s, strlen(s));
	}
	p->expect_flags = c->flags ? -1 : (int)(r->h.ncpus - 1);
}

/* "OS: GNU/Linux -- 6.18.44 -- #1 SMP ..." (typographic dashes arrive as "-"). */
static void header_os(struct ub_result *r, const char *v)
{
	const char *sep = strstr(v, " -- ") ? " -- " : " - ";
	size_t sl = strlen(sep);
	const char *a = strstr(v, sep);
	const char *b = a ? strstr(a + sl, sep) : NULL;
	if (!a) {
		set_field(&r->h.os, v, strlen(v));
		return;
	}
	set_field(&r->h.os, v, (size_t)(a - v));
	if (b) {
		set_field(&r->h.os_release, a + sl, (size_t)(b - a - sl));
		set_field(&r->h.os_version, b + sl, strlen(b + sl));
	} else {
		set_field(&r->h.os_release, a + sl, strlen(a + sl));
	}
}

/* "Machine: x86_64 (unknown)" or, in the .html, "x86_64: unknown". */
static void header_machine(struct ub_result *r, const char *v)
{
	const char *open = strchr(v, '(');
	const char *colon = strstr(v, ": ");
	if (open && endswith(v, ")")) {
		set_field(&r->h.machine, v, (size_t)(open - v));
		set_field(&r->h.platform, open + 1, strlen(open + 1) - 1);
	} else if (colon) {
		set_field(&r->h.machine, v, (size_t)(colon - v));
		set_field(&r->h.platform, colon + 2, strlen(colon + 2));
	} else {
		set_field(&r->h.machine, v, strlen(v));
	}
}

/* The line joined with the next one when that holds what this one lacks
 * (a mail client wrapped it); NULL otherwise. */
static char *join_next(struct parser *p, const char *s, const char *needed)
{
	if (p->i + 1 >= p->lines->n || !strstr(p->lines->v[p->i + 1].s, needed))
		return NULL;
	p->i++;
	p->doc->manglings |= UB_MANGLE_WRAPPED;
	return xasprintf("%s %s", s, p->lines->v[p->i].s);
}

/* "22:36:13 up 13 min, 0 user, load average: ...; runlevel 3" */
static bool header_uptime(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Uptime: ");
	if (!v && !(strstr(s, " up ") && strstr(s, "load average")))
		return false;
	struct ub_result *r = result_last(p);
	if (!r || !r->has_header || r->nblocks)
		return false;
	_cleanup_free_ char *joined = strstr(s, "; runlevel") ? NULL : join_next(p, s, "runlevel");
	v = joined ? joined : s;
	v = startswith(v, "Uptime: ") ? v + strlen("Uptime: ") : v;
	const char *rl = strstr(v, "; runlevel");
	set_field(&r->h.uptime, v, rl ? (size_t)(rl - v) : strlen(v));
	if (rl)
		set_field(&r->h.runlevel, rl + strlen("; runlevel"), strlen(rl + strlen("; runlevel")));
	return true;
}

/* "Benchmark of vm / GNU/Linux on Sun Nov 29 2026" (the .html's title). */
static bool html_title(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Benchmark of ");
	const char *on = v ? strstr(v, " on ") : NULL;
	if (!on)
		return false;
	while (strstr(on + 4, " on "))
		on = strstr(on + 4, " on ");
	_cleanup_free_ char *date = parse_date(on + 4);
	if (!date)
		return false;
	struct ub_result *r = result_last(p);
	if (!r || r->nblocks || r->h.version || (r->h.date && !streq(r->h.date, date)))
		r = result_new(p);
	if (!r)
		return true;
	r->has_header = true;
	free(r->h.date);
	r->h.date = TAKE_PTR(date);
	return true;
}

static bool header_line(struct parser *p, const char *s)
{
	const char *v;
	if ((v = startswith(s, "BYTE UNIX Benchmarks (Version "))) {
		struct ub_result *r = result_last(p);
		if (!r || r->nblocks || r->h.version)
			r = result_new(p);
		if (!r)
			return true;
		r->has_header = true;
		size_t n = strcspn(v, ")");
		set_field(&r->h.version, v, n);
		mark_format(p, p->html ? UB_FMT_HTML : UB_FMT_REPORT);
		return true;
	}
	if (html_title(p, s))
		return true;
	if ((v = startswith(s, "Start Benchmark Run: "))) {
		/* UnixBench 4.1.0: the run's date in its header */
		struct ub_result *r = result_last(p);
		if (!r || !r->has_header || r->nblocks)
			return false;
		free(r->h.date);
		r->h.date = parse_date(v);
		const char *c = strchr(v, ':');
		free(p->pending_start);
		p->pending_start = c && c - v >= 2 ? parse_clock(c - 2, NULL) : NULL;
		return true;
	}
	if ((v = startswith(s, "System -- "))) {
		struct ub_result *r = result_for_header(p);
		if (r)
			set_field(&r->h.system, v, strlen(v));
		return true;
	}
	if ((v = startswith(s, "System: "))) {
		struct ub_result *r = result_for_header(p);
		if (!r)
			return true;
		const char *colon = strstr(v, ": ");
		if (colon) {
			set_field(&r->h.hostname, v, (size_t)(colon - v));
			set_field(&r->h.system, colon + 2, strlen(colon + 2));
		} else {
			set_field(&r->h.system, v, strlen(v));
		}
		return true;
	}
	struct ub_result *r = result_last(p);
	if (!r || !r->has_header || r->nblocks)
		return false;
	unsigned n;
	if ((v = startswith(s, "OS: "))) {
		header_os(r, v);
	} else if ((v = startswith(s, "Machine: "))) {
		header_machine(r, v);
	} else if ((v = startswith(s, "Language: "))) {
		_cleanup_free_ char *joined = strchr(v, '(') && !strchr(v, ')') ? join_next(p, v, ")") : NULL;
		v = joined ? joined : v;
		set_field(&r->h.language, v, strlen(v));
	} else if ((v = startswith(s, "Graphics: "))) {
		set_field(&r->h.graphics, v, strlen(v));
	} else if (startswith(s, "CPU: ") || streq(s, "Test System Information")) {
		/* "CPU: no details available" */
	} else if ((v = startswith(s, "CPU ")) && take_uint(&v, UB_CPUS_MAX, &n) && *v == ':') {
		header_cpu(p, r, skip_spaces(v + 1));
	} else if (((v = startswith(s, "CPUs: ")) || (v = s)) && take_uint(&v, UB_CPUS_MAX, &n) && *v == ':' &&
		   strstr(v, "bogomips)")) {
		header_cpu(p, r, skip_spaces(v + 1));
	} else if (header_uptime(p, s)) {
		p->expect_flags = -1;
	} else if (p->expect_flags >= 0 && (size_t)p->expect_flags < r->h.ncpus) {
		struct ub_cpu *c = &r->h.cpus[p->expect_flags];
		set_field(&c->flags, s, strlen(s));
		p->expect_flags = -1;
	} else {
		return false;
	}
	return true;
}

/* Run's stdout precedes the report it ends with. */
static void run_output_seen(struct parser *p)
{
	p->pending_formats |= UB_FMT_RUN_OUTPUT;
	p->doc->formats |= UB_FMT_RUN_OUTPUT;
}

/* Run's stdout before the report: the logo and the directories box. */
static bool run_output_line(struct parser *p, const char *s)
{
	const char *v;
	if ((v = startswith(s, "Version ")) && strstr(v, "Based on the Byte Magazine")) {
		free(p->pending_version);
		p->pending_version = field(v, strcspn(v, " "));
		run_output_seen(p);
		return true;
	}
	if (startswith(s, "make[") || streq(s, "Checking distribution of files") || startswith(s, "make all")) {
		run_output_seen(p);
		return true;
	}
	if (streq(s, "Use directories for:"))
		return true;
	if ((v = startswith(s, "* File I/O tests (named fs***) = "))) {
		set_field(&p->pending_tmpdir, v, strlen(v));
		return true;
	}
	if ((v = startswith(s, "* Results")) && (v = strstr(v, "= "))) {
		set_field(&p->pending_resultdir, v + 2, strlen(v + 2));
		return true;
	}
	/* "1 x Pipe Throughput  1 2 3": progress */
	unsigned n;
	v = s;
	if (take_uint(&v, UB_COPIES_MAX, &n) && startswith(v, " x ")) {
		run_output_seen(p);
		return true;
	}
	/* the logo's letters are made of '#' and spaces; the .log's separator has no spaces */
	if (strchr(s, '#') && strchr(s, ' ') && strspn(s, "# ") == strlen(s))
		return true;
	return false;
}

/* ---- the tables ---- */

static const char *const categories[] = { "System Benchmarks", "Non-Index Benchmarks", "2D Graphics Benchmarks",
					  "3D Graphics Benchmarks" };

/* 1: a 2D graphics, 2: a 3D graphics table or score; 0: the system index. */
static int graphics_category(const char *s)
{
	return startswith(s, "2D Graphics Benchmarks") ? 1 : startswith(s, "3D Graphics Benchmarks") ? 2 : 0;
}

static const char *after_category(const char *s)
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
static bool index_header(struct parser *p, const char *s)
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
static bool score_line(struct parser *p, const char *s)
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
	/* "Index Score 1362.9 -----": the rule under it glued on */
	_cleanup_free_ char *cut = NULL;
	const char *rule = strchr(v, ' ');
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
static bool table_furniture(struct parser *p, const char *s)
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
static bool run_line(struct parser *p, const char *s)
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
static bool html_time_line(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Time: ");
	struct ub_block *b = block_last(p);
	if (!v || !b || b->phase != PH_OPEN)
		return false;
	parse_span(v, b);
	return true;
}

/* "2 CPUs in system; running 1 parallel copy of tests" */
static bool cpus_line(struct parser *p, const char *s)
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
	block_set_copies(p, b, copies);
	mark_format(p, UB_FMT_REPORT);
	return true;
}

/* The table entry a test line starts with; *rest points after the name. */
static const struct ub_test_info *known_name(const char *s, const char **rest, char **name)
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
	if (!b)
		return true;
	struct ub_test *t = test_find(b, name);
	if (!t)
		t = test_add(p, b, name);
	if (!t)
		return true;
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
	return true;
}

/* A test name broken over two lines ("Dhrystone 2 using register" /
 * "variables  41920798.1 lps ..."): the joined line, or NULL. */
static char *join_wrapped_name(struct parser *p, const char *s)
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

static bool test_line(struct parser *p, const char *s, bool in_table)
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
	problem(p, line_src(p), s, "%s: the numbers after the name could not be read", name);
	return true;
}

/* ---- .log ---- */

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
static bool log_test_line(struct parser *p, const char *s)
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

static bool log_line(struct parser *p, const char *s)
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

/* ---- .csv ---- */

static void csv_free(struct parser *p)
{
	for (size_t i = 0; i < p->ncsv; i++)
		free(p->csv_names[i]);
	free(p->csv_names);
	p->csv_names = NULL;
	p->ncsv = 0;
}

static bool csv_line(struct parser *p, const char *s)
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

/* ---- the text around the tables ---- */

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
static bool arrow_line(struct parser *p, const char *s)
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
static unsigned heading_copies(const char *s)
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
static bool heading_line(struct parser *p, const char *s)
{
	if (run_command(p, s))
		return true;
	char *h = heading_text(p, s);
	if (!h)
		return false;
	free(p->heading);
	p->heading = h;
	unsigned c = heading_copies(h);
	if (c) {
		p->hints[0] = c;
		p->nhints = 1;
		p->hint_next = 0;
	}
	struct ub_block *b = block_last(p);
	if (b && (b->phase == PH_RAW || b->phase == PH_INDEX))
		b->phase = PH_DONE;
	return true;
}

/* ---- Markdown tables ---- */

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

static void pipe_reset(struct parser *p)
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

/* "| System Benchmarks Index Values | BASELINE | RESULT | INDEX |": Run's
 * index table of one run, its columns as cells; titled "Baseline" too. */
static bool pipe_index_header(struct parser *p, char **cells, int n)
{
	static const char *const cols[] = { "BASELINE", "RESULT", "INDEX" };
	for (int i = 1; i < n; i++) {
		bool col = false;
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
			col |= strcasecmp(cells[i], cols[k]) == 0;
		if (!col)
			return false;
	}
	for (int i = 1; i < n; i++)
		for (char *c = cells[i]; *c; c++)
			*c = (char)toupper((unsigned char)*c);
	_cleanup_free_ char *line = pipe_join(cells, n);
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
static bool pipe_line(struct parser *p, const char *s)
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

/* ---- driver ---- */

static bool in_table(struct parser *p)
{
	struct ub_block *b = block_last(p);
	return b && (b->phase == PH_OPEN || b->phase == PH_RAW || b->phase == PH_INDEX);
}

static void parse_line(struct parser *p)
{
	const char *s = line_text(p);
	_cleanup_free_ char *joined = NULL;
	bool table = in_table(p);
	if (pipe_line(p, s))
		return;
	if (header_line(p, s) || run_output_line(p, s))
		return;
	if (run_line(p, s) || cpus_line(p, s) || html_time_line(p, s) || score_line(p, s))
		return;
	if (arrow_line(p, s) || csv_line(p, s) || index_header(p, s))
		return;
	if (log_test_line(p, s) || test_line(p, s, table))
		return;
	if ((joined = join_wrapped_name(p, s))) {
		p->i++;
		p->doc->manglings |= UB_MANGLE_WRAPPED;
		if (test_line(p, joined, table))
			return;
	}
	if (log_line(p, s) || table_furniture(p, s))
		return;
	p->expect_flags = -1;
	if (heading_line(p, s))
		return;
	if (table)
		problem(p, line_src(p), s, "not a line of a UnixBench results table");
}

/* A lone number per test: an index when the table has a score line
 * (results tables have none), else it cannot be told apart. */
static void resolve_lone(struct parser *p, struct ub_block *b)
{
	for (size_t i = 0; i < b->ntests; i++) {
		struct ub_test *t = &b->tests[i];
		if (!t->has_lone)
			continue;
		if (b->has_score && !t->has_index) {
			t->index = t->lone;
			t->has_index = true;
		} else {
			problem(p, t->line, t->name, "%s: a lone number (%.1f) without a header saying whether it is "
				"the result or the index", t->name, t->lone);
		}
	}
}

static bool test_has_value(const struct ub_test *t)
{
	return t->has_result || t->has_index;
}

/* Drops tests without a value, then blocks without tests, then results
 * without blocks. */
static void finish(struct parser *p)
{
	struct ub_doc *d = p->doc;
	size_t nr = 0;
	for (size_t i = 0; i < d->nresults; i++) {
		struct ub_result *r = &d->results[i];
		size_t nb = 0;
		for (size_t k = 0; k < r->nblocks; k++) {
			struct ub_block *b = &r->blocks[k];
			resolve_lone(p, b);
			/* UnixBench 4 has no -c: every test but the shell scripts ran one copy */
			if (!b->copies && r->h.version && startswith(r->h.version, "4."))
				b->copies = 1;
			size_t nt = 0;
			for (size_t j = 0; j < b->ntests; j++) {
				if (test_has_value(&b->tests[j]))
					b->tests[nt++] = b->tests[j];
				else
					test_free(&b->tests[j]);
			}
			b->ntests = nt;
			if (nt)
				r->blocks[nb++] = *b;
			else
				block_free(b);
		}
		r->nblocks = nb;
		if (nb)
			d->results[nr++] = *r;
		else
			ub_result_free(r);
	}
	d->nresults = nr;
}

int ub_parse(const char *data, size_t len, struct ub_doc *doc)
{
	*doc = (struct ub_doc){0};
	if (len > UB_INPUT_MAX)
		return -EFBIG;
	struct ub_lines lines;
	int r = ub_text_lines(data, len, &lines);
	if (r < 0)
		return r;
	struct parser p = { .doc = doc, .lines = &lines, .html = lines.html, .expect_flags = -1 };
	for (p.i = 0; p.i < lines.n && !p.results_full; p.i++)
		parse_line(&p);
	if (lines.long_line)
		problem(&p, lines.long_line, NULL, "a line longer than %u KiB: only its start was read", UB_LINE_MAX >> 10);
	if (lines.too_many)
		problem(&p, 0, NULL, "more than %u lines: the rest was not read", UB_LINES_MAX);
	doc->manglings |= lines.manglings;
	finish(&p);
	free(p.pending_version);
	free(p.pending_tmpdir);
	free(p.pending_resultdir);
	free(p.pending_start);
	free(p.heading);
	pipe_reset(&p);
	csv_free(&p);
	ub_lines_free(&lines);
	return doc->nresults ? 0 : -ENOMSG;
}

void ub_doc_free(struct ub_doc *doc)
{
	for (size_t i = 0; i < doc->nresults; i++)
		ub_result_free(&doc->results[i]);
	free(doc->results);
	for (size_t i = 0; i < doc->nproblems; i++) {
		free(doc->problems[i].text);
		free(doc->problems[i].why);
	}
	free(doc->problems);
	*doc = (struct ub_doc){0};
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

const char *ub_format_name(unsigned bit)
{
	switch (bit) {
	case UB_FMT_REPORT: return "text report";
	case UB_FMT_RUN_OUTPUT: return "Run's output";
	case UB_FMT_LOG: return "log";
	case UB_FMT_HTML: return "html report";
	case UB_FMT_CSV: return "csv";
	case UB_FMT_TABLE: return "tables without header";
	default: return NULL;
	}
}

const char *ub_mangling_name(unsigned bit)
{
	switch (bit) {
	case UB_MANGLE_CRLF: return "CR line ends";
	case UB_MANGLE_NBSP: return "non-breaking spaces";
	case UB_MANGLE_QUOTED: return "'>' quotes";
	case UB_MANGLE_GLUED: return "lines glued together";
	case UB_MANGLE_WRAPPED: return "wrapped lines";
	case UB_MANGLE_TYPOGRAPHIC: return "typographic dashes or quotes";
	case UB_MANGLE_CONTROL: return "control characters or bad UTF-8";
	case UB_MANGLE_MAIL: return "quoted-printable or format=flowed mail";
	case UB_MANGLE_LISTED: return "line numbers or list bullets";
	case UB_MANGLE_CASE: return "words in other letter case";
	case UB_MANGLE_CELLS: return "table cells around every line";
	default: return NULL;
	}
}
