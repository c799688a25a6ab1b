/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The diagnosis of what a run's own header says: the load at the start, a
 * debug or realtime kernel, "0 CPUs in system", runlevel 5, SMT and hybrid
 * cores in the scaling expectation, and the x86 clock BogoMIPS implies.
 * Records are built as the importer builds them from a header.
 */
#include "diagtest.h"

/* An imported log's record: the header's partial environment record (env:
 * members merged into it) and runs. */
static json_object *imported(const char *env, const double *one, unsigned many_copies, const double *many)
{
	json_object *rec = result_new();
	jset_bool(rec, "imported", true);
	json_object *before = jchild(jchild(rec, "environment"), "before");
	jset_str(before, "schema", "ubtune.probe/1");
	jset_str(before, "source", "unixbench-header");
	jset(before, "unavailable", json_lit("[{\"area\": \"all\", \"reason\": \"imported\"}]"));
	jset(before, "findings", json_object_new_array());
	if (env) {
		_cleanup_json_ json_object *add = json_lit(env);
		json_merge(before, add);
	}
	if (one)
		result_add_run(rec, 1, one);
	if (many)
		result_add_run(rec, many_copies, many);
	return rec;
}

static void load_at_start(void **state)
{
	(void)state;
	/* a load of 34 on 4 CPUs: a busy machine */
	_cleanup_json_ json_object *busy = imported("{\"host\": {\"load_avg\": [34.0, 30.1, 20.5]}, \"cpu\": {\"threads\": 4}}",
						    healthy1, 4, healthy4);
	jset_int(busy, "online_cpus", 4);
	expect_rule("diag.loaded-at-start", busy, DC_HIGH, "34.00");
	/* one per CPU: medium; half: low */
	_cleanup_json_ json_object *one = imported("{\"host\": {\"load_avg\": [4.2, 1, 1]}}", healthy1, 4, healthy4);
	jset_int(one, "online_cpus", 4);
	expect_rule("diag.loaded-at-start", one, DC_MEDIUM, NULL);
	_cleanup_json_ json_object *some = imported("{\"host\": {\"load_avg\": [2.08, 1, 1]}}", healthy1, 4, healthy4);
	jset_int(some, "online_cpus", 4);
	expect_rule("diag.loaded-at-start", some, DC_LOW, NULL);
	/* what Run's build leaves on a small board, and a big machine after make */
	_cleanup_json_ json_object *after_make = imported("{\"host\": {\"load_avg\": [0.47, 1.99, 7.01]}}", healthy1, 0, NULL);
	jset_int(after_make, "online_cpus", 1);
	expect_rule("diag.loaded-at-start", after_make, DC_NONE, "load average 0.47");
	_cleanup_json_ json_object *big = imported("{\"host\": {\"load_avg\": [1.98, 4.04, 2.38]}}", healthy1, 0, NULL);
	jset_int(big, "online_cpus", 64);
	expect_rule("diag.loaded-at-start", big, DC_NONE, "on 64 CPUs");
	/* no load in the header */
	_cleanup_json_ json_object *none = imported(NULL, healthy1, 0, NULL);
	expect_rule("diag.loaded-at-start", none, DC_NONE, "no load average");
	/* a run of ubtune: the probe's finding covers it */
	_cleanup_json_ json_object *probed = result_new();
	result_add_run(probed, 1, healthy1);
	result_env(probed, "{\"host\": {\"load_avg\": [34.0, 1, 1]}}");
	expect_rule("diag.loaded-at-start", probed, DC_NONE, NULL);
}

