/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OpenRC backend of tune/services.h: `rc-service --list`,
 * `rc-service --exists NAME`, `rc-service NAME status|stop|start`. A
 * service runs when its status exits 0 ("started"); only those are
 * stopped, so revert starts exactly those again. In a dump nothing is
 * run: the services are the scripts in /etc/init.d, and those OpenRC
 * lists in /run/openrc/started are the running ones.
 */
#include <errno.h>

#include "probe/initscripts.h"
#include "tune/services.h"

/* rc-service with args; its output in *out when out is not NULL. */
static int rc(struct svc *s, const char *const *args, bool capture, char **out)
{
	char *error = NULL;
	int r = svc_run_script(s->rf, s->data ? s->data : "rc-service", args, capture, out, &error);
	svc_set_error(s, error);
	return r;
}

static int rc_open(struct svc *s, char **error)
{
	static const char *const places[] = { "/sbin/rc-service", "/usr/sbin/rc-service", "/bin/rc-service",
					      "/usr/bin/rc-service" };
	if (svc_pid1_is_systemd(s->rf)) {
		*error = xstrdup("PID 1 is systemd");
		return -EOPNOTSUPP;
	}
	if (rootfs_exists(s->rf, OPENRC_RUN) < 0) {
		*error = xstrdup("no " OPENRC_RUN ": OpenRC does not run this machine");
		return -ENOENT;
	}
	if (!rootfs_is_live(s->rf))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(places); i++)
		if (rootfs_exists(s->rf, places[i]) == 0) {
			s->data = xstrdup(places[i]);
			return 0;
		}
	*error = xstrdup("no rc-service in /sbin, /usr/sbin, /bin or /usr/bin");
	return -ENOENT;
}

static void rc_close(struct svc *s)
{
	free(s->data);
}

/* A dump's service: its script is there, and OpenRC marked it started. */
static char *dump_state(struct svc *s, const char *name)
{
	_cleanup_free_ char *script = xasprintf(INITD "/%s", name);
	_cleanup_free_ char *started = xasprintf(OPENRC_STARTED "/%s", name);
	bool runs = rootfs_exists(s->rf, script) == 0 && rootfs_exists(s->rf, started) == 0;
	return xstrdup(runs ? "active" : "inactive");
}

static int dump_list(struct svc *s, struct strv *all)
{
	int r = rootfs_list(s->rf, INITD, all);
	if (r < 0)
		svc_set_error(s, xasprintf("%s: %s", INITD, strerror(-r)));
	return r;
}

/* `rc-service NAME status`: 0 started, 8 starting; 3 stopped, 32 crashed,
 * and the other states (stopping, inactive) do not run the daemon. */
static int rc_state(struct svc *s, const char *name, char **state)
{
	if (!rootfs_is_live(s->rf)) {
		*state = dump_state(s, name);
		return 0;
	}
	int r = rc(s, (const char *const[]){ name, "status", NULL }, true, NULL);
	if (r < 0 || r >= 126)
		return r < 0 ? r : -EIO;
	*state = xstrdup(r == 0 ? "active" : r == 8 ? "activating" : "inactive");
	svc_set_error(s, NULL);
	return 0;
}

static int rc_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states,
		   struct strv *notes)
{
	_cleanup_free_ char *out = NULL;
	struct strv all = {0};
	int r = rootfs_is_live(s->rf) ? rc(s, (const char *const[]){ "--list", NULL }, true, &out) : dump_list(s, &all);
	if (r != 0)
		return r < 0 ? r : -EIO;
	char *save = NULL;
	for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		if (*strstrip(l) && !strv_contains(&all, l))
			strv_push(&all, l);
	strv_sort(&all);
	for (size_t i = 0; i < all.n; i++) {
		enum svc_match m = svc_script_matches(patterns, all.v[i]);
		if (m == SVC_MATCH_NONE)
			continue;
		char *state = NULL;
		if (m == SVC_MATCH_BOOT_GLOB) {
			state = xstrdup("unknown");
			strv_take(notes, xasprintf("%s: %s", all.v[i], SVC_BOOT_GLOB_NOTE));
		} else if (rc_state(s, all.v[i], &state) < 0) {
			state = xstrdup("unknown");
			strv_take(notes, xasprintf("%s: %s", all.v[i], s->error ?: "its status is unknown"));
		}
		strv_push(names, all.v[i]);
		strv_take(states, state);
	}
	strv_free(&all);
	return 0;
}

static int rc_active_state(struct svc *s, const char *name, char **state)
{
	if (!rootfs_is_live(s->rf))
		return rc_state(s, name, state);
	int r = rc(s, (const char *const[]){ "--exists", name, NULL }, true, NULL);
	if (r < 0)
		return r;
	if (r > 0) {
		/* no such service: nothing runs it */
		svc_set_error(s, NULL);
		*state = xstrdup("inactive");
		return 0;
	}
	return rc_state(s, name, state);
}

static int rc_verb(struct svc *s, const char *name, const char *verb)
{
	/* a started daemon may keep its output open: only stop is captured */
	int r = rc(s, (const char *const[]){ name, verb, NULL }, streq(verb, "stop"), NULL);
	return r > 0 ? -EIO : r;
}

static int rc_stop(struct svc *s, const char *name)
{
	return rc_verb(s, name, "stop");
}

static int rc_start(struct svc *s, const char *name)
{
	return rc_verb(s, name, "start");
}

const struct svc_backend svc_openrc = {
	.name = "openrc",
	.open = rc_open,
	.close = rc_close,
	.last_error = svc_script_error,
	.pattern = svc_script_pattern,
	.list = rc_list,
	.active_state = rc_active_state,
	.stop = rc_stop,
	.start = rc_start,
	.best_effort = true,
	.runs_scripts = true,
};
