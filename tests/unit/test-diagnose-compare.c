/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several results of one machine: which test groups differ, whether the
 * two ran on one machine, and which difference rule explains the change
 * (the labels, two kernels, the clock, the build, the benchmark directory,
 * the kernel, the load), with the confidence its evidence earns; and the
 * comparisons of published layouts read as a person reads them.
 */
#include "bench/ubimport.h"
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

static const double same[DIAG_NGROUPS] = { 1, 1, 1, 1, 1 };

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

/* groups: CPU, kernel entry, scheduler and wake-ups, exec and memory, file system */
static void two_clocks(void **state)
{
	(void)state;
	/* 1.0 against 1.3 GHz: the CPU tests +30 %, the rest less */
	static const double faster[DIAG_NGROUPS] = { 1.3, 1.2, 1.17, 1.2, 1.1 };
	_cleanup_json_ json_object *a = result_of(NULL, same, "1.0Ghz"), *b = result_of(NULL, faster, "1.3Ghz");
	bool one = false;
	_cleanup_free_ char *got = explain(a, b, "1.0Ghz", "1.3Ghz", &one);
	assert_true(one);
	/* the labels name the clock, and the CPU tests follow it */
	expect_first(got, "diff.labels:high");
	if (!strstr(got, "diff.clock:high"))
		fail_msg("causes \"%s\": no diff.clock:high", got);
	/* x86: the BogoMIPS of the two headers */
	expect_envs("{\"cpu\": {\"arch\": \"x86_64\", \"bogomips\": 4000}}",
		    "{\"cpu\": {\"arch\": \"x86_64\", \"bogomips\": 5200}}", faster, "base", "turbo", "diff.clock:high");
}

static void build(void **state)
{
	(void)state;
	static const double cpu_only[DIAG_NGROUPS] = { 1.12, 1.0, 1.03, 1.01, 0.98 };
	expect_change(cpu_only, "-march=rv64gc", "-march=rv64gc_zba_zbb", "diff.labels:high");
	/* the shape alone, its controls ran and did not move: medium */
	expect_change(cpu_only, "run 1", "run 2", "diff.build:medium");
}

static void workdir(void **state)
{
	(void)state;
	static const double files[DIAG_NGROUPS] = { 1.0, 1.01, 1.02, 1.02, 1.9 };
	expect_change(files, "SD card", "tmpfs", "diff.labels:high");
	expect_change(files, "first", "second", "diff.workdir:medium");
}

static void kernel(void **state)
{
	(void)state;
	static const double sys[DIAG_NGROUPS] = { 1.0, 1.25, 1.1, 1.15, 1.0 };
	/* two releases in the headers: a recorded fact, the CPU tests still */
	expect_envs("{\"host\": {\"kernel_release\": \"5.4.0\"}}", "{\"host\": {\"kernel_release\": \"6.1.0\"}}", sys,
		    "first", "second", "diff.kernel-release:high");
	expect_change(sys, "before patch", "after patch", "diff.labels:high");
	expect_change(sys, "5.4", "6.1", "diff.labels:high");
	expect_change(sys, "a", "b", "diff.kernel:medium");
	/* two machines the labels name */
	expect_change(sys, "First, the laptop", "And now the workstation", "diff.labels:high");
	/* a baseline against a label in its own words: that label is the change */
	expect_change(sys, "基线", "sysboost优化后", "diff.label-words:high");
	static const double still[DIAG_NGROUPS] = { 1.0, 1.01, 0.99, 1.0, 1.0 };
	expect_change(still, "baseline", "tuned", "diff.label-words:low");
	expect_change(sys, "before", "after", "diff.kernel:medium");
}

static void load(void **state)
{
	(void)state;
	static const double busy[DIAG_NGROUPS] = { 0.97, 0.8, 0.7, 0.95, 0.95 };
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
	static const double tiny[DIAG_NGROUPS] = { 1.004, 0.99, 0.95, 1.01, 0.993 };
	bool one;
	_cleanup_free_ char *got = explain_envs(NULL, NULL, tiny, "run a", "run b", &one);
	assert_string_equal(got, "");
	/* labels that name the change, nothing moved: the change, low */
	_cleanup_free_ char *named = explain_envs(NULL, NULL, tiny, "rv64gc", "rv64gc_xtheadba", &one);
	assert_string_equal(named, "diff.labels:low");
	/* two machines: compared with nothing */
	_cleanup_free_ char *two = explain_envs("{\"cpu\": {\"model\": \"Cortex-A72\"}}",
						"{\"cpu\": {\"model\": \"Cortex-A76\"}}", tiny, "pi4", "pi5", &one);
	assert_false(one);
	assert_string_equal(two, "");
}

