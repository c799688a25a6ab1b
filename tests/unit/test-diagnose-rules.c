/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each diagnosis rule on small records: when it fires and how sure it is,
 * when it says the thing looks normal, when it cannot check. The reference
 * parser and CPU name matching too.
 */
#include <errno.h>

#include "unixbench/catalogue.h"
#include "diagtest.h"

/* A record of runs on a CPU no reference knows: the shape alone counts. */
static json_object *shaped(const double *one, const double *four, unsigned cpus, const char *env)
{
	json_object *rec = result_new();
	if (one)
		result_add_run(rec, 1, one);
	if (four)
		result_add_run(rec, 4, four);
	if (cpus)
		jset_int(rec, "online_cpus", cpus);
	if (env)
		result_env(rec, env);
	return rec;
}

static void scaled(double out[DIAG_NTESTS], const double *in, unsigned mask, double factor)
{
	for (int t = 0; t < DIAG_NTESTS; t++)
		out[t] = in[t] * ((mask & DT(t)) ? factor : 1);
}

static void evidence_has(const char *id, json_object *rec, const char *part)
{
	struct diagnosis d;
	rule_on(id, rec, &d);
	bool found = false;
	for (size_t i = 0; i < d.evidence.n; i++)
		found |= strstr(d.evidence.v[i], part) != NULL;
	if (!found)
		fail_msg("%s: no evidence says \"%s\" (%zu lines)", id, part, d.evidence.n);
	diagnosis_clear(&d);
}

static void evidence_lacks(const char *id, json_object *rec, const char *part)
{
	struct diagnosis d;
	rule_on(id, rec, &d);
	for (size_t i = 0; i < d.evidence.n; i++)
		if (strstr(d.evidence.v[i], part))
			fail_msg("%s: evidence says \"%s\": %s", id, part, d.evidence.v[i]);
	diagnosis_clear(&d);
}

#define BARE_TMPFS "{\"virt\": {\"role\": \"host\"}, \"storage\": {\"mount\": {\"fstype\": \"tmpfs\"}}}"
#define GUEST_KVM "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\"}}"

static void emulation(void **state)
{
	static const double tcg[DIAG_NTESTS] = { 23.5, 14.9, 4.6, 7.2, 4.7, 16.0, 3.5, 1.2, 3.0, 3.4, 10.3, 12.1 };
	_cleanup_json_ json_object *alone = shaped(tcg, NULL, 4, NULL);
	expect_rule("diag.software-emulation", alone, DC_MEDIUM, "emulated in software");
	evidence_has("diag.software-emulation", alone, "Dhrystone 2 23.5");

	/* a guest that nothing shows as KVM: high */
	_cleanup_json_ json_object *qemu = shaped(tcg, NULL, 4, "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"qemu\"}}");
	expect_rule("diag.software-emulation", qemu, DC_HIGH, NULL);
	/* the probe's finding alone is enough */
	_cleanup_json_ json_object *found = shaped(healthy1, NULL, 4,
						   "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"qemu-tcg\"}, "
						   "\"findings\": [{\"id\": \"virt.emulated\", \"severity\": \"warn\", \"evidence\": \"cpuid = TCGTCGTCGTCG\"}]}");
	expect_rule("diag.software-emulation", found, DC_HIGH, NULL);
	evidence_has("diag.software-emulation", found, "TCGTCGTCGTCG");
	/* KVM and bare metal cannot be emulation, however slow */
	_cleanup_json_ json_object *kvm = shaped(tcg, NULL, 4, GUEST_KVM);
	expect_rule("diag.software-emulation", kvm, DC_NONE, "hardware virtualisation");
	_cleanup_json_ json_object *bare = shaped(tcg, NULL, 4, BARE_TMPFS);
	expect_rule("diag.software-emulation", bare, DC_NONE, "bare metal");
	_cleanup_json_ json_object *fine = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.software-emulation", fine, DC_NONE, "real hardware speed");
	/* partial runs: what ran decides */
	double kernel_only[DIAG_NTESTS] = { 0 };
	kernel_only[DT_PIPE] = 3.5;
	kernel_only[DT_SYSCALL] = 3.4;
	_cleanup_json_ json_object *slow_kernel = shaped(kernel_only, NULL, 4, NULL);
	expect_rule("diag.software-emulation", slow_kernel, DC_MEDIUM, NULL);
	evidence_has("diag.software-emulation", slow_kernel, "the pipe and system-call tests 3.4 per copy");
	kernel_only[DT_PIPE] = 394.3;
	kernel_only[DT_SYSCALL] = 497.3;
	_cleanup_json_ json_object *fast_kernel = shaped(kernel_only, NULL, 4, NULL);
	expect_rule("diag.software-emulation", fast_kernel, DC_NONE, "the pipe and system-call tests 442.8 per copy");
	/* a fast host's emulator: plain code at a quarter of real speed, system calls at 2 % */
	static const double fast_tcg[DIAG_NTESTS] = { [DT_DHRY] = 395.0, [DT_PIPE] = 7.9, [DT_SYSCALL] = 8.2 };
	_cleanup_json_ json_object *lopsided = shaped(fast_tcg, NULL, 4, NULL);
	expect_rule("diag.software-emulation", lopsided, DC_MEDIUM, "emulated in software");
	evidence_has("diag.software-emulation", lopsided, "2.0 % of Dhrystone 2 (395.0)");
	/* slow system calls are not emulation when they keep a fair share, but
	 * a Dhrystone that an emulator reaches does not show real hardware */
	static const double slow_calls[DIAG_NTESTS] = { [DT_DHRY] = 150.0, [DT_PIPE] = 18.0, [DT_SYSCALL] = 19.0 };
	_cleanup_json_ json_object *fair = shaped(slow_calls, NULL, 4, NULL);
	expect_rule("diag.software-emulation", fair, DC_NONE, "fits a slow core and an emulator alike");
	/* a whole guest system emulated (qemu-system riscv64): system calls
	 * stay fast, the pipe test's context switches do not */
	static const double guest[DIAG_NTESTS] = { [DT_DHRY] = 219.0, [DT_PIPE] = 12.8, [DT_SYSCALL] = 65.9 };
	_cleanup_json_ json_object *whole = shaped(guest, NULL, 8, NULL);
	expect_rule("diag.software-emulation", whole, DC_MEDIUM, "a whole guest system is emulated");
	evidence_has("diag.software-emulation", whole, "Pipe Throughput 12.8 per copy, 5.8 % of Dhrystone 2 (219.0)");
	/* the slowest real riscv64 board (Allwinner D1): as slow, its pipe test is not */
	static const double d1[DIAG_NTESTS] = { [DT_DHRY] = 264.7, [DT_PIPE] = 119.2, [DT_SYSCALL] = 157.8 };
	_cleanup_json_ json_object *board = shaped(d1, NULL, 1, NULL);
	expect_rule("diag.software-emulation", board, DC_NONE, "fits a slow core and an emulator alike");
	double spawn_only[DIAG_NTESTS] = { [DT_SPAWN] = 178.3 };
	_cleanup_json_ json_object *neither = shaped(spawn_only, NULL, 4, NULL);
	expect_rule("diag.software-emulation", neither, DC_NONE, "neither Dhrystone nor");
}

