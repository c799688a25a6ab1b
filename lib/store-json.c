/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results store without SQLite: one JSON file per result in
 * DIR/results/, named ID-RUN.json (the result's id, its run id), holding
 * the record as `ubtune export` writes it. A result goes to a temporary
 * file, is synced, then linked to its name, which never replaces a file: a
 * crash leaves the store as it was. Adds hold a lock on the directory, so
 * ids and run ids stay unique between concurrent runs.
 *
 * DIR/results/index keeps the listing's summary of each file, one JSON
 * line per file: {"name", "size", "mtime_ns", "summary", "digest"} (the
 * digest when one was made, store_set_digest()). Adds append to
 * it; a listing reads it and parses only the files it does not cover (or
 * whose size or time changed: edited by hand), then appends those. A line
 * cut short by a crash is skipped, a later line for the same file wins,
 * and lines of files no longer there are dropped when the index is
 * rewritten (when most of its lines are stale).
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
#define INDEX_FILE "index"
/* Largest index read (about 500 bytes a result). */
#define INDEX_MAX (1u << 30)

struct entry {
	int64_t id;
	char *name; /* "12-0123abcd.json" */
	char *run;  /* "0123abcd" */
	json_object *summary; /* store_each(): from the index or the file */
	char *digest;         /* from the index, NULL when it has none */
};

struct store {
	int dfd;
	char *dir;
	/* the last scan, for store_get() (rescanned when an id is missing) */
	struct entry *v;
	size_t n;
	bool scanned;
	bool indexed; /* v has the index's summaries and digests */
};

char *store_path(const char *dir)
{
	return xasprintf("%s/" RESULTS_DIR, dir);
}

const char store_kind[] = "a directory of result files";

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
		return errno == ENOTDIR || errno == ELOOP ? -EINVAL : -errno;
	*out = xcalloc(1, sizeof(**out));
	(*out)->dfd = fd;
	(*out)->dir = TAKE_PTR(path);
	return 0;
}

/* dfd -1: nothing on disk */
int store_open_empty(struct store **out)
{
	*out = xcalloc(1, sizeof(**out));
	(*out)->dfd = -1;
	return 0;
}

static void entries_free(struct entry *v, size_t n);

