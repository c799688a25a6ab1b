/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The systemd backend of tune/services.h, on lib/units (sd-bus). */
#include <errno.h>

#include "lib/units.h"
#include "tune/services.h"

static struct units *units_of(struct svc *s)
{
	return s->data;
}

static bool bus_is_private(void)
{
	const char *addr = getenv("DBUS_SYSTEM_BUS_ADDRESS");
	if (!addr || !*addr)
		return false;
	return !strstr(addr, "/run/dbus/system_bus_socket");
}

static int sd_open(struct svc *s, char **error)
{
	if (!rootfs_is_live(s->rf) && !bus_is_private()) {
		*error = xstrdup("no bus named by DBUS_SYSTEM_BUS_ADDRESS");
		return -EOPNOTSUPP;
	}
	struct units *u = NULL;
	int r = units_open(&u);
	if (r < 0) {
		*error = xasprintf("no system bus (%s)", r == -EOPNOTSUPP ? "built without libsystemd" : strerror(-r));
		return r;
	}
	/* a bus without systemd on it answers only now */
	_cleanup_free_ char *target = NULL;
	r = units_default_target(u, &target);
	if (r < 0) {
		*error = xasprintf("systemd does not answer on the system bus (%s)",
				 units_last_error(u) ? units_last_error(u) : strerror(-r));
		units_close(u);
		return r;
	}
	s->data = u;
	return 0;
}

static void sd_close(struct svc *s)
{
	units_close(units_of(s));
}

static const char *sd_last_error(struct svc *s)
{
	return units_last_error(units_of(s));
}

static bool has_unit_suffix(const char *name)
{
	static const char *const types[] = { ".service", ".socket", ".timer", ".target", ".path", ".mount",
					     ".automount", ".swap", ".slice", ".scope", ".device" };
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (endswith(name, types[i]))
			return true;
	return false;
}

/* As systemctl does: a plain name means NAME.service; a glob is kept. */
static char *sd_pattern(const char *p)
{
	if (strpbrk(p, "*?[") || has_unit_suffix(p))
		return xstrdup(p);
	return xasprintf("%s.service", p);
}

static int sd_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states,
		   struct strv *notes _unused_)
{
	struct unit_state *list = NULL;
	size_t n = 0;
	int r = units_list(units_of(s), (const char *const *)patterns->v, &list, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		strv_push(names, list[i].name);
		strv_push(states, list[i].active_state ? list[i].active_state : "unknown");
	}
	unit_state_list_free(list, n);
	return 0;
}

static int sd_active_state(struct svc *s, const char *unit, char **state)
{
	struct unit_state st = {0};
	int r = units_get(units_of(s), unit, &st);
	if (r == -ENOENT) {
		/* not loaded: nothing runs it */
		*state = xstrdup("inactive");
		return 0;
	}
	if (r < 0)
		return r;
	*state = xstrdup(st.active_state ? st.active_state : "unknown");
	unit_state_free(&st);
	return 0;
}

static int sd_stop(struct svc *s, const char *unit)
{
	return units_stop(units_of(s), unit);
}

static int sd_start(struct svc *s, const char *unit)
{
	return units_start(units_of(s), unit);
}

static int sd_default_target(struct svc *s, char **target)
{
	return units_default_target(units_of(s), target);
}

static int sd_set_default_target(struct svc *s, const char *target)
{
	return units_set_default_target(units_of(s), target);
}

const struct svc_backend svc_systemd = {
	.name = "systemd",
	.open = sd_open,
	.close = sd_close,
	.last_error = sd_last_error,
	.pattern = sd_pattern,
	.list = sd_list,
	.active_state = sd_active_state,
	.stop = sd_stop,
	.start = sd_start,
	.default_target = sd_default_target,
	.set_default_target = sd_set_default_target,
};
