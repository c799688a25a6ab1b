/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "tune/plan.h"

/*
 * The write-ahead journal of every change apply makes: one JSON object a
 * line, appended and fsync'd BEFORE the change it describes, so that after
 * a crash, a kill -9 or a reboot, revert knows every value that may have
 * changed and what it was before.
 *
 *   {"op":"run","run":1,"boot_id":"...","profile":"ft2000","time":"..."}
 *   {"op":"set","id":3,"run":1,"kind":"file","target":"/sys/...","from":"ondemand","to":"performance",...}
 *   {"op":"done","id":3}
 *
 * "done" follows a change that completed; a "set" without it was
 * interrupted, and the change may or may not have happened.
 */
#define JOURNAL_FILE "journal"

struct journal;

struct jentry {
	uint64_t id, run;
	char *boot_id; /* of its run; NULL when unknown */
	char *profile; /* of its run */
	struct action a;
	bool done;
};

struct jlog {
	struct jentry *e;
	size_t n;
	struct strv profiles; /* of the runs, in order */
};

enum journal_mode {
	JOURNAL_READ,   /* status: read only, shared lock */
	JOURNAL_WRITE,  /* revert: an existing journal */
	JOURNAL_CREATE, /* apply: dir and journal created when missing */
};

/* Opens and locks the journal in the directory dir_fd (opened O_RDONLY;
 * dir names it in messages); -EBUSY when an apply or revert holds it,
 * -ENOENT when there is none (except with JOURNAL_CREATE). Writing, a
 * journal that cannot be read whole is refused (-EBADMSG, *error says
 * where), and a torn last line (a write cut short by a crash, so its
 * change never started) is cut off; reading, it is ignored. */
int journal_open(int dir_fd, const char *dir, enum journal_mode mode, struct journal **out, char **error);
void journal_close(struct journal *j);
const char *journal_path(const struct journal *j);

/* Every entry; -EBADMSG when the journal cannot be read whole: a NUL
 * byte, or a line other than the last that is not an entry (*error says
 * its line and byte). */
int journal_read(struct journal *j, struct jlog *out, char **error);
/* The "set" entries in it now (applied.json keeps their number: a journal
 * holding fewer was cut short). */
size_t journal_sets(const struct journal *j);
/* Whether opening it made the file (JOURNAL_CREATE). */
bool journal_created(const struct journal *j);
/* Whether the journal (opened for writing; NULL: there is none, path
 * names it) holds every change applied.json (NULL: none) says apply
 * journaled: -EBADMSG and *error when it was cut short, emptied or
 * removed, whose clearing would leave changes without their old values. */
int journal_check_applied(const struct journal *j, json_object *applied, const char *path, char **error);
void jlog_free(struct jlog *l);

/* Starts a run: later entries belong to it and can be undone together. */
int journal_begin(struct journal *j, const char *boot_id, const char *profile);
/* Appends the action before it is carried out; *id names it for done. */
int journal_add(struct journal *j, const struct action *a, uint64_t *id);
int journal_done(struct journal *j, uint64_t id);
/* Forgets the current run (its changes were rolled back). */
int journal_drop_run(struct journal *j);
/* Removes the journal (everything was reverted). */
int journal_remove(struct journal *j);

/* The kernel's id of this boot, read through the root; NULL if unknown. */
char *journal_boot_id(struct rootfs *rf);