/* runlevel 5 in one of them is a note, never a cause */
static void runlevel_five_is_a_note(void **state)
{
	(void)state;
	static const double slower[DIAG_NGROUPS] = { 1.0, 0.9, 0.85, 0.95, 1.0 };
	_cleanup_json_ json_object *a = result_of("{\"unixbench\": {\"runlevel\": \"3\"}}", same, NULL);
	_cleanup_json_ json_object *b = result_of("{\"unixbench\": {\"runlevel\": \"5\"}}", slower, NULL);
	struct diag_case c[2];
	_cleanup_free_ char *e1 = NULL, *e2 = NULL;
	assert_int_equal(diag_case_init(&c[0], a, NULL, NULL, &e1), 0);
	assert_int_equal(diag_case_init(&c[1], b, NULL, NULL, &e2), 0);
	const char *labels[] = { "server", "desktop image" };
	_cleanup_json_ json_object *set = diagnose_set(c, labels, 2);
	diag_case_free(&c[0]);
	diag_case_free(&c[1]);
	json_object *pair = jpath(set, "comparisons.0");
	for (size_t i = 0; i < jpath_len(pair, "causes"); i++)
		assert_false(strstr(jpath_str(json_object_array_get_idx(jpath(pair, "causes"), i), "class"), "graphical"));
	assert_int_equal(jpath_len(pair, "notes"), 1);
	assert_non_null(strstr(json_object_get_string(jpath(pair, "notes.0")), "runlevel 5"));
}

/* ---- published layouts, as import reads them ---- */

/* The set diagnose makes of UnixBench text, as `ubtune diagnose FILE` does. */
static json_object *set_of_text(const char *text)
{
	struct ub_doc doc;
	assert_int_equal(ub_parse(text, strlen(text), &doc), 0);
	struct ub_import_opts o = { .source = "pasted" };
	_cleanup_json_ json_object *recs = ub_import_records(&doc, &o);
	ub_doc_free(&doc);
	size_t n = json_object_array_length(recs);
	struct diag_case *c = xcalloc(n, sizeof(*c));
	const char **labels = xcalloc(n, sizeof(*labels));
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *error = NULL;
		json_object *rec = json_object_array_get_idx(recs, i);
		if (diag_case_init(&c[i], rec, NULL, NULL, &error) < 0)
			fail_msg("result %zu: %s", i + 1, error);
		labels[i] = jpath_str(rec, "runs.0.label") ?: "pasted";
	}
	json_object *set = diagnose_set(c, labels, n);
	for (size_t i = 0; i < n; i++)
		diag_case_free(&c[i]);
	free(c);
	free(labels);
	return set;
}

#define assert_near_pct(a, b) assert_true(fabs((a) - (b)) < 0.051)

static const char *first_cause(json_object *pair, const char **confidence)
{
	json_object *c = jpath(pair, "causes.0");
	*confidence = c ? jpath_str(c, "confidence") : NULL;
	return c ? jpath_str(c, "class") : NULL;
}

#define FC_ROWS(a, b, c)                                                                                               \
	"File Copy 1024 bufsize 2000 maxblocks          3960.0     " a "\n"                                          \
	"File Copy 256 bufsize 500 maxblocks            1655.0     " b "\n"                                          \
	"File Copy 4096 bufsize 8000 maxblocks          5800.0     " c "\n"

/* Only File Copy ran, on a ramdisk the heading names, "without" and "with"
 * a patch: the patch is the change; the file system is not claimed (its
 * control tests did not run). */
static void filecopy_only_under_a_shared_heading(void **state)
{
	(void)state;
	_cleanup_json_ json_object *set = set_of_text(
		"## UnixBench fstime on a ramdisk (brd, ext4)\n\n"
		"without patch\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0") "\n"
		"with patch\n" FC_ROWS("898730.4   2269.5", "245652.0   1484.3", "2248071.6   3876.0"));
	assert_int_equal(jpath_len(set, "comparisons"), 1);
	json_object *pair = jpath(set, "comparisons.0");
	assert_string_equal(jpath_str(pair, "a"), "without patch");
	assert_string_equal(jpath_str(pair, "b"), "with patch");
	const char *conf;
	assert_string_equal(first_cause(pair, &conf), "diag.patch");
	assert_string_equal(conf, "high");
	for (size_t i = 0; i < jpath_len(pair, "causes"); i++) {
		json_object *c = json_object_array_get_idx(jpath(pair, "causes"), i);
		if (streq(jpath_str(c, "class"), "diag.storage-bound-workdir"))
			assert_string_equal(jpath_str(c, "confidence"), "low");
	}
}

