/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UnixBench output (text report, .log, .html, .csv, mangled copies of
 * them) through the whole import path: the parser, the records, the
 * repair and problem messages. Every record the importer makes must pass
 * the store's own check.
 */
#include <stdio.h>

#include "bench/ubimport.h"
#include "lib/store.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_doc doc = { 0 };
	if (ub_parse((const char *)data, size, &doc) == 0) {
		static const unsigned copies[] = { 1, 4 };
		struct ub_import_opts o = { .source = "fuzz.txt", .copies = copies, .ncopies = 2 };
		json_object *recs = ub_import_records(&doc, &o);
		for (size_t i = 0; i < jarr_len(recs); i++) {
			char *error = NULL;
			if (result_check(json_object_array_get_idx(recs, i), &error) < 0) {
				fprintf(stderr, "an imported record fails result_check(): %s\n", error);
				abort();
			}
			(void)ub_import_copies_known(json_object_array_get_idx(recs, i));
		}
		json_object_put(recs);
	}
	free(ub_import_repairs(&doc));
	for (size_t i = 0; i < doc.nproblems; i++)
		free(ub_import_problem_text(&doc.problems[i]));
	ub_doc_free(&doc);
	return 0;
}
