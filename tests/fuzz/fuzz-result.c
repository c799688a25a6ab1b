/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result JSON (ubtune export, bench --json, records from anywhere): the
 * JSON reader, the store's check and the listing summary of what passes.
 */
#include "lib/json.h"
#include "lib/store.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *rec = NULL;
	/* as read_file() gives it: a NUL after the bytes */
	char *text = fuzz_text(data, size);
	int r = jload_text(text, size, &rec);
	free(text);
	if (r < 0)
		return 0;
	char *error = NULL;
	if (result_check(rec, &error) == 0)
		json_object_put(result_summary(rec));
	free(error);
	json_object_put(rec);
	return 0;
}
