/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Block devices in sysfs: a partition leads to its disk, a dm/md/bcache
 * device through slaves/ to the physical disks, and a physical disk up its
 * sysfs path to the controller (PCI function or platform device) with its
 * driver and NUMA node.
 */
#include "storage.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>

/* Stacks deeper than this (dm on md on dm ...) are not followed further. */
#define MAX_STACK 8

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* "usb3", "ata1", "virtio2": prefix followed by one or more digits. */
static size_t hex_run(const char *s)
{
	size_t n = 0;
	while (isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* A PCI function address: "0000:00:1f.2", or with a wider domain "10000:00:04.0". */
static bool is_pci_address(const char *c)
{
	size_t n = hex_run(c);
	if (n < 4 || c[n] != ':')
		return false;
	c += n + 1;
	if (hex_run(c) != 2 || c[2] != ':')
		return false;
	c += 3;
	return hex_run(c) == 2 && c[2] == '.' && c[3] >= '0' && c[3] <= '7' && c[4] == '\0';
}

static bool has_numbered_component(const char *path, const char *prefix)
{
	struct strv comps = {0};
	bool found = false;
	strv_split(path, "/", &comps);
	for (size_t i = 0; i < comps.n && !found; i++)
		found = str_numbered(comps.v[i], prefix);
	strv_free(&comps);
	return found;
}

const char *blockdev_kind(const char *name, const char *syspath, int rotational)
{
	static const struct {
		const char *prefix, *kind;
	} by_name[] = {
		{ "nvme", "nvme" }, { "mmcblk", "mmc" }, { "zram", "zram" }, { "ram", "ram" }, { "loop", "loop" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(by_name); i++)
		if (startswith(name, by_name[i].prefix))
			return by_name[i].kind;
	if (syspath && has_numbered_component(syspath, "usb"))
		return "usb";
	/* virtio disks report rotational 1 whatever backs them: not an HDD. */
	if (syspath && has_numbered_component(syspath, "virtio"))
		return "virtio";
	if (rotational == 1)
		return "hdd";
	if (rotational == 0)
		return "ssd";
	return "unknown";
}

#define NO_QUEUE { "none", "noop" }
#define SLOW_MEDIUM { "bfq", "cfq", "mq-deadline", "deadline", "none", "noop" }
/* Best first; the first is the recommendation, the rest are what comes
 * closest when it is not offered (single-queue kernels: noop, deadline, cfq). */
static const struct {
	const char *kind;
	const char *prefs[7];
} recommendations[] = {
	{ "nvme", NO_QUEUE },
	{ "virtio", NO_QUEUE },
	{ "zram", NO_QUEUE },
	{ "ram", NO_QUEUE },
	{ "loop", NO_QUEUE },
	{ "ssd", { "mq-deadline", "deadline", "none", "noop" } },
	{ "hdd", SLOW_MEDIUM },
	{ "mmc", SLOW_MEDIUM },
	{ "usb", SLOW_MEDIUM },
};

const char *blockdev_recommend(const char *kind, const struct strv *offered, char **note)
{
	*note = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(recommendations); i++) {
		if (!streq_ptr(recommendations[i].kind, kind))
			continue;
		const char *const *prefs = recommendations[i].prefs;
		for (size_t k = 0; prefs[k]; k++) {
			if (!strv_contains(offered, prefs[k]))
				continue;
			if (k > 0)
				*note = xasprintf("%s is not offered by this device", prefs[0]);
			return prefs[k];
		}
		*note = xasprintf("%s is not offered by this device", prefs[0]);
		return NULL;
	}
	return NULL;
}

const char *blockdev_kind_label(const struct env_device *dev)
{
	return blockdev_label(dev->kind, dev->mmc_type);
}

const char *blockdev_label(const char *kind, const char *mmc_type)
{
	static const struct {
		const char *kind, *label;
	} labels[] = {
		{ "nvme", "NVMe" }, { "ssd", "SSD" }, { "hdd", "HDD" }, { "usb", "USB disk" },
		{ "virtio", "virtio disk" }, { "loop", "loop device" }, { "zram", "zram" }, { "ram", "RAM disk" },
		{ "tmpfs", "memory" }, { "nfs", "NFS" }, { "overlay", "overlay" },
	};
	if (streq_ptr(kind, "mmc")) {
		const char *t = mmc_type;
		return streq_ptr(t, "sd") ? "SD card" : streq_ptr(t, "emmc") ? "eMMC" : "MMC";
	}
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		if (streq_ptr(kind, labels[i].kind))
			return labels[i].label;
	return "disk";
}

/* A sysfs attribute of dir as a string (runs of white space squeezed), or NULL. */
static char *attr(struct probe_ctx *ctx, const char *dir, const char *name)
{
	char *s = rootfs_read_attr(ctx->rf, dir, name);
	return s ? strsqueeze(s) : NULL;
}

static void set_attr(struct probe_ctx *ctx, json_object *o, const char *key, const char *dir, const char *name)
{
	_cleanup_free_ char *v = attr(ctx, dir, name);
	jset_str(o, key, v);
}

/* 0/1 attribute: -1 when it cannot be read or holds anything else. */
static int attr_flag(struct probe_ctx *ctx, const char *dir, const char *name)
{
	_cleanup_free_ char *v = attr(ctx, dir, name);
	return streq_ptr(v, "0") ? 0 : streq_ptr(v, "1") ? 1 : -1;
}

static void set_flag(json_object *o, const char *key, int v)
{
	if (v < 0)
		jset_null(o, key);
	else
		jset_bool(o, key, v);
}

static void set_attr_int(struct probe_ctx *ctx, json_object *o, const char *key, const char *dir, const char *name)
{
	_cleanup_free_ char *v = attr(ctx, dir, name);
	int64_t n;
	if (v && parse_s64(v, &n) == 0)
		jset_int(o, key, n);
	else
		jset_null(o, key);
}

static bool attr_exists(struct probe_ctx *ctx, const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	return rootfs_exists(ctx->rf, path) == 0;
}

int blockdev_resolve(struct probe_ctx *ctx, const char *link, char **dir)
{
	_cleanup_free_ char *real = NULL;
	struct stat st;
	int r = rootfs_realpath(ctx->rf, link, &real);
	if (r < 0)
		return r;
	if (rootfs_stat(ctx->rf, real, &st) < 0 || !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*dir = TAKE_PTR(real);
	return 0;
}

/* The whole disk of a partition (its parent directory), else dir itself. */
static char *whole_disk(struct probe_ctx *ctx, const char *dir)
{
	if (!attr_exists(ctx, dir, "partition"))
		return xstrdup(dir);
	return xstrndup(dir, (size_t)(strrchr(dir, '/') - dir));
}

/*
 * The device that drives the disk: the nearest PCI function above it, else
 * the platform device just above the host adapter (mmc_host, usbN, ataN,
 * hostN, virtioN). NULL for virtual devices.
 */
static char *controller_path(const char *disk, bool *pci)
{
	struct strv c = {0};
	ssize_t at = -1;
	strv_split(disk, "/", &c);
	*pci = false;
	for (size_t i = 0; i < c.n; i++)
		if (is_pci_address(c.v[i])) {
			at = (ssize_t)i;
			*pci = true;
		}
	for (size_t i = 3; at < 0 && i < c.n; i++)
		if (streq(c.v[i], "mmc_host") || str_numbered(c.v[i], "usb") || str_numbered(c.v[i], "ata") ||
		    str_numbered(c.v[i], "host") || str_numbered(c.v[i], "virtio"))
			at = (ssize_t)i - 1;
	/* /sys/devices/platform/X/...: X at index 3 at the least */
	if (at < 3 || !streq(c.v[0], "sys") || !streq(c.v[1], "devices")) {
		strv_free(&c);
		return NULL;
	}
	struct buf b = {0};
	for (ssize_t i = 0; i <= at; i++)
		buf_printf(&b, "/%s", c.v[i]);
	strv_free(&c);
	return buf_steal(&b);
}

/* controller {pci, driver, path}; *node = its NUMA node or -1. */
static json_object *controller_object(struct probe_ctx *ctx, const char *disk, int64_t *node)
{
	bool pci;
	_cleanup_free_ char *path = controller_path(disk, &pci);
	*node = -1;
	if (!path)
		return NULL;
	json_object *o = json_object_new_object();
	jset_str(o, "pci", pci ? base_name(path) : NULL);
	_cleanup_free_ char *link = xasprintf("%s/driver", path), *driver = NULL;
	rootfs_readlink_base(ctx->rf, link, &driver);
	jset_str(o, "driver", driver);
	jset_str(o, "path", path);
	if (pci) {
		_cleanup_free_ char *v = attr(ctx, path, "numa_node");
		if (!v || parse_s64(v, node) < 0)
			*node = -1;
	}
	return o;
}

static void set_scheduler(struct probe_ctx *ctx, json_object *o, const char *disk, const char *kind)
{
	_cleanup_free_ char *path = xasprintf("%s/queue/scheduler", disk), *cur = NULL, *note = NULL;
	struct strv all = {0};
	if (rootfs_read_choice(ctx->rf, path, &cur, &all) < 0) {
		jset_null(o, "scheduler");
		jset_null(o, "schedulers");
		jset_null(o, "recommended_scheduler");
		jset_null(o, "scheduler_note");
		return;
	}
	/* A queue without a choice prints its only scheduler without brackets. */
	if (!cur && all.n == 1)
		cur = xstrdup(all.v[0]);
	jset_str(o, "scheduler", cur);
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < all.n; i++)
		jarr_add_str(list, all.v[i]);
	jset(o, "schedulers", list);
	jset_str(o, "recommended_scheduler", blockdev_recommend(kind, &all, &note));
	jset_str(o, "scheduler_note", note);
	strv_free(&all);
}

static void set_mmc_type(struct probe_ctx *ctx, json_object *o, const char *disk)
{
	_cleanup_free_ char *t = attr(ctx, disk, "device/type");
	char *lower = xstrdup_or_null(t);
	for (char *p = lower; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	jset_str(o, "mmc_type", streq_ptr(t, "SD") ? "sd" : streq_ptr(t, "MMC") ? "emmc" : lower);
	free(lower);
}

/* What one physical disk is; disk is its canonical sysfs directory. */
static json_object *disk_object(struct probe_ctx *ctx, const char *disk)
{
	json_object *o = json_object_new_object();
	const char *name = base_name(disk);
	int rot = attr_flag(ctx, disk, "queue/rotational");
	const char *kind = blockdev_kind(name, disk, rot);
	int64_t node;

	jset_str(o, "name", name);
	jset_str(o, "kind", kind);
	if (streq(kind, "mmc"))
		set_mmc_type(ctx, o, disk);
	set_flag(o, "rotational", rot);
	set_flag(o, "removable", attr_flag(ctx, disk, "removable"));
	set_attr(ctx, o, "model", disk, streq(kind, "mmc") ? "device/name" : "device/model");
	set_scheduler(ctx, o, disk, kind);
	set_attr_int(ctx, o, "read_ahead_kb", disk, "queue/read_ahead_kb");
	jset(o, "controller", controller_object(ctx, disk, &node));
	if (node >= 0)
		jset_int(o, "numa_node", node);
	else
		jset_null(o, "numa_node");
	jset_str(o, "syspath", disk);
	return o;
}

static bool has_disk(json_object *list, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(list); i++)
		if (streq_ptr(jpath_str(json_object_array_get_idx(list, i), "name"), name))
			return true;
	return false;
}

/*
 * Adds the physical disks under disk (itself when it has no slaves) to list.
 * seen holds the devices already visited: a hostile dump may loop.
 */
static void add_physical(struct probe_ctx *ctx, const char *disk, json_object *list, struct strv *seen, int depth)
{
	_cleanup_free_ char *dir = xasprintf("%s/slaves", disk);
	struct strv slaves = {0};
	if (strv_contains(seen, disk))
		return;
	strv_push(seen, disk);
	if (depth >= MAX_STACK || rootfs_list(ctx->rf, dir, &slaves) < 0 || slaves.n == 0) {
		if (!has_disk(list, base_name(disk)))
			json_object_array_add(list, disk_object(ctx, disk));
		strv_free(&slaves);
		return;
	}
	for (size_t i = 0; i < slaves.n; i++) {
		_cleanup_free_ char *link = xasprintf("%s/%s", dir, slaves.v[i]), *real = NULL;
		if (blockdev_resolve(ctx, link, &real) < 0)
			continue;
		_cleanup_free_ char *whole = whole_disk(ctx, real);
		add_physical(ctx, whole, list, seen, depth + 1);
	}
	strv_free(&slaves);
}

/* The value every slave has for key, else NULL. */
static json_object *common_value(json_object *slaves, const char *key)
{
	json_object *first = NULL;
	for (size_t i = 0; i < json_object_array_length(slaves); i++) {
		json_object *v = jpath(json_object_array_get_idx(slaves, i), key);
		if (i == 0)
			first = v;
		else if (!v || !first || !json_object_equal(v, first))
			return NULL;
	}
	return first ? json_object_get(first) : NULL;
}

/* dm, md, bcache: which layer and what it is ("crypt", "raid1", ...). */
static void set_layer(struct probe_ctx *ctx, json_object *o, const char *disk)
{
	static const struct {
		const char *prefix, *target;
	} dm_targets[] = {
		{ "CRYPT-", "crypt" }, { "LVM-", "lvm" }, { "mpath-", "multipath" }, { "part", "partition" },
	};
	_cleanup_free_ char *uuid = NULL, *level = NULL;
	const char *layer = "stacked", *what = NULL;

	if (attr_exists(ctx, disk, "dm")) {
		layer = "dm";
		set_attr(ctx, o, "dm_name", disk, "dm/name");
		uuid = attr(ctx, disk, "dm/uuid");
		for (size_t i = 0; uuid && i < ARRAY_SIZE(dm_targets); i++)
			if (startswith(uuid, dm_targets[i].prefix))
				what = dm_targets[i].target;
	} else if (attr_exists(ctx, disk, "md")) {
		layer = "md";
		what = level = attr(ctx, disk, "md/level");
	} else if (attr_exists(ctx, disk, "bcache")) {
		layer = "bcache";
	}
	jset_str(o, "layer", layer);
	jset_str(o, "layer_type", what);
}

/* A dm/md/bcache device: its own queue, and the physical disks below it. */
static json_object *stacked_object(struct probe_ctx *ctx, const char *disk)
{
	json_object *o = json_object_new_object();
	json_object *slaves = json_object_new_array();
	struct strv seen = {0};
	add_physical(ctx, disk, slaves, &seen, 0);
	strv_free(&seen);

	jset_str(o, "name", base_name(disk));
	json_object *kind = common_value(slaves, "kind");
	jset(o, "kind", kind ? kind : json_object_new_string("unknown"));
	set_layer(ctx, o, disk);
	set_flag(o, "rotational", attr_flag(ctx, disk, "queue/rotational"));
	set_flag(o, "removable", attr_flag(ctx, disk, "removable"));
	jset_null(o, "model");
	_cleanup_free_ char *cur = NULL, *path = xasprintf("%s/queue/scheduler", disk);
	rootfs_read_choice(ctx->rf, path, &cur, NULL);
	jset_str(o, "scheduler", cur);
	jset_null(o, "schedulers");
	/* The physical disks' queues do the scheduling. */
	jset_null(o, "recommended_scheduler");
	jset_str(o, "scheduler_note", "the schedulers of the disks below apply");
	set_attr_int(ctx, o, "read_ahead_kb", disk, "queue/read_ahead_kb");
	jset_null(o, "controller");
	json_object *node = common_value(slaves, "numa_node");
	jset(o, "numa_node", node);
	jset_str(o, "syspath", disk);
	jset(o, "slaves", slaves);
	return o;
}

json_object *blockdev_describe(struct probe_ctx *ctx, const char *syspath)
{
	_cleanup_free_ char *disk = whole_disk(ctx, syspath);
	_cleanup_free_ char *slaves_dir = xasprintf("%s/slaves", disk);
	struct strv slaves = {0};
	bool stacked = rootfs_list(ctx->rf, slaves_dir, &slaves) == 0 && slaves.n > 0;
	strv_free(&slaves);

	json_object *o = stacked ? stacked_object(ctx, disk) : disk_object(ctx, disk);
	jset_str(o, "partition", streq(disk, syspath) ? NULL : base_name(syspath));
	return o;
}

static void foreach_device(const struct env_device *dev, void (*fn)(const struct env_device *disk, void *data),
			   void *data, int depth)
{
	if (dev->backing.device && depth < MAX_STACK) {
		foreach_device(dev->backing.device, fn, data, depth + 1);
	} else if (dev->slaves.json) {
		for (size_t i = 0; i < dev->slaves.n; i++)
			fn(&dev->slaves.v[i], data);
	} else if (dev->name) {
		fn(dev, data);
	}
}

void storage_foreach_device(const struct env_record *env, void (*fn)(const struct env_device *disk, void *data),
			    void *data)
{
	if (env->storage.device)
		foreach_device(env->storage.device, fn, data, 0);
}

struct json_walk {
	void (*fn)(json_object *disk, void *data);
	void *data;
};

static void json_disk(const struct env_device *disk, void *data)
{
	struct json_walk *w = data;
	w->fn(disk->json, w->data);
}

void storage_foreach_disk(json_object *rec, void (*fn)(json_object *disk, void *data), void *data)
{
	struct env_record env;
	_cleanup_free_ char *error = NULL;
	if (env_decode(rec, "", &env, &error) < 0)
		return;
	storage_foreach_device(&env, json_disk, &(struct json_walk){ fn, data });
	env_record_free(&env);
}
