/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every CPU finding rule on record literals. */
#include "probe/findings.h"
#include "testlib.h"

/* ---- rules on record literals ---- */

static bool run_rule(const char *id, const char *json, struct finding *f)
{
	const struct rule *r = rule_lookup(id);
	assert_non_null(r);
	_cleanup_json_ json_object *rec = json_lit(json);
	return rule_run(r, rec, f);
}

#define POLICIES(driver, g0, g1)                                                                            \
	"{\"cpu\": {\"freq\": {\"driver\": \"" driver "\", \"policies\": ["                                   \
	"{\"path\": \"/sys/devices/system/cpu/cpufreq/policy0\", \"driver\": \"" driver "\", \"governor\": " g0 "}," \
	"{\"path\": \"/sys/devices/system/cpu/cpufreq/policy4\", \"driver\": \"" driver "\", \"governor\": " g1 "}]}}}"

static void rule_governors(void **state)
{
	static const char *const named[] = { "powersave", "ondemand", "schedutil", "conservative", "userspace" };
	struct finding f;
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		_cleanup_free_ char *id = xasprintf("cpu.governor.%s", named[i]);
		_cleanup_free_ char *rec = xasprintf(POLICIES("cpufreq-dt", "\"performance\"", "\"%s\""), named[i]);
		_cleanup_free_ char *evidence = xasprintf("/sys/devices/system/cpu/cpufreq/policy4/scaling_governor = %s",
							  named[i]);
		assert_true(run_rule(id, rec, &f));
		assert_string_equal(f.evidence, evidence);
		assert_int_equal(f.severity, SEV_WARN);
		assert_non_null(strstr(f.fix, "cpupower frequency-set -g performance"));
		assert_non_null(strstr(f.fix, "ubtune apply generic.profile"));
		finding_clear(&f);
		/* a named governor is not "other" */
		assert_false(run_rule("cpu.governor.other", rec, &f));
	}
	const char *perf = POLICIES("acpi-cpufreq", "\"performance\"", "\"performance\"");
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		_cleanup_free_ char *id = xasprintf("cpu.governor.%s", named[i]);
		assert_false(run_rule(id, perf, &f));
	}
	assert_false(run_rule("cpu.governor.other", perf, &f));
	/* an unreadable governor is no finding */
	assert_false(run_rule("cpu.governor.other", POLICIES("cpufreq-dt", "null", "null"), &f));
	assert_false(run_rule("cpu.governor.other", "{\"cpu\": {\"freq\": {\"policies\": []}}}", &f));

	assert_true(run_rule("cpu.governor.other", POLICIES("qcom-cpufreq-hw", "\"walt\"", "\"walt\""), &f));
	assert_string_equal(f.evidence,
			    "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor = walt (and 1 more of 2 policies)");
	assert_non_null(strstr(f.message, "walt"));
	finding_clear(&f);

	/* powersave of the pstate drivers is their dynamic governor: said so */
	assert_true(run_rule("cpu.governor.powersave", POLICIES("intel_pstate", "\"powersave\"", "\"powersave\""), &f));
	assert_non_null(strstr(f.message, "intel_pstate's powersave is its dynamic governor"));
	finding_clear(&f);
	assert_true(run_rule("cpu.governor.powersave", POLICIES("cpufreq-dt", "\"powersave\"", "\"performance\""), &f));
	assert_null(strstr(f.message, "dynamic"));
	finding_clear(&f);
}

static void rule_boost_off(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.boost-off",
			     "{\"cpu\": {\"freq\": {\"boost\": false, \"boost_available\": null, "
			     "\"boost_source\": \"/sys/devices/system/cpu/intel_pstate/no_turbo\"}}}",
			     &f));
	assert_string_equal(f.evidence, "/sys/devices/system/cpu/intel_pstate/no_turbo = 1");
	assert_string_equal(f.fix, "as root: echo 0 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	finding_clear(&f);
	assert_true(run_rule("cpu.boost-off",
			     "{\"cpu\": {\"freq\": {\"boost\": false, \"boost_available\": true, "
			     "\"boost_source\": \"/sys/devices/system/cpu/cpufreq/boost\"}}}",
			     &f));
	assert_string_equal(f.evidence, "/sys/devices/system/cpu/cpufreq/boost = 0");
	assert_string_equal(f.fix, "as root: echo 1 > /sys/devices/system/cpu/cpufreq/boost");
	finding_clear(&f);
	/* on, unknown, or nothing above the nominal clock to switch on */
	assert_false(run_rule("cpu.boost-off",
			      "{\"cpu\": {\"freq\": {\"boost\": true, \"boost_source\": \"/sys/devices/system/cpu/cpufreq/boost\"}}}",
			      &f));
	assert_false(run_rule("cpu.boost-off", "{\"cpu\": {\"freq\": {\"boost\": null, \"boost_source\": null}}}", &f));
	assert_false(run_rule("cpu.boost-off",
			      "{\"cpu\": {\"freq\": {\"boost\": false, \"boost_available\": false, "
			      "\"boost_source\": \"/sys/devices/system/cpu/cpufreq/boost\"}}}",
			      &f));
}

