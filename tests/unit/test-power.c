/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power and health: parsers, hwmon/thermal/throttle/battery roots, the robustness dump, findings. */
#include "probe/power.h"
#include "probetest.h"

/* ---- parsers -------------------------------------------------------- */

static void hwmon_attrs(void **state)
{
	char kind[8];
	unsigned idx;
	const char *attr;
	assert_int_equal(hwmon_parse_attr("in0_lcrit_alarm", kind, &idx, &attr), 0);
	assert_string_equal(kind, "in");
	assert_int_equal(idx, 0);
	assert_string_equal(attr, "lcrit_alarm");
	assert_int_equal(hwmon_parse_attr("temp12_input", kind, &idx, &attr), 0);
	assert_string_equal(kind, "temp");
	assert_int_equal(idx, 12);
	assert_string_equal(attr, "input");
	assert_int_equal(hwmon_parse_attr("power1_average", kind, &idx, &attr), 0);
	assert_string_equal(hwmon_unit(kind), "uW");

	/* not sensors ubtune reports, or not attribute names at all */
	static const char *const bad[] = { "intrusion0_alarm", "pwm1_enable", "bogus1_input", "name", "temp_input",
					   "temp1_", "temp1", "Temp1_input", "temp99999_input", "" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(hwmon_parse_attr(bad[i], kind, &idx, &attr), -EINVAL);
	assert_string_equal(hwmon_unit("temp"), "mdegC");
	assert_string_equal(hwmon_unit("in"), "mV");
	assert_null(hwmon_unit("pwm"));
}

static void throttle_trip(void **state)
{
	const struct hw_trip trips[] = {
		{ 50000, "active" }, { 80000, "passive" }, { 95000, "critical" }, { 0, "passive" }, { 70000, NULL },
	};
	/* the fan trip at 50 °C and trips without a type or temperature do not count:
	 * the lowest of the others is where the kernel starts to cut clocks */
	assert_int_equal(hw_throttle_trip(trips, ARRAY_SIZE(trips)), 1);
	const struct hw_trip later[] = { { 95000, "critical" }, { 85000, "hot" }, { 90000, "passive" } };
	assert_int_equal(hw_throttle_trip(later, ARRAY_SIZE(later)), 1);
	assert_int_equal(hw_throttle_trip(trips, 1), -1);
	assert_int_equal(hw_throttle_trip(trips, 0), -1);
}

static void undervoltage_lines(void **state)
{
	_cleanup_free_ char *klog = klog_strip("[    5.100000] hwmon hwmon1: Undervoltage detected!\n"
					       "[    9.200000] hwmon hwmon1: Voltage normalised\n"
					       "[   31.000000] hwmon hwmon1: Undervoltage detected!\n"
					       "[   40.000000] raspberrypi-firmware soc:firmware: Under-voltage detected! (0x00050005)\n"
					       "[   41.000000] usb 1-1: new high-speed USB device\n");
	char *last = NULL;
	assert_int_equal(power_undervoltage_events(klog, &last), 3);
	assert_string_equal(last, "raspberrypi-firmware soc:firmware: Under-voltage detected! (0x00050005)");
	free(last);
	assert_int_equal(power_undervoltage_events("Voltage normalised\n", NULL), 0);
}

/* ---- synthetic roots ------------------------------------------------ */

static json_object *find_by(json_object *rec, const char *array, const char *key, const char *value)
{
	size_t n = jpath_len(rec, array);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(jpath(rec, array), i);
		if (streq_ptr(jpath_str(o, key), value))
			return o;
	}
	return NULL;
}

static bool has_finding(json_object *rec, const char *id, const char **evidence)
{
	json_object *f = find_by(rec, "findings", "id", id);
	if (f && evidence)
		*evidence = jpath_str(f, "evidence");
	return f != NULL;
}

#define PI_HWMON "sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1"
#define PI_ZONE "sys/devices/virtual/thermal/thermal_zone0"

