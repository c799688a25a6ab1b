/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "units.h"

#include <errno.h>
#include <fnmatch.h>

#include "util.h"

void unit_state_free(struct unit_state *s)
{
	free(s->name);
	free(s->load_state);
	free(s->active_state);
	free(s->sub_state);
	*s = (struct unit_state){0};
}

void unit_state_list_free(struct unit_state *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		unit_state_free(&list[i]);
	free(list);
}

bool unit_state_is_active(const struct unit_state *s)
{
	return s->active_state && (streq(s->active_state, "active") || streq(s->active_state, "activating") ||
				   streq(s->active_state, "reloading"));
}

#if HAVE_SYSTEMD
#include <systemd/sd-bus.h>

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER SD_DEST ".Manager"
#define SD_UNIT SD_DEST ".Unit"
/* A method call answers at once (jobs run afterwards); a bus that takes
 * longer than this is stuck. */
#define CALL_TIMEOUT_USEC (10ull * 1000000ull)

struct units {
	sd_bus *bus;
	uint64_t job_timeout;
	bool subscribed;
	char *error;
};

static void set_error(struct units *u, char *msg)
{
	free(u->error);
	u->error = msg;
}

/* Records what went wrong and turns a bus error into -errno. */
static int fail(struct units *u, int r, const sd_bus_error *e)
{
	if (e && sd_bus_error_is_set(e)) {
		if (sd_bus_error_has_name(e, SD_DEST ".NoSuchUnit"))
			r = -ENOENT;
		else if (sd_bus_error_get_errno(e) > 0)
			r = -sd_bus_error_get_errno(e);
		set_error(u, xstrdup(e->message ? e->message : e->name));
	} else {
		set_error(u, xstrdup(strerror(-r)));
	}
	return r;
}

int units_open(struct units **out)
{
	struct units *u = xcalloc(1, sizeof(*u));
	u->job_timeout = UNITS_JOB_TIMEOUT_USEC;
	int r = sd_bus_open_system(&u->bus);
	if (r < 0) {
		free(u);
		return r;
	}
	sd_bus_set_method_call_timeout(u->bus, CALL_TIMEOUT_USEC);
	*out = u;
	return 0;
}

void units_close(struct units *u)
{
	sd_bus_flush_close_unref(u->bus);
	free(u->error);
	free(u);
}

const char *units_last_error(const struct units *u)
{
	return u->error;
}

void units_set_job_timeout(struct units *u, uint64_t usec)
{
	u->job_timeout = usec;
}

/* Calls a method of the manager; *reply may be NULL when not wanted. */
static int manager_call(struct units *u, const char *method, sd_bus_message **reply, const char *types, ...)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	va_list ap;
	va_start(ap, types);
	int r = sd_bus_call_methodv(u->bus, SD_DEST, SD_PATH, SD_MANAGER, method, &e, reply, types, ap);
	va_end(ap);
	if (r < 0)
		r = fail(u, r, &e);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

int units_default_target(struct units *u, char **out)
{
	sd_bus_message *reply = NULL;
	const char *target;
	int r = manager_call(u, "GetDefaultTarget", &reply, "");
	if (r < 0)
		return r;
	r = sd_bus_message_read(reply, "s", &target);
	if (r >= 0)
		*out = xstrdup(target);
	sd_bus_message_unref(reply);
	return r < 0 ? fail(u, r, NULL) : 0;
}

int units_set_default_target(struct units *u, const char *target)
{
	/* force: replace the existing default.target link, as systemctl does */
	return manager_call(u, "SetDefaultTarget", NULL, "sb", target, 1);
}

static int state_cmp(const void *a, const void *b)
{
	return strcmp(((const struct unit_state *)a)->name, ((const struct unit_state *)b)->name);
}

static bool matches_any(const char *const *patterns, const char *name)
{
	for (size_t i = 0; patterns[i]; i++)
		if (fnmatch(patterns[i], name, 0) == 0)
			return true;
	return false;
}

/* Reads the a(ssssssouso) answer of ListUnits*; filter: patterns the
 * server did not apply (NULL: take every row). */
