/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The parser's state and the helpers its files share (private to
 * unixbench/parse*.c). One file per family of layouts:
 *
 *   parse.c           the driver: every line tried against every layout,
 *                     the runs, blocks and tests it builds, the problems
 *   parse-tokens.c    numbers, tokens and the row of numbers after a name
 *   parse-header.c    the report's header and Run's output before it
 *   parse-report.c    Run's tables: "Benchmark Run", the CPUs line, the
 *                     results and index tables, the score line
 *   parse-log.c       the .log of every pass, and attaching it to a report
 *   parse-csv.c       the .csv of 6.0.0
 *   parse-prose.c     the text around the tables: Run's command line,
 *                     headings, "COPIES -> INDEX" lists
 *   parse-markdown.c  Markdown tables: the .html's, Run's index table
 *   parse-columns.c   runs side by side: one column per run (Markdown or
 *                     plain text), labels glued before the test name
 */
#include <stdbool.h>
#include <stddef.h>

#include "lib/macro.h"
#include "unixbench/text.h"

/* parse.c includes this header, which therefore does not include parse.h:
 * the files include it themselves */
struct ub_doc;
struct ub_result;
struct ub_block;
struct ub_test;
struct ub_test_info;

#define TOKENS_MAX 24
#define UB_COLUMNS_MAX 8
#define SAMPLES_MAX 1000000
#define UB_HEADS_MAX 6
#define UB_TITLE_LEVEL 7
#define UB_MACHINE_LEVEL 6

enum phase {
	PH_OPEN,  /* a "Benchmark Run" without tables yet */
	PH_RAW,   /* the raw results table */
	PH_INDEX, /* the index table */
	PH_DONE,  /* after the score line */
	PH_LOG,   /* tests of a .log */
	PH_CSV,   /* a row of a .csv */
};

enum column { COL_BASELINE, COL_RESULT, COL_INDEX };

/* A run in a column of a table, or named by a label glued before its rows. */
struct run_column {
	char *title;
	size_t result, block; /* its block: doc->results[result].blocks[block] */
	size_t many;          /* the block of a "Multi Core" score row, 0: none yet */
	bool skip;            /* a column of changes ("160P/1P", "+/- %"), of no run */
};

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
	/* what the text around the tables says: the headings above the line
	 * (outermost first; level 1-6 a Markdown heading's, UB_TITLE_LEVEL a
	 * title line's: a list item, "Before:", a label right above a table),
	 * and the copies a command line or a heading names */
	struct {
		char *text;
		int level;
	} heads[UB_HEADS_MAX];
	size_t nheads;
	unsigned hints[8], nhints, hint_next;
	/* the level of the heading that named the hints (UB_TITLE_LEVEL a list
	 * item or a short line), 0 a Run command (never ended by a heading) */
	int hint_level;
	/* the text says the runs used every CPU ("all cores", "-c $(nproc)"),
	 * and how many CPUs the latest description of a machine or its "N CPUs
	 * in system" line gives */
	bool all_cores;
	unsigned machine_cpus;
	/* the CPUs the prose since the last run gives, and whether it gives
	 * two counts (then machine_cpus is 0) */
	unsigned prose_cpus;
	bool prose_mixed;
	/* the one test a "./Run ... fstime" names, and whether a "COPIES ->
	 * INDEX" list of its index per copy count follows */
	const struct ub_test_info *command_test;
	bool arrow_list;
	/* a Markdown table: the .html's columns, Run's index table, or one column per run */
	enum { PIPE_NONE, PIPE_HTML, PIPE_TEXT, PIPE_RUNS, PIPE_TESTS, PIPE_PARALLEL } pipe;
	/* the run of each copy count of tables with a "Parallel" column (one
	 * table per test, a row per copy count) */
	struct {
		unsigned copies;
		size_t result;
	} parallel[4];
	size_t nparallel;
	/* a table with one column per run (Markdown or plain text) */
	struct run_column cols[UB_COLUMNS_MAX];
	size_t ncols;
	bool cols_open;  /* the runs of the columns exist */
	bool cols_plain; /* a plain-text table of runs is being read */
	bool cols_pct;   /* its rows hold only changes in percent */
	/* the runs that labels glued before the test name give */
	struct run_column glued[UB_COLUMNS_MAX];
	size_t nglued;
};

