/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The second stage of reading UnixBench output: clean lines to runs and
 * tests. Every line is tried against the lines UnixBench writes (each
 * family of layouts in a file of its own: parse-internal.h lists them);
 * what looks like a test line but cannot be read becomes a problem. */
#include "unixbench/parse.h"

#include <errno.h>

#include "unixbench/parse-internal.h"
#include "lib/util.h"

#define PROBLEM_TEXT_MAX 120

/* ---- problems ---- */

void problem(struct parser *p, unsigned line, const char *text, const char *fmt, ...)
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

/* ---- results, blocks, tests ---- */

struct ub_result *result_last(struct parser *p)
{
	return p->doc->nresults ? &p->doc->results[p->doc->nresults - 1] : NULL;
}

static void take_pending(char **dst, char **pending)
{
	if (*pending && !*dst)
		*dst = TAKE_PTR(*pending);
}

struct ub_result *result_new(struct parser *p)
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
struct ub_result *result_for_header(struct parser *p)
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

struct ub_block *block_last(struct parser *p)
{
	struct ub_result *r = result_last(p);
	return r && r->nblocks ? &r->blocks[r->nblocks - 1] : NULL;
}

struct ub_block *block_new(struct parser *p, enum phase phase)
{
	struct ub_result *r = result_current(p);
	if (!r)
		return NULL;
	/* tables under other headings, with no header between them to say
	 * which run of Run they are: runs of their own ("without the patch",
	 * "with the patch") */
	if (r->nblocks >= UB_BLOCKS_MAX || (!r->has_header && r->nblocks && headings_differ(p, &r->blocks[0]))) {
		r = result_new(p);
		if (!r)
			return NULL;
	}
	return block_append(p, r, phase);
}

struct ub_block *block_append(struct parser *p, struct ub_result *r, enum phase phase)
{
	if (r->nblocks >= UB_BLOCKS_MAX)
		return NULL;
	r->blocks = xrealloc(r->blocks, (r->nblocks + 1) * sizeof(*r->blocks));
	struct ub_block *b = &r->blocks[r->nblocks++];
	*b = (struct ub_block){ .line = line_src(p), .phase = phase, .text_cpus = p->machine_cpus };
	if (heading_top(p))
		b->label = xstrdup(heading_top(p));
	if (p->nheads) {
		b->path = xcalloc(p->nheads, sizeof(*b->path));
		for (size_t i = 0; i < p->nheads; i++)
			b->path[b->npath++] = xstrdup(p->heads[i].text);
	}
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
	free(b->group);
	for (size_t i = 0; i < b->npath; i++)
		free(b->path[i]);
	free(b->path);
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
struct ub_block *block_set_copies(struct parser *p, struct ub_block *b, unsigned copies)
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

struct ub_test *test_find(struct ub_block *b, const char *name)
{
	for (size_t i = 0; i < b->ntests; i++)
		if (streq(b->tests[i].name, name))
			return &b->tests[i];
	return NULL;
}

struct ub_test *test_add(struct parser *p, struct ub_block *b, const char *name)
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

void mark_format(struct parser *p, unsigned fmt)
{
	struct ub_result *r = result_last(p);
	if (r)
		r->formats |= fmt;
	p->doc->formats |= fmt;
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
	if (pipe_line(p, s) || columns_line(p, s))
		return;
	if (header_line(p, s) || run_output_line(p, s))
		return;
	if (run_line(p, s) || cpus_line(p, s) || html_time_line(p, s) || score_line(p, s))
		return;
	if (arrow_line(p, s) || csv_line(p, s) || index_header(p, s))
		return;
	if (glued_line(p, s))
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

/* A column of runs whose values are results, not indexes (a test of a
 * large baseline far above it): its values become results. */
static void resolve_results(struct ub_block *b)
{
	if (b->result_votes <= 0)
		return;
	for (size_t i = 0; i < b->ntests; i++) {
		struct ub_test *t = &b->tests[i];
		if (t->has_index && !t->has_result && !t->has_baseline) {
			t->result = t->index;
			t->has_result = true;
			t->has_index = false;
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
			resolve_results(b);
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
			if (nt || b->has_score)
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
	relabel(d, p->all_cores);
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
	headings_free(&p);
	pipe_reset(&p);
	glued_free(&p);
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
