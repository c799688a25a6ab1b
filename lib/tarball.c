/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tarball.h"

#include <errno.h>
#include <fcntl.h>
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

char *unpacked_root_message(const struct unpacked_root *u, char *msg)
{
	const char *dir = u->tmp;
	if (!msg || !dir || !*dir)
		return msg;
	struct buf b = {0};
	size_t n = strlen(dir);
	for (const char *p = msg, *at; *p; p = at + n) {
		at = strstr(p, dir);
		if (!at) {
			buf_puts(&b, p);
			break;
		}
		buf_printf(&b, "%.*s%s", (int)(at - p), p, u->source ?: "the archive");
		/* the archive's own paths go on after its name: "a.tar.gz:/proc" */
		if (at[n] == '/')
			buf_puts(&b, ":");
	}
	free(msg);
	return b.s ?: xstrdup("");
}

#if HAVE_ARCHIVE
#include <archive.h>
#include <archive_entry.h>

static const int termination_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void defer_termination(struct unpacked_root *u)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(termination_signals); i++)
		sigaddset(&set, termination_signals[i]);
	u->deferring = sigprocmask(SIG_BLOCK, &set, &u->saved_mask) == 0;
}

/* While the archive is unpacked a termination signal is caught, not held:
 * it stops the unpacking at once, even a read waiting on a pipe. */
static volatile sig_atomic_t unpack_signal;

static void on_termination(int sig)
{
	unpack_signal = sig;
}

static void catch_termination(struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_termination }; /* no SA_RESTART: a read returns EINTR */
	sigemptyset(&sa.sa_mask);
	unpack_signal = 0;
	for (size_t i = 0; i < ARRAY_SIZE(termination_signals); i++) {
		sigaction(termination_signals[i], NULL, &old[i]);
		/* what the command ignores stays ignored */
		if (old[i].sa_handler != SIG_IGN)
			sigaction(termination_signals[i], &sa, NULL);
	}
}

