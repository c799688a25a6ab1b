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
};

/* ids are never reused (AUTOINCREMENT), so "result 12" keeps meaning one run */
static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS results ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" run_id TEXT UNIQUE NOT NULL,"
	" started_at TEXT NOT NULL,"
	" summary TEXT NOT NULL,"
	" record TEXT NOT NULL);";

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

/* The schema's version, set once: a PRAGMA that sets it writes the file
 * each time, and a command that only reads the store changes nothing. */
static int mark_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	int version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (version < 0)
		return rc == SQLITE_DONE ? SQLITE_CORRUPT : rc;
	return version == 1 ? SQLITE_OK : sqlite3_exec(db, "PRAGMA user_version = 1", NULL, NULL, NULL);
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
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(db, 10000);
		rc = sqlite3_exec(db, schema_sql, NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK)
		rc = mark_version(db);
	if (rc != SQLITE_OK) {
		sqlite3_close(db);
		return sql_errno(rc);
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->db = db;
	return 0;
}

void store_close(struct store *s)
{
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

int store_add(struct store *s, json_object *result, int64_t *id)
{
	_cleanup_free_ char *why = NULL;
	if (result_check(result, &why) < 0)
		return -EBADMSG;
	/* the summary names the run, as the listing does */
	_cleanup_json_ json_object *summary = result_summary(result);
	const char *run_id = jpath_str(summary, "run_id");
	if (lookup_run(s, run_id, id) == 0)
		return -EEXIST;
	sqlite3_stmt *st;
	int r = prepare(s, "INSERT INTO results (run_id, started_at, summary, record) VALUES (?, ?, ?, ?)", &st);
	if (r < 0)
		return r;
	sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, jpath_str(summary, "started_at"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, jdump(summary, false), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, jdump(result, false), -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	/* another import of the run went in since the look-up above: its id */
	if (rc == SQLITE_CONSTRAINT && lookup_run(s, run_id, id) == 0)
		return -EEXIST;
	if (rc != SQLITE_DONE)
		return sql_errno(rc);
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
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

/* A summary of another version, made afresh from its record and kept
 * (a store that cannot be written is listed all the same); NULL when the
 * record cannot be read. */
static json_object *summary_again(struct store *s, int64_t id)
{
	_cleanup_json_ json_object *rec = NULL;
	if (store_get(s, id, &rec) < 0)
		return NULL;
	json_object *summary = result_summary(rec);
	sqlite3_stmt *st;
	if (prepare(s, "UPDATE results SET summary = ? WHERE id = ?", &st) == 0) {
		sqlite3_bind_text(st, 1, jdump(summary, false), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, id);
		(void)sqlite3_step(st);
		sqlite3_finalize(st);
	}
	return summary;
}

int store_list(struct store *s, json_object **out)
{
	sqlite3_stmt *st;
	int r = prepare(s, "SELECT id, summary FROM results ORDER BY id", &st);
	if (r < 0)
		return r;
	json_object *list = json_object_new_array();
	_cleanup_json_ json_object *stale = json_object_new_array();
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_object *summary = NULL;
		if (!text || jload_string(text, &summary) < 0 || !json_object_is_type(summary, json_type_object)) {
			json_object_put(summary);
			summary = json_object_new_object();
		}
		json_object *row = json_object_new_object();
		jset_int(row, "id", sqlite3_column_int64(st, 0));
		result_summary_copy(row, summary);
		if (!result_summary_current(summary))
			json_object_array_add(stale, json_object_get(row));
		json_object_put(summary);
		json_object_array_add(list, row);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_object_put(list);
		return sql_errno(rc);
	}
	/* summaries of an older version: afresh, once the listing's statement is done */
	for (size_t i = 0; i < jarr_len(stale); i++) {
		json_object *row = json_object_array_get_idx(stale, i);
		int64_t id;
		_cleanup_json_ json_object *summary = jpath_int(row, "id", &id) ? summary_again(s, id) : NULL;
		if (summary)
			result_summary_copy(row, summary);
	}
	*out = list;
	return 0;
}

#endif
