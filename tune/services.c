/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "services.h"

#include <errno.h>
#include <fnmatch.h>

#include "lib/spawn.h"
#include "probe/initscripts.h"

static const struct svc_backend *const backends[] = {
	&svc_systemd,
	&svc_openrc,
	&svc_initscripts,
	NULL,
};

int svc_open(struct rootfs *rf, struct svc **out, char **error)
{
	_cleanup_free_ char *reasons = NULL;
	for (size_t i = 0; backends[i]; i++) {
		struct svc *s = xcalloc(1, sizeof(*s));
		s->backend = backends[i];
		s->rf = rf;
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
	if (!rootfs_is_live(rf))
		*error = xasprintf("with --root, services are handled only on a bus named by DBUS_SYSTEM_BUS_ADDRESS "
				 "or by the root's own init scripts, never this machine's (%s)", reasons);
	else
		*error = TAKE_PTR(reasons);
	return -EOPNOTSUPP;
}

void svc_close(struct svc *s)
{
	if (!s)
		return;
	s->backend->close(s);
	free(s->error);
	free(s);
}

const char *svc_last_error(struct svc *s)
{
	return s ? s->backend->last_error(s) : NULL;
}

const char *svc_name(const struct svc *s)
{
	return s->backend->name;
}

bool svc_best_effort(const struct svc *s)
{
	return s->backend->best_effort;
}

bool svc_runs_scripts(const struct svc *s)
{
	return s->backend->runs_scripts;
}

char *svc_pattern(const struct svc *s, const char *given)
{
	return s->backend->pattern(given);
}

int svc_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states, struct strv *notes)
{
	return s->backend->list(s, patterns, names, states, notes);
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
	return s->backend->default_target ? s->backend->default_target(s, target) : -EOPNOTSUPP;
}

int svc_set_default_target(struct svc *s, const char *target)
{
	return s->backend->set_default_target ? s->backend->set_default_target(s, target) : -EOPNOTSUPP;
}

bool svc_state_running(const char *state)
{
	return streq(state, "active") || streq(state, "reloading") || streq(state, "activating");
}

/* ---- for the backends that run scripts ------------------------------------ */

const char *svc_script_error(struct svc *s)
{
	return s->error;
}

void svc_set_error(struct svc *s, char *error)
{
	free(s->error);
	s->error = error;
}

char *svc_script_pattern(const char *given)
{
	if (endswith(given, ".service"))
		return xstrndup(given, strlen(given) - strlen(".service"));
	_cleanup_free_ char *name = initscript_name(given);
	return name && !strpbrk(given, "*?[") ? TAKE_PTR(name) : xstrdup(given);
}

enum svc_match svc_script_matches(const struct strv *patterns, const char *name)
{
	enum svc_match m = SVC_MATCH_NONE;
	for (size_t i = 0; i < patterns->n; i++) {
		if (fnmatch(patterns->v[i], name, 0) != 0)
			continue;
		if (!strpbrk(patterns->v[i], "*?[") || !initscript_is_boot(name))
			return SVC_MATCH;
		m = SVC_MATCH_BOOT_GLOB;
	}
	return m;
}

bool svc_pid1_is_systemd(struct rootfs *rf)
{
	_cleanup_free_ char *comm = NULL;
	return rootfs_read_line(rf, "/proc/1/comm", &comm) == 0 && streq(comm, "systemd");
}

/* What init gives a script. */
#define SCRIPT_PATH "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static char *last_line(const char *text)
{
	_cleanup_free_ char *copy = strstrip(xstrdup(text ? text : ""));
	char *nl = strrchr(copy, '\n');
	return xstrdup(strstrip(nl ? nl + 1 : copy));
}

int svc_run_script(struct rootfs *rf, const char *path, const char *const *args, bool capture, char **output,
		   char **error)
{
	if (!rootfs_is_live(rf)) {
		*error = xasprintf("%s was not run: with --root, the root's scripts are never run", path);
		return -EPERM;
	}
	const char *argv[8] = { path };
	size_t n = 1;
	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	const char *envp[] = { SCRIPT_PATH, "HOME=/", "LC_ALL=C", NULL };
	struct spawn_opts o = { .argv = argv, .envp = envp, .cwd = "/", .capture = capture,
				.timeout_s = SVC_SCRIPT_TIMEOUT_S };
	_cleanup_free_ char *out = NULL;
	int r = spawn_run(&o, capture ? &out : NULL);
	_cleanup_free_ char *cmd = NULL;
	struct buf b = {0};
	buf_puts(&b, path);
	for (size_t i = 0; args[i]; i++)
		buf_printf(&b, " %s", args[i]);
	cmd = buf_steal(&b);
	if (r == -ETIMEDOUT)
		*error = xasprintf("%s did not finish within %d s and was killed", cmd, SVC_SCRIPT_TIMEOUT_S);
	else if (r < 0)
		*error = xasprintf("cannot run %s: %s", cmd, strerror(-r));
	else if (r > 0) {
		_cleanup_free_ char *said = last_line(out);
		*error = xasprintf("%s exited with status %d%s%s", cmd, r, *said ? ": " : "", said);
	}
	if (output && r >= 0)
		*output = TAKE_PTR(out);
	return r;
}
