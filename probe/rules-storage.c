/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about the workdir's storage: the IO scheduler, a slow medium. */
#include "findings.h"
#include "storage.h"

/* What the checks of every disk under the workdir found, joined with "; ". */
struct disk_check {
	struct buf evidence, fix;
	const char *slow_label;
};

_printf_(2, 3) static void append(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (b->len)
		buf_puts(b, "; ");
	buf_puts(b, s);
}

static void check_scheduler(const struct env_device *disk, void *data)
{
	struct disk_check *c = data;
	const char *name = disk->name, *cur = disk->scheduler;
	const char *want = disk->recommended_scheduler;
	if (!cur || !want || streq(cur, want))
		return;
	append(&c->evidence, "/sys/block/%s/queue/scheduler = %s (recommended %s for %s)", name, cur, want,
	       blockdev_kind_label(disk));
	append(&c->fix, "echo %s > /sys/block/%s/queue/scheduler", want, name);
}

static bool scheduler_not_recommended(const struct env_record *env, struct finding *f)
{
	struct disk_check c = {0};
	storage_foreach_device(env, check_scheduler, &c);
	bool hit = c.evidence.len > 0;
	if (hit) {
		finding_set(&f->evidence, "%s", c.evidence.s);
		finding_set(&f->fix, "%s (as root), or `[io] scheduler = auto` in a profile", c.fix.s);
	}
	buf_free(&c.evidence);
	buf_free(&c.fix);
	return hit;
}

/* SD cards, eMMC, spinning disks and USB sticks: seek- or flash-bound. */
static void check_medium(const struct env_device *disk, void *data)
{
	struct disk_check *c = data;
	const char *kind = disk->kind, *name = disk->name;
	const char *mmc = disk->mmc_type;
	if (streq_ptr(kind, "hdd"))
		append(&c->evidence, "/sys/block/%s/queue/rotational = 1", name);
	else if (streq_ptr(kind, "mmc") && (streq_ptr(mmc, "sd") || streq_ptr(mmc, "emmc")))
		append(&c->evidence, "/sys/block/%s/device/type = %s", name, streq(mmc, "sd") ? "SD" : "MMC");
	else if (streq_ptr(kind, "mmc"))
		append(&c->evidence, "/sys/block/%s is an MMC device (%s)", name, disk->syspath);
	else if (streq_ptr(kind, "usb"))
		append(&c->evidence, "/sys/block/%s -> %s (under a USB port)", name, disk->syspath);
	else
		return;
	if (!c->slow_label)
		c->slow_label = blockdev_kind_label(disk);
}

/* "an SD card", "an HDD", "an eMMC", "a USB disk": by how the label is spoken. */
static const char *article(const char *label)
{
	static const char *const spoken_vowel[] = { "SD card", "HDD", "eMMC", "MMC" };
	for (size_t i = 0; i < ARRAY_SIZE(spoken_vowel); i++)
		if (streq(label, spoken_vowel[i]))
			return "an";
	return "a";
}

static bool slow_medium(const struct env_record *env, struct finding *f)
{
	struct disk_check c = {0};
	storage_foreach_device(env, check_medium, &c);
	bool hit = c.evidence.len > 0;
	if (hit) {
		finding_set(&f->message,
			    "The benchmark directory is on %s %s: File Copy and Shell Scripts measure the medium, "
			    "not the system.",
			    article(c.slow_label), c.slow_label);
		finding_set(&f->evidence, "%s", c.evidence.s);
	}
	buf_free(&c.evidence);
	return hit;
}

const struct rule storage_rules[] = {
	{
		.id = "storage.scheduler",
		.area = "storage",
		.severity = SEV_WARN,
		.message = "The IO scheduler of the workdir's disk is not the one that suits it: the file tests "
			   "go through it.",
		.check = scheduler_not_recommended,
	},
	{
		.id = "storage.slow-medium",
		.area = "storage",
		.severity = SEV_WARN,
		.message = "The benchmark directory is on a slow medium: File Copy and Shell Scripts measure the "
			   "medium, not the system.",
		.fix = "`ubtune apply PROFILE` with a tmpfs workdir (`[workdir] type = tmpfs`), or --workdir on a tmpfs",
		.check = slow_medium,
	},
	{ 0 },
};
