/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results store under concurrent adds (either backend), and the files
 * of the JSON-file backend (a build without SQLite). */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lib/store.h"
#include "probetest.h"

/* the state directory of each test */
static char *state;

static int make_state(void **s)
{
	state = tmproot_new();
	return 0;
}

static int remove_state(void **s)
{
	tmproot_free(state);
	return 0;
}

static json_object *record(const char *run_id)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"%s\", \"host\": \"board\","
		" \"started_at\": \"2026-01-01T12:00:00+0100\", \"suite\": {\"name\": \"native\"},"
		" \"runs\": [{\"copies\": 4, \"index\": {\"score\": 512.5}, \"tests\": []}]}",
		run_id);
	return json_lit(text);
}

/* A store opened for reading where there is none: empty, and nothing is
 * created; an add is refused. */
static void read_missing(void **s)
{
	_cleanup_free_ char *dir = xasprintf("%s/not/there", state);
	struct store *st;
	assert_int_equal(store_open_read(dir, &st), 0);
	_cleanup_json_ json_object *list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	assert_int_equal(jarr_len(list), 0);
	int64_t id;
	json_object *rec = NULL;
	assert_int_equal(store_resolve(st, "last", &id), -ENOENT);
	assert_int_equal(store_get(st, 1, &rec), -ENOENT);
	rec = record("0123");
	assert_int_equal(store_add(st, rec, &id), -EROFS);
	json_object_put(rec);
	store_close(st);
	_cleanup_free_ char *parent = xasprintf("%s/not", state);
	assert_int_equal(access(parent, F_OK), -1);
	/* a store that is there is read as it is */
	assert_int_equal(store_open(state, &st), 0);
	rec = record("4567");
	assert_int_equal(store_add(st, rec, &id), 0);
	json_object_put(rec);
	store_close(st);
	assert_int_equal(store_open_read(state, &st), 0);
	assert_int_equal(store_resolve(st, "last", &id), 0);
	assert_int_equal(id, 1);
	store_close(st);
}

#define WRITERS 4
#define EACH 5

/* Processes adding at the same time get distinct ids, and every record
 * comes back whole. */
static void concurrent_adds(void **s)
{
	pid_t pids[WRITERS];
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] > 0)
			continue;
		struct store *st;
		if (store_open(state, &st) < 0)
			_exit(1);
		for (int i = 0; i < EACH; i++) {
			_cleanup_free_ char *run = xasprintf("%032x", w * 100 + i);
			json_object *rec = record(run);
			int64_t id;
			if (store_add(st, rec, &id) < 0)
				_exit(2);
			json_object_put(rec);
		}
		store_close(st);
		_exit(0);
	}
	for (int w = 0; w < WRITERS; w++) {
		int status;
		assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	struct store *st;
	assert_int_equal(store_open(state, &st), 0);
	_cleanup_json_ json_object *list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	assert_int_equal(jarr_len(list), WRITERS * EACH);
	struct strv runs = {0};
	for (size_t i = 0; i < jarr_len(list); i++) {
		json_object *e = json_object_array_get_idx(list, i);
		assert_int_equal(jint(e, "id"), (int64_t)i + 1);
		const char *run = jpath_str(e, "run_id");
		assert_non_null(run);
		assert_false(strv_contains(&runs, run));
		strv_push(&runs, run);
		_cleanup_json_ json_object *rec = NULL;
		assert_int_equal(store_get(st, (int64_t)i + 1, &rec), 0);
		assert_jstr(rec, "run_id", run);
	}
	strv_free(&runs);
	store_close(st);
}

#if !HAVE_SQLITE
static int count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *de; (de = readdir(d));)
		n += startswith(de->d_name, prefix) != NULL;
	closedir(d);
	return n;
}

/* One file per result, named by id and run, holding the record as export
 * writes it; a crash's temporary file is ignored and then cleared; a file
 * damaged by hand is listed by id, fails show, and does not block adds. */
