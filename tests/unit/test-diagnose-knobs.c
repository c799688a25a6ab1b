/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The diagnosis rules over the knobs the probe reads and a profile sets:
 * the memory controller's devfreq governor, idle states and the DMA
 * latency a run holds, process limits, audit rules and seccomp, boost and
 * the energy preferences, the kernel's mitigations, where the 1-copy pass
 * ran. Each on small records built here, or on the published runs and the
 * reviewed probe records of the fixture roots and dumps, edited.
 */
#include "diagtest.h"

/* A bench record of 1 and 4 copies with a probe record (env) before it. */
static json_object *probed(const double *one, const double *four, const char *env)
{
	json_object *rec = result_new();
	if (one)
		result_add_run(rec, 1, one);
	if (four)
		result_add_run(rec, 4, four);
	jset_int(rec, "online_cpus", 4);
	result_env(rec, env ?: "{}");
	return rec;
}

/* The published RK3568 runs from tmpfs as a probed record, the group
 * itself left out of the references by the caller; mask's tests of the
 * 1-copy run scaled by f. */
static json_object *rk3568(unsigned mask, double f, const char *env)
{
	json_object *rec = published_result("rk3568-native-tmpfs");
	json_object_object_del(rec, "imported");
	result_env(rec, env);
	json_object *tests = jpath(rec, "runs.0.tests");
	for (size_t i = 0; i < jarr_len(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		int k = diag_test_lookup(jpath_str(t, "id"));
		double v;
		if (k >= 0 && (mask & DT(k)) && jpath_double(t, "index", &v))
			jset_double(t, "index", v * f);
	}
	return rec;
}

/* Runs a rule on a case whose references leave out exclude; returns the
 * diagnosis (the caller clears it). */
static void rule_excluding(const char *id, json_object *rec, const char *exclude, struct diagnosis *d)
{
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	if (diag_case_init(&c, rec, published_refs(), exclude, &error) < 0)
		fail_msg("%s", error);
	diag_rule_run(diag_rule_lookup(id), &c, d);
	diag_case_free(&c);
}

static bool has_evidence(const struct diagnosis *d, const char *part)
{
	for (size_t i = 0; i < d->evidence.n; i++)
		if (strstr(d->evidence.v[i], part))
			return true;
	return false;
}

/* Runs a rule; checks its confidence and that a line of its evidence holds part. */
static void expect_evidence(const char *id, json_object *rec, enum diag_confidence want, const char *part)
{
	struct diagnosis d;
	rule_on(id, rec, &d);
	assert_int_equal(d.confidence, want);
	if (!has_evidence(&d, part))
		fail_msg("%s: no evidence says \"%s\"", id, part);
	diagnosis_clear(&d);
}

static void silent_when_imported(void **state)
{
	static const char *const ids[] = { "diag.memory-clock", "diag.idle-wakeup", "diag.process-limit",
					   "diag.syscall-filters", "diag.mitigations", "diag.single-copy-placement",
					   "diag.energy-policy" };
	_cleanup_json_ json_object *rec = published_result("rk3568-native-tmpfs");
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		struct diagnosis d;
		rule_on(ids[i], rec, &d);
		assert_int_equal(d.confidence, DC_NONE);
		assert_null(d.normal);
		assert_null(d.unchecked);
		diagnosis_clear(&d);
	}
}

#define DMC_ONDEMAND                                                                                                   \
	"{\"power\": {\"devfreq\": [{\"name\": \"dmc\", \"path\": \"/sys/class/devfreq/dmc\", \"kind\": \"memory\", "  \
	"\"governor\": \"dmc_ondemand\", \"cur_hz\": 324000000, \"max_hz\": 1056000000}]}, \"findings\": [{\"id\": "    \
	"\"memory.devfreq-dynamic\", \"severity\": \"warn\", \"evidence\": \"/sys/class/devfreq/dmc/governor = "       \
	"dmc_ondemand, cur_freq 324 MHz of max_freq 1056 MHz\", \"fix\": \"`[devfreq] governor = performance` in a "   \
	"profile, or as root: echo performance > /sys/class/devfreq/dmc/governor\"}]}"

