/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/json.h"
#include "lib/rootfs.h"
#include "tune/journal.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "tune/services.h"

/*
 * apply, revert and status. They return results; the commands in cli/
 * print them.
 */

/* What `ubtune bench` reads: the applied profiles and the settings they
 * recorded (build flags, bench settings, workdir); see applied_merge(). */
#define APPLIED_FILE "applied.json"

struct tune_env {
	struct rootfs *rf;
	char *state_dir; /* journal and applied.json */
	char *boot_id;   /* NULL when unknown */
	struct svc *svc; /* NULL when services cannot be handled */
	char *svc_why;
	int lock_fd; /* > 0: the dump's root, locked (tune_state_lock()) */
};

/*
 * The state directory: DIR/var/lib/ubtune under --root DIR; else
 * $UBTUNE_STATE_DIR; else /var/lib/ubtune as root; else, for an ordinary
 * user, /var/lib/ubtune when root has applied a profile there, and
 * state_dir() otherwise.
 */
char *tune_state_dir(const char *root);

/*
 * The state directory opened O_RDONLY (journal_open(), the *_at() calls
 * below); create makes it first. Inside a dump it is made without a step
 * outside DIR, and the directories made are listed in it, so that
 * tune_state_remove() takes them away again.
 */
int tune_state_open(struct tune_env *env, bool create);
/* Why tune_state_open() or a file in it failed with r, for a message:
 * "/var/lib/ubtune is a regular file, not a directory" rather than "Not a
 * directory" (caller frees). */
char *tune_state_why(const struct tune_env *env, int r);
/* Once neither a journal nor applied.json is left: removes the state
 * directories apply made in a dump, and what a kill left of their making
 * or removal. */
int tune_state_remove(struct tune_env *env);
/* Keeps apply, revert and status apart (-EBUSY: another one holds it;
 * exclusive for those that change the state): inside a dump the state
 * directory comes and goes with them, so the lock is on the dump's root,
 * held until tune_env_close(); on this machine the journal's own lock on
 * the state directory, which stays, is the one. */
int tune_state_lock(struct tune_env *env, bool exclusive);

/* Opens the root and the service manager (with_services). */
int tune_env_open(const char *root, bool with_services, struct tune_env *env, char **error);
void tune_env_close(struct tune_env *env);

/* ---- apply ---- */
struct apply_result {
	size_t applied;       /* actions carried out */
	char *failure;        /* the action that failed and why; NULL on success */
	size_t rolled_back;   /* after a failure: changes of this run undone */
	struct strv problems; /* rollback steps that failed (the journal keeps them) */
	struct strv refused;  /* best-effort changes the kernel refused: what and why */
	struct strv refused_targets;
	struct strv not_done; /* journaled, not carried out in a dump: what and why */
	bool journal_kept;    /* a failure after changes that stay: revert undoes them */
};

/* Carries out a plan: journal entry first, then the change, for each
 * action; then records applied.json. A failing action rolls back what this
 * run changed. Changes that a dump does not get (knob_carried_out()) are
 * journaled and listed in not_done. Fault injection for tests:
 * UBTUNE_FAULT_AT=N kills the process with SIGKILL at the Nth step (each
 * action has two: after its journal entry, after its change). */
int tune_apply(struct tune_env *env, const struct profile *p, const struct plan *plan, struct apply_result *res);
void apply_result_free(struct apply_result *res);

/* applied.json after applying p on top of old (NULL when nothing is
 * applied); knobs on the targets in refused are not recorded. */
json_object *applied_merge(json_object *old, const struct profile *p, const struct plan *plan,
			   const struct strv *refused, const char *boot_id);
int applied_load(const char *dir, json_object **out);
/* The same in the state directory opened by tune_state_open(), checked:
 * -EBADMSG (*error says why) when it is not JSON or a member that status,
 * apply and revert read is of another type; saved through a temporary
 * renamed over it. */
int applied_load_at(int dfd, json_object **out, char **error);
int applied_save_at(int dfd, json_object *o);
/* True when there was one to remove. */
bool applied_remove_at(int dfd);

/* ---- revert ---- */
enum revert_outcome {
	REVERT_RESTORED, /* the old value was written back */
	REVERT_ALREADY,  /* the old value was already there */
	REVERT_LOST,     /* set before a reboot, which reset it: reported only */
	REVERT_KEPT,     /* left in place on purpose (a directory that is not empty) */
	REVERT_FAILED,
};

struct revert_item {
	struct action a;
	enum revert_outcome outcome;
	char *now;    /* the value found */
	char *detail; /* why it failed or was kept */
};

struct revert_result {
	struct revert_item *items;
	size_t n;
	size_t failed;
	bool had_journal;
	bool had_applied; /* applied.json was there (and is removed) */
	struct strv profiles;
};

/* Replays the journal backwards, then removes it and applied.json. A
 * journal whose changes could not all be restored is kept. */
int tune_revert(struct tune_env *env, struct revert_result *res, char **error);
void revert_result_free(struct revert_result *res);

/* ---- status ---- */
/*
 * {"applied": bool, "profiles": [...], "rebooted": bool, "interrupted": bool,
 *  "state_dir", "journal_readable": bool (false for a user looking at root's),
 *  "knobs": [{"what","kind","target","wanted","now","state": "ok|drifted|lost|unknown"}],
 *  "drifted": N, "build": {...}, "bench": {...}, "workdir": {...}}
 */
int tune_status(struct tune_env *env, json_object **out, char **error);