static inline const char *line_text(struct parser *p)
{
	return p->lines->v[p->i].s;
}

static inline unsigned line_src(struct parser *p)
{
	return p->lines->v[p->i].src;
}

/* parse.c: problems, and the runs, blocks and tests being built */
void problem(struct parser *p, unsigned line, const char *text, const char *fmt, ...) _printf_(4, 5);
struct ub_result *result_last(struct parser *p);
struct ub_result *result_new(struct parser *p);
struct ub_result *result_for_header(struct parser *p);
struct ub_block *block_last(struct parser *p);
struct ub_block *block_new(struct parser *p, enum phase phase);
/* A block at the end of result r, whatever the result being read. */
struct ub_block *block_append(struct parser *p, struct ub_result *r, enum phase phase);
struct ub_block *block_set_copies(struct parser *p, struct ub_block *b, unsigned copies);
struct ub_test *test_find(struct ub_block *b, const char *name);
struct ub_test *test_add(struct parser *p, struct ub_block *b, const char *name);
void mark_format(struct parser *p, unsigned fmt);

/* parse-tokens.c */
/* ---- tokens of a test line ---- */

enum tok_kind { T_NUM, T_WORD, T_DASH };

struct tok {
	enum tok_kind kind;
	double v;
	const char *s;
	size_t n;
};

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

char *field(const char *s, size_t n);
void set_field(char **dst, const char *s, size_t n);
bool parse_number(const char *s, size_t n, double *out);
bool parse_uint(const char *s, unsigned max, unsigned *out);
bool take_uint(const char **s, unsigned max, unsigned *out);
const char *skip_spaces(const char *s);
int tokenize(const char *s, struct tok *t, int max);
bool tok_is(const struct tok *t, const char *word);
bool parse_row(const char *rest, struct row *r);

/* parse-header.c */
char *parse_date(const char *s);
void parse_span(const char *s, struct ub_block *b);
bool header_line(struct parser *p, const char *s);
bool run_output_line(struct parser *p, const char *s);

/* parse-report.c */
const char *after_category(const char *s);
const struct ub_test_info *known_name(const char *s, const char **rest, char **name);
bool index_header(struct parser *p, const char *s);
bool score_line(struct parser *p, const char *s);
bool table_furniture(struct parser *p, const char *s);
bool run_line(struct parser *p, const char *s);
bool html_time_line(struct parser *p, const char *s);
bool cpus_line(struct parser *p, const char *s);
bool test_line(struct parser *p, const char *s, bool in_table);
void apply_row_to(struct parser *p, struct ub_block *b, const char *name, const struct row *r);
char *join_wrapped_name(struct parser *p, const char *s);

/* parse-log.c */
bool log_test_line(struct parser *p, const char *s);
bool log_line(struct parser *p, const char *s);

/* parse-csv.c */
bool csv_line(struct parser *p, const char *s);
void csv_free(struct parser *p);

/* parse-prose.c */
unsigned heading_copies(const char *s);
const char *heading_top(const struct parser *p);
bool headings_differ(const struct parser *p, const struct ub_block *b);
void headings_free(struct parser *p);
void relabel(struct ub_doc *d, bool all_cores);
bool arrow_line(struct parser *p, const char *s);
bool heading_line(struct parser *p, const char *s);
void score_only(struct parser *p, const char *label, double score, bool partial);
void machine_count(struct parser *p, const char *key, const char *value);

/* parse-columns.c */
void columns_reset(struct parser *p);
void columns_title(struct parser *p, const char *title);
bool cell_number(const char *c, double *v);
void columns_row(struct parser *p, const char *name, char **cells, size_t n);
/* A table of runs as rows, tests as columns ("| | pipe | spawn |" above
 * "| Linux | 28419638 | 116831 |"): whether the titles are tests (then
 * they are the columns), and a run's row. */
bool columns_tests_title(struct parser *p, char **titles, size_t n);
void columns_run_row(struct parser *p, char **cells, size_t n);
bool columns_line(struct parser *p, const char *s);
bool glued_line(struct parser *p, const char *s);
void glued_free(struct parser *p);

/* parse-markdown.c */
bool pipe_line(struct parser *p, const char *s);
void pipe_reset(struct parser *p);
