/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Power and health: hwmon sensors and their alarms (the Raspberry Pi's
 * undervoltage alarm among them), undervoltage warnings in the kernel log,
 * thermal zones against their trip points, x86 thermal throttle counters,
 * and whether the machine runs on battery. Each of these caps clocks
 * behind the benchmark's back.
 */
#include <errno.h>
#include <inttypes.h>

#include "lib/hw.h"
#include "power.h"
#include "probe.h"

#define HWMON_CLASS "/sys/class/hwmon"
#define THERMAL_CLASS "/sys/class/thermal"
#define SUPPLY_CLASS "/sys/class/power_supply"

/* Guests see no sensors of the hardware: their absence is no news there. */
static bool is_guest(struct probe_ctx *ctx)
{
	return streq_ptr(jpath_str(ctx->rec, "virt.role"), "guest");
}

/* ---- hwmon ---------------------------------------------------------- */

/* A number from a sysfs file, or JSON null when missing or not a number. */
static json_object *read_number(struct rootfs *rf, const char *path)
{
	int64_t v;
	return path && rootfs_read_s64(rf, path, &v) == 0 ? json_object_new_int64(v) : NULL;
}

static json_object *sensor_json(struct rootfs *rf, const struct hw_sensor *s)
{
	json_object *o = json_object_new_object(), *alarms = json_object_new_object();
	char name[24];
	int64_t v;
	snprintf(name, sizeof(name), "%s%u", s->kind, s->index);
	jset_str(o, "sensor", name);
	jset_str(o, "label", s->label);
	jset_str(o, "kind", s->kind);
	jset_str(o, "unit", hwmon_unit(s->kind));
	if (hw_sensor_value(rf, s, &v) == 0)
		jset_int(o, "value", v);
	else
		jset_null(o, "value");
	if (s->crit_path)
		jset(o, "crit", read_number(rf, s->crit_path));
	if (s->max_path)
		jset(o, "max", read_number(rf, s->max_path));
	/* "alarm": true when any alarm file says 1, false when all say 0, null without any */
	int any = -1;
	for (size_t i = 0; i < s->nalarms; i++) {
		bool raised;
		if (hw_alarm_read(rf, &s->alarms[i], &raised) < 0) {
			jset_null(alarms, s->alarms[i].attr);
			continue;
		}
		jset_bool(alarms, s->alarms[i].attr, raised);
		if (raised)
			any = 1;
		else if (any < 0)
			any = 0;
	}
	if (any < 0)
		jset_null(o, "alarm");
	else
		jset_bool(o, "alarm", any);
	jset(o, "alarms", alarms);
	return o;
}

static json_object *hwmon_json(struct rootfs *rf, const struct hw_hwmon *d)
{
	json_object *dev = json_object_new_object(), *sensors = json_object_new_array();
	for (size_t i = 0; i < d->n; i++)
		json_object_array_add(sensors, sensor_json(rf, &d->sensors[i]));
	jset_str(dev, "name", d->name);
	jset_str(dev, "path", d->dir);
	jset(dev, "sensors", sensors);
	return dev;
}

static void note_unreadable(struct probe_ctx *ctx, const char *class, const char *unreadable)
{
	if (unreadable)
		probe_unavailable(ctx, "power", "%s: unreadable entries: %s", class, unreadable);
}

/* undervoltage_now: any in*_lcrit_alarm of 1; false when all are 0; -1 without one. */
static int undervoltage_now(json_object *hwmon)
{
	int state = -1;
	size_t n = json_object_array_length(hwmon);
	for (size_t i = 0; i < n; i++) {
		json_object *sensors = jpath(json_object_array_get_idx(hwmon, i), "sensors");
		size_t m = sensors ? json_object_array_length(sensors) : 0;
		for (size_t k = 0; k < m; k++) {
			json_object *s = json_object_array_get_idx(sensors, k);
			bool alarm;
			if (!streq_ptr(jpath_str(s, "kind"), "in") || !jpath_bool(s, "alarms.lcrit_alarm", &alarm))
				continue;
			if (alarm)
				return 1;
			state = 0;
		}
	}
	return state;
}

static void collect_hwmon(struct probe_ctx *ctx, json_object *power)
{
	json_object *hwmon = json_object_new_array();
	struct hw_hwmons devs;
	if (hw_hwmon_devices(ctx->rf, &devs) == 0) {
		note_unreadable(ctx, HWMON_CLASS, devs.unreadable);
		for (size_t i = 0; i < devs.n; i++)
			json_object_array_add(hwmon, hwmon_json(ctx->rf, &devs.v[i]));
		hw_hwmons_free(&devs);
	}
	jset(power, "hwmon", hwmon);

	int now = undervoltage_now(hwmon);
	if (now < 0) {
		jset_null(power, "undervoltage_now");
		if (!is_guest(ctx))
			probe_unavailable(ctx, "power", "undervoltage now: no hwmon in*_lcrit_alarm sensor (boards "
							"such as the Raspberry Pi have one: rpi_volt)");
	} else {
		jset_bool(power, "undervoltage_now", now);
	}
}