static void storage(void **state)
{
	double disk[DIAG_NTESTS];
	scaled(disk, healthy1, DT_FILECOPY, 0.3);
	_cleanup_json_ json_object *alone = shaped(disk, NULL, 4, NULL);
	expect_rule("diag.storage-bound-workdir", alone, DC_MEDIUM, "File Copy is low");
	evidence_has("diag.storage-bound-workdir", alone, "the pipe and system-call tests");
	/* a disk workdir confirms it */
	_cleanup_json_ json_object *on_disk = shaped(disk, NULL, 4,
						     "{\"storage\": {\"workdir\": \"/home/pi/ub\", \"mount\": {\"fstype\": "
						     "\"ext4\", \"source\": \"/dev/mmcblk0p2\"}, \"device\": {\"kind\": \"mmc\"}}, "
						     "\"findings\": [{\"id\": \"storage.slow-medium\", \"severity\": \"warn\", \"evidence\": "
						     "\"/sys/block/mmcblk0/device/type = SD\"}]}");
	expect_rule("diag.storage-bound-workdir", on_disk, DC_HIGH, NULL);
	evidence_has("diag.storage-bound-workdir", on_disk, "workdir /home/pi/ub: ext4 on /dev/mmcblk0p2 (mmc)");
	evidence_has("diag.storage-bound-workdir", on_disk, "device/type = SD");
	/* a tmpfs workdir clears it, whatever the scores */
	_cleanup_json_ json_object *tmpfs = shaped(disk, NULL, 4, BARE_TMPFS);
	expect_rule("diag.storage-bound-workdir", tmpfs, DC_NONE, "workdir on tmpfs");
	/* a bit low: a hint only */
	double slow[DIAG_NTESTS];
	scaled(slow, healthy1, DT_FILECOPY, 0.65);
	_cleanup_json_ json_object *hint = shaped(slow, NULL, 4, NULL);
	expect_rule("diag.storage-bound-workdir", hint, DC_LOW, NULL);
	_cleanup_json_ json_object *fine = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.storage-bound-workdir", fine, DC_NONE, "File Copy 1.70×");
	/* without a 1-copy run nor references there is nothing to compare */
	_cleanup_json_ json_object *four = shaped(NULL, healthy4, 4, NULL);
	expect_rule("diag.storage-bound-workdir", four, DC_NONE, "no 1-copy run");
}

/* The undervolted Raspberry Pi 4: 1 copy fine, 4 copies capped. */
static const double pi1[DIAG_NTESTS] = { 1645.5, 586.5, 263.4, 479.9, 345.0, 897.5,
					 147.0,  94.3,  158.5, 85.3,  793.8, 759.0 };
static const double pi4[DIAG_NTESTS] = { 2316.3, 1085.6, 358.0, 720.9, 484.8, 1377.0,
					 207.3,  113.9,  390.9, 119.1, 882.1, 832.9 };
#define PI_BOARD "{\"cpu\": {\"model\": \"Test A72\", \"arch\": \"aarch64\"}, \"virt\": {\"role\": \"host\"}}"

