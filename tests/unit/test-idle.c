/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Idle states and devfreq clocks: read from the RK3568 root, and the
 * findings they raise on record literals. */
#include "probe/cpu.h"
#include "probe/power.h"
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

/* The lines the report prints for idle states, cpufreq and devfreq, from
 * the decoded record: each fact as the record has it, unknown ones left out. */
static void renders(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		"{\"cpu\": {\"freq\": {\"boost\": false, \"epp\": \"balance_power\", \"epb\": 8, \"policies\": ["
		"{\"cpus\": \"0-3\", \"driver\": \"cpufreq-dt\", \"governor\": \"schedutil\", \"min_khz\": 408000, "
		"\"max_khz\": 1800000, \"cur_khz\": 1416000}, "
		"{\"cpus\": \"4-5\", \"driver\": \"cpufreq-dt\", \"governor\": \"schedutil\", \"max_khz\": 2352000, "
		"\"cur_khz\": 408000}, "
		"{\"cpus\": \"6-7\", \"driver\": \"cpufreq-dt\", \"governor\": \"schedutil\", \"max_khz\": 2352000, "
		"\"cur_khz\": 2352000}]}, "
		"\"idle\": {\"driver\": \"psci_idle\", \"states\": [{\"name\": \"WFI\", \"latency_us\": 1}, "
		"{\"name\": \"cpu-sleep\", \"latency_us\": 150, \"disabled\": true}, {\"latency_us\": null}]}}, "
		"\"power\": {\"devfreq\": [{\"name\": \"dmc\", \"kind\": \"memory\", \"governor\": \"dmc_ondemand\", "
		"\"cur_hz\": 528000000, \"max_hz\": 2112000000}, {\"name\": \"fb000000.gpu\", \"cur_hz\": null}]}}");
	_cleanup_free_ char *idle = render_text(idle_render, rec);
	assert_non_null(strstr(idle, "idle: psci_idle · WFI 1 µs, cpu-sleep 150 µs (disabled), ?\n"));
	_cleanup_free_ char *freq = render_text(cpufreq_render, rec);
	assert_non_null(strstr(freq, "CPUs 0-3: cpufreq-dt, governor schedutil, 408–1800 MHz, now 1416 MHz\n"));
	assert_non_null(strstr(freq, "CPUs 4-7: cpufreq-dt, governor schedutil, up to 2352 MHz, now 408–2352 MHz · "
				     "boost off · EPP balance_power · EPB 8\n"));
	struct env_record env;
	struct buf b = {0};
	env_of(rec, "the test", &env);
	devfreq_render(&env, &b);
	assert_string_equal(b.s, "devfreq: dmc (memory) dmc_ondemand 528 MHz of 2112 · fb000000.gpu");
	buf_free(&b);
	env_record_free(&env);

	/* no cpuidle and no cpufreq at all */
	_cleanup_json_ json_object *none = json_lit("{\"cpu\": {\"freq\": {\"policies\": []}, \"idle\": {}}}");
	_cleanup_free_ char *no_idle = render_text(idle_render, none);
	assert_string_equal(no_idle, "");
	_cleanup_free_ char *no_freq = render_text(cpufreq_render, none);
	assert_non_null(strstr(no_freq, "no cpufreq interface"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rk3568_root),
		cmocka_unit_test(idle_findings),
		cmocka_unit_test(devfreq_findings),
		cmocka_unit_test(renders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
