/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "unixbench/parse.h"
#include "lib/json.h"

/*
 * UnixBench output as result records (schema ubtune.result/1, marked
 * "imported"): one record per invocation of Run, one run per copy count.
 * The header becomes a partial environment record (environment.before,
 * source "unixbench-header"); tests keep UnixBench's own numbers, with
 * the index computed from the baselines where the input has none; the
 * .log's passes become the tests' passes, so imported logs can be tested
 * for significance like ubtune's own runs.
 */
#define UB_IMPORT_ENGINE "imported"

struct ub_import_opts {
	const char *source;     /* what to call the input in the record ("-": stdin) */
	const char *log_source; /* the .log whose passes were added, or NULL */
	/* copy counts for tables that do not say, in order (the last one
	 * repeats); none: their runs get "copies": null */
	const unsigned *copies;
	size_t ncopies;
};

/* An array of result records. */
json_object *ub_import_records(const struct ub_doc *doc, const struct ub_import_opts *o);

/*
 * Reads a file ("-": standard input), parses it and builds the records;
 * a text or HTML report's .log beside it (HOST-DATE-NN.log) adds its
 * passes. On failure *error is one line naming the file and saying what
 * was expected. *doc_out (may be NULL) gets the parsed document, for the
 * problems and repairs it lists.
 */
int ub_import_file(const char *path, const struct ub_import_opts *o, json_object **records, struct ub_doc *doc_out,
		   char **error);

/* True when a record's runs all say how many copies ran. */
bool ub_import_copies_known(json_object *rec);

/* A one-line summary of what the parser repaired ("CR line ends, quoted
 * with '>'"), or NULL when nothing. */
char *ub_import_repairs(const struct ub_doc *doc);

/* "Execl Throughput   17#4.1 lps" style problems as one message each. */
char *ub_import_problem_text(const struct ub_problem *p);
