/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UnixBench reader alone (unixbench/parse*.c): the same inputs as the
 * unixbench harness, without building records from them, so that a run
 * reaches the parser's corners many times faster. What the parser keeps
 * must be a number UnixBench could print: finite, 0 to 1e15.
 */
#include <math.h>

#include "bench/ubimport.h"
#include "tests/fuzz/fuzz.h"

static void check(bool has, double v)
{
	if (has && !(isfinite(v) && v >= 0 && v <= 1e15))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_doc doc = { 0 };
	if (ub_parse((const char *)data, size, &doc) == 0) {
		for (size_t i = 0; i < doc.nresults; i++)
			for (size_t k = 0; k < doc.results[i].nblocks; k++) {
				const struct ub_block *b = &doc.results[i].blocks[k];
				check(b->has_score, b->score);
				for (size_t t = 0; t < b->ntests; t++) {
					check(b->tests[t].has_result, b->tests[t].result);
					check(b->tests[t].has_index, b->tests[t].index);
					check(b->tests[t].has_baseline, b->tests[t].baseline);
				}
			}
	}
	for (size_t i = 0; i < doc.nproblems; i++)
		free(ub_import_problem_text(&doc.problems[i]));
	ub_doc_free(&doc);
	return 0;
}
