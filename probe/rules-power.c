/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about power and heat: undervoltage, trip points, throttling, battery. */
#include "findings.h"

#define NEAR_TRIP_MC 10000

static bool undervoltage(json_object *rec, struct finding *f)
{
	bool now;
	if (!jpath_bool(rec, "power.undervoltage_now", &now) || !now)
		return false;
	json_object *hwmon = jpath(rec, "power.hwmon");
	size_t n = jpath_len(rec, "power.hwmon");
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(hwmon, i);
		size_t m = jpath_len(d, "sensors");
		for (size_t k = 0; k < m; k++) {
			json_object *s = json_object_array_get_idx(jpath(d, "sensors"), k);
			bool alarm;
			if (streq_ptr(jpath_str(s, "kind"), "in") && jpath_bool(s, "alarms.lcrit_alarm", &alarm) && alarm) {
				finding_set(&f->evidence, "%s/%s_lcrit_alarm = 1 (%s)", jpath_str(d, "path"),
					    jpath_str(s, "sensor"), jpath_str(d, "name") ?: "hwmon");
				return true;
			}
		}
	}
	finding_set(&f->evidence, "power.undervoltage_now = true");
	return true;
}

static bool undervoltage_since_boot(json_object *rec, struct finding *f)
{
	int64_t events;
	if (!jpath_int(rec, "power.undervoltage_events", &events) || events <= 0)
		return false;
	const char *line = jpath_str(rec, "power.undervoltage_line");
	finding_set(&f->evidence, "kernel log: %lld × \"%s\"", (long long)events, line ?: "Undervoltage detected");
	return true;
}

static bool thermal_near_trip(json_object *rec, struct finding *f)
{
	json_object *zones = jpath(rec, "power.thermal");
	size_t n = jpath_len(rec, "power.thermal");
	struct buf b = {0};
	bool crossed = false;

	for (size_t i = 0; i < n; i++) {
		json_object *z = json_object_array_get_idx(zones, i);
		int64_t temp, trip, point;
		if (!jpath_int(z, "temp_mc", &temp) || !jpath_int(z, "trip_mc", &trip) ||
		    !jpath_int(z, "trip_point", &point) || trip - temp >= NEAR_TRIP_MC)
			continue;
		crossed |= temp >= trip;
		buf_printf(&b, "%s/sys/class/thermal/%s/temp = %lld, trip_point_%lld_temp = %lld (%s, %s)",
			   b.len ? "; " : "", jpath_str(z, "zone"), (long long)temp, (long long)point, (long long)trip,
			   jpath_str(z, "trip_type") ?: "?", jpath_str(z, "type") ?: "?");
	}
	if (!b.len)
		return false;
	f->evidence = buf_steal(&b);
	if (crossed)
		finding_set(&f->message, "A thermal zone is already at or above a trip point: the kernel is "
					 "throttling the clocks (or about to shut down) and every score is lower "
					 "than the hardware can give.");
	return true;
}

static bool throttled(json_object *rec, struct finding *f)
{
	int64_t pkg = 0, core = 0, cpus = 0, pkg_max = 0, pkg_cpu = 0, core_max = 0, core_cpu = 0;
	jpath_int(rec, "power.throttle.package_events", &pkg);
	jpath_int(rec, "power.throttle.core_events", &core);
	if (pkg <= 0 && core <= 0)
		return false;
	jpath_int(rec, "power.throttle.cpus", &cpus);
	struct buf b = {0};
	if (pkg > 0 && jpath_int(rec, "power.throttle.package_max", &pkg_max) &&
	    jpath_int(rec, "power.throttle.package_max_cpu", &pkg_cpu))
		buf_printf(&b, "/sys/devices/system/cpu/cpu%lld/thermal_throttle/package_throttle_count = %lld "
			       "(%lld over all packages)", (long long)pkg_cpu, (long long)pkg_max, (long long)pkg);
	if (core > 0 && jpath_int(rec, "power.throttle.core_max", &core_max) &&
	    jpath_int(rec, "power.throttle.core_max_cpu", &core_cpu))
		buf_printf(&b, "%s/sys/devices/system/cpu/cpu%lld/thermal_throttle/core_throttle_count = %lld "
			       "(%lld over %lld CPUs)", b.len ? "; " : "", (long long)core_cpu, (long long)core_max,
			   (long long)core, (long long)cpus);
	int64_t pkg_ms, core_ms;
	if (jpath_int(rec, "power.throttle.package_time_ms", &pkg_ms) && pkg_ms > 0)
		buf_printf(&b, "; packages throttled %lld ms in all", (long long)pkg_ms);
	else if (jpath_int(rec, "power.throttle.core_time_ms", &core_ms) && core_ms > 0)
		buf_printf(&b, "; cores throttled %lld ms in all", (long long)core_ms);
	f->evidence = buf_steal(&b);
	return true;
}

static bool on_battery(json_object *rec, struct finding *f)
{
	bool battery;
	if (!jpath_bool(rec, "power.on_battery", &battery) || !battery)
		return false;
	json_object *supplies = jpath(rec, "power.supplies");
	size_t n = jpath_len(rec, "power.supplies");
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(supplies, i);
		const char *type = jpath_str(s, "type");
		bool online;
		if (type && !streq(type, "Battery") && jpath_bool(s, "online", &online) && !online) {
			finding_set(&f->evidence, "%s/online = 0 (%s)", jpath_str(s, "path"), type);
			return true;
		}
		if (streq_ptr(type, "Battery") && streq_ptr(jpath_str(s, "status"), "Discharging")) {
			finding_set(&f->evidence, "%s/status = Discharging", jpath_str(s, "path"));
			return true;
		}
	}
	finding_set(&f->evidence, "power.on_battery = true");
	return true;
}

const struct rule power_rules[] = {
	{
		.id = "power.undervoltage",
		.area = "power",
		.severity = SEV_CRIT,
		.message = "Undervoltage right now: the firmware caps the clocks, so multi-copy scores will not "
			   "scale and single-copy scores are low too.",
		.fix = "use a stronger power supply with a short, thick cable (Raspberry Pi 4: 5.1 V / 3 A); "
		       "then re-run `ubtune probe`",
		.match = undervoltage,
	},
	{
		.id = "power.undervoltage-since-boot",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The kernel logged undervoltage since boot: under full load the supply sags and the "
			   "clocks are capped, even if the voltage is fine at this moment.",
		.fix = "use a stronger power supply with a short, thick cable; reboot and check the kernel log "
		       "after a benchmark run",
		.match = undervoltage_since_boot,
	},
	{
		.id = "power.thermal-near-trip",
		.area = "power",
		.severity = SEV_WARN,
		.message = "A thermal zone is within 10 °C of a trip point while idle: under a multi-copy run "
			   "it will cross it and the kernel will throttle the clocks.",
		.fix = "improve cooling (heatsink, fan, airflow) and let the machine cool down before the run",
		.match = thermal_near_trip,
	},
	{
		.id = "power.throttled",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The CPU has throttled its clocks for heat since boot: scores measured while hot are "
			   "lower and vary between runs.",
		.fix = "improve cooling and leave pauses between runs; compare the counters before and after "
		       "a run (`ubtune probe`)",
		.match = throttled,
	},
	{
		.id = "power.on-battery",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The machine runs on battery: firmware and power management lower clocks and limit "
			   "boost, so scores are below what the machine gives on mains power.",
		.fix = "connect the charger and run again",
		.match = on_battery,
	},
	{ 0 },
};