/* A Raspberry Pi 4 on a weak supply, laid out as sysfs is: class entries are links. */
static void raspberry_pi_undervoltage(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, PI_HWMON "/name", "rpi_volt");
	tmproot_write(root, PI_HWMON "/in0_lcrit_alarm", "1");
	tmproot_link(root, "sys/class/hwmon/hwmon1", "../../devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1");
	tmproot_write(root, PI_ZONE "/type", "cpu-thermal");
	tmproot_write(root, PI_ZONE "/temp", "81500");
	tmproot_write(root, PI_ZONE "/trip_point_0_temp", "90000");
	tmproot_write(root, PI_ZONE "/trip_point_0_type", "critical");
	tmproot_link(root, "sys/class/thermal/thermal_zone0", "../../devices/virtual/thermal/thermal_zone0");
	tmproot_write(root, "dmesg", "[    5.1] hwmon hwmon1: Undervoltage detected!\n[    9.2] hwmon hwmon1: Voltage normalised\n"
				     "[   31.0] hwmon hwmon1: Undervoltage detected!");

	json_object *rec = probe_root(root, NULL);
	bool b;
	assert_true(jpath_bool(rec, "power.undervoltage_now", &b) && b);
	assert_int_equal(jint(rec, "power.undervoltage_events"), 2);
	assert_jstr(rec, "power.hwmon.0.name", "rpi_volt");
	assert_jstr(rec, "power.hwmon.0.path", "/sys/class/hwmon/hwmon1");
	assert_jstr(rec, "power.hwmon.0.sensors.0.sensor", "in0");
	assert_jstr(rec, "power.hwmon.0.sensors.0.unit", "mV");
	assert_jnull(rec, "power.hwmon.0.sensors.0.value"); /* rpi_volt has only the alarm */
	assert_true(jpath_bool(rec, "power.hwmon.0.sensors.0.alarm", &b) && b);
	assert_jstr(rec, "power.thermal.0.type", "cpu-thermal");
	assert_int_equal(jint(rec, "power.thermal.0.temp_mc"), 81500);
	assert_int_equal(jint(rec, "power.thermal.0.trip_mc"), 90000);
	assert_jstr(rec, "power.thermal.0.trip_type", "critical");
	assert_jnull(rec, "power.on_battery");
	assert_jnull(rec, "power.throttle");

	const char *ev = NULL;
	assert_true(has_finding(rec, "power.undervoltage", &ev));
	assert_string_equal(ev, "/sys/class/hwmon/hwmon1/in0_lcrit_alarm = 1 (rpi_volt)");
	assert_true(has_finding(rec, "power.undervoltage-since-boot", &ev));
	assert_string_equal(ev, "kernel log: 2 × \"hwmon hwmon1: Undervoltage detected!\"");
	assert_true(has_finding(rec, "power.thermal-near-trip", &ev));
	assert_string_equal(ev, "/sys/class/thermal/thermal_zone0/temp = 81500, trip_point_0_temp = 90000 "
				"(critical, cpu-thermal)");
	/* worst first: the crit finding leads */
	assert_jstr(rec, "findings.0.id", "power.undervoltage");
	json_object_put(rec);

	/* the supply recovered, the log still tells */
	tmproot_write(root, PI_HWMON "/in0_lcrit_alarm", "0");
	tmproot_write(root, PI_ZONE "/temp", "52000");
	rec = probe_root(root, NULL);
	assert_true(jpath_bool(rec, "power.undervoltage_now", &b) && !b);
	assert_false(has_finding(rec, "power.undervoltage", NULL));
	assert_true(has_finding(rec, "power.undervoltage-since-boot", NULL));
	assert_false(has_finding(rec, "power.thermal-near-trip", NULL));
	json_object_put(rec);
	tmproot_free(root);
}

static void laptop_supplies(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "sys/class/power_supply/AC/type", "Mains");
	tmproot_write(root, "sys/class/power_supply/AC/online", "0");
	tmproot_write(root, "sys/class/power_supply/BAT0/type", "Battery");
	tmproot_write(root, "sys/class/power_supply/BAT0/status", "Discharging");
	tmproot_write(root, "sys/class/power_supply/hid-mouse-battery/type", "Battery");
	tmproot_write(root, "sys/class/power_supply/hid-mouse-battery/scope", "Device");
	tmproot_write(root, "sys/class/power_supply/hid-mouse-battery/status", "Discharging");
	json_object *rec = probe_root(root, NULL);
	bool b;
	assert_true(jpath_bool(rec, "power.on_battery", &b) && b);
	/* a mouse's battery does not power the machine */
	assert_int_equal(jpath_len(rec, "power.supplies"), 2);
	const char *ev = NULL;
	assert_true(has_finding(rec, "power.on-battery", &ev));
	assert_string_equal(ev, "/sys/class/power_supply/AC/online = 0 (Mains)");
	json_object_put(rec);

	tmproot_write(root, "sys/class/power_supply/AC/online", "1");
	tmproot_write(root, "sys/class/power_supply/BAT0/status", "Charging");
	rec = probe_root(root, NULL);
	assert_true(jpath_bool(rec, "power.on_battery", &b) && !b);
	assert_false(has_finding(rec, "power.on-battery", NULL));
	json_object_put(rec);
	tmproot_free(root);

	/* only the mouse: nothing says how the machine is powered */
	root = tmproot_new();
	tmproot_write(root, "sys/class/power_supply/hid-mouse-battery/type", "Battery");
	tmproot_write(root, "sys/class/power_supply/hid-mouse-battery/scope", "Device");
	rec = probe_root(root, NULL);
	assert_jnull(rec, "power.on_battery");
	json_object_put(rec);
	tmproot_free(root);
}

