/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tarball.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

void unpacked_root_close(struct unpacked_root *u)
{
	if (u->tmp)
		remove_tree(u->tmp);
	free(u->source);
	free(u->tmp);
	free(u->root);
	/* a signal held meanwhile is delivered here, with nothing left to remove */
	if (u->deferring)
		sigprocmask(SIG_SETMASK, &u->saved_mask, NULL);
	*u = (struct unpacked_root){0};
}

#if HAVE_ARCHIVE
#include <archive.h>
#include <archive_entry.h>

static void defer_termination(struct unpacked_root *u)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	u->deferring = sigprocmask(SIG_BLOCK, &set, &u->saved_mask) == 0;
}

/* Where the archive goes: the errno of a failed write is kept, as
 * libarchive's own message would say only "Write error". */
struct sink {
	int fd, error;
};

static la_ssize_t sink_write(struct archive *a, void *data, const void *buf, size_t len)
{
	struct sink *s = data;
	int r = write_full(s->fd, buf, len);
	if (r < 0) {
		s->error = -r;
		archive_set_error(a, -r, "%s", strerror(-r));
		return -1;
	}
	return (la_ssize_t)len;
}

int tarball_write(int fd, const struct tar_item *items, size_t n, time_t mtime, uint64_t *written, char **error)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	struct sink sink = { .fd = fd };
	int r = 0;

	/* the last block unpadded: what is written is the gzip stream */
	if (archive_write_add_filter_gzip(a) != ARCHIVE_OK || archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open(a, &sink, NULL, sink_write, NULL) != ARCHIVE_OK)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		const struct tar_item *it = &items[i];
		archive_entry_clear(e);
		archive_entry_set_pathname(e, it->path);
		archive_entry_set_mtime(e, mtime, 0);
		switch (it->kind) {
		case TAR_DIR:
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_entry_set_perm(e, 0755);
			break;
		case TAR_SYMLINK:
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_perm(e, 0777);
			archive_entry_set_symlink(e, it->target);
			break;
		case TAR_FILE:
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_perm(e, 0644);
			archive_entry_set_size(e, (la_int64_t)it->len);
			break;
		}
		if (archive_write_header(a, e) < ARCHIVE_WARN)
			goto fail;
		if (it->kind == TAR_FILE && it->len && archive_write_data(a, it->data, it->len) != (la_ssize_t)it->len)
			goto fail;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto fail;
	*written = (uint64_t)archive_filter_bytes(a, -1);
	goto out;
fail:
	r = sink.error ? -sink.error : archive_errno(a) > 0 ? -archive_errno(a) : -EIO;
	*error = xstrdup(sink.error || !archive_error_string(a) ? strerror(-r) : archive_error_string(a));
out:
	archive_entry_free(e);
	archive_write_free(a);
	return r;
}

/* Relative, without ".." components: safe to put under the private directory. */
static bool safe_name(const char *name)
{
	if (!name || !*name || name[0] == '/' || strlen(name) >= PATH_MAX / 2)
		return false;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		while (*p == '/')
			p++;
	}
	return true;
}

struct unpack {
	struct archive *in, *disk;
	const char *dir;
	uint64_t bytes;
	size_t entries;
	char *error;
};

/* Keeps the first message (taken over) of what went wrong. */
static int unpack_fail(struct unpack *u, char *msg)
{
	if (u->error)
		free(msg);
	else
		u->error = msg;
	return -EBADMSG;
}

static char *archive_msg(struct archive *a)
{
	return xstrdup(archive_error_string(a) ?: "unknown error");
}

static int copy_data(struct unpack *u)
{
	const void *buf;
	size_t size;
	la_int64_t offset;
	int r;
	while ((r = archive_read_data_block(u->in, &buf, &size, &offset)) == ARCHIVE_OK) {
		u->bytes += size;
		if (u->bytes > TARBALL_MAX_BYTES)
			return unpack_fail(u, xasprintf("more than %llu MiB of content", TARBALL_MAX_BYTES >> 20));
		if (archive_write_data_block(u->disk, buf, size, offset) < ARCHIVE_WARN)
			return unpack_fail(u, archive_msg(u->disk));
	}
	return r == ARCHIVE_EOF ? 0 : unpack_fail(u, archive_msg(u->in));
}

