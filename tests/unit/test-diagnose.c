/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diagnose on the published cases: each known cause comes first, from the
 * scores alone (as an imported log gives them) and with an environment
 * record that matches the write-up; healthy runs raise nothing above low.
 * The case's own published runs are never among its references.
 */
#include "bench/ubimport.h"
#include "diagtest.h"

/* ---- environment records as the probe and the sampler write them ---- */

#define SAMPLED_QUIET                                                                                        \
	"{\"sampler\": {\"interval_s\": 1, \"sources\": {\"cpus\": 4, \"cpufreq\": 4, \"thermal_zones\": 1, " \
	"\"hwmon_alarms\": 0}, \"max_temp_mc\": 51000}, \"events\": []}"

static const char env_rk3568_disk[] =
	"{\"cpu\": {\"online\": \"0-3\", \"freq\": {\"driver\": \"cpufreq-dt\", \"governor\": \"performance\"}},"
	" \"virt\": {\"role\": \"none\", \"hypervisor\": null},"
	" \"storage\": {\"workdir\": \"/root/UnixBench/tmp\", \"mount\": {\"target\": \"/\", \"source\": \"/dev/sda1\","
	" \"fstype\": \"ext4\"}, \"device\": {\"name\": \"sda\", \"kind\": \"ssd\", \"rotational\": false}},"
	" \"power\": {\"undervoltage_now\": null, \"undervoltage_events\": 0}}";

/* arm64 TCG: the guest sees QEMU's virt board (fw-cfg), nothing says KVM */
static const char env_rk3568_tcg[] =
	"{\"cpu\": {\"online\": \"0-3\", \"freq\": {\"driver\": null, \"governor\": null}},"
	" \"virt\": {\"role\": \"guest\", \"hypervisor\": \"qemu\"},"
	" \"storage\": {\"workdir\": \"/tmp/ub\", \"mount\": {\"fstype\": \"tmpfs\"}, \"device\": {\"kind\": \"tmpfs\"}}}";

static const char env_rpi4_undervoltage[] =
	"{\"cpu\": {\"online\": \"0-3\", \"freq\": {\"driver\": \"cpufreq-dt\", \"governor\": \"performance\"}},"
	" \"virt\": {\"role\": \"none\"},"
	" \"storage\": {\"workdir\": \"/tmp/ub\", \"mount\": {\"fstype\": \"tmpfs\"}, \"device\": {\"kind\": \"tmpfs\"}},"
	" \"power\": {\"undervoltage_now\": true, \"undervoltage_events\": 3},"
	" \"findings\": [{\"id\": \"power.undervoltage\", \"severity\": \"crit\", \"area\": \"power\","
	" \"evidence\": \"/sys/class/hwmon/hwmon1/in0_lcrit_alarm = 1 (rpi_volt)\"}]}";
static const char run_rpi4_undervoltage[] =
	"{\"sampler\": {\"sources\": {\"cpus\": 4, \"cpufreq\": 4, \"thermal_zones\": 1, \"hwmon_alarms\": 1},"
	" \"max_temp_mc\": 61800},"
	" \"events\": [{\"kind\": \"undervoltage\", \"offset_s\": 612.0, \"duration_s\": 840.0, \"test\": \"dhry2reg\","
	" \"copies\": 4, \"message\": \"undervoltage alarm raised at 05:21:40 during Dhrystone 2 using register"
	" variables, 4 copies (hwmon1 rpi_volt in0_lcrit_alarm); still raised at the end of the run\"},"
	" {\"kind\": \"low-clock\", \"offset_s\": 614.0, \"duration_s\": 780.0, \"test\": \"dhry2reg\", \"copies\": 4,"
	" \"message\": \"CPU 0 ran at 600 MHz of 1500 for 780 s during Dhrystone 2 using register variables,"
	" 4 copies\"}]}";

