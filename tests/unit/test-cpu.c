/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU area on real dumps, checked against what lscpu and lstopo printed
 * for the same dump (its _aux/ directory) or, where the dump has no such
 * file, against tests/fixtures/real/README.md. Then the parsers, the ARM
 * name table and every CPU finding rule on record literals.
 */
#include <errno.h>

#include "lib/term.h"
#include "probe/cpu.h"
#include "probe/findings.h"
#include "testlib.h"

/* ---- ground truth from a dump's _aux/ ---- */

static char *aux_text(const char *fixture, const char *file)
{
	_cleanup_free_ char *root = fixture_root(fixture);
	_cleanup_free_ char *path = xasprintf("%s/_aux/%s", root, file);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	struct buf b = {0};
	char chunk[4096];
	size_t n;
	if (!f)
		fail_msg("cannot read %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	return buf_steal(&b);
}

/* Value of the nth (from 0) "Key:   value" line of lscpu output. */
static char *lscpu_value(const char *text, const char *key, int nth)
{
	size_t klen = strlen(key);
	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) != 0 || l[klen] != ':' || nth-- > 0)
			continue;
		const char *v = l + klen + 1;
		return strstrip(xstrndup(v, strcspn(v, "\n")));
	}
	fail_msg("lscpu output has no %s", key);
	return NULL;
}

static int64_t lscpu_int(const char *text, const char *key, int nth)
{
	_cleanup_free_ char *v = lscpu_value(text, key, nth);
	int64_t n;
	assert_int_equal(parse_s64(v, &n), 0);
	return n;
}

