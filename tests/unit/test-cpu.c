/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc/cpuinfo parser, the ARM name table, and every CPU finding rule on record literals. */
#include <errno.h>

#include "probe/cpu.h"
#include "probe/findings.h"
#include "testlib.h"

/* ---- parsers ---- */

static void cpuinfo_layouts(void **state)
{
	struct cpuinfo ci;
	/* 32-bit ARM: the ID block after the processor list describes all of them */
	cpuinfo_parse("Processor\t: ARMv7 Processor rev 4 (v7l)\nprocessor\t: 0\nBogoMIPS\t: 1694.10\n\n"
		      "processor\t: 1\nBogoMIPS\t: 1694.10\n\nCPU implementer\t: 0x41\nCPU architecture: 7\n"
		      "CPU variant\t: 0x0\nCPU part\t: 0xc0f\nCPU revision\t: 4\n\nHardware\t: SAMSUNG EXYNOS5\n",
		      &ci);
	assert_int_equal(ci.n, 2);
	assert_int_equal(ci.cpus[1].processor, 1);
	assert_int_equal(ci.cpus[1].midr.implementer, 0x41);
	assert_int_equal(ci.cpus[1].midr.part, 0xc0f);
	assert_int_equal(ci.cpus[1].midr.revision, 4);
	assert_string_equal(ci.cpus[0].processor_name, "ARMv7 Processor rev 4 (v7l)");
	assert_true(ci.cpus[0].bogomips == 1694.10);
	cpuinfo_free(&ci);

	/* an old uniprocessor kernel: no "processor" line at all */
	cpuinfo_parse("Processor       : ARMv6-compatible processor rev 7 (v6l)\nBogoMIPS        : 697.95\n"
		      "CPU implementer : 0x41\nCPU part        : 0xb76\n",
		      &ci);
	assert_int_equal(ci.n, 1);
	assert_int_equal(ci.cpus[0].processor, 0);
	assert_true(ci.cpus[0].bogomips == 697.95);
	assert_int_equal(ci.cpus[0].midr.part, 0xb76);
	assert_int_equal(ci.cpus[0].midr.variant, -1);
	cpuinfo_free(&ci);

	/* x86, squeezed model name; garbage does not crash or invent values */
	cpuinfo_parse("processor\t: 3\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R)  Xeon(R)   X\n"
		      "physical id\t: x\ncore id\t\t: 2\nbogomips\t: lots\n:\n\n\nprocessor : -1\nno colon here\n"
		      "processor : 99999999\nprocessor : 0x1\n",
		      &ci);
	assert_int_equal(ci.n, 1);
	assert_non_null(cpuinfo_find(&ci, 3));
	assert_null(cpuinfo_find(&ci, 0));
	assert_string_equal(ci.cpus[0].model_name, "Intel(R) Xeon(R) X");
	assert_int_equal(ci.cpus[0].physical_id, -1);
	assert_int_equal(ci.cpus[0].core_id, 2);
	assert_true(ci.cpus[0].bogomips < 0);
	cpuinfo_free(&ci);

	cpuinfo_parse("", &ci);
	assert_int_equal(ci.n, 0);
	cpuinfo_free(&ci);
}

static void midr_register(void **state)
{
	struct midr m;
	assert_int_equal(midr_parse_register("0x00000000410fd851", &m), 0);
	assert_int_equal(m.implementer, 0x41);
	assert_int_equal(m.variant, 0);
	assert_int_equal(m.part, 0xd85);
	assert_int_equal(m.revision, 1);
	assert_int_equal(midr_parse_register("0x00000000701f6622", &m), 0);
	assert_int_equal(m.implementer, 0x70);
	assert_int_equal(m.variant, 1);
	assert_int_equal(m.part, 0x662);
	assert_int_equal(m.revision, 2);
	assert_int_equal(midr_parse_register("410fd851", &m), -EINVAL);
	assert_int_equal(midr_parse_register("0xzz", &m), -EINVAL);
}

static void arm_names(void **state)
{
	static const struct {
		int impl, part;
		const char *model;
	} cases[] = {
		{ 0x70, 0x660, "Phytium FTC660" },      { 0x70, 0x661, "Phytium FTC661" },
		{ 0x70, 0x662, "Phytium FTC662" },      { 0x70, 0x663, "Phytium FTC663" },
		{ 0x70, 0x862, "Phytium FTC862" },      { 0x48, 0xd01, "HiSilicon TSV110 (Kunpeng 920)" },
		{ 0x48, 0xd40, "HiSilicon Cortex-A76" }, { 0x41, 0xd03, "Cortex-A53" },
		{ 0x41, 0xd05, "Cortex-A55" },          { 0x41, 0xd07, "Cortex-A57" },
		{ 0x41, 0xd08, "Cortex-A72" },          { 0x41, 0xd09, "Cortex-A73" },
		{ 0x41, 0xd0a, "Cortex-A75" },          { 0x41, 0xd0b, "Cortex-A76" },
		{ 0x41, 0xd0d, "Cortex-A77" },          { 0x41, 0xd41, "Cortex-A78" },
		{ 0x41, 0xd46, "Cortex-A510" },         { 0x41, 0xd47, "Cortex-A710" },
		{ 0x41, 0xd44, "Cortex-X1" },           { 0x41, 0xd48, "Cortex-X2" },
		{ 0x41, 0xd4d, "Cortex-A715" },         { 0x41, 0xd4e, "Cortex-X3" },
		{ 0x41, 0xd87, "Cortex-A725" },         { 0x41, 0xd85, "Cortex-X925" },
		{ 0x41, 0xd0c, "Neoverse N1" },         { 0x41, 0xd49, "Neoverse N2" },
		{ 0x41, 0xd40, "Neoverse V1" },         { 0x41, 0xd4f, "Neoverse V2" },
		{ 0x41, 0xc0f, "Cortex-A15" },          { 0x41, 0xc07, "Cortex-A7" },
		{ 0xc0, 0xac3, "Ampere Ampere-1" },     { 0xc0, 0xac4, "Ampere Ampere-1A" },
		{ 0x43, 0x0af, "Cavium ThunderX2" },    { 0x42, 0x516, "Broadcom Vulcan" },
		{ 0x61, 0x023, "Apple M1 Firestorm" },  { 0x51, 0x805, "Qualcomm Kryo 4xx Silver" },
		{ 0x4e, 0x004, "NVIDIA Carmel" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct midr m = { cases[i].impl, 0, cases[i].part, 0 };
		bool known;
		_cleanup_free_ char *name = arm_model_name(&m, &known);
		assert_string_equal(name, cases[i].model);
		assert_true(known);
	}
	bool known = true;
	struct midr unknown_part = { 0x41, 0, 0xfff, 0 }, unknown_impl = { 0x99, 0, 0x001, 0 };
	_cleanup_free_ char *a = arm_model_name(&unknown_part, &known);
	assert_string_equal(a, "ARM part 0xfff");
	assert_false(known);
	_cleanup_free_ char *b = arm_model_name(&unknown_impl, &known);
	assert_string_equal(b, "implementer 0x99 part 0x001");
	assert_string_equal(arm_implementer_name(0x70), "Phytium");
	assert_null(arm_implementer_name(0x99));
}

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
		cmocka_unit_test(cpuinfo_layouts),
		cmocka_unit_test(midr_register),
		cmocka_unit_test(arm_names),
		cmocka_unit_test(rule_governors),
		cmocka_unit_test(rule_boost_off),
		cmocka_unit_test(rule_max_freq_capped),
		cmocka_unit_test(rule_mitigations),
		cmocka_unit_test(rule_isolated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
