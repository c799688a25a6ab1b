/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the storage and NUMA tests: sysfs block devices in a throwaway root
 * (probetest.h) and a probe context over any root that runs single areas
 * with any workdir, present in the root or not.
 */
#pragma once

#include "lib/term.h"
#include "probe/findings.h"
#include "probetest.h"

/* ---- sysfs block devices ---- */

/* dev, /sys/dev/block, /sys/class/block and (for disks) /sys/block links of a block device. */
static inline void blk_links(const char *root, const char *dir, const char *majmin, bool disk)
{
	const char *name = strrchr(dir, '/') + 1, *rel = dir + strlen("/sys/");
	_cleanup_free_ char *dev = xasprintf("%s/dev", dir), *a = xasprintf("/sys/dev/block/%s", majmin);
	_cleanup_free_ char *b = xasprintf("/sys/class/block/%s", name), *c = xasprintf("/sys/block/%s", name);
	_cleanup_free_ char *up2 = xasprintf("../../%s", rel), *up1 = xasprintf("../%s", rel);
	tmproot_write(root, dev, majmin);
	tmproot_link(root, a, up2);
	tmproot_link(root, b, up2);
	if (disk)
		tmproot_link(root, c, up1);
}

static inline void blk_attr(const char *root, const char *dir, const char *name, const char *value)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	tmproot_write(root, p, value);
}

static inline void blk_disk(const char *root, const char *dir, const char *majmin, const char *sched, const char *rot,
		     const char *removable)
{
	blk_links(root, dir, majmin, true);
	blk_attr(root, dir, "queue/scheduler", sched);
	blk_attr(root, dir, "queue/rotational", rot);
	blk_attr(root, dir, "queue/read_ahead_kb", "128");
	blk_attr(root, dir, "removable", removable);
}

static inline void blk_part(const char *root, const char *disk, const char *name, const char *majmin, const char *no)
{
	_cleanup_free_ char *dir = xasprintf("%s/%s", disk, name);
	blk_links(root, dir, majmin, false);
	blk_attr(root, dir, "partition", no);
}

static inline void pci_function(const char *root, const char *dir, const char *driver, const char *node)
{
	_cleanup_free_ char *target = xasprintf("../../../bus/pci/drivers/%s", driver);
	_cleanup_free_ char *link = xasprintf("%s/driver", dir);
	tmproot_link(root, link, target);
	blk_attr(root, dir, "numa_node", node);
}

/* A context over root as probe_collect builds it, with any workdir. */
static inline struct probe_ctx *tctx_new(const char *root, const char *workdir)
{
	struct probe_ctx *ctx = xcalloc(1, sizeof(*ctx));
	assert_int_equal(rootfs_new(root, &ctx->rf), 0);
	ctx->live = rootfs_is_live(ctx->rf);
	ctx->workdir = xstrdup(workdir);
	ctx->rec = json_object_new_object();
	ctx->unavailable = json_object_new_array();
	jset(ctx->rec, "unavailable", ctx->unavailable);
	return ctx;
}

/* Takes the record and frees the context. */
static inline json_object *tctx_done(struct probe_ctx *ctx)
{
	json_object *rec = ctx->rec;
	rootfs_free(ctx->rf);
	free(ctx->workdir);
	free(ctx->klog);
	probe_procs_free(ctx);
	free(ctx);
	return rec;
}

/* The storage and numa areas of root for workdir. */
static inline json_object *probe_storage_numa(const char *root, const char *workdir)
{
	struct probe_ctx *ctx = tctx_new(root, workdir);
	assert_int_equal(storage_collect(ctx), 0);
	assert_int_equal(numa_collect(ctx), 0);
	return tctx_done(ctx);
}

static inline int tmproot_teardown(void **state)
{
	tmproot_free(*state);
	return 0;
}

/* probe_storage_numa() with the findings evaluated. */
static inline json_object *probe_storage_numa_findings(const char *root, const char *workdir)
{
	json_object *rec = probe_storage_numa(root, workdir);
	assert_decodes(rec, workdir);
	findings_evaluate(rec);
	return rec;
}

/* A field of the finding with this id in rec.findings, or NULL. */
static inline const char *finding_field(json_object *rec, const char *id, const char *field)
{
	json_object *a = jpath(rec, "findings");
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *f = json_object_array_get_idx(a, i);
		if (streq_ptr(jpath_str(f, "id"), id))
			return jpath_str(f, field);
	}
	return NULL;
}

