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

#include "power.h"
#include "probe.h"

#define HWMON_CLASS "/sys/class/hwmon"
#define THERMAL_CLASS "/sys/class/thermal"
#define SUPPLY_CLASS "/sys/class/power_supply"
#define CPU_DIR "/sys/devices/system/cpu"
#define LABEL_MAX 64

/* Guests see no sensors of the hardware: their absence is no news there. */
static bool is_guest(struct probe_ctx *ctx)
{
	return streq_ptr(jpath_str(ctx->rec, "virt.role"), "guest");
}

/* ---- hwmon ---------------------------------------------------------- */

static const struct {
	const char *kind, *unit;
} hwmon_kinds[] = {
	{ "temp", "mdegC" }, { "in", "mV" }, { "fan", "rpm" }, { "power", "uW" }, { "curr", "mA" },
};

const char *hwmon_unit(const char *kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(hwmon_kinds); i++)
		if (streq(kind, hwmon_kinds[i].kind))
			return hwmon_kinds[i].unit;
	return NULL;
}

int hwmon_parse_attr(const char *file, char kind[8], unsigned *index, const char **attr)
{
	size_t k = 0;
	while (file[k] >= 'a' && file[k] <= 'z')
		k++;
	if (k == 0 || k >= 8 || file[k] < '0' || file[k] > '9')
		return -EINVAL;
	memcpy(kind, file, k);
	kind[k] = '\0';
	if (!hwmon_unit(kind))
		return -EINVAL;
	char *end;
	unsigned long idx = strtoul(file + k, &end, 10);
	if (*end != '_' || !end[1] || idx > 1024)
		return -EINVAL;
	*index = (unsigned)idx;
	*attr = end + 1;
	return 0;
}

/* One sensor being assembled from its attribute files. */
struct sensor {
	char kind[8];
	unsigned index;
	json_object *obj;
	json_object *alarms;
};

struct sensors {
	struct sensor *v;
	size_t n;
};

static struct sensor *sensor_get(struct sensors *l, const char *kind, unsigned index)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].index == index && streq(l->v[i].kind, kind))
			return &l->v[i];
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	struct sensor *s = &l->v[l->n++];
	*s = (struct sensor){ .index = index, .obj = json_object_new_object(), .alarms = json_object_new_object() };
	snprintf(s->kind, sizeof(s->kind), "%s", kind);
	char name[24];
	snprintf(name, sizeof(name), "%s%u", kind, index);
	jset_str(s->obj, "sensor", name);
	jset_null(s->obj, "label");
	jset_str(s->obj, "kind", kind);
	jset_str(s->obj, "unit", hwmon_unit(kind));
	jset_null(s->obj, "value");
	return s;
}

/* A number from a sysfs file, or JSON null when missing or not a number. */
static json_object *read_number(struct rootfs *rf, const char *path)
{
	int64_t v;
	return rootfs_read_s64(rf, path, &v) == 0 ? json_object_new_int64(v) : NULL;
}

static void sensor_attr(struct rootfs *rf, const char *dir, const char *file, struct sensor *s, const char *attr)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, file);
	/* power meters without an instantaneous reading give an average
	 * (power1_average sorts before power1_input, which wins if readable) */
	if (streq(attr, "input") || (streq(attr, "average") && streq(s->kind, "power"))) {
		json_object *v = read_number(rf, path);
		if (v)
			jset(s->obj, "value", v);
	} else if (streq(attr, "label")) {
		_cleanup_free_ char *label = NULL;
		if (rootfs_read_line(rf, path, &label) == 0 && *label && strlen(label) <= LABEL_MAX &&
		    text_printable(label))
			jset_str(s->obj, "label", label);
	} else if (endswith(attr, "alarm")) {
		int64_t v;
		if (rootfs_read_s64(rf, path, &v) == 0 && (v == 0 || v == 1))
			jset_bool(s->alarms, attr, v);
		else
			jset_null(s->alarms, attr);
	} else if (streq(s->kind, "temp") && (streq(attr, "max") || streq(attr, "crit"))) {
		jset(s->obj, attr, read_number(rf, path));
	}
}