static void undervoltage(void **state)
{
	_cleanup_json_ json_object *alone = shaped(pi1, pi4, 4, PI_BOARD);
	expect_rule("diag.undervoltage", alone, DC_MEDIUM, "supply that sags");
	evidence_has("diag.undervoltage", alone, "35 % of 4 × its 1-copy 1645.5");
	evidence_has("diag.undervoltage", alone, "Shell Scripts (8 concurrent) 759.0");
	/* the same shape on a 4-CPU x86 machine is not a supply's */
	_cleanup_json_ json_object *x86 = shaped(pi1, pi4, 4, "{\"cpu\": {\"arch\": \"x86_64\"}}");
	expect_rule("diag.undervoltage", x86, DC_NONE, NULL);
	/* an alarm during the run is direct evidence */
	_cleanup_json_ json_object *alarm = shaped(healthy1, healthy4, 4, PI_BOARD);
	result_merge(alarm, "{\"sampler\": {\"sources\": {\"hwmon_alarms\": 1}}, \"events\": [{\"kind\": "
			    "\"undervoltage\", \"test\": \"pipe\", \"copies\": 4, \"message\": \"undervoltage alarm "
			    "raised at 12:03:14 during Pipe Throughput, 4 copies\"}]}");
	expect_rule("diag.undervoltage", alarm, DC_HIGH, "sagged during the run");
	evidence_has("diag.undervoltage", alarm, "during the run: undervoltage alarm raised at 12:03:14");
	/* the kernel logged it since boot: high with the shape, low without */
	const char *since = "{\"findings\": [{\"id\": \"power.undervoltage-since-boot\", \"severity\": \"warn\", \"evidence\": \"kernel log: 3 × "
			    "Undervoltage detected!\"}]}";
	_cleanup_json_ json_object *logged = shaped(pi1, pi4, 4, PI_BOARD);
	result_env(logged, since);
	expect_rule("diag.undervoltage", logged, DC_HIGH, NULL);
	_cleanup_json_ json_object *logged_fine = shaped(healthy1, healthy4, 4, PI_BOARD);
	result_env(logged_fine, since);
	expect_rule("diag.undervoltage", logged_fine, DC_LOW, NULL);
	/* the sampler watched the voltage alarm and it never rose */
	_cleanup_json_ json_object *watched = shaped(pi1, pi4, 4, PI_BOARD);
	result_merge(watched, "{\"sampler\": {\"sources\": {\"hwmon_alarms\": 1}}, \"events\": []}");
	expect_rule("diag.undervoltage", watched, DC_NONE, "no undervoltage during the run");
	/* an x86 server's clean kernel log is no news */
	_cleanup_json_ json_object *server = shaped(healthy1, healthy4, 4, "{\"cpu\": {\"arch\": \"x86_64\"}}");
	jset(jchild(server, "environment"), "after", json_lit("{\"power\": {\"undervoltage_events\": 0}}"));
	struct diagnosis d;
	rule_on("diag.undervoltage", server, &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	assert_null(d.unchecked);
	diagnosis_clear(&d);
}

static void thermal(void **state)
{
	/* Dhrystone (first) scales, Whetstone (later) much less: heat building up */
	double worse[DIAG_NTESTS];
	scaled(worse, healthy4, DT(DT_WHET), 0.6);
	_cleanup_json_ json_object *alone = shaped(healthy1, worse, 4, NULL);
	expect_rule("diag.thermal-throttling", alone, DC_LOW, "heat builds up");
	_cleanup_json_ json_object *hot = shaped(healthy1, healthy4, 4, NULL);
	result_merge(hot, "{\"sampler\": {\"max_temp_mc\": 86000}, \"events\": [{\"kind\": \"thermal\", \"copies\": 4, "
			  "\"message\": \"temperature reached 86.0 °C (cpu-thermal, trip 85.0 °C)\"}]}");
	expect_rule("diag.thermal-throttling", hot, DC_HIGH, "throttled");
	_cleanup_json_ json_object *cool = shaped(healthy1, healthy4, 4, NULL);
	result_merge(cool, "{\"sampler\": {\"max_temp_mc\": 61800}, \"events\": []}");
	expect_rule("diag.thermal-throttling", cool, DC_NONE, "hottest 61.8 °C");
	_cleanup_json_ json_object *counters = shaped(pi1, pi4, 4, "{\"findings\": [{\"id\": \"power.throttled\", \"severity\": \"warn\"}]}");
	expect_rule("diag.thermal-throttling", counters, DC_MEDIUM, NULL);
}

static void scaling(void **state)
{
	_cleanup_json_ json_object *poor = shaped(pi1, pi4, 4, NULL);
	expect_rule("diag.poor-scaling", poor, DC_MEDIUM, "1.61× as fast as 1 copy on 4 CPUs");
	double mild[DIAG_NTESTS];
	scaled(mild, healthy4, DT_CPU, 0.8);
	_cleanup_json_ json_object *some = shaped(healthy1, mild, 4, NULL);
	expect_rule("diag.poor-scaling", some, DC_LOW, NULL);
	_cleanup_json_ json_object *fine = shaped(healthy1, healthy4, 4, NULL);
	expect_rule("diag.poor-scaling", fine, DC_NONE, "3.90× as fast as 1 copy on 4 CPUs");
	_cleanup_json_ json_object *one = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.poor-scaling", one, DC_NONE, "only 1 copy was run");
	_cleanup_json_ json_object *many = shaped(NULL, healthy4, 4, NULL);
	expect_rule("diag.poor-scaling", many, DC_NONE, "no 1-copy run");
	double no_cpu1[DIAG_NTESTS], no_cpu4[DIAG_NTESTS];
	scaled(no_cpu1, healthy1, DT_CPU, 0);
	scaled(no_cpu4, healthy4, DT_CPU, 0);
	_cleanup_json_ json_object *partial = shaped(no_cpu1, no_cpu4, 4, NULL);
	expect_rule("diag.poor-scaling", partial, DC_NONE, "did not run at both copy counts");
}

static void copies(void **state)
{
	_cleanup_json_ json_object *capped = shaped(healthy1, NULL, 0, NULL);
	result_add_run(capped, 16, healthy4);
	jset_int(capped, "online_cpus", 64);
	expect_rule("diag.copies-capped", capped, DC_HIGH, "16 copies on 64 CPUs");
	evidence_has("diag.copies-capped", capped, "UnixBench 5.1.3's cap");
	/* 5.1.3 above 16 copies: the run is there, its tests are not */
	_cleanup_json_ json_object *skipped = shaped(healthy1, NULL, 64, NULL);
	result_add_run(skipped, 64, (double[DIAG_NTESTS]){ 0 });
	expect_rule("diag.copies-capped", skipped, DC_HIGH, "skips them above 16 copies");
	_cleanup_json_ json_object *full = shaped(healthy1, healthy4, 4, NULL);
	expect_rule("diag.copies-capped", full, DC_NONE, "copies = online CPUs (4)");
	_cleanup_json_ json_object *unknown = shaped(healthy1, healthy4, 0, NULL);
	expect_rule("diag.copies-capped", unknown, DC_NONE, "not recorded");
}

static void cpu_quota(void **state)
{
	/* throttled while the tests ran: named with the time it took */
	_cleanup_json_ json_object *held = shaped(healthy1, healthy4, 8,
						  "{\"cgroup\": {\"version\": 2, \"cpu_quota_cpus\": 0.5, \"cpus\": 1}}");
	result_merge(held, "{\"sampler\": {\"throttled_s\": 412.5, \"sources\": {\"cgroup\": \"/sys/fs/cgroup\"}}, "
			   "\"events\": [{\"kind\": \"cpu-quota\", \"duration_s\": 31.0, \"message\": \"the cgroup's "
			   "CPU quota held ubtune's processes back for 15.5 s in 310 periods during Dhrystone 2 using "
			   "register variables, 1 copy\"}]}");
	expect_rule("diag.cpu-quota", held, DC_HIGH, "stopped the tests");
	evidence_has("diag.cpu-quota", held, "held back 412.5 s in all");
	evidence_has("diag.cpu-quota", held, "for 15.5 s in 310 periods");
	/* a quota below one CPU: even 1 copy would double */
	struct diagnosis d;
	rule_on("diag.cpu-quota", held, &d);
	assert_true(d.ngains > 0);
	assert_int_equal(d.gains[0].copies, 1);
	assert_float_equal(d.gains[0].expected, 2 * d.gains[0].now, 1e-6);
	diagnosis_clear(&d);
	/* the probe's finding alone */
	_cleanup_json_ json_object *found = shaped(healthy1, healthy4, 8,
						   "{\"cgroup\": {\"version\": 2, \"cpu_quota_cpus\": 2, \"cpus\": 2}, "
						   "\"findings\": [{\"id\": \"cgroup.cpu-quota\", \"severity\": \"warn\", "
						   "\"evidence\": \"/sys/fs/cgroup/cpu.max = 200000 100000 (2 CPUs) of 8 online\"}]}");
	expect_rule("diag.cpu-quota", found, DC_MEDIUM, "below the CPUs online");
	evidence_has("diag.cpu-quota", found, "200000 100000");
	/* a cgroup without a quota looks normal; a record without cgroup facts says nothing */
	_cleanup_json_ json_object *free_ = shaped(healthy1, healthy4, 4, "{\"cgroup\": {\"version\": 2, \"cpus\": 4}}");
	expect_rule("diag.cpu-quota", free_, DC_NONE, "no CPU quota on ubtune's cgroup");
	_cleanup_json_ json_object *old = shaped(healthy1, healthy4, 4, NULL);
	rule_on("diag.cpu-quota", old, &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	assert_null(d.unchecked);
	diagnosis_clear(&d);

	/* copies that follow the cgroup are not "fewer copies than CPUs" */
	_cleanup_json_ json_object *follow = shaped(healthy1, NULL, 8, "{\"cgroup\": {\"version\": 2, \"cpus\": 4}}");
	result_add_run(follow, 4, healthy4);
	expect_rule("diag.copies-capped", follow, DC_NONE, "the 4 CPUs ubtune's cgroup allows (of 8 online)");
}

static void governor(void **state)
{
	const char *powersave = "{\"cpu\": {\"freq\": {\"driver\": \"cpufreq-dt\", \"governor\": \"powersave\"}}, "
				"\"findings\": [{\"id\": \"cpu.governor.powersave\", \"severity\": \"warn\", \"evidence\": "
				"\"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor = powersave\", "
				"\"fix\": \"ubtune apply generic.profile\"}]}";
	_cleanup_json_ json_object *ps = shaped(healthy1, healthy4, 4, powersave);
	expect_rule("diag.governor", ps, DC_MEDIUM, "governor powersave");
	evidence_has("diag.governor", ps, "scaling_governor = powersave");
	/* low clocks sampled while one copy ran prove it */
	_cleanup_json_ json_object *low = shaped(healthy1, healthy4, 4, powersave);
	result_merge(low, "{\"sampler\": {}, \"events\": [{\"kind\": \"low-clock\", \"copies\": 1, \"message\": "
			  "\"CPU 0 ran at 408 MHz of 1992 for 60 s during Dhrystone 2 using register variables, 1 copy\"}]}");
	expect_rule("diag.governor", low, DC_HIGH, NULL);
	/* intel_pstate's powersave is dynamic */
	_cleanup_json_ json_object *pstate = shaped(healthy1, healthy4, 4, powersave);
	result_env(pstate, "{\"cpu\": {\"freq\": {\"driver\": \"intel_pstate\"}}}");
	expect_rule("diag.governor", pstate, DC_LOW, NULL);
	_cleanup_json_ json_object *od = shaped(healthy1, healthy4, 4,
						"{\"cpu\": {\"freq\": {\"governor\": \"ondemand\"}}, \"findings\": "
						"[{\"id\": \"cpu.governor.ondemand\", \"severity\": \"warn\"}]}");
	expect_rule("diag.governor", od, DC_LOW, "ondemand");
	_cleanup_json_ json_object *perf = shaped(healthy1, healthy4, 4,
						  "{\"cpu\": {\"freq\": {\"governor\": \"performance\"}}}");
	expect_rule("diag.governor", perf, DC_NONE, "governor performance");
	_cleanup_json_ json_object *none = shaped(healthy1, healthy4, 4, "{\"cpu\": {\"freq\": {\"governor\": null}}}");
	expect_rule("diag.governor", none, DC_NONE, "the firmware sets the clock");
	_cleanup_json_ json_object *vm = shaped(healthy1, healthy4, 4, GUEST_KVM);
	expect_rule("diag.governor", vm, DC_NONE, "the host sets the clock");
	_cleanup_json_ json_object *imported = shaped(healthy1, healthy4, 4, NULL);
	jset_bool(imported, "imported", true);
	expect_rule("diag.governor", imported, DC_NONE, "not in an imported log");
	/* the laptop root: intel_pstate's powersave costs little, the battery more */
	_cleanup_json_ json_object *laptop = shaped(healthy1, healthy4, 8, NULL);
	jset(jchild(laptop, "environment"), "before", probe_fixture("laptop-battery-powersave", NULL));
	expect_rule("diag.governor", laptop, DC_MEDIUM, "while the tests run: governor powersave, on battery");
	evidence_has("diag.governor", laptop, "finding power.on-battery: /sys/class/power_supply/");
}

static void build_flags(void **state)
{
	_cleanup_json_ json_object *o2 = shaped(healthy1, healthy4, 4, NULL);
	result_merge(o2, "{\"build\": {\"cc\": \"gcc\", \"cc_version\": \"gcc (Debian 12.2.0-14) 12.2.0\", "
			 "\"cflags\": \"-O2 -fomit-frame-pointer -ffast-math\"}}");
	expect_rule("diag.build-flags", o2, DC_LOW, "without -O3");
	evidence_has("diag.build-flags", o2, "gcc (Debian 12.2.0-14) 12.2.0 -O2");
	/* and Dhrystone/Whetstone below the same CPU's published runs while
	 * the kernel tests match */
	_cleanup_json_ json_object *low = published_result("rk3568-native-tmpfs");
	json_object_object_del(low, "imported");
	json_object *dhry = jpath(low, "runs.0.tests.0"), *whet = jpath(low, "runs.0.tests.1");
	jset_double(dhry, "index", 1032.4 * 0.85);
	jset_double(whet, "index", 496.2 * 0.85);
	result_merge(low, "{\"build\": {\"cflags\": \"-O3\"}}");
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(diag_case_init(&c, low, published_refs(), "rk3568-native-tmpfs", &error), 0);
	struct diagnosis d;
	diag_rule_run(diag_rule_lookup("diag.build-flags"), &c, &d);
	assert_int_equal(d.confidence, DC_MEDIUM);
	assert_non_null(strstr(d.reason, "-march/-mcpu/-mtune"));
	diagnosis_clear(&d);
	diag_case_free(&c);

	_cleanup_json_ json_object *good = shaped(healthy1, healthy4, 4, NULL);
	result_merge(good, "{\"build\": {\"cflags\": \"-O3 -ffast-math -march=native -mtune=native\"}}");
	expect_rule("diag.build-flags", good, DC_NONE, "built with -O3");
	_cleanup_json_ json_object *imported = shaped(healthy1, healthy4, 4, NULL);
	jset_bool(imported, "imported", true);
	expect_rule("diag.build-flags", imported, DC_NONE, "an imported log does not record them");
	_cleanup_json_ json_object *defaults = shaped(healthy1, healthy4, 4, NULL);
	result_merge(defaults, "{\"build\": {\"cc\": \"gcc\", \"cflags\": null}}");
	expect_rule("diag.build-flags", defaults, DC_NONE, "default flags");
}

static void busy(void **state)
{
	_cleanup_json_ json_object *others = shaped(healthy1, healthy4, 4, NULL);
	result_merge(others, "{\"sampler\": {}, \"events\": [{\"kind\": \"others\", \"duration_s\": 30.0, \"message\": "
			     "\"other processes used 95 % of a CPU for 30 s during Dhrystone 2 using register "
			     "variables, 1 copy; busiest: cc1 (pid 4242)\"}]}");
	expect_rule("diag.busy-machine", others, DC_HIGH, "while the tests ran");
	evidence_has("diag.busy-machine", others, "busiest: cc1 (pid 4242)");
	_cleanup_json_ json_object *pre = shaped(healthy1, healthy4, 4, NULL);
	result_merge(pre, "{\"preflight\": {\"busy\": true, \"cpu_pct\": 35.0}}");
	expect_rule("diag.busy-machine", pre, DC_MEDIUM, "when the run started");
	evidence_has("diag.busy-machine", pre, "35 % of all CPUs busy");
	_cleanup_json_ json_object *noisy = shaped(healthy1, healthy4, 4,
						   "{\"findings\": [{\"id\": \"services.noisy\", \"severity\": \"warn\", \"evidence\": \"irqbalance.service "
						   "active\"}]}");
	expect_rule("diag.busy-machine", noisy, DC_LOW, NULL);
	_cleanup_json_ json_object *quiet = shaped(healthy1, healthy4, 4, NULL);
	result_merge(quiet, "{\"sampler\": {}, \"events\": []}");
	expect_rule("diag.busy-machine", quiet, DC_NONE, "no other process");
}

static void swapping(void **state)
{
	_cleanup_json_ json_object *swap = shaped(healthy1, healthy4, 4, NULL);
	result_merge(swap, "{\"sampler\": {}, \"events\": [{\"kind\": \"swap\", \"message\": \"swapping started at "
			   "12:03:14 during Shell Scripts (8 concurrent), 4 copies: 1200 pages in, 3400 out over 12 s\"}]}");
	expect_rule("diag.swapping", swap, DC_HIGH, "swapped during the run");
	_cleanup_json_ json_object *used = shaped(healthy1, healthy4, 4, "{\"findings\": [{\"id\": \"memory.swap-in-use\", \"severity\": \"warn\"}]}");
	expect_rule("diag.swapping", used, DC_LOW, NULL);
	_cleanup_json_ json_object *none = shaped(healthy1, healthy4, 4, NULL);
	result_merge(none, "{\"sampler\": {}, \"events\": []}");
	expect_rule("diag.swapping", none, DC_NONE, "no swapping");
}

static void vmm(void **state)
{
	double collapsed[DIAG_NTESTS];
	scaled(collapsed, healthy1, DT(DT_SPAWN), 0.11);
	_cleanup_json_ json_object *alone = shaped(collapsed, NULL, 4, NULL);
	expect_rule("diag.vmm-process-creation", alone, DC_MEDIUM, "Process Creation collapses");
	_cleanup_json_ json_object *guest = shaped(collapsed, NULL, 4,
						   "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"unknown\"}}");
	expect_rule("diag.vmm-process-creation", guest, DC_HIGH, NULL);
	evidence_has("diag.vmm-process-creation", guest, "a guest of a hypervisor not identified");
	_cleanup_json_ json_object *bare = shaped(collapsed, NULL, 4, BARE_TMPFS);
	expect_rule("diag.vmm-process-creation", bare, DC_NONE, "bare metal");
	_cleanup_json_ json_object *fine = shaped(healthy1, NULL, 4, GUEST_KVM);
	expect_rule("diag.vmm-process-creation", fine, DC_NONE, "Process Creation 0.40×");
}

static void overcommit(void **state)
{
	double collapsed[DIAG_NTESTS];
	scaled(collapsed, healthy4, DT(DT_CTX), 0.25);
	_cleanup_json_ json_object *alone = shaped(healthy1, collapsed, 4, NULL);
	expect_rule("diag.vcpu-overcommit", alone, DC_MEDIUM, "preempted by the host");
	evidence_has("diag.vcpu-overcommit", alone, "0.080× Pipe Throughput");
	_cleanup_json_ json_object *guest = shaped(healthy1, collapsed, 4, GUEST_KVM);
	expect_rule("diag.vcpu-overcommit", guest, DC_HIGH, NULL);
	_cleanup_json_ json_object *steal = shaped(healthy1, healthy4, 4, GUEST_KVM);
	result_merge(steal, "{\"sampler\": {}, \"events\": [{\"kind\": \"steal\", \"copies\": 4, \"message\": \"steal "
			    "time 23 % for 40 s during Pipe-based Context Switching, 4 copies\"}]}");
	expect_rule("diag.vcpu-overcommit", steal, DC_HIGH, NULL);
	evidence_has("diag.vcpu-overcommit", steal, "steal time 23 %");
	_cleanup_json_ json_object *since = shaped(healthy1, healthy4, 4,
						   "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\"}, \"findings\": "
						   "[{\"id\": \"virt.steal\", \"severity\": \"warn\", \"evidence\": \"/proc/stat steal = 8.0 %\"}]}");
	expect_rule("diag.vcpu-overcommit", since, DC_LOW, NULL);
	_cleanup_json_ json_object *bare = shaped(healthy1, collapsed, 4, BARE_TMPFS);
	expect_rule("diag.vcpu-overcommit", bare, DC_NONE, "bare metal");
	_cleanup_json_ json_object *quiet = shaped(healthy1, healthy4, 4, GUEST_KVM);
	result_merge(quiet, "{\"sampler\": {}, \"events\": []}");
	expect_rule("diag.vcpu-overcommit", quiet, DC_NONE, "no steal time");
}

/* More copies of File Copy doing less than one: the copies contend. */
static void filecopy_copies(void **state)
{
	/* the 4-copy File Copy tests at 0.4 of the 1-copy ones, as fstime on 32 CPUs */
	double four[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++)
		four[t] = (DT_FILECOPY & DT(t)) ? healthy1[t] * 0.4 : healthy4[t];
	_cleanup_json_ json_object *fall = shaped(healthy1, four, 4, NULL);
	expect_rule("diag.filecopy-copies", fall, DC_MEDIUM, "less at 4 copies than at 1 copy");
	evidence_has("diag.filecopy-copies", fall, "File Copy 1024: ");
	evidence_has("diag.filecopy-copies", fall, "File Copy 256: ");
	evidence_has("diag.filecopy-copies", fall, "File Copy 4096: ");
	/* one File Copy test that keeps up (4096 at 1.08×, as the PerfKitBenchmarker
	 * sample's 8 copies): the fall is only a sign */
	double mixed[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++)
		mixed[t] = t == DT_FC4K ? healthy1[t] * 1.08 : four[t];
	_cleanup_json_ json_object *some = shaped(healthy1, mixed, 4, NULL);
	expect_rule("diag.filecopy-copies", some, DC_LOW, "less at 4 copies than at 1 copy");
	evidence_has("diag.filecopy-copies", some, "File Copy 256: ");
	/* only the tests that fall are evidence */
	evidence_lacks("diag.filecopy-copies", some, "File Copy 4096: ");
	/* copies that add up: normal */
	_cleanup_json_ json_object *good = shaped(healthy1, healthy4, 4, NULL);
	expect_rule("diag.filecopy-copies", good, DC_NONE, "File Copy at 4 copies: 1.83× its 1-copy index");
	/* one copy only: nothing to say */
	_cleanup_json_ json_object *single = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.filecopy-copies", single, DC_NONE, NULL);
}

/* N copies no faster than one on N CPUs: the copies shared one CPU. */
static void copies_no_gain(void **state)
{
	/* the 2-CPU OpenVZ container of Teddysun's sample run: Dhrystone and the
	 * kernel tests at 0.98-1.01× of 1 copy, Whetstone (CPU time) 1.99× */
	static const double one[DIAG_NTESTS] = { 1471.5, 472.8, 965.8, 1572.6, 1043.1, 2100.4,
						 1138.4, 516.3, 680.0, 1019.0, 742.0, 880.5 };
	static const double two[DIAG_NTESTS] = { 1444.0, 942.3, 953.9, 1604.2, 1054.0, 2103.4,
						 1115.2, 490.7, 864.3, 1025.7, 960.8, 917.5 };
	_cleanup_json_ json_object *flat = result_new();
	result_add_run(flat, 1, one);
	result_add_run(flat, 2, two);
	jset_int(flat, "online_cpus", 2);
	expect_rule("diag.copies-no-gain", flat, DC_MEDIUM, "2 copies on 2 CPUs run Dhrystone 2 no faster than 1 copy");
	evidence_has("diag.copies-no-gain", flat, "Pipe Throughput 0.98× and System Call Overhead 1.01×");
	evidence_has("diag.copies-no-gain", flat, "Whetstone 1.99×");
	/* its OpenVZ kernel: a container with a CPU limit */
	result_env(flat, "{\"host\": {\"kernel_release\": \"2.6.32-042stab076.8\"}}");
	expect_rule("diag.copies-no-gain", flat, DC_HIGH, NULL);
	evidence_has("diag.copies-no-gain", flat, "an OpenVZ kernel");
	/* Dhrystone alone flat, the kernel tests gain: only a sign */
	double some[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++)
		some[t] = t == DT_DHRY ? healthy1[t] : healthy4[t];
	_cleanup_json_ json_object *dhry = shaped(healthy1, some, 4, NULL);
	expect_rule("diag.copies-no-gain", dhry, DC_LOW, "4 copies on 4 CPUs");
	evidence_lacks("diag.copies-no-gain", dhry, "Pipe Throughput");
	/* copies that add up, one CPU for two copies, CPUs not known: silent */
	_cleanup_json_ json_object *fine = shaped(healthy1, healthy4, 4, NULL);
	expect_rule("diag.copies-no-gain", fine, DC_NONE, NULL);
	_cleanup_json_ json_object *uni = shaped(healthy1, healthy1, 1, NULL);
	expect_rule("diag.copies-no-gain", uni, DC_NONE, NULL);
	_cleanup_json_ json_object *unknown = shaped(healthy1, healthy1, 0, NULL);
	expect_rule("diag.copies-no-gain", unknown, DC_NONE, NULL);
}

/* A test that scored almost nothing: it failed, and is named. */
static void test_failed(void **state)
{
	/* a printed index of 0.0, as Process Creation's 1.0 lps in a 4.1-wht report */
	_cleanup_json_ json_object *zero = shaped(healthy1, NULL, 0, NULL);
	json_object *spawn = json_object_new_object();
	jset_str(spawn, "id", "spawn");
	jset_double(spawn, "result", 1.0);
	jset_double(spawn, "index", 0.0);
	json_object *tests = jpath(zero, "runs.0.tests");
	for (size_t i = 0; i < json_object_array_length(tests); i++)
		if (streq(json_object_get_string(jpath(json_object_array_get_idx(tests, i), "id")), "spawn"))
			json_object_array_del_idx(tests, i, 1);
	json_object_array_add(tests, spawn);
	expect_rule("diag.test-failed", zero, DC_HIGH, "Process Creation scored almost nothing");
	evidence_has("diag.test-failed", zero, "1 copy: Process Creation index 0.0, 0.00 %");
	/* a hundredth of the rest, in the multi-copy run only */
	double broken[DIAG_NTESTS];
	scaled(broken, healthy4, DT(DT_SH8), 0.005);
	_cleanup_json_ json_object *shell = shaped(healthy1, broken, 4, NULL);
	expect_rule("diag.test-failed", shell, DC_HIGH, "Shell Scripts 8 scored almost nothing");
	evidence_has("diag.test-failed", shell, "4 copies: Shell Scripts 8 index");
	evidence_lacks("diag.test-failed", shell, "1 copy:");
	/* the lowest test of a published run, a Context Switching collapse at 0.043× the rest: not a failure */
	double collapse[DIAG_NTESTS];
	scaled(collapse, healthy1, DT(DT_CTX), 0.1);
	_cleanup_json_ json_object *low = shaped(collapse, NULL, 4, NULL);
	expect_rule("diag.test-failed", low, DC_NONE, NULL);
	/* a partial run of two tests: nothing to compare with */
	double two[DIAG_NTESTS] = { 0 };
	two[DT_DHRY] = 1000.0;
	two[DT_PIPE] = 1.0;
	_cleanup_json_ json_object *partial = shaped(two, NULL, 4, NULL);
	expect_rule("diag.test-failed", partial, DC_NONE, NULL);
}

static void context_switch(void **state)
{
	double slow[DIAG_NTESTS];
	scaled(slow, healthy1, DT(DT_CTX), 0.6);
	_cleanup_json_ json_object *alone = shaped(slow, NULL, 4, NULL);
	expect_rule("diag.context-switch", alone, DC_LOW, "crosses CPUs");
	_cleanup_json_ json_object *gov = shaped(slow, NULL, 4, "{\"findings\": [{\"id\": \"cpu.governor.ondemand\", \"severity\": \"warn\"}]}");
	expect_rule("diag.context-switch", gov, DC_MEDIUM, NULL);
	/* 0.066×: far below every published bare-metal run, but where a fifth of
	 * healthy KVM guests are: medium on bare metal only */
	double collapsed1[DIAG_NTESTS];
	scaled(collapsed1, healthy1, DT(DT_CTX), 0.3);
	_cleanup_json_ json_object *far = shaped(collapsed1, NULL, 4, BARE_TMPFS);
	expect_rule("diag.context-switch", far, DC_MEDIUM, NULL);
	_cleanup_json_ json_object *kvm = shaped(collapsed1, NULL, 4, GUEST_KVM);
	expect_rule("diag.context-switch", kvm, DC_LOW, NULL);
	_cleanup_json_ json_object *unsaid = shaped(collapsed1, NULL, 4, NULL);
	expect_rule("diag.context-switch", unsaid, DC_LOW, NULL);
	/* below every published guest too */
	double lowest[DIAG_NTESTS];
	scaled(lowest, healthy1, DT(DT_CTX), 0.15);
	_cleanup_json_ json_object *below = shaped(lowest, NULL, 4, GUEST_KVM);
	expect_rule("diag.context-switch", below, DC_MEDIUM, NULL);
	double collapsed[DIAG_NTESTS];
	scaled(collapsed, healthy4, DT(DT_CTX), 0.25);
	_cleanup_json_ json_object *multi = shaped(healthy1, collapsed, 4, NULL);
	expect_rule("diag.context-switch", multi, DC_MEDIUM, NULL);
	_cleanup_json_ json_object *fine = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.context-switch", fine, DC_NONE, "0.22× Pipe Throughput");
}

static void shell_only(void **state)
{
	double slow[DIAG_NTESTS];
	scaled(slow, healthy1, DT_SHELL, 0.3);
	_cleanup_json_ json_object *alone = shaped(slow, NULL, 4, NULL);
	expect_rule("diag.shell-only", alone, DC_MEDIUM, "Shell Scripts tests are low");
	double mild[DIAG_NTESTS];
	scaled(mild, healthy1, DT_SHELL, 0.45);
	_cleanup_json_ json_object *hint = shaped(mild, NULL, 4, NULL);
	expect_rule("diag.shell-only", hint, DC_LOW, NULL);
	/* slow storage lowers the shell tests too: then it is not the shell alone */
	double disk[DIAG_NTESTS];
	scaled(disk, slow, DT_FILECOPY, 0.3);
	_cleanup_json_ json_object *also = shaped(disk, NULL, 4, NULL);
	expect_rule("diag.shell-only", also, DC_NONE, NULL);
	_cleanup_json_ json_object *fine = shaped(healthy1, NULL, 4, NULL);
	expect_rule("diag.shell-only", fine, DC_NONE, "2.04× the Execl/Process Creation mean");
}

/* Diagnose's names for the tests are the catalogue's index tests, in its order. */
static void same_tests_as_bench(void **state)
{
	const struct { enum diag_test t; const char *id; } named[] = {
		{ DT_DHRY, "dhry2reg" }, { DT_WHET, "whetstone-double" }, { DT_EXECL, "execl" },
		{ DT_FC1K, "fstime" }, { DT_FC256, "fsbuffer" }, { DT_FC4K, "fsdisk" },
		{ DT_PIPE, "pipe" }, { DT_CTX, "context1" }, { DT_SPAWN, "spawn" },
		{ DT_SYSCALL, "syscall" }, { DT_SH1, "shell1" }, { DT_SH8, "shell8" },
	};
	assert_int_equal(ARRAY_SIZE(named), DIAG_NTESTS);
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		assert_string_equal(ub_tests[named[i].t].id, named[i].id);
		assert_int_equal(diag_test_lookup(named[i].id), named[i].t);
		assert_int_equal(diag_test_lookup(ub_tests[named[i].t].name), named[i].t);
		assert_non_null(ub_tests[named[i].t].label);
	}
	assert_int_equal(diag_test_lookup("Dhrystone 2"), -1);
	assert_int_equal(diag_test_lookup(NULL), -1);
}

/* ---- references ---- */

static void cpu_names(void **state)
{
	assert_true(diag_same_cpu("Cortex-A72", "Cortex-A72"));
	assert_true(diag_same_cpu("Cortex-A55 (emulated)", "Cortex-A55"));
	assert_true(diag_same_cpu("TSV110 (Kunpeng 920)", "HiSilicon Kunpeng 920"));
	assert_true(diag_same_cpu("Phytium FT-2000+/64", "FTC662"));
	assert_true(diag_same_cpu("Intel(R) Xeon(R) CPU           X5650  @ 2.67GHz", "Intel Xeon X5650"));
	assert_false(diag_same_cpu("Cortex-A55", "Cortex-A53"));
	assert_false(diag_same_cpu("Cortex-A55 (emulated)", "Cortex-A72 (emulated)"));
	assert_false(diag_same_cpu("Intel Xeon X5650", "Intel Xeon X5670"));
	assert_false(diag_same_cpu(NULL, "Cortex-A72"));
	assert_false(diag_same_cpu("", ""));
}

static void expect_bad_reference(const char *lit, const char *says)
{
	_cleanup_json_ json_object *doc = json_lit(lit);
	struct diag_refs refs = {0};
	_cleanup_free_ char *error = NULL;
	assert_int_equal(diag_refs_parse(doc, &refs, &error), -EINVAL);
	if (!error || !strstr(error, says))
		fail_msg("error \"%s\" does not say \"%s\"", error ?: "(none)", says);
	diag_refs_free(&refs);
}

static void reference_file(void **state)
{
	struct diag_refs *refs = published_refs();
	assert_true(refs->n >= 31);
	const struct diag_ref *kp = NULL, *disk = NULL, *tcg = NULL, *uv = NULL, *kvmtool = NULL;
	for (size_t i = 0; i < refs->n; i++) {
		const struct diag_ref *r = &refs->v[i];
		if (streq(r->id, "kunpeng920-guest-5.5-before-patch"))
			kp = r;
		else if (streq(r->id, "rk3568-native-disk-c4"))
			disk = r;
		else if (streq(r->id, "rk3568-qemu-tcg-c1"))
			tcg = r;
		else if (streq(r->id, "rpi4-native-undervoltage-c1"))
			uv = r;
		else if (streq(r->id, "rk3568-kvmtool-c1"))
			kvmtool = r;
	}
	assert_non_null(kp);
	/* raw results only: the index comes from the baselines */
	assert_float_equal(kp->run.index[DT_DHRY], 335319028.3 / 116700 * 10, 0.01);
	assert_true(diag_ref_overcommitted(kp));
	assert_false(diag_ref_clean(kp, DT_DHRY));
	assert_string_equal(disk->group, "rk3568-native-disk");
	assert_int_equal(disk->run.copies, 4);
	assert_int_equal(disk->workdir_memory, 0);
	assert_true(diag_ref_clean(disk, DT_DHRY));
	assert_false(diag_ref_clean(disk, DT_FC1K));
	assert_int_equal(tcg->virt, DV_EMULATED);
	assert_true(uv->undervoltage);
	assert_false(diag_ref_clean(uv, DT_DHRY));
	assert_int_equal(kvmtool->virt, DV_GUEST);
	assert_string_equal(kvmtool->vmm, "kvmtool");

	expect_bad_reference("{\"schema\": \"other/1\", \"runs\": []}", "schema is not ubtune.reference/1");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\"}", "runs is not a list");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"runs\": [{\"env\": {}, \"tests\": {}}]}",
			     "run 0 has no id");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"runs\": [{\"id\": \"x-c1\", \"copies\": 1, "
			     "\"env\": {}, \"tests\": {\"Bogus Test\": {\"index\": 1}}}]}",
			     "unknown test 'Bogus Test'");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"runs\": [{\"id\": \"x-c1\", \"copies\": -4, "
			     "\"env\": {}, \"tests\": {}}]}",
			     "positive whole numbers");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"runs\": [{\"id\": \"x-c1\", \"copies\": \"four\", "
			     "\"env\": {}, \"tests\": {}}]}",
			     "runs[0].copies is a string, expected a number");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"runs\": [{\"id\": \"x-c1\", \"copies\": 1, "
			     "\"env\": {\"cores\": \"8\"}, \"tests\": {}}]}",
			     "run x-c1: env.cores is a string, expected a number");
	expect_bad_reference("{\"schema\": \"ubtune.reference/1\", \"baselines\": {}, \"runs\": [{\"id\": \"x-c1\", "
			     "\"copies\": 1, \"env\": {}, \"tests\": {\"Pipe Throughput\": {\"result\": 5}}}]}",
			     "neither an index nor a result and a baseline");
	struct diag_refs none = {0};
	_cleanup_free_ char *error = NULL;
	assert_int_equal(diag_refs_load("/nonexistent/published.json", &none, &error), -ENOENT);
	assert_non_null(strstr(error, "/nonexistent/published.json"));
}

