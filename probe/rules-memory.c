/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about memory: swap in use, room for a tmpfs workdir. */
#include "lib/cpuset.h"
#include "findings.h"

static bool swap_in_use(const struct env_record *env, struct finding *f)
{
	int64_t used = int_or(env->memory.swap_used_kib, 0);
	if (used <= 0)
		return false;
	finding_set(&f->evidence, "/proc/meminfo SwapTotal - SwapFree = %lld kB", (long long)used);
	return true;
}

/* Each copy of File Copy 4096/8000 keeps two 8000 KiB files in the workdir. */
#define TMPFS_KIB_PER_COPY (2 * 8000 + 512)
#define TMPFS_MARGIN_KIB (256 * 1024)

static bool tmpfs_too_small(const struct env_record *env, struct finding *f)
{
	struct cpuset online = {0};
	const char *list = env->cpu.online;
	if (!env->memory.available_kib.known || !list || cpuset_parse_list(list, &online) < 0)
		return false;
	int64_t avail = env->memory.available_kib.v;
	int64_t copies = (int64_t)cpuset_count(&online);
	cpuset_free(&online);
	int64_t need = copies * TMPFS_KIB_PER_COPY + TMPFS_MARGIN_KIB;
	if (avail >= need)
		return false;
	finding_set(&f->evidence, "/proc/meminfo MemAvailable = %lld kB; %lld copies need about %lld kB",
		    (long long)avail, (long long)copies, (long long)need);
	return true;
}

const struct rule memory_rules[] = {
	{
		.id = "memory.swap-in-use",
		.area = "memory",
		.severity = SEV_WARN,
		.message = "Swap is in use: memory ran short at some point. If it runs short during the "
			   "run, every test is slowed by paging and the scores vary from run to run.",
		.fix = "stop what uses the memory, or free it before the run (`swapoff -a && swapon -a` as root)",
		.check = swap_in_use,
	},
	{
		.id = "memory.tmpfs-too-small",
		.area = "memory",
		.severity = SEV_WARN,
		.message = "Too little free memory for a tmpfs benchmark directory with one copy per CPU: "
			   "the File Copy tests would push the machine into reclaim or swap.",
		.fix = "free memory, use fewer copies (`ubtune bench --copies 1`), or keep the workdir on a fast disk",
		.check = tmpfs_too_small,
	},
	{ 0 },
};