/* Garbage where numbers and labels belong: no values made up, no broken JSON. */
static void hwmon_garbage(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "sys/class/hwmon/hwmon0/name", "nct6775");
	tmproot_write(root, "sys/class/hwmon/hwmon0/temp1_input", "forty");
	tmproot_write_bytes(root, "sys/class/hwmon/hwmon0/temp1_label", "\xff\xfe\x01", 3);
	tmproot_write(root, "sys/class/hwmon/hwmon0/temp1_alarm", "2");
	tmproot_write(root, "sys/class/hwmon/hwmon0/fan1_input", "1200");
	tmproot_write(root, "sys/class/thermal/thermal_zone0/type", "acpitz");
	tmproot_write(root, "sys/class/thermal/thermal_zone0/temp", "");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "power.hwmon.0.sensors.1.sensor", "temp1");
	assert_jnull(rec, "power.hwmon.0.sensors.1.value");
	assert_jnull(rec, "power.hwmon.0.sensors.1.label");
	assert_jnull(rec, "power.hwmon.0.sensors.1.alarms.alarm");
	assert_jnull(rec, "power.hwmon.0.sensors.1.alarm");
	assert_int_equal(jint(rec, "power.hwmon.0.sensors.0.value"), 1200);
	assert_jnull(rec, "power.thermal.0.temp_mc");
	assert_jnull(rec, "power.thermal.0.trip_mc");
	assert_true(unavailable_mentions(rec, "power", "thermal_zone0/temp"));
	assert_non_null(jdump(rec, false));
	json_object_put(rec);
	tmproot_free(root);
}

/* ---- real dumps ----------------------------------------------------- */

static void throttle_counters(void **state)
{
	/* i7-1165G7: package counter 156 on each of 8 CPUs of one package */
	json_object *rec = probe_fixture("util-linux-x86_64-64cpu-linux6.2", NULL);
	assert_int_equal(jint(rec, "power.throttle.cpus"), 8);
	assert_int_equal(jint(rec, "power.throttle.package_events"), 156);
	assert_int_equal(jint(rec, "power.throttle.package_max"), 156);
	assert_int_equal(jint(rec, "power.throttle.core_events"), 312);
	assert_int_equal(jint(rec, "power.throttle.core_max"), 99);
	assert_int_equal(jint(rec, "power.throttle.core_max_cpu"), 2);
	assert_int_equal(jint(rec, "power.throttle.package_time_ms"), 476);
	const char *ev = NULL;
	assert_true(has_finding(rec, "power.throttled", &ev));
	assert_string_equal(ev, "/sys/devices/system/cpu/cpu0/thermal_throttle/package_throttle_count = 156 (156 over "
				"all packages); /sys/devices/system/cpu/cpu2/thermal_throttle/core_throttle_count = 99 "
				"(312 over 8 CPUs); packages throttled 476 ms in all");
	json_object_put(rec);

	/* Xeon X7550, older kernel: core counters only, all zero; no package counter is not 0 */
	rec = probe_fixture("util-linux-x86_64-64cpu", NULL);
	assert_int_equal(jint(rec, "power.throttle.cpus"), 64);
	assert_int_equal(jint(rec, "power.throttle.core_events"), 0);
	assert_jnull(rec, "power.throttle.package_events");
	assert_false(has_finding(rec, "power.throttled", NULL));
	json_object_put(rec);

	/* two packages of two CPUs: each package's counter once */
	rec = probe_fixture("node_exporter-composite-x86", NULL);
	assert_int_equal(jint(rec, "power.throttle.package_events"), 30 + 6);
	assert_int_equal(jint(rec, "power.throttle.core_events"), 5 + 9);
	json_object_put(rec);
}

static const char *const composite_links[] = {
	"sys/class/hwmon/hwmon0", "sys/class/hwmon/hwmon1", "sys/class/hwmon/hwmon2", "sys/class/hwmon/hwmon3",
	"sys/class/hwmon/hwmon5", "sys/class/hwmon/hwmon6", "sys/class/hwmon/hwmon7", "sys/class/hwmon/hwmon8",
	"sys/class/hwmon/hwmon9", "sys/class/hwmon/hwmon10", "sys/class/thermal/thermal_zone0",
	"sys/devices/platform/applesmc.768/hwmon/hwmon2/device",
};

