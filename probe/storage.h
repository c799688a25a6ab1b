/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/mounts.h"
#include "lib/util.h"
#include "probe.h"


/*
 * Block devices. blockdev_describe() builds the storage.device object for
 * the sysfs directory of a block device (whole disk or partition), following
 * partitions to their disk and dm/md/bcache slaves to the physical disks.
 */
json_object *blockdev_describe(struct probe_ctx *ctx, const char *syspath);
/* The canonical sysfs directory a block device link leads to; -ENOTDIR
 * when the link is a plain file (a dump that lost its symlinks). */
int blockdev_resolve(struct probe_ctx *ctx, const char *link, char **dir);
/* "nvme", "ssd", "hdd", "mmc", "usb", "virtio", "loop", "zram", "ram" or
 * "unknown", from the name, the sysfs path and rotational (-1: unknown). */
const char *blockdev_kind(const char *name, const char *syspath, int rotational);
/*
 * The scheduler to use for a kind among the offered ones: the ideal one
 * when offered, else the closest offered one, with *note saying what is
 * missing (NULL when nothing needs saying; caller frees). NULL when the
 * kind has no recommendation or nothing fitting is offered.
 */
const char *blockdev_recommend(const char *kind, const struct strv *offered, char **note);
/* Human name of a device object's kind: "NVMe", "SD card", "HDD", ... */
const char *blockdev_kind_label(const struct env_device *dev);
const char *blockdev_label(const char *kind, const char *mmc_type);

/*
 * The disks whose queues serve the workdir: the slaves of a stacked device,
 * what an overlay or loop device is backed by, else the device itself.
 * Calls fn for each device that has a name: storage_foreach_device() with
 * the decoded record, storage_foreach_disk() with each device's JSON.
 */
void storage_foreach_device(const struct env_record *env, void (*fn)(const struct env_device *disk, void *data),
			    void *data);
void storage_foreach_disk(json_object *rec, void (*fn)(json_object *disk, void *data), void *data);
