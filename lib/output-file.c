/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "output-file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

static int fail(int r, char **error, const char *what, const char *path)
{
	*error = xasprintf("cannot %s %s: %s", what, path, strerror(-r));
	return r;
}

/* The permissions a new file gets from open(): 0666 less the umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* A temporary beside target, .NAME.XXXXXX, with the given permissions. */
static int open_temp(struct output_file *o, mode_t mode)
{
	const char *slash = strrchr(o->target, '/');
	const char *name = slash ? slash + 1 : o->target;
	int dir_len = slash ? (int)(slash - o->target + 1) : 0;
	o->tmp = xasprintf("%.*s.%s.XXXXXX", dir_len, o->target, name);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		int r = -errno;
		free(o->tmp);
		o->tmp = NULL;
		return r;
	}
	if (fchmod(o->fd, mode) < 0) {
		int r = -errno;
		output_file_abort(o);
		return r;
	}
	return 0;
}

/* A device or FIFO: written where it is, never truncated or removed (a
 * FIFO's open waits for its reader, as a shell's redirection does). */
static int open_in_place(struct output_file *o, char **error)
{
	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return fail(-errno, error, "write", o->path);
	struct stat st;
	if (fstat(o->fd, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return 0;
	close(o->fd);
	o->fd = -1;
	*error = xasprintf("%s was replaced while it was opened; nothing written", o->path);
	return -ESTALE;
}

/* A regular file, or none yet: through a temporary renamed over it. */
static int open_replacing(struct output_file *o, const struct stat *old, char **error)
{
	mode_t mode = old ? old->st_mode & 07777 : new_file_mode();
	if (old) {
		char *real = realpath(o->path, NULL);
		if (!real)
			return fail(-errno, error, "write", o->path);
		o->target = real;
	} else {
		o->target = xstrdup(o->path);
	}
	int r = open_temp(o, mode);
	/* a file one may write in a directory one may not: in place, then */
	if (old && (r == -EACCES || r == -EPERM)) {
		o->fd = open(o->target, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
		r = o->fd < 0 ? -errno : 0;
	}
	return r < 0 ? fail(r, error, "create", o->path) : 0;
}

int output_file_open(struct output_file *o, const char *path, unsigned flags, char **error)
{
	*o = (struct output_file){ .fd = -1, .path = xstrdup(path), .must_be_new = flags & OUTPUT_NEW };
	*error = NULL;
	struct stat lst, st;
	int r = 0;
	if (lstat(path, &lst) < 0) {
		r = errno == ENOENT ? open_replacing(o, NULL, error) : fail(-errno, error, "create", path);
	} else if (o->must_be_new) {
		r = fail(-EEXIST, error, "create", path);
	} else if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			*error = xasprintf("%s is a symbolic link to nothing: give the file it should name", path);
		r = *error ? -ENOENT : fail(-errno, error, "write", path);
	} else if (S_ISREG(st.st_mode)) {
		r = open_replacing(o, &st, error);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		r = open_in_place(o, error);
	} else {
		*error = xasprintf("%s is %s: output goes to a regular file, a FIFO or a character device", path,
				   file_kind(st.st_mode));
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if (r < 0) {
		free(o->path);
		free(o->target);
		*o = (struct output_file){ .fd = -1 };
	}
	return r;
}

static int put_in_place(struct output_file *o)
{
	if (!o->must_be_new)
		return rename(o->tmp, o->target) < 0 ? -errno : 0;
	/* a file made meanwhile under that name is not replaced */
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	if (link(o->tmp, o->target) < 0)
		return -errno;
	unlink(o->tmp);
	return 0;
}

int output_file_finish(struct output_file *o, char **error)
{
	*error = NULL;
	int r = 0;
	if (o->tmp && fsync(o->fd) < 0)
		r = -errno;
	if (close(o->fd) < 0 && r == 0)
		r = -errno;
	o->fd = -1;
	if (r == 0 && o->tmp)
		r = put_in_place(o);
	if (r < 0)
		fail(r, error, "write", o->path);
	output_file_abort(o);
	return r;
}

void output_file_abort(struct output_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	free(o->path);
	*o = (struct output_file){ .fd = -1 };
}

int output_file_write(const char *path, const char *text, size_t len, char **error)
{
	struct output_file o;
	int r = output_file_open(&o, path, 0, error);
	if (r < 0)
		return r;
	r = write_full(o.fd, text, len);
	if (r < 0) {
		fail(r, error, "write", path);
		output_file_abort(&o);
		return r;
	}
	return output_file_finish(&o, error);
}

int output_file_render(const char *path, void (*render)(FILE *out, const void *data), const void *data,
		       char **error)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return fail(-errno, error, "write", path);
	render(f, data);
	if (fclose(f) != 0)
		return fail(-ENOMEM, error, "write", path);
	return output_file_write(path, text, len, error);
}
