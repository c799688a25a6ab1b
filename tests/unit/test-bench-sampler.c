/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc parsing, the preflight verdict and the sampler's events, on a
 * throwaway root whose files change between readings. */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/preflight.h"
#include "bench/procstat.h"
#include "bench/sampler.h"
#include "unixbench/catalogue.h"
#include "probe/services.h"
#include "probetest.h"

static void proc_parsers(void **state)
{
	/* the probe's parser of /proc/PID/stat keeps the parent the sampler needs */
	struct proc_info p;
	assert_int_equal(proc_stat_parse("4242 (my (odd) name) R 17 4242 4242 0 -1 4194304 10 0 0 0 "
					 "150 50 0 0 20 0 1 0 98765 1000 200\n", &p), 0);
	assert_int_equal(p.pid, 4242);
	assert_int_equal(p.ppid, 17);
	assert_int_equal(p.cpu_ticks, 200);
	assert_string_equal(p.comm, "my (odd) name");

	struct stat_snapshot s;
	assert_int_equal(stat_parse("cpu  10 0 10 70 5 0 0 5 0 0\ncpu0 5 0 5 35 2 0 0 3\ncpu3 5 0 5 35 3 0 0 2\n"
				    "intr 1 2\nprocs_running 3\nprocs_blocked 0\n", &s), 0);
	assert_int_equal(s.ncpu, 4);
	assert_true(s.cpu[0].present && !s.cpu[1].present && s.cpu[3].present);
	assert_int_equal(s.procs_running, 3);
	assert_int_equal(cpu_times_total(&s.all), 100);
	assert_int_equal(cpu_times_busy(&s.all), 25);
	struct stat_snapshot t;
	assert_int_equal(stat_parse("cpu  20 0 10 150 5 0 0 15\n", &t), 0);
	/* +10 busy +80 idle +10 steal of 100 ticks */
	assert_float_equal(cpu_share_pct(&s.all, &t.all, cpu_part_busy), 20.0, 1e-9);
	assert_float_equal(cpu_share_pct(&s.all, &t.all, cpu_part_steal), 10.0, 1e-9);
	assert_float_equal(cpu_share_pct(&s.all, &t.all, cpu_part_iowait), 0.0, 1e-9);
	assert_true(isnan(cpu_share_pct(&t.all, &t.all, cpu_part_busy)));
	stat_snapshot_free(&s);
	stat_snapshot_free(&t);
	assert_int_equal(stat_parse("intr 1\n", &s), -EBADMSG);
	assert_int_equal(stat_parse("cpu  a b c\n", &s), -EBADMSG);
}

static void preflight_verdict(void **state)
{
	struct proc_usage top[] = { { 4242, "cc1", 97.0 }, { 4200, "make", 3.2 } };
	struct preflight p = { .seconds = 1.0, .runnable = 1.8, .cpu_pct = 87, .ncpu = 2, .top = top, .ntop = 2 };
	assert_true(preflight_judge(&p));
	_cleanup_free_ char *d = preflight_describe(&p);
	assert_string_equal(d, "1.8 processes runnable besides ubtune and 87 % of CPU time in use over 1.0 s; "
			       "busiest processes seen: cc1 (pid 4242) 97 %, make (pid 4200) 3 %");
	/* quiet machine */
	p = (struct preflight){ .seconds = 1.0, .runnable = 0.1, .cpu_pct = 2.0, .ncpu = 64 };
	assert_false(preflight_judge(&p));
	/* one busy process on a 64-CPU machine: little CPU share, but runnable */
	p = (struct preflight){ .seconds = 1.0, .runnable = 1.0, .cpu_pct = 1.6, .ncpu = 64 };
	assert_true(preflight_judge(&p));
	/* no runnable count, CPU use decides */
	p = (struct preflight){ .seconds = 1.0, .runnable = NAN, .cpu_pct = 30, .ncpu = 2 };
	assert_true(preflight_judge(&p));
}

/* ---- a root that changes between sampler readings ---- */

static char *root;

