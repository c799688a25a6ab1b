/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel-log events of a run, read from a stand-in for /dev/kmsg: only
 * what is logged after the start, classified, the marker left out. */
#include <fcntl.h>
#include <time.h>

#include "bench/kevents.h"
#include "bench/phases.h"
#include "unixbench/catalogue.h"
#include "testlib.h"

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "ae");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void classes(void **state)
{
	assert_string_equal(kevents_class("Out of memory: Killed process 1234 (looper) total-vm:1kB"), "oom");
	assert_string_equal(kevents_class("INFO: task jbd2/mmcblk0p6-8:123 blocked for more than 120 seconds."), "hung-task");
	assert_string_equal(kevents_class("thermal thermal_zone0: critical temperature reached (95 C), shutting down"),
			    "thermal-shutdown");
	assert_string_equal(kevents_class("CPU2: Package temperature above threshold, cpu clock throttled (total events = 1)"),
			    "thermal");
	assert_string_equal(kevents_class("hwmon hwmon1: Undervoltage detected!"), "voltage");
	assert_string_equal(kevents_class("mce: [Hardware Error]: Machine check events logged"), "mce");
	assert_string_equal(kevents_class("cgroup: fork rejected by pids controller in /user.slice/user-1000.slice"),
			    "fork-rejected");
	assert_null(kevents_class("thermal thermal_zone0: registered"));
	assert_null(kevents_class("usb 1-1: new high-speed USB device number 2"));

	unsigned long long ts;
	const char *text;
	size_t len;
	const char *rec = "4,1234,5678901,-;hwmon hwmon1: Undervoltage detected!\n SUBSYSTEM=hwmon\n";
	assert_true(kevents_record(rec, strlen(rec), &ts, &text, &len));
	assert_int_equal(ts, 5678901);
	assert_int_equal(len, strlen("hwmon hwmon1: Undervoltage detected!"));
	assert_false(kevents_record("no record", 9, &ts, &text, &len));
}

static void during_a_run(void **state)
{
	char dev[] = "/tmp/ubtune-kmsg-XXXXXX";
	int fd = mkstemp(dev);
	assert_true(fd >= 0);
	close(fd);
	/* logged before the run: not read */
	append(dev, "3,1,1000,-;Out of memory: Killed process 99 (old)\n");
	setenv("UBTUNE_KMSG_DEV", dev, 1);
	struct kevents k;
	kevents_start(&k, "2026-12-02T14:00:00+0000");
	struct timespec bt;
	clock_gettime(CLOCK_BOOTTIME, &bt);
	double base = (double)bt.tv_sec;
	/* what ran when: the OOM kill falls in Shell Scripts (8 concurrent)
	 * at 16 copies, the hung task after it, between tests */
	struct phases ph = {0};
	int sh8 = -1;
	for (int t = 0; t < UB_NINDEX; t++)
		if (streq(ub_tests[t].id, "shell8"))
			sh8 = t;
	assert_true(sh8 >= 0);
	phases_mark_at(&ph, base + 1.0, sh8, 16);
	phases_mark_at(&ph, base + 2.8, -1, 0);
	_cleanup_free_ char *later = xasprintf("3,2,%llu,-;Out of memory: Killed process 4242 (sh)\n"
					       "6,3,%llu,-;usb 1-1: new device\n"
					       "4,4,%llu,-;INFO: task sh:77 blocked for more than 120 seconds.\n",
					       (unsigned long long)bt.tv_sec * 1000000ULL + 2000000ULL,
					       (unsigned long long)bt.tv_sec * 1000000ULL + 2500000ULL,
					       (unsigned long long)bt.tv_sec * 1000000ULL + 3000000ULL);
	append(dev, later);
	json_object *summary;
	_cleanup_json_ json_object *ev = kevents_finish(&k, &ph, &summary);
	_cleanup_json_ json_object *sum = summary;
	phases_free(&ph);
	/* the file was writable: the marker went in, and is not an event */
	assert_int_equal(jarr_len(ev), 2);
	assert_jstr(ev, "0.kind", "kernel-oom");
	assert_jstr(ev, "0.message", "kernel: Out of memory: Killed process 4242 (sh) (during Shell Scripts (8 "
				     "concurrent), 16 copies)");
	assert_jstr(ev, "0.test", "shell8");
	assert_int_equal(jint(ev, "0.copies"), 16);
	double off = 0;
	assert_true(jpath_double(ev, "0.offset_s", &off) && off > 0.5 && off < 2.5);
	assert_jstr(ev, "1.kind", "kernel-hung-task");
	assert_jstr(ev, "1.message", "kernel: INFO: task sh:77 blocked for more than 120 seconds. (between tests)");
	assert_jnull(ev, "1.test");
	assert_jnull(ev, "1.copies");
	assert_jstr(sum, "marker", "ubtune: bench run 2026-12-02T14:00:00+0000 started");
	bool read;
	assert_true(jpath_bool(sum, "read", &read) && read);
	FILE *f = fopen(dev, "re");
	char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "<5>ubtune: bench run 2026-12-02T14:00:00+0000 started\n"));
	unlink(dev);

	/* no log: said, nothing read */
	kevents_start(&k, "x");
	json_object *s2;
	_cleanup_json_ json_object *none = kevents_finish(&k, NULL, &s2);
	assert_int_equal(jarr_len(none), 0);
	assert_true(jpath_bool(s2, "read", &read) && !read);
	assert_non_null(strstr(jpath_str(s2, "error"), "No such file or directory"));
	json_object_put(s2);
	unsetenv("UBTUNE_KMSG_DEV");
}

static void what_ran_when(void **state)
{
	struct phases ph = {0};
	int test;
	unsigned copies;
	assert_false(phases_at(&ph, 10, &test, &copies));
	phases_mark_at(&ph, 10, 0, 1);
	phases_mark_at(&ph, 20, -1, 0);
	/* a mark at the same moment replaces the last one */
	phases_mark_at(&ph, 20, 1, 4);
	assert_int_equal(ph.n, 2);
	assert_false(phases_at(&ph, 9.9, &test, &copies));
	assert_true(phases_at(&ph, 10, &test, &copies));
	assert_int_equal(test, 0);
	assert_int_equal(copies, 1);
	assert_true(phases_at(&ph, 1000, &test, &copies));
	assert_int_equal(test, 1);
	assert_int_equal(copies, 4);
	phases_free(&ph);
	_cleanup_free_ char *between = phase_text(-1, 0), *during = phase_text(0, 1);
	assert_string_equal(between, "between tests");
	assert_string_equal(during, "during Dhrystone 2 using register variables, 1 copy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classes),
		cmocka_unit_test(during_a_run),
		cmocka_unit_test(what_ran_when),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
