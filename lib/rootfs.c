/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define READ_MAX (16u << 20)
#define MAX_SYMLINKS 40

struct rootfs {
	char *path;
	int fd; /* O_PATH directory of a dump; -1 for the live root */
	bool tracing;
	struct rootfs_trace_entry *trace;
	size_t ntrace, cap;
};

int rootfs_new(const char *path, struct rootfs **out)
{
	struct rootfs *rf = xcalloc(1, sizeof(*rf));
	rf->fd = -1;
	if (!path || streq(path, "/")) {
		rf->path = xstrdup("/");
	} else {
		char *abs = realpath(path, NULL);
		if (!abs) {
			int r = -errno;
			free(rf);
			return r;
		}
		rf->path = abs;
		if (!streq(abs, "/")) {
			rf->fd = open(abs, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (rf->fd < 0) {
				int r = -errno;
				rootfs_free(rf);
				return r;
			}
		}
	}
	*out = rf;
	return 0;
}

void rootfs_free(struct rootfs *rf)
{
	if (rf->fd >= 0)
		close(rf->fd);
	for (size_t i = 0; i < rf->ntrace; i++) {
		free(rf->trace[i].path);
		free(rf->trace[i].data);
	}
	free(rf->trace);
	free(rf->path);
	free(rf);
}

bool rootfs_is_live(const struct rootfs *rf)
{
	return rf->fd < 0;
}

const char *rootfs_path(const struct rootfs *rf)
{
	return rf->path;
}

void rootfs_trace_start(struct rootfs *rf)
{
	rf->tracing = true;
}

bool rootfs_is_tracing(const struct rootfs *rf)
{
	return rf->tracing;
}

void rootfs_trace_add(struct rootfs *rf, const char *path, enum rootfs_trace_kind kind)
{
	if (!rf->tracing)
		return;
	if (rf->ntrace == rf->cap) {
		rf->cap = rf->cap ? rf->cap * 2 : 256;
		rf->trace = xrealloc(rf->trace, rf->cap * sizeof(*rf->trace));
	}
	rf->trace[rf->ntrace++] = (struct rootfs_trace_entry){ xstrdup(path), kind, NULL, 0 };
}

/* Keeps a copy of the bytes read with the trace entry last added. */
static void trace_keep_data(struct rootfs *rf, const char *data, size_t len)
{
	struct rootfs_trace_entry *e = rf->ntrace ? &rf->trace[rf->ntrace - 1] : NULL;
	if (!rf->tracing || !e || e->kind != TRACE_FILE || e->data)
		return;
	e->data = xmalloc(len + 1);
	memcpy(e->data, data, len);
	e->data[len] = '\0';
	e->len = len;
}

void rootfs_trace_add_data(struct rootfs *rf, const char *path, const char *data, size_t len)
{
	if (!rf->tracing)
		return;
	rootfs_trace_add(rf, path, TRACE_FILE);
	trace_keep_data(rf, data, len);
}

const struct rootfs_trace_entry *rootfs_trace_entries(const struct rootfs *rf, size_t *n)
{
	*n = rf->ntrace;
	return rf->trace;
}

/* Directory fd and relative path for a canonical absolute path. */
static int at(const struct rootfs *rf, const char *canon, const char **rel)
{
	if (rf->fd < 0) {
		*rel = canon;
		return AT_FDCWD;
	}
	*rel = canon[1] ? canon + 1 : ".";
	return rf->fd;
}

static int readlink_at(int dfd, const char *rel, char **out)
{
	size_t size = 128;
	for (;;) {
		char *b = xmalloc(size);
		ssize_t n = readlinkat(dfd, rel, b, size);
		if (n < 0) {
			int r = -errno;
			free(b);
			return r;
		}
		if ((size_t)n < size) {
			b[n] = '\0';
			*out = b;
			return 0;
		}
		free(b);
		if (size >= PATH_MAX * 4)
			return -ENAMETOOLONG;
		size *= 2;
	}
}

/*
 * Resolves path component by component inside the root, the way the
 * kernel would with the root as "/": ".." stops at the root and absolute
 * symlink targets restart from it. Symlinks met are traced. With beneath,
 * as the kernel would from the root's directory without a chroot: a ".."
 * above the root or an absolute target is -EXDEV.
 */
static int resolve_at(struct rootfs *rf, const char *path, bool follow_last, bool beneath, char **out)
{
	struct buf res = {0};
	_cleanup_free_ char *todo = xstrdup(path);
	int links = 0, r = 0;

	if (path[0] != '/')
		return -EINVAL;

	char *p = todo;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *rest = p + len;
		while (*rest == '/')
			rest++;
		bool last = *rest == '\0';

		if (len == 1 && p[0] == '.') {
			p = rest;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = res.s ? strrchr(res.s, '/') : NULL;
			if (!slash && beneath) {
				r = -EXDEV;
				goto fail;
			}
			if (slash) {
				*slash = '\0';
				res.len = (size_t)(slash - res.s);
			}
			p = rest;
			continue;
		}

		size_t keep = res.len;
		buf_add(&res, "/", 1);
		buf_add(&res, p, len);
		if (last && !follow_last)
			break;

		const char *rel;
		int dfd = at(rf, res.s, &rel);
		_cleanup_free_ char *target = NULL;
		r = readlink_at(dfd, rel, &target);
		if (r == -EINVAL) { /* not a symlink */
			r = 0;
			p = rest;
			continue;
		}
		if (r < 0)
			goto fail;
		if (++links > MAX_SYMLINKS) {
			r = -ELOOP;
			goto fail;
		}
		rootfs_trace_add(rf, res.s, TRACE_LINK);
		if (beneath && target[0] == '/') {
			r = -EXDEV;
			goto fail;
		}

		/* Continue with target + rest, relative to the link's directory. */
		char *next = xasprintf("%s/%s", target, rest);
		res.len = target[0] == '/' ? 0 : keep;
		if (res.s)
			res.s[res.len] = '\0';
		free(todo);
		todo = next;
		p = todo;
	}
	*out = res.len ? buf_steal(&res) : (buf_free(&res), xstrdup("/"));
	return 0;
fail:
	buf_free(&res);
	return r;
}

