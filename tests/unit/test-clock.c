/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measured clock: its arithmetic, a measurement on this machine (what
 * it returns, not how fast: timings belong to make bench-clock), a CPU it
 * may not run on, the record in a dump, the report line and the findings.
 */
#include <errno.h>
#include <sched.h>

#include "lib/hw.h"
#include "lib/term.h"
#include "probe/cpu.h"
#include "probe/findings.h"
#include "probetest.h"

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
	return render_text(clock_render, rec);
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

/* Intel's P- and E-cores share a model name: the real hybrid dump tells
 * them by base frequency (as hwloc's cpukinds do), a kernel with hybrid
 * PMUs by /sys/devices/cpu_core and cpu_atom. */
static void hybrid_kinds(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("hwloc-20em64t-hybrid-1p6c2t+2ca4co1t", NULL);
	assert_int_equal(jpath_len(rec, "cpu.kinds"), 2);
	assert_jstr(rec, "cpu.kinds.0.cpus", "0-11");
	assert_jstr(rec, "cpu.kinds.0.core_type", "performance");
	assert_int_equal(jint(rec, "cpu.kinds.0.cores"), 6);
	assert_int_equal(jint(rec, "cpu.kinds.0.threads"), 12);
	assert_jstr(rec, "cpu.kinds.1.cpus", "12-19");
	assert_jstr(rec, "cpu.kinds.1.core_type", "efficiency");
	assert_int_equal(jint(rec, "cpu.kinds.1.cores"), 8);
	assert_int_equal(jint(rec, "cpu.kinds.1.measured_cpu"), 12);
	bool fast;
	assert_true(jpath_bool(rec, "cpu.kinds.0.fastest", &fast) && fast);
	assert_true(jpath_bool(rec, "cpu.kinds.1.fastest", &fast) && !fast);
	/* one model for both: the name is said once */
	assert_jstr(rec, "cpu.model", "13th Gen Intel(R) Core(TM) i7-1370P");

	char *r = tmproot_new();
	struct buf ci = {0};
	for (int c = 0; c < 4; c++)
		buf_printf(&ci, "processor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Core(TM) Ultra 7 155H\n\n", c);
	tmproot_write(r, "proc/cpuinfo", ci.s);
	buf_free(&ci);
	tmproot_write(r, "sys/devices/system/cpu/online", "0-3");
	tmproot_write(r, "sys/devices/cpu_core/cpus", "2-3");
	tmproot_write(r, "sys/devices/cpu_atom/cpus", "0-1");
	_cleanup_json_ json_object *pmu = probe_root(r, NULL);
	assert_int_equal(jpath_len(pmu, "cpu.kinds"), 2);
	assert_jstr(pmu, "cpu.kinds.0.cpus", "0-1"); /* in CPU order */
	assert_jstr(pmu, "cpu.kinds.0.core_type", "efficiency");
	assert_jstr(pmu, "cpu.kinds.1.core_type", "performance");
	tmproot_free(r);

	/* big.LITTLE by MIDR; the fastest kind by capacity */
	_cleanup_json_ json_object *arm = probe_fixture("util-linux-arm-A510-A710-A715-X3", NULL);
	size_t fastest = 0, n = jpath_len(arm, "cpu.kinds");
	for (size_t i = 0; i < n; i++) {
		json_object *k = json_object_array_get_idx(jpath(arm, "cpu.kinds"), i);
		assert_jnull(k, "core_type");
		if (jpath_bool(k, "fastest", &fast) && fast) {
			fastest++;
			assert_jstr(k, "model", "Cortex-X3");
			assert_int_equal(jint(k, "capacity"), 1024);
		}
	}
	assert_int_equal(fastest, 1);
}

