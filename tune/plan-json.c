/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Actions and knobs as JSON (journal entries, applied.json) and back. */
#include "plan.h"

#include <errno.h>

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

static int target_from_json(json_object *o, enum action_kind *kind, char **what, char **target, bool *choice)
{
	if (action_kind_parse(jpath_str(o, "kind"), kind) < 0 || !jpath_str(o, "target"))
		return -EBADMSG;
	*target = xstrdup(jpath_str(o, "target"));
	*what = xstrdup(jpath_str(o, "what") ?: *target);
	jpath_bool(o, "choice", choice);
	return 0;
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
	if (!jpath_str(o, "from") || !jpath_str(o, "to") ||
	    target_from_json(o, &a->kind, &a->what, &a->target, &a->choice) < 0)
		return -EBADMSG;
	a->area = xstrdup_or_null(jpath_str(o, "area"));
	a->from = xstrdup_or_null(jpath_str(o, "from"));
	a->to = xstrdup_or_null(jpath_str(o, "to"));
	a->why = xstrdup_or_null(jpath_str(o, "why"));
	a->options = xstrdup_or_null(jpath_str(o, "options"));
	jpath_bool(o, "persistent", &a->persistent);
	jpath_bool(o, "best_effort", &a->best_effort);
	return 0;
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
	if (!jpath_str(o, "value") || target_from_json(o, &k->kind, &k->what, &k->target, &k->choice) < 0)
		return -EBADMSG;
	k->value = xstrdup_or_null(jpath_str(o, "value"));
	return 0;
}