static int resolve(struct rootfs *rf, const char *path, bool follow_last, char **out)
{
	return resolve_at(rf, path, follow_last, false, out);
}

int rootfs_resolve_beneath(struct rootfs *rf, const char *path, char **out)
{
	return resolve_at(rf, path, true, true, out);
}

int rootfs_realpath(struct rootfs *rf, const char *path, char **out)
{
	_cleanup_free_ char *canon = NULL;
	int r = resolve(rf, path, true, &canon);
	if (r < 0)
		return r;
	const char *rel;
	int dfd = at(rf, canon, &rel);
	struct stat st;
	if (fstatat(dfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	/* the answer depends on the target existing: a dump needs it too */
	rootfs_trace_add(rf, canon, TRACE_EXISTS);
	*out = TAKE_PTR(canon);
	return 0;
}

static int open_canon(struct rootfs *rf, const char *path, int flags, enum rootfs_trace_kind kind)
{
	_cleanup_free_ char *canon = NULL;
	int fd;

	if (rf->fd < 0 && !rf->tracing) {
		fd = open(path, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	int r = resolve(rf, path, !(flags & O_NOFOLLOW), &canon);
	if (r < 0)
		return r;
	const char *rel;
	int dfd = at(rf, canon, &rel);
	/* A dump's files are files or directories: a FIFO, socket or device
	 * there (a hostile dump) is refused, opened without blocking. */
	bool dump = rf->fd >= 0 && !(flags & O_PATH);
	fd = openat(dfd, rel, flags | O_CLOEXEC | (rf->fd >= 0 ? O_NOFOLLOW : 0) | (dump ? O_NONBLOCK : 0));
	if (fd < 0)
		return -errno;
	if (dump) {
		struct stat st;
		if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
			close(fd);
			return -EINVAL;
		}
		if (!(flags & O_NONBLOCK))
			(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	}
	rootfs_trace_add(rf, canon, kind);
	return fd;
}

int rootfs_open(struct rootfs *rf, const char *path, int flags)
{
	return open_canon(rf, path, flags, TRACE_FILE);
}

static int stat_impl(struct rootfs *rf, const char *path, struct stat *st, bool follow)
{
	if (rf->fd < 0 && !rf->tracing)
		return (follow ? stat(path, st) : lstat(path, st)) < 0 ? -errno : 0;
	_cleanup_free_ char *canon = NULL;
	int r = resolve(rf, path, follow, &canon);
	if (r < 0)
		return r;
	const char *rel;
	int dfd = at(rf, canon, &rel);
	return fstatat(dfd, rel, st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

int rootfs_stat(struct rootfs *rf, const char *path, struct stat *st)
{
	return stat_impl(rf, path, st, true);
}

int rootfs_lstat(struct rootfs *rf, const char *path, struct stat *st)
{
	return stat_impl(rf, path, st, false);
}

int rootfs_exists(struct rootfs *rf, const char *path)
{
	struct stat st;
	int r = rootfs_stat(rf, path, &st);
	if (r == 0 && rf->tracing) {
		/* traces the target as TRACE_EXISTS: a dump needs it too */
		_cleanup_free_ char *canon = NULL;
		(void)rootfs_realpath(rf, path, &canon);
	}
	return r;
}

/* While tracing, a file read again gives the bytes of its first read, so
 * the probe sees one snapshot and an archive of it holds that snapshot. */
static bool trace_reread(struct rootfs *rf, const char *path, char **out, size_t *len)
{
	_cleanup_free_ char *canon = NULL;
	if (!rf->tracing)
		return false;
	/* the symlinks on the way were traced by the first read */
	rf->tracing = false;
	int r = resolve(rf, path, true, &canon);
	rf->tracing = true;
	if (r < 0)
		return false;
	for (size_t i = 0; i < rf->ntrace; i++) {
		const struct rootfs_trace_entry *e = &rf->trace[i];
		if (e->kind == TRACE_FILE && e->data && streq(e->path, canon)) {
			*out = xmalloc(e->len + 1);
			memcpy(*out, e->data, e->len + 1);
			if (len)
				*len = e->len;
			return true;
		}
	}
	return false;
}

int rootfs_read(struct rootfs *rf, const char *path, char **out, size_t *len)
{
	if (trace_reread(rf, path, out, len))
		return 0;
	_cleanup_close_ int fd = rootfs_open(rf, path, O_RDONLY);
	if (fd < 0)
		return fd;

	size_t n = 0;
	int r = read_fd(fd, READ_MAX, out, &n);
	if (r < 0)
		return r;
	trace_keep_data(rf, *out, n);
	if (len)
		*len = n;
	return 0;
}

char *rootfs_read_error(struct rootfs *rf, const char *path, int r)
{
	struct stat st;
	if (r == -EINVAL && rf->fd >= 0 && rootfs_stat(rf, path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode))
		return xasprintf("%s is %s, not a regular file", path, file_kind(st.st_mode));
	return xasprintf("cannot read %s: %s", path, strerror(-r));
}

int rootfs_read_line(struct rootfs *rf, const char *path, char **out)
{
	char *s;
	int r = rootfs_read(rf, path, &s, NULL);
	if (r < 0)
		return r;
	s[strcspn(s, "\n")] = '\0';
	*out = strstrip(s);
	return 0;
}

int rootfs_read_u64(struct rootfs *rf, const char *path, uint64_t *out)
{
	_cleanup_free_ char *s = NULL;
	int r = rootfs_read_line(rf, path, &s);
	return r < 0 ? r : parse_u64(s, out);
}

int rootfs_read_s64(struct rootfs *rf, const char *path, int64_t *out)
{
	_cleanup_free_ char *s = NULL;
	int r = rootfs_read_line(rf, path, &s);
	return r < 0 ? r : parse_s64(s, out);
}

char *rootfs_read_attr(struct rootfs *rf, const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	char *s = NULL;
	if (rootfs_read_line(rf, path, &s) < 0)
		return NULL;
	if (!*s) {
		free(s);
		return NULL;
	}
	return s;
}

int rootfs_read_choice(struct rootfs *rf, const char *path, char **current, struct strv *all)
{
	_cleanup_free_ char *s = NULL;
	int r = rootfs_read_line(rf, path, &s);
	if (r < 0)
		return r;
	*current = NULL;
	for (char *save = NULL, *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(tok);
		if (tok[0] == '[' && n > 2 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
			free(*current);
			*current = xstrdup(tok);
		}
		if (all)
			strv_push(all, tok);
	}
	return 0;
}

int rootfs_readlink(struct rootfs *rf, const char *path, char **out)
{
	if (rf->fd < 0 && !rf->tracing)
		return readlink_at(AT_FDCWD, path, out);
	_cleanup_free_ char *canon = NULL;
	int r = resolve(rf, path, false, &canon);
	if (r < 0)
		return r;
	const char *rel;
	int dfd = at(rf, canon, &rel);
	r = readlink_at(dfd, rel, out);
	if (r == 0)
		rootfs_trace_add(rf, canon, TRACE_LINK);
	return r;
}

int readlink_host(const char *path, char **out)
{
	return readlink_at(AT_FDCWD, path, out);
}

int rootfs_readlink_base(struct rootfs *rf, const char *path, char **out)
{
	_cleanup_free_ char *target = NULL;
	int r = rootfs_readlink(rf, path, &target);
	if (r < 0)
		return r;
	size_t n = strlen(target);
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	const char *slash = strrchr(target, '/');
	*out = xstrdup(slash ? slash + 1 : target);
	return 0;
}

int rootfs_list(struct rootfs *rf, const char *path, struct strv *out)
{
	int fd = open_canon(rf, path, O_RDONLY | O_DIRECTORY, TRACE_DIR);
	if (fd < 0)
		return fd;
	_cleanup_closedir_ DIR *d = fdopendir(fd);
	if (!d) {
		int r = -errno;
		close(fd);
		return r;
	}
	return dir_list_sorted(d, out);
}

/* ---- changing files of the root ------------------------------------------ */

/*
 * Opens a canonical path of a dump without leaving it: the kernel resolves
 * it inside the dump even when a component is swapped for a symlink
 * meanwhile. Kernels before 5.6 (and filters that hide openat2) get the
 * walk's answer opened with its last step not followed.
 */
static int open_in_root(struct rootfs *rf, const char *canon, int flags)
{
	const char *rel;
	int dfd = at(rf, canon, &rel);
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return fd < 0 ? -errno : fd;
#endif
	int f = openat(dfd, rel, flags | O_CLOEXEC | O_NOFOLLOW);
	return f < 0 ? -errno : f;
}

int rootfs_open_parent(struct rootfs *rf, const char *path, bool follow_last, char **name)
{
	_cleanup_free_ char *canon = NULL;
	int r;
	if (path[0] != '/')
		return -EINVAL;
	if (rf->fd < 0)
		canon = xstrdup(path);
	else if ((r = resolve(rf, path, follow_last, &canon)) < 0)
		return r;
	size_t n = strlen(canon);
	while (n > 1 && canon[n - 1] == '/')
		canon[--n] = '\0';
	char *slash = strrchr(canon, '/');
	const char *base = slash + 1;
	if (!*base || streq(base, ".") || streq(base, ".."))
		return -EINVAL;
	_cleanup_free_ char *dir = xstrndup(canon, slash == canon ? 1 : (size_t)(slash - canon));
	int fd;
	if (rf->fd < 0) {
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
	} else {
		fd = open_in_root(rf, dir, O_PATH | O_DIRECTORY);
	}
	if (fd >= 0)
		*name = xstrdup(base);
	return fd;
}

int rootfs_open_dir(struct rootfs *rf, const char *path)
{
	if (streq(path, "/")) {
		int fd = rf->fd < 0 ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
				    : openat(rf->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int pfd = rootfs_open_parent(rf, path, false, &name);
	if (pfd < 0)
		return pfd;
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int rootfs_mkdir(struct rootfs *rf, const char *path, mode_t mode)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int pfd = rootfs_open_parent(rf, path, false, &name);
	if (pfd < 0)
		return pfd;
	return mkdirat(pfd, name, mode) < 0 ? -errno : 0;
}

int rootfs_rmdir(struct rootfs *rf, const char *path)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int pfd = rootfs_open_parent(rf, path, false, &name);
	if (pfd < 0)
		return pfd;
	return unlinkat(pfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}
