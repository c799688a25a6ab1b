/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results store without SQLite: one JSON file per result in
 * DIR/results/, named ID-RUN.json (the result's id, its run id), holding
 * the record as `ubtune export` writes it. A result goes to a temporary
 * file, is synced, then linked to its name, which never replaces a file: a
 * crash leaves the store as it was. Adds hold a lock on the directory, so
 * ids and run ids stay unique between concurrent runs.
 */
#include "store.h"

#if !HAVE_SQLITE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/util.h"

#define RESULTS_DIR "results"
#define TMP_PREFIX ".tmp-"

struct store {
	int dfd;
	char *dir;
};

struct entry {
	int64_t id;
	char *name; /* "12-0123abcd.json" */
	char *run;  /* "0123abcd" */
};

char *store_path(const char *dir)
{
	return xasprintf("%s/" RESULTS_DIR, dir);
}

int store_open(const char *dir, struct store **out)
{
	int r = mkdir_p(dir, 1);
	if (r < 0)
		return r;
	_cleanup_free_ char *path = store_path(dir);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -errno;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*out = xcalloc(1, sizeof(**out));
	(*out)->dfd = fd;
	(*out)->dir = TAKE_PTR(path);
	return 0;
}

void store_close(struct store *s)
{
	close(s->dfd);
	free(s->dir);
	free(s);
}

/* A run id as part of a file name: itself when it is lowercase hex (as
 * ubtune makes them), else 'x' and its bytes in hex. */
static char *run_part(const char *run_id)
{
	bool hex = *run_id != '\0';
	for (const char *c = run_id; *c && hex; c++)
		hex = isdigit((unsigned char)*c) || (*c >= 'a' && *c <= 'f');
	if (hex)
		return xstrdup(run_id);
	struct buf b = {0};
	buf_puts(&b, "x");
	for (const unsigned char *c = (const unsigned char *)run_id; *c; c++)
		buf_printf(&b, "%02x", *c);
	return buf_steal(&b);
}

/* "12-RUN.json": the id and the run part; false for other names. */
static bool parse_name(const char *name, struct entry *e)
{
	const char *dash = strchr(name, '-');
	if (!dash || dash == name || dash - name > 18 || name[0] == '0' || !endswith(dash, ".json"))
		return false;
	int64_t id = 0;
	for (const char *c = name; c < dash; c++) {
		if (!isdigit((unsigned char)*c))
			return false;
		id = id * 10 + (*c - '0');
	}
	size_t run_len = strlen(dash + 1) - strlen(".json");
	if (run_len == 0)
		return false;
	*e = (struct entry){ .id = id, .name = xstrdup(name), .run = xstrndup(dash + 1, run_len) };
	return true;
}

static void entries_free(struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].run);
	}
	free(v);
}

static int by_id(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* The results of the directory, by id. */
static int scan(struct store *s, struct entry **out, size_t *n)
{
	int fd = openat(s->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	struct strv names = {0};
	int r = dir_list_sorted(d, &names);
	closedir(d);
	if (r < 0)
		return r;
	struct entry *v = xcalloc(names.n + 1, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < names.n; i++)
		if (parse_name(names.v[i], &v[k]))
			k++;
	strv_free(&names);
	qsort(v, k, sizeof(*v), by_id);
	*out = v;
	*n = k;
	return 0;
}

/* The record in a synced temporary file of the directory; *tmp its path. */
static int write_temp(struct store *s, json_object *result, char **tmp)
{
	*tmp = xasprintf("%s/" TMP_PREFIX "XXXXXX", s->dir);
	int fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	_cleanup_free_ char *text = xasprintf("%s\n", jdump(result, true));
	int r = write_full(fd, text, strlen(text));
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlink(*tmp);
	return r;
}

/* Temporary files left by a crash: while the lock is held, none is in use. */
static void remove_stale_temps(struct store *s)
{
	int fd = openat(s->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (struct dirent *de; (de = readdir(d));)
		if (startswith(de->d_name, TMP_PREFIX))
			unlinkat(s->dfd, de->d_name, 0);
	closedir(d);
}

static int add_locked(struct store *s, json_object *result, int64_t *id)
{
	struct entry *v;
	size_t n;
	int r = scan(s, &v, &n);
	if (r < 0)
		return r;
	_cleanup_free_ char *run = run_part(jpath_str(result, "run_id"));
	int64_t next = n ? v[n - 1].id + 1 : 1;
	for (size_t i = 0; i < n; i++)
		if (streq(v[i].run, run)) {
			*id = v[i].id;
			entries_free(v, n);
			return -EEXIST;
		}
	entries_free(v, n);

	remove_stale_temps(s);
	_cleanup_free_ char *tmp = NULL;
	if ((r = write_temp(s, result, &tmp)) < 0)
		return r;
	_cleanup_free_ char *name = xasprintf("%" PRId64 "-%s.json", next, run);
	/* link, unlike rename, fails rather than replace a result */
	if (linkat(AT_FDCWD, tmp, s->dfd, name, 0) < 0)
		r = -errno;
	unlink(tmp);
	if (r < 0)
		return r;
	if (fsync(s->dfd) < 0)
		return -errno;
	*id = next;
	return 0;
}

int store_add(struct store *s, json_object *result, int64_t *id)
{
	_cleanup_free_ char *why = NULL;
	if (result_check(result, &why) < 0)
		return -EBADMSG;
	if (flock(s->dfd, LOCK_EX) < 0)
		return -errno;
	int r = add_locked(s, result, id);
	flock(s->dfd, LOCK_UN);
	return r;
}

static int read_entry(struct store *s, const struct entry *e, json_object **out)
{
	_cleanup_close_ int fd = openat(s->dfd, e->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_fd(fd, RESULT_FILE_MAX, &text, &len);
	return r < 0 ? r : jload_text(text, len, out);
}

int store_get(struct store *s, int64_t id, json_object **out)
{
	struct entry *v;
	size_t n;
	int r = scan(s, &v, &n);
	if (r < 0)
		return r;
	r = -ENOENT;
	for (size_t i = 0; i < n; i++)
		if (v[i].id == id)
			r = read_entry(s, &v[i], out);
	entries_free(v, n);
	return r;
}

int store_list(struct store *s, json_object **out)
{
	struct entry *v;
	size_t n;
	int r = scan(s, &v, &n);
	if (r < 0)
		return r;
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		_cleanup_json_ json_object *rec = NULL;
		_cleanup_free_ char *why = NULL;
		/* a file damaged or edited by hand is listed by its id alone */
		bool good = read_entry(s, &v[i], &rec) == 0 && result_check(rec, &why) == 0;
		json_object *summary = good ? result_summary(rec) : json_object_new_object();
		json_object *row = json_object_new_object();
		jset_int(row, "id", v[i].id);
		json_object_object_foreach(summary, k, val) jset(row, k, json_object_get(val));
		json_object_put(summary);
		json_object_array_add(list, row);
	}
	entries_free(v, n);
	*out = list;
	return 0;
}
#endif
