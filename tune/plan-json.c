/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Actions and knobs as JSON (journal entries, applied.json) and back. */
#include "plan.h"

#include <errno.h>

#include "lib/schema.h"

static const char *const kind_names[] = {
	[ACT_FILE] = "file", [ACT_SERVICE] = "service", [ACT_DEFAULT_TARGET] = "default-target",
	[ACT_MKDIR] = "mkdir", [ACT_MOUNT] = "mount",
};

const char *action_kind_name(enum action_kind k)
{
	return kind_names[k];
}

int action_kind_parse(const char *s, enum action_kind *out)
{
	for (size_t i = 0; s && i < ARRAY_SIZE(kind_names); i++)
		if (streq(kind_names[i], s))
			return *out = (enum action_kind)i, 0;
	return -EBADMSG;
}

/* The members actions and knobs share: kind, what, target, choice. */
static json_object *target_to_json(enum action_kind kind, const char *what, const char *target, bool choice)
{
	json_object *o = json_object_new_object();
	jset_str(o, "kind", action_kind_name(kind));
	jset_str(o, "what", what);
	jset_str(o, "target", target);
	jset_bool(o, "choice", choice);
	return o;
}

/* What a journal entry or an applied.json knob says, borrowed from its JSON. */
struct entry {
	const char *kind, *what, *target, *value, *area, *from, *to, *why, *options;
	struct opt_bool choice, persistent, best_effort;
};

#define T struct entry
#define TARGET_FIELDS FIELD_STR(T, kind, REQUIRED), FIELD_STR(T, what, OPTIONAL), FIELD_STR(T, target, REQUIRED), \
		FIELD_BOOL(T, choice, OPTIONAL)
static const struct schema action_schema = SCHEMA(T, TARGET_FIELDS, FIELD_STR(T, area, OPTIONAL),
						  FIELD_STR(T, from, REQUIRED), FIELD_STR(T, to, REQUIRED),
						  FIELD_STR(T, why, OPTIONAL), FIELD_STR(T, options, OPTIONAL),
						  FIELD_BOOL(T, persistent, OPTIONAL),
						  FIELD_BOOL(T, best_effort, OPTIONAL));
static const struct schema knob_schema = SCHEMA(T, TARGET_FIELDS, FIELD_STR(T, value, REQUIRED));
#undef TARGET_FIELDS
#undef T

static int entry_decode(const struct schema *s, json_object *o, struct entry *e, enum action_kind *kind)
{
	_cleanup_free_ char *error = NULL;
	if (!o || schema_decode(s, o, "", e, &error) < 0 || action_kind_parse(e->kind, kind) < 0)
		return -EBADMSG;
	return 0;
}

static void target_from_entry(const struct entry *e, char **what, char **target, bool *choice)
{
	*target = xstrdup(e->target);
	*what = xstrdup(e->what ?: e->target);
	*choice = is_true(e->choice);
}

json_object *action_to_json(const struct action *a)
{
	json_object *o = target_to_json(a->kind, a->what, a->target, a->choice);
	jset_str(o, "area", a->area);
	jset_str(o, "from", a->from);
	jset_str(o, "to", a->to);
	jset_str(o, "why", a->why);
	if (a->options)
		jset_str(o, "options", a->options);
	jset_bool(o, "persistent", a->persistent);
	if (a->best_effort)
		jset_bool(o, "best_effort", true);
	return o;
}

int action_from_json(json_object *o, struct action *a)
{
	*a = (struct action){0};
	struct entry e;
	if (entry_decode(&action_schema, o, &e, &a->kind) < 0)
		return -EBADMSG;
	target_from_entry(&e, &a->what, &a->target, &a->choice);
	a->area = xstrdup_or_null(e.area);
	a->from = xstrdup(e.from);
	a->to = xstrdup(e.to);
	a->why = xstrdup_or_null(e.why);
	a->options = xstrdup_or_null(e.options);
	a->persistent = is_true(e.persistent);
	a->best_effort = is_true(e.best_effort);
	return 0;
}

json_object *plan_to_json(const struct profile *p, const struct plan *plan)
{
	json_object *o = json_object_new_object(), *actions = json_object_new_array();
	jset_str(o, "schema", "ubtune.apply/1");
	jset_str(o, "profile", p->name);
	jset_str(o, "path", p->path);
	jset(o, "chain", jarr_from_strv(&p->chain));
	jset(o, "notes", jarr_from_strv(&p->notes));
	for (size_t i = 0; i < plan->n_actions; i++)
		json_object_array_add(actions, action_to_json(&plan->actions[i]));
	jset(o, "actions", actions);
	jset(o, "unchanged", jarr_from_strv(&plan->unchanged));
	jset(o, "skipped", jarr_from_strv(&plan->skipped));
	jset(o, "errors", jarr_from_strv(&plan->errors));
	return o;
}

json_object *knob_to_json(const struct knob *k)
{
	json_object *o = target_to_json(k->kind, k->what, k->target, k->choice);
	jset_str(o, "value", k->value);
	return o;
}

int knob_from_json(json_object *o, struct knob *k)
{
	*k = (struct knob){0};
	struct entry e;
	if (entry_decode(&knob_schema, o, &e, &k->kind) < 0)
		return -EBADMSG;
	target_from_entry(&e, &k->what, &k->target, &k->choice);
	k->value = xstrdup(e.value);
	return 0;
}