static void kernels(void **state)
{
	(void)state;
	_cleanup_json_ json_object *dbg = imported("{\"host\": {\"kernel_release\": \"5.14.0-362.8.1.el9_3.x86_64+debug\"}}",
						   healthy1, 0, NULL);
	expect_rule("diag.debug-kernel", dbg, DC_MEDIUM, "debug build");
	expect_rule("diag.realtime-kernel", dbg, DC_NONE, "not a realtime");
	_cleanup_json_ json_object *dash = imported("{\"host\": {\"kernel_release\": \"6.8.0-debug\"}}", healthy1, 0, NULL);
	expect_rule("diag.debug-kernel", dash, DC_MEDIUM, NULL);
	/* "debian" is no debug build, nor is a version saying "dbg" inside a word */
	_cleanup_json_ json_object *deb = imported("{\"host\": {\"kernel_release\": \"6.1.0-18-amd64\", \"kernel_version\": "
						   "\"#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1\"}}",
						   healthy1, 0, NULL);
	expect_rule("diag.debug-kernel", deb, DC_NONE, "not a debug build");
	expect_rule("diag.realtime-kernel", deb, DC_NONE, NULL);

	_cleanup_json_ json_object *rt = imported("{\"host\": {\"kernel_release\": \"6.1.0-18-rt-amd64\"}}", healthy1, 0, NULL);
	expect_rule("diag.realtime-kernel", rt, DC_LOW, "PREEMPT_RT");
	_cleanup_json_ json_object *rt49 = imported("{\"host\": {\"kernel_release\": \"5.15.65-rt49\"}}", healthy1, 0, NULL);
	expect_rule("diag.realtime-kernel", rt49, DC_LOW, NULL);
	_cleanup_json_ json_object *preempt = imported("{\"host\": {\"kernel_release\": \"6.6.0\", \"kernel_version\": "
						       "\"#1 SMP PREEMPT_RT Tue Jan 2 2024\"}}",
						       healthy1, 0, NULL);
	expect_rule("diag.realtime-kernel", preempt, DC_LOW, NULL);
	/* "starfive", "riscv64", "rockchip" are not -rt */
	_cleanup_json_ json_object *sf = imported("{\"host\": {\"kernel_release\": \"6.6.20-starfive\"}}", healthy1, 0, NULL);
	expect_rule("diag.realtime-kernel", sf, DC_NONE, NULL);
	_cleanup_json_ json_object *rv = imported("{\"host\": {\"kernel_release\": \"6.4.0-10.1.0.20.oe2309.riscv64\"}}",
						  healthy1, 0, NULL);
	expect_rule("diag.realtime-kernel", rv, DC_NONE, NULL);
	_cleanup_json_ json_object *unknown = imported(NULL, healthy1, 0, NULL);
	expect_rule("diag.debug-kernel", unknown, DC_NONE, "release is not known");
}

static void cpus_not_counted(void **state)
{
	(void)state;
	/* "0 CPUs in system" and 1 copy: no multi-copy score */
	_cleanup_json_ json_object *one = imported("{\"unixbench\": {\"cpus_in_system\": 0}}", healthy1, 0, NULL);
	jset_int(jpath(one, "runs.0"), "cpus_in_system", 0);
	expect_rule("diag.cpus-not-counted", one, DC_MEDIUM, "0 CPUs in system");
	/* the copies given with -c: nothing missing */
	_cleanup_json_ json_object *given = imported("{\"unixbench\": {\"cpus_in_system\": 0}}", NULL, 8, healthy4);
	expect_rule("diag.cpus-not-counted", given, DC_NONE, "the copies were given: 8 copies");
	_cleanup_json_ json_object *counted = imported("{\"unixbench\": {\"cpus_in_system\": 4}}", healthy1, 4, healthy4);
	expect_rule("diag.cpus-not-counted", counted, DC_NONE, "Run counted the CPUs");
	/* a log without the line: nothing is said of Run's count */
	_cleanup_json_ json_object *silent = imported("{}", healthy1, 4, healthy4);
	jset_int(silent, "online_cpus", 4);
	expect_rule("diag.cpus-not-counted", silent, DC_NONE, "no 'N CPUs in system' line");
}

static void runlevel(void **state)
{
	(void)state;
	/* runlevel 5 is what systemd reports for graphical.target, the default of
	 * most distributions with or without a display manager: a note only */
	_cleanup_json_ json_object *five = imported("{\"unixbench\": {\"runlevel\": \"5\"}}", healthy1, 0, NULL);
	expect_rule("diag.graphical-session", five, DC_NONE, "default target of systemd distributions");
	_cleanup_json_ json_object *three = imported("{\"unixbench\": {\"runlevel\": \"3\"}}", healthy1, 0, NULL);
	expect_rule("diag.graphical-session", three, DC_NONE, "runlevel 3");
	/* some who(1) print a date where the runlevel goes */
	_cleanup_json_ json_object *date = imported("{\"unixbench\": {\"runlevel\": \"2024-05-11\"}}", healthy1, 0, NULL);
	expect_rule("diag.graphical-session", date, DC_NONE, NULL);
	_cleanup_json_ json_object *none = imported(NULL, healthy1, 0, NULL);
	expect_rule("diag.graphical-session", none, DC_NONE, "no runlevel");
}

