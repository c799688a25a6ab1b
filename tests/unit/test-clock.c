/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measured clock: its arithmetic, a measurement on this machine (what
 * it returns, not how fast: timings belong to make bench-clock), a CPU it
 * may not run on, the record in a dump, the report line and the findings.
 */
#include <errno.h>
#include <sched.h>

#include "lib/hw.h"
#include "probe/cpu.h"
#include "probe/findings.h"
#include "testlib.h"

static void clock_arithmetic(void **state)
{
	/* 64 × 1000 additions more took 32 µs more: 2 GHz */
	assert_int_equal(hw_clock_khz(1000, 32e-6, 64e-6), 2000000);
	/* qemu -icount shift=1: 2 ns per instruction */
	assert_int_equal(hw_clock_khz(4096, 0.000524288, 0.001048576), 500000);
	assert_int_equal(hw_clock_khz(1000, 64e-6, 64e-6), 0);
	assert_int_equal(hw_clock_khz(1000, 64e-6, 32e-6), 0);
	assert_int_equal(hw_clock_khz(0, 0, 1), 0);
}

static void measure_here(void **state)
{
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	unsigned cpu = 0;
	while (!CPU_ISSET(cpu, &set))
		cpu++;
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	assert_int_equal(rootfs_new("/", &rf), 0);
	struct hw_clock c;
	_cleanup_free_ char *why = NULL;
	assert_int_equal(hw_clock_measure(rf, cpu, NULL, &c, &why), 0);
	assert_null(why);
	assert_true(c.khz > 0);
	assert_true(c.ms > 0);
	assert_int_equal(c.cpufreq_khz, 0); /* no policy given */

	/* a CPU this process may not run on (far beyond any online one) */
	struct hw_clock d;
	_cleanup_free_ char *no = NULL;
	assert_int_equal(hw_clock_measure(rf, 4000, NULL, &d, &no), -EPERM);
	assert_non_null(strstr(no, "CPU 4000 is not among the CPUs this process may run on"));
	assert_int_equal(d.khz, 0);
}

static void not_in_a_dump(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("rk3568-emmc-el2", NULL);
	assert_jnull(rec, "cpu.kinds.0.measured_khz");
	assert_int_equal(jint(rec, "cpu.kinds.0.measured_cpu"), 0);
	/* what cpufreq says of the kind is a fact of the dump */
	assert_true(jint(rec, "cpu.kinds.0.max_khz") > 0);
	size_t said = 0;
	json_object *u = jpath(rec, "unavailable");
	for (size_t i = 0; i < jarr_len(u); i++)
		said += strstr(jpath_str(json_object_array_get_idx(u, i), "reason") ?: "",
			       "measured only on the running machine, not in a dump") != NULL;
	assert_int_equal(said, 1);
}

static char *render(const char *json)
{
	_cleanup_json_ json_object *rec = json_lit(json);
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	clock_render(rec, f);
	fclose(f);
	return text;
}

#define KIND(measured, cur) \
	"{\"model\": \"Cortex-A72\", \"cpus\": \"0-3\", \"measured_cpu\": 0, \"measured_khz\": " measured \
	", \"cur_khz\": " cur ", \"max_khz\": 1500000}"

static void report_line(void **state)
{
	_cleanup_free_ char *t = render("{\"cpu\": {\"kinds\": [" KIND("600000", "1500000") "]}}");
	assert_string_equal(t, RENDER_INDENT "Cortex-A72 (CPU 0): 600 MHz measured, cpufreq says 1500 MHz (max 1500 MHz)\n");
	_cleanup_free_ char *g = render("{\"virt\": {\"role\": \"guest\"}, \"cpu\": {\"kinds\": [{\"model\": \"AMD EPYC\", "
					"\"measured_cpu\": 1, \"measured_khz\": 3197400, \"cur_khz\": null, \"max_khz\": null}]}}");
	assert_string_equal(g, RENDER_INDENT "AMD EPYC (CPU 1): 3197.4 MHz measured (a guest: the host's clock, less steal)\n");
	_cleanup_free_ char *none = render("{\"cpu\": {\"kinds\": [" KIND("null", "1500000") "]}}");
	assert_string_equal(none, "");
}

static bool run_rule(const char *id, const char *json, struct finding *f)
{
	const struct rule *r = rule_lookup(id);
	assert_non_null(r);
	_cleanup_json_ json_object *rec = json_lit(json);
	return rule_run(r, rec, f);
}

static void clock_findings(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.clock.slower-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("600000", "1500000") "]}}", &f));
	assert_string_equal(f.evidence, "Cortex-A72: CPU 0 measured at 600 MHz, its policy's scaling_cur_freq = 1500000 (-60 %)");
	assert_int_equal(f.severity, SEV_WARN);
	finding_clear(&f);
	/* within a few percent: the same clock */
	assert_false(run_rule("cpu.clock.slower-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("1460000", "1500000") "]}}", &f));
	assert_false(run_rule("cpu.clock.faster-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("1560000", "1500000") "]}}", &f));
	assert_true(run_rule("cpu.clock.faster-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("1800000", "1500000") "]}}", &f));
	assert_int_equal(f.severity, SEV_INFO);
	finding_clear(&f);
	/* a guest measures its host: said, not flagged */
	assert_false(run_rule("cpu.clock.slower-than-cpufreq",
			      "{\"virt\": {\"role\": \"guest\"}, \"cpu\": {\"kinds\": [" KIND("600000", "1500000") "]}}", &f));
	/* nothing measured (a dump), nothing said by cpufreq */
	assert_false(run_rule("cpu.clock.slower-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("null", "1500000") "]}}", &f));
	assert_false(run_rule("cpu.clock.slower-than-cpufreq", "{\"cpu\": {\"kinds\": [" KIND("600000", "null") "]}}", &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clock_arithmetic),
		cmocka_unit_test(measure_here),
		cmocka_unit_test(not_in_a_dump),
		cmocka_unit_test(report_line),
		cmocka_unit_test(clock_findings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