/* "alarm": true when any alarm file says 1, false when all say 0, null without any. */
static void sensor_finish(struct sensor *s)
{
	int any = -1;
	json_object_object_foreach(s->alarms, key, val)
	{
		(void)key;
		if (val && json_object_get_boolean(val))
			any = 1;
		else if (val && any < 0)
			any = 0;
	}
	if (any < 0)
		jset_null(s->obj, "alarm");
	else
		jset_bool(s->obj, "alarm", any);
	jset(s->obj, "alarms", s->alarms);
}

/* The sensors in one directory, in file-name order; false when it has none. */
static bool read_sensors(struct rootfs *rf, const char *dir, json_object *out)
{
	struct strv files = {0};
	struct sensors l = {0};
	if (rootfs_list(rf, dir, &files) < 0)
		return false;
	for (size_t i = 0; i < files.n; i++) {
		char kind[8];
		unsigned index;
		const char *attr;
		if (hwmon_parse_attr(files.v[i], kind, &index, &attr) == 0)
			sensor_attr(rf, dir, files.v[i], sensor_get(&l, kind, index), attr);
	}
	for (size_t i = 0; i < l.n; i++) {
		sensor_finish(&l.v[i]);
		json_object_array_add(out, l.v[i].obj);
	}
	free(l.v);
	strv_free(&files);
	return l.n > 0;
}

/* A short text attribute (a device's name, a supply's type), NULL when
 * missing, empty, too long or not text. */
static char *label_attr(struct rootfs *rf, const char *dir, const char *name)
{
	char *v = rootfs_read_attr(rf, dir, name);
	if (v && (strlen(v) > LABEL_MAX || !text_printable(v))) {
		free(v);
		return NULL;
	}
	return v;
}

/*
 * One hwmon device. Old drivers keep name and sensors in the parent
 * device's directory ("device/") rather than in hwmonN itself.
 */
static json_object *read_hwmon(struct rootfs *rf, const char *path)
{
	json_object *dev = json_object_new_object();
	json_object *sensors = json_object_new_array();
	_cleanup_free_ char *name = label_attr(rf, path, "name");
	_cleanup_free_ char *parent = xasprintf("%s/device", path);
	const char *dir = path;

	if (!read_sensors(rf, path, sensors) && read_sensors(rf, parent, sensors))
		dir = parent;
	if (!name)
		name = label_attr(rf, parent, "name");
	jset_str(dev, "name", name);
	jset_str(dev, "path", dir);
	jset(dev, "sensors", sensors);
	return dev;
}

/*
 * Sorted entries of a class directory that are directories, each as its
 * full path. The others (broken links, files where sysfs has links) are
 * named in one unavailable entry.
 */
