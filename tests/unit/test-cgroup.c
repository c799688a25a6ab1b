/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cgroup of the process that benchmarks: the fixture roots cgroup-quota,
 * cgroup-cpuset and cgroup-both, the layouts of hwloc's cpuset dumps, small
 * roots built here, and the findings. */
#include "lib/cgroup.h"
#include "probe/probe.h"
#include "probetest.h"

static void quota_v2(void **state)
{
	json_object *rec = probe_fixture("cgroup-quota", NULL);
	assert_int_equal(jint(rec, "cgroup.version"), 2);
	assert_jstr(rec, "cgroup.path", "/system.slice/bench.service");
	assert_int_equal(jint(rec, "cgroup.cpu_quota_us"), 25000);
	assert_int_equal(jint(rec, "cgroup.cpu_period_us"), 100000);
	double cpus = 0;
	assert_true(jpath_double(rec, "cgroup.cpu_quota_cpus", &cpus));
	assert_true(cpus == 0.25);
	/* the service's own cpu.max, not its slice's "max" */
	assert_jstr(rec, "cgroup.cpu_quota_source", "/sys/fs/cgroup/system.slice/bench.service/cpu.max");
	assert_int_equal(jint(rec, "cgroup.throttling.nr_periods"), 1250);
	assert_int_equal(jint(rec, "cgroup.throttling.nr_throttled"), 1240);
	assert_int_equal(jint(rec, "cgroup.throttling.throttled_usec"), 93500000);
	assert_int_equal(jint(rec, "cgroup.memory_max"), 2147483648);
	assert_int_equal(jint(rec, "cgroup.cpu_weight"), 100);
	assert_jnull(rec, "cgroup.cpu_shares");
	assert_jstr(rec, "cgroup.cpuset", "0-7");
	/* a quarter of a CPU keeps one copy busy */
	assert_int_equal(jint(rec, "cgroup.cpus"), 1);
	assert_int_equal(jint(rec, "host.limits.pids_max"), 4915);

	struct finding f;
	assert_true(rule_fires("cgroup.cpu-quota", rec, &f));
	assert_string_equal(f.evidence, "/sys/fs/cgroup/system.slice/bench.service/cpu.max = 25000 100000 (0.25 CPUs) "
					"of 8 online; /sys/fs/cgroup/system.slice/bench.service/cpu.stat: throttled in "
					"1240 of 1250 periods, 93.5 s");
	assert_non_null(strstr(f.message, "A run starts 1 copy, not 8"));
	finding_clear(&f);
	assert_false(rule_fires("cgroup.cpuset", rec, &f));

	_cleanup_free_ char *text = render_text(cgroup_render, rec);
	assert_string_equal(text, "Cgroup    v2 /system.slice/bench.service · cpuset 0-7 · CPU quota 0.25 CPUs "
				  "(25000/100000 µs) · throttled 93.5 s in 1240 of 1250 periods · memory.max 2.0 GiB "
				  "· a run can keep 1 CPU busy\n");
	json_object_put(rec);
}

static void cpuset_v1(void **state)
{
	json_object *rec = probe_fixture("cgroup-cpuset", NULL);
	assert_int_equal(jint(rec, "cgroup.version"), 1);
	assert_jstr(rec, "cgroup.path", "/docker/4f1c");
	/* mounted at the container's own cgroup: the mount point is its directory */
	assert_jstr(rec, "cgroup.cpuset_source", "/sys/fs/cgroup/cpuset/cpuset.effective_cpus");
	assert_jstr(rec, "cgroup.cpuset", "2-3");
	assert_jnull(rec, "cgroup.cpu_quota_cpus");
	assert_int_equal(jint(rec, "cgroup.cpu_shares"), 1024);
	assert_jnull(rec, "cgroup.cpu_weight");
	assert_jstr(rec, "cgroup.memory_max", "max");
	assert_jstr(rec, "cgroup.throttling.source", "/sys/fs/cgroup/cpu,cpuacct/cpu.stat");
	assert_int_equal(jint(rec, "cgroup.throttling.throttled_usec"), 0);
	assert_int_equal(jint(rec, "cgroup.cpus"), 2);

	struct finding f;
	assert_false(rule_fires("cgroup.cpu-quota", rec, &f));
	assert_true(rule_fires("cgroup.cpuset", rec, &f));
	assert_string_equal(f.evidence, "/sys/fs/cgroup/cpuset/cpuset.effective_cpus = 2-3; online 0-7");
	finding_clear(&f);
	json_object_put(rec);
}

