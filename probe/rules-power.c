/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about power and heat: undervoltage, trip points, throttling, battery. */
#include "findings.h"

#define NEAR_TRIP_MC 10000

/* The alarm of this name is raised (alarms: {"lcrit_alarm": true, ...}). */
static bool alarm_raised(json_object *alarms, const char *name)
{
	json_object *v;
	return alarms && json_object_object_get_ex(alarms, name, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

static bool undervoltage(const struct env_record *env, struct finding *f)
{
	const struct env_power *pw = &env->power;
	if (!is_true(pw->undervoltage_now))
		return false;
	for (size_t i = 0; i < pw->hwmon.n; i++) {
		const struct env_hwmon *d = &pw->hwmon.v[i];
		for (size_t k = 0; k < d->sensors.n; k++) {
			const struct env_sensor *s = &d->sensors.v[k];
			if (streq_ptr(s->kind, "in") && alarm_raised(s->alarms, "lcrit_alarm")) {
				finding_set(&f->evidence, "%s/%s_lcrit_alarm = 1 (%s)", d->path, s->sensor,
					    d->name ?: "hwmon");
				return true;
			}
		}
	}
	finding_set(&f->evidence, "power.undervoltage_now = true");
	return true;
}

static bool undervoltage_since_boot(const struct env_record *env, struct finding *f)
{
	int64_t events = int_or(env->power.undervoltage_events, 0);
	if (events <= 0)
		return false;
	const char *line = env->power.undervoltage_line;
	finding_set(&f->evidence, "kernel log: %lld × \"%s\"", (long long)events, line ?: "Undervoltage detected");
	return true;
}

static bool thermal_near_trip(const struct env_record *env, struct finding *f)
{
	struct buf b = {0};
	bool crossed = false;

	for (size_t i = 0; i < env->power.thermal.n; i++) {
		const struct env_thermal *z = &env->power.thermal.v[i];
		if (!z->temp_mc.known || !z->trip_mc.known || !z->trip_point.known)
			continue;
		int64_t temp = z->temp_mc.v, trip = z->trip_mc.v, point = z->trip_point.v;
		if (trip - temp >= NEAR_TRIP_MC)
			continue;
		crossed |= temp >= trip;
		buf_printf(&b, "%s/sys/class/thermal/%s/temp = %lld, trip_point_%lld_temp = %lld (%s, %s)",
			   b.len ? "; " : "", z->zone, (long long)temp, (long long)point, (long long)trip,
			   z->trip_type ?: "?", z->type ?: "?");
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

static bool throttled(const struct env_record *env, struct finding *f)
{
	const struct env_throttle *t = &env->power.throttle;
	int64_t pkg = int_or(t->package_events, 0), core = int_or(t->core_events, 0);
	if (pkg <= 0 && core <= 0)
		return false;
	int64_t cpus = int_or(t->cpus, 0);
	struct buf b = {0};
	if (pkg > 0 && t->package_max.known && t->package_max_cpu.known)
		buf_printf(&b, "/sys/devices/system/cpu/cpu%lld/thermal_throttle/package_throttle_count = %lld "
			       "(%lld over all packages)", (long long)t->package_max_cpu.v, (long long)t->package_max.v,
			   (long long)pkg);
	if (core > 0 && t->core_max.known && t->core_max_cpu.known)
		buf_printf(&b, "%s/sys/devices/system/cpu/cpu%lld/thermal_throttle/core_throttle_count = %lld "
			       "(%lld over %lld CPUs)", b.len ? "; " : "", (long long)t->core_max_cpu.v,
			   (long long)t->core_max.v, (long long)core, (long long)cpus);
	if (int_or(t->package_time_ms, 0) > 0)
		buf_printf(&b, "; packages throttled %lld ms in all", (long long)t->package_time_ms.v);
	else if (int_or(t->core_time_ms, 0) > 0)
		buf_printf(&b, "; cores throttled %lld ms in all", (long long)t->core_time_ms.v);
	f->evidence = buf_steal(&b);
	return true;
}

static bool on_battery(const struct env_record *env, struct finding *f)
{
	if (!is_true(env->power.on_battery))
		return false;
	for (size_t i = 0; i < env->power.supplies.n; i++) {
		const struct env_supply *s = &env->power.supplies.v[i];
		const char *type = s->type;
		if (type && !streq(type, "Battery") && is_false(s->online)) {
			finding_set(&f->evidence, "%s/online = 0 (%s)", s->path, type);
			return true;
		}
		if (streq_ptr(type, "Battery") && streq_ptr(s->status, "Discharging")) {
			finding_set(&f->evidence, "%s/status = Discharging", s->path);
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
		.check = undervoltage,
	},
	{
		.id = "power.undervoltage-since-boot",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The kernel logged undervoltage since boot: under full load the supply sags and the "
			   "clocks are capped, even if the voltage is fine at this moment.",
		.fix = "use a stronger power supply with a short, thick cable; reboot and check the kernel log "
		       "after a benchmark run",
		.check = undervoltage_since_boot,
	},
	{
		.id = "power.thermal-near-trip",
		.area = "power",
		.severity = SEV_WARN,
		.message = "A thermal zone is within 10 °C of a trip point while idle: under a multi-copy run "
			   "it will cross it and the kernel will throttle the clocks.",
		.fix = "improve cooling (heatsink, fan, airflow) and let the machine cool down before the run",
		.check = thermal_near_trip,
	},
	{
		.id = "power.throttled",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The CPU has throttled its clocks for heat since boot: scores measured while hot are "
			   "lower and vary between runs.",
		.fix = "improve cooling and leave pauses between runs; compare the counters before and after "
		       "a run (`ubtune probe`)",
		.check = throttled,
	},
	{
		.id = "power.on-battery",
		.area = "power",
		.severity = SEV_WARN,
		.message = "The machine runs on battery: firmware and power management lower clocks and limit "
			   "boost, so scores are below what the machine gives on mains power.",
		.fix = "connect the charger and run again",
		.check = on_battery,
	},
	{ 0 },
};
