/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwmon devices: their sensors, readings and alarms. */
#include <errno.h>

#include "hw.h"

#define HWMON_CLASS "/sys/class/hwmon"

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

/* The sensor kind+index of a device, created in the order first met. */
static struct hw_sensor *sensor_get(struct hw_hwmon *d, const char *kind, unsigned index)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->sensors[i].index == index && streq(d->sensors[i].kind, kind))
			return &d->sensors[i];
	d->sensors = xrealloc(d->sensors, (d->n + 1) * sizeof(*d->sensors));
	struct hw_sensor *s = &d->sensors[d->n++];
	*s = (struct hw_sensor){ .index = index };
	snprintf(s->kind, sizeof(s->kind), "%s", kind);
	return s;
}

static void set_path(char **slot, const char *dir, const char *file)
{
	free(*slot);
	*slot = xasprintf("%s/%s", dir, file);
}

static void sensor_attr(struct rootfs *rf, const char *dir, const char *file, struct hw_sensor *s, const char *attr)
{
	if (streq(attr, "input")) {
		set_path(&s->input_path, dir, file);
	} else if (streq(attr, "average") && streq(s->kind, "power")) {
		set_path(&s->average_path, dir, file);
	} else if (streq(attr, "label")) {
		_cleanup_free_ char *path = xasprintf("%s/%s", dir, file);
		char *label = NULL;
		if (rootfs_read_line(rf, path, &label) == 0 && *label && strlen(label) <= HW_LABEL_MAX &&
		    text_printable(label)) {
			free(s->label);
			s->label = label;
		} else {
			free(label);
		}
	} else if (endswith(attr, "alarm")) {
		s->alarms = xrealloc(s->alarms, (s->nalarms + 1) * sizeof(*s->alarms));
		s->alarms[s->nalarms++] = (struct hw_alarm){ xstrdup(attr), xasprintf("%s/%s", dir, file) };
	} else if (streq(s->kind, "temp") && streq(attr, "crit")) {
		set_path(&s->crit_path, dir, file);
	} else if (streq(s->kind, "temp") && streq(attr, "max")) {
		set_path(&s->max_path, dir, file);
	}
}

/* The sensors in one directory, in file-name order; false when it has none. */
static bool read_sensors(struct rootfs *rf, const char *dir, struct hw_hwmon *d)
{
	struct strv files = {0};
	if (rootfs_list(rf, dir, &files) < 0)
		return false;
	for (size_t i = 0; i < files.n; i++) {
		char kind[8];
		unsigned index;
		const char *attr;
		if (hwmon_parse_attr(files.v[i], kind, &index, &attr) == 0)
			sensor_attr(rf, dir, files.v[i], sensor_get(d, kind, index), attr);
	}
	strv_free(&files);
	return d->n > 0;
}

/*
 * One hwmon device. Old drivers keep name and sensors in the parent
 * device's directory ("device/") rather than in hwmonN itself.
 */
static void read_hwmon(struct rootfs *rf, const char *path, struct hw_hwmon *d)
{
	_cleanup_free_ char *parent = xasprintf("%s/device", path);
	*d = (struct hw_hwmon){ .entry = xstrdup(strrchr(path, '/') + 1) };
	d->name = hw_label_attr(rf, path, "name");
	d->dir = xstrdup(path);
	if (!read_sensors(rf, path, d) && read_sensors(rf, parent, d)) {
		free(d->dir);
		d->dir = xstrdup(parent);
	}
	if (!d->name)
		d->name = hw_label_attr(rf, parent, "name");
}

int hw_hwmon_devices(struct rootfs *rf, struct hw_hwmons *out)
{
	struct strv paths = {0};
	*out = (struct hw_hwmons){0};
	int r = hw_class_entries(rf, HWMON_CLASS, NULL, &paths, &out->unreadable);
	if (r < 0)
		return r;
	out->v = xcalloc(paths.n ? paths.n : 1, sizeof(*out->v));
	for (size_t i = 0; i < paths.n; i++)
		read_hwmon(rf, paths.v[i], &out->v[out->n++]);
	strv_free(&paths);
	return 0;
}

void hw_hwmons_free(struct hw_hwmons *h)
{
	for (size_t i = 0; i < h->n; i++) {
		struct hw_hwmon *d = &h->v[i];
		for (size_t k = 0; k < d->n; k++) {
			struct hw_sensor *s = &d->sensors[k];
			for (size_t a = 0; a < s->nalarms; a++) {
				free(s->alarms[a].attr);
				free(s->alarms[a].path);
			}
			free(s->alarms);
			free(s->label);
			free(s->input_path);
			free(s->average_path);
			free(s->crit_path);
			free(s->max_path);
		}
		free(d->sensors);
		free(d->entry);
		free(d->name);
		free(d->dir);
	}
	free(h->v);
	free(h->unreadable);
	*h = (struct hw_hwmons){0};
}

int hw_sensor_value(struct rootfs *rf, const struct hw_sensor *s, int64_t *v)
{
	int r = -ENOENT;
	if (s->input_path && (r = rootfs_read_s64(rf, s->input_path, v)) == 0)
		return 0;
	if (s->average_path)
		r = rootfs_read_s64(rf, s->average_path, v);
	return r;
}

int hw_alarm_read(struct rootfs *rf, const struct hw_alarm *a, bool *raised)
{
	int64_t v;
	int r = rootfs_read_s64(rf, a->path, &v);
	if (r < 0)
		return r;
	if (v != 0 && v != 1)
		return -EBADMSG;
	*raised = v == 1;
	return 0;
}

bool hw_alarm_undervoltage(const struct hw_sensor *s, const struct hw_alarm *a)
{
	return streq(s->kind, "in") && streq(a->attr, "lcrit_alarm");
}
