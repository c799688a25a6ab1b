/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "tune/knob.h"

int tune_env_open(const char *root, bool with_services, struct tune_env *env, char **error)
{
	*env = (struct tune_env){0};
	int r = rootfs_new(root, &env->rf);
	if (r < 0) {
		*error = xasprintf("root %s: %s", root, strerror(-r));
		return r;
	}
	_cleanup_free_ char *abs = rootfs_is_live(env->rf) ? NULL : xstrdup(rootfs_path(env->rf));
	env->state_dir = tune_state_dir(abs);
	env->boot_id = journal_boot_id(env->rf);
	if (with_services && svc_open(env->rf, &env->svc, &env->svc_why) < 0)
		env->svc = NULL;
	return 0;
}

void tune_env_close(struct tune_env *env)
{
	if (env->lock_fd > 0)
		close(env->lock_fd);
	svc_close(env->svc);
	if (env->rf)
		rootfs_free(env->rf);
	free(env->state_dir);
	free(env->boot_id);
	free(env->svc_why);
	*env = (struct tune_env){0};
}

/* ---- applied.json ---------------------------------------------------------- */

/* Copies each member of src over dst[key] (a later profile wins). */
static void merge_members(json_object *dst, json_object *src, const char *key, const char *const *members)
{
	json_object *d = jchild(dst, key), *s = NULL;
	json_object_object_get_ex(src, key, &s);
	for (size_t i = 0; members[i]; i++) {
		json_object *v = NULL;
		if (s && json_object_object_get_ex(s, members[i], &v)) {
			json_object *copy = NULL;
			json_object_deep_copy(v, &copy, NULL);
			jset(d, members[i], copy);
		} else if (!json_object_object_get_ex(d, members[i], NULL)) {
			jset_null(d, members[i]);
		}
	}
}

static bool same_knob(json_object *o, const struct knob *k)
{
	return streq_ptr(jpath_str(o, "kind"), action_kind_name(k->kind)) && streq_ptr(jpath_str(o, "target"), k->target);
}

json_object *applied_merge(json_object *old, const struct profile *p, const struct plan *plan,
			   const struct strv *refused, const char *boot_id)
{
	json_object *o = NULL;
	if (old)
		json_object_deep_copy(old, &o, NULL);
	else
		o = json_object_new_object();

	json_object *profiles = jpath(o, "profiles");
	if (!profiles || !json_object_is_type(profiles, json_type_array)) {
		profiles = json_object_new_array();
		jset(o, "profiles", profiles);
	}
	bool listed = false;
	for (size_t i = 0; i < json_object_array_length(profiles); i++)
		listed |= streq_ptr(json_object_get_string(json_object_array_get_idx(profiles, i)), p->name);
	if (!listed)
		jarr_add_str(profiles, p->name);

	merge_members(o, plan->record, "build", (const char *const[]){ "cc", "cflags", NULL });
	merge_members(o, plan->record, "bench", (const char *const[]){ "copies", "tests", "quick", "pin_single", "dma_latency_us", NULL });
	merge_members(o, plan->record, "workdir", (const char *const[]){ "path", "type", NULL });

	/* every knob a profile wants, for status; a later profile replaces one */
	json_object *old_knobs = jpath(o, "knobs");
	json_object *knobs = json_object_new_array();
	for (size_t i = 0; old_knobs && i < json_object_array_length(old_knobs); i++) {
		json_object *k = json_object_array_get_idx(old_knobs, i);
		bool replaced = false;
		for (size_t j = 0; j < plan->n_knobs && !replaced; j++)
			replaced = same_knob(k, &plan->knobs[j]);
		if (!replaced)
			json_object_array_add(knobs, json_object_get(k));
	}
	for (size_t j = 0; j < plan->n_knobs; j++)
		if (!refused || !strv_contains(refused, plan->knobs[j].target))
			json_object_array_add(knobs, knob_to_json(&plan->knobs[j]));
	jset(o, "knobs", knobs);

	jset_str(o, "boot_id", boot_id);
	_cleanup_free_ char *now = iso8601_utc(time(NULL));
	jset_str(o, "applied_at", now);
	return o;
}

/* ---- apply ------------------------------------------------------------------- */

/* UBTUNE_FAULT_AT=N: die like a crash at step N (tests of revert). */
static void fault_point(unsigned *step)
{
	const char *at = getenv("UBTUNE_FAULT_AT");
	uint64_t n;
	if (at && parse_u64(at, &n) == 0 && ++*step == n)
		kill(getpid(), SIGKILL);
}

/* Puts back the first n actions, newest first; one that did not change
 * anything (the failed one, usually) is left alone. */
static void rollback(struct tune_env *env, const struct plan *plan, size_t n, struct apply_result *res)
{
	for (size_t i = n; i-- > 0;) {
		const struct action *a = &plan->actions[i];
		_cleanup_free_ char *now = NULL;
		if (knob_get(env->rf, env->svc, a->kind, a->target, a->choice, &now) == 0 && knob_same(a->kind, now, a->from))
			continue;
		int r = knob_set(env->rf, env->svc, a->kind, a->target, a->from, a->options, a->choice);
		_cleanup_free_ char *why = r < 0 ? knob_error(env->svc, a->kind, r) : NULL;
		if (r < 0)
			strv_take(&res->problems, xasprintf("%s: cannot put back '%s': %s", a->what, a->from, why));
		else
			res->rolled_back++;
	}
}

