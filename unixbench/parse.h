/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "unixbench/catalogue.h"
#include "unixbench/text.h"

/*
 * Reads UnixBench output as people have it: the text report Run writes
 * (results/HOST-DATE-NN), Run's stdout, the .log of every pass, the .html
 * report, the .csv of 6.0.0, and any of these pasted from a web page or a
 * mailing list (non-breaking spaces, CRLF, typographic dashes, lines glued
 * together or wrapped, quoted with '>', tables with only the INDEX column,
 * several runs in one file, header or not).
 *
 * The input is hostile: it is bounded (UB_INPUT_MAX bytes, UB_LINES_MAX
 * lines of UB_LINE_MAX bytes (unixbench/text.h), fields cut to UB_FIELD_MAX), never used as a
 * format, and a line that cannot be read is listed as a problem instead of
 * guessed at.
 */
#define UB_INPUT_MAX (16u << 20)
#define UB_FIELD_MAX 256
#define UB_PROBLEMS_MAX 50
#define UB_RESULTS_MAX 256
#define UB_BLOCKS_MAX 64
#define UB_TESTS_MAX 64
#define UB_PASSES_MAX 1000
#define UB_CPUS_MAX 4096

/* What the input turned out to be (bits of ub_doc.formats). */
enum {
	UB_FMT_REPORT = 1 << 0,     /* text report: header and tables */
	UB_FMT_RUN_OUTPUT = 1 << 1, /* Run's stdout: make, logo, progress, then the report */
	UB_FMT_LOG = 1 << 2,        /* the .log of results/: every pass */
	UB_FMT_HTML = 1 << 3,       /* the .html of results/ */
	UB_FMT_CSV = 1 << 4,        /* the .csv of results/ (6.0.0, UB_OUTPUT_CSV=true) */
	UB_FMT_TABLE = 1 << 5,      /* tables without a header */
};

/* One copy of one pass, from the .log ("# COUNT0: ..." lines). */
struct ub_copy {
	double count, timebase, time, elapsed;
	bool has_count, has_timebase, has_time, has_elapsed;
	int status;
};

/* One pass of a test in the .log: its copies and UnixBench's verdict. */
struct ub_pass {
	struct ub_copy *copies;
	size_t ncopies;
};

struct ub_test {
	char *name;
	const struct ub_test_info *info; /* NULL: a test this table does not know */
	char *unit;
	double result, time_s, baseline, index;
	unsigned samples;
	bool has_result, has_time, has_samples, has_baseline, has_index;
	/* a lone number under a header that does not say which column it is */
	double lone;
	bool has_lone;
	/* the .log's passes, command and summary (">>>> score: ...") */
	struct ub_pass *passes;
	size_t npasses;
	char *command;
	unsigned line; /* where the test was first seen (1-based, in the input) */
};

/* One `-c N` block: a "Benchmark Run" with its tables, or a run of .log tests. */
struct ub_block {
	unsigned copies;   /* 0: not said */
	unsigned cpus;     /* "N CPUs in system" */
	bool cpus_said;    /* the input gave cpus (0 when Run could not count them) */
	bool copies_from_text; /* copies taken from the text around the table ("./Run -c 8", "1 copy") */
	char *label;       /* what tells the run from the others: the heading above it that they do not share, or NULL */
	char *group;       /* the heading above that, when the runs are in groups (one per machine), or NULL */
	char **path;       /* the headings above the run, outermost first */
	size_t npath;
	unsigned text_cpus; /* the CPUs the text gives the run's machine ("8 cores"); 0: none */
	int result_votes;   /* a run in a column: its values are results (> 0), not indexes */
	bool titled;        /* labelled by a column's title or a label before its rows (the last of path) */
	char *date;        /* "2026-11-29" */
	char *start, *end; /* "22:36:13" */
	struct ub_test *tests;
	size_t ntests;
	double score;
	bool has_score;
	/* the 2D and 3D graphics index scores, kept apart from the system index */
	double graphics_score[2];
	bool has_graphics_score[2];
	bool partial; /* the report said "Partial Index" / "(Partial Only)" */
	unsigned line;
	int phase; /* parser state */
	unsigned columns[3], ncolumns; /* the index table's columns */
};

struct ub_cpu {
	char *model;
	double bogomips;
	bool has_bogomips;
	char *flags;
};

/* What the report's header says about the machine. */
struct ub_header {
	char *version;
	char *hostname, *system;
	char *os, *os_release, *os_version;
	char *machine, *platform;
	char *language;
	char *graphics;
	char *uptime, *runlevel;
	char *tmpdir, *resultdir; /* Run's "Use directories for:" box */
	char *date;               /* the .html title's date */
	struct ub_cpu *cpus;
	size_t ncpus;
};

/* One invocation of Run: its header (when there is one) and its blocks. */
struct ub_result {
	struct ub_header h;
	bool has_header;
	struct ub_block *blocks;
	size_t nblocks;
	unsigned formats;
	unsigned line;
};

struct ub_problem {
	unsigned line; /* 0: not tied to a line */
	char *text;    /* the line (cut), or NULL */
	char *why;
};

struct ub_doc {
	struct ub_result *results;
	size_t nresults;
	struct ub_problem *problems;
	size_t nproblems;
	size_t problems_dropped; /* beyond UB_PROBLEMS_MAX */
	unsigned formats, manglings;
};

/*
 * Parses data (len bytes, need not be NUL-terminated). Returns 0 with at
 * least one test in doc; -ENOMSG when nothing in it is UnixBench output
 * (doc->problems may say what came closest); -EFBIG above UB_INPUT_MAX;
 * -EBADMSG for binary data.
 */
int ub_parse(const char *data, size_t len, struct ub_doc *doc);
void ub_doc_free(struct ub_doc *doc);

/*
 * Adds the passes of a .log (parsed as log) to the matching tests of a
 * report of the same run: block by block, where copies and test names
 * agree. Returns the number of tests that got passes.
 */
size_t ub_attach_log(struct ub_doc *report, const struct ub_doc *log);

/* Names of the format and mangling bits, for messages and records. */
const char *ub_format_name(unsigned bit);
const char *ub_mangling_name(unsigned bit);

/* The pass's summed count, mean time and timebase, as Run combines copies. */
void ub_pass_value(const struct ub_pass *p, double *count, double *time, double *timebase);