/* A parent's quota over a child's cpuset: the tighter of both. */
static void quota_and_cpuset(void **state)
{
	json_object *rec = probe_fixture("cgroup-both", NULL);
	assert_jstr(rec, "cgroup.cpuset", "4-7");
	assert_jstr(rec, "cgroup.cpu_quota_source", "/sys/fs/cgroup/bench.slice/cpu.max");
	/* the slice's cpu.stat counts the throttling its quota caused */
	assert_jstr(rec, "cgroup.throttling.source", "/sys/fs/cgroup/bench.slice/cpu.stat");
	assert_int_equal(jint(rec, "cgroup.throttling.nr_throttled"), 4200);
	assert_int_equal(jint(rec, "cgroup.cpu_weight"), 50);
	assert_int_equal(jint(rec, "cgroup.memory_max"), 8589934592);
	assert_jstr(rec, "cgroup.affinity", "0-15");
	assert_jstr(rec, "cgroup.allowed", "4-7");
	assert_int_equal(jint(rec, "cgroup.cpus"), 1);
	struct finding f;
	assert_true(rule_fires("cgroup.cpu-quota", rec, &f));
	assert_non_null(strstr(f.evidence, "run.scope/cpuset.cpus.effective = 4-7"));
	finding_clear(&f);
	json_object_put(rec);
}

/* hwloc's test dumps: no /proc/self/cgroup, the cpuset's path in
 * /proc/self/cpuset, only /proc/mounts, the old cpuset file system or
 * a v1 mount with "noprefix" ("cpus", not "cpuset.cpus"). */
static void legacy_cpusets(void **state)
{
	static const struct {
		const char *dump, *cpuset, *source, *mems;
		int cpus;
	} cases[] = {
		{ "hwloc-16amd64-8n2c-cpusets", "0-6,12-15", "/dev/cpuset/dummy/cpus", "1-4", 10 },
		{ "hwloc-16em64t-4s2ca2c-cpusetreorder", "2-11,13", "/dev/cpuset/prout/cpus", NULL, 11 },
		{ "hwloc-32amd64-4s2n4c-cgroup2", "0-5", "/cgroup/unified/uid_2008/job_15389/step_0/cpuset.cpus.effective",
		  "0-5", 6 },
		{ "hwloc-4fake-4gr1nu1pu", "0-1", "/sys/fs/cgroup/cpuset/dummy/cpuset.cpus", "0,2", 2 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_object *rec = probe_fixture(cases[i].dump, NULL);
		print_message("%s\n", cases[i].dump);
		assert_jstr(rec, "cgroup.cpuset", cases[i].cpuset);
		assert_jstr(rec, "cgroup.cpuset_source", cases[i].source);
		assert_int_equal(jint(rec, "cgroup.cpus"), cases[i].cpus);
		if (cases[i].mems)
			assert_jstr(rec, "cgroup.mems", cases[i].mems);
		json_object_put(rec);
	}
	/* the online CPUs the cpuset leaves, and the packages and cores they span */
	json_object *rec = probe_fixture("hwloc-16amd64-8n2c-cpusets", NULL);
	assert_jstr(rec, "cgroup.allowed", "0-3,5-6,12-15");
	assert_int_equal(jint(rec, "cgroup.sockets"), 6);
	assert_int_equal(jint(rec, "cgroup.cores"), 10);
	assert_int_equal(jint(rec, "cpu.sockets"), 8);
	json_object_put(rec);
}

/* Bad or missing files: nothing made up. */
static void hostile(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(r, "proc/self/cgroup", "garbage\n");
	json_object *rec = probe_root(r, NULL);
	assert_jnull(rec, "cgroup.version");
	assert_jnull(rec, "cgroup.cpu_quota_cpus");
	assert_int_equal(jint(rec, "cgroup.cpus"), 4);
	assert_true(unavailable_mentions(rec, "cgroup", "/proc/self/cgroup: names no cgroup"));
	json_object_put(rec);

	/* cpu.max and cpu.stat that do not parse; a v1 quota of 0 */
	tmproot_write(r, "proc/self/cgroup", "0::/a\n");
	tmproot_write(r, "sys/fs/cgroup/a/cpu.max", "lots 100000\n");
	tmproot_write(r, "sys/fs/cgroup/a/cpu.stat", "usage_usec 5\n");
	tmproot_write(r, "sys/fs/cgroup/cpu.max", "50000 0\n");
	rec = probe_root(r, NULL);
	assert_int_equal(jint(rec, "cgroup.version"), 2);
	assert_jnull(rec, "cgroup.cpu_quota_cpus");
	assert_jnull(rec, "cgroup.throttling");
	json_object_put(rec);
	tmproot_free(r);

	assert_int_equal(cgroup_usable_cpus(8, 0), 8);
	assert_int_equal(cgroup_usable_cpus(8, 0.25), 1);
	assert_int_equal(cgroup_usable_cpus(8, 2.9), 2);
	assert_int_equal(cgroup_usable_cpus(2, 3.5), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quota_v2),        cmocka_unit_test(cpuset_v1), cmocka_unit_test(quota_and_cpuset),
		cmocka_unit_test(legacy_cpusets), cmocka_unit_test(hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
