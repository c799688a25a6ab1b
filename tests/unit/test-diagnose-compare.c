/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several results of one machine: which test groups differ, whether the
 * two ran on one machine, and which difference rule explains the change
 * (clock, build, benchmark directory, kernel, load, graphical session).
 */
#include "diagtest.h"

/* A result as an import gives it: env members (JSON) in environment.before,
 * 1-copy indexes scaled per group by the factors of `by` (DIAG_NGROUPS). */
static json_object *result_of(const char *env, const double by[DIAG_NGROUPS], const char *label)
{
	json_object *rec = result_new();
	jset_bool(rec, "imported", true);
	json_object *before = jchild(jchild(rec, "environment"), "before");
	jset(before, "unavailable", json_lit("[{\"area\": \"all\", \"reason\": \"imported\"}]"));
	if (env) {
		_cleanup_json_ json_object *add = json_lit(env);
		json_merge(before, add);
	}
	double idx[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++) {
		idx[t] = healthy1[t];
		for (int g = 0; g < DIAG_NGROUPS; g++)
			if (diag_groups[g].mask & DT(t))
				idx[t] *= by[g];
	}
	result_add_run(rec, 1, idx);
	if (label)
		jset_str(jpath(rec, "runs.0"), "label", label);
	return rec;
}

static const double same[DIAG_NGROUPS] = { 1, 1, 1, 1, 1, 1 };

/* The difference rules that fire on b against a, best first, as "id:confidence ...". */
static char *explain(json_object *a, json_object *b, const char *la, const char *lb, bool *one)
{
	struct diag_case c[2];
	_cleanup_free_ char *e1 = NULL, *e2 = NULL;
	assert_int_equal(diag_case_init(&c[0], a, NULL, NULL, &e1), 0);
	assert_int_equal(diag_case_init(&c[1], b, NULL, NULL, &e2), 0);
	const char *labels[] = { la, lb };
	_cleanup_json_ json_object *set = diagnose_set(c, labels, 2);
	diag_case_free(&c[0]);
	diag_case_free(&c[1]);
	assert_int_equal(jpath_len(set, "reports"), 2);
	json_object *pair = jpath(set, "comparisons.0");
	assert_non_null(pair);
	jpath_bool(pair, "one_machine", one);
	struct buf out = {0};
	buf_puts(&out, "");
	for (size_t i = 0; i < jpath_len(pair, "causes"); i++) {
		json_object *x = json_object_array_get_idx(jpath(pair, "causes"), i);
		buf_printf(&out, "%s%s:%s", i ? " " : "", jpath_str(x, "id"), jpath_str(x, "confidence"));
	}
	return buf_steal(&out);
}

static void expect_first(const char *got, const char *want)
{
	if (strncmp(got, want, strlen(want)) != 0)
		fail_msg("causes \"%s\", expected first %s", got, want);
}

/* The causes of a change of the groups by `by` between two results labelled
 * la and lb whose environments hold env_a and env_b (NULL: nothing else). */
static char *explain_envs(const char *env_a, const char *env_b, const double by[DIAG_NGROUPS], const char *la,
			  const char *lb, bool *one)
{
	_cleanup_json_ json_object *a = result_of(env_a, same, NULL), *b = result_of(env_b, by, NULL);
	return explain(a, b, la, lb, one);
}

static void expect_envs(const char *env_a, const char *env_b, const double by[DIAG_NGROUPS], const char *la,
			const char *lb, const char *want)
{
	bool one;
	_cleanup_free_ char *got = explain_envs(env_a, env_b, by, la, lb, &one);
	expect_first(got, want);
}

/* The same between two results that say nothing else of themselves. */
static void expect_change(const double by[DIAG_NGROUPS], const char *la, const char *lb, const char *want)
{
	expect_envs(NULL, NULL, by, la, lb, want);
}

static void two_clocks(void **state)
{
	(void)state;
	/* 1.0 against 1.3 GHz: the CPU tests +30 %, the rest less */
	static const double faster[DIAG_NGROUPS] = { 1.3, 1.2, 1.15, 1.2, 1.1, 1.2 };
	_cleanup_json_ json_object *a = result_of(NULL, same, "1.0Ghz"), *b = result_of(NULL, faster, "1.3Ghz");
	bool one = false;
	_cleanup_free_ char *got = explain(a, b, "1.0Ghz", "1.3Ghz", &one);
	assert_true(one);
	expect_first(got, "diff.clock:high");
	/* x86: the BogoMIPS of the two headers */
	expect_envs("{\"cpu\": {\"arch\": \"x86_64\", \"bogomips\": 4000}}",
		    "{\"cpu\": {\"arch\": \"x86_64\", \"bogomips\": 5200}}", faster, "base", "turbo", "diff.clock:high");
}

static void build(void **state)
{
	(void)state;
	static const double cpu_only[DIAG_NGROUPS] = { 1.12, 1.0, 1.05, 1.01, 0.98, 1.02 };
	expect_change(cpu_only, "-march=rv64gc", "-march=rv64gc_zba_zbb", "diff.build:medium");
	expect_change(cpu_only, "run 1", "run 2", "diff.build:low");
}

static void workdir(void **state)
{
	(void)state;
	static const double files[DIAG_NGROUPS] = { 1.0, 1.01, 1.0, 1.02, 1.9, 1.03 };
	expect_change(files, "SD card", "tmpfs", "diff.workdir:high");
}

static void kernel(void **state)
{
	(void)state;
	static const double sys[DIAG_NGROUPS] = { 1.0, 1.25, 1.1, 1.15, 1.0, 1.04 };
	expect_envs("{\"host\": {\"kernel_release\": \"5.4.0\"}}", "{\"host\": {\"kernel_release\": \"6.1.0\"}}", sys, "5.4",
		    "6.1", "diff.kernel:high");
	expect_change(sys, "before patch", "after patch", "diff.kernel:medium");
}

static void load(void **state)
{
	(void)state;
	static const double busy[DIAG_NGROUPS] = { 0.97, 0.8, 0.9, 0.95, 0.95, 0.6 };
	_cleanup_json_ json_object *a = result_of("{\"host\": {\"load_avg\": [0.2, 0, 0]}}", same, NULL);
	_cleanup_json_ json_object *b = result_of("{\"host\": {\"load_avg\": [4.5, 0, 0]}}", busy, NULL);
	jset_int(a, "online_cpus", 2);
	jset_int(b, "online_cpus", 2);
	bool one;
	_cleanup_free_ char *got = explain(a, b, "idle", "busy", &one);
	if (!strstr(got, "diff.load:medium"))
		fail_msg("causes \"%s\": no diff.load:medium", got);
}

static void noise_and_machines(void **state)
{
	(void)state;
	/* within noise: no cause */
	static const double tiny[DIAG_NGROUPS] = { 1.004, 0.99, 0.88, 1.01, 0.993, 1.002 };
	bool one;
	_cleanup_free_ char *got = explain_envs(NULL, NULL, tiny, "rv64gc", "rv64gc_xtheadba", &one);
	assert_string_equal(got, "");
	/* two machines: compared with nothing */
	_cleanup_free_ char *two = explain_envs("{\"cpu\": {\"model\": \"Cortex-A72\"}}",
						"{\"cpu\": {\"model\": \"Cortex-A76\"}}", tiny, "pi4", "pi5", &one);
	assert_false(one);
	assert_string_equal(two, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_clocks), cmocka_unit_test(build), cmocka_unit_test(workdir),
		cmocka_unit_test(kernel), cmocka_unit_test(load), cmocka_unit_test(noise_and_machines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
