/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Class directories, and thermal zones with their trip points. */
#include <errno.h>

#include "hw.h"

#define THERMAL_CLASS "/sys/class/thermal"
#define TRIPS_MAX 32

int hw_class_entries(struct rootfs *rf, const char *class, const char *prefix, struct strv *out, char **unreadable)
{
	struct strv names = {0};
	struct buf bad = {0};
	*unreadable = NULL;
	int r = rootfs_list(rf, class, &names);
	if (r < 0)
		return r;
	for (size_t i = 0; i < names.n; i++) {
		if (prefix && !startswith(names.v[i], prefix))
			continue;
		_cleanup_free_ char *path = xasprintf("%s/%s", class, names.v[i]);
		struct stat st;
		int k = rootfs_stat(rf, path, &st);
		if (k == 0 && !S_ISDIR(st.st_mode))
			k = -ENOTDIR;
		if (k < 0)
			buf_printf(&bad, "%s%s (%s)", bad.len ? ", " : "", names.v[i], strerror(-k));
		else
			strv_push(out, path);
	}
	if (bad.len)
		*unreadable = buf_steal(&bad);
	strv_free(&names);
	return 0;
}

char *hw_label_attr(struct rootfs *rf, const char *dir, const char *name)
{
	char *v = rootfs_read_attr(rf, dir, name);
	if (v && (strlen(v) > HW_LABEL_MAX || !text_printable(v))) {
		free(v);
		return NULL;
	}
	return v;
}

int hw_throttle_trip(const struct hw_trip *trips, size_t n)
{
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		if (trips[i].temp_mc <= 0 || !trips[i].type || streq(trips[i].type, "active"))
			continue;
		if (best < 0 || trips[i].temp_mc < trips[best].temp_mc)
			best = (int)i;
	}
	return best;
}

/* A line of text that is printable, or NULL. */
static char *text_line(struct rootfs *rf, const char *path)
{
	char *s = NULL;
	if (rootfs_read_line(rf, path, &s) == 0 && text_printable(s))
		return s;
	free(s);
	return NULL;
}

static void read_zone(struct rootfs *rf, const char *path, struct hw_zone *z)
{
	_cleanup_free_ char *type_path = xasprintf("%s/type", path);
	*z = (struct hw_zone){ .name = xstrdup(strrchr(path, '/') + 1), .path = xstrdup(path),
			       .temp_path = xasprintf("%s/temp", path) };
	z->type = text_line(rf, type_path);
	if (z->type && !*z->type) {
		free(z->type);
		z->type = NULL;
	}
	/* trip points are numbered from 0 without gaps */
	for (size_t k = 0; k < TRIPS_MAX; k++) {
		_cleanup_free_ char *tp = xasprintf("%s/trip_point_%zu_temp", path, k);
		_cleanup_free_ char *yp = xasprintf("%s/trip_point_%zu_type", path, k);
		int64_t t;
		if (rootfs_read_s64(rf, tp, &t) < 0)
			break;
		z->trips = xrealloc(z->trips, (z->ntrips + 1) * sizeof(*z->trips));
		z->trips[z->ntrips++] = (struct hw_trip){ .temp_mc = t, .type = text_line(rf, yp) };
	}
	z->throttle_trip = hw_throttle_trip(z->trips, z->ntrips);
}

int hw_thermal_zones(struct rootfs *rf, struct hw_zones *out)
{
	struct strv paths = {0};
	*out = (struct hw_zones){0};
	int r = hw_class_entries(rf, THERMAL_CLASS, "thermal_zone", &paths, &out->unreadable);
	if (r < 0)
		return r;
	out->v = xcalloc(paths.n ? paths.n : 1, sizeof(*out->v));
	for (size_t i = 0; i < paths.n; i++)
		read_zone(rf, paths.v[i], &out->v[out->n++]);
	strv_free(&paths);
	return 0;
}

void hw_zones_free(struct hw_zones *z)
{
	for (size_t i = 0; i < z->n; i++) {
		for (size_t k = 0; k < z->v[i].ntrips; k++)
			free(z->v[i].trips[k].type);
		free(z->v[i].trips);
		free(z->v[i].name);
		free(z->v[i].path);
		free(z->v[i].type);
		free(z->v[i].temp_path);
	}
	free(z->v);
	free(z->unreadable);
	*z = (struct hw_zones){0};
}

int hw_zone_temp(struct rootfs *rf, const struct hw_zone *z, int64_t *mc)
{
	return rootfs_read_s64(rf, z->temp_path, mc);
}
