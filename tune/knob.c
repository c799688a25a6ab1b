/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "knob.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "lib/mounts.h"
#include "tune/services.h"

#define MOUNTINFO_MAX (16u << 20)

int knob_read(struct rootfs *rf, const char *path, bool choice, char **out)
{
	if (!choice)
		return rootfs_read_line(rf, path, out);
	struct strv all = {0};
	char *cur = NULL;
	int r = rootfs_read_choice(rf, path, &cur, &all);
	strv_free(&all);
	if (r < 0)
		return r;
	if (!cur)
		return -EBADMSG;
	*out = cur;
	return 0;
}

bool knob_value_equal(const char *a, const char *b)
{
	_cleanup_free_ char *x = strsqueeze(xstrdup(a));
	_cleanup_free_ char *y = strsqueeze(xstrdup(b));
	return streq(x, y);
}

bool knob_same(enum action_kind kind, const char *now, const char *value)
{
	switch (kind) {
	case ACT_SERVICE:
		return svc_state_running(now) == svc_state_running(value);
	case ACT_MOUNT:
		return streq(now, "tmpfs") == streq(value, "tmpfs");
	default:
		return knob_value_equal(now, value);
	}
}

static bool writable_path(const char *path)
{
	static const char *const allowed[] = { "/sys/", "/proc/sys/", "/proc/irq/" };
	if (strstr(path, "/../") || strstr(path, "/./"))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++)
		if (startswith(path, allowed[i]))
			return true;
	return false;
}

/* A dump's choice list after the kernel accepted `value`. */
static int emulate_choice(struct rootfs *rf, const char *path, const char *value, char **out)
{
	_cleanup_free_ char *line = NULL;
	int r = rootfs_read_line(rf, path, &line);
	if (r < 0)
		return r;
	struct buf b = {0};
	bool found = false;
	for (char *save = NULL, *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(t);
		if (t[0] == '[' && n > 2 && t[n - 1] == ']') {
			t[n - 1] = '\0';
			t++;
		}
		bool mark = streq(t, value);
		found |= mark;
		buf_printf(&b, "%s%s%s%s", b.len ? " " : "", mark ? "[" : "", t, mark ? "]" : "");
	}
	if (!found) {
		buf_free(&b);
		return -EINVAL; /* what the kernel answers */
	}
	*out = buf_steal(&b);
	return 0;
}

/* sysfs and procfs take a value in one write(2), the way `echo` gives it. */
static bool kernel_fs(int dfd)
{
	struct statfs sf;
	return fstatfs(dfd, &sf) == 0 && (sf.f_type == SYSFS_MAGIC || sf.f_type == PROC_SUPER_MAGIC);
}

static int write_once(int dfd, const char *name, const char *line)
{
	_cleanup_close_ int fd = openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(line);
	ssize_t n = write(fd, line, len);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	int r = close(fd);
	fd = -1;
	return r < 0 ? -errno : 0;
}

char *knob_temp_name(const char *name)
{
	return xasprintf(".%s" KNOB_TEMP_SUFFIX, name);
}

/*
 * A regular file (a dump's copy of a kernel file) gets its new content in
 * a temporary beside it that is renamed over it: a kill at any point
 * leaves the old or the new value, never an empty or half-written file.
 * The temporary's name is fixed (one apply or revert at a time holds the
 * journal's lock), so that what a kill leaves is found and removed.
 */
static int replace_file(int dfd, const char *name, const struct stat *st, const char *text)
{
	/* refused where `echo > FILE` would be (read-only, not ours) */
	int fd = openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	_cleanup_free_ char *tmp = knob_temp_name(name);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && unlinkat(dfd, tmp, 0) == 0)
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int r = write_full(fd, text, strlen(text));
	if (r == 0 && fchmod(fd, st->st_mode & 07777) < 0)
		r = -errno;
	if (r == 0 && geteuid() == 0 && fchown(fd, st->st_uid, st->st_gid) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	return r;
}