/* A base and a patched kernel, each with a 1-copy and an 8-copy table: the
 * patched one against the base at 1 copy and at 8, never 1 against 8. */
static void never_one_copy_against_many(void **state)
{
	(void)state;
	_cleanup_json_ json_object *set = set_of_text(
		"## base kernel\n### 1 copy\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0")
		"### 8 copies\n" FC_ROWS("5991536.0  15130.1", "1637680.0  9895.4", "14987144.0  25839.9")
		"## patched kernel\n### 1 copy\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6", "2060732.3   3553.0")
		"### 8 copies\n" FC_ROWS("6590689.6  16643.2", "1801448.0  10884.9", "16485858.4  28423.9"));
	assert_int_equal(jpath_len(set, "comparisons"), 1);
	json_object *pair = jpath(set, "comparisons.0");
	assert_int_equal(jpath_len(pair, "runs"), 2);
	int64_t c0, c1;
	assert_true(jpath_int(pair, "runs.0.copies", &c0) && jpath_int(pair, "runs.1.copies", &c1));
	assert_int_equal(c0, 1);
	assert_int_equal(c1, 8);
	for (size_t i = 0; i < 2; i++) {
		double pct;
		assert_true(jpath_double(json_object_array_get_idx(jpath(pair, "runs"), i), "score_change_pct", &pct));
		assert_true(pct > 5 && pct < 15);
	}
}

/* A mail: every core, the count in a block per machine, before and after
 * each; the author reports File Copy up, the rest unchanged. */
static void machines_before_and_after(void **state)
{
	(void)state;
	_cleanup_json_ json_object *set = set_of_text(
		"The runs use all cores of each machine.\n\n"
		"Machine 1: Intel Xeon Gold 6248, 2 sockets, 40 cores, 80 threads\n"
		"before:\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0")
		"System Call Overhead                          15000.0    1452805.5    968.5\n"
		"after:\n" FC_ROWS("898730.4   2269.5", "245652.0   1484.3", "2248071.6   3876.0")
		"System Call Overhead                          15000.0    1447375.3    964.9\n\n"
		"Machine 2: Kunpeng 920, 96 cores\n"
		"before:\n" FC_ROWS("648942.0   1638.7", "184710.0   1116.1", "1573393.0   2712.7")
		"System Call Overhead                          15000.0     905260.5    603.5\n"
		"after:\n" FC_ROWS("778730.4   1966.5", "221652.0   1339.3", "1888071.6   3255.3")
		"System Call Overhead                          15000.0     902335.5    601.6\n");
	assert_int_equal(jpath_len(set, "reports"), 4);
	assert_int_equal(jpath_len(set, "comparisons"), 2);
	for (size_t i = 0; i < 2; i++) {
		json_object *pair = json_object_array_get_idx(jpath(set, "comparisons"), i);
		assert_string_equal(jpath_str(pair, "a"), "before");
		assert_string_equal(jpath_str(pair, "b"), "after");
		assert_non_null(strstr(jpath_str(pair, "group"), i ? "Machine 2" : "Machine 1"));
		int64_t copies;
		assert_true(jpath_int(pair, "runs.0.copies", &copies));
		assert_int_equal(copies, i ? 96 : 80);
		/* File Copy stands out, the system call does not */
		for (size_t g = 0; g < jpath_len(pair, "groups"); g++) {
			json_object *x = json_object_array_get_idx(jpath(pair, "groups"), g);
			bool moved = false;
			jpath_bool(x, "moved", &moved);
			assert_true(moved == streq(jpath_str(x, "group"), "filesystem"));
		}
		/* the file system, from the shape: its control ran and did not move */
		const char *conf;
		assert_string_equal(first_cause(pair, &conf), "diag.storage-bound-workdir");
		assert_string_equal(conf, "medium");
	}
}

/* A 4.1.0 report indexed against the author's own machine: its FINAL SCORE
 * of 10 is no index, and no emulation. */
