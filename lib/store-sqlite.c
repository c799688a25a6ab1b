/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results store in SQLite: one row per result, the record as JSON text. */
#include "store.h"

#include <errno.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/util.h"

/* Built without SQLite, lib/store-json.c keeps the results instead. */
#if HAVE_SQLITE
#include <sqlite3.h>

char *store_path(const char *dir)
{
	return xasprintf("%s/results.db", dir);
}

struct store {
	sqlite3 *db;
	bool digests; /* there is a table of digests (a read-only store of version 1 has none) */
	sqlite3_stmt *get_digest; /* prepared once: the fleet asks for thousands */
	bool empty;               /* store_open_empty()'s: in memory, takes no add */
};

/* ids are never reused (AUTOINCREMENT), so "result 12" keeps meaning one run */
static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS results ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" run_id TEXT UNIQUE NOT NULL,"
	" started_at TEXT NOT NULL,"
	" summary TEXT NOT NULL,"
	" record TEXT NOT NULL);";
/* What fleet and export read of a record (store_get_digest()): a table of
 * its own, since a column after the record's would be reached only through
 * the record's overflow pages. */
static const char digests_sql[] =
	"CREATE TABLE IF NOT EXISTS digests ("
	" id INTEGER PRIMARY KEY REFERENCES results(id),"
	" digest TEXT NOT NULL);";
/* The schema's version: 2 added the table of digests. */
#define SCHEMA_VERSION 2

static int sql_errno(int rc)
{
	switch (rc) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_CONSTRAINT:
		return -EEXIST;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

const char store_kind[] = "an SQLite database";

/* Whether the database has a table. */
static bool has_table(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	bool found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* The schema's version, set once: a PRAGMA that sets it writes the file
 * each time, and a command that only reads the store changes nothing. A
 * store of version 1 gains the table of digests; one that cannot be
 * written is read without it (the digests are made from the records then). */
static int mark_version(struct store *s)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	int version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (version < 0)
		return rc == SQLITE_DONE ? SQLITE_CORRUPT : rc;
	s->digests = has_table(s->db, "digests");
	if (version == SCHEMA_VERSION && s->digests)
		return SQLITE_OK;
	rc = s->digests ? SQLITE_OK : sqlite3_exec(s->db, digests_sql, NULL, NULL, NULL);
	if (rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN)
		return SQLITE_OK;
	if (rc == SQLITE_OK)
		s->digests = true;
	_cleanup_free_ char *sql = xasprintf("PRAGMA user_version = %d", SCHEMA_VERSION);
	return rc == SQLITE_OK ? sqlite3_exec(s->db, sql, NULL, NULL, NULL) : rc;
}

static int open_db(const char *path, struct store **out)
{
	struct store *s = xcalloc(1, sizeof(*s));
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 10000);
		rc = sqlite3_exec(s->db, schema_sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = mark_version(s);
	if (rc != SQLITE_OK) {
		sqlite3_close(s->db);
		free(s);
		return sql_errno(rc);
	}
	*out = s;
	return 0;
}

int store_open(const char *dir, struct store **out)
{
	int r = mkdir_p(dir, 1);
	if (r < 0)
		return r;
	_cleanup_free_ char *path = store_path(dir);
	/* SQLite would wait for ever on a FIFO, which it opens for writing
	 * and then reads */
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -EINVAL;
	return open_db(path, out);
}

int store_open_empty(struct store **out)
{
	int r = open_db(":memory:", out);
	if (r == 0)
		(*out)->empty = true;
	return r;
}

void store_close(struct store *s)
{
	sqlite3_finalize(s->get_digest);
	sqlite3_close(s->db);
	free(s);
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	return rc == SQLITE_OK ? 0 : sql_errno(rc);
}

static int lookup_run(struct store *s, const char *run_id, int64_t *id)
{
	sqlite3_stmt *st;
	int r = prepare(s, "SELECT id FROM results WHERE run_id = ?", &st);
	if (r < 0)
		return r;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : sql_errno(rc);
}

static int put_digest(struct store *s, int64_t id, const char *text)
{
	if (!s->digests)
		return 0;
	sqlite3_stmt *st;
	int r = prepare(s, "INSERT OR REPLACE INTO digests (id, digest) VALUES (?, ?)", &st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_errno(rc);
}

int store_add_with_digest(struct store *s, json_object *result, const char *digest, int64_t *id)
{
	_cleanup_free_ char *why = NULL;
	if (result_check(result, &why) < 0)
		return -EBADMSG;
	if (s->empty)
		return -EROFS;
	/* the summary names the run, as the listing does */
	_cleanup_json_ json_object *summary = result_summary(result);
	const char *run_id = jpath_str(summary, "run_id");
	if (lookup_run(s, run_id, id) == 0)
		return -EEXIST;
	sqlite3_stmt *st;
	int r;
	/* the record and its digest at once: one transaction, one sync */
	bool alone = sqlite3_get_autocommit(s->db);
	if (alone && (r = store_begin(s)) < 0)
		return r;
	r = prepare(s, "INSERT INTO results (run_id, started_at, summary, record) VALUES (?, ?, ?, ?)", &st);
	if (r == 0) {
		sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, jpath_str(summary, "started_at"), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, jdump(summary, false), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, jdump(result, false), -1, SQLITE_STATIC);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		r = rc == SQLITE_DONE ? 0 : sql_errno(rc);
		/* another import of the run went in since the look-up above: its id */
		if (rc == SQLITE_CONSTRAINT && lookup_run(s, run_id, id) == 0)
			return alone ? (sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL), -EEXIST) : -EEXIST;
	}
	if (r == 0) {
		*id = sqlite3_last_insert_rowid(s->db);
		if (digest)
			r = put_digest(s, *id, digest);
	}
	if (alone)
		r = r < 0 ? (sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL), r) : store_commit(s);
	return r;
}