/* Indexes of a 1-copy run and of n copies that scale by `speedup` on the CPU tests. */
static void scaled_runs(double one[DIAG_NTESTS], double many[DIAG_NTESTS], double speedup)
{
	for (int t = 0; t < DIAG_NTESTS; t++) {
		one[t] = healthy1[t];
		many[t] = healthy1[t] * ((DT(t) & DT_CPU) ? speedup : 2.0);
	}
}

#define CPU_LINE(model, flags) "{\"model\": \"" model "\", \"bogomips\": 4000, \"flags\": \"" flags "\"}"

static void smt_scaling(void **state)
{
	(void)state;
	double one[DIAG_NTESTS], many[DIAG_NTESTS];
	/* a 2-core/4-thread laptop: 4 copies 2.5× one copy is what two cores
	 * and their siblings give, not poor scaling */
	scaled_runs(one, many, 2.5);
	const char *laptop = "{\"cpu\": {\"arch\": \"x86_64\", \"model\": \"Intel(R) Core(TM) i5-7200U CPU @ 2.50GHz\", "
			     "\"bogomips\": 5000}, \"unixbench\": {\"cpus\": [" CPU_LINE("i5-7200U", "Hyper-Threading, x86-64")
			     "," CPU_LINE("i5-7200U", "Hyper-Threading, x86-64") "," CPU_LINE("i5-7200U", "Hyper-Threading, x86-64")
			     "," CPU_LINE("i5-7200U", "Hyper-Threading, x86-64") "]}}";
	_cleanup_json_ json_object *ht = imported(laptop, one, 4, many);
	jset_int(ht, "online_cpus", 4);
	expect_rule("diag.poor-scaling", ht, DC_NONE, "on 4 threads on 2 cores");
	/* without SMT the same numbers are poor scaling */
	const char *plain = "{\"cpu\": {\"arch\": \"x86_64\"}, \"unixbench\": {\"cpus\": [" CPU_LINE("x", "x86-64") ","
			    CPU_LINE("x", "x86-64") "," CPU_LINE("x", "x86-64") "," CPU_LINE("x", "x86-64") "]}}";
	_cleanup_json_ json_object *flat = imported(plain, one, 4, many);
	jset_int(flat, "online_cpus", 4);
	expect_rule("diag.poor-scaling", flat, DC_MEDIUM, "on 4 CPUs");
	/* the probe's cores and threads say the same */
	_cleanup_json_ json_object *probed = result_new();
	result_add_run(probed, 1, one);
	result_add_run(probed, 4, many);
	jset_int(probed, "online_cpus", 4);
	result_env(probed, "{\"cpu\": {\"arch\": \"x86_64\", \"cores\": 2, \"threads\": 4}}");
	expect_rule("diag.poor-scaling", probed, DC_NONE, "threads on 2 cores");
}

