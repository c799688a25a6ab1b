/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "str.h"

int dir_list_sorted(DIR *d, struct strv *out)
{
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (streq(de->d_name, ".") || streq(de->d_name, ".."))
			continue;
		strv_push(out, de->d_name);
	}
	if (errno)
		return -errno;
	strv_sort(out);
	return 0;
}

int read_fd(int fd, size_t max, char **out, size_t *len)
{
	struct buf b = {0};
	char chunk[8192];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int r = -errno;
			buf_free(&b);
			return r;
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > max) {
			buf_free(&b);
			return -EFBIG;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	if (len)
		*len = b.len;
	*out = buf_steal(&b);
	return 0;
}

int write_full(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file_atomic(const char *path, const char *text, mode_t mode)
{
	_cleanup_free_ char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = write_full(fd, text, strlen(text));
	if (r == 0 && (fchmod(fd, mode) < 0 || fsync(fd) < 0))
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dfd >= 0 && fsync(dfd) < 0 ? -errno : 0;
}

const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "a file of unknown type";
	}
}

static int refuse(const char *path, mode_t mode, char **error)
{
	if (error)
		*error = xasprintf("%s is %s, not a regular file", path, file_kind(mode));
	return S_ISDIR(mode) ? -EISDIR : -EINVAL;
}

int open_regular_at(int dfd, const char *path, int flags, char **error)
{
	struct stat st;
	/* Opening a FIFO waits for a writer, and opening a device may act
	 * (a watchdog starts): look before opening. */
	if (fstatat(dfd, path, &st, flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0) == 0 && !S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, error);
	/* it may be replaced in between: never block, and look again */
	int fd = openat(dfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	int r = fstat(fd, &st) < 0 ? -errno : 0;
	if (r == 0 && !S_ISREG(st.st_mode))
		r = refuse(path, st.st_mode, error);
	if (r == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int read_regular(const char *path, size_t max, char **out, size_t *len, char **error)
{
	_cleanup_close_ int fd = open_regular_at(AT_FDCWD, path, 0, error);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	return read_fd(fd, max, out, len);
}

int read_file(const char *path, size_t max, char **out, size_t *len)
{
	return read_regular(path, max, out, len, NULL);
}

/* A directory being emptied: its entries, the next to remove, and who it
 * is (to recognise it again on the way back up). */
struct rm_level {
	struct strv names;
	size_t next;
	dev_t dev;
	ino_t ino;
};

/* The entries of the directory fd (which stays open). */
static int list_fd(int fd, struct strv *names)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0)
		return -errno;
	DIR *d = fdopendir(dup_fd);
	if (!d) {
		int r = -errno;
		close(dup_fd);
		return r;
	}
	int r = dir_list_sorted(d, names);
	closedir(d);
	return r;
}

/* Empties and removes the tree at name in dfd, at any depth: one directory
 * is open at a time (the way back up is its "..", checked to be the
 * directory that was left), and the levels are a list on the heap, so
 * neither the open files nor the stack limit how deep a tree may be. */
static int remove_at(int dfd, const char *name)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) < 0 ? -errno : 0;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct rm_level *v = NULL;
	size_t n = 0, cap = 0;
	int r = 0;
	for (bool enter = true; r == 0;) {
		if (enter) {
			if (n == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
			v[n] = (struct rm_level){ .dev = st.st_dev, .ino = st.st_ino };
			r = list_fd(fd, &v[n++].names);
			enter = false;
			continue;
		}
		struct rm_level *top = &v[n - 1];
		if (top->next < top->names.n) {
			const char *child = top->names.v[top->next++];
			if (fstatat(fd, child, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				r = errno == ENOENT ? 0 : -errno;
			} else if (!S_ISDIR(st.st_mode)) {
				r = unlinkat(fd, child, 0) < 0 && errno != ENOENT ? -errno : 0;
			} else {
				int cfd = openat(fd, child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (cfd < 0) {
					r = -errno;
				} else {
					close(fd);
					fd = cfd;
					enter = true;
				}
			}
			continue;
		}
		/* this directory is empty: up to its parent, then remove it there */
		strv_free(&top->names);
		if (--n == 0)
			break;
		int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0 || fstat(pfd, &st) < 0) {
			r = -errno;
		} else if (st.st_dev != v[n - 1].dev || st.st_ino != v[n - 1].ino) {
			r = -ESTALE; /* moved meanwhile: stop rather than remove elsewhere */
		} else if (unlinkat(pfd, v[n - 1].names.v[v[n - 1].next - 1], AT_REMOVEDIR) < 0) {
			r = -errno;
		}
		close(fd);
		fd = pfd;
	}
	for (size_t i = 0; i < n; i++)
		strv_free(&v[i].names);
	free(v);
	if (fd >= 0)
		close(fd);
	if (r < 0)
		return r;
	return unlinkat(dfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

int remove_tree(const char *dir)
{
	return remove_at(AT_FDCWD, dir);
}

int remove_tree_at(int dfd, const char *name)
{
	return remove_at(dfd, name);
}