int knob_write(struct rootfs *rf, const char *path, const char *value, bool choice)
{
	if (!writable_path(path))
		return -EPERM;
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dfd = rootfs_open_parent(rf, path, true, &name);
	if (dfd < 0)
		return dfd;
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (kernel_fs(dfd)) {
		_cleanup_free_ char *line = xasprintf("%s\n", value);
		return write_once(dfd, name, line);
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	/* a copy shows what the kernel would after the write */
	_cleanup_free_ char *text = NULL;
	if (choice) {
		int r = emulate_choice(rf, path, value, &text);
		if (r < 0)
			return r;
	}
	_cleanup_free_ char *line = xasprintf("%s\n", text ? text : value);
	return replace_file(dfd, name, &st, line);
}

int knob_clean(struct rootfs *rf, const char *path)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dfd = rootfs_open_parent(rf, path, true, &name);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	_cleanup_free_ char *tmp = knob_temp_name(name);
	return unlinkat(dfd, tmp, 0) < 0 && errno != ENOENT ? -errno : 0;
}

/*
 * Mounts under --root: the tmpfs workdir of a dump is planned and
 * journaled, never mounted (a mount below DIR would be one on this
 * machine). Tests of the mount code set UBTUNE_TEST_ROOT_MOUNTS to the
 * inode of the mount namespace they must leave alone (stat -Lc %i
 * /proc/self/ns/mnt before unshare -m): it counts only in another one.
 */
static bool mounts(struct rootfs *rf)
{
	if (rootfs_is_live(rf))
		return true;
	const char *outer = getenv("UBTUNE_TEST_ROOT_MOUNTS");
	uint64_t ino;
	struct stat st;
	return outer && parse_u64(outer, &ino) == 0 && stat("/proc/self/ns/mnt", &st) == 0 && st.st_ino != ino;
}

bool knob_carried_out(struct rootfs *rf, struct svc *svc, enum action_kind kind)
{
	switch (kind) {
	case ACT_MOUNT:
		return mounts(rf);
	case ACT_SERVICE:
	case ACT_DEFAULT_TARGET:
		return rootfs_is_live(rf) || !svc || !svc_runs_scripts(svc);
	default:
		return true;
	}
}

/* The file system type mounted exactly at a host path; NULL when none. */
static int mount_type_at(const char *host_path, char **fstype)
{
	_cleanup_free_ char *text = NULL;
	*fstype = NULL;
	int r = read_file("/proc/self/mountinfo", MOUNTINFO_MAX, &text, NULL);
	if (r < 0)
		return r;
	struct mount_table t;
	if (mount_table_parse_mountinfo(text, &t) < 0)
		return 0;
	/* the last mount on a path is the visible one */
	for (size_t i = t.n; i-- > 0 && !*fstype;)
		if (streq(t.v[i].target, host_path))
			*fstype = xstrdup(t.v[i].fstype);
	mount_table_free(&t);
	return 0;
}

/* Where a directory of the root is on this machine: its path opened
 * inside the root (fd, for mount(2)) and the path the kernel gives it. */
static int host_dir(struct rootfs *rf, const char *path, int *fd, char **host)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int pfd = rootfs_open_parent(rf, path, false, &name);
	if (pfd < 0)
		return pfd;
	*fd = openat(pfd, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ENOTDIR : -errno;
	_cleanup_free_ char *proc = xasprintf("/proc/self/fd/%d", *fd);
	int r = readlink_host(proc, host);
	if (r < 0) {
		close(*fd);
		*fd = -1;
	}
	return r;
}

int knob_mount_type(struct rootfs *rf, const char *path, char **fstype)
{
	*fstype = NULL;
	if (!mounts(rf)) {
		/* what the dump's machine had mounted there */
		_cleanup_free_ char *text = NULL;
		struct mount_table t;
		if (rootfs_read(rf, "/proc/self/mountinfo", &text, NULL) < 0 ||
		    mount_table_parse_mountinfo(text, &t) < 0)
			return 0;
		for (size_t i = t.n; i-- > 0 && !*fstype;)
			if (streq(t.v[i].target, path))
				*fstype = xstrdup(t.v[i].fstype);
		mount_table_free(&t);
		return 0;
	}
	if (rootfs_is_live(rf))
		return mount_type_at(path, fstype);
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *host = NULL;
	int r = host_dir(rf, path, &fd, &host);
	if (r == -ENOENT)
		return 0;
	return r < 0 ? r : mount_type_at(host, fstype);
}