static void hybrid_scaling(void **state)
{
	(void)state;
	double one[DIAG_NTESTS], many[DIAG_NTESTS];
	/* an 8-CPU RK3588: 4 Cortex-A76 and 4 Cortex-A55; 8 copies 5.5× one
	 * copy on a big core is what the two clusters give */
	scaled_runs(one, many, 5.5);
	_cleanup_json_ json_object *rk = result_new();
	result_add_run(rk, 1, one);
	result_add_run(rk, 8, many);
	jset_int(rk, "online_cpus", 8);
	result_env(rk, "{\"cpu\": {\"arch\": \"aarch64\", \"model\": \"Cortex-A55 + Cortex-A76\", \"kinds\": ["
		       "{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\"}, {\"model\": \"Cortex-A76\", \"cpus\": \"4-7\"}]}}");
	expect_rule("diag.poor-scaling", rk, DC_NONE, "4 Cortex-A76 + 4 Cortex-A55");
	/* imported: the CPU lines name the two kinds */
	const char *lines = "{\"cpu\": {\"arch\": \"aarch64\"}, \"unixbench\": {\"cpus\": [" CPU_LINE("ARM Cortex-A55", "")
			    "," CPU_LINE("ARM Cortex-A55", "") "," CPU_LINE("ARM Cortex-A55", "") "," CPU_LINE("ARM Cortex-A55", "")
			    "," CPU_LINE("ARM Cortex-A76", "") "," CPU_LINE("ARM Cortex-A76", "") "," CPU_LINE("ARM Cortex-A76", "")
			    "," CPU_LINE("ARM Cortex-A76", "") "]}}";
	_cleanup_json_ json_object *imp = imported(lines, one, 8, many);
	jset_int(imp, "online_cpus", 8);
	expect_rule("diag.poor-scaling", imp, DC_NONE, "Cortex-A76");
	/* an undervolted board is still poor: 8 copies 2× one copy */
	scaled_runs(one, many, 2.0);
	_cleanup_json_ json_object *low = imported(lines, one, 8, many);
	jset_int(low, "online_cpus", 8);
	expect_rule("diag.poor-scaling", low, DC_MEDIUM, NULL);
}

static void bogomips_clock(void **state)
{
	(void)state;
	/* Dhrystone 350 on an x86 whose BogoMIPS say 2.67 GHz (131 per GHz),
	 * the kernel tests at 6 % of it as under an emulator: not real hardware
	 * speed, though neither alone is slow enough to tell (a CPU no
	 * reference run has: the clock tells) */
	double slow[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++)
		slow[t] = healthy1[t] / 4;
	slow[DT_DHRY] = 350;
	slow[DT_PIPE] = 22;
	slow[DT_SYSCALL] = 18.2;
	const char *w3680 = "{\"cpu\": {\"arch\": \"x86_64\", \"model\": \"Intel(R) Xeon(R) CPU W3680 @ 2.67GHz\", "
			    "\"bogomips\": 5333.6}}";
	_cleanup_json_ json_object *rec = imported(w3680, slow, 0, NULL);
	expect_rule("diag.software-emulation", rec, DC_MEDIUM, "its clock");
	/* the same Dhrystone with the kernel tests at a real CPU's share of it:
	 * a vCPU capped to part of a core (the corpus's Xen guests of a Xeon
	 * E5430), not emulation */
	double capped[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++)
		capped[t] = healthy1[t] / 4;
	capped[DT_DHRY] = 350;
	_cleanup_json_ json_object *xen = imported(w3680, capped, 0, NULL);
	expect_rule("diag.software-emulation", xen, DC_NONE, NULL);
	struct diagnosis d;
	rule_on("diag.software-emulation", rec, &d);
	bool said = false;
	for (size_t i = 0; i < d.evidence.n; i++)
		said |= strstr(d.evidence.v[i], "say 2.67 GHz") != NULL;
	assert_true(said);
	diagnosis_clear(&d);
	/* a published Xeon at 2.6 GHz: 2988 Dhrystone, 1149 per GHz */
	double fast[DIAG_NTESTS];
	memcpy(fast, healthy1, sizeof(fast));
	fast[DT_DHRY] = 2988.3;
	_cleanup_json_ json_object *gce = imported("{\"cpu\": {\"arch\": \"x86_64\", \"bogomips\": 5200}}", fast, 0, NULL);
	expect_rule("diag.software-emulation", gce, DC_NONE, "real hardware speed");
	/* arm64 BogoMIPS is the timer, no clock: not used; 380 per copy is
	 * what a small board and an emulator both reach */
	double arm[DIAG_NTESTS];
	memcpy(arm, healthy1, sizeof(arm));
	arm[DT_DHRY] = 380;
	_cleanup_json_ json_object *board = imported("{\"cpu\": {\"arch\": \"aarch64\", \"bogomips\": 48}}", arm, 0, NULL);
	expect_rule("diag.software-emulation", board, DC_NONE, "fits a slow core and an emulator alike");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(load_at_start), cmocka_unit_test(kernels), cmocka_unit_test(cpus_not_counted),
		cmocka_unit_test(runlevel),	 cmocka_unit_test(smt_scaling), cmocka_unit_test(hybrid_scaling),
		cmocka_unit_test(bogomips_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