static void put(const char *rel, const char *fmt, ...) _printf_(2, 3);
static void put(const char *rel, const char *fmt, ...)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", root, rel);
	_cleanup_free_ char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	_cleanup_free_ char *mk = xasprintf("mkdir -p '%s'", dir);
	assert_int_equal(system(mk), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

struct ticks {
	unsigned long user, idle, steal, cpu0_user, cpu0_idle, cpu1_idle, noisy, child;
};

static void write_state(const struct ticks *k)
{
	put("proc/stat", "cpu  %lu 0 0 %lu 0 0 0 %lu 0 0\ncpu0 %lu 0 0 %lu 0 0 0 0\ncpu1 0 0 0 %lu 0 0 0 0\n"
			 "procs_running 1\n", k->user, k->idle, k->steal, k->cpu0_user, k->cpu0_idle, k->cpu1_idle);
	put("proc/200/stat", "200 (noisy) R 1 200 200 0 -1 0 0 0 0 0 %lu 0 0 0 20 0 1 0 1000 0 0\n", k->noisy);
	/* a child of "ubtune" (pid 300): ours, not another process */
	put("proc/301/stat", "301 (pipe) R 300 301 301 0 -1 0 0 0 0 0 %lu 0 0 0 20 0 1 0 2000 0 0\n", k->child);
	put("proc/300/stat", "300 (ubtune) S 1 300 300 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 1500 0 0\n");
}

static int setup_root(void **state)
{
	char tmpl[] = "/tmp/ubtune-sampler-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	root = xstrdup(tmpl);
	setenv("TZ", "UTC", 1);
	tzset();
	put("proc/vmstat", "pgfault 1\npswpin 100\npswpout 50\n");
	for (int c = 0; c < 2; c++) {
		put(c ? "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq" : "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
		    "1800000\n");
		put(c ? "sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq" : "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
		    "1800000\n");
	}
	put("sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "7\n");
	put("sys/class/hwmon/hwmon0/name", "rpi_volt\n");
	put("sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
	put("sys/class/thermal/thermal_zone0/type", "cpu-thermal\n");
	put("sys/class/thermal/thermal_zone0/temp", "61000\n");
	put("sys/class/thermal/thermal_zone0/trip_point_0_temp", "60000\n");
	put("sys/class/thermal/thermal_zone0/trip_point_0_type", "active\n");
	put("sys/class/thermal/thermal_zone0/trip_point_1_temp", "80000\n");
	put("sys/class/thermal/thermal_zone0/trip_point_1_type", "passive\n");
	/* a slice with a CPU quota of half a CPU */
	put("proc/self/cgroup", "0::/bench.slice\n");
	put("sys/fs/cgroup/bench.slice/cpu.max", "50000 100000\n");
	put("sys/fs/cgroup/bench.slice/cpu.stat", "usage_usec 10\nnr_periods 2\nnr_throttled 0\nthrottled_usec 0\n");
	return 0;
}

static int teardown_root(void **state)
{
	_cleanup_free_ char *rm = xasprintf("rm -rf '%s'", root);
	assert_int_equal(system(rm), 0);
	free(root);
	return 0;
}

static const char *event_message(json_object *events, const char *kind)
{
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		json_object *e = json_object_array_get_idx(events, i);
		if (streq(jpath_str(e, "kind"), kind))
			return jpath_str(e, "message");
	}
	return NULL;
}

/* A sampler on the test root, all counters at zero, after its reference
 * reading at base. */
static struct sampler *start_sampler(struct rootfs **rf, pid_t self, struct ticks *k, time_t base)
{
	assert_int_equal(rootfs_new(root, rf), 0);
	*k = (struct ticks){ 0 };
	write_state(k);
	struct sampler *s;
	assert_int_equal(sampler_new(*rf, self, &s), 0);
	sampler_tick(s, 0, base);
	return s;
}

static void sampler_events_from_readings(void **state)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	struct ticks k;
	const time_t base = 1767268800; /* 2026-01-01 12:00:00 UTC */
	struct sampler *s = start_sampler(&rf, 300, &k, base);
	int pipe_test = (int)(ub_index_test("pipe") - ub_tests);
	int syscall_test = (int)(ub_index_test("syscall") - ub_tests);

	sampler_set_phase(s, pipe_test, 2);
	for (int t = 1; t <= 3; t++) {
		/* CPU 0 busy at 600 MHz of 1800, 20 % steal, another process at 50 % */
		k.user += 60, k.idle += 100, k.steal += 40;
		k.cpu0_user += 100, k.cpu1_idle += 100;
		k.noisy += 50, k.child += 90;
		write_state(&k);
		put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "600000\n");
		if (t == 2) {
			put("sys/class/hwmon/hwmon0/in0_lcrit_alarm", "1\n");
			put("sys/class/thermal/thermal_zone0/temp", "85000\n");
			put("proc/vmstat", "pswpin 110\npswpout 50\n");
		} else {
			put("sys/class/thermal/thermal_zone0/temp", "70000\n");
		}
		if (t == 3)
			put("sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "10\n");
		if (t >= 2)
			put("sys/fs/cgroup/bench.slice/cpu.stat", "nr_periods %d\nnr_throttled %d\nthrottled_usec %d\n",
			    10 * t, t == 2 ? 4 : 9, t == 2 ? 250000 : 600000);
		sampler_tick(s, t, base + t);
	}
	sampler_set_phase(s, syscall_test, 2);
	for (int t = 4; t <= 5; t++) {
		k.idle += 200, k.cpu0_idle += 100, k.cpu1_idle += 100;
		write_state(&k);
		put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1800000\n");
		if (t == 5)
			put("sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
		sampler_tick(s, t, base + t);
	}
	sampler_finish(s, 6);

	static const char *const want[][2] = {
		{ "low-clock", "CPU 0 ran at 600 MHz of 1800 for 3 s during Pipe Throughput, 2 copies" },
		{ "steal", "steal time 20 % for 3 s during Pipe Throughput, 2 copies: the hypervisor gave these "
			   "CPUs to other work" },
		{ "others", "other processes used 50 % of a CPU for 3 s during Pipe Throughput, 2 copies; "
			    "busiest: noisy (pid 200)" },
		{ "undervoltage", "undervoltage alarm raised at 12:00:02 during Pipe Throughput, 2 copies "
				  "(hwmon0 rpi_volt in0_lcrit_alarm); cleared at 12:00:05" },
		{ "thermal", "temperature reached 85.0 °C (cpu-thermal, trip 80.0 °C) during Pipe Throughput, "
			     "2 copies; above the trip for 1 s" },
		{ "swap", "swapping started at 12:00:02 during Pipe Throughput, 2 copies: 10 pages in, 0 out over 1 s" },
		{ "throttle", "thermal throttle counters rose by 3 (CPU 0) during Pipe Throughput, 2 copies" },
		{ "cpu-quota", "the cgroup's CPU quota held ubtune's processes back for 0.6 s in 9 periods during "
			       "Pipe Throughput, 2 copies" },
	};
	json_object *ev = sampler_events(s);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const char *m = event_message(ev, want[i][0]);
		if (!m || !streq(m, want[i][1]))
			fail_msg("%s event: '%s', expected '%s'", want[i][0], m ?: "(none)", want[i][1]);
	}
	assert_int_equal(json_object_array_length(ev), ARRAY_SIZE(want));
	/* listed by when they began */
	for (size_t i = 1; i < json_object_array_length(ev); i++) {
		double a, b;
		assert_true(jpath_double(json_object_array_get_idx(ev, i - 1), "offset_s", &a));
		assert_true(jpath_double(json_object_array_get_idx(ev, i), "offset_s", &b));
		assert_true(a <= b);
	}

	json_object *samples = sampler_samples(s);
	assert_int_equal(json_object_array_length(samples), 5);
	json_object *s1 = json_object_array_get_idx(samples, 0);
	assert_jstr(s1, "test", "pipe");
	assert_int_equal(jint(s1, "copies"), 2);
	assert_int_equal(jint(s1, "mhz.0"), 600);
	assert_int_equal(jint(s1, "busy_pct.0"), 100);
	assert_int_equal(jint(s1, "steal_pct"), 20);
	assert_int_equal(jint(s1, "temp_mc"), 70000);
	double others;
	assert_true(jpath_double(s1, "others_pct", &others));
	assert_float_equal(others, 50.0, 1e-9); /* pid 301 descends from 300: left out */
	assert_jstr(json_object_array_get_idx(samples, 1), "alarms.0", "hwmon0 rpi_volt in0_lcrit_alarm");
	assert_jstr(json_object_array_get_idx(samples, 4), "test", "syscall");
	assert_int_equal(jint(json_object_array_get_idx(samples, 1), "throttled_ms"), 250);
	assert_int_equal(jint(json_object_array_get_idx(samples, 4), "throttled_ms"), 0);

	json_object *sum = sampler_summary(s);
	assert_int_equal(jint(sum, "count"), 5);
	assert_int_equal(jint(sum, "max_temp_mc"), 85000);
	assert_int_equal(jint(sum, "min_mhz"), 600);
	assert_int_equal(jint(sum, "sources.hwmon_alarms"), 1);
	assert_jstr(sum, "sources.cgroup", "/sys/fs/cgroup/bench.slice");
	double throttled;
	assert_true(jpath_double(sum, "throttled_s", &throttled));
	assert_float_equal(throttled, 0.6, 1e-9);
	json_object_put(sum);
	sampler_free(s);
}

static void alarm_raised_before_the_run(void **state)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	struct ticks k;
	put("sys/class/hwmon/hwmon0/in0_lcrit_alarm", "1\n");
	struct sampler *s = start_sampler(&rf, 0, &k, 1767268800);
	sampler_set_phase(s, 0, 1);
	k.idle += 200;
	write_state(&k);
	sampler_tick(s, 1, 1767268801);
	sampler_finish(s, 2);
	assert_string_equal(event_message(sampler_events(s), "undervoltage"),
			    "undervoltage alarm was already raised when the run started (hwmon0 rpi_volt "
			    "in0_lcrit_alarm); still raised at the end of the run");
	/* without a self, the child counts as another process, but a quiet one */
	assert_null(event_message(sampler_events(s), "others"));
	sampler_free(s);
	put("sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
}

static void a_dip_does_not_split_an_event(void **state)
{
	/* another process busy for 2 s, idle for 1 (a pass's settling), busy 2 s more */
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	struct ticks k;
	struct sampler *s = start_sampler(&rf, 300, &k, 1767268800);
	sampler_set_phase(s, 0, 1);
	for (int t = 1; t <= 5; t++) {
		k.idle += 200;
		k.noisy += t == 3 ? 0 : 40;
		write_state(&k);
		sampler_tick(s, t, 1767268800 + t);
	}
	sampler_finish(s, 6);
	json_object *ev = sampler_events(s);
	assert_int_equal(json_object_array_length(ev), 1);
	assert_string_equal(event_message(ev, "others"), "other processes used 40 % of a CPU for 5 s during Dhrystone 2 "
							 "using register variables, 1 copy; busiest: noisy (pid 200)");
	sampler_free(s);
}

static void sampler_thread_on_this_machine(void **state)
{
	/*
	 * The live machine: the thread takes readings and measures its own cost.
	 * A reading may take long on a loaded machine or under an emulator, so
	 * the thread is given longer each time until it has taken two: this
	 * checks that it samples, not how fast.
	 */
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	assert_int_equal(rootfs_new("/", &rf), 0);
	size_t n = 0;
	for (long wait_ms = 300; n < 2 && wait_ms <= 20000; wait_ms *= 4) {
		struct sampler *s;
		assert_int_equal(sampler_new(rf, getpid(), &s), 0);
		assert_int_equal(sampler_start(s, 0.05), 0);
		nanosleep(&(struct timespec){ .tv_sec = wait_ms / 1000, .tv_nsec = wait_ms % 1000 * 1000000L }, NULL);
		sampler_stop(s);
		n = json_object_array_length(sampler_samples(s));
		if (n >= 2) {
			json_object *sum = sampler_summary(s);
			double cpu;
			assert_true(jpath_double(sum, "cpu_s", &cpu) && cpu > 0);
			json_object_put(sum);
		}
		sampler_free(s);
	}
	assert_true(n >= 2);
}

/* The probe and the sampler read the same sources alike: the trip that
 * counts, hwmon sensors kept in device/ by old drivers, and package
 * throttle counters that every CPU of a package repeats. */
static void probe_and_sampler_agree(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "proc/stat", "cpu  0 0 0 100 0 0 0 0\ncpu0 0 0 0 50 0 0 0 0\ncpu1 0 0 0 50 0 0 0 0\n");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/type", "x86_pkg_temp");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/temp", "90000");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/trip_point_0_temp", "95000");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/trip_point_0_type", "critical");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/trip_point_1_temp", "75000");
	tmproot_write(r, "sys/class/thermal/thermal_zone0/trip_point_1_type", "passive");
	tmproot_write(r, "sys/class/hwmon/hwmon0/device/name", "rpi_volt");
	tmproot_write(r, "sys/class/hwmon/hwmon0/device/in0_lcrit_alarm", "1");
	for (int c = 0; c < 2; c++) {
		_cleanup_free_ char *pkg = xasprintf("sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		_cleanup_free_ char *cnt = xasprintf("sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", c);
		tmproot_write(r, pkg, "0");
		tmproot_write(r, cnt, "4");
	}

	json_object *rec = probe_root(r, NULL);
	/* already above the passive trip: that is the one that counts, not the next one up */
	assert_int_equal(jint(rec, "power.thermal.0.trip_mc"), 75000);
	assert_int_equal(jint(rec, "power.thermal.0.trip_point"), 1);
	assert_jstr(rec, "power.hwmon.0.path", "/sys/class/hwmon/hwmon0/device");
	assert_int_equal(jint(rec, "power.throttle.package_events"), 4);
	json_object_put(rec);

	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	assert_int_equal(rootfs_new(r, &rf), 0);
	struct sampler *s;
	assert_int_equal(sampler_new(rf, 0, &s), 0);
	sampler_tick(s, 0, 1767268800);
	sampler_set_phase(s, 0, 2);
	tmproot_write(r, "proc/stat", "cpu  0 0 0 300 0 0 0 0\ncpu0 0 0 0 150 0 0 0 0\ncpu1 0 0 0 150 0 0 0 0\n");
	for (int c = 0; c < 2; c++) {
		_cleanup_free_ char *cnt = xasprintf("sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", c);
		tmproot_write(r, cnt, "6");
	}
	sampler_tick(s, 1, 1767268801);
	sampler_finish(s, 2);
	json_object *ev = sampler_events(s);
	assert_string_equal(event_message(ev, "thermal"), "temperature reached 90.0 °C (x86_pkg_temp, trip 75.0 °C) "
							  "during Dhrystone 2 using register variables, 2 copies; "
							  "above the trip for 1 s");
	assert_string_equal(event_message(ev, "throttle"), "thermal throttle counters rose by 2 (CPU 0) during "
							   "Dhrystone 2 using register variables, 2 copies");
	assert_string_equal(event_message(ev, "undervoltage"), "undervoltage alarm was already raised when the run "
							       "started (hwmon0 rpi_volt in0_lcrit_alarm); still "
							       "raised at the end of the run");
	sampler_free(s);
	tmproot_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(proc_parsers),
		cmocka_unit_test(preflight_verdict),
		cmocka_unit_test(sampler_events_from_readings),
		cmocka_unit_test(alarm_raised_before_the_run),
		cmocka_unit_test(a_dip_does_not_split_an_event),
		cmocka_unit_test(sampler_thread_on_this_machine),
		cmocka_unit_test(probe_and_sampler_agree),
	};
	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
