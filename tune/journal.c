/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "journal.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/paths.h"

#define JOURNAL_MAX (4u << 20)

struct journal {
	char *dir, *path;
	int dir_fd; /* holds the lock */
	int fd;     /* -1 until something is written */
	uint64_t next_id, run;
	off_t run_start; /* size before the current run began; -1 outside a run */
	bool created;    /* the file did not exist before this run */
	size_t sets, run_sets; /* "set" entries in it; before the current run */
	size_t runs;           /* "run" entries in it when opened */
};

static int parse(char *text, size_t len, struct jlog *out, char **error);

const char *journal_path(const struct journal *j)
{
	return j->path;
}

static int read_all(int fd, char **out, size_t *len)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return read_fd(fd, JOURNAL_MAX, out, len);
}

/* Writing: refuses a journal that cannot be read whole, cuts a torn last
 * line and finds the next ids. */
static int scan(struct journal *j, bool cut, char **error)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_all(j->fd, &text, &len);
	if (r < 0)
		return r;
	struct jlog l;
	_cleanup_free_ char *copy = xmalloc(len + 1);
	memcpy(copy, text, len + 1);
	if ((r = parse(copy, len, &l, error)) < 0)
		return r;
	for (size_t i = 0; i < l.n; i++) {
		j->next_id = l.e[i].id >= j->next_id ? l.e[i].id + 1 : j->next_id;
		j->run = l.e[i].run > j->run ? l.e[i].run : j->run;
	}
	j->run = l.profiles.n > j->run ? l.profiles.n : j->run;
	j->runs = l.profiles.n;
	j->sets = l.n;
	jlog_free(&l);
	size_t keep = len;
	while (keep > 0 && text[keep - 1] != '\n')
		keep--;
	if (cut && keep < len && (ftruncate(j->fd, (off_t)keep) < 0 || fsync(j->fd) < 0))
		return -errno;
	return 0;
}

static int open_file(struct journal *j, enum journal_mode mode)
{
	int flags = (mode == JOURNAL_READ ? O_RDONLY : O_RDWR | O_APPEND) | O_CLOEXEC | O_NOFOLLOW;
	/* a FIFO or device in its place is refused, never waited on */
	int fd = open_regular_at(j->dir_fd, JOURNAL_FILE, flags, NULL);
	if (fd == -ENOENT && mode == JOURNAL_CREATE) {
		fd = openat(j->dir_fd, JOURNAL_FILE, flags | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return -errno;
		j->fd = fd;
		j->created = true;
		return fsync(j->dir_fd) < 0 ? -errno : 0;
	}
	if (fd < 0)
		return fd;
	j->fd = fd;
	return 0;
}

int journal_open(int dir_fd, const char *dir, enum journal_mode mode, struct journal **out, char **error)
{
	int r;
	struct journal *j = xcalloc(1, sizeof(*j));
	j->fd = -1;
	j->run_start = -1;
	j->next_id = 1;
	j->dir = xstrdup(dir);
	j->path = xasprintf("%s/" JOURNAL_FILE, dir);
	j->dir_fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 3);
	if (j->dir_fd < 0) {
		r = -errno;
		goto fail;
	}
	if (flock(j->dir_fd, (mode == JOURNAL_READ ? LOCK_SH : LOCK_EX) | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		goto fail;
	}
	r = open_file(j, mode);
	if (r < 0 || (mode != JOURNAL_READ && (r = scan(j, true, error)) < 0))
		goto fail;
	*out = j;
	return 0;
fail:
	journal_close(j);
	return r;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	if (j->dir_fd >= 0)
		close(j->dir_fd);
	free(j->dir);
	free(j->path);
	free(j);
}

/* Only "set" entries are synced: a change may follow only once its old
 * value is on disk. The run header goes to disk with the first of them; a
 * lost "done" only makes revert check a value that is already right. */
static int append(struct journal *j, json_object *o, bool sync)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	_cleanup_free_ char *line = xasprintf("%s\n", s);
	int r = write_full(j->fd, line, strlen(line));
	if (r < 0)
		return r;
	return sync && fdatasync(j->fd) < 0 ? -errno : 0;
}

int journal_begin(struct journal *j, const char *boot_id, const char *profile)
{
	struct stat st;
	if (fstat(j->fd, &st) < 0)
		return -errno;
	j->run_start = st.st_size;
	j->run_sets = j->sets;
	j->run++;
	_cleanup_json_ json_object *o = json_object_new_object();
	_cleanup_free_ char *now = iso8601_utc(time(NULL));
	jset_str(o, "op", "run");
	jset_int(o, "run", (int64_t)j->run);
	jset_str(o, "boot_id", boot_id);
	jset_str(o, "profile", profile);
	jset_str(o, "time", now);
	return append(j, o, false);
}

int journal_add(struct journal *j, const struct action *a, uint64_t *id)
{
	_cleanup_json_ json_object *o = action_to_json(a);
	*id = j->next_id++;
	j->sets++;
	jset_str(o, "op", "set");
	jset_int(o, "id", (int64_t)*id);
	jset_int(o, "run", (int64_t)j->run);
	return append(j, o, true);
}

int journal_done(struct journal *j, uint64_t id)
{
	_cleanup_json_ json_object *o = json_object_new_object();
	jset_str(o, "op", "done");
	jset_int(o, "id", (int64_t)id);
	return append(j, o, false);
}