static void restore_termination(const struct sigaction *old)
{
	for (size_t i = 0; i < ARRAY_SIZE(termination_signals); i++)
		sigaction(termination_signals[i], &old[i], NULL);
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
	size_t entries, kept;
	int fd; /* the archive */
	char buf[64 * 1024];
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

/* A termination signal stops the unpacking: the tree is removed, then the
 * signal delivered. */
static int check_signals(struct unpack *u)
{
	if (!unpack_signal)
		return 0;
	unpack_fail(u, xasprintf("interrupted by SIG%s", sigabbrev_np(unpack_signal) ?: "?"));
	return -EINTR;
}

/* libarchive's own readers go on reading after EINTR: this one stops. */
static la_ssize_t source_read(struct archive *a, void *data, const void **buf)
{
	struct unpack *u = data;
	for (;;) {
		ssize_t n = read(u->fd, u->buf, sizeof(u->buf));
		if (n >= 0) {
			*buf = u->buf;
			return n;
		}
		if (errno == EINTR && !unpack_signal)
			continue;
		archive_set_error(a, errno, "%s", unpack_signal ? "interrupted" : strerror(errno));
		return -1;
	}
}

/* Directories a name goes through: "a/b/c" 2. */
static size_t name_depth(const char *name)
{
	size_t n = 0;
	for (const char *p = name; (p = strchr(p, '/')); p++)
		n += p[1] && p[1] != '/';
	return n;
}

static int copy_data(struct unpack *u)
{
	const void *buf;
	size_t size;
	la_int64_t offset;
	int r;
	while ((r = archive_read_data_block(u->in, &buf, &size, &offset)) == ARCHIVE_OK) {
		int s = check_signals(u);
		if (s < 0)
			return s;
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

	int s = check_signals(u);
	if (s < 0)
		return s;
	if (++u->entries > TARBALL_MAX_ENTRIES)
		return unpack_fail(u, xasprintf("more than %d entries", TARBALL_MAX_ENTRIES));
	if (!safe_name(name))
		return unpack_fail(u, xasprintf("unsafe entry name '%s' (absolute or with ..)", name ?: ""));
	if (link && !safe_name(link))
		return unpack_fail(u, xasprintf("unsafe hard link target '%s'", link));
	if (name_depth(name) > TARBALL_MAX_DEPTH)
		return unpack_fail(u, xasprintf("entry '%.60s...' lies %zu directories deep, more than a dump's (%d)",
						name, name_depth(name), TARBALL_MAX_DEPTH));
	if (!link && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return 0;
	u->kept++;
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

/* Unpacks the archive (NULL: standard input) into dir. */
static int unpack_all(const char *archive, const char *dir, char **error)
{
	struct unpack *u = xcalloc(1, sizeof(*u));
	struct archive_entry *e;
	int r = 0;

	u->dir = dir;
	u->fd = archive ? open(archive, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	u->in = archive_read_new();
	archive_read_support_filter_all(u->in);
	archive_read_support_format_tar(u->in);
	u->disk = archive_write_disk_new();
	/* also refused by us; these catch what a prefix would hide */
	archive_write_disk_set_options(u->disk, ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT);

	if (u->fd < 0) {
		r = unpack_fail(u, xasprintf("cannot open it: %s", strerror(errno)));
	} else if (archive_read_open(u->in, u, NULL, source_read, NULL) != ARCHIVE_OK) {
		r = check_signals(u) ?: unpack_fail(u, xasprintf("not a readable tar archive (%s)",
								     archive_error_string(u->in) ?: "?"));
	} else {
		int h;
		while (r == 0 && (h = archive_read_next_header(u->in, &e)) != ARCHIVE_EOF) {
			if (h < ARCHIVE_WARN)
				r = check_signals(u) ?: unpack_fail(u, xasprintf("not a readable tar archive (%s)",
										     archive_error_string(u->in) ?: "?"));
			else
				r = unpack_entry(u, e);
		}
	}
	if (r == 0 && !u->kept)
		r = unpack_fail(u, u->entries ? xasprintf("none of its %zu entries is a file, directory or symlink (devices, "
							  "FIFOs and sockets are left out): no dump in it", u->entries)
					      : xstrdup("an empty archive: no dump in it"));
	archive_read_free(u->in);
	archive_write_free(u->disk);
	if (archive && u->fd >= 0)
		close(u->fd);
	if (r < 0)
		*error = TAKE_PTR(u->error);
	free(u->error);
	free(u);
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
	bool input = streq_ptr(path, "-");
	if (input && isatty(STDIN_FILENO)) {
		*error = xstrdup("--root -: standard input is a terminal; pipe an archive from `ubtune gather` into it");
		return -EINVAL;
	}
	if (!input && (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode)))
		return 0;
	const char *name = input ? "standard input" : path;

	const char *tmpdir = getenv("TMPDIR");
	_cleanup_free_ char *tmpl = xasprintf("%s/ubtune-root-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	struct sigaction old[ARRAY_SIZE(termination_signals)];
	catch_termination(old);
	_cleanup_free_ char *why = NULL;
	int r = 0;
	if (!mkdtemp(tmpl)) {
		r = -errno;
		why = xasprintf("cannot create a directory to unpack it into: %s", strerror(-r));
	} else if (!(u->tmp = realpath(tmpl, NULL))) {
		/* no symlink in the prefix, so the secure-symlink check only sees the archive's */
		r = -errno;
		why = xasprintf("%s: %s", tmpl, strerror(-r));
		remove_tree(tmpl);
	} else {
		r = unpack_all(input ? NULL : path, u->tmp, &why);
	}
	/* from here until unpacked_root_close(), termination signals are held */
	defer_termination(u);
	restore_termination(old);
	int sig = unpack_signal;
	if (r < 0 || sig) {
		*error = xasprintf("%s: %s", name, why ?: "interrupted");
		unpacked_root_close(u);
		/* the tree is gone: the signal has its way now */
		if (sig)
			raise(sig);
		return r < 0 ? r : -EINTR;
	}
	u->source = input ? xstrdup("standard input") : realpath(path, NULL) ?: xstrdup(path);
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
	bool input = streq_ptr(path, "-");
	if (!input && (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode)))
		return 0;
	*error = xasprintf("%s: reading an archive needs libarchive (this ubtune is built without it); "
			   "unpack it with tar -xzf and pass the directory",
			   input ? "standard input" : path);
	return -EOPNOTSUPP;
}
#endif