/* ---- kernel log ----------------------------------------------------- */

size_t power_undervoltage_events(const char *klog, char **last)
{
	/* hwmon rpi_volt: "Undervoltage detected!"; older firmware driver:
	 * "Under-voltage detected! (0x00050005)" */
	static const char *const needles[] = { "Undervoltage detected", "Under-voltage detected", NULL };
	return klog_count_any(klog, needles, last);
}

static void collect_undervoltage_events(struct probe_ctx *ctx, json_object *power)
{
	const char *klog = probe_klog(ctx);
	_cleanup_free_ char *last = NULL;
	if (!klog) {
		jset_null(power, "undervoltage_events");
		jset_null(power, "undervoltage_line");
		return;
	}
	jset_int(power, "undervoltage_events", (int64_t)power_undervoltage_events(klog, &last));
	jset_str(power, "undervoltage_line", last && text_printable(last) ? last : NULL);
}

/* ---- thermal zones -------------------------------------------------- */

static json_object *zone_json(struct probe_ctx *ctx, const struct hw_zone *zone)
{
	json_object *z = json_object_new_object(), *trips = json_object_new_array();
	int64_t temp;
	jset_str(z, "zone", zone->name);
	jset_str(z, "type", zone->type);
	int r = hw_zone_temp(ctx->rf, zone, &temp);
	if (r < 0) {
		jset_null(z, "temp_mc");
		probe_unavailable(ctx, "power", "%s: %s", zone->temp_path, strerror(-r));
	} else {
		jset_int(z, "temp_mc", temp);
	}
	for (size_t k = 0; k < zone->ntrips; k++) {
		json_object *t = json_object_new_object();
		jset_int(t, "temp_mc", zone->trips[k].temp_mc);
		jset_str(t, "type", zone->trips[k].type);
		json_object_array_add(trips, t);
	}
	int trip = r == 0 ? zone->throttle_trip : -1;
	if (trip >= 0) {
		jset_int(z, "trip_mc", zone->trips[trip].temp_mc);
		jset_str(z, "trip_type", zone->trips[trip].type);
		jset_int(z, "trip_point", trip);
	} else {
		jset_null(z, "trip_mc");
		jset_null(z, "trip_type");
		jset_null(z, "trip_point");
	}
	jset(z, "trips", trips);
	return z;
}

static void collect_thermal(struct probe_ctx *ctx, json_object *power)
{
	json_object *zones = json_object_new_array();
	struct hw_zones z;
	if (hw_thermal_zones(ctx->rf, &z) == 0) {
		note_unreadable(ctx, THERMAL_CLASS, z.unreadable);
		for (size_t i = 0; i < z.n; i++)
			json_object_array_add(zones, zone_json(ctx, &z.v[i]));
		hw_zones_free(&z);
	}
	jset(power, "thermal", zones);
}

/* ---- x86 thermal throttle counters ---------------------------------- */

/* One kind of counter (core or package) over all CPUs. */
struct counter {
	uint64_t events, max, ms;
	int max_cpu; /* -1 while no CPU has the counter */
	bool has_ms;
};

/* Adds one CPU's counter to c (to the total only when total is set). */
static void counter_add(struct counter *c, unsigned cpu, uint64_t v, bool total, bool has_ms, uint64_t ms)
{
	if (total) {
		c->events += v;
		if (has_ms) {
			c->ms += ms;
			c->has_ms = true;
		}
	}
	if (c->max_cpu < 0 || v > c->max) {
		c->max = v;
		c->max_cpu = (int)cpu;
	}
}

static void set_counter(json_object *o, const char *key, uint64_t v, bool present)
{
	if (present)
		jset_int(o, key, (int64_t)v);
	else
		jset_null(o, key);
}

static void set_counters(json_object *o, const char *kind, const struct counter *c)
{
	char key[32];
	bool present = c->max_cpu >= 0;
	snprintf(key, sizeof(key), "%s_events", kind);
	set_counter(o, key, c->events, present);
	snprintf(key, sizeof(key), "%s_max", kind);
	set_counter(o, key, c->max, present);
	snprintf(key, sizeof(key), "%s_max_cpu", kind);
	set_counter(o, key, (uint64_t)c->max_cpu, present);
	snprintf(key, sizeof(key), "%s_time_ms", kind);
	set_counter(o, key, c->ms, present && c->has_ms);
}