static void own_baseline_is_no_emulation(void **state)
{
	(void)state;
	static const char text[] =
		"  BYTE UNIX Benchmarks (Version 4.1.0)\n"
		"  System -- Linux box 2.6.18 #1 SMP x86_64\n"
		"  Start Benchmark Run: Mon Mar 10 10:00:00 UTC 2008\n"
		"TEST                                        BASELINE     RESULT      INDEX\n"
		"Dhrystone 2 using register variables       3100125.0  3257766.6       10.5\n"
		"Double-Precision Whetstone                     674.3      690.1       10.2\n"
		"Execl Throughput                               812.6      803.0        9.9\n"
		"Pipe Throughput                             451202.1   463211.0       10.3\n"
		"System Call Overhead                        512112.0   509877.7       10.0\n"
		"                                                                 =========\n"
		"     FINAL SCORE                                                     10.2\n";
	_cleanup_json_ json_object *set = set_of_text(text);
	json_object *report = jpath(set, "reports.0");
	for (size_t i = 0; i < jpath_len(report, "causes"); i++)
		assert_string_not_equal(jpath_str(json_object_array_get_idx(jpath(report, "causes"), i), "id"),
					"diag.software-emulation");
	assert_non_null(strstr(jpath_str(report, "summary"), "10.2"));
	assert_non_null(strstr(jpath_str(report, "summary"), "baselines of its own"));
}

/* Two runs of one condition in the document: their spread is the noise. */
static void noise_from_the_documents_repeats(void **state)
{
	(void)state;
	_cleanup_json_ json_object *set = set_of_text(
		"before\n" FC_ROWS("748942.0   1891.3", "204710.0   1236.9", "1873393.0   3230.0") "\n"
		"after\n" FC_ROWS("823836.2   2080.4", "225181.0   1360.6", "2060732.3   3553.0") "\n"
		"before\n" FC_ROWS("741453.0   1872.4", "202662.0   1224.5", "1854659.0   3197.7"));
	json_object *pair = jpath(set, "comparisons.0");
	assert_non_null(pair);
	json_object *fs = NULL;
	for (size_t g = 0; g < jpath_len(pair, "groups"); g++)
		if (streq(jpath_str(json_object_array_get_idx(jpath(pair, "groups"), g), "group"), "filesystem"))
			fs = json_object_array_get_idx(jpath(pair, "groups"), g);
	assert_non_null(fs);
	assert_non_null(strstr(jpath_str(fs, "noise_from"), "repeats"));
	double noise;
	assert_true(jpath_double(fs, "noise_pct", &noise));
	assert_true(noise >= 2 && noise < 3);
	bool moved = false;
	jpath_bool(fs, "moved", &moved);
	assert_true(moved);
}

/* Runs of which only the score is printed: compared by the score, against
 * its own noise; a change the labels name is the cause. */
static void scores_only_compared_by_score(void **state)
{
	(void)state;
	_cleanup_json_ json_object *set = set_of_text("## UnixBench scores\n\n- 5.10: 1534.7\n- 6.1: 1595.2\n- 6.6: 1540.0\n");
	assert_int_equal(jpath_len(set, "comparisons"), 2);
	json_object *pair = jpath(set, "comparisons.0");
	double pct, noise;
	assert_true(jpath_double(pair, "runs.0.score_change_pct", &pct));
	assert_near_pct(pct, 3.9);
	assert_true(jpath_double(pair, "score_noise_pct", &noise));
	assert_true(noise > 0);
	const char *conf;
	assert_string_equal(first_cause(pair, &conf), "diag.kernel-change");
	assert_string_equal(conf, "high");
	/* 6.6: +0.3 %, within the noise: the change named, low */
	assert_string_equal(first_cause(jpath(set, "comparisons.1"), &conf), "diag.kernel-change");
	assert_string_equal(conf, "low");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_clocks),
		cmocka_unit_test(build),
		cmocka_unit_test(workdir),
		cmocka_unit_test(kernel),
		cmocka_unit_test(load),
		cmocka_unit_test(noise_and_machines),
		cmocka_unit_test(runlevel_five_is_a_note),
		cmocka_unit_test(filecopy_only_under_a_shared_heading),
		cmocka_unit_test(never_one_copy_against_many),
		cmocka_unit_test(machines_before_and_after),
		cmocka_unit_test(own_baseline_is_no_emulation),
		cmocka_unit_test(noise_from_the_documents_repeats),
		cmocka_unit_test(scores_only_compared_by_score),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
