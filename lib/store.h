/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "lib/json.h"
#include "lib/result-record.h"
#include "lib/result-summary.h"

/*
 * The results store: every result record (schema ubtune.result/1) under
 * an integer id, in state_dir()/results.db (SQLite, lib/store-sqlite.c) or,
 * built without SQLite, as one JSON file per result in
 * state_dir()/results/ (lib/store-json.c). The record is the truth; a
 * small summary (host, suite, copies, scores, flags) lists it.
 */

struct store;

/* Opens (creating the directory and database when missing) the store in
 * dir: -ENOTDIR when dir cannot be a directory, -EINVAL when the store's
 * path is another kind of file than store_kind, -EBADMSG when it is not a
 * store. */
int store_open(const char *dir, struct store **out);
/* For what only reads the store: the store in dir when it exists, else an
 * empty one that lives in memory; nothing is created (no directory, no
 * file). Errors as store_open()'s. */
int store_open_read(const char *dir, struct store **out);
/* An empty store in memory (store_open_read()'s when there is none):
 * listings are empty, a result is not found, an add gives -EROFS. */
int store_open_empty(struct store **out);
/* What store_path() is in this build, for messages: "an SQLite database"
 * (a regular file), or "a directory of result files". */
extern const char store_kind[];
void store_close(struct store *s);
static inline void store_closep(struct store **s) { if (*s) store_close(*s); }
#define _cleanup_store_ __attribute__((cleanup(store_closep)))
/* The database file (or results directory) of a store directory (caller frees). */
char *store_path(const char *dir);

/* Adds a checked record; *id gets its id. -EEXIST (and the stored id)
 * when a record with the same run id is already there. */
int store_add(struct store *s, json_object *result, int64_t *id);
/* The same, with its digest (store_get_digest(); NULL: none). */
int store_add_with_digest(struct store *s, json_object *result, const char *digest, int64_t *id);
/* The record with this id (caller puts it); -ENOENT when there is none. */
int store_get(struct store *s, int64_t id, json_object **out);
/* Summaries of every result, oldest first: an array of
 * {"id", "run_id", "started_at", "host", "machine_id", "round", "suite",
 *  "copies": [..], "scores": [..], "flags": [..]}. */
int store_list(struct store *s, json_object **out);
/* The same one at a time (summary borrowed for the call), so that a
 * reader of a large store holds no more than it keeps; a negative return
 * of fn stops the walk and is returned. */
typedef int (*store_each_fn)(int64_t id, json_object *summary, void *arg);
int store_each(struct store *s, store_each_fn fn, void *arg);

/*
 * A digest of a record kept beside it: what `fleet` and `export` read of a
 * result (analysis/fleet.h), made when it is stored or when first needed,
 * so that they never hold every record. Text the caller frees; -ENOENT
 * when the result has none (made before digests were kept). Setting one
 * on a store that cannot take it (an old store that is read-only) gives
 * -EROFS.
 */
int store_get_digest(struct store *s, int64_t id, char **text);
int store_set_digest(struct store *s, int64_t id, const char *text);

/* Adds between these are one transaction (SQLite syncs once for all of
 * them, where each add alone syncs): for an import of a whole fleet. */
int store_begin(struct store *s);
int store_commit(struct store *s);
/* "12", "last", "last~1" (the one before the last) to an id. -EINVAL for
 * another form, -ENOENT when no such result exists. */
int store_resolve(struct store *s, const char *ref, int64_t *id);

/*
 * Reads a result JSON file (as `ubtune export` or `bench --json` write
 * it) and checks it (result_check()). On failure *error is a one-line
 * message naming the file.
 */
int result_load_file(const char *path, json_object **out, char **error);
/* The same, and adds the record to the store. */
int store_import_json(struct store *s, const char *path, int64_t *id, char **error);

/* Opens the store in state_dir() (create: else store_open_read()'s);
 * *error says why not. */
int store_open_state(struct store **out, bool create, char **error);
/* The id and record of a reference ("12", "last", "last~1"); *error names
 * the reference when there is no such result. */
int store_lookup(struct store *s, const char *ref, int64_t *id, json_object **rec, char **error);