/* EPP per policy and the x86 EPB, read from a root, and their findings. */
static void energy_preference(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n\n"
					 "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n\n");
	tmproot_write(r, "sys/devices/system/cpu/online", "0-1");
	for (int c = 0; c < 2; c++) {
		_cleanup_free_ char *pol = xasprintf("sys/devices/system/cpu/cpufreq/policy%d/", c);
		_cleanup_free_ char *cpus = xasprintf("%s/related_cpus", pol), *gov = xasprintf("%s/scaling_governor", pol);
		_cleanup_free_ char *epp = xasprintf("%s/energy_performance_preference", pol);
		_cleanup_free_ char *avail = xasprintf("%s/energy_performance_available_preferences", pol);
		_cleanup_free_ char *drv = xasprintf("%s/scaling_driver", pol);
		_cleanup_free_ char *epb = xasprintf("sys/devices/system/cpu/cpu%d/power/energy_perf_bias", c);
		_cleanup_free_ char *n = xasprintf("%d", c);
		tmproot_write(r, cpus, n);
		tmproot_write(r, gov, "powersave");
		tmproot_write(r, drv, "intel_pstate");
		tmproot_write(r, epp, c ? "balance_power" : "balance_performance");
		tmproot_write(r, avail, "default performance balance_performance balance_power power");
		tmproot_write(r, epb, c ? "8" : "6");
	}
	_cleanup_json_ json_object *rec = probe_root(r, NULL);
	tmproot_free(r);
	assert_jstr(rec, "cpu.freq.epp", "mixed");
	assert_jstr(rec, "cpu.freq.policies.1.epp", "balance_power");
	assert_int_equal(jpath_len(rec, "cpu.freq.policies.0.epp_available"), 5);
	/* the most power-saving bias, where it was read */
	assert_int_equal(jint(rec, "cpu.freq.epb"), 8);
	assert_jstr(rec, "cpu.freq.epb_source", "/sys/devices/system/cpu/cpu1/power/energy_perf_bias");
	bool mixed;
	assert_true(jpath_bool(rec, "cpu.freq.epb_mixed", &mixed) && mixed);

	struct finding f;
	const char *json = json_object_to_json_string(rec);
	assert_true(run_rule("cpu.epp-power-saving", json, &f));
	assert_true(strstr(f.evidence, "policy1/energy_performance_preference = balance_power") != NULL);
	finding_clear(&f);
	assert_true(run_rule("cpu.epb-power-saving", json, &f));
	assert_string_equal(f.evidence,
			    "/sys/devices/system/cpu/cpu1/power/energy_perf_bias = 8 (0 performance, 6 normal, 15 power)");
	finding_clear(&f);
	/* normal and balance_performance are the kernel's defaults: nothing said */
	assert_false(run_rule("cpu.epb-power-saving", "{\"cpu\": {\"freq\": {\"epb\": 6}}}", &f));
	assert_false(run_rule("cpu.epp-power-saving",
			      "{\"cpu\": {\"freq\": {\"policies\": [{\"epp\": \"balance_performance\"}]}}}", &f));
}

/* A gathered dump keeps what the live probe measured, or why it could not. */
static void recorded_in_a_dump(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n\n");
	tmproot_write(r, "sys/devices/system/cpu/online", "0");
	tmproot_write(r, ".ubtune/gather", "version=0.1.0\nclock-cpu0=2993000\n");
	_cleanup_json_ json_object *rec = probe_root(r, NULL);
	assert_int_equal(jint(rec, "cpu.kinds.0.measured_khz"), 2993000);
	assert_false(unavailable_mentions(rec, "cpu", "measured clock"));
	tmproot_write(r, ".ubtune/gather", "version=0.1.0\nclock-why-cpu0=CPU 0 is outside this process's CPU set\n");
	_cleanup_json_ json_object *why = probe_root(r, NULL);
	tmproot_free(r);
	assert_jnull(why, "cpu.kinds.0.measured_khz");
	assert_true(unavailable_mentions(why, "cpu", "measured clock of Xeon: CPU 0 is outside this process's CPU set"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clock_arithmetic),
		cmocka_unit_test(measure_here),
		cmocka_unit_test(not_in_a_dump),
		cmocka_unit_test(report_line),
		cmocka_unit_test(clock_findings),
		cmocka_unit_test(hybrid_kinds),
		cmocka_unit_test(energy_preference),
		cmocka_unit_test(recorded_in_a_dump),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