/* A stored result of the same machine becomes a reference of its own. */
static void history_as_reference(void **state)
{
	json_object *env = json_lit("{\"cpu\": {\"model\": \"Test CPU 9000\", \"arch\": \"x86_64\", \"online\": \"0-3\"},"
				    " \"virt\": {\"role\": \"none\"}, \"storage\": {\"mount\": {\"fstype\": \"tmpfs\"}},"
				    " \"findings\": []}");
	_cleanup_json_ json_object *old = result_new();
	result_add_run(old, 1, healthy1);
	jset_str(old, "started_at", "2026-01-02T10:00:00+0100");
	jset_str(old, "host", "bench1");
	jset(jchild(old, "environment"), "before", env);
	struct diag_refs refs = {0};
	diag_refs_add_result(&refs, old, "result 3");
	assert_int_equal(refs.n, 1);
	assert_true(refs.v[0].history);
	assert_int_equal(refs.v[0].workdir_memory, 1);
	assert_int_equal(refs.v[0].cpus, 4);
	assert_string_equal(refs.v[0].description, "your result 3 of 2026-01-02T10:00:00+0100");
	/* another machine with the same CPU: the same host's result is closer */
	jset_str(old, "host", "bench2");
	diag_refs_add_result(&refs, old, "result 4");
	jset_str(old, "host", "bench1");
	assert_int_equal(refs.n, 2);

	double disk[DIAG_NTESTS];
	scaled(disk, healthy1, DT_FILECOPY, 0.5);
	_cleanup_json_ json_object *now = result_new();
	result_add_run(now, 1, disk);
	jset_str(now, "host", "bench1");
	jset(jchild(now, "environment"), "before", json_object_get(env));
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(diag_case_init(&c, now, &refs, NULL, &error), 0);
	assert_int_equal(c.match[0].n, 1);
	assert_float_equal(diag_vs_ref(&c, &c.runs[0], DT_FILECOPY), 0.5, 1e-9);
	_cleanup_json_ json_object *report = diagnose(&c);
	assert_jstr(report, "references.0.runs.0.id", "result 3-c1");
	diag_case_free(&c);
	diag_refs_free(&refs);
}