int store_get(struct store *s, int64_t id, json_object **out)
{
	sqlite3_stmt *st;
	int r = prepare(s, "SELECT record FROM results WHERE id = ?", &st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		r = text ? jload_string(text, out) : -EBADMSG;
	} else {
		r = rc == SQLITE_DONE ? -ENOENT : sql_errno(rc);
	}
	sqlite3_finalize(st);
	return r;
}

/* A summary of another version, made afresh from its record and stored;
 * returned when it could not be stored (a store that cannot be written is
 * listed all the same), else NULL (also when the record cannot be read). */
static json_object *summary_again(struct store *s, int64_t id)
{
	_cleanup_json_ json_object *rec = NULL;
	if (store_get(s, id, &rec) < 0)
		return NULL;
	json_object *summary = result_summary(rec);
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;
	if (prepare(s, "UPDATE results SET summary = ? WHERE id = ?", &st) == 0) {
		sqlite3_bind_text(st, 1, jdump(summary, false), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc == SQLITE_DONE) {
		json_object_put(summary);
		return NULL;
	}
	return summary;
}

/* The ids whose summary is of another version (or not one), oldest first. */
static int stale_summaries(struct store *s, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	int r = prepare(s, "SELECT id FROM results WHERE CASE WHEN json_valid(summary) "
			   "THEN json_extract(summary, '$.summary_version') END IS NOT ? ORDER BY id", &st);
	if (r < 0)
		return r;
	sqlite3_bind_int(st, 1, RESULT_SUMMARY_VERSION);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_errno(rc);
}

int store_each(struct store *s, store_each_fn fn, void *arg)
{
	/* summaries of an older version: made afresh and stored before the
	 * walk, in one transaction (kept in memory for the walk when the store
	 * cannot be written) */
	_cleanup_free_ int64_t *stale = NULL;
	size_t nstale = 0, k = 0;
	int r = stale_summaries(s, &stale, &nstale);
	_cleanup_free_ json_object **fresh = xcalloc(nstale + 1, sizeof(*fresh));
	bool alone = nstale && sqlite3_get_autocommit(s->db) && store_begin(s) == 0;
	for (size_t i = 0; r >= 0 && i < nstale; i++)
		fresh[i] = summary_again(s, stale[i]);
	if (alone && store_commit(s) < 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_stmt *st = NULL;
	if (r >= 0)
		r = prepare(s, "SELECT id, summary FROM results ORDER BY id", &st);
	int rc = SQLITE_DONE;
	while (r >= 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_object *summary = NULL;
		if (!text || jload_string(text, &summary) < 0 || !json_object_is_type(summary, json_type_object)) {
			json_object_put(summary);
			summary = json_object_new_object();
		}
		int64_t id = sqlite3_column_int64(st, 0);
		for (; k < nstale && stale[k] < id; k++)
			;
		if (k < nstale && stale[k] == id && fresh[k]) {
			json_object_put(summary);
			summary = json_object_get(fresh[k]);
		}
		r = fn(id, summary, arg);
		json_object_put(summary);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < nstale; i++)
		json_object_put(fresh[i]);
	if (r < 0)
		return r;
	return rc == SQLITE_DONE ? 0 : sql_errno(rc);
}

int store_get_digest(struct store *s, int64_t id, char **text)
{
	if (!s->digests)
		return -ENOENT;
	if (!s->get_digest) {
		int r = prepare(s, "SELECT digest FROM digests WHERE id = ?", &s->get_digest);
		if (r < 0)
			return r;
	}
	sqlite3_stmt *st = s->get_digest;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st), r = -ENOENT;
	const char *t = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (t) {
		*text = xstrdup(t);
		r = 0;
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		r = sql_errno(rc);
	}
	sqlite3_reset(st);
	return r;
}

int store_set_digest(struct store *s, int64_t id, const char *text)
{
	if (!s->digests)
		return -EROFS;
	sqlite3_stmt *st;
	int r = prepare(s, "SELECT 1 FROM results WHERE id = ?", &st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? -ENOENT : sql_errno(rc);
	return put_digest(s, id, text);
}

int store_begin(struct store *s)
{
	int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : sql_errno(rc);
}

int store_commit(struct store *s)
{
	int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : sql_errno(rc);
}

#endif
