/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Storage of the benchmark directory: the mount that holds it, the block
 * device under that mount down to the physical disks, what backs an overlay
 * or a loop device, and for each disk its kind, scheduler and controller.
 */
#include "storage.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#if HAVE_UDEV
#include <libudev.h>
#endif

/* overlay on loop on ext4 ...: how far "backed by" is followed. */
#define MAX_BACKING 3

/* Mount tables, best first. /proc/1/mountinfo is what some collectors keep. */
static const struct {
	const char *path;
	int (*parse)(const char *text, struct mount_table *t);
} mount_sources[] = {
	{ "/proc/self/mountinfo", mount_table_parse_mountinfo },
	{ "/proc/1/mountinfo", mount_table_parse_mountinfo },
	{ "/proc/mounts", mount_table_parse_mounts },
};

static int load_mounts(struct probe_ctx *ctx, struct mount_table *t)
{
	int first_error = 0;
	for (size_t i = 0; i < ARRAY_SIZE(mount_sources); i++) {
		_cleanup_free_ char *text = NULL;
		int r = rootfs_read(ctx->rf, mount_sources[i].path, &text, NULL);
		if (r == 0)
			r = mount_sources[i].parse(text, t);
		if (r == 0)
			return 0;
		if (!first_error)
			first_error = r;
	}
	probe_unavailable(ctx, "storage", "no mount table (/proc/self/mountinfo, /proc/1/mountinfo, /proc/mounts): %s",
			  strerror(-first_error));
	return first_error;
}

static json_object *mount_object(const struct mount_entry *m)
{
	json_object *o = json_object_new_object();
	jset_str(o, "target", m->target);
	jset_str(o, "source", m->source);
	jset_str(o, "fstype", m->fstype);
	jset_str(o, "options", m->options);
	jset_str(o, "super_options", m->super_options);
	return o;
}

#if HAVE_UDEV
/*
 * The live machine's block device through libudev. libudev resolves the
 * /sys/dev/block link and reads uevent itself: both go into the trace so
 * that a gathered dump holds what the sysfs path below needs.
 */
static int udev_syspath(struct probe_ctx *ctx, unsigned major, unsigned minor, char **out)
{
	struct udev *udev = udev_new();
	if (!udev)
		return -ENOMEM;
	struct udev_device *d = udev_device_new_from_devnum(udev, 'b', makedev(major, minor));
	int r = d ? 0 : (errno ? -errno : -ENODEV);
	if (d) {
		*out = xstrdup(udev_device_get_syspath(d));
		_cleanup_free_ char *link = xasprintf("/sys/dev/block/%u:%u", major, minor);
		_cleanup_free_ char *uevent = xasprintf("%s/uevent", *out);
		rootfs_trace_add(ctx->rf, link, TRACE_LINK);
		rootfs_trace_add(ctx->rf, uevent, TRACE_FILE);
		udev_device_unref(d);
	}
	udev_unref(udev);
	return r;
}
#endif

static int syspath_by_devnum(struct probe_ctx *ctx, unsigned major, unsigned minor, char **out)
{
#if HAVE_UDEV
	if (ctx->live && udev_syspath(ctx, major, minor, out) == 0)
		return 0;
#endif
	_cleanup_free_ char *link = xasprintf("/sys/dev/block/%u:%u", major, minor);
	return blockdev_resolve(ctx, link, out);
}

/* The dm device whose dm/name is name ("/dev/mapper/NAME"). */
static int syspath_by_dm_name(struct probe_ctx *ctx, const char *name, char **out)
{
	struct strv devs = {0};
	int r = rootfs_list(ctx->rf, "/sys/class/block", &devs);
	for (size_t i = 0; r == 0 && i < devs.n; i++) {
		if (!startswith(devs.v[i], "dm-"))
			continue;
		_cleanup_free_ char *p = xasprintf("/sys/class/block/%s/dm/name", devs.v[i]), *v = NULL;
		if (rootfs_read_line(ctx->rf, p, &v) == 0 && streq(v, name)) {
			_cleanup_free_ char *dir = xasprintf("/sys/class/block/%s", devs.v[i]);
			r = blockdev_resolve(ctx, dir, out);
			strv_free(&devs);
			return r;
		}
	}
	strv_free(&devs);
	return -ENODEV;
}

