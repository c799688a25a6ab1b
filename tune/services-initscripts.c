/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The init-script backend of tune/services.h: busybox and buildroot
 * (/etc/init.d/S50dropbear) and sysvinit (/etc/init.d/cron), run as
 * `SCRIPT stop` and `SCRIPT start`. Whether a service runs comes from its
 * `status` verb where the script has one, else from its daemon's pidfile
 * or process name in /proc: only services seen running are stopped, so
 * revert starts exactly those again. In a dump only the files are read.
 */
#include <errno.h>

#include "probe/initscripts.h"
#include "tune/services.h"

/* How long a stopped daemon may take to end. */
#define STOP_WAIT_S 10
#define STOP_POLL_US 100000

struct scripts {
	struct initscript *v;
	size_t n;
};

static struct scripts *scripts_of(struct svc *s)
{
	return s->data;
}

static int is_open(struct svc *s, char **error)
{
	if (svc_pid1_is_systemd(s->rf)) {
		*error = xstrdup("PID 1 is systemd: its services are units, not " INITD " scripts");
		return -EOPNOTSUPP;
	}
	struct scripts *d = xcalloc(1, sizeof(*d));
	int r = initscripts_list(s->rf, &d->v, &d->n);
	if (r < 0) {
		*error = xasprintf("%s: %s", INITD, strerror(-r));
		free(d);
		return r;
	}
	s->data = d;
	return 0;
}

static void is_close(struct svc *s)
{
	struct scripts *d = scripts_of(s);
	initscripts_free(d->v, d->n);
	free(d);
}

/* The script of a service name (or of its file name, "S50dropbear"). */
static const struct initscript *find(struct svc *s, const char *name)
{
	struct scripts *d = scripts_of(s);
	for (size_t i = 0; i < d->n; i++) {
		const char *base = strrchr(d->v[i].path, '/') + 1;
		if (streq(d->v[i].name, name) || streq(base, name))
			return &d->v[i];
	}
	return NULL;
}

/* "active", "inactive" or "unknown" (then *why says why). */
static char *state_of(struct svc *s, const struct initscript *sc, char **why)
{
	if (!sc->executable) {
		*why = xasprintf("%s is not an executable file", sc->path);
		return xstrdup("unknown");
	}
	if (sc->has_status && rootfs_is_live(s->rf)) {
		_cleanup_free_ char *error = NULL;
		int r = svc_run_script(s->rf, sc->path, (const char *const[]){ "status", NULL }, true, NULL, &error);
		/* LSB: 0 running; 1, 2 dead with a pid or lock file left; 3 not running */
		if (r == 0)
			return xstrdup("active");
		if (r >= 1 && r <= 3)
			return xstrdup("inactive");
	}
	struct proc_table t;
	if (proc_table_read(s->rf, rootfs_is_live(s->rf), &t) < 0)
		t = (struct proc_table){0};
	int pid = 0;
	int r = initscript_running(s->rf, sc, &t, &pid);
	proc_table_free(&t);
	if (r < 0) {
		*why = xasprintf("cannot tell whether it runs: %s %s and /proc shows no processes", sc->path,
				 !sc->has_status ? "has no status verb" : "is not run with --root");
		return xstrdup("unknown");
	}
	return xstrdup(r ? "active" : "inactive");
}

static int is_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states,
		   struct strv *notes)
{
	struct scripts *d = scripts_of(s);
	for (size_t i = 0; i < d->n; i++) {
		enum svc_match m = svc_script_matches(patterns, d->v[i].name);
		if (m == SVC_MATCH_NONE)
			continue;
		_cleanup_free_ char *why = m == SVC_MATCH_BOOT_GLOB ? xstrdup(SVC_BOOT_GLOB_NOTE) : NULL;
		_cleanup_free_ char *state = why ? xstrdup("unknown") : state_of(s, &d->v[i], &why);
		strv_push(names, d->v[i].name);
		strv_push(states, state);
		if (why)
			strv_take(notes, xasprintf("%s: %s", d->v[i].name, why));
	}
	return 0;
}

static int is_active_state(struct svc *s, const char *name, char **state)
{
	const struct initscript *sc = find(s, name);
	if (!sc) {
		/* no script: nothing runs it */
		*state = xstrdup("inactive");
		return 0;
	}
	_cleanup_free_ char *why = NULL;
	char *st = state_of(s, sc, &why);
	if (why) {
		/* a guess could start a running service twice on revert */
		free(st);
		svc_set_error(s, TAKE_PTR(why));
		return -ENODATA;
	}
	*state = st;
	return 0;
}

static int run_verb(struct svc *s, const char *name, const char *verb)
{
	const struct initscript *sc = find(s, name);
	if (!sc) {
		svc_set_error(s, xasprintf("no script for %s in %s", name, INITD));
		return -ENOENT;
	}
	char *error = NULL;
	/* a started daemon may keep its output open: only stop is captured */
	int r = svc_run_script(s->rf, sc->path, (const char *const[]){ verb, NULL }, streq(verb, "stop"), NULL, &error);
	svc_set_error(s, error);
	if (r > 0)
		return -EIO;
	return r;
}

/* busybox's start-stop-daemon -K signals the daemon and returns at once:
 * a stop counts once the daemon is gone, so that revert, which starts
 * only what is not running, never finds it still going away. */
static int is_stop(struct svc *s, const char *name)
{
	int r = run_verb(s, name, "stop");
	if (r < 0)
		return r;
	const struct initscript *sc = find(s, name);
	uint64_t end = now_usec() + STOP_WAIT_S * 1000000ull;
	for (;;) {
		_cleanup_free_ char *why = NULL;
		_cleanup_free_ char *state = state_of(s, sc, &why);
		if (!svc_state_running(state))
			return 0;
		if (now_usec() >= end)
			break;
		usleep(STOP_POLL_US);
	}
	svc_set_error(s, xasprintf("%s stop succeeded, but %s still runs %d s later", sc->path, sc->daemon, STOP_WAIT_S));
	return -ETIME;
}

static int is_start(struct svc *s, const char *name)
{
	return run_verb(s, name, "start");
}

const struct svc_backend svc_initscripts = {
	.name = "init scripts",
	.open = is_open,
	.close = is_close,
	.last_error = svc_script_error,
	.pattern = svc_script_pattern,
	.list = is_list,
	.active_state = is_active_state,
	.stop = is_stop,
	.start = is_start,
	.best_effort = true,
	.runs_scripts = true,
};
