/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result and probe JSON (ubtune export, bench --json, probe --json, records
 * from anywhere): the JSON reader, the store's check and the listing
 * summary of what passes, the decoders of both records (a result with its
 * environment, an environment alone) and the probe's rules over the facts
 * of a record that decodes, as diagnose and the profile matcher read them.
 */
#include <stdio.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/result-record.h"
#include "lib/store.h"
#include "probe/findings.h"
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
	error = NULL;

	struct result_env re = { 0 };
	(void)result_env_decode(rec, &re, &error);
	result_env_free(&re);
	free(error);
	error = NULL;

	struct env_record env = { 0 };
	if (env_decode(rec, "", &env, &error) == 0) {
		static FILE *null;
		if (!null && !(null = fopen("/dev/null", "w")))
			abort();
		findings_render(&env, null);
	}
	env_record_free(&env);
	free(error);
	if (json_object_is_type(rec, json_type_object))
		findings_evaluate(rec);
	json_object_put(rec);
	return 0;
}
