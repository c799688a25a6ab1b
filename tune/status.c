/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tune.h"

#include <errno.h>

#include "tune/knob.h"

static bool kind_persistent(enum action_kind k)
{
	return k == ACT_MKDIR || k == ACT_DEFAULT_TARGET;
}

/* One knob: what the profile set, what is there now, and the verdict. */
static json_object *check_knob(struct tune_env *env, const struct knob *k, bool rebooted, int64_t *drifted)
{
	json_object *o = json_object_new_object();
	jset_str(o, "what", k->what);
	jset_str(o, "kind", action_kind_name(k->kind));
	jset_str(o, "target", k->target);
	jset_str(o, "wanted", k->value);
	_cleanup_free_ char *now = NULL;
	const char *state;
	if (knob_get(env->rf, env->svc, k->kind, k->target, k->choice, &now) < 0)
		state = "unknown";
	else if (knob_same(k->kind, now, k->value))
		state = "ok";
	else if (rebooted && !kind_persistent(k->kind))
		state = "lost";
	else
		state = "drifted";
	jset_str(o, "now", now);
	jset_str(o, "state", state);
	if (streq(state, "lost") || streq(state, "drifted"))
		(*drifted)++;
	return o;
}

static void copy_member(json_object *dst, json_object *src, const char *key)
{
	json_object *v = NULL, *copy = NULL;
	if (src && json_object_object_get_ex(src, key, &v) && v)
		json_object_deep_copy(v, &copy, NULL);
	jset(dst, key, copy);
}

/* Knobs from applied.json, or from the journal after an interrupted apply. */
static void collect_knobs(json_object *applied, const struct jlog *l, struct knob **out, size_t *n)
{
	json_object *a = jpath(applied, "knobs");
	size_t len = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	*out = xcalloc(len + l->n + 1, sizeof(**out));
	*n = 0;
	for (size_t i = 0; i < len; i++)
		if (knob_from_json(json_object_array_get_idx(a, i), &(*out)[*n]) == 0)
			(*n)++;
	if (applied)
		return;
	for (size_t i = 0; i < l->n; i++)
		(*out)[(*n)++] = (struct knob){
			.kind = l->e[i].a.kind, .what = xstrdup(l->e[i].a.what), .target = xstrdup(l->e[i].a.target),
			.value = xstrdup(l->e[i].a.to), .choice = l->e[i].a.choice,
		};
}

static int read_journal(struct tune_env *env, int dfd, struct jlog *l, bool *unreadable, char **error)
{
	struct journal *j = NULL;
	*l = (struct jlog){0};
	int r = dfd < 0 ? dfd : journal_open(dfd, env->state_dir, JOURNAL_READ, &j, error);
	if (r == -ENOENT)
		return 0;
	if (r == -EACCES) {
		/* root's journal; applied.json (readable) says what is applied */
		*unreadable = true;
		return 0;
	}
	if (r < 0) {
		_cleanup_free_ char *why = tune_state_why(env, r);
		*error = xasprintf("cannot open the journal in %s: %s", env->state_dir,
				   r == -EBUSY ? "ubtune apply or revert is running right now" : why);
		return r;
	}
	_cleanup_free_ char *damage = NULL;
	r = journal_read(j, l, &damage);
	if (r < 0)
		*error = r == -EBADMSG ? xasprintf("%s: %s", journal_path(j), damage)
				       : xasprintf("cannot read %s: %s", journal_path(j), strerror(-r));
	journal_close(j);
	return r;
}

int tune_status(struct tune_env *env, json_object **out, char **error)
{
	_cleanup_json_ json_object *applied = NULL;
	int r = tune_state_lock(env, false);
	if (r < 0) {
		*error = xasprintf("cannot read the state in %s: %s", env->state_dir,
				   r == -EBUSY ? "ubtune apply or revert is running right now" : strerror(-r));
		return r;
	}
	_cleanup_close_ int dfd = tune_state_open(env, false);
	_cleanup_free_ char *bad = NULL;
	r = dfd < 0 ? dfd : applied_load_at(dfd, &applied, &bad);
	if (r == -ENOENT) {
		applied = NULL;
	} else if (r < 0) {
		_cleanup_free_ char *why = dfd < 0 ? tune_state_why(env, r) : NULL;
		*error = xasprintf("cannot read %s/" APPLIED_FILE ": %s", env->state_dir, why ?: bad);
		return r;
	}
	struct jlog l;
	bool unreadable = false;
	if ((r = read_journal(env, dfd, &l, &unreadable, error)) < 0)
		return r;

	json_object *o = json_object_new_object();
	bool interrupted = !applied && l.n;
	for (size_t i = 0; i < l.n; i++)
		interrupted |= !l.e[i].done;
	const char *applied_boot = applied ? jpath_str(applied, "boot_id") : l.n ? l.e[0].boot_id : NULL;
	bool rebooted = applied_boot && env->boot_id && !streq(applied_boot, env->boot_id);

	jset_bool(o, "applied", applied || l.n);
	json_object *profiles = json_object_new_array();
	json_object *ap = jpath(applied, "profiles");
	for (size_t i = 0; ap && i < json_object_array_length(ap); i++)
		jarr_add_str(profiles, json_object_get_string(json_object_array_get_idx(ap, i)));
	for (size_t i = 0; !ap && i < l.profiles.n; i++)
		jarr_add_str(profiles, l.profiles.v[i]);
	jset(o, "profiles", profiles);
	jset_str(o, "state_dir", env->state_dir);
	jset_bool(o, "rebooted", rebooted);
	jset_bool(o, "interrupted", interrupted);
	jset_bool(o, "journal_readable", !unreadable);

	struct knob *knobs = NULL;
	size_t n = 0;
	int64_t drifted = 0;
	collect_knobs(applied, &l, &knobs, &n);
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(list, check_knob(env, &knobs[i], rebooted, &drifted));
		knob_free(&knobs[i]);
	}
	free(knobs);
	jset(o, "knobs", list);
	jset_int(o, "drifted", drifted);
	copy_member(o, applied, "build");
	copy_member(o, applied, "bench");
	copy_member(o, applied, "workdir");
	jlog_free(&l);
	*out = o;
	return 0;
}