static void memory_clock(void **state)
{
	_cleanup_json_ json_object *dyn = probed(healthy1, healthy4, DMC_ONDEMAND);
	expect_rule("diag.memory-clock", dyn, DC_LOW, "devfreq governor dmc_ondemand");
	struct diagnosis d;
	rule_on("diag.memory-clock", dyn, &d);
	assert_int_equal(d.affects, DT_FILECOPY | DT(DT_PIPE) | DT(DT_EXECL) | DT_SHELL);
	assert_non_null(strstr(d.fix, "echo performance > /sys/class/devfreq/dmc/governor"));
	diagnosis_clear(&d);

	/* the memory-bound tests at 60 % of the same board's published runs, the CPU tests at 100 %: medium */
	_cleanup_json_ json_object *low = rk3568(DT_FILECOPY | DT(DT_PIPE) | DT(DT_EXECL) | DT_SHELL, 0.6, DMC_ONDEMAND);
	rule_excluding("diag.memory-clock", low, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_MEDIUM);
	assert_true(has_evidence(&d, "File Copy, Pipe Throughput, Execl and Shell Scripts at 62 % of the published runs of this CPU (rk3568-native-disk-c1), Dhrystone and Whetstone at 101 %"));
	assert_true(d.ngains > 0);
	diagnosis_clear(&d);

	/* held at performance: normal */
	_cleanup_json_ json_object *held = probed(healthy1, healthy4,
						  "{\"power\": {\"devfreq\": [{\"name\": \"dmc\", \"kind\": \"memory\", "
						  "\"governor\": \"performance\"}]}}");
	expect_rule("diag.memory-clock", held, DC_NONE, "held: dmc governor performance");
	/* no memory controller under devfreq (x86, most boards): nothing said */
	_cleanup_json_ json_object *none = probed(healthy1, healthy4, "{\"power\": {\"devfreq\": []}}");
	rule_on("diag.memory-clock", none, &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	diagnosis_clear(&d);
}

#define DEEP_IDLE                                                                                                      \
	"{\"cpu\": {\"idle\": {\"driver\": \"arm_idle\", \"deepest_latency_us\": 370}}, \"findings\": [{\"id\": "      \
	"\"cpu.idle-deep-states\", \"severity\": \"info\", \"evidence\": \"cpu0 idle state cpu-sleep (cpu-sleep): "     \
	"exit latency 370 µs; driver arm_idle\"}]}"

static void idle_wakeup(void **state)
{
	/* deep states, the hand-over tests fine: low */
	_cleanup_json_ json_object *deep = probed(healthy1, healthy4, DEEP_IDLE);
	expect_rule("diag.idle-wakeup", deep, DC_LOW, "slow to leave");
	/* and Pipe-based Context Switching at 0.12× Pipe Throughput in 1 copy: medium */
	double slow[DIAG_NTESTS];
	memcpy(slow, healthy1, sizeof(slow));
	slow[DT_CTX] = 0.12 * slow[DT_PIPE];
	_cleanup_json_ json_object *ctx = probed(slow, healthy4, DEEP_IDLE);
	expect_rule("diag.idle-wakeup", ctx, DC_MEDIUM, NULL);
	struct diagnosis d;
	rule_on("diag.idle-wakeup", ctx, &d);
	assert_int_equal(d.affects, DT(DT_CTX) | DT(DT_SPAWN));
	assert_true(has_evidence(&d, "0.120× Pipe Throughput"));
	assert_true(has_evidence(&d, "finding cpu.idle-deep-states"));
	diagnosis_clear(&d);

	/* the run held the DMA latency at 0: the states did not matter */
	_cleanup_json_ json_object *held = probed(slow, healthy4, DEEP_IDLE);
	result_merge(held, "{\"options\": {\"dma_latency\": {\"requested_us\": 0, \"device\": \"/dev/cpu_dma_latency\", "
			   "\"held\": true, \"error\": null}}}");
	expect_rule("diag.idle-wakeup", held, DC_NONE, "held out of deep idle states for the run (DMA latency 0 µs)");
	/* asked for, but not root: said */
	_cleanup_json_ json_object *denied = probed(slow, healthy4, DEEP_IDLE);
	result_merge(denied, "{\"options\": {\"dma_latency\": {\"requested_us\": 0, \"device\": \"/dev/cpu_dma_latency\", "
			     "\"held\": false, \"error\": \"Permission denied\"}}}");
	expect_evidence("diag.idle-wakeup", denied, DC_MEDIUM, "could not: Permission denied");

	/* a KVM guest without cpuidle whose hand-overs are slow: its vCPUs halt to the host */
	_cleanup_json_ json_object *guest = probed(slow, healthy4, "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\"}}");
	expect_rule("diag.idle-wakeup", guest, DC_LOW, "woken through the host");
	/* shallow states only */
	_cleanup_json_ json_object *shallow = probed(healthy1, healthy4,
						     "{\"cpu\": {\"idle\": {\"driver\": \"intel_idle\", \"deepest_latency_us\": 2}}}");
	expect_rule("diag.idle-wakeup", shallow, DC_NONE, "no slower to leave than 2 µs (intel_idle)");
}

static void process_limit(void **state)
{
	/* 4 copies of Shell Scripts (8 concurrent) need 132 processes; pids.max is 100 */
	const char *limited = "{\"cpu\": {\"threads\": 4}, \"host\": {\"limits\": {\"nproc_hard\": \"unlimited\", "
			      "\"pids_max\": 100, \"pids_max_source\": \"/sys/fs/cgroup/system.slice/bench.service/pids.max\", "
			      "\"pid_max\": 32768, \"threads_max\": 60000}}}";
	_cleanup_json_ json_object *over = probed(healthy1, healthy4, limited);
	expect_rule("diag.process-limit", over, DC_MEDIUM, "more processes at once than a limit allows");
	struct diagnosis d;
	rule_on("diag.process-limit", over, &d);
	assert_true(has_evidence(&d, "4 copies × 33 processes (Shell Scripts (8 concurrent)) = 132 at once; pids.max of the "
				     "cgroup = 100"));
	assert_int_equal(d.affects, DT_PROCESS | DT_SHELL);
	diagnosis_clear(&d);

	/* and the test failed, the kernel saying why: high */
	_cleanup_json_ json_object *failed = probed(healthy1, healthy4, limited);
	json_object *sh8 = jpath(failed, "runs.1.tests.11");
	assert_string_equal(jpath_str(sh8, "id"), "shell8");
	json_object_object_del(sh8, "index");
	jset_str(sh8, "error", "4 copies, pass 1: sh: fork: Resource temporarily unavailable");
	result_merge(failed, "{\"sampler\": {}, \"events\": [{\"kind\": \"kernel-fork-rejected\", \"test\": \"shell8\", "
			     "\"copies\": 4, \"message\": \"kernel: cgroup: fork rejected by pids controller in "
			     "/system.slice/bench.service (during Shell Scripts (8 concurrent), 4 copies)\"}]}");
	rule_on("diag.process-limit", failed, &d);
	assert_int_equal(d.confidence, DC_HIGH);
	assert_true(has_evidence(&d, "Shell Scripts (8 concurrent), 4 copies: 4 copies, pass 1: sh: fork: Resource"));
	assert_true(has_evidence(&d, "fork rejected by pids controller"));
	diagnosis_clear(&d);

	/* the limits of the machine are far above: normal, with the numbers */
	_cleanup_json_ json_object *fine = probed(healthy1, healthy4,
						  "{\"host\": {\"limits\": {\"nproc_hard\": 62000, \"pids_max\": \"max\", "
						  "\"pid_max\": 4194304, \"threads_max\": 124000}}}");
	expect_rule("diag.process-limit", fine, DC_NONE, "above what the copies need at once (132; lowest: ulimit -u "
							 "(hard) = 62000)");
	/* the hard limit the run saw decides over the probe's */
	result_merge(fine, "{\"options\": {\"nproc\": {\"soft\": 50, \"hard\": 120, \"needed\": 132, \"raised_to\": 120}}}");
	rule_on("diag.process-limit", fine, &d);
	assert_int_equal(d.confidence, DC_MEDIUM);
	assert_true(has_evidence(&d, "ulimit -u (hard) = 120"));
	assert_true(has_evidence(&d, "the soft ulimit -u (50) was raised to 120 for the run"));
	diagnosis_clear(&d);
	/* no limits known, a test that could not fork: medium all the same */
	_cleanup_json_ json_object *unknown = probed(healthy1, healthy4, "{}");
	json_object *spawn = jpath(unknown, "runs.1.tests.8");
	assert_string_equal(jpath_str(spawn, "id"), "spawn");
	jset_str(spawn, "error", "4 copies, pass 2: fork: Resource temporarily unavailable");
	expect_rule("diag.process-limit", unknown, DC_MEDIUM, NULL);
}

static void syscall_filters(void **state)
{
	_cleanup_json_ json_object *audit = probed(healthy1, healthy4,
						   "{\"host\": {\"audit\": {\"rules\": 12, \"syscall_rules\": 3, \"seccomp\": "
						   "\"disabled\"}}, \"findings\": [{\"id\": \"host.audit-syscall-rules\", "
						   "\"severity\": \"warn\", \"evidence\": \"auditctl -l: 12 rules, 3 of them on "
						   "system calls (-S)\"}]}");
	expect_rule("diag.syscall-filters", audit, DC_MEDIUM, "against 3 audit rules");
	struct diagnosis d;
	rule_on("diag.syscall-filters", audit, &d);
	assert_int_equal(d.affects, DT(DT_SYSCALL) | DT(DT_PIPE) | DT(DT_EXECL));
	diagnosis_clear(&d);

	/* System Call Overhead at half of the published runs, the rest at theirs: high */
	const char *rules = "{\"host\": {\"audit\": {\"rules\": 1, \"syscall_rules\": 1}}, \"findings\": [{\"id\": "
			    "\"host.audit-syscall-rules\", \"severity\": \"warn\", \"evidence\": \"auditctl -l: 1 rules, 1 of "
			    "them on system calls (-S)\"}]}";
	_cleanup_json_ json_object *low = rk3568(DT(DT_SYSCALL), 0.5, rules);
	rule_excluding("diag.syscall-filters", low, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_HIGH);
	assert_true(has_evidence(&d, "System Call Overhead at 50 % of the published runs"));
	assert_true(d.ngains > 0);
	diagnosis_clear(&d);

	/* a container's seccomp filter: low */
	_cleanup_json_ json_object *sec = probed(healthy1, healthy4,
						 "{\"host\": {\"audit\": {\"seccomp\": \"filter\"}}, \"findings\": [{\"id\": "
						 "\"host.seccomp-filter\", \"severity\": \"info\", \"evidence\": "
						 "\"/proc/self/status: Seccomp 2 (filter)\"}]}");
	expect_rule("diag.syscall-filters", sec, DC_LOW, "seccomp filter");
	_cleanup_json_ json_object *clean = probed(healthy1, healthy4,
						   "{\"host\": {\"audit\": {\"rules\": 0, \"syscall_rules\": 0, \"seccomp\": "
						   "\"disabled\"}}}");
	expect_rule("diag.syscall-filters", clean, DC_NONE, "no audit rule on system calls; seccomp disabled");
	/* not root: the rules are not known */
	_cleanup_json_ json_object *user = probed(healthy1, healthy4, "{\"host\": {\"audit\": {\"seccomp\": \"disabled\"}}}");
	expect_rule("diag.syscall-filters", user, DC_NONE, "auditctl -l needs root");
}

#define EPB_POWER                                                                                                      \
	"{\"cpu\": {\"model\": \"Xeon\", \"freq\": {\"boost\": true, \"epb\": 8}, \"kinds\": [{\"model\": \"Xeon\", "   \
	"\"cpus\": \"0-3\", \"measured_cpu\": 0, \"max_khz\": 3700000, \"fastest\": true}]}, \"findings\": [{\"id\": "  \
	"\"cpu.epb-power-saving\", \"severity\": \"warn\", \"evidence\": \"/sys/devices/system/cpu/cpu0/power/"       \
	"energy_perf_bias = 8 (0 performance, 6 normal, 15 power)\", \"fix\": \"`[cpu] epb = performance` in a "       \
	"profile, or as root: echo 0 > /sys/devices/system/cpu/cpu0/power/energy_perf_bias (on every CPU)\"}]}"

static void energy_policy(void **state)
{
	_cleanup_json_ json_object *epb = probed(healthy1, healthy4, EPB_POWER);
	expect_rule("diag.energy-policy", epb, DC_LOW, "(EPB favours power)");
	struct diagnosis d;
	rule_on("diag.energy-policy", epb, &d);
	assert_non_null(strstr(d.fix, "`[cpu] epb = performance`"));
	diagnosis_clear(&d);

	/* the 1-copy tests measured the fastest core at 2400 MHz of 3700: medium */
	_cleanup_json_ json_object *clocked = probed(healthy1, healthy4, EPB_POWER);
	jset(jpath(clocked, "runs.0.tests.0"), "clock",
	     json_lit("{\"after\": [{\"cpu\": 0, \"measured_khz\": 2400000, \"cur_khz\": 2400000}]}"));
	rule_on("diag.energy-policy", clocked, &d);
	assert_int_equal(d.confidence, DC_MEDIUM);
	assert_true(has_evidence(&d, "1 copy: the fastest core measured at 2400 MHz after a test, 65 % of its maximum"));
	diagnosis_clear(&d);

	/* boost off and EPP power together */
	_cleanup_json_ json_object *both = probed(healthy1, healthy4,
						  "{\"cpu\": {\"freq\": {\"boost\": false}}, \"findings\": [{\"id\": "
						  "\"cpu.boost-off\", \"severity\": \"warn\"}, {\"id\": \"cpu.epp-power-saving\", "
						  "\"severity\": \"warn\"}]}");
	expect_rule("diag.energy-policy", both, DC_LOW, "(boost off, EPP saves power)");
	/* boost off no longer counts twice: the governor rule leaves it to this one */
	expect_rule("diag.governor", both, DC_NONE, NULL);

	_cleanup_json_ json_object *fast = probed(healthy1, healthy4,
						  "{\"cpu\": {\"freq\": {\"boost\": true, \"epp\": \"performance\", \"epb\": 0}}}");
	expect_rule("diag.energy-policy", fast, DC_NONE, "boost on, energy preference performance, bias normal or faster");
}

/* A reviewed probe record of tests/fixtures/expected/ as a JSON literal (caller frees). */
static char *expected_record(const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/tests/fixtures/expected/%s.json", SRCDIR, name);
	char *text = NULL;
	size_t len;
	if (read_file(path, 1 << 22, &text, &len) < 0)
		fail_msg("cannot read %s", path);
	return text;
}

/* The probe record of the RK3568 root (its kernel 4.19.232 says spectre_v1
 * is mitigated: finding cpu.mitigations) before the published runs from
 * tmpfs, mask's 1-copy tests scaled by f, the kernel release replaced by
 * kernel unless NULL. */
static json_object *rk3568_probed(unsigned mask, double f, const char *kernel)
{
	_cleanup_free_ char *env = expected_record("rk3568-emmc-el2");
	json_object *rec = rk3568(mask, f, env);
	if (kernel)
		jset_str(jpath(rec, "environment.before.host"), "kernel_release", kernel);
	return rec;
}

static void mitigations(void **state)
{
	struct diagnosis d;
	/* a newer kernel than the published runs' 4.19.232, the kernel-entry tests at 70 % of them and the CPU
	 * tests at theirs: low, with the finding and the figures */
	_cleanup_json_ json_object *low = rk3568_probed(DT_KERNEL | DT(DT_CTX) | DT_PROCESS, 0.7, "5.10.160");
	rule_excluding("diag.mitigations", low, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_LOW);
	assert_int_equal(d.affects, DT_KERNEL | DT(DT_CTX) | DT_PROCESS);
	assert_non_null(strstr(d.reason, "the kernel mitigates CPU vulnerabilities"));
	assert_true(has_evidence(&d, "finding cpu.mitigations: /sys/devices/system/cpu/vulnerabilities: spectre_v1 say "
				     "Mitigation"));
	assert_true(has_evidence(&d, "1 copy: the system-call, pipe, context-switch and process tests at 71 % of the "
				     "published runs of this CPU (rk3568-native-disk-c1), Dhrystone and Whetstone at 101 %"));
	assert_non_null(strstr(d.expect, "the same kernel and mitigations on both sides"));
	diagnosis_clear(&d);

	/* the same scores under the published runs' own kernel: its mitigations cost them as much */
	_cleanup_json_ json_object *same = rk3568_probed(DT_KERNEL | DT(DT_CTX) | DT_PROCESS, 0.7, NULL);
	rule_excluding("diag.mitigations", same, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_non_null(strstr(d.normal, "at 70 % of the published runs relative to Dhrystone and Whetstone, but those "
					 "ran the same kernel (4.19.232)"));
	diagnosis_clear(&d);

	/* the published runs as they are: said to be normal */
	_cleanup_json_ json_object *fine = rk3568_probed(0, 1, "5.10.160");
	rule_excluding("diag.mitigations", fine, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_non_null(strstr(d.normal, "the tests that enter it are at 101 % of the published runs"));
	diagnosis_clear(&d);

	/* a kernel that mitigates nothing (every vulnerability "Not affected"): no finding, nothing said
	 * however low the kernel-entry tests are */
	_cleanup_json_ json_object *none = rk3568_probed(DT_KERNEL | DT(DT_CTX) | DT_PROCESS, 0.5, "5.10.160");
	jset(jpath(none, "environment.before"), "findings", json_object_new_array());
	rule_excluding("diag.mitigations", none, "rk3568-native-tmpfs", &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	diagnosis_clear(&d);

	/* no references to weigh them against (a CPU no published run has): nothing said */
	_cleanup_json_ json_object *alone = rk3568_probed(DT_KERNEL | DT(DT_CTX) | DT_PROCESS, 0.5, "5.10.160");
	jset_str(jpath(alone, "environment.before.cpu"), "model", "Cortex-A78");
	rule_on("diag.mitigations", alone, &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	diagnosis_clear(&d);
}

/* A run of 1 and n copies, Dhrystone of n copies `dhry` times one copy's,
 * before which the probe record named (tests/fixtures/expected/) ran. */
static json_object *kinds_run(const char *expected, unsigned n, double dhry)
{
	double one[DIAG_NTESTS], many[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++) {
		one[t] = healthy1[t];
		many[t] = healthy1[t] * 2;
	}
	many[DT_DHRY] = one[DT_DHRY] * dhry;
	json_object *rec = result_new();
	result_add_run(rec, 1, one);
	result_add_run(rec, n, many);
	_cleanup_free_ char *env = expected_record(expected);
	jset(jchild(rec, "environment"), "before", json_lit(env));
	return rec;
}

#define RK3588_KINDS                                                                                                   \
	"\"cpu\": {\"arch\": \"aarch64\", \"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\", \"capacity\": "       \
	"414}, {\"model\": \"Cortex-A76\", \"cpus\": \"4-7\", \"capacity\": 1024, \"fastest\": true}]}"

static void single_copy_placement(void **state)
{
	struct diagnosis d;
	/* the DGX GB10 dump (10 Cortex-X925, 10 Cortex-A725 at capacity 731), 4 copies 3.9× one copy: the
	 * copies got four X925s, one copy may have run on either */
	_cleanup_json_ json_object *gb10 = kinds_run("hwloc-nvidia-dgx-gb10", 4, 3.9);
	rule_on("diag.single-copy-placement", gb10, &d);
	assert_int_equal(d.confidence, DC_LOW);
	assert_int_equal(d.affects, DT_ALL);
	assert_non_null(strstr(d.reason, "was not pinned on a CPU with 2 kinds of core"));
	assert_true(has_evidence(&d, "fastest kind: 10 × Cortex-X925; slowest: 10 × Cortex-A725, at about 71 % of its "
				     "speed"));
	assert_int_equal(d.evidence.n, 1);
	diagnosis_clear(&d);

	/* the util-linux dump of four kinds (1 X3, 2 A715, 2 A710, 3 A510): 8 copies give 5.2× one X3 at most;
	 * Dhrystone 6.5× one copy says the one copy ran on a slower kind */
	_cleanup_json_ json_object *four = kinds_run("util-linux-arm-A510-A710-A715-X3", 8, 6.5);
	rule_on("diag.single-copy-placement", four, &d);
	assert_int_equal(d.confidence, DC_MEDIUM);
	assert_true(has_evidence(&d, "fastest kind: 1 × Cortex-X3; slowest: 3 × Cortex-A510, at about 27 % of its speed"));
	assert_true(has_evidence(&d, "8 copies: Dhrystone 2 at 126 % of what its cores give against the 1-copy run: one "
				     "copy ran below the fastest core's speed"));
	diagnosis_clear(&d);

	/* asked to pin, but the kind was not known: fired, and why it was not pinned */
	result_merge(four, "{\"options\": {\"pin_single\": {\"requested\": \"fastest\", \"cpus\": null, \"kind\": null, "
			   "\"note\": \"the fastest kind of core is not known\"}}}");
	expect_evidence("diag.single-copy-placement", four, DC_MEDIUM,
			"the run was asked to pin it, but: the fastest kind of core is not known");
	/* pinned: said */
	result_merge(four, "{\"options\": {\"pin_single\": {\"cpus\": \"7\", \"kind\": \"Cortex-X3\", \"note\": null}}}");
	expect_rule("diag.single-copy-placement", four, DC_NONE, "ran on the fastest kind of core, Cortex-X3 (CPUs 7)");

	/* the same dump's A715 and A710 only: two parts of one capacity (855), nothing to pin */
	_cleanup_json_ json_object *even = kinds_run("util-linux-arm-A510-A710-A715-X3", 4, 6.5);
	json_object *kinds = jpath(even, "environment.before.cpu.kinds");
	json_object_array_del_idx(kinds, 3, 1);
	json_object_array_del_idx(kinds, 0, 1);
	expect_rule("diag.single-copy-placement", even, DC_NONE,
		    "the 2 kinds of core are as fast as each other (Cortex-A715, Cortex-A710)");

	/* an imported log whose CPU lines name two kinds: where it ran is not in the log */
	_cleanup_json_ json_object *log = published_result("rk3568-native-tmpfs");
	json_object *cpus = json_lit("[{\"model\": \"Cortex-A55\"}, {\"model\": \"Cortex-A55\"}, {\"model\": \"Cortex-A76\"}, "
				     "{\"model\": \"Cortex-A76\"}]");
	jset(jchild(jpath(log, "environment.before"), "unixbench"), "cpus", cpus);
	expect_rule("diag.single-copy-placement", log, DC_NONE, "not in an imported log of a CPU with 2 kinds of core");

	/* RK3588 kinds as a literal: 8 copies 6.5× one copy where the cores give 5.6× */
	double one[DIAG_NTESTS], many[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++) {
		one[t] = healthy1[t];
		many[t] = healthy1[t] * 2;
	}
	many[DT_DHRY] = one[DT_DHRY] * 6.5;
	_cleanup_json_ json_object *rec = result_new();
	result_add_run(rec, 1, one);
	result_add_run(rec, 8, many);
	jset_int(rec, "online_cpus", 8);
	result_env(rec, "{" RK3588_KINDS "}");
	expect_rule("diag.single-copy-placement", rec, DC_MEDIUM, "was not pinned on a CPU with 2 kinds of core");
	rule_on("diag.single-copy-placement", rec, &d);
	assert_true(has_evidence(&d, "fastest kind: 4 × Cortex-A76; slowest: 4 × Cortex-A55, at about 40 % of its speed"));
	diagnosis_clear(&d);
	/* one kind of core: nothing to say */
	_cleanup_json_ json_object *one_kind = probed(healthy1, healthy4, "{\"cpu\": {\"cores\": 4, \"threads\": 4}}");
	rule_on("diag.single-copy-placement", one_kind, &d);
	assert_int_equal(d.confidence, DC_NONE);
	assert_null(d.normal);
	assert_null(d.unchecked);
	diagnosis_clear(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(silent_when_imported), cmocka_unit_test(memory_clock),	  cmocka_unit_test(idle_wakeup),
		cmocka_unit_test(process_limit),	cmocka_unit_test(syscall_filters), cmocka_unit_test(energy_policy),
		cmocka_unit_test(mitigations),		cmocka_unit_test(single_copy_placement),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