/* kvmtool's guest: a device tree board without QEMU's fw-cfg */
static const char env_kvmtool[] =
	"{\"cpu\": {\"online\": \"0-3\", \"freq\": {\"driver\": null, \"governor\": null}},"
	" \"virt\": {\"role\": \"guest\", \"hypervisor\": \"unknown\"},"
	" \"storage\": {\"workdir\": \"/tmp/ub\", \"mount\": {\"fstype\": \"tmpfs\"}, \"device\": {\"kind\": \"tmpfs\"}}}";

static const char env_kunpeng[] =
	"{\"cpu\": {\"online\": \"0-15\", \"freq\": {\"driver\": null, \"governor\": null}},"
	" \"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\", \"steal_pct\": 14.2},"
	" \"findings\": [{\"id\": \"virt.steal\", \"severity\": \"warn\", \"area\": \"virt\","
	" \"evidence\": \"/proc/stat steal = 14.2 % of all CPU time since boot\"}]}";
static const char run_kunpeng[] =
	"{\"sampler\": {\"sources\": {\"cpus\": 16, \"cpufreq\": 0, \"thermal_zones\": 0, \"hwmon_alarms\": 0}},"
	" \"events\": [{\"kind\": \"steal\", \"duration_s\": 40.0, \"test\": \"context1\", \"copies\": 16,"
	" \"message\": \"steal time 41 % for 40 s during Pipe-based Context Switching, 16 copies: the hypervisor"
	" gave these CPUs to other work\"}]}";

static const char env_bare_tmpfs[] =
	"{\"cpu\": {\"freq\": {\"driver\": \"cpufreq-dt\", \"governor\": \"performance\"}},"
	" \"virt\": {\"role\": \"none\"},"
	" \"storage\": {\"workdir\": \"/tmp/ub\", \"mount\": {\"fstype\": \"tmpfs\"}, \"device\": {\"kind\": \"tmpfs\"}},"
	" \"power\": {\"undervoltage_now\": false, \"undervoltage_events\": 0}}";
static const char env_kvm_guest[] =
	"{\"cpu\": {\"freq\": {\"driver\": null, \"governor\": null}},"
	" \"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\", \"steal_pct\": 0.1},"
	" \"storage\": {\"workdir\": \"/tmp/ub\", \"mount\": {\"fstype\": \"tmpfs\"}, \"device\": {\"kind\": \"tmpfs\"}}}";

static const struct known_case {
	const char *group;
	const char *cause;
	const char *env, *run; /* the matching environment */
} known_cases[] = {
	{ "rk3568-native-disk", "diag.storage-bound-workdir", env_rk3568_disk, SAMPLED_QUIET },
	{ "rk3568-qemu-tcg", "diag.software-emulation", env_rk3568_tcg, SAMPLED_QUIET },
	{ "rpi4-native-undervoltage", "diag.undervoltage", env_rpi4_undervoltage, run_rpi4_undervoltage },
	{ "rk3568-kvmtool", "diag.vmm-process-creation", env_kvmtool, SAMPLED_QUIET },
	{ "kunpeng920-guest-5.10-baseline", "diag.vcpu-overcommit", env_kunpeng, run_kunpeng },
	{ "kunpeng920-guest-5.10-pv_cond_yield", "diag.vcpu-overcommit", env_kunpeng, run_kunpeng },
	{ "kunpeng920-guest-5.10-vcpu_is_preempted", "diag.vcpu-overcommit", env_kunpeng, run_kunpeng },
	{ "kunpeng920-guest-5.5-before-patch", "diag.vcpu-overcommit", env_kunpeng, run_kunpeng },
	{ "kunpeng920-guest-5.5-vcpu_is_preempted", "diag.vcpu-overcommit", env_kunpeng, run_kunpeng },
};