static const char *not_in_dump(enum action_kind kind)
{
	return kind == ACT_MOUNT ? "with --root, apply changes files of the root only and mounts nothing"
				 : "with --root, the root's init scripts are never run";
}

static int run_actions(struct tune_env *env, struct journal *j, const struct profile *p, const struct plan *plan,
		       struct apply_result *res)
{
	unsigned step = 0;
	size_t touched = 0;
	int r = journal_begin(j, env->boot_id, p->name);
	if (r < 0) {
		res->failure = xasprintf("cannot write the journal %s: %s", journal_path(j), strerror(-r));
		return r;
	}
	for (size_t i = 0; i < plan->n_actions; i++) {
		const struct action *a = &plan->actions[i];
		uint64_t id;
		if ((r = journal_add(j, a, &id)) < 0) {
			res->failure = xasprintf("cannot write the journal %s: %s", journal_path(j), strerror(-r));
			break;
		}
		fault_point(&step);
		touched = i + 1;
		bool carry = knob_carried_out(env->rf, env->svc, a->kind);
		r = carry ? knob_set(env->rf, env->svc, a->kind, a->target, a->to, a->options, a->choice) : 0;
		_cleanup_free_ char *why = r < 0 ? knob_error(env->svc, a->kind, r) : NULL;
		if (!carry) {
			strv_take(&res->not_done, xasprintf("%s: %s -> %s journaled, not carried out: %s", a->what, a->from,
							    a->to, not_in_dump(a->kind)));
			strv_push(&res->refused_targets, a->target);
		} else if (r < 0 && a->best_effort) {
			strv_take(&res->refused, xasprintf("%s: %s '%s' (%s); left as it is", a->what,
							   a->kind == ACT_SERVICE ? "cannot set" : "the kernel refused",
							   a->to, why));
			strv_push(&res->refused_targets, a->target);
		} else if (r < 0) {
			res->failure = xasprintf("%s: cannot set '%s' (%s): %s", a->what, a->to, a->target, why);
			break;
		} else {
			res->applied++;
		}
		fault_point(&step);
		if ((r = journal_done(j, id)) < 0) {
			res->failure = xasprintf("cannot write the journal %s: %s", journal_path(j), strerror(-r));
			break;
		}
	}
	if (!res->failure)
		return 0;
	rollback(env, plan, touched, res);
	/* what could not be put back stays in the journal for revert */
	if (!res->problems.n)
		journal_drop_run(j);
	return r;
}

/* Ends a run: an empty journal goes, and the state directory with it
 * when nothing is left in it. */
static void finish(struct tune_env *env, int dfd, struct journal *j)
{
	struct stat st;
	if (fstatat(dfd, JOURNAL_FILE, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_size == 0)
		journal_remove(j);
	tune_state_remove(env);
	journal_close(j);
}

int tune_apply(struct tune_env *env, const struct profile *p, const struct plan *plan, struct apply_result *res)
{
	*res = (struct apply_result){0};
	struct journal *j = NULL;
	_cleanup_free_ char *damage = NULL;
	int r = tune_state_lock(env, true);
	_cleanup_close_ int dfd = r < 0 ? r : tune_state_open(env, true);
	r = dfd < 0 ? dfd : journal_open(dfd, env->state_dir, JOURNAL_CREATE, &j, &damage);
	if (r < 0) {
		_cleanup_free_ char *why = tune_state_why(env, r);
		res->failure = r == -EBADMSG ? xasprintf("%s/" JOURNAL_FILE ": %s; nothing was changed", env->state_dir, damage)
					     : xasprintf("cannot open the journal in %s: %s", env->state_dir,
							 r == -EBUSY ? "another ubtune apply or revert is running" : why);
		if (dfd >= 0 && r != -EBUSY && r != -EBADMSG)
			tune_state_remove(env);
		return r;
	}
	/* what is applied already, before anything changes: a damaged one is not written over */
	_cleanup_json_ json_object *old = NULL;
	_cleanup_free_ char *bad = NULL;
	r = applied_load_at(dfd, &old, &bad);
	if (r < 0 && r != -ENOENT) {
		res->failure = xasprintf("%s/" APPLIED_FILE ": %s; nothing was changed", env->state_dir, bad);
		journal_close(j);
		return r;
	}
	if ((r = journal_check_applied(j, old, journal_path(j), &bad)) < 0) {
		/* kept as found, an empty journal too: it is the evidence */
		res->failure = TAKE_PTR(bad);
		if (journal_created(j))
			journal_remove(j);
		journal_close(j);
		return r;
	}
	if (plan->n_actions && (r = run_actions(env, j, p, plan, res)) < 0) {
		finish(env, dfd, j);
		return r;
	}

	_cleanup_json_ json_object *now = applied_merge(old, p, plan, &res->refused_targets, env->boot_id);
	/* what revert finds in the journal is checked against this */
	jset_int(now, "journaled", (int64_t)journal_sets(j));
	if ((r = applied_save_at(dfd, now)) < 0) {
		res->failure = xasprintf("cannot write %s/" APPLIED_FILE ": %s (the changes are made and journaled)",
					 env->state_dir, strerror(-r));
		res->journal_kept = res->applied > 0;
	}
	finish(env, dfd, j);
	return r;
}

void apply_result_free(struct apply_result *res)
{
	free(res->failure);
	strv_free(&res->problems);
	strv_free(&res->refused);
	strv_free(&res->refused_targets);
	strv_free(&res->not_done);
	*res = (struct apply_result){0};
}
