/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The environment record's schema: every reviewed probe record decodes, and
 * its tables name every key the probe writes. */
#include <dirent.h>
#include <errno.h>

#include "lib/env-record.h"
#include "testlib.h"

static const struct schema_field *field(const struct schema *s, const char *key)
{
	for (const struct schema_field *f = s->fields; f->type != SCHEMA_END; f++)
		if (f->type != SCHEMA_SELF && streq(f->name, key))
			return f;
	return NULL;
}

/* Every key of o (and of the objects below it) has a line in s. */
static void all_listed(const struct schema *s, json_object *o, const char *file, const char *path)
{
	json_object_object_foreach(o, key, v) {
		_cleanup_free_ char *at = xasprintf("%s%s%s", path, *path ? "." : "", key);
		const struct schema_field *f = field(s, key);
		if (!f)
			fail_msg("%s: %s has no line in the environment schema", file, at);
		if (!v)
			continue;
		if (f->type == SCHEMA_OBJ || f->type == SCHEMA_PTR)
			all_listed(f->nested, v, file, at);
		else if (f->type == SCHEMA_ARRAY && f->item == SCHEMA_OBJ)
			for (size_t i = 0; i < json_object_array_length(v); i++)
				all_listed(f->nested, json_object_array_get_idx(v, i), file, at);
	}
}

static void check_record(const char *file, json_object *rec)
{
	struct env_record env;
	_cleanup_free_ char *error = NULL;
	if (env_decode(rec, "", &env, &error) < 0)
		fail_msg("%s: %s", file, error);
	all_listed(&env_record_schema, rec, file, "");

	/* the struct says what the JSON says */
	assert_ptr_equal(env.json, rec);
	assert_string_equal(env.schema, PROBE_SCHEMA);
	assert_int_equal(env.cpu.freq.policies.n, jpath_len(rec, "cpu.freq.policies"));
	for (size_t i = 0; i < env.cpu.freq.policies.n; i++) {
		json_object *p = json_object_array_get_idx(jpath(rec, "cpu.freq.policies"), i);
		assert_true(streq_ptr(env.cpu.freq.policies.v[i].governor, jpath_str(p, "governor")));
		int64_t khz;
		assert_int_equal(env.cpu.freq.policies.v[i].max_khz.known, jpath_int(p, "max_khz", &khz));
		if (env.cpu.freq.policies.v[i].max_khz.known)
			assert_int_equal(env.cpu.freq.policies.v[i].max_khz.v, khz);
	}
	assert_true(streq_ptr(env.host.kernel_release, jpath_str(rec, "host.kernel_release")));
	assert_int_equal(env.storage.device != NULL, jpath(rec, "storage.device") != NULL);
	if (env.storage.device) {
		assert_true(streq_ptr(env.storage.device->name, jpath_str(rec, "storage.device.name")));
		assert_int_equal(env.storage.device->slaves.n, jpath_len(rec, "storage.device.slaves"));
	}
	assert_int_equal(env.findings.n, jpath_len(rec, "findings"));
	for (size_t i = 0; i < env.findings.n; i++)
		assert_non_null(env.findings.v[i].id);
	bool known;
	assert_int_equal(env.power.undervoltage_now.known, jpath_bool(rec, "power.undervoltage_now", &known));
	env_record_free(&env);
	assert_null(env.cpu.freq.policies.v);
}

/* The reviewed record of every fixture root (tests/fixtures/expected). */
static void expected_records(void **state)
{
	_cleanup_free_ char *dir = xasprintf("%s/tests/fixtures/expected", SRCDIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!endswith(e->d_name, ".json"))
			continue;
		_cleanup_free_ char *file = xasprintf("%s/%s", dir, e->d_name);
		_cleanup_json_ json_object *rec = NULL;
		assert_int_equal(jload_file(file, 16 << 20, &rec), 0);
		check_record(e->d_name, rec);
		n++;
	}
	closedir(d);
	assert_true(n >= 20);
}