/* "root=/dev/mmcblk0p2" (or PARTUUID=...) of the kernel command line, for /dev/root. */
static char *cmdline_root(struct probe_ctx *ctx)
{
	static const struct {
		const char *tag, *dir;
	} tags[] = {
		{ "PARTUUID=", "/dev/disk/by-partuuid/" }, { "UUID=", "/dev/disk/by-uuid/" },
		{ "PARTLABEL=", "/dev/disk/by-partlabel/" }, { "LABEL=", "/dev/disk/by-label/" },
	};
	_cleanup_free_ char *cmdline = NULL;
	if (rootfs_read_line(ctx->rf, "/proc/cmdline", &cmdline) < 0)
		return NULL;
	for (char *save = NULL, *tok = strtok_r(cmdline, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		const char *v = startswith(tok, "root=");
		if (!v || streq(v, "/dev/root"))
			continue;
		if (v[0] == '/')
			return xstrdup(v);
		for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
			if (startswith(v, tags[i].tag))
				return xasprintf("%s%s", tags[i].dir, v + strlen(tags[i].tag));
	}
	return NULL;
}

/* The block device a mount source such as /dev/sda1 or /dev/mapper/vg-root names. */
static int syspath_by_source(struct probe_ctx *ctx, const char *source, char **out, int depth)
{
	const char *name = startswith(source, "/dev/");
	if (!name || depth > 1)
		return -ENODEV;
	if (streq(source, "/dev/root")) {
		_cleanup_free_ char *root = cmdline_root(ctx);
		return root ? syspath_by_source(ctx, root, out, depth + 1) : -ENODEV;
	}
	/* /dev/disk/by-uuid/..., /dev/mapper/...: links to the device node */
	_cleanup_free_ char *real = NULL;
	if (rootfs_realpath(ctx->rf, source, &real) == 0 && startswith(real, "/dev/"))
		name = real + strlen("/dev/");
	else if (startswith(name, "mapper/"))
		return syspath_by_dm_name(ctx, name + strlen("mapper/"), out);
	if (strchr(name, '/'))
		return -ENODEV;
	_cleanup_free_ char *p = xasprintf("/sys/class/block/%s", name);
	int r = blockdev_resolve(ctx, p, out);
	if (r == 0)
		return 0;
	free(p);
	p = xasprintf("/sys/block/%s", name);
	int r2 = blockdev_resolve(ctx, p, out);
	return r2 == -ENOENT ? r : r2;
}

static json_object *nonblock_object(const char *kind)
{
	static const char *const keys[] = {
		"name", "rotational", "model", "scheduler", "schedulers", "recommended_scheduler", "numa_node",
	};
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		jset_null(o, keys[i]);
	jset_str(o, "kind", kind);
	return o;
}

struct lookup {
	struct probe_ctx *ctx;
	const struct mount_table *mounts;
	/* the live machine's stat() of the workdir */
	bool has_devnum;
	unsigned major, minor;
};

static json_object *device_for_mount(struct lookup *l, const struct mount_entry *m, int depth);

/* {path, mount, device} of the file system holding path (an overlay's upper layer, a loop file). */
static json_object *backing_object(struct lookup *l, const struct mount_entry *over, const char *path, int depth)
{
	const struct mount_entry *m = mount_table_find(l->mounts, path, false, 0, 0);
	json_object *o = json_object_new_object();
	jset_str(o, "path", path);
	/* The same mount again: the path lives in another mount namespace. */
	if (!m || m == over || depth >= MAX_BACKING) {
		jset_null(o, "mount");
		jset_null(o, "device");
		return o;
	}
	jset(o, "mount", mount_object(m));
	jset(o, "device", device_for_mount(l, m, depth + 1));
	return o;
}

static json_object *overlay_object(struct lookup *l, const struct mount_entry *m, int depth)
{
	json_object *o = nonblock_object("overlay");
	const char *opts = m->super_options ? m->super_options : m->options;
	_cleanup_free_ char *dir = mount_option(opts, "upperdir");
	if (!dir && (dir = mount_option(opts, "lowerdir")))
		dir[strcspn(dir, ":")] = '\0';
	if (dir)
		jset(o, "backing", backing_object(l, m, dir, depth));
	else
		jset_null(o, "backing");
	return o;
}

static json_object *block_object(struct lookup *l, const struct mount_entry *m, int depth)
{
	struct probe_ctx *ctx = l->ctx;
	_cleanup_free_ char *syspath = NULL;
	bool has = m->has_devnum && m->major != 0;
	unsigned major = m->major, minor = m->minor;
	int r = -ENODEV;

	/* /proc/mounts has no device numbers: on the live machine stat() does. */
	if (!m->has_devnum && depth == 0 && l->has_devnum && l->major != 0) {
		has = true;
		major = l->major;
		minor = l->minor;
	}
	if (has)
		r = syspath_by_devnum(ctx, major, minor, &syspath);
	if (r < 0) {
		int by_dev = r;
		r = syspath_by_source(ctx, m->source, &syspath, 0);
		if (by_dev == -ENOTDIR && r < 0)
			r = by_dev;
	}
	if (r == -ENOTDIR) {
		probe_unavailable(ctx, "storage", "the sysfs link of %s is a plain file, not a link to the device: "
				  "the dump lost its symlinks", m->source);
		return NULL;
	}
	if (r < 0) {
		if (has)
			probe_unavailable(ctx, "storage", "no block device in sysfs for %u:%u (%s, %s)", major, minor,
					  m->source, m->fstype);
		else if (streq(m->source, "/dev/root"))
			probe_unavailable(ctx, "storage", "/dev/root (%s): no device numbers and no root= on /proc/cmdline "
					  "to say which device it is", m->fstype);
		else
			probe_unavailable(ctx, "storage", "no block device in sysfs for %s (%s)", m->source, m->fstype);
		return NULL;
	}
	json_object *o = blockdev_describe(ctx, syspath);
	if (streq_ptr(jpath_str(o, "kind"), "loop")) {
		_cleanup_free_ char *file = NULL, *p = xasprintf("%s/loop/backing_file", syspath);
		if (rootfs_read_line(ctx->rf, p, &file) == 0 && file[0] == '/')
			jset(o, "backing", backing_object(l, m, file, depth));
	}
	return o;
}

static json_object *device_for_mount(struct lookup *l, const struct mount_entry *m, int depth)
{
	static const struct {
		const char *fstype, *kind;
	} memory_or_remote[] = {
		{ "tmpfs", "tmpfs" }, { "ramfs", "tmpfs" }, { "devtmpfs", "tmpfs" }, { "nfs", "nfs" }, { "nfs4", "nfs" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(memory_or_remote); i++) {
		if (!streq(m->fstype, memory_or_remote[i].fstype))
			continue;
		json_object *o = nonblock_object(memory_or_remote[i].kind);
		if (streq(memory_or_remote[i].kind, "nfs"))
			jset_str(o, "remote", m->source);
		return o;
	}
	if (streq(m->fstype, "overlay"))
		return overlay_object(l, m, depth);
	return block_object(l, m, depth);
}

int storage_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "storage");
	struct mount_table mounts = {0};
	struct lookup l = { .ctx = ctx, .mounts = &mounts };
	struct stat st;

	jset_str(o, "workdir", ctx->workdir);
	jset_null(o, "mount");
	jset_null(o, "device");
	if (load_mounts(ctx, &mounts) < 0)
		return 0;
	if (ctx->live && stat(ctx->workdir, &st) == 0) {
		l.has_devnum = true;
		l.major = major(st.st_dev);
		l.minor = minor(st.st_dev);
	}
	const struct mount_entry *m = mount_table_find(&mounts, ctx->workdir, l.has_devnum, l.major, l.minor);
	if (!m) {
		probe_unavailable(ctx, "storage", "no mount holds %s", ctx->workdir);
	} else {
		jset(o, "mount", mount_object(m));
		jset(o, "device", device_for_mount(&l, m, 0));
	}
	mount_table_free(&mounts);
	return 0;
}

