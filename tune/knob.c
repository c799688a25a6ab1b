/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "knob.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "probe/storage.h"
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

int knob_write(struct rootfs *rf, const char *path, const char *value, bool choice)
{
	if (!writable_path(path))
		return -EPERM;
	bool live = rootfs_is_live(rf);
	_cleanup_free_ char *text = NULL;
	if (choice && !live) {
		int r = emulate_choice(rf, path, value, &text);
		if (r < 0)
			return r;
	}
	_cleanup_free_ char *line = xasprintf("%s\n", text ? text : value);
	_cleanup_close_ int fd = rootfs_open(rf, path, O_WRONLY | (live ? 0 : O_TRUNC));
	if (fd < 0)
		return fd;
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

char *knob_host_path(struct rootfs *rf, const char *path)
{
	if (rootfs_is_live(rf))
		return xstrdup(path);
	return xasprintf("%s%s", rootfs_path(rf), path);
}

int knob_mount_type(const char *host_path, char **fstype)
{
	/* The mounts of the running kernel, also with --root: the tmpfs is a
	 * real mount on this machine, below the root directory. */
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

/* Mounts a tmpfs on a directory that is not a symlink: a path in a
 * world-writable place such as /var/tmp could be swapped for one between
 * plan and mount, and mount(2) would follow it. */
static int mount_tmpfs(const char *host, const char *options)
{
	_cleanup_close_ int fd = open(host, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ENOTDIR : -errno;
	_cleanup_free_ char *at = xasprintf("/proc/self/fd/%d", fd);
	_cleanup_free_ char *opts = xasprintf("%s%smode=1777", options ? options : "", options ? "," : "");
	return mount("tmpfs", at, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0 ? -errno : 0;
}

static int set_mount(const char *host, const char *value, const char *options)
{
	_cleanup_free_ char *type = NULL;
	int r = knob_mount_type(host, &type);
	if (r < 0)
		return r;
	if (streq(value, "tmpfs"))
		return type && streq(type, "tmpfs") ? 0 : mount_tmpfs(host, options);
	if (!type || !streq(type, "tmpfs"))
		return 0; /* nothing of ours mounted there (any more) */
	return umount2(host, UMOUNT_NOFOLLOW) < 0 ? -errno : 0;
}

static int set_dir(const char *host, const char *value)
{
	struct stat st;
	if (streq(value, "present")) {
		if (mkdir(host, 0755) < 0) {
			if (errno != EEXIST)
				return -errno;
			/* made meanwhile: fine if it is a real directory, not a link */
			return lstat(host, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -EEXIST;
		}
		/* like /tmp: `ubtune bench` runs as an ordinary user */
		_cleanup_close_ int fd = open(host, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		return fd < 0 || fchmod(fd, 01777) < 0 ? -errno : 0;
	}
	if (rmdir(host) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int knob_get(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, bool choice,
	     char **out)
{
	_cleanup_free_ char *host = NULL;
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
		host = knob_host_path(rf, target);
		if (lstat(host, &st) == 0)
			*out = xstrdup("present");
		else if (errno == ENOENT)
			*out = xstrdup("absent");
		else
			return -errno;
		return 0;
	case ACT_MOUNT: {
		host = knob_host_path(rf, target);
		char *type = NULL;
		r = knob_mount_type(host, &type);
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
	_cleanup_free_ char *host = NULL;

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
		host = knob_host_path(rf, target);
		return set_dir(host, value);
	case ACT_MOUNT:
		host = knob_host_path(rf, target);
		return set_mount(host, value, options);
	}
	return -EINVAL;
}

char *knob_error(struct svc *svc, enum action_kind kind, int r)
{
	const char *said = kind == ACT_SERVICE || kind == ACT_DEFAULT_TARGET ? svc_last_error(svc) : NULL;
	return xstrdup(said ? said : strerror(-r));
}