void store_close(struct store *s)
{
	entries_free(s->v, s->n);
	if (s->dfd >= 0)
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
		json_object_put(v[i].summary);
		free(v[i].digest);
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
	if (s->dfd < 0) {
		*out = xcalloc(1, sizeof(**out));
		*n = 0;
		return 0;
	}
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

/* ---- the index ---- */

/* The index line of a file of the directory; NULL when it cannot be stat'ed. */
static char *index_line(struct store *s, const char *name, json_object *summary, const char *digest)
{
	struct stat st;
	if (fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return NULL;
	_cleanup_json_ json_object *o = json_object_new_object();
	jset_str(o, "name", name);
	jset_int(o, "size", (int64_t)st.st_size);
	jset_int(o, "mtime_ns", (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
	jset(o, "summary", json_object_get(summary));
	if (digest)
		jset_str(o, "digest", digest);
	return xasprintf("%s\n", jdump(o, false));
}

/* Appends whole lines to the index; the caller holds the lock. A line a
 * crash cut short is ended first, so that it spoils only itself. */
static void index_append(struct store *s, const char *text, size_t len)
{
	_cleanup_close_ int fd = openat(s->dfd, INDEX_FILE, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	struct stat st;
	/* a FIFO or device in its place is no index */
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	char last = '\n';
	off_t end = lseek(fd, 0, SEEK_END);
	if (end > 0 && pread(fd, &last, 1, end - 1) != 1)
		return;
	if (last != '\n' && write_full(fd, "\n", 1) < 0)
		return;
	write_full(fd, text, len);
}

static struct entry *entry_by_id(struct entry *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].id == id)
			return &v[mid];
		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The summary of one index line, when it still describes its file. */
static void index_take(struct store *s, struct entry *v, size_t n, const char *line, size_t len)
{
	_cleanup_json_ json_object *o = NULL;
	struct entry parsed;
	if (jload_text(line, len, &o) < 0 || !jpath_str(o, "name") || !parse_name(jpath_str(o, "name"), &parsed))
		return;
	struct entry *e = entry_by_id(v, n, parsed.id);
	bool same = e && streq(e->name, parsed.name);
	free(parsed.name);
	free(parsed.run);
	json_object *summary = jpath(o, "summary");
	int64_t size, mtime;
	struct stat st;
	if (!same || !result_summary_current(summary) || !jpath_int(o, "size", &size) ||
	    !jpath_int(o, "mtime_ns", &mtime) || fstatat(s->dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    st.st_size != size || (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec != mtime)
		return;
	json_object_put(e->summary);
	e->summary = json_object_get(summary);
	free(e->digest);
	e->digest = xstrdup_or_null(jpath_str(o, "digest"));
}

/* Summaries from the index for the entries it describes; the number of
 * its lines. */
static size_t index_read(struct store *s, struct entry *v, size_t n)
{
	_cleanup_close_ int fd = open_regular_at(s->dfd, INDEX_FILE, O_NOFOLLOW, NULL);
	_cleanup_free_ char *text = NULL;
	size_t len = 0, lines = 0;
	if (fd < 0 || read_fd(fd, INDEX_MAX, &text, &len) < 0)
		return 0;
	for (char *p = text, *end = text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		p[l] = '\0';
		index_take(s, v, n, p, l);
		lines++;
		p += l + 1;
	}
	return lines;
}

/* The summary of an entry's file; a file damaged or edited by hand is
 * listed by its id alone. */
static json_object *file_summary(struct store *s, const struct entry *e);

/* Summarises the entries the index did not cover and records them: appended,
 * or the whole index rewritten when most of its lines are stale. */
static void index_update(struct store *s, struct entry *v, size_t n, size_t lines)
{
	struct buf add = {0};
	for (size_t i = 0; i < n; i++) {
		if (v[i].summary)
			continue;
		v[i].summary = file_summary(s, &v[i]);
		_cleanup_free_ char *line = index_line(s, v[i].name, v[i].summary, NULL);
		if (line)
			buf_puts(&add, line);
	}
	bool rewrite = lines > 2 * n + 64;
	if ((!add.len && !rewrite) || flock(s->dfd, LOCK_EX | LOCK_NB) < 0) {
		buf_free(&add);
		return;
	}
	if (rewrite) {
		buf_free(&add);
		for (size_t i = 0; i < n; i++) {
			_cleanup_free_ char *line = index_line(s, v[i].name, v[i].summary, v[i].digest);
			if (line)
				buf_puts(&add, line);
		}
		_cleanup_free_ char *path = xasprintf("%s/" INDEX_FILE, s->dir);
		_cleanup_free_ char *tmp = xasprintf("%s/" TMP_PREFIX "index", s->dir);
		if (write_file_atomic(tmp, add.s ? add.s : "", 0600) < 0 || rename(tmp, path) < 0)
			unlink(tmp);
	} else {
		index_append(s, add.s, add.len);
	}
	flock(s->dfd, LOCK_UN);
	buf_free(&add);
}

static int add_locked(struct store *s, json_object *result, const char *digest, int64_t *id)
{
	struct entry *v;
	size_t n;
	int r = scan(s, &v, &n);
	if (r < 0)
		return r;
	/* the summary names the run, as the index lists it */
	_cleanup_json_ json_object *summary = result_summary(result);
	_cleanup_free_ char *run = run_part(jpath_str(summary, "run_id"));
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
	/* the file is stored; an index line lost here is made again by a listing */
	_cleanup_free_ char *line = index_line(s, name, summary, digest);
	if (line)
		index_append(s, line, strlen(line));
	s->scanned = s->indexed = false;
	return 0;
}

int store_add_with_digest(struct store *s, json_object *result, const char *digest, int64_t *id)
{
	_cleanup_free_ char *why = NULL;
	if (result_check(result, &why) < 0)
		return -EBADMSG;
	if (s->dfd < 0)
		return -EROFS;
	if (flock(s->dfd, LOCK_EX) < 0)
		return -errno;
	int r = add_locked(s, result, digest, id);
	flock(s->dfd, LOCK_UN);
	return r;
}

static int read_entry(struct store *s, const struct entry *e, json_object **out)
{
	_cleanup_close_ int fd = open_regular_at(s->dfd, e->name, O_NOFOLLOW, NULL);
	if (fd < 0)
		return fd == -EINVAL ? -EBADMSG : fd; /* a FIFO in its place: damaged */
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_fd(fd, RESULT_FILE_MAX, &text, &len);
	return r < 0 ? r : jload_text(text, len, out);
}

static json_object *file_summary(struct store *s, const struct entry *e)
{
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *why = NULL;
	bool good = read_entry(s, e, &rec) == 0 && result_check(rec, &why) == 0;
	return good ? result_summary(rec) : json_object_new_object();
}

/* The entries of the directory, scanned once per open (and again when
 * something was added or an id is not among them). */
static int rescan(struct store *s)
{
	struct entry *v;
	size_t n;
	int r = scan(s, &v, &n);
	if (r < 0)
		return r;
	entries_free(s->v, s->n);
	s->v = v;
	s->n = n;
	s->scanned = true;
	s->indexed = false;
	return 0;
}

int store_get(struct store *s, int64_t id, json_object **out)
{
	int r = s->scanned ? 0 : rescan(s);
	if (r == 0 && !entry_by_id(s->v, s->n, id))
		r = rescan(s);
	if (r < 0)
		return r;
	struct entry *e = entry_by_id(s->v, s->n, id);
	return e ? read_entry(s, e, out) : -ENOENT;
}

/* The entries with their summaries and digests, the index brought up to date. */
static int reindex(struct store *s)
{
	int r = rescan(s);
	if (r < 0)
		return r;
	index_update(s, s->v, s->n, index_read(s, s->v, s->n));
	s->indexed = true;
	return 0;
}

int store_each(struct store *s, store_each_fn fn, void *arg)
{
	int r = reindex(s);
	for (size_t i = 0; r >= 0 && i < s->n; i++)
		r = fn(s->v[i].id, s->v[i].summary, arg);
	return r < 0 ? r : 0;
}

int store_get_digest(struct store *s, int64_t id, char **text)
{
	int r = s->indexed ? 0 : reindex(s);
	if (r < 0)
		return r;
	struct entry *e = entry_by_id(s->v, s->n, id);
	if (!e || !e->digest)
		return -ENOENT;
	*text = xstrdup(e->digest);
	return 0;
}

int store_set_digest(struct store *s, int64_t id, const char *text)
{
	int r = s->indexed ? 0 : reindex(s);
	if (r < 0)
		return r;
	struct entry *e = entry_by_id(s->v, s->n, id);
	if (!e)
		return -ENOENT;
	_cleanup_free_ char *line = index_line(s, e->name, e->summary, text);
	if (!line || flock(s->dfd, LOCK_EX) < 0)
		return -errno ?: -EIO;
	index_append(s, line, strlen(line));
	flock(s->dfd, LOCK_UN);
	free(e->digest);
	e->digest = xstrdup(text);
	return 0;
}

/* Each add is synced on its own: nothing to gather. */
int store_begin(struct store *s)
{
	return 0;
}

int store_commit(struct store *s)
{
	return 0;
}
#endif