static void expect_first(json_object *rec, const struct known_case *k, const char *how, const char *min_conf)
{
	_cleanup_json_ json_object *report = report_of(rec, k->group);
	_cleanup_free_ char *all = causes_text(report);
	if (!streq_ptr(cause_id(report, 0), k->cause))
		fail_msg("%s (%s): first cause is not %s: %s", k->group, how, k->cause, all);
	enum diag_confidence want = streq(min_conf, "high") ? DC_HIGH : DC_MEDIUM;
	const char *got = cause_confidence(report, 0);
	if (!(streq(got, "high") || (want == DC_MEDIUM && streq(got, "medium"))))
		fail_msg("%s (%s): %s only with confidence %s", k->group, how, k->cause, got);
}

static void known_causes_from_scores(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_cases); i++) {
		_cleanup_json_ json_object *rec = published_result(known_cases[i].group);
		expect_first(rec, &known_cases[i], "scores alone", "medium");
	}
}

static void known_causes_with_environment(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_cases); i++) {
		_cleanup_json_ json_object *rec = published_result(known_cases[i].group);
		json_object_object_del(rec, "imported");
		result_env(rec, known_cases[i].env);
		result_merge(rec, known_cases[i].run);
		expect_first(rec, &known_cases[i], "with environment", "high");
	}
}

/*
 * Whole probe records of the synthetic fixture roots (tests/fixtures/roots)
 * as the environment of the published case they resemble: the rules read
 * the keys the probe really writes. The roots are not the published
 * machines (the Raspberry Pi's workdir is on its SD card, the TCG guest is
 * an x86 one), so only the cause and its confidence are compared.
 */
static void fixture_roots_as_environment(void **state)
{
	static const struct {
		const char *root, *group, *cause;
	} cases[] = {
		{ "rpi4-undervoltage", "rpi4-native-undervoltage", "diag.undervoltage" },
		{ "rk3568-emmc-el2", "rk3568-native-disk", "diag.storage-bound-workdir" },
		{ "qemu-tcg-x86", "rk3568-qemu-tcg", "diag.software-emulation" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_json_ json_object *rec = published_result(cases[i].group);
		json_object_object_del(rec, "imported");
		jset(jchild(rec, "environment"), "before", probe_fixture(cases[i].root, NULL));
		_cleanup_json_ json_object *report = report_of(rec, cases[i].group);
		_cleanup_free_ char *all = causes_text(report);
		if (!streq_ptr(cause_id(report, 0), cases[i].cause) || !streq(cause_confidence(report, 0), "high"))
			fail_msg("%s with %s: %s", cases[i].group, cases[i].root, all);
	}
}

/* Published runs without a known fault, and what their machine was. */
static const struct {
	const char *group, *env;
} healthy_cases[] = {
	{ "rk3568-native-tmpfs", env_bare_tmpfs }, { "rpi4-native-goodpower", env_bare_tmpfs },
	{ "ft2000-devshm", env_bare_tmpfs },	   { "xeon-x5650", env_bare_tmpfs },
	{ "rk3568-qemu-kvm", env_kvm_guest },	   { "rpi4-qemu-kvm", env_kvm_guest },
	{ "rpi4-qemu-kvm-ubuntu-host", env_kvm_guest },
};

static void expect_quiet(json_object *rec, const char *group, const char *how)
{
	_cleanup_json_ json_object *report = report_of(rec, group);
	_cleanup_free_ char *all = causes_text(report);
	for (size_t i = 0; i < jpath_len(report, "causes"); i++)
		if (!streq(cause_confidence(report, i), "low"))
			fail_msg("%s (%s) is healthy, yet: %s", group, how, all);
	assert_true(jpath_len(report, "normal") >= 3);
}

static void healthy_runs_raise_nothing(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(healthy_cases); i++) {
		_cleanup_json_ json_object *rec = published_result(healthy_cases[i].group);
		expect_quiet(rec, healthy_cases[i].group, "scores alone");
		json_object_object_del(rec, "imported");
		result_env(rec, healthy_cases[i].env);
		result_merge(rec, SAMPLED_QUIET);
		expect_quiet(rec, healthy_cases[i].group, "with environment");
	}
}