int journal_drop_run(struct journal *j)
{
	if (j->run_start < 0)
		return 0;
	j->sets = j->run_sets;
	if (j->run_start == 0 && j->created)
		return journal_remove(j);
	if (ftruncate(j->fd, j->run_start) < 0 || fsync(j->fd) < 0)
		return -errno;
	j->run_start = -1;
	return 0;
}

/* See journal.h. A journal (NULL: none) that holds fewer changes than applied.json says
 * apply journaled was cut short or emptied: the old values of the others
 * are lost, and clearing it would leave them changed for good. A record
 * from before apply counted them has knobs: then a journal with no run at
 * all is as lost. */
int journal_check_applied(const struct journal *j, json_object *applied, const char *path, char **error)
{
	int64_t journaled;
	size_t have = j ? j->sets : 0;
	bool counted = jpath_int(applied, "journaled", &journaled);
	if (counted && (uint64_t)journaled > have) {
		*error = xasprintf("%s holds %zu change%s, but apply journaled %" PRId64 " (applied.json): the journal was "
				   "cut short or emptied and the old values of the others are lost; nothing was changed "
				   "or cleared (set them back by hand, then remove the journal and applied.json)",
				   path, have, have == 1 ? "" : "s", journaled);
		return -EBADMSG;
	}
	if (!counted && j && !j->created && !j->runs && jarr_len(jpath(applied, "knobs"))) {
		*error = xasprintf("%s holds no change, but applied.json lists %zu knobs: the journal was emptied "
				   "and their old values are lost; nothing was changed or cleared",
				   path, jarr_len(jpath(applied, "knobs")));
		return -EBADMSG;
	}
	return 0;
}

size_t journal_sets(const struct journal *j)
{
	return j->sets;
}

bool journal_created(const struct journal *j)
{
	return j->created;
}

int journal_remove(struct journal *j)
{
	if (unlinkat(j->dir_fd, JOURNAL_FILE, 0) < 0 && errno != ENOENT)
		return -errno;
	return fsync(j->dir_fd) < 0 ? -errno : 0;
}

static struct jentry *entry_by_id(struct jlog *l, uint64_t id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].id == id)
			return &l->e[i];
	return NULL;
}

/* The line and byte of position at in text (its lines not yet cut), for a message. */
static char *where(const char *text, const char *at)
{
	unsigned line = 1;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return xasprintf("line %u (byte %zu)", line, (size_t)(at - text));
}

/* Every entry of the journal's text (changed in place); a torn last line
 * is left out, anything else that is not an entry refused. */
static int parse(char *text, size_t len, struct jlog *out, char **error)
{
	*out = (struct jlog){0};
	/* a NUL would end the text early: what follows it would be lost */
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		_cleanup_free_ char *at = where(text, nul);
		*error = xasprintf("%s: a NUL byte; the journal is damaged", at);
		return -EBADMSG;
	}
	/* a torn last line never started its change */
	char *end = memrchr(text, '\n', len);
	*(end ? end + 1 : text) = '\0';
	_cleanup_free_ char *boot = NULL, *profile = NULL;
	unsigned line = 0;
	for (char *l = text, *next; *l; l = next) {
		next = strchr(l, '\n');
		*next++ = '\0';
		line++;
		_cleanup_json_ json_object *o = NULL;
		const char *op = NULL, *what = "not a journal entry";
		int64_t id = 0, run = 0;
		if (!*l) {
			what = "an empty line";
			goto bad;
		}
		if (jload_string(l, &o) < 0 || !(op = jpath_str(o, "op")))
			goto bad;
		if (streq(op, "run")) {
			free(boot);
			free(profile);
			boot = xstrdup_or_null(jpath_str(o, "boot_id"));
			profile = xstrdup(jpath_str(o, "profile") ?: "?");
			strv_push(&out->profiles, profile);
		} else if (streq(op, "set")) {
			struct jentry e = {0};
			if (!jpath_int(o, "id", &id) || !jpath_int(o, "run", &run) || id < 0 || run < 0 ||
			    action_from_json(o, &e.a) < 0)
				goto bad;
			e.id = (uint64_t)id;
			e.run = (uint64_t)run;
			e.boot_id = xstrdup_or_null(boot);
			e.profile = xstrdup_or_null(profile);
			out->e = xrealloc(out->e, (out->n + 1) * sizeof(*out->e));
			out->e[out->n++] = e;
		} else if (streq(op, "done")) {
			struct jentry *e = jpath_int(o, "id", &id) ? entry_by_id(out, (uint64_t)id) : NULL;
			what = "the end of a change it does not hold";
			if (!e)
				goto bad;
			e->done = true;
		} else {
			goto bad;
		}
		continue;
bad:
		*error = xasprintf("line %u (byte %zu): %s", line, (size_t)(l - text), what);
		jlog_free(out);
		return -EBADMSG;
	}
	return 0;
}

int journal_read(struct journal *j, struct jlog *out, char **error)
{
	*out = (struct jlog){0};
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_all(j->fd, &text, &len);
	return r < 0 ? r : parse(text, len, out, error);
}

void jlog_free(struct jlog *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].boot_id);
		free(l->e[i].profile);
		action_free(&l->e[i].a);
	}
	free(l->e);
	strv_free(&l->profiles);
	*l = (struct jlog){0};
}

char *journal_boot_id(struct rootfs *rf)
{
	char *id = NULL;
	if (rootfs_read_line(rf, "/proc/sys/kernel/random/boot_id", &id) < 0)
		return NULL;
	if (!*id) {
		free(id);
		return NULL;
	}
	return id;
}
