/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A dump's proc/ and sys/ before anything reads them. The probe's own
 * reader refuses a FIFO or device file by file, but hwloc reads these
 * trees by itself (HWLOC_FSROOT): it would wait for ever on a FIFO, and it
 * follows symbolic links as the kernel does, so an absolute link, or one
 * that climbs out with "..", has it read this machine's files (/proc/kmsg
 * blocks). A FIFO, socket or device there refuses the dump; a link that
 * leads out keeps hwloc away from it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "lib/rootfs.h"
#include "lib/util.h"
#include "probe/probe.h"

#define DEPTH_MAX 64

struct walk {
	int root;
	struct rootfs *rf;
	const char *root_path;
	bool escapes;
	char *error;
};

static bool special(mode_t mode)
{
	return !S_ISREG(mode) && !S_ISDIR(mode) && !S_ISLNK(mode);
}

/* Where rel leads when followed from the dump as the kernel does. The
 * walk is done here rather than by openat2(RESOLVE_BENEATH), which
 * sandboxes and older kernels refuse. */
static void check_link(struct walk *w, const char *rel)
{
	_cleanup_free_ char *path = xasprintf("/%s", rel), *canon = NULL;
	int r = rootfs_resolve_beneath(w->rf, path, &canon);
	if (r < 0) {
		/* a dangling link or a loop fails for hwloc as well */
		w->escapes |= r == -EXDEV;
		return;
	}
	struct stat st;
	if (fstatat(w->root, canon[1] ? canon + 1 : ".", &st, AT_SYMLINK_NOFOLLOW) == 0 && special(st.st_mode))
		w->error = xasprintf("%s/%s is a symbolic link to %s, not to a regular file", w->root_path, rel,
				     file_kind(st.st_mode));
}

static int walk_dir(struct walk *w, int dfd, const char *rel, unsigned depth);

static int walk_entry(struct walk *w, int dfd, const char *rel, const char *name, unsigned depth)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* gone meanwhile: the readers say so */
	if (special(st.st_mode)) {
		w->error = xasprintf("%s/%s is %s, not a regular file", w->root_path, rel, file_kind(st.st_mode));
		return -EINVAL;
	}
	if (S_ISLNK(st.st_mode)) {
		check_link(w, rel);
		return w->error ? -EINVAL : 0;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (depth >= DEPTH_MAX) {
		w->error = xasprintf("%s/%s: directories nested more than %d deep", w->root_path, rel, DEPTH_MAX);
		return -ELOOP;
	}
	int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return sub < 0 ? 0 : walk_dir(w, sub, rel, depth + 1);
}

/* Walks the directory dfd (taken over), in name order. */
static int walk_dir(struct walk *w, int dfd, const char *rel, unsigned depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0; /* unreadable: the readers say so */
	}
	struct strv names = {0};
	int r = 0;
	(void)dir_list_sorted(d, &names); /* what cannot be listed, the readers report */
	for (size_t i = 0; r == 0 && i < names.n; i++) {
		_cleanup_free_ char *child = xasprintf("%s/%s", rel, names.v[i]);
		r = walk_entry(w, dirfd(d), child, names.v[i], depth);
	}
	strv_free(&names);
	closedir(d);
	return r;
}

int dump_check(const char *root, bool *escapes, char **error)
{
	static const char *const trees[] = { "proc", "sys" };
	struct walk w = { .root_path = root };
	*escapes = false;
	w.root = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.root < 0)
		return -errno;
	int r = rootfs_new(root, &w.rf);
	if (r < 0) {
		close(w.root);
		return r;
	}
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(trees); i++)
		r = walk_entry(&w, w.root, trees[i], trees[i], 0);
	rootfs_free(w.rf);
	close(w.root);
	*escapes = w.escapes;
	if (r < 0)
		*error = w.error;
	return r;
}