/* Number of objects of a type in lstopo's console ("depth 1: 2 Package") or XML output. */
static int64_t lstopo_count(const char *fixture, const char *type)
{
	_cleanup_free_ char *root = fixture_root(fixture);
	_cleanup_free_ char *console = xasprintf("%s/_aux/lstopo-expected.console", root);
	if (access(console, F_OK) == 0) {
		_cleanup_free_ char *text = aux_text(fixture, "lstopo-expected.console");
		_cleanup_free_ char *needle = xasprintf(" %s (type #", type);
		const char *hit = strstr(text, needle);
		assert_non_null(hit);
		while (hit > text && hit[-1] != ' ')
			hit--;
		return strtoll(hit, NULL, 10);
	}
	_cleanup_free_ char *xml = aux_text(fixture, "lstopo-expected.xml");
	_cleanup_free_ char *needle = xasprintf("type=\"%s\"", type);
	int64_t n = 0;
	for (const char *p = strstr(xml, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void assert_topology_lstopo(json_object *rec, const char *fixture)
{
	assert_int_equal(jint(rec, "cpu.sockets"), lstopo_count(fixture, "Package"));
	assert_int_equal(jint(rec, "cpu.cores"), lstopo_count(fixture, "Core"));
	assert_int_equal(jint(rec, "cpu.threads"), lstopo_count(fixture, "PU"));
}

static bool has_finding(json_object *rec, const char *id)
{
	json_object *a = jpath(rec, "findings");
	for (size_t i = 0; i < jpath_len(rec, "findings"); i++)
		if (streq_ptr(jpath_str(json_object_array_get_idx(a, i), "id"), id))
			return true;
	return false;
}

static bool has_unavailable(json_object *rec, const char *prefix)
{
	json_object *a = jpath(rec, "unavailable");
	for (size_t i = 0; i < jpath_len(rec, "unavailable"); i++) {
		json_object *u = json_object_array_get_idx(a, i);
		if (streq_ptr(jpath_str(u, "area"), "cpu") && startswith(jpath_str(u, "reason"), prefix))
			return true;
	}
	return false;
}

static double jdouble(json_object *rec, const char *path)
{
	double v = 0;
	if (!jpath_double(rec, path, &v))
		fail_msg("%s is not a number", path);
	return v;
}

static char *render_cpu(json_object *rec)
{
	return render_text(cpu_render, rec);
}

/* ---- real dumps ---- */

static void kunpeng_920(void **state)
{
	const char *fx = "hwloc-128arm-2pa2n8cluster4co";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	assert_topology_lstopo(rec, fx);
	/* physical_package_id 36 and 8442 are ids, not counts */
	assert_int_equal(jint(rec, "cpu.sockets"), 2);
	assert_jstr(rec, "cpu.topology_source", "sysfs");
	assert_jstr(rec, "cpu.vendor", "HiSilicon");
	assert_jstr(rec, "cpu.model", "HiSilicon TSV110 (Kunpeng 920)");
	assert_jstr(rec, "cpu.midr.implementer", "0x48");
	assert_jstr(rec, "cpu.midr.part", "0xd01");
	assert_jstr(rec, "cpu.midr.variant", "0x1");
	assert_int_equal(jint(rec, "cpu.midr.revision"), 0);
	assert_jstr(rec, "cpu.online", "0-127");
	assert_jstr(rec, "cpu.possible", "0-127");
	assert_true(jdouble(rec, "cpu.bogomips") == 200.0);
	assert_int_equal(jpath_len(rec, "cpu.bogomips_per_cpu"), 128);
	/* no cpufreq directory at all: nothing made up */
	assert_int_equal(jpath_len(rec, "cpu.freq.policies"), 0);
	assert_jnull(rec, "cpu.freq.governor");
	assert_jnull(rec, "cpu.freq.boost");
	assert_true(has_unavailable(rec, "frequency scaling"));
	assert_false(has_finding(rec, "cpu.boost-off"));
	assert_jstr(rec, "cpu.isolated", "");
	assert_jstr(rec, "cpu.isolation_source", "/proc/cmdline");

	_cleanup_free_ char *text = render_cpu(rec);
	assert_non_null(strstr(text, "128 × HiSilicon TSV110 (Kunpeng 920) r1p0 (0x48/0xd01) · 2 sockets"));
	assert_non_null(strstr(text, "BogoMIPS 200.00 (timer rate on arm64)"));
}

static void gb10_two_kinds(void **state)
{
	const char *fx = "hwloc-nvidia-dgx-gb10";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	assert_topology_lstopo(rec, fx);
	assert_jstr(rec, "cpu.model", "Cortex-A725 + Cortex-X925");
	assert_jstr(rec, "cpu.vendor", "ARM");
	assert_int_equal(jpath_len(rec, "cpu.kinds"), 2);
	assert_jstr(rec, "cpu.kinds.0.model", "Cortex-A725");
	assert_jstr(rec, "cpu.kinds.0.cpus", "0-4,10-14");
	assert_jstr(rec, "cpu.kinds.0.midr.part", "0xd87");
	assert_jstr(rec, "cpu.kinds.1.model", "Cortex-X925");
	assert_jstr(rec, "cpu.kinds.1.cpus", "5-9,15-19");
	assert_jstr(rec, "cpu.kinds.1.midr.part", "0xd85");
	assert_true(jdouble(rec, "cpu.bogomips") == 2000.0);

	assert_jstr(rec, "cpu.freq.driver", "cppc_cpufreq");
	assert_jstr(rec, "cpu.freq.governor", "performance");
	assert_int_equal(jpath_len(rec, "cpu.freq.policies"), 20);
	assert_int_equal(jint(rec, "cpu.freq.max_khz"), 3900000);
	assert_int_equal(jint(rec, "cpu.freq.min_khz"), 338000);
	assert_jstr(rec, "cpu.freq.policies.0.cpus", "0");
	assert_int_equal(jint(rec, "cpu.freq.policies.0.cpuinfo_max_khz"), 2808000);
	/* cpufreq/boost 0 while CPPC highest_perf 110 > nominal 108 on cpu10 */
	bool b;
	assert_true(jpath_bool(rec, "cpu.freq.boost", &b) && !b);
	assert_true(jpath_bool(rec, "cpu.freq.boost_available", &b) && b);
	assert_jstr(rec, "cpu.freq.boost_source", "/sys/devices/system/cpu/cpufreq/boost");
	assert_true(has_finding(rec, "cpu.boost-off"));
	assert_false(has_finding(rec, "cpu.governor.other"));
	assert_true(has_finding(rec, "cpu.mitigations"));
	/* sysfs nohz_full says "(null)", the command line has none */
	assert_jstr(rec, "cpu.nohz_full", "");

	_cleanup_free_ char *text = render_cpu(rec);
	assert_non_null(strstr(text, "10 × ARM Cortex-A725 r0p1 (0x41/0xd87) + 10 × ARM Cortex-X925 r0p1 (0x41/0xd85)"));
	assert_non_null(strstr(text, "CPUs 5-9,15-19: cppc_cpufreq, governor performance, 1378–3900 MHz"));
	assert_non_null(strstr(text, "boost off"));
}

/* Huawei Mate 8 (Kirin 950), README: old arm64 layout, 4× A53 + 4× A72, interactive. */
static void mate8_old_format(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("pytorch-cpuinfo-huawei-mate-8", NULL);
	assert_jstr(rec, "cpu.model", "Cortex-A53 + Cortex-A72");
	assert_jstr(rec, "cpu.kinds.0.cpus", "0-3");
	assert_jstr(rec, "cpu.kinds.1.cpus", "4-7");
	assert_jstr(rec, "cpu.midr.variant", "0x0");
	assert_int_equal(jint(rec, "cpu.midr.revision"), 4);
	/* package ids 0 and 1 are the two clusters of one SoC */
	assert_int_equal(jint(rec, "cpu.sockets"), 1);
	assert_jstr(rec, "cpu.topology_source", "sysfs-clusters");
	assert_int_equal(jint(rec, "cpu.cores"), 8);
	assert_int_equal(jint(rec, "cpu.threads"), 8);
	assert_true(jdouble(rec, "cpu.bogomips") == 3.84);
	assert_int_equal(jpath_len(rec, "cpu.freq.policies"), 2);
	assert_jstr(rec, "cpu.freq.policies.1.cpus", "4-7");
	assert_jstr(rec, "cpu.freq.driver", "arm-big-little");
	assert_jstr(rec, "cpu.freq.governor", "interactive");
	assert_int_equal(jint(rec, "cpu.freq.max_khz"), 2304000);
	assert_true(has_finding(rec, "cpu.governor.other"));
}

/* Huawei Mate 20 (Kirin 980), README: A55 + HiSilicon 0xd40, no scaling_governor file. */
static void mate20_no_governor(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("pytorch-cpuinfo-huawei-mate-20", NULL);
	assert_jstr(rec, "cpu.model", "Cortex-A55 + HiSilicon Cortex-A76");
	assert_jstr(rec, "cpu.vendor", "ARM + HiSilicon");
	assert_jstr(rec, "cpu.kinds.1.midr.implementer", "0x48");
	assert_jstr(rec, "cpu.kinds.1.midr.part", "0xd40");
	assert_int_equal(jint(rec, "cpu.sockets"), 1);
	assert_int_equal(jint(rec, "cpu.cores"), 8);
	assert_jstr(rec, "cpu.freq.driver", "cpufreq-dt");
	assert_int_equal(jpath_len(rec, "cpu.freq.policies"), 3);
	assert_jstr(rec, "cpu.freq.policies.1.cpus", "4-5");
	assert_jnull(rec, "cpu.freq.governor");
	assert_jnull(rec, "cpu.freq.policies.0.governor");
	assert_int_equal(jint(rec, "cpu.freq.policies.0.cpuinfo_max_khz"), 1805000);
	assert_false(has_finding(rec, "cpu.governor.other"));
	assert_false(has_finding(rec, "cpu.governor.powersave"));
}

/* Raspberry Pi 3, README: 32-bit userland, cpuinfo only, separators are runs of spaces. */
static void raspberrypi3_spaces(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("pytorch-cpuinfo-raspberrypi3", NULL);
	assert_jstr(rec, "cpu.arch", "armv7l");
	assert_jstr(rec, "cpu.model", "Cortex-A53");
	assert_jstr(rec, "cpu.vendor", "ARM");
	assert_jstr(rec, "cpu.midr.part", "0xd03");
	assert_int_equal(jint(rec, "cpu.midr.revision"), 4);
	assert_true(jdouble(rec, "cpu.bogomips") == 38.4);
	assert_jstr(rec, "cpu.online", "0-3");
	assert_int_equal(jint(rec, "cpu.threads"), 4);
	/* no topology anywhere: unknown, not guessed */
	assert_jnull(rec, "cpu.sockets");
	assert_jnull(rec, "cpu.cores");
	assert_jnull(rec, "cpu.possible");
	assert_true(has_unavailable(rec, "sockets, cores"));
	assert_true(has_unavailable(rec, "online CPUs: no /sys"));

	_cleanup_free_ char *text = render_cpu(rec);
	assert_non_null(strstr(text, "BogoMIPS 38.40"));
	assert_null(strstr(text, "timer rate"));
}

static void qualcomm_a510_x3(void **state)
{
	const char *fx = "util-linux-arm-A510-A710-A715-X3";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	_cleanup_free_ char *ls = aux_text(fx, "lscpu-expected.txt");
	int64_t cores = 0;
	for (int i = 0; i < 4; i++) {
		_cleanup_free_ char *name = lscpu_value(ls, "Model name", i);
		bool found = false;
		for (size_t k = 0; k < jpath_len(rec, "cpu.kinds"); k++)
			found |= streq_ptr(jpath_str(json_object_array_get_idx(jpath(rec, "cpu.kinds"), k), "model"), name);
		assert_true(found);
		assert_int_equal(lscpu_int(ls, "Socket(s)", i), 1);
		cores += lscpu_int(ls, "Core(s) per socket", i);
	}
	assert_int_equal(jpath_len(rec, "cpu.kinds"), 4);
	assert_jstr(rec, "cpu.model", "Cortex-A510 + Cortex-A715 + Cortex-A710 + Cortex-X3");
	/* package ids 0-2 are clusters; one SoC */
	assert_int_equal(jint(rec, "cpu.sockets"), 1);
	assert_int_equal(jint(rec, "cpu.cores"), cores);
	assert_int_equal(jint(rec, "cpu.threads"), lscpu_int(ls, "CPU(s)", 0));
	_cleanup_free_ char *bogo = lscpu_value(ls, "BogoMIPS", 0);
	assert_true(jdouble(rec, "cpu.bogomips") == strtod(bogo, NULL));
	/* "CPU max MHz: 3187.2000" of the X3 is policy7's cpuinfo_max_freq */
	_cleanup_free_ char *max = lscpu_value(ls, "CPU max MHz", 3);
	assert_int_equal(jint(rec, "cpu.freq.policies.2.cpuinfo_max_khz"), (int64_t)(strtod(max, NULL) * 1000 + 0.5));
	assert_jstr(rec, "cpu.freq.governor", "walt");
	assert_true(has_finding(rec, "cpu.governor.other"));
	/* lscpu: "Frequency boost: enabled" from cpufreq/boost 1 */
	bool b;
	assert_true(jpath_bool(rec, "cpu.freq.boost", &b) && b);
	assert_false(has_finding(rec, "cpu.boost-off"));
	/* scaling_max_freq holds every cluster far below cpuinfo_max_freq */
	assert_true(has_finding(rec, "cpu.max-freq-capped"));
	assert_jstr(rec, "cpu.vulnerabilities.spectre_v2", "Vulnerable: Unprivileged eBPF enabled");
	assert_true(has_finding(rec, "cpu.mitigations"));
}

static void armv7_exynos(void **state)
{
	const char *fx = "util-linux-armv7";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	_cleanup_free_ char *ls = aux_text(fx, "lscpu-expected.txt");
	_cleanup_free_ char *model = lscpu_value(ls, "Model name", 0);
	assert_jstr(rec, "cpu.model", model);
	assert_jstr(rec, "cpu.arch", "armv7l");
	/* the MIDR comes from the block after the processor list */
	assert_jstr(rec, "cpu.midr.part", "0xc0f");
	assert_int_equal(jint(rec, "cpu.sockets"), lscpu_int(ls, "Socket(s)", 0));
	assert_int_equal(jint(rec, "cpu.cores"), lscpu_int(ls, "Core(s) per socket", 0));
	assert_true(jdouble(rec, "cpu.bogomips") == 1694.10);
	assert_int_equal(jint(rec, "cpu.freq.max_khz"), 1700000);
	assert_int_equal(jint(rec, "cpu.freq.min_khz"), 200000);
	assert_jstr(rec, "cpu.freq.driver", "exynos_cpufreq");
	assert_true(has_finding(rec, "cpu.governor.ondemand"));
}

static void epyc_7451(void **state)
{
	const char *fx = "util-linux-x86_64-epyc_7451";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	_cleanup_free_ char *ls = aux_text(fx, "lscpu-expected.txt");
	_cleanup_free_ char *model = lscpu_value(ls, "Model name", 0);
	_cleanup_free_ char *vendor = lscpu_value(ls, "Vendor ID", 0);
	int64_t sockets = lscpu_int(ls, "Socket(s)", 0);
	int64_t cores = sockets * lscpu_int(ls, "Core(s) per socket", 0);
	assert_jstr(rec, "cpu.model", model);
	assert_jstr(rec, "cpu.vendor", vendor);
	assert_jnull(rec, "cpu.midr");
	assert_int_equal(jint(rec, "cpu.sockets"), sockets);
	assert_int_equal(jint(rec, "cpu.cores"), cores);
	assert_int_equal(jint(rec, "cpu.threads"), cores * lscpu_int(ls, "Thread(s) per core", 0));
	assert_int_equal(jint(rec, "cpu.threads"), 96);
	_cleanup_free_ char *bogo = lscpu_value(ls, "BogoMIPS", 0);
	assert_true(jdouble(rec, "cpu.bogomips") == strtod(bogo, NULL));
	/* BogoMIPS differs per socket */
	assert_true(jdouble(rec, "cpu.bogomips_per_cpu.95") == 4571.13);
	_cleanup_free_ char *max = lscpu_value(ls, "CPU max MHz", 0);
	assert_int_equal(jint(rec, "cpu.freq.max_khz"), (int64_t)(strtod(max, NULL) * 1000));
	assert_jstr(rec, "cpu.freq.governor", "performance");
	assert_false(has_finding(rec, "cpu.governor.other"));
	bool b;
	assert_true(jpath_bool(rec, "cpu.freq.boost", &b) && b); /* "Frequency boost: enabled" */
	assert_true(has_finding(rec, "cpu.mitigations"));
	assert_jstr(rec, "cpu.vulnerabilities.meltdown", "Not affected");
}

static void xeon_64cpu_offline(void **state)
{
	const char *fx = "util-linux-x86_64-64cpu";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	_cleanup_free_ char *ls = aux_text(fx, "lscpu-expected.txt");
	int64_t sockets = lscpu_int(ls, "Socket(s)", 0);
	assert_int_equal(jint(rec, "cpu.sockets"), sockets);
	assert_int_equal(jint(rec, "cpu.cores"), sockets * lscpu_int(ls, "Core(s) per socket", 0));
	assert_int_equal(jint(rec, "cpu.threads"), lscpu_int(ls, "CPU(s)", 0));
	_cleanup_free_ char *online = lscpu_value(ls, "On-line CPU(s) list", 0);
	assert_jstr(rec, "cpu.online", online);
	assert_jstr(rec, "cpu.possible", "0-79");
	/* "Intel(R) Xeon(R) CPU           X7550  @ 2.00GHz", squeezed */
	assert_jstr(rec, "cpu.model", "Intel(R) Xeon(R) CPU X7550 @ 2.00GHz");
	/* one acpi-cpufreq policy per CPU (cpuN/cpufreq layout) */
	assert_int_equal(jpath_len(rec, "cpu.freq.policies"), 64);
	assert_jstr(rec, "cpu.freq.policies.1.policy", "cpu1");
	assert_jstr(rec, "cpu.freq.policies.1.cpus", "1");
	assert_jstr(rec, "cpu.freq.governor", "ondemand");
	_cleanup_free_ char *min = lscpu_value(ls, "CPU min MHz", 0);
	assert_int_equal(jint(rec, "cpu.freq.min_khz"), (int64_t)(strtod(min, NULL) * 1000));
	assert_true(has_finding(rec, "cpu.governor.ondemand"));

	_cleanup_free_ char *text = render_cpu(rec);
	assert_non_null(strstr(text, "online 0-63 of possible 0-79"));
}

static void hybrid_intel_pstate(void **state)
{
	const char *fx = "hwloc-20em64t-hybrid-1p6c2t+2ca4co1t";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	assert_topology_lstopo(rec, fx);
	assert_jstr(rec, "cpu.model", "13th Gen Intel(R) Core(TM) i7-1370P");
	assert_jstr(rec, "cpu.freq.driver", "intel_pstate");
	assert_jstr(rec, "cpu.freq.governor", "powersave");
	assert_int_equal(jint(rec, "cpu.freq.max_khz"), 5200000);
	/* no_turbo 0: boost on, from intel_pstate */
	bool b;
	assert_true(jpath_bool(rec, "cpu.freq.boost", &b) && b);
	assert_jstr(rec, "cpu.freq.boost_source", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	assert_false(has_finding(rec, "cpu.boost-off"));

	json_object *findings = jpath(rec, "findings");
	const char *message = NULL;
	for (size_t i = 0; i < jpath_len(rec, "findings"); i++)
		if (streq_ptr(jpath_str(json_object_array_get_idx(findings, i), "id"), "cpu.governor.powersave"))
			message = jpath_str(json_object_array_get_idx(findings, i), "message");
	assert_non_null(message);
	assert_non_null(strstr(message, "intel_pstate's powersave is its dynamic governor"));

	/* P-cores and E-cores have different limits: one line each */
	_cleanup_free_ char *text = render_cpu(rec);
	assert_non_null(strstr(text, "CPUs 12-19: intel_pstate, governor powersave, 400–3900 MHz"));
}

static void offline_cpu0_node0(void **state)
{
	const char *fx = "hwloc-offline-cpu0-node0";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	assert_topology_lstopo(rec, fx);
	assert_jstr(rec, "cpu.online", "4-20");
	assert_jstr(rec, "cpu.possible", "0-191");
	assert_jstr(rec, "cpu.model", "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz");
	/* cpuinfo still lists the offline CPUs 0-3: per-CPU values follow the online list */
	assert_int_equal(jpath_len(rec, "cpu.bogomips_per_cpu"), 17);
	assert_true(jdouble(rec, "cpu.bogomips") > 0);
}

static void el5xen_no_online_file(void **state)
{
	const char *fx = "util-linux-x86_64-el5xen";
	_cleanup_json_ json_object *rec = probe_fixture(fx, NULL);
	_cleanup_free_ char *ls = aux_text(fx, "lscpu-expected.txt");
	assert_jstr(rec, "cpu.online", "0-7");
	assert_true(has_unavailable(rec, "online CPUs: no /sys"));
	assert_jnull(rec, "cpu.possible");
	assert_true(has_unavailable(rec, "possible CPUs"));
	/* every vCPU its own socket, as lscpu says */
	assert_int_equal(jint(rec, "cpu.sockets"), lscpu_int(ls, "CPU socket(s)", 0));
	assert_int_equal(jint(rec, "cpu.cores"), lscpu_int(ls, "CPU(s)", 0));
	assert_int_equal(jint(rec, "cpu.threads"), lscpu_int(ls, "CPU(s)", 0));
	_cleanup_free_ char *bogo = lscpu_value(ls, "BogoMIPS", 0);
	assert_true(jdouble(rec, "cpu.bogomips") == strtod(bogo, NULL));
	assert_jnull(rec, "cpu.vulnerabilities");
}

/* No sysfs at all: topology from cpuinfo (physical id 0, core id 0, siblings 2, cpu cores 1). */
static void aws_xen_cpuinfo_topology(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("virt-what-aws-xen-x86", NULL);
	assert_jstr(rec, "cpu.topology_source", "cpuinfo");
	assert_true(has_unavailable(rec, "topology: no"));
	assert_int_equal(jint(rec, "cpu.sockets"), 1);
	assert_int_equal(jint(rec, "cpu.cores"), 1);
	assert_int_equal(jint(rec, "cpu.threads"), 2);
	assert_jstr(rec, "cpu.model", "Intel(R) Xeon(R) CPU E5-2666 v3 @ 2.90GHz");
}

/*
 * The peers' dumps: CPUs grouped by their sibling sets as lscpu and hwloc
 * group them (physical_package_id -1 on POWER, s390 and SPARC, repeated
 * on ia64; masks without lists), CPUs from cpuN/topology alone, and
 * per-CPU online files.
 */
static void peer_topologies(void **state)
{
	static const struct {
		const char *dump, *online;
		int sockets, cores, threads;
	} cases[] = {
		{ "util-linux-ppc64-POWER7-64cpu", "0-63", 16, 16, 64 },
		{ "util-linux-s390-lpar", "1-5,8-19", 7, 17, 17 },
		{ "util-linux-sparc64", "6-7,10-11,14-15", 6, 6, 6 },
		{ "hwloc-20s390-2g6s4c", "0-19", 8, 20, 20 },
		{ "hwloc-16ia64-8n2s", "0-15", 16, 16, 16 },
		{ "hwloc-16em64t-4s2ca2c-cpusetreorder", "0-15", 4, 16, 16 },
		{ "hwloc-64fake-4n2s2ca2c2t", "0-63", 8, 32, 64 },
		{ "hwloc-16em64t-4s2c2t-offlines", "0-1,3-4,6-12,15", 4, 7, 12 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_json_ json_object *rec = probe_fixture(cases[i].dump, NULL);
		print_message("%s\n", cases[i].dump);
		assert_jstr(rec, "cpu.online", cases[i].online);
		assert_jstr(rec, "cpu.topology_source", "sysfs");
		assert_int_equal(jint(rec, "cpu.sockets"), cases[i].sockets);
		assert_int_equal(jint(rec, "cpu.cores"), cases[i].cores);
		assert_int_equal(jint(rec, "cpu.threads"), cases[i].threads);
	}
	_cleanup_json_ json_object *rec = probe_fixture("hwloc-64fake-4n2s2ca2c2t", NULL);
	assert_true(has_unavailable(rec, "online CPUs: neither /sys/devices/system/cpu/online nor /proc/cpuinfo"));
	/* PS3: thread siblings only, so cores but no sockets */
	_cleanup_json_ json_object *ps3 = probe_fixture("hwloc-2ps3-2t", NULL);
	assert_int_equal(jint(ps3, "cpu.cores"), 1);
	assert_jnull(ps3, "cpu.sockets");
	assert_true(has_unavailable(ps3, "sockets: neither package siblings"));
}

/* Architecture, model and BogoMIPS from the cpuinfo of every family. */
static void other_architectures(void **state)
{
	static const struct {
		const char *dump, *arch, *model;
		double bogomips; /* 0: none */
	} cases[] = {
		{ "util-linux-s390-zvm", "s390x", NULL, 14367.0 },
		{ "util-linux-ppc-qemu", "ppc", "740/750", 33.25 },
		{ "util-linux-ppc64-POWER7", "ppc64", "POWER7 (architected), altivec supported", 0 },
		{ "hwloc-2ps3-2t", "ppc64", "Cell Broadband Engine, altivec supported", 0 },
		{ "util-linux-sparc64", "sparc64", "TI UltraSparc II (BlackBird)", 0 },
		{ "hwloc-8ia64-2s2c2t", "ia64", NULL, 3186.68 },
		{ "util-linux-loongarch-loongson_3a5000_hv", "loongarch64", "Loongson-3A5000-HV", 5000.0 },
		{ "util-linux-rv64-visionfive2", "riscv64", "sifive,u74-mc", 0 },
		{ "virt-what-lx86", "i686", "PowerVM Lx86", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_json_ json_object *rec = probe_fixture(cases[i].dump, NULL);
		print_message("%s\n", cases[i].dump);
		assert_jstr(rec, "host.arch", cases[i].arch);
		assert_jstr(rec, "cpu.arch", cases[i].arch);
		if (cases[i].model)
			assert_jstr(rec, "cpu.model", cases[i].model);
		if (cases[i].bogomips)
			assert_true(jdouble(rec, "cpu.bogomips") == cases[i].bogomips);
	}
	/* s390: one "processor N:" line per CPU, "bogomips per cpu" for all */
	_cleanup_json_ json_object *s390 = probe_fixture("util-linux-s390-lpar", NULL);
	assert_int_equal(jpath_len(s390, "cpu.bogomips_per_cpu"), 17);
	assert_true(jdouble(s390, "cpu.bogomips_per_cpu.16") == 14367.0);

	assert_string_equal(cpuinfo_arch("processor\t: 0\nisa\t\t: rv32imac\n"), "riscv32");
	assert_string_equal(cpuinfo_arch("system type\t: MT7621\nprocessor\t: 0\ncpu model\t: MIPS 1004Kc V2.15\n"),
			    "mips");
	assert_string_equal(cpuinfo_arch("cpu\t\t: PPC970MP, altivec supported\nrevision\t: 1.1 (pvr 0044 0101)\n"),
			    "ppc64");
	assert_string_equal(cpuinfo_arch("cpu\t\t: TI UltraSparc II\ntype\t\t: sun4m\n"), "sparc");
	assert_string_equal(cpuinfo_arch("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu lm sse\n"),
			    "x86_64");
	assert_string_equal(cpuinfo_arch("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu pae\n"), "i686");
	assert_null(cpuinfo_arch("nothing : here\n"));
}

static void no_cpuinfo_at_all(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("util-linux-lsblk-simple-nvme", NULL);
	assert_jnull(rec, "cpu.model");
	assert_jnull(rec, "cpu.online");
	assert_jnull(rec, "cpu.threads");
	assert_jnull(rec, "cpu.bogomips");
	assert_jnull(rec, "cpu.freq.governor");
	assert_true(has_unavailable(rec, "/proc/cpuinfo"));
}

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

static void cmdline_lists(void **state)
{
	static const struct {
		const char *cmdline, *option, *expected;
	} cases[] = {
		{ "ro quiet", "isolcpus", "" },
		{ "root=/dev/sda1 isolcpus=2,3 quiet", "isolcpus", "2-3" },
		{ "isolcpus=nohz,domain,managed_irq,4-7 nohz_full=4-7", "isolcpus", "4-7" },
		{ "isolcpus=nohz,domain,managed_irq,4-7 nohz_full=4-7\n", "nohz_full", "4-7" },
		{ "isolcpus=1 isolcpus=2-3", "isolcpus", "2-3" },
		{ "xisolcpus=1", "isolcpus", "" },
		{ "isolcpus=0-62:2/4", "isolcpus", "0-1,4-5,8-9,12-13,16-17,20-21,24-25,28-29,32-33,36-37,40-41,44-45,48-49,52-53,56-57,60-61" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *v = cmdline_cpu_list(cases[i].cmdline, cases[i].option);
		assert_non_null(v);
		assert_string_equal(v, cases[i].expected);
	}
	assert_null(cmdline_cpu_list("isolcpus=domain", "isolcpus"));
	assert_null(cmdline_cpu_list("isolcpus=2-x", "isolcpus"));

	struct cpuset c = {0};
	assert_int_equal(cpu_list_parse("0 1 2 3 ", &c), 0);
	assert_int_equal(cpuset_count(&c), 4);
	assert_int_equal(cpu_list_parse("0-3,8", &c), 0);
	assert_int_equal(cpuset_count(&c), 5);
	assert_int_equal(cpu_list_parse("0 x", &c), -EINVAL);
	cpuset_free(&c);
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

static void rule_several_kinds(void **state)
{
	struct finding f;
	assert_true(run_rule("cpu.several-kinds",
			     "{\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\", \"fastest\": false}, "
			     "{\"model\": \"Cortex-A76\", \"cpus\": \"4-7\", \"fastest\": true}]}}",
			     &f));
	assert_string_equal(f.evidence, "cpu.kinds: Cortex-A55 (CPUs 0-3), Cortex-A76 (CPUs 4-7, fastest)");
	assert_non_null(strstr(f.fix, "runs the 1-copy pass on CPUs 4-7"));
	finding_clear(&f);
	/* Intel's kinds by their core types; one fastest CPU */
	assert_true(run_rule("cpu.several-kinds",
			     "{\"cpu\": {\"kinds\": [{\"model\": \"i7\", \"core_type\": \"performance\", \"cpus\": \"0\", "
			     "\"fastest\": true}, {\"model\": \"i7\", \"core_type\": \"efficiency\", \"cpus\": \"1-8\"}]}}",
			     &f));
	assert_string_equal(f.evidence, "cpu.kinds: P-cores (CPU 0, fastest), E-cores (CPUs 1-8)");
	finding_clear(&f);
	assert_false(run_rule("cpu.several-kinds", "{\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": "
						   "\"0-3\"}]}}",
			      &f));
	assert_false(run_rule("cpu.several-kinds", "{\"cpu\": {\"kinds\": null}}", &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kunpeng_920),
		cmocka_unit_test(gb10_two_kinds),
		cmocka_unit_test(mate8_old_format),
		cmocka_unit_test(mate20_no_governor),
		cmocka_unit_test(raspberrypi3_spaces),
		cmocka_unit_test(qualcomm_a510_x3),
		cmocka_unit_test(armv7_exynos),
		cmocka_unit_test(epyc_7451),
		cmocka_unit_test(xeon_64cpu_offline),
		cmocka_unit_test(hybrid_intel_pstate),
		cmocka_unit_test(offline_cpu0_node0),
		cmocka_unit_test(el5xen_no_online_file),
		cmocka_unit_test(aws_xen_cpuinfo_topology),
		cmocka_unit_test(peer_topologies),
		cmocka_unit_test(other_architectures),
		cmocka_unit_test(no_cpuinfo_at_all),
		cmocka_unit_test(cpuinfo_layouts),
		cmocka_unit_test(midr_register),
		cmocka_unit_test(arm_names),
		cmocka_unit_test(cmdline_lists),
		cmocka_unit_test(rule_governors),
		cmocka_unit_test(rule_boost_off),
		cmocka_unit_test(rule_max_freq_capped),
		cmocka_unit_test(rule_mitigations),
		cmocka_unit_test(rule_isolated),
		cmocka_unit_test(rule_several_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
