/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "services.h"

#include <errno.h>

static const struct svc_backend *const backends[] = {
	&svc_systemd,
	NULL,
};

static bool bus_is_private(void)
{
	const char *addr = getenv("DBUS_SYSTEM_BUS_ADDRESS");
	if (!addr || !*addr)
		return false;
	return !strstr(addr, "/run/dbus/system_bus_socket");
}

int svc_open(struct rootfs *rf, struct svc **out, char **why)
{
	if (!rootfs_is_live(rf) && !bus_is_private()) {
		*why = xstrdup("with --root, services are handled only on a bus named by DBUS_SYSTEM_BUS_ADDRESS; "
			       "this machine's services are left alone");
		return -EOPNOTSUPP;
	}
	_cleanup_free_ char *reasons = NULL;
	for (size_t i = 0; backends[i]; i++) {
		struct svc *s = xcalloc(1, sizeof(*s));
		s->backend = backends[i];
		char *w = NULL;
		int r = s->backend->open(s, &w);
		if (r == 0) {
			*out = s;
			return 0;
		}
		char *more = xasprintf("%s%s%s: %s", reasons ? reasons : "", reasons ? "; " : "", backends[i]->name,
				       w ? w : strerror(-r));
		free(reasons);
		reasons = more;
		free(w);
		free(s);
	}
	*why = reasons ? TAKE_PTR(reasons) : xstrdup("this build has no service manager support");
	return -EOPNOTSUPP;
}

void svc_close(struct svc *s)
{
	if (!s)
		return;
	s->backend->close(s);
	free(s);
}

const char *svc_last_error(struct svc *s)
{
	return s ? s->backend->last_error(s) : NULL;
}

int svc_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states)
{
	return s->backend->list(s, patterns, names, states);
}

int svc_active_state(struct svc *s, const char *unit, char **state)
{
	return s->backend->active_state(s, unit, state);
}

int svc_stop(struct svc *s, const char *unit)
{
	return s->backend->stop(s, unit);
}

int svc_start(struct svc *s, const char *unit)
{
	return s->backend->start(s, unit);
}

int svc_default_target(struct svc *s, char **target)
{
	return s->backend->default_target(s, target);
}

int svc_set_default_target(struct svc *s, const char *target)
{
	return s->backend->set_default_target(s, target);
}

bool svc_state_running(const char *state)
{
	return streq(state, "active") || streq(state, "reloading") || streq(state, "activating");
}