/* Puts one entry under u->dir; skips kinds a dump has no use for. */
static int unpack_entry(struct unpack *u, struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e), *link = archive_entry_hardlink(e);
	mode_t type = archive_entry_filetype(e);

	if (++u->entries > TARBALL_MAX_ENTRIES)
		return unpack_fail(u, xasprintf("more than %d entries", TARBALL_MAX_ENTRIES));
	if (!safe_name(name))
		return unpack_fail(u, xasprintf("unsafe entry name '%s' (absolute or with ..)", name ?: ""));
	if (link && !safe_name(link))
		return unpack_fail(u, xasprintf("unsafe hard link target '%s'", link));
	if (!link && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return 0;
	if (type == AE_IFREG && archive_entry_size(e) > TARBALL_MAX_FILE_BYTES)
		return unpack_fail(u, xasprintf("entry '%s' holds %lld MiB, more than a file of a dump (%lld MiB)", name,
						(long long)(archive_entry_size(e) >> 20), TARBALL_MAX_FILE_BYTES >> 20));

	_cleanup_free_ char *path = xasprintf("%s/%s", u->dir, name);
	_cleanup_free_ char *target = link ? xasprintf("%s/%s", u->dir, link) : NULL;
	archive_entry_set_pathname(e, path);
	if (target)
		archive_entry_set_hardlink(e, target);
	if (type == AE_IFDIR)
		archive_entry_set_perm(e, 0755);
	else if (type == AE_IFREG)
		archive_entry_set_perm(e, 0644);
	if (archive_write_header(u->disk, e) < ARCHIVE_WARN)
		return unpack_fail(u, archive_msg(u->disk));
	if (type == AE_IFREG && !link && archive_entry_size(e) > 0) {
		int r = copy_data(u);
		if (r < 0)
			return r;
	}
	return archive_write_finish_entry(u->disk) < ARCHIVE_WARN ? unpack_fail(u, archive_msg(u->disk)) : 0;
}

static int unpack_all(const char *archive, const char *dir, char **error)
{
	struct unpack u = { .dir = dir };
	struct archive_entry *e;
	int r = 0;

	u.in = archive_read_new();
	archive_read_support_filter_all(u.in);
	archive_read_support_format_tar(u.in);
	u.disk = archive_write_disk_new();
	/* also refused by us; these catch what a prefix would hide */
	archive_write_disk_set_options(u.disk, ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT);

	if (archive_read_open_filename(u.in, archive, 64 * 1024) != ARCHIVE_OK) {
		r = unpack_fail(&u, xasprintf("not a readable tar archive (%s)", archive_error_string(u.in) ?: "?"));
	} else {
		int h;
		while (r == 0 && (h = archive_read_next_header(u.in, &e)) != ARCHIVE_EOF) {
			if (h < ARCHIVE_WARN)
				r = unpack_fail(&u, xasprintf("not a readable tar archive (%s)", archive_error_string(u.in) ?: "?"));
			else
				r = unpack_entry(&u, e);
		}
	}
	archive_read_free(u.in);
	archive_write_free(u.disk);
	if (r < 0)
		*error = TAKE_PTR(u.error);
	free(u.error);
	return r;
}

/* A dump packed with its own top directory ("NAME/proc/...") has its root there. */
static char *find_root(const char *dir)
{
	_cleanup_free_ char *proc = xasprintf("%s/proc", dir), *sys = xasprintf("%s/sys", dir);
	if (access(proc, F_OK) == 0 || access(sys, F_OK) == 0)
		return xstrdup(dir);
	DIR *d = opendir(dir);
	struct strv names = {0};
	if (d) {
		dir_list_sorted(d, &names);
		closedir(d);
	}
	char *root = NULL;
	struct stat st;
	if (names.n == 1) {
		root = xasprintf("%s/%s", dir, names.v[0]);
		if (lstat(root, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(root);
			root = NULL;
		}
	}
	strv_free(&names);
	return root ? root : xstrdup(dir);
}

int unpacked_root_open(const char *path, struct unpacked_root *u, char **error)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;

	const char *tmpdir = getenv("TMPDIR");
	_cleanup_free_ char *tmpl = xasprintf("%s/ubtune-root-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	defer_termination(u);
	if (!mkdtemp(tmpl)) {
		int r = -errno;
		*error = xasprintf("cannot create a directory to unpack %s into: %s", path, strerror(-r));
		unpacked_root_close(u);
		return r;
	}
	/* no symlink in the prefix, so the secure-symlink check only sees the archive's */
	u->tmp = realpath(tmpl, NULL);
	if (!u->tmp) {
		int r = -errno;
		remove_tree(tmpl);
		*error = xasprintf("%s: %s", tmpl, strerror(-r));
		unpacked_root_close(u);
		return r;
	}
	_cleanup_free_ char *why = NULL;
	int r = unpack_all(path, u->tmp, &why);
	if (r < 0) {
		*error = xasprintf("%s: %s", path, why);
		unpacked_root_close(u);
		return r;
	}
	u->source = realpath(path, NULL) ?: xstrdup(path);
	u->root = find_root(u->tmp);
	return 1;
}

#else /* !HAVE_ARCHIVE */

int tarball_write(int fd _unused_, const struct tar_item *items _unused_, size_t n _unused_, time_t mtime _unused_,
		  uint64_t *written _unused_, char **error)
{
	*error = xstrdup("built without libarchive");
	return -EOPNOTSUPP;
}

int unpacked_root_open(const char *path, struct unpacked_root *u _unused_, char **error)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	*error = xasprintf("%s: reading an archive needs libarchive (this ubtune is built without it); "
			   "unpack it with tar -xzf and pass the directory",
			   path);
	return -EOPNOTSUPP;
}
#endif