static void json_files(void **s)
{
	struct store *st;
	assert_int_equal(store_open(state, &st), 0);
	_cleanup_free_ char *dir = store_path(state);
	_cleanup_json_ json_object *a = record("0123456789abcdef0123456789abcdef");
	_cleanup_json_ json_object *b = record("imported/log 1");
	int64_t id;
	assert_int_equal(store_add(st, a, &id), 0);
	assert_int_equal(id, 1);

	_cleanup_free_ char *file = xasprintf("%s/1-0123456789abcdef0123456789abcdef.json", dir);
	_cleanup_json_ json_object *onfile = NULL;
	assert_int_equal(jload_file(file, JSON_FILE_MAX, &onfile), 0);
	assert_string_equal(jdump(onfile, false), jdump(a, false));

	/* a crash between writing and linking */
	_cleanup_free_ char *stale = xasprintf("%s/.tmp-AbCdEf", dir);
	FILE *f = fopen(stale, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"ubtune.result/1\"", f);
	fclose(f);
	_cleanup_json_ json_object *list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	assert_int_equal(jarr_len(list), 1);

	/* a run id that is not plain hex is kept apart in hex */
	assert_int_equal(store_add(st, b, &id), 0);
	assert_int_equal(id, 2);
	_cleanup_free_ char *hexed = xasprintf("%s/2-x696d706f727465642f6c6f672031.json", dir);
	assert_int_equal(access(hexed, F_OK), 0);
	assert_int_equal(count_entries(dir, ".tmp-"), 0);
	assert_int_equal(store_add(st, b, &id), -EEXIST);
	assert_int_equal(id, 2);

	/* damaged by hand */
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("{\"schema\": ", f);
	fclose(f);
	json_object_put(list);
	list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	assert_int_equal(jarr_len(list), 2);
	json_object *e = json_object_array_get_idx(list, 0);
	assert_int_equal(jint(e, "id"), 1);
	assert_null(jpath(e, "run_id"));
	assert_jstr(json_object_array_get_idx(list, 1), "host", "board");
	_cleanup_json_ json_object *rec = NULL;
	assert_int_equal(store_get(st, 1, &rec), -EBADMSG);
	assert_int_equal(store_get(st, 3, &rec), -ENOENT);
	_cleanup_json_ json_object *c = record("fedcba9876543210fedcba9876543210");
	assert_int_equal(store_add(st, c, &id), 0);
	assert_int_equal(id, 3);
	/* files that are not results are left alone */
	_cleanup_free_ char *other = xasprintf("%s/notes.txt", dir);
	f = fopen(other, "w");
	fclose(f);
	assert_int_equal(store_resolve(st, "last", &id), 0);
	assert_int_equal(id, 3);
	store_close(st);
	assert_int_equal(count_entries(dir, ""), 7); /* ., .., three results, notes.txt, index */
}

static size_t count_lines(const char *path)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, n = 0;
	assert_int_equal(read_file(path, 1 << 20, &text, &len), 0);
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

static json_object *listing(struct store *st)
{
	json_object *list = NULL;
	assert_int_equal(store_list(st, &list), 0);
	return list;
}

/* Overwrites a file with bytes of the same length and puts its time back:
 * only a listing that reads the file itself notices. */
