/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Idle states and devfreq clocks: read from the RK3568 root, and the
 * findings they raise on record literals. */
#include "probe/probe.h"
#include "probetest.h"

static void rk3568_root(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("rk3568-emmc-el2", NULL);
	assert_jstr(rec, "cpu.idle.driver", "arm_idle");
	assert_int_equal(jint(rec, "cpu.idle.deepest_latency_us"), 370);
	assert_int_equal(jpath_len(rec, "cpu.idle.states"), 2);
	assert_jstr(rec, "power.devfreq.0.name", "dmc");
	assert_jstr(rec, "power.devfreq.0.kind", "memory");
	assert_jstr(rec, "power.devfreq.0.governor", "dmc_ondemand");

	struct finding f;
	assert_true(rule_fires("cpu.idle-deep-states", rec, &f));
	assert_string_equal(f.evidence, "cpu0 idle state cpu-sleep (cpu-sleep): exit latency 370 µs; driver arm_idle");
	finding_clear(&f);
	assert_true(rule_fires("memory.devfreq-dynamic", rec, &f));
	assert_string_equal(f.evidence, "/sys/class/devfreq/dmc/governor = dmc_ondemand, cur_freq 324 MHz of max_freq "
					"1056 MHz");
	assert_non_null(strstr(f.fix, "echo performance > /sys/class/devfreq/dmc/governor"));
	finding_clear(&f);
}

static void idle_findings(void **state)
{
	/* the deepest enabled state names the evidence; a disabled deeper one does not count */
	assert_rule("cpu.idle-deep-states",
		    "{\"cpu\": {\"idle\": {\"driver\": \"intel_idle\", \"cpu\": 2, \"deepest_latency_us\": 170, "
		    "\"states\": [{\"name\": \"C1\", \"desc\": \"MWAIT 0x00\", \"latency_us\": 2}, "
		    "{\"name\": \"C6\", \"desc\": \"MWAIT 0x20\", \"latency_us\": 170}, "
		    "{\"name\": \"C10\", \"desc\": \"MWAIT 0x60\", \"latency_us\": 890, \"disabled\": true}]}}}",
		    true, "cpu2 idle state C6 (MWAIT 0x20): exit latency 170 µs; driver intel_idle");
	/* shallow states only: nothing to say */
	assert_rule("cpu.idle-deep-states", "{\"cpu\": {\"idle\": {\"deepest_latency_us\": 2}}}", false, NULL);
	/* no cpuidle (a guest, a dump without it) */
	assert_rule("cpu.idle-deep-states", "{\"cpu\": {\"idle\": {\"deepest_latency_us\": null}}}", false, NULL);
	assert_rule("cpu.idle-deep-states", "{}", false, NULL);
	/* a latency without its state listed */
	assert_rule("cpu.idle-deep-states", "{\"cpu\": {\"idle\": {\"deepest_latency_us\": 300}}}", true,
		    "cpu0 idle state ? (?): exit latency 300 µs; driver unknown");
}

static void devfreq_findings(void **state)
{
	/* held at the top by userspace or performance: fine */
	assert_rule("memory.devfreq-dynamic",
		    "{\"power\": {\"devfreq\": [{\"kind\": \"memory\", \"path\": \"/sys/class/devfreq/dmc\", "
		    "\"governor\": \"performance\", \"cur_hz\": 2112000000, \"max_hz\": 2112000000}]}}",
		    false, NULL);
	assert_rule("memory.devfreq-dynamic",
		    "{\"power\": {\"devfreq\": [{\"kind\": \"memory\", \"path\": \"/sys/class/devfreq/dmc\", "
		    "\"governor\": \"userspace\", \"cur_hz\": 2112000000, \"max_hz\": 2112000000}]}}",
		    false, NULL);
	/* dynamic, at its top now: still said (it drops when idle) */
	assert_rule("memory.devfreq-dynamic",
		    "{\"power\": {\"devfreq\": [{\"kind\": \"memory\", \"path\": \"/sys/class/devfreq/dmc\", "
		    "\"governor\": \"dmc_ondemand\", \"cur_hz\": 2112000000, \"max_hz\": 2112000000}]}}",
		    true, "/sys/class/devfreq/dmc/governor = dmc_ondemand (at its top clock now)");
	/* a GPU's governor is not the memory's */
	assert_rule("memory.devfreq-dynamic",
		    "{\"power\": {\"devfreq\": [{\"kind\": \"gpu\", \"path\": \"/sys/class/devfreq/gpu\", "
		    "\"governor\": \"simple_ondemand\", \"cur_hz\": 200000000, \"max_hz\": 800000000}]}}",
		    false, NULL);
	assert_rule("memory.devfreq-dynamic", "{\"power\": {\"devfreq\": null}}", false, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rk3568_root),
		cmocka_unit_test(idle_findings),
		cmocka_unit_test(devfreq_findings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