/* A record diagnose refuses, and the message that says why. */
static void expect_refused(const char *text, const char *message)
{
	_cleanup_json_ json_object *rec = json_lit(text);
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(diag_case_init(&c, rec, NULL, NULL, &error), -EINVAL);
	if (!strstr(error, message))
		fail_msg("\"%s\" does not say \"%s\"", error, message);
}

static void bad_results(void **state)
{
	struct diag_case c;
	char *error = NULL;
	expect_refused("{" RESULT_HEAD ", \"runs\": []}", "no scored test");
	/* keys of the wrong type are named */
	expect_refused("{" RESULT_HEAD ", \"runs\": [{\"copies\": \"four\", \"tests\": [{\"id\": 7}]}]}",
		       "runs[0].copies is a string, expected a number");
	expect_refused("{" RESULT_HEAD ", \"runs\": [{\"copies\": 4, \"tests\": [{\"id\": \"7\"}]}, {\"copies\": 1, "
		       "\"tests\": [{\"id\": \"bogus\", \"index\": 1}, {\"id\": \"pipe\", \"name\": \"Pipe Throughput\", "
		       "\"result\": -1, \"baseline\": 1}]}]}",
		       "no scored test");
	expect_refused("{" RESULT_HEAD ", \"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"pipe\", \"index\": 1000}]}], "
		       "\"environment\": {\"before\": {\"cpu\": {\"model\": 42}}}}",
		       "environment.before.cpu.model is a number, expected a string");
	/* an imported table that did not say how many copies ran: only its header is judged */
	_cleanup_json_ json_object *uncounted = json_lit("{" RESULT_HEAD ", \"imported\": true, \"runs\": [{\"copies\": null, \"score\": 1000,"
							 " \"tests\": [{\"id\": \"pipe\", \"index\": 1000}]}]}");
	assert_int_equal(diag_case_init(&c, uncounted, NULL, NULL, &error), 0);
	assert_true(c.copies_unknown);
	assert_int_equal(c.nruns, 1);
	assert_int_equal(c.runs[0].copies, 0);
	_cleanup_json_ json_object *unjudged = diagnose(&c);
	assert_non_null(strstr(jpath_str(unjudged, "summary"), "Score 1000.0 (copies unknown, partial); the log does not say how many copies"));
	assert_null(jpath(unjudged, "result.runs.0.copies"));
	for (size_t i = 0; i < jpath_len(unjudged, "not_checked"); i++)
		assert_non_null(diag_rule_lookup(jpath_str(json_object_array_get_idx(jpath(unjudged, "not_checked"), i), "id")));
	assert_int_equal(jpath_len(unjudged, "causes"), 0);
	assert_jstr(unjudged, "not_checked.3.text", "CPU count: the log has no 'N CPUs in system' line");
	diag_case_free(&c);
	/* a result and a baseline without an index */
	_cleanup_json_ json_object *raw = json_lit("{" RESULT_HEAD ", \"runs\": [{\"copies\": 1, \"tests\": [{\"id\": \"x\", \"name\": \"Pipe Throughput\","
						   " \"result\": 1244000, \"baseline\": 12440}]}]}");
	assert_int_equal(diag_case_init(&c, raw, NULL, NULL, &error), 0);
	assert_float_equal(c.runs[0].index[DT_PIPE], 1000, 1e-9);
	_cleanup_json_ json_object *report = diagnose(&c);
	assert_jstr(report, "summary", "Score 1000.0 (1 copy, partial)");
	diag_case_free(&c);
	/* how the run was made is said once, in the summary */
	jset_bool(raw, "quick", true);
	jset_bool(raw, "incomplete", true);
	jset_str(raw, "interrupted_by", "SIGINT");
	assert_int_equal(diag_case_init(&c, raw, NULL, NULL, &error), 0);
	_cleanup_json_ json_object *quick = diagnose(&c);
	diag_case_free(&c);
	assert_jstr(quick, "summary", "Score 1000.0 (1 copy, partial); a quick run: short passes, noisier than the "
				      "published ones; stopped by SIGINT before the end");
}