static void render_disk(const struct env_device *disk, void *data)
{
	FILE *out = data;
	struct buf b = {0};
	const char *cur = disk->scheduler, *rec = disk->recommended_scheduler, *note = disk->scheduler_note;

	buf_printf(&b, "%s: scheduler %s", disk->name, cur ? cur : "unknown");
	if (rec && streq_ptr(cur, rec))
		buf_printf(&b, " (recommended for %s%s%s)", blockdev_kind_label(disk), note ? "; " : "",
			   note ? note : "");
	else if (rec)
		buf_printf(&b, " (recommended %s for %s%s%s)", rec, blockdev_kind_label(disk), note ? "; " : "",
			   note ? note : "");
	else if (note)
		buf_printf(&b, " (%s)", note);
	if (disk->rotational.known)
		buf_puts(&b, disk->rotational.v ? " · rotational" : " · not rotational");
	if (disk->read_ahead_kb.known)
		buf_printf(&b, " · read-ahead %lld KiB", (long long)disk->read_ahead_kb.v);
	const char *driver = disk->controller.driver, *where = disk->controller.pci;
	if (driver || where) {
		buf_printf(&b, " · %s%s%s", driver ? driver : "controller", where ? (driver ? " at " : " ") : "",
			   where ? where : "");
		if (disk->numa_node.known)
			buf_printf(&b, ", node %lld", (long long)disk->numa_node.v);
	}
	render_line(out, NULL, "%s", b.s);
	buf_free(&b);
}

