/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tune.h"

#include <errno.h>

#include "tune/knob.h"

static bool same_boot(const struct jentry *e, const char *boot_id)
{
	/* unknown on either side: restoring is the safe choice */
	return !e->boot_id || !boot_id || streq(e->boot_id, boot_id);
}

static bool restorable(const struct jentry *e, const char *boot_id)
{
	return e->a.persistent || same_boot(e, boot_id);
}

static bool same_target(const struct jentry *a, const struct jentry *b)
{
	return a->a.kind == b->a.kind && streq(a->a.target, b->a.target);
}

/*
 * Several entries may name one target (a second profile changed it again).
 * The earliest restorable one holds the value from before ubtune: it is the
 * one acted on. When none is restorable (all were set before a reboot), the
 * earliest is reported.
 */
static bool chosen(const struct jlog *l, size_t i, const char *boot_id)
{
	size_t first = SIZE_MAX, first_restorable = SIZE_MAX;
	for (size_t k = 0; k < l->n; k++) {
		if (!same_target(&l->e[k], &l->e[i]))
			continue;
		if (first == SIZE_MAX)
			first = k;
		if (first_restorable == SIZE_MAX && restorable(&l->e[k], boot_id))
			first_restorable = k;
	}
	return i == (first_restorable != SIZE_MAX ? first_restorable : first);
}

static void restore(struct tune_env *env, const struct jentry *e, struct revert_item *it)
{
	const struct action *a = &e->a;
	if (!restorable(e, env->boot_id)) {
		it->outcome = REVERT_LOST;
		return;
	}
	if (!it->now) {
		it->outcome = REVERT_FAILED;
		const char *said = env->svc ? svc_last_error(env->svc) : env->svc_why;
		it->detail = xstrdup(a->kind == ACT_SERVICE || a->kind == ACT_DEFAULT_TARGET
					     ? (said ? said : "the service manager cannot be reached")
					     : "its current value cannot be read");
		return;
	}
	if (knob_same(a->kind, it->now, a->from)) {
		it->outcome = REVERT_ALREADY;
		return;
	}
	int r = knob_set(env->rf, env->svc, a->kind, a->target, a->from, a->options, a->choice);
	if (r == -ENOTEMPTY || r == -EEXIST) {
		it->outcome = REVERT_KEPT;
		it->detail = xstrdup("not empty: it holds files that ubtune did not make");
	} else if (r < 0) {
		it->outcome = REVERT_FAILED;
		it->detail = knob_error(env->svc, a->kind, r);
	} else {
		it->outcome = REVERT_RESTORED;
	}
}

/* Removes applied.json, and the state directory when apply made it. */
static int remove_state(struct tune_env *env, int dfd, struct revert_result *res, char **error)
{
	res->had_applied |= applied_remove_at(dfd);
	int r = tune_state_remove(env);
	if (r < 0)
		*error = xasprintf("cannot remove %s: %s", env->state_dir, strerror(-r));
	return r;
}

int tune_revert(struct tune_env *env, struct revert_result *res, char **error)
{
	*res = (struct revert_result){0};
	struct journal *j = NULL;
	int locked = tune_state_lock(env, true);
	if (locked < 0) {
		*error = xasprintf("cannot open the journal in %s: %s", env->state_dir,
				   locked == -EBUSY ? "another ubtune apply or revert is running" : strerror(-locked));
		return locked;
	}
	_cleanup_close_ int dfd = tune_state_open(env, false);
	if (dfd == -ENOENT) {
		/* nothing was applied; what a kill left while the state directory
		 * came or went is removed */
		int r = tune_state_remove(env);
		if (r < 0)
			*error = xasprintf("cannot remove %s: %s", env->state_dir, strerror(-r));
		return r;
	}
	_cleanup_free_ char *damage = NULL;
	_cleanup_json_ json_object *applied = NULL;
	int r = dfd < 0 ? dfd : applied_load_at(dfd, &applied, &damage);
	if (r < 0 && r != -ENOENT) {
		*error = xasprintf("%s/" APPLIED_FILE ": %s; nothing was changed", env->state_dir, damage);
		return r;
	}
	r = dfd < 0 ? dfd : journal_open(dfd, env->state_dir, JOURNAL_WRITE, &j, &damage);
	if (r == -ENOENT) {
		/* only settings were recorded (or nothing was applied), unless
		 * applied.json says that apply journaled changes */
		_cleanup_free_ char *path = xasprintf("%s/" JOURNAL_FILE, env->state_dir);
		if ((r = journal_check_applied(NULL, applied, path, error)) < 0)
			return r;
		return remove_state(env, dfd, res, error);
	}
	if (r < 0) {
		_cleanup_free_ char *why = tune_state_why(env, r);
		*error = r == -EBADMSG ? xasprintf("%s/" JOURNAL_FILE ": %s; nothing was changed or cleared", env->state_dir, damage)
				       : xasprintf("cannot open the journal in %s: %s", env->state_dir,
						   r == -EBUSY ? "another ubtune apply or revert is running" : why);
		return r;
	}
	res->had_journal = true;
	struct jlog l;
	if ((r = journal_read(j, &l, &damage)) < 0) {
		*error = r == -EBADMSG ? xasprintf("%s: %s; nothing was changed or cleared", journal_path(j), damage)
				       : xasprintf("cannot read %s: %s", journal_path(j), strerror(-r));
		journal_close(j);
		return r;
	}
	if ((r = journal_check_applied(j, applied, journal_path(j), error)) < 0) {
		jlog_free(&l);
		journal_close(j);
		return r;
	}
	for (size_t i = 0; i < l.profiles.n; i++)
		if (!strv_contains(&res->profiles, l.profiles.v[i]))
			strv_push(&res->profiles, l.profiles.v[i]);

	bool *pick = xcalloc(l.n + 1, sizeof(*pick));
	for (size_t i = 0; i < l.n; i++)
		pick[i] = chosen(&l, i, env->boot_id);
	res->items = xcalloc(l.n + 1, sizeof(*res->items));
	for (size_t i = l.n; i-- > 0;) {
		/* what a kill inside a write left beside the file */
		if (l.e[i].a.kind == ACT_FILE)
			knob_clean(env->rf, l.e[i].a.target);
		if (!pick[i])
			continue;
		struct revert_item *it = &res->items[res->n++];
		if (knob_get(env->rf, env->svc, l.e[i].a.kind, l.e[i].a.target, l.e[i].a.choice, &it->now) < 0)
			it->now = NULL;
		restore(env, &l.e[i], it);
		it->a = l.e[i].a;
		l.e[i].a = (struct action){0};
		if (it->outcome == REVERT_FAILED)
			res->failed++;
	}
	free(pick);
	jlog_free(&l);

	if (!res->failed) {
		/* applied.json first: a journal alone is an interrupted apply,
		 * which a revert killed here finishes */
		res->had_applied = applied_remove_at(dfd);
		if ((r = journal_remove(j)) < 0)
			*error = xasprintf("cannot remove %s: %s", journal_path(j), strerror(-r));
		else
			r = remove_state(env, dfd, res, error);
	}
	journal_close(j);
	return r < 0 ? r : 0;
}

void revert_result_free(struct revert_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		action_free(&res->items[i].a);
		free(res->items[i].now);
		free(res->items[i].detail);
	}
	free(res->items);
	strv_free(&res->profiles);
	*res = (struct revert_result){0};
}