/*
 * node_exporter's composite with its class links flattened into plain files
 * holding the link target, as a damaged copy of a dump has them: the probe
 * must report the one real directory (hwmon4, no name) and name the rest as
 * unreadable, without values it did not read.
 */
static void composite_flattened(void **state)
{
	char *root = tmproot_copy("node_exporter-composite-x86");
	for (size_t i = 0; i < ARRAY_SIZE(composite_links); i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", root, composite_links[i]);
		char target[256];
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		assert_true(n > 0);
		target[n] = '\0';
		assert_int_equal(unlink(path), 0);
		tmproot_write_bytes(root, composite_links[i], target, (size_t)n);
	}
	json_object *rec = probe_root(root, NULL);
	tmproot_free(root);
	assert_int_equal(jpath_len(rec, "power.hwmon"), 1);
	assert_jstr(rec, "power.hwmon.0.path", "/sys/class/hwmon/hwmon4");
	assert_jnull(rec, "power.hwmon.0.name");
	assert_int_equal(jpath_len(rec, "power.hwmon.0.sensors"), 2); /* freq1/freq2 are not reported kinds */
	assert_jstr(rec, "power.hwmon.0.sensors.0.label", "foosensor");
	assert_int_equal(jint(rec, "power.hwmon.0.sensors.0.value"), 55000);
	assert_int_equal(jint(rec, "power.hwmon.0.sensors.0.crit"), 100000);
	assert_int_equal(jpath_len(rec, "power.thermal"), 0);
	assert_true(unavailable_mentions(rec, "power", "hwmon0 (Not a directory)"));
	assert_true(unavailable_mentions(rec, "power", "thermal_zone0 (Not a directory)"));
	assert_jnull(rec, "power.undervoltage_now");
	assert_jnull(rec, "power.undervoltage_events"); /* no kernel log in this dump */
	json_object_put(rec);
}

/* The dump with the links node_exporter's fixture declares. */
static void composite_with_links(void **state)
{
	json_object *rec = probe_fixture("node_exporter-composite-x86", NULL);
	assert_int_equal(jpath_len(rec, "power.hwmon"), 11);
	assert_false(unavailable_mentions(rec, "power", "Not a directory"));

	json_object *nct = find_by(rec, "power.hwmon", "name", "nct6779");
	assert_non_null(nct);
	assert_jstr(nct, "sensors.2.sensor", "in1");
	assert_int_equal(jint(nct, "sensors.2.value"), 1024);
	bool b;
	assert_true(jpath_bool(nct, "sensors.2.alarm", &b) && b);
	assert_true(jpath_bool(nct, "sensors.1.alarm", &b) && !b);
	assert_jnull(nct, "sensors.0.label");

	/* applesmc keeps its sensors in the parent device, the old way */
	json_object *smc = find_by(rec, "power.hwmon", "name", "applesmc");
	assert_non_null(smc);
	assert_jstr(smc, "path", "/sys/class/hwmon/hwmon2/device");
	assert_jstr(smc, "sensors.1.label", "Right side");
	assert_int_equal(jint(smc, "sensors.1.value"), 1998);
	assert_jstr(smc, "sensors.1.unit", "rpm");

	/* "bogus" sensors are no kind ubtune knows: the device, no sensors */
	json_object *bogus = find_by(rec, "power.hwmon", "name", "bogus");
	assert_non_null(bogus);
	assert_int_equal(jpath_len(bogus, "sensors"), 0);

	assert_jstr(rec, "power.thermal.0.type", "cpu-thermal");
	assert_int_equal(jint(rec, "power.thermal.0.temp_mc"), 12376);
	assert_jnull(rec, "power.thermal.0.trip_mc");
	json_object_put(rec);
}

/* ---- findings on record literals ------------------------------------ */

#define RPI_HWMON(alarm)                                                                                    \
	"\"hwmon\": [{\"name\": \"rpi_volt\", \"path\": \"/sys/class/hwmon/hwmon1\", \"sensors\": [{\"sensor\": " \
	"\"in0\", \"kind\": \"in\", \"alarms\": {\"lcrit_alarm\": " alarm "}}]}]"