static int read_unit_rows(sd_bus_message *reply, const char *const *filter, struct unit_state **out, size_t *n)
{
	struct unit_state *v = NULL;
	size_t count = 0, cap = 0;
	const char *name, *desc, *load, *active, *sub, *following, *upath, *jtype, *jpath;
	uint32_t jid;
	int r = sd_bus_message_enter_container(reply, 'a', "(ssssssouso)");
	while (r >= 0 && (r = sd_bus_message_read(reply, "(ssssssouso)", &name, &desc, &load, &active, &sub,
						  &following, &upath, &jid, &jtype, &jpath)) > 0) {
		if (filter && !matches_any(filter, name))
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[count++] = (struct unit_state){ xstrdup(name), xstrdup(load), xstrdup(active), xstrdup(sub) };
	}
	if (r < 0) {
		unit_state_list_free(v, count);
		return r;
	}
	if (count)
		qsort(v, count, sizeof(*v), state_cmp);
	*out = v;
	*n = count;
	return 0;
}

int units_list(struct units *u, const char *const *patterns, struct unit_state **out, size_t *n)
{
	sd_bus_message *m = NULL, *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	const char *const *filter = NULL;
	char *none[] = { NULL };

	int r = sd_bus_message_new_method_call(u->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "ListUnitsByPatterns");
	if (r >= 0)
		r = sd_bus_message_append_strv(m, none);
	if (r >= 0)
		r = sd_bus_message_append_strv(m, (char **)patterns);
	if (r >= 0)
		r = sd_bus_call(u->bus, m, 0, &e, &reply);
	sd_bus_message_unref(m);
	if (r < 0 && sd_bus_error_has_name(&e, SD_BUS_ERROR_UNKNOWN_METHOD)) {
		/* systemd < 230: list everything, match here */
		sd_bus_error_free(&e);
		r = sd_bus_call_method(u->bus, SD_DEST, SD_PATH, SD_MANAGER, "ListUnits", &e, &reply, "");
		filter = patterns;
	}
	if (r < 0) {
		r = fail(u, r, &e);
		sd_bus_error_free(&e);
		return r;
	}
	r = read_unit_rows(reply, filter, out, n);
	sd_bus_message_unref(reply);
	return r < 0 ? fail(u, r, NULL) : 0;
}

