/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "analysis/compare.h"
#include "bench/ubimport.h"
#include "lib/json.h"

/*
 * What `compare` and `report` accept as a result: an id in the results
 * store ("12", "last", "last~1"), a result file (ubtune.result/1 JSON, as
 * `ubtune export` or `bench --json` write it), or UnixBench output of any
 * kind, imported on the fly (one file may hold several runs).
 */
struct loaded {
	json_object *rec; /* owned */
	char *source;     /* "result 12", the file name, "FILE (run 2 of 3)" */
	int64_t id;       /* in the store; 0: not stored */
};

struct loaded_list {
	struct loaded *v;
	size_t n;
};

/* Appends what arg names to list; *error says why not. */
int load_results(const char *arg, const struct ub_import_opts *import, struct loaded_list *list, char **error);
void loaded_list_free(struct loaded_list *list);

/* True when path holds a JSON object (what a result file is), judged by
 * its first non-blank byte. */
bool load_looks_like_json(const char *path);

/* Results ready for compare_build() and report_html(). */
struct loaded_inputs {
	struct loaded_list list;
	struct compare_input in[COMPARE_MAX];
	size_t n;
};

/*
 * Loads every argument in order, at most COMPARE_MAX results (-E2BIG
 * beyond); import (may be NULL) applies to UnixBench output. *error names
 * what failed.
 */
int load_inputs(char *const *args, size_t nargs, const struct ub_import_opts *import, struct loaded_inputs *out,
		char **error);
void loaded_inputs_free(struct loaded_inputs *in);