/* A file of the published corpus imported as a person would import it:
 * its first cause, at that confidence, saying that. */
static void expect_first_cause(const char *file, const char *cause, const char *confidence, const char *says)
{
	_cleanup_free_ char *path = xasprintf("%s/tests/fixtures/unixbench-published/%s", SRCDIR, file);
	_cleanup_free_ char *error = NULL;
	json_object *records = NULL;
	struct ub_import_opts o = { .source = path };
	if (ub_import_file(path, &o, &records, NULL, &error) < 0)
		fail_msg("%s: %s", file, error);
	_cleanup_json_ json_object *all = records;
	assert_int_equal(json_object_array_length(all), 1);
	_cleanup_json_ json_object *report = report_of(json_object_array_get_idx(all, 0), NULL);
	_cleanup_free_ char *text = causes_text(report);
	if (!streq_ptr(cause_id(report, 0), cause) || !streq(cause_confidence(report, 0), confidence))
		fail_msg("%s: %s", file, text);
	const char *reason = jpath_str(json_object_array_get_idx(jpath(report, "causes"), 0), "reason");
	if (!reason || !strstr(reason, says))
		fail_msg("%s: %s", file, reason ?: "no reason");
}

/*
 * Published sources that name their cause (tests/fixtures/unixbench-published):
 * byte-unixbench issue 87 (fstime at 1 to 32 copies, all copies on dummy0
 * and dummy1) and pull request 85 (File Copy at 1 and 160 copies, one read
 * and one write file for all copies): the copies' contention comes first.
 */
static void sources_naming_their_cause(void **state)
{
	expect_first_cause("kdlucas-issue87.txt", "diag.filecopy-copies", "medium", "less at 16 copies than at 1 copy");
	expect_first_cause("kdlucas-pr85.txt", "diag.filecopy-copies", "medium", "less at 160 copies than at 1 copy");
}

/*
 * Published runs whose numbers show what went wrong though their sources
 * do not say: a 4.1-wht report whose Process Creation printed 1.0 lps
 * (index 0.0), and Teddysun's 2-CPU OpenVZ container whose 2 copies run
 * Dhrystone no faster than one.
 */
static void published_symptoms_named(void **state)
{
	expect_first_cause("jolestar-ramhost-41wht.md", "diag.test-failed", "high",
			   "Process Creation scored almost nothing");
	expect_first_cause("teddysun-unixbench-openvz.md", "diag.copies-no-gain", "high",
			   "2 copies on 2 CPUs run Dhrystone 2 no faster than 1 copy");
}

/* The environment can clear a suspect: the same disk-shaped scores from a
 * tmpfs workdir are not blamed on storage. */
static void environment_overrules_shape(void **state)
{
	_cleanup_json_ json_object *rec = published_result("rk3568-native-disk");
	result_env(rec, env_bare_tmpfs);
	_cleanup_json_ json_object *report = report_of(rec, "rk3568-native-disk");
	for (size_t i = 0; i < jpath_len(report, "causes"); i++)
		assert_false(streq(cause_id(report, i), "diag.storage-bound-workdir"));
	json_object *normal = jpath(report, "normal");
	bool said = false;
	for (size_t i = 0; i < jpath_len(report, "normal"); i++)
		said |= streq_ptr(jpath_str(json_object_array_get_idx(normal, i), "id"), "diag.storage-bound-workdir");
	assert_true(said);
}

/* ---- the report ---- */