/* A record made from a UnixBench report's header. */
static void imported_header(void **state)
{
	_cleanup_json_ json_object *rec =
		json_lit("{\"schema\": \"ubtune.probe/1\", \"source\": \"unixbench-header\", "
			 "\"host\": {\"hostname\": \"pi\", \"load_avg\": [0.5, 0.25, 0.1]}, "
			 "\"unixbench\": {\"version\": \"5.1.3\", \"cpus_in_system\": 4, \"cpus\": [{\"model\": "
			 "\"Intel(R) Core(TM) i5-7200U CPU @ 2.50GHz\", \"bogomips\": 5426.0, \"flags\": "
			 "\"Hyper-Threading, x86-64, MMX\"}, {\"model\": \"ARMv8 Processor rev 0 (v8l)\", "
			 "\"bogomips\": null, \"flags\": null}]}, "
			 "\"findings\": []}");
	struct env_record env;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(env_decode(rec, "environment.before", &env, &error), 0);
	assert_string_equal(env.source, "unixbench-header");
	assert_int_equal(env.host.load_avg.n, 3);
	assert_true(env.host.load_avg.v[1].v == 0.25);
	assert_string_equal(env.unixbench.version, "5.1.3");
	assert_int_equal(int_or(env.unixbench.cpus_in_system, 0), 4);
	/* its CPU lines: model, BogoMIPS and flags as printed */
	assert_int_equal(env.unixbench.cpus.n, 2);
	assert_string_equal(env.unixbench.cpus.v[0].model, "Intel(R) Core(TM) i5-7200U CPU @ 2.50GHz");
	assert_true(env.unixbench.cpus.v[0].bogomips.v == 5426.0);
	assert_non_null(strstr(env.unixbench.cpus.v[0].flags, "Hyper-Threading"));
	assert_false(env.unixbench.cpus.v[1].bogomips.known);
	assert_null(env.unixbench.cpus.v[1].flags);
	assert_non_null(env.findings.json);
	assert_int_equal(env.findings.n, 0);
	/* what the header does not give stays unknown */
	assert_null(env.cpu.model);
	assert_false(env.memory.total_kib.known);
	assert_null(env.storage.device);
	assert_null(env.cpu.freq.policies.json);
	env_record_free(&env);
}

/* A key of the wrong type is named by its path inside the result. */
static void bad_types(void **state)
{
	_cleanup_json_ json_object *rec =
		json_lit("{\"schema\": \"ubtune.probe/1\", \"cpu\": {\"freq\": {\"policies\": "
			 "[{\"policy\": \"policy0\"}, {\"cur_khz\": \"fast\"}]}}}");
	struct env_record env;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(env_decode(rec, "environment.before", &env, &error), -EBADMSG);
	assert_string_equal(error, "environment.before.cpu.freq.policies[1].cur_khz is a string, expected a number");
	assert_null(env.cpu.freq.policies.v);

	_cleanup_json_ json_object *nested =
		json_lit("{\"schema\": \"ubtune.probe/1\", \"storage\": {\"device\": {\"backing\": "
			 "{\"device\": {\"rotational\": \"yes\"}}}}}");
	free(error);
	error = NULL;
	assert_int_equal(env_decode(nested, "", &env, &error), -EBADMSG);
	assert_string_equal(error, "storage.device.backing.device.rotational is a string, expected a bool");

	_cleanup_json_ json_object *unnamed = json_lit("{\"schema\": \"ubtune.probe/1\", \"findings\": [{\"id\": \"x\"}]}");
	free(error);
	error = NULL;
	assert_int_equal(env_decode(unnamed, "", &env, &error), -EBADMSG);
	assert_string_equal(error, "findings[0].severity is missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expected_records),
		cmocka_unit_test(imported_header),
		cmocka_unit_test(bad_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
