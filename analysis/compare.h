/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "lib/json.h"

/*
 * Results side by side, as people publish them: per copy count a table of
 * every test's result and index in each result, the change against the
 * first, whether that change stands out of the runs' measured spread, and
 * the biggest changes; then the facts of the environment that differ.
 *
 * compare_build() makes the comparison record (schema ubtune.compare/1,
 * docs/compare-json.md); every output (text, Markdown, CSV, JSON, the SVG
 * chart, the HTML report) is drawn from it.
 */
#define COMPARE_SCHEMA "ubtune.compare/1"
#define COMPARE_MAX 16
/* Copy counts compared, at most. */
#define COMPARE_SECTIONS_MAX 16
/* Changes with p below this are significant. */
#define COMPARE_ALPHA 0.05
/* How many of the biggest changes are highlighted per result. */
#define COMPARE_HIGHLIGHTS 3
/* Changes smaller than this (in %) are never highlighted. */
#define COMPARE_HIGHLIGHT_MIN_PCT 1.0

struct compare_input {
	json_object *rec;   /* a result record (borrowed) */
	const char *source; /* "result 12", a file name */
	int64_t id;         /* the store's id, 0: not stored */
};

struct compare_opts {
	unsigned copies; /* compare only the runs with this many copies; 0: all */
};

/* n results (1..COMPARE_MAX); labels A, B, C... in that order. */
json_object *compare_build(const struct compare_input *in, size_t n, const struct compare_opts *o);

enum compare_format {
	COMPARE_TEXT,
	COMPARE_MARKDOWN,
	COMPARE_CSV,
	COMPARE_JSON,
};

void compare_render(json_object *cmp, enum compare_format f, FILE *out);

/* How a change is shown: "+4.2 %"; "" for none. */
void compare_format_pct(json_object *change, char *b, size_t n);
/* The significance of a change in words: "p<0.01", "~ p=0.41", "~ in spread",
 * "beyond spread", "beyond CI", "CIs apart", "~ CIs overlap", "~ in CI", "untested". */
const char *compare_verdict(json_object *change, char *b, size_t n);