static void rule_undervoltage(void **state)
{
	assert_rule("power.undervoltage", "{\"power\": {\"undervoltage_now\": true, " RPI_HWMON("true") "}}", true,
		    "/sys/class/hwmon/hwmon1/in0_lcrit_alarm = 1 (rpi_volt)");
	assert_rule("power.undervoltage", "{\"power\": {\"undervoltage_now\": false, " RPI_HWMON("false") "}}", false, NULL);
	assert_rule("power.undervoltage", "{\"power\": {\"undervoltage_now\": null, \"hwmon\": []}}", false, NULL);

	assert_rule("power.undervoltage-since-boot",
		    "{\"power\": {\"undervoltage_events\": 3, \"undervoltage_line\": \"hwmon hwmon1: Undervoltage detected!\"}}",
		    true, "kernel log: 3 × \"hwmon hwmon1: Undervoltage detected!\"");
	assert_rule("power.undervoltage-since-boot", "{\"power\": {\"undervoltage_events\": 0}}", false, NULL);
	assert_rule("power.undervoltage-since-boot", "{\"power\": {\"undervoltage_events\": null}}", false, NULL);
}

static void rule_thermal(void **state)
{
	assert_rule("power.thermal-near-trip",
		    "{\"power\": {\"thermal\": [{\"zone\": \"thermal_zone0\", \"type\": \"cpu-thermal\", \"temp_mc\": 72000, "
		    "\"trip_mc\": 80000, \"trip_type\": \"passive\", \"trip_point\": 1}]}}",
		    true, "/sys/class/thermal/thermal_zone0/temp = 72000, trip_point_1_temp = 80000 (passive, cpu-thermal)");
	/* already above: fires, message says so */
	json_object *rec = json_lit("{\"power\": {\"thermal\": [{\"zone\": \"thermal_zone1\", \"temp_mc\": 96000, "
				    "\"trip_mc\": 95000, \"trip_type\": \"critical\", \"trip_point\": 0}]}}");
	struct finding f;
	assert_true(rule_fires("power.thermal-near-trip", rec, &f));
	assert_non_null(strstr(f.message, "at or above a trip point"));
	finding_clear(&f);
	json_object_put(rec);
	assert_rule("power.thermal-near-trip",
		    "{\"power\": {\"thermal\": [{\"zone\": \"thermal_zone0\", \"temp_mc\": 70000, \"trip_mc\": 80000, "
		    "\"trip_type\": \"passive\", \"trip_point\": 1}]}}",
		    false, NULL);
	assert_rule("power.thermal-near-trip",
		    "{\"power\": {\"thermal\": [{\"zone\": \"thermal_zone0\", \"temp_mc\": null, \"trip_mc\": null}]}}", false,
		    NULL);
}

static void rule_throttled(void **state)
{
	assert_rule("power.throttled",
		    "{\"power\": {\"throttle\": {\"cpus\": 4, \"package_events\": 0, \"package_max\": 0, \"package_max_cpu\": 0, "
		    "\"core_events\": 14, \"core_max\": 9, \"core_max_cpu\": 3}}}",
		    true, "/sys/devices/system/cpu/cpu3/thermal_throttle/core_throttle_count = 9 (14 over 4 CPUs)");
	assert_rule("power.throttled",
		    "{\"power\": {\"throttle\": {\"cpus\": 4, \"package_events\": 0, \"core_events\": 0}}}", false, NULL);
	assert_rule("power.throttled", "{\"power\": {\"throttle\": null}}", false, NULL);
}

static void rule_battery(void **state)
{
	assert_rule("power.on-battery",
		    "{\"power\": {\"on_battery\": true, \"supplies\": [{\"path\": \"/sys/class/power_supply/BAT1\", "
		    "\"type\": \"Battery\", \"status\": \"Discharging\"}]}}",
		    true, "/sys/class/power_supply/BAT1/status = Discharging");
	assert_rule("power.on-battery", "{\"power\": {\"on_battery\": false, \"supplies\": []}}", false, NULL);
	assert_rule("power.on-battery", "{\"power\": {\"on_battery\": null}}", false, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hwmon_attrs),
		cmocka_unit_test(throttle_trip),
		cmocka_unit_test(undervoltage_lines),
		cmocka_unit_test(raspberry_pi_undervoltage),
		cmocka_unit_test(laptop_supplies),
		cmocka_unit_test(hwmon_garbage),
		cmocka_unit_test(throttle_counters),
		cmocka_unit_test(composite_flattened),
		cmocka_unit_test(composite_with_links),
		cmocka_unit_test(rule_undervoltage),
		cmocka_unit_test(rule_thermal),
		cmocka_unit_test(rule_throttled),
		cmocka_unit_test(rule_battery),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