static void collect_throttle(struct probe_ctx *ctx, json_object *power)
{
	struct counter core = { .max_cpu = -1 }, package = { .max_cpu = -1 };
	struct hw_throttle t = {0};
	size_t cpus = 0;
	hw_throttle_discover(ctx->rf, &t);
	for (size_t i = 0; i < t.n; i++) {
		struct hw_throttle_reading r;
		hw_throttle_read(ctx->rf, &t.v[i], &r);
		if (r.has_core)
			counter_add(&core, t.v[i].cpu, r.core, true, r.has_core_ms, r.core_ms);
		if (r.has_package)
			counter_add(&package, t.v[i].cpu, r.package, t.v[i].package_first, r.has_package_ms,
				    r.package_ms);
		cpus += r.has_core || r.has_package;
	}
	hw_throttle_free(&t);

	if (cpus == 0) {
		jset_null(power, "throttle");
		const char *arch = jpath_str(ctx->rec, "host.arch");
		if (arch && (streq(arch, "x86_64") || endswith(arch, "86")) && !is_guest(ctx))
			probe_unavailable(ctx, "power", "thermal throttle counters: no " HW_CPU_DIR
							"/cpuN/thermal_throttle (therm_throt not built in?)");
		return;
	}
	json_object *o = jchild(power, "throttle");
	jset_int(o, "cpus", (int64_t)cpus);
	set_counters(o, "core", &core);
	set_counters(o, "package", &package);
}

/* ---- power supplies ------------------------------------------------- */

/*
 * Mains (or USB) supplies say whether they are online, system batteries
 * whether they discharge. Batteries of peripherals (scope "Device": mice,
 * keyboards) do not power the machine and are left out.
 */
static void collect_supplies(struct probe_ctx *ctx, json_object *power)
{
	json_object *list = json_object_new_array();
	struct strv paths = {0};
	int on_battery = -1;

	_cleanup_free_ char *unreadable = NULL;
	if (hw_class_entries(ctx->rf, SUPPLY_CLASS, NULL, &paths, &unreadable) == 0)
		note_unreadable(ctx, SUPPLY_CLASS, unreadable);
	for (size_t i = 0; i < paths.n; i++) {
		_cleanup_free_ char *type = hw_label_attr(ctx->rf, paths.v[i], "type");
		_cleanup_free_ char *online = hw_label_attr(ctx->rf, paths.v[i], "online");
		_cleanup_free_ char *status = hw_label_attr(ctx->rf, paths.v[i], "status");
		_cleanup_free_ char *scope = hw_label_attr(ctx->rf, paths.v[i], "scope");
		if (scope && streq(scope, "Device"))
			continue;
		json_object *s = json_object_new_object();
		jset_str(s, "name", strrchr(paths.v[i], '/') + 1);
		jset_str(s, "path", paths.v[i]);
		jset_str(s, "type", type);
		if (online && (streq(online, "0") || streq(online, "1")))
			jset_bool(s, "online", online[0] == '1');
		else
			jset_null(s, "online");
		jset_str(s, "status", status);
		json_object_array_add(list, s);

		bool mains = type && (streq(type, "Mains") || startswith(type, "USB"));
		if (mains && online && streq(online, "0"))
			on_battery = 1;
		else if (mains && online && streq(online, "1") && on_battery < 0)
			on_battery = 0;
		if (type && streq(type, "Battery") && status) {
			if (streq(status, "Discharging"))
				on_battery = 1;
			else if (on_battery < 0)
				on_battery = 0;
		}
	}
	strv_free(&paths);
	jset(power, "supplies", list);
	if (on_battery < 0)
		jset_null(power, "on_battery");
	else
		jset_bool(power, "on_battery", on_battery);
}

int power_collect(struct probe_ctx *ctx)
{
	json_object *power = jchild(ctx->rec, "power");
	collect_hwmon(ctx, power);
	collect_undervoltage_events(ctx, power);
	collect_thermal(ctx, power);
	collect_throttle(ctx, power);
	collect_supplies(ctx, power);
	devfreq_collect(ctx, power);
	if (is_guest(ctx) && (!jpath(power, "undervoltage_now") || !jpath(power, "throttle")))
		probe_unavailable(ctx, "power", "hardware sensors: a guest sees none of the host's (undervoltage "
						"alarm, thermal throttle counters)");
	return 0;
}

/* ---- text report ---------------------------------------------------- */