/* Mounts a tmpfs on a directory that is not a symlink: a path in a
 * world-writable place such as /var/tmp could be swapped for one between
 * plan and mount, and mount(2) would follow it. */
static int mount_tmpfs(int fd, const char *options)
{
	_cleanup_free_ char *at = xasprintf("/proc/self/fd/%d", fd);
	_cleanup_free_ char *opts = xasprintf("%s%smode=1777", options ? options : "", options ? "," : "");
	return mount("tmpfs", at, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0 ? -errno : 0;
}

static int set_mount(struct rootfs *rf, const char *path, const char *value, const char *options)
{
	if (!mounts(rf))
		return -EPERM;
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *host = NULL, *type = NULL;
	int r = host_dir(rf, path, &fd, &host);
	if (r < 0)
		return r == -ENOENT && !streq(value, "tmpfs") ? 0 : r;
	if ((r = mount_type_at(host, &type)) < 0)
		return r;
	if (streq(value, "tmpfs"))
		return type && streq(type, "tmpfs") ? 0 : mount_tmpfs(fd, options);
	if (!type || !streq(type, "tmpfs"))
		return 0; /* nothing of ours mounted there (any more) */
	/* the descriptor holds the mount busy */
	close(fd);
	fd = -1;
	return umount2(host, UMOUNT_NOFOLLOW) < 0 ? -errno : 0;
}

static int set_dir(struct rootfs *rf, const char *path, const char *value)
{
	struct stat st;
	if (streq(value, "present")) {
		int r = rootfs_mkdir(rf, path, 0755);
		if (r == -EEXIST)
			/* made meanwhile: fine if it is a real directory, not a link */
			return rootfs_lstat(rf, path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -EEXIST;
		if (r < 0)
			return r;
		/* like /tmp: `ubtune bench` runs as an ordinary user */
		_cleanup_close_ int fd = rootfs_open_dir(rf, path);
		if (fd < 0)
			return fd;
		return fchmod(fd, 01777) < 0 ? -errno : 0;
	}
	int r = rootfs_rmdir(rf, path);
	return r == -ENOENT ? 0 : r;
}

int knob_get(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, bool choice,
	     char **out)
{
	struct stat st;
	int r;

	switch (kind) {
	case ACT_FILE:
		return knob_read(rf, target, choice, out);
	case ACT_SERVICE:
		if (!svc)
			return -EOPNOTSUPP;
		return svc_active_state(svc, target, out);
	case ACT_DEFAULT_TARGET:
		if (!svc)
			return -EOPNOTSUPP;
		return svc_default_target(svc, out);
	case ACT_MKDIR:
		r = rootfs_lstat(rf, target, &st);
		if (r < 0 && r != -ENOENT)
			return r;
		*out = xstrdup(r == 0 ? "present" : "absent");
		return 0;
	case ACT_MOUNT: {
		char *type = NULL;
		r = knob_mount_type(rf, target, &type);
		if (r < 0)
			return r;
		*out = type ? type : xstrdup("none");
		return 0;
	}
	}
	return -EINVAL;
}

int knob_set(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, const char *value,
	     const char *options, bool choice)
{
	if (!knob_carried_out(rf, svc, kind))
		return -EPERM;
	switch (kind) {
	case ACT_FILE:
		return knob_write(rf, target, value, choice);
	case ACT_SERVICE:
		if (!svc)
			return -EOPNOTSUPP;
		return streq(value, "active") ? svc_start(svc, target) : svc_stop(svc, target);
	case ACT_DEFAULT_TARGET:
		if (!svc)
			return -EOPNOTSUPP;
		return svc_set_default_target(svc, value);
	case ACT_MKDIR:
		return set_dir(rf, target, value);
	case ACT_MOUNT:
		return set_mount(rf, target, value, options);
	}
	return -EINVAL;
}

char *knob_error(struct svc *svc, enum action_kind kind, int r)
{
	const char *said = kind == ACT_SERVICE || kind == ACT_DEFAULT_TARGET ? svc_last_error(svc) : NULL;
	return xstrdup(said ? said : strerror(-r));
}