/* Reads the string members of a{sv} that are wanted. */
static int read_unit_props(sd_bus_message *reply, struct unit_state *s)
{
	static const char *const keys[] = { "Id", "LoadState", "ActiveState", "SubState" };
	char **fields[] = { &s->name, &s->load_state, &s->active_state, &s->sub_state };
	int r = sd_bus_message_enter_container(reply, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
		const char *key, *value;
		size_t i;
		if ((r = sd_bus_message_read(reply, "s", &key)) < 0)
			break;
		for (i = 0; i < ARRAY_SIZE(keys) && !streq(key, keys[i]); i++)
			;
		if (i < ARRAY_SIZE(keys) && sd_bus_message_enter_container(reply, 'v', "s") > 0) {
			if ((r = sd_bus_message_read(reply, "s", &value)) < 0)
				break;
			free(*fields[i]);
			*fields[i] = xstrdup(value);
			r = sd_bus_message_exit_container(reply);
		} else {
			r = sd_bus_message_skip(reply, "v");
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(reply);
	}
	return r < 0 ? r : 0;
}

int units_get(struct units *u, const char *name, struct unit_state *out)
{
	sd_bus_message *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	const char *path;
	struct unit_state s = {0};

	int r = manager_call(u, "GetUnit", &reply, "s", name);
	if (r < 0)
		return r;
	r = sd_bus_message_read(reply, "o", &path);
	if (r >= 0) {
		_cleanup_free_ char *p = xstrdup(path);
		sd_bus_message_unref(reply);
		reply = NULL;
		r = sd_bus_call_method(u->bus, SD_DEST, p, "org.freedesktop.DBus.Properties", "GetAll", &e, &reply,
				       "s", SD_UNIT);
	}
	if (r >= 0)
		r = read_unit_props(reply, &s);
	sd_bus_message_unref(reply);
	if (r >= 0 && (!s.load_state || !s.active_state || !s.sub_state)) {
		set_error(u, xasprintf("%s: systemd did not report its state", name));
		r = -EBADMSG;
	} else if (r < 0) {
		r = fail(u, r, &e);
	}
	sd_bus_error_free(&e);
	if (r < 0) {
		unit_state_free(&s);
		return r;
	}
	if (!s.name)
		s.name = xstrdup(name);
	*out = s;
	return 0;
}

struct job_wait {
	const char *job;
	char *result;
};

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *error _unused_)
{
	struct job_wait *w = userdata;
	uint32_t id;
	const char *path, *unit, *result;
	if (sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (w->job && !w->result && streq(path, w->job))
		w->result = xstrdup(result);
	return 0;
}

static const struct {
	const char *result;
	int error;
} job_results[] = {
	{ "done", 0 },		    { "skipped", 0 },	       { "canceled", -ECANCELED },
	{ "timeout", -ETIMEDOUT },  { "failed", -EIO },	       { "dependency", -ENOLINK },
	{ "invalid", -EINVAL },	    { "unsupported", -EOPNOTSUPP },
};

static int job_result_error(const char *result)
{
	for (size_t i = 0; i < ARRAY_SIZE(job_results); i++)
		if (streq(result, job_results[i].result))
			return job_results[i].error;
	return -EIO;
}

/* Waits until the JobRemoved of w->job has been seen, or the deadline. */
static int wait_job(struct units *u, struct job_wait *w, const char *name)
{
	uint64_t deadline = now_usec() + u->job_timeout;
	while (!w->result) {
		int r = sd_bus_process(u->bus, NULL);
		if (r < 0)
			return fail(u, r, NULL);
		if (r > 0)
			continue;
		uint64_t now = now_usec();
		if (now >= deadline) {
			set_error(u, xasprintf("the job for %s did not finish within %llu ms", name,
					       (unsigned long long)(u->job_timeout / 1000)));
			return -ETIME;
		}
		r = sd_bus_wait(u->bus, deadline - now);
		if (r < 0)
			return fail(u, r, NULL);
	}
	int r = job_result_error(w->result);
	if (r < 0)
		set_error(u, xasprintf("the job for %s ended with result '%s'", name, w->result));
	return r;
}

/*
 * Queues a job and waits for it. The JobRemoved match is in place before
 * the call, and sd-bus keeps signals that arrive during the call until
 * sd_bus_process(), so a job that finishes at once is not missed.
 */
static int unit_job(struct units *u, const char *method, const char *name)
{
	sd_bus_slot *slot = NULL;
	sd_bus_message *reply = NULL;
	struct job_wait w = {0};
	const char *job;

	if (!u->subscribed) {
		/* systemd sends job signals only while someone subscribed;
		 * "already subscribed" and the like are harmless */
		sd_bus_call_method(u->bus, SD_DEST, SD_PATH, SD_MANAGER, "Subscribe", NULL, NULL, "");
		u->subscribed = true;
	}
	int r = sd_bus_match_signal(u->bus, &slot, SD_DEST, SD_PATH, SD_MANAGER, "JobRemoved", on_job_removed, &w);
	if (r < 0)
		return fail(u, r, NULL);
	r = manager_call(u, method, &reply, "ss", name, "replace");
	if (r >= 0 && (r = sd_bus_message_read(reply, "o", &job)) < 0)
		r = fail(u, r, NULL);
	if (r >= 0) {
		w.job = job;
		r = wait_job(u, &w, name);
	}
	free(w.result);
	sd_bus_message_unref(reply);
	sd_bus_slot_unref(slot);
	return r;
}

int units_stop(struct units *u, const char *name)
{
	return unit_job(u, "StopUnit", name);
}

int units_start(struct units *u, const char *name)
{
	return unit_job(u, "StartUnit", name);
}

#else /* !HAVE_SYSTEMD */

int units_open(struct units **u)
{
	*u = NULL;
	return -EOPNOTSUPP;
}

void units_close(struct units *u _unused_)
{
}

const char *units_last_error(const struct units *u _unused_)
{
	return "built without libsystemd";
}

void units_set_job_timeout(struct units *u _unused_, uint64_t usec _unused_)
{
}

int units_default_target(struct units *u _unused_, char **out _unused_)
{
	return -EOPNOTSUPP;
}

int units_set_default_target(struct units *u _unused_, const char *target _unused_)
{
	return -EOPNOTSUPP;
}

int units_list(struct units *u _unused_, const char *const *patterns _unused_, struct unit_state **out _unused_,
	       size_t *n _unused_)
{
	return -EOPNOTSUPP;
}

int units_get(struct units *u _unused_, const char *name _unused_, struct unit_state *out _unused_)
{
	return -EOPNOTSUPP;
}

int units_stop(struct units *u _unused_, const char *name _unused_)
{
	return -EOPNOTSUPP;
}

int units_start(struct units *u _unused_, const char *name _unused_)
{
	return -EOPNOTSUPP;
}
#endif