/* ---- hostile records ---- */

struct mutation {
	json_object *rec;
	size_t runs, nodes;
};

static void diagnose_mutant(struct mutation *m)
{
	struct diag_case c;
	char *error = NULL;
	m->runs++;
	if (diag_case_init(&c, m->rec, published_refs(), NULL, &error) < 0) {
		assert_non_null(error);
		free(error);
		return;
	}
	_cleanup_json_ json_object *report = diagnose(&c);
	diag_case_free(&c);
	assert_true(json_object_is_type(jpath(report, "causes"), json_type_array));
	assert_non_null(jpath_str(report, "summary"));
}

/* A string, null, a huge negative number, an empty object, a list. */
#define WRONG_KINDS 5
static json_object *wrong_kind(size_t w)
{
	json_object *a;
	switch (w) {
	case 0:
		return json_object_new_string("x");
	case 1:
		return NULL;
	case 2:
		return json_object_new_double(-1e308);
	case 3:
		return json_object_new_object();
	default:
		a = json_object_new_array();
		json_object_array_add(a, json_object_new_int(1));
		return a;
	}
}

/* Replaces every value under o, one at a time, with values of the wrong
 * kind, and diagnoses each such record. */
static void mutate_under(struct mutation *m, json_object *o)
{
	bool array = json_object_is_type(o, json_type_array);
	size_t n = array ? json_object_array_length(o) : 0;
	struct strv keys = {0};
	if (!array && json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			(void)v;
			/* diagnose reads no pass: the test's own numbers are what matter */
			if (!streq(key, "passes"))
				strv_push(&keys, key);
		}
		n = keys.n;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *orig = json_object_get(array ? json_object_array_get_idx(o, i) : jpath(o, keys.v[i]));
		for (size_t w = 0; w < WRONG_KINDS; w++) {
			json_object *bad = wrong_kind(w);
			if (array)
				json_object_array_put_idx(o, i, bad);
			else
				json_object_object_add(o, keys.v[i], bad);
			diagnose_mutant(m);
		}
		if (array)
			json_object_array_put_idx(o, i, orig);
		else
			json_object_object_add(o, keys.v[i], orig);
		m->nodes++;
		mutate_under(m, orig);
	}
	strv_free(&keys);
}