static void garble_keeping_stat(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	FILE *f = fopen(path, "r+");
	assert_non_null(f);
	fputs("garbage", f);
	fclose(f);
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* Listings come from the index, not from parsing every file: a file the
 * index covers is not read again; a missing or cut index is made whole
 * again from the files; lines of removed files are dropped. */
static void json_index(void **s)
{
	struct store *st;
	assert_int_equal(store_open(state, &st), 0);
	_cleanup_free_ char *dir = store_path(state);
	_cleanup_free_ char *index = xasprintf("%s/index", dir);
	for (int i = 0; i < 3; i++) {
		_cleanup_free_ char *run = xasprintf("%032x", i + 1);
		_cleanup_json_ json_object *rec = record(run);
		int64_t id;
		assert_int_equal(store_add(st, rec, &id), 0);
	}
	assert_int_equal(count_lines(index), 3);

	_cleanup_free_ char *second = xasprintf("%s/2-%032x.json", dir, 2);
	garble_keeping_stat(second);
	_cleanup_json_ json_object *list = listing(st);
	assert_int_equal(jarr_len(list), 3);
	assert_jstr(json_object_array_get_idx(list, 1), "host", "board");

	/* without the index every file is read (the garbled one by its id alone) */
	assert_int_equal(unlink(index), 0);
	json_object_put(list);
	list = listing(st);
	assert_int_equal(jarr_len(list), 3);
	assert_null(jpath(json_object_array_get_idx(list, 1), "host"));
	assert_jstr(json_object_array_get_idx(list, 2), "host", "board");
	assert_int_equal(count_lines(index), 3);

	/* a line cut by a crash: the next listing reads that file, and the
	 * next add starts a line of its own */
	assert_int_equal(truncate(index, 10), 0);
	json_object_put(list);
	list = listing(st);
	assert_int_equal(jarr_len(list), 3);
	assert_jstr(json_object_array_get_idx(list, 0), "host", "board");
	_cleanup_json_ json_object *d = record("0000000000000000000000000000000d");
	int64_t id;
	assert_int_equal(store_add(st, d, &id), 0);
	struct store *other;
	assert_int_equal(store_open(state, &other), 0);
	json_object_put(list);
	list = listing(other);
	assert_int_equal(jarr_len(list), 4);
	assert_jstr(json_object_array_get_idx(list, 3), "run_id", "0000000000000000000000000000000d");
	store_close(other);

	/* removed by hand: gone from the listing; many stale lines: rewritten */
	_cleanup_free_ char *first = xasprintf("%s/1-%032x.json", dir, 1);
	assert_int_equal(unlink(first), 0);
	FILE *f = fopen(index, "a");
	assert_non_null(f);
	for (int i = 0; i < 100; i++)
		fprintf(f, "{\"name\": \"1-%032x.json\", \"size\": 1, \"mtime_ns\": 1, \"summary\": {}}\n", 1);
	fclose(f);
	json_object_put(list);
	list = listing(st);
	assert_int_equal(jarr_len(list), 3);
	assert_int_equal(jint(json_object_array_get_idx(list, 0), "id"), 2);
	assert_int_equal(count_lines(index), 3);
	assert_int_equal(count_entries(dir, ".tmp-"), 0);
	json_object_put(list);
	store_close(st);
}
#endif

/* A digest is kept beside its record: given at the add, replaced later,
 * none for a record added without one; a walk of the summaries stops where
 * its callback says. */
static int count_until_two(int64_t id, json_object *summary, void *n)
{
	++*(int *)n;
	return id == 2 ? -ECANCELED : 0;
}

static void digests(void **s)
{
	struct store *st;
	assert_int_equal(store_open(state, &st), 0);
	_cleanup_json_ json_object *a = record("0123456789abcdef0123456789abcdef");
	_cleanup_json_ json_object *b = record("fedcba9876543210fedcba9876543210");
	_cleanup_json_ json_object *c = record("00112233445566778899aabbccddeeff");
	int64_t ida, idb, idc;
	assert_int_equal(store_add_with_digest(st, a, "{\"version\": 1}", &ida), 0);
	assert_int_equal(store_add(st, b, &idb), 0);
	assert_int_equal(store_add(st, c, &idc), 0);
	_cleanup_free_ char *text = NULL;
	assert_int_equal(store_get_digest(st, ida, &text), 0);
	assert_string_equal(text, "{\"version\": 1}");
	free(text);
	text = NULL;
	assert_int_equal(store_get_digest(st, idb, &text), -ENOENT);
	assert_int_equal(store_set_digest(st, idb, "{\"version\": 2}"), 0);
	assert_int_equal(store_set_digest(st, 99, "{}"), -ENOENT);
	store_close(st);
	/* kept: another opening reads them */
	assert_int_equal(store_open(state, &st), 0);
	assert_int_equal(store_get_digest(st, idb, &text), 0);
	assert_string_equal(text, "{\"version\": 2}");
	int n = 0;
	assert_int_equal(store_each(st, count_until_two, &n), -ECANCELED);
	assert_int_equal(n, 2);
	store_close(st);
}

#if HAVE_SQLITE
#include <sqlite3.h>

/* A store made before digests were kept (version 1) gains their table when
 * opened; one that cannot be written is read without it. */
static void sqlite_upgrade(void **s)
{
	_cleanup_free_ char *path = store_path(state);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE results (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT "
					  "UNIQUE NOT NULL, started_at TEXT NOT NULL, summary TEXT NOT NULL, record TEXT "
					  "NOT NULL); PRAGMA user_version = 1;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(chmod(path, 0400), 0);
	struct store *st;
	if (geteuid() != 0) {
		/* root writes a file whatever its mode */
		assert_int_equal(store_open(state, &st), 0);
		_cleanup_free_ char *text = NULL;
		assert_int_equal(store_get_digest(st, 1, &text), -ENOENT);
		assert_int_equal(store_set_digest(st, 1, "{}"), -EROFS);
		store_close(st);
	}
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(store_open(state, &st), 0);
	_cleanup_json_ json_object *a = record("0123456789abcdef0123456789abcdef");
	int64_t id;
	assert_int_equal(store_add_with_digest(st, a, "{}", &id), 0);
	_cleanup_free_ char *text = NULL;
	assert_int_equal(store_get_digest(st, id, &text), 0);
	store_close(st);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(q, 0), 2);
	sqlite3_finalize(q);
	sqlite3_close(db);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(read_missing, make_state, remove_state),
		cmocka_unit_test_setup_teardown(concurrent_adds, make_state, remove_state),
		cmocka_unit_test_setup_teardown(digests, make_state, remove_state),
#if HAVE_SQLITE
		cmocka_unit_test_setup_teardown(sqlite_upgrade, make_state, remove_state),
#endif
#if !HAVE_SQLITE
		cmocka_unit_test_setup_teardown(json_files, make_state, remove_state),
		cmocka_unit_test_setup_teardown(json_index, make_state, remove_state),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
