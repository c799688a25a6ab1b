/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/rootfs.h"
#include "tune/knob.h"
#include "tune/profile.h"

struct svc;

/*
 * One change to the machine. `from` is the value before (what revert puts
 * back), `to` the value the profile wants. Paths are inside the root.
 */
struct action {
	enum action_kind kind;
	char *area;   /* "cpu", "io", "services", ... */
	char *what;   /* "policy0 (CPUs 0-3) governor" */
	char *target; /* path inside the root, or unit name */
	char *from, *to;
	char *why;     /* the profile key and, where it helps, the reason */
	char *options; /* ACT_MOUNT: "size=512M" */
	bool choice;   /* ACT_FILE: a "a [b] c" choice list such as queue/scheduler */
	bool persistent;
	/* the kernel may refuse it (IRQs it manages itself): a refusal is
	 * reported and apply goes on */
	bool best_effort;
};

/* A knob the profile wants, changed or not: `status` checks them all. */
struct knob {
	enum action_kind kind;
	char *what, *target, *value;
	bool choice;
};

struct plan {
	struct action *actions;
	size_t n_actions;
	struct knob *knobs;
	size_t n_knobs;
	struct strv unchanged; /* "policy0 governor: performance" */
	struct strv skipped;   /* "cpu boost: no boost control on this machine" */
	struct strv errors;    /* a plan with errors is not applied */
	json_object *record;   /* build, bench and workdir settings for applied.json */
};

struct plan_opts {
	bool persistent;
	struct svc *svc; /* NULL: services cannot be handled (svc_why says why) */
	const char *svc_why;
};

/* Plans every action of a profile on the machine described by rec and
 * read through rf. Never changes anything. */
void plan_build(const struct profile *p, json_object *rec, struct rootfs *rf, const struct plan_opts *o,
		struct plan *plan);
void plan_free(struct plan *plan);
/* The plan as a table: what, from, to, why; then unchanged and skipped. */
void plan_print(const struct profile *p, const struct plan *plan, FILE *f);

void action_free(struct action *a);
void knob_free(struct knob *k);
const char *action_kind_name(enum action_kind k);
int action_kind_parse(const char *s, enum action_kind *out);
/* JSON form (journal entries, applied.json) and back. */
json_object *action_to_json(const struct action *a);
int action_from_json(json_object *o, struct action *a);
json_object *knob_to_json(const struct knob *k);
int knob_from_json(json_object *o, struct knob *k);
/* The plan as `apply --json` prints it (docs/tune-state.md, schema
 * ubtune.apply/1): the profile, its actions, what is unchanged, skipped
 * or cannot be applied. */
json_object *plan_to_json(const struct profile *p, const struct plan *plan);