static void hostile_records(void **state)
{
	_cleanup_free_ char *path = xasprintf("%s/tests/fixtures/results/rpi4-undervoltage.json", SRCDIR);
	_cleanup_json_ json_object *rec = NULL;
	assert_int_equal(jload_file(path, JSON_FILE_MAX, &rec), 0);
	/* the same record as before the run: once is enough */
	json_object_object_del(jpath(rec, "environment"), "after");
	struct mutation m = { .rec = rec };
	mutate_under(&m, rec);
	assert_true(m.nodes > 900);
	assert_int_equal(m.runs, m.nodes * WRONG_KINDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(emulation),	  cmocka_unit_test(storage),	  cmocka_unit_test(undervoltage),
		cmocka_unit_test(thermal),	  cmocka_unit_test(scaling),	  cmocka_unit_test(copies),
		cmocka_unit_test(governor),	  cmocka_unit_test(build_flags),  cmocka_unit_test(busy),
		cmocka_unit_test(swapping),	  cmocka_unit_test(vmm),	  cmocka_unit_test(overcommit),
		cmocka_unit_test(context_switch), cmocka_unit_test(filecopy_copies), cmocka_unit_test(shell_only),	  cmocka_unit_test(cpu_names),
		cmocka_unit_test(copies_no_gain), cmocka_unit_test(test_failed), cmocka_unit_test(cpu_quota),
		cmocka_unit_test(reference_file), cmocka_unit_test(history_as_reference), cmocka_unit_test(bad_results),
		cmocka_unit_test(hostile_records), cmocka_unit_test(same_tests_as_bench),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