static void imported_log_says_what_it_could_not_check(void **state)
{
	_cleanup_json_ json_object *rec = published_result("rk3568-native-tmpfs");
	_cleanup_json_ json_object *report = report_of(rec, "rk3568-native-tmpfs");
	json_object *nc = jpath(report, "not_checked");
	bool governor = false, build = false;
	for (size_t i = 0; i < jpath_len(report, "not_checked"); i++) {
		json_object *o = json_object_array_get_idx(nc, i);
		const char *text = jpath_str(o, "text");
		governor |= streq_ptr(jpath_str(o, "id"), "diag.governor") && strstr(text, "imported log");
		build |= streq_ptr(jpath_str(o, "id"), "diag.build-flags") && strstr(text, "imported log");
	}
	assert_true(governor);
	assert_true(build);
	bool env = true;
	assert_true(jpath_bool(report, "result.environment", &env));
	assert_false(env);
}

static void references_and_expected_ranges(void **state)
{
	_cleanup_json_ json_object *rec = published_result("rk3568-native-disk");
	_cleanup_json_ json_object *report = report_of(rec, "rk3568-native-disk");
	/* 1 copy and 4 copies, each against the tmpfs run of the same board */
	assert_int_equal(jpath_len(report, "references"), 2);
	assert_jstr(report, "references.0.runs.0.id", "rk3568-native-tmpfs-c1");
	assert_jstr(report, "references.1.runs.0.id", "rk3568-native-tmpfs-c4");
	json_object *tests = jpath(report, "references.0.tests");
	bool fc = false;
	for (size_t i = 0; i < jpath_len(report, "references.0.tests"); i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		double ratio, lo;
		assert_true(jpath_double(t, "ratio", &ratio));
		if (streq_ptr(jpath_str(t, "test"), "fstime")) {
			assert_true(jpath_double(t, "expected_low", &lo));
			assert_float_equal(lo, 724.4, 0.05);
			assert_float_equal(ratio, 0.31, 0.005);
			fc = true;
		} else if (streq_ptr(jpath_str(t, "test"), "dhry2reg")) {
			assert_float_equal(ratio, 0.99, 0.011);
		}
	}
	assert_true(fc);
	/* the fix brings File Copy to the tmpfs run's level at this board's speed */
	json_object *gains = jpath(report, "causes.0.gains");
	assert_true(jpath_len(report, "causes.0.gains") >= 3);
	json_object *g = json_object_array_get_idx(gains, 0);
	assert_jstr(g, "test", "fstime");
	double expected;
	assert_true(jpath_double(g, "expected", &expected));
	assert_in_range((long)expected, 690, 760);
	double after;
	assert_true(jpath_double(report, "causes.0.score.0.expected", &after));
	assert_in_range((long)after, 395, 430); /* the tmpfs run: 418.2 */
}

/* Undervoltage and the generic poor scaling fire with the same confidence
 * on the same tests: the specific cause goes first. */
static void generic_after_specific(void **state)
{
	_cleanup_json_ json_object *rec = published_result("rpi4-native-undervoltage");
	_cleanup_json_ json_object *report = report_of(rec, "rpi4-native-undervoltage");
	_cleanup_free_ char *all = causes_text(report);
	assert_jstr(report, "causes.0.id", "diag.undervoltage");
	size_t generic = 0;
	for (size_t i = 0; i < jpath_len(report, "causes"); i++)
		if (streq(cause_id(report, i), "diag.poor-scaling"))
			generic = i;
	if (generic == 0)
		fail_msg("poor scaling not reported: %s", all);
	assert_jstr(report, "summary",
		    "Score 356.9 (1 copy) / 515.2 (4 copies) on 4 × Cortex-A72; 4 copies scale 1.44× on 4 CPUs, "
		    "published runs of this CPU 3.10×");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_causes_from_scores),
		cmocka_unit_test(known_causes_with_environment),
		cmocka_unit_test(healthy_runs_raise_nothing),
		cmocka_unit_test(sources_naming_their_cause), cmocka_unit_test(published_symptoms_named),
		cmocka_unit_test(environment_overrules_shape),
		cmocka_unit_test(fixture_roots_as_environment),
		cmocka_unit_test(imported_log_says_what_it_could_not_check),
		cmocka_unit_test(references_and_expected_ranges),
		cmocka_unit_test(generic_after_specific),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