static void render_undervoltage(const struct env_power *p, struct buf *b)
{
	if (p->undervoltage_now.known) {
		const char *name = NULL;
		for (size_t i = 0; i < p->hwmon.n && !name; i++) {
			const struct env_hwmon *d = &p->hwmon.v[i];
			for (size_t k = 0; k < d->sensors.n && !name; k++)
				if (json_object_object_get_ex(d->sensors.v[k].alarms, "lcrit_alarm", NULL))
					name = d->name;
		}
		buf_printf(b, "%s%s: %s", b->len ? " · " : "", name ?: "hwmon",
			   p->undervoltage_now.v ? "UNDERVOLTAGE NOW" : "voltage ok");
	}
	if (int_or(p->undervoltage_events, 0) > 0)
		buf_printf(b, "%skernel: %lld × \"Undervoltage detected\" since boot", b->len ? " · " : "",
			   (long long)p->undervoltage_events.v);
}

static void render_throttle(const struct env_throttle *t, struct buf *b)
{
	int64_t pkg = int_or(t->package_events, 0), core = int_or(t->core_events, 0);
	if (pkg <= 0 && core <= 0)
		return;
	buf_printf(b, "%sTHERMAL THROTTLING since boot:", b->len ? " · " : "");
	if (pkg > 0 && t->package_max_cpu.known)
		buf_printf(b, " package %lld×", (long long)pkg);
	if (core > 0 && t->core_max_cpu.known)
		buf_printf(b, " core %lld× (most on cpu%lld)", (long long)core, (long long)t->core_max_cpu.v);
}

static void render_thermal(const struct env_power *p, struct buf *b)
{
	size_t n = p->thermal.n, shown = 0;
	for (size_t i = 0; i < n; i++) {
		const struct env_thermal *z = &p->thermal.v[i];
		if (!z->temp_mc.known)
			continue;
		if (shown == 4) {
			buf_printf(b, " · %zu more zones", n - i);
			break;
		}
		buf_printf(b, "%s%s %.1f °C", shown ? " · " : "", z->type ?: z->zone, (double)z->temp_mc.v / 1000.0);
		if (z->trip_mc.known)
			buf_printf(b, " (%s %.0f °C)", z->trip_type ?: "trip", (double)z->trip_mc.v / 1000.0);
		shown++;
	}
}

/* " (ALARM in1 in2)" for a device's sensors whose alarm is raised */
static void render_alarms(const struct env_hwmon *d, struct buf *b)
{
	bool first = true;
	for (size_t k = 0; k < d->sensors.n; k++) {
		if (is_true(d->sensors.v[k].alarm)) {
			buf_printf(b, "%s%s", first ? " (ALARM " : " ", d->sensors.v[k].sensor);
			first = false;
		}
	}
	if (!first)
		buf_puts(b, ")");
}

/* "hwmon: coretemp ×2, nct6779 (ALARM in1)" */
static void render_hwmon(const struct env_power *p, struct buf *b)
{
	size_t n = p->hwmon.n;
	if (n == 0)
		return;
	buf_puts(b, "hwmon:");
	for (size_t i = 0, same; i < n; i += same) {
		const char *name = p->hwmon.v[i].name ?: "(unnamed)";
		/* devices of one driver in a row (coretemp per package) as "coretemp ×2" */
		for (same = 1; i + same < n; same++)
			if (!streq(name, p->hwmon.v[i + same].name ?: "(unnamed)"))
				break;
		buf_printf(b, "%s %s", i ? "," : "", name);
		if (same > 1)
			buf_printf(b, " ×%zu", same);
		for (size_t k = 0; k < same; k++)
			render_alarms(&p->hwmon.v[i + k], b);
	}
}

void power_render(const struct env_record *env, FILE *out)
{
	const struct env_power *p = &env->power;
	struct buf first = {0}, thermal = {0}, hwmon = {0}, devfreq = {0};

	render_undervoltage(p, &first);
	if (p->on_battery.known)
		buf_printf(&first, "%s%s", first.len ? " · " : "", p->on_battery.v ? "ON BATTERY" : "on mains power");
	render_throttle(&p->throttle, &first);
	render_thermal(p, &thermal);
	render_hwmon(p, &hwmon);
	devfreq_render(env, &devfreq);

	const char *lines[] = { first.s, thermal.s, hwmon.s, devfreq.s };
	const char *label = "Power";
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		if (!lines[i] || !*lines[i])
			continue;
		render_line(out, label, "%s", lines[i]);
		label = NULL;
	}
	if (label)
		render_line(out, label, "no sensors, thermal zones or power supplies found");
	buf_free(&first);
	buf_free(&thermal);
	buf_free(&hwmon);
	buf_free(&devfreq);
}