/* "on NVMe nvme0n1 "Samsung SSD 970"", "over SSD sda" for what a device stands on. */
static void describe_device(struct buf *b, const struct env_device *dev)
{
	const char *name = dev->name, *model = dev->model, *kind = dev->kind;
	if (streq_ptr(kind, "tmpfs")) {
		buf_puts(b, " in memory");
		return;
	}
	if (streq_ptr(kind, "nfs")) {
		buf_printf(b, " on NFS %s", dev->remote ? dev->remote : "");
		return;
	}
	if (streq_ptr(kind, "overlay")) {
		const char *src = dev->backing.mount.source;
		buf_printf(b, " (overlay, upper layer on %s", src ? src : "an unknown device");
		if (dev->backing.device)
			describe_device(b, dev->backing.device);
		buf_puts(b, ")");
		return;
	}
	if (dev->layer)
		buf_printf(b, " on %s (%s%s%s)", name, dev->layer, dev->layer_type ? " " : "",
			   dev->layer_type ? dev->layer_type : "");
	else
		buf_printf(b, " on %s %s", blockdev_kind_label(dev), name ? name : "?");
	if (model)
		buf_printf(b, " \"%s\"", model);
	for (size_t i = 0; i < dev->slaves.n; i++) {
		const struct env_device *s = &dev->slaves.v[i];
		buf_printf(b, "%s %s %s", i ? "," : " over", blockdev_kind_label(s), s->name);
	}
	if (dev->backing.device) {
		buf_printf(b, ", backed by %s", dev->backing.path);
		describe_device(b, dev->backing.device);
	}
}

void storage_render(const struct env_record *env, FILE *out)
{
	const struct env_storage *st = &env->storage;
	struct buf b = {0};
	buf_printf(&b, "workdir %s", st->workdir);
	if (st->mount.json) {
		const char *fstype = st->mount.fstype, *source = st->mount.source;
		buf_printf(&b, " → %s", source ? source : "?");
		if (fstype && !streq_ptr(fstype, source))
			buf_printf(&b, " %s", fstype);
		buf_printf(&b, " (%s)", st->mount.options);
	} else {
		buf_puts(&b, " (mount unknown)");
	}
	if (st->device)
		describe_device(&b, st->device);
	render_line(out, "Storage", "%s", b.s);
	buf_free(&b);
	storage_foreach_device(env, render_disk, out);
}