static void rule_max_freq_capped(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.max-freq-capped",
			     "{\"cpu\": {\"freq\": {\"boost\": true, \"policies\": ["
			     "{\"path\": \"/sys/devices/system/cpu/cpufreq/policy0\", \"max_khz\": 2016000, \"cpuinfo_max_khz\": 2016000},"
			     "{\"path\": \"/sys/devices/system/cpu/cpufreq/policy7\", \"max_khz\": 998400, \"cpuinfo_max_khz\": 3187200}]}}}",
			     &f));
	assert_string_equal(f.evidence, "/sys/devices/system/cpu/cpufreq/policy7/scaling_max_freq = 998400, "
					"cpuinfo_max_freq = 3187200");
	assert_non_null(strstr(f.fix, "policy7/cpuinfo_max_freq > /sys/devices/system/cpu/cpufreq/policy7/scaling_max_freq"));
	finding_clear(&f);
	/* within 1 %, unknown limits, or boost off (its own finding) */
	assert_false(run_rule("cpu.max-freq-capped",
			      "{\"cpu\": {\"freq\": {\"policies\": [{\"max_khz\": 2300000, \"cpuinfo_max_khz\": 2310000},"
			      "{\"max_khz\": null, \"cpuinfo_max_khz\": 1805000}]}}}",
			      &f));
	assert_false(run_rule("cpu.max-freq-capped",
			      "{\"cpu\": {\"freq\": {\"boost\": false, \"policies\": [{\"max_khz\": 1000000, "
			      "\"cpuinfo_max_khz\": 3000000}]}}}",
			      &f));
}

static void rule_mitigations(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.mitigations",
			     "{\"cpu\": {\"vulnerabilities\": {\"meltdown\": \"Not affected\", "
			     "\"spectre_v1\": \"Mitigation: __user pointer sanitization\", "
			     "\"spectre_v2\": \"Mitigation: Retpolines\", \"mds\": \"Vulnerable\"}}}",
			     &f));
	assert_string_equal(f.evidence, "/sys/devices/system/cpu/vulnerabilities: spectre_v1, spectre_v2 say Mitigation");
	assert_int_equal(f.severity, SEV_INFO);
	finding_clear(&f);
	assert_false(run_rule("cpu.mitigations",
			      "{\"cpu\": {\"vulnerabilities\": {\"meltdown\": \"Not affected\", \"mds\": \"Vulnerable\"}}}", &f));
	assert_false(run_rule("cpu.mitigations", "{\"cpu\": {\"vulnerabilities\": null}}", &f));
}

static void rule_isolated(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.isolated",
			     "{\"cpu\": {\"isolated\": \"2-3\", \"nohz_full\": \"\", \"isolation_source\": \"/proc/cmdline\"}}", &f));
	assert_string_equal(f.evidence, "/proc/cmdline: isolcpus 2-3, nohz_full none");
	assert_non_null(strstr(f.message, "crowd"));
	finding_clear(&f);
	assert_true(run_rule("cpu.isolated", "{\"cpu\": {\"isolated\": \"\", \"nohz_full\": \"1-7\"}}", &f));
	assert_non_null(strstr(f.message, "CPUs 1-7 run without the periodic tick"));
	finding_clear(&f);
	assert_false(run_rule("cpu.isolated", "{\"cpu\": {\"isolated\": \"\", \"nohz_full\": \"\"}}", &f));
	assert_false(run_rule("cpu.isolated", "{\"cpu\": {\"isolated\": null, \"nohz_full\": null}}", &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_governors),
		cmocka_unit_test(rule_boost_off),
		cmocka_unit_test(rule_max_freq_capped),
		cmocka_unit_test(rule_mitigations),
		cmocka_unit_test(rule_isolated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