static void class_entries(struct probe_ctx *ctx, const char *class, const char *prefix, struct strv *out)
{
	struct strv names = {0};
	struct buf unreadable = {0};
	if (rootfs_list(ctx->rf, class, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		if (prefix && !startswith(names.v[i], prefix))
			continue;
		_cleanup_free_ char *path = xasprintf("%s/%s", class, names.v[i]);
		struct stat st;
		int r = rootfs_stat(ctx->rf, path, &st);
		if (r == 0 && !S_ISDIR(st.st_mode))
			r = -ENOTDIR;
		if (r < 0)
			buf_printf(&unreadable, "%s%s (%s)", unreadable.len ? ", " : "", names.v[i], strerror(-r));
		else
			strv_push(out, path);
	}
	if (unreadable.len)
		probe_unavailable(ctx, "power", "%s: unreadable entries: %s", class, unreadable.s);
	buf_free(&unreadable);
	strv_free(&names);
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
	struct strv devs = {0};
	class_entries(ctx, HWMON_CLASS, NULL, &devs);
	for (size_t i = 0; i < devs.n; i++)
		json_object_array_add(hwmon, read_hwmon(ctx->rf, devs.v[i]));
	strv_free(&devs);
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

int thermal_nearest_trip(int64_t temp_mc, const struct thermal_trip *trips, size_t n)
{
	int above = -1, crossed = -1;
	for (size_t i = 0; i < n; i++) {
		if (trips[i].temp_mc <= 0 || !trips[i].type || streq(trips[i].type, "active"))
			continue;
		if (trips[i].temp_mc >= temp_mc) {
			if (above < 0 || trips[i].temp_mc < trips[above].temp_mc)
				above = (int)i;
		} else if (crossed < 0 || trips[i].temp_mc > trips[crossed].temp_mc) {
			crossed = (int)i;
		}
	}
	return above >= 0 ? above : crossed;
}

#define TRIPS_MAX 32

static json_object *read_zone(struct probe_ctx *ctx, const char *path)
{
	json_object *z = json_object_new_object();
	json_object *trips_json = json_object_new_array();
	struct thermal_trip trips[TRIPS_MAX];
	char *types[TRIPS_MAX] = { NULL };
	size_t n = 0;
	_cleanup_free_ char *type_path = xasprintf("%s/type", path), *temp_path = xasprintf("%s/temp", path);
	_cleanup_free_ char *type = NULL;
	int64_t temp;

	jset_str(z, "zone", strrchr(path, '/') + 1);
	if (rootfs_read_line(ctx->rf, type_path, &type) == 0 && *type && text_printable(type))
		jset_str(z, "type", type);
	else
		jset_null(z, "type");
	int r = rootfs_read_s64(ctx->rf, temp_path, &temp);
	if (r < 0) {
		jset_null(z, "temp_mc");
		probe_unavailable(ctx, "power", "%s: %s", temp_path, strerror(-r));
	} else {
		jset_int(z, "temp_mc", temp);
	}

	for (size_t k = 0; k < TRIPS_MAX; k++) {
		_cleanup_free_ char *tp = xasprintf("%s/trip_point_%zu_temp", path, k);
		_cleanup_free_ char *yp = xasprintf("%s/trip_point_%zu_type", path, k);
		int64_t t;
		if (rootfs_read_s64(ctx->rf, tp, &t) < 0)
			break;
		char *ty = NULL;
		if (rootfs_read_line(ctx->rf, yp, &ty) < 0 || !text_printable(ty)) {
			free(ty);
			ty = NULL;
		}
		trips[n] = (struct thermal_trip){ .temp_mc = t, .type = ty };
		types[n++] = ty;
		json_object *tj = json_object_new_object();
		jset_int(tj, "temp_mc", t);
		jset_str(tj, "type", ty);
		json_object_array_add(trips_json, tj);
	}

	int near = r == 0 ? thermal_nearest_trip(temp, trips, n) : -1;
	if (near >= 0) {
		jset_int(z, "trip_mc", trips[near].temp_mc);
		jset_str(z, "trip_type", trips[near].type);
		jset_int(z, "trip_point", near);
	} else {
		jset_null(z, "trip_mc");
		jset_null(z, "trip_type");
		jset_null(z, "trip_point");
	}
	jset(z, "trips", trips_json);
	for (size_t i = 0; i < n; i++)
		free(types[i]);
	return z;
}

static void collect_thermal(struct probe_ctx *ctx, json_object *power)
{
	json_object *zones = json_object_new_array();
	struct strv paths = {0};
	class_entries(ctx, THERMAL_CLASS, "thermal_zone", &paths);
	for (size_t i = 0; i < paths.n; i++)
		json_object_array_add(zones, read_zone(ctx, paths.v[i]));
	strv_free(&paths);
	jset(power, "thermal", zones);
}

/* ---- x86 thermal throttle counters ---------------------------------- */

/* One kind of counter (core or package) over all CPUs. */
struct counter {
	uint64_t events, max, ms;
	int max_cpu; /* -1 while no CPU has the counter */
	bool has_ms; /* time spent throttled: kernels since 5.18 */
};

struct throttle {
	struct counter core, package;
	size_t cpus;
	/* package counters repeat on every CPU of a package: count each package once */
	struct strv packages_seen;
};

/* Adds cpuN's KIND_throttle_count to c (to the total only when total is
 * set); false when the CPU has no such counter. */
static bool counter_add(struct rootfs *rf, const char *cpu, const char *kind, bool total, struct counter *c)
{
	_cleanup_free_ char *count = xasprintf(CPU_DIR "/%s/thermal_throttle/%s_throttle_count", cpu, kind);
	_cleanup_free_ char *time = xasprintf(CPU_DIR "/%s/thermal_throttle/%s_throttle_total_time_ms", cpu, kind);
	uint64_t v, ms;
	if (rootfs_read_u64(rf, count, &v) < 0)
		return false;
	if (total) {
		c->events += v;
		if (rootfs_read_u64(rf, time, &ms) == 0) {
			c->ms += ms;
			c->has_ms = true;
		}
	}
	if (c->max_cpu < 0 || v > c->max) {
		c->max = v;
		c->max_cpu = atoi(cpu + 3);
	}
	return true;
}

/* True for the first CPU met of its package (by physical_package_id). */
static bool first_of_package(struct rootfs *rf, const char *cpu, struct throttle *t)
{
	_cleanup_free_ char *path = xasprintf(CPU_DIR "/%s/topology/physical_package_id", cpu);
	_cleanup_free_ char *id = NULL;
	if (rootfs_read_line(rf, path, &id) < 0)
		id = xstrdup(cpu); /* unknown: its own package */
	if (strv_contains(&t->packages_seen, id))
		return false;
	strv_push(&t->packages_seen, id);
	return true;
}

static void throttle_cpu(struct rootfs *rf, const char *cpu, struct throttle *t)
{
	_cleanup_free_ char *dir = xasprintf(CPU_DIR "/%s/thermal_throttle", cpu);
	if (rootfs_exists(rf, dir) < 0)
		return;
	bool core = counter_add(rf, cpu, "core", true, &t->core);
	bool package = counter_add(rf, cpu, "package", first_of_package(rf, cpu, t), &t->package);
	t->cpus += core || package;
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
	struct throttle t = { .core.max_cpu = -1, .package.max_cpu = -1 };
	struct strv cpus = {0};
	if (rootfs_list(ctx->rf, CPU_DIR, &cpus) == 0)
		for (size_t i = 0; i < cpus.n; i++)
			if (str_numbered(cpus.v[i], "cpu"))
				throttle_cpu(ctx->rf, cpus.v[i], &t);
	strv_free(&cpus);
	strv_free(&t.packages_seen);

	if (t.cpus == 0) {
		jset_null(power, "throttle");
		const char *arch = jpath_str(ctx->rec, "host.arch");
		if (arch && (streq(arch, "x86_64") || endswith(arch, "86")) && !is_guest(ctx))
			probe_unavailable(ctx, "power", "thermal throttle counters: no " CPU_DIR
							"/cpuN/thermal_throttle (therm_throt not built in?)");
		return;
	}
	json_object *o = jchild(power, "throttle");
	jset_int(o, "cpus", (int64_t)t.cpus);
	set_counters(o, "core", &t.core);
	set_counters(o, "package", &t.package);
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

	class_entries(ctx, SUPPLY_CLASS, NULL, &paths);
	for (size_t i = 0; i < paths.n; i++) {
		_cleanup_free_ char *type = label_attr(ctx->rf, paths.v[i], "type");
		_cleanup_free_ char *online = label_attr(ctx->rf, paths.v[i], "online");
		_cleanup_free_ char *status = label_attr(ctx->rf, paths.v[i], "status");
		_cleanup_free_ char *scope = label_attr(ctx->rf, paths.v[i], "scope");
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
	if (is_guest(ctx) && (!jpath(power, "undervoltage_now") || !jpath(power, "throttle")))
		probe_unavailable(ctx, "power", "hardware sensors: a guest sees none of the host's (undervoltage "
						"alarm, thermal throttle counters)");
	return 0;
}

/* ---- text report ---------------------------------------------------- */

static void render_undervoltage(json_object *rec, struct buf *b)
{
	bool now;
	int64_t events;
	json_object *hwmon = jpath(rec, "power.hwmon");
	size_t n = jpath_len(rec, "power.hwmon");

	if (jpath_bool(rec, "power.undervoltage_now", &now)) {
		const char *name = NULL;
		for (size_t i = 0; i < n && !name; i++) {
			json_object *d = json_object_array_get_idx(hwmon, i);
			size_t m = jpath_len(d, "sensors");
			for (size_t k = 0; k < m && !name; k++)
				if (json_object_object_get_ex(jpath(json_object_array_get_idx(jpath(d, "sensors"), k), "alarms"),
							      "lcrit_alarm", NULL))
					name = jpath_str(d, "name");
		}
		buf_printf(b, "%s%s: %s", b->len ? " · " : "", name ?: "hwmon", now ? "UNDERVOLTAGE NOW" : "voltage ok");
	}
	if (jpath_int(rec, "power.undervoltage_events", &events) && events > 0)
		buf_printf(b, "%skernel: %lld × \"Undervoltage detected\" since boot", b->len ? " · " : "",
			   (long long)events);
}

static void render_throttle(json_object *rec, struct buf *b)
{
	int64_t pkg = 0, core = 0, cpu;
	jpath_int(rec, "power.throttle.package_events", &pkg);
	jpath_int(rec, "power.throttle.core_events", &core);
	if (pkg <= 0 && core <= 0)
		return;
	buf_printf(b, "%sTHERMAL THROTTLING since boot:", b->len ? " · " : "");
	if (pkg > 0 && jpath_int(rec, "power.throttle.package_max_cpu", &cpu))
		buf_printf(b, " package %lld×", (long long)pkg);
	if (core > 0 && jpath_int(rec, "power.throttle.core_max_cpu", &cpu))
		buf_printf(b, " core %lld× (most on cpu%lld)", (long long)core, (long long)cpu);
}

static void render_thermal(json_object *rec, struct buf *b)
{
	json_object *zones = jpath(rec, "power.thermal");
	size_t n = jpath_len(rec, "power.thermal"), shown = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *z = json_object_array_get_idx(zones, i);
		int64_t temp, trip;
		if (!jpath_int(z, "temp_mc", &temp))
			continue;
		if (shown == 4) {
			buf_printf(b, " · %zu more zones", n - i);
			break;
		}
		buf_printf(b, "%s%s %.1f °C", shown ? " · " : "", jpath_str(z, "type") ?: jpath_str(z, "zone"),
			   (double)temp / 1000.0);
		if (jpath_int(z, "trip_mc", &trip))
			buf_printf(b, " (%s %.0f °C)", jpath_str(z, "trip_type") ?: "trip", (double)trip / 1000.0);
		shown++;
	}
}

/* " (ALARM in1 in2)" for a device's sensors whose alarm is raised */
static void render_alarms(json_object *d, struct buf *b)
{
	size_t m = jpath_len(d, "sensors");
	bool first = true;
	for (size_t k = 0; k < m; k++) {
		json_object *s = json_object_array_get_idx(jpath(d, "sensors"), k);
		bool alarm;
		if (jpath_bool(s, "alarm", &alarm) && alarm) {
			buf_printf(b, "%s%s", first ? " (ALARM " : " ", jpath_str(s, "sensor"));
			first = false;
		}
	}
	if (!first)
		buf_puts(b, ")");
}

/* "hwmon: coretemp ×2, nct6779 (ALARM in1)" */
static void render_hwmon(json_object *rec, struct buf *b)
{
	json_object *hwmon = jpath(rec, "power.hwmon");
	size_t n = jpath_len(rec, "power.hwmon");
	if (n == 0)
		return;
	buf_puts(b, "hwmon:");
	for (size_t i = 0, same; i < n; i += same) {
		const char *name = jpath_str(json_object_array_get_idx(hwmon, i), "name") ?: "(unnamed)";
		/* devices of one driver in a row (coretemp per package) as "coretemp ×2" */
		for (same = 1; i + same < n; same++)
			if (!streq(name, jpath_str(json_object_array_get_idx(hwmon, i + same), "name") ?: "(unnamed)"))
				break;
		buf_printf(b, "%s %s", i ? "," : "", name);
		if (same > 1)
			buf_printf(b, " ×%zu", same);
		for (size_t k = 0; k < same; k++)
			render_alarms(json_object_array_get_idx(hwmon, i + k), b);
	}
}

void power_render(json_object *rec, FILE *out)
{
	struct buf first = {0}, thermal = {0}, hwmon = {0};
	bool battery;

	render_undervoltage(rec, &first);
	if (jpath_bool(rec, "power.on_battery", &battery))
		buf_printf(&first, "%s%s", first.len ? " · " : "", battery ? "ON BATTERY" : "on mains power");
	render_throttle(rec, &first);
	render_thermal(rec, &thermal);
	render_hwmon(rec, &hwmon);

	const char *lines[] = { first.s, thermal.s, hwmon.s };
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
}
