/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What explains the difference between two results of one machine: the
 * clock, the build of the programs, the benchmark directory, the kernel,
 * the load at the start, a graphical session. Each rule reads the pair's
 * test groups (which moved, which did not), the two headers and the labels
 * the source gave the runs ("1.0Ghz", "rv64gc_zba_zbb", "tmpfs", "after
 * patch").
 */
#include <ctype.h>

#include "diagnose.h"

/* File Copy moving alone: the medium under the benchmark directory (disk
 * against tmpfs moves it by 1.5-4.7×, published runs of one board). */
#define FILECOPY_MOVED 0.15

static double pct(double ratio)
{
	return (ratio - 1) * 100;
}

/* A frequency in a label: "1.3Ghz", "2400 MHz"; 0 when none. */
static double label_mhz(const char *s)
{
	for (const char *p = s; p && *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		char *end;
		double v = strtod(p, &end);
		while (*end == ' ')
			end++;
		if (strncasecmp(end, "ghz", 3) == 0)
			return v * 1000;
		if (strncasecmp(end, "mhz", 3) == 0)
			return v;
	}
	return 0;
}

static bool label_has(const char *label, const char *const *words)
{
	for (; label && *words; words++)
		if (strcasestr(label, *words))
			return true;
	return false;
}

static const char *const build_words[] = { "gcc", "clang", "-O", "-march", "-mcpu", "-mtune", "flag", "rv64",
					   "zba", "zbb", "xthead", "extension", "扩展", "编译", "compiler", NULL };
static const char *const storage_words[] = { "tmpfs", "/dev/shm", "ramdisk", "disk", "ssd", "hdd", "nvme", "emmc",
					     "sd card", "usb", "nfs", "xfs", "ext4", "btrfs", NULL };
static const char *const patch_words[] = { "patch", "before", "after", "revert", "commit", NULL };

static void groups_evidence(const struct diag_pair *p, struct diag_diff *d, unsigned which)
{
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if ((which & (1u << g)) && p->group[g] > 0)
			diag_diff_evidence(d, "%s: %+.1f %%", diag_groups[g].name, pct(p->group[g]));
}

static bool others_still(const struct diag_pair *p, unsigned except)
{
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (!(except & (1u << g)) && diag_pair_moved(p, (enum diag_group)g, 0))
			return false;
	return true;
}

/* Everything moves with the clock, the CPU tests most: two clocks. */
static void check_clock(const struct diag_pair *p, struct diag_diff *d)
{
	double fa = label_mhz(p->label_a), fb = label_mhz(p->label_b);
	double ba = p->a->hdr.bogomips_mhz, bb = p->b->hdr.bogomips_mhz;
	double clock = fa > 0 && fb > 0 ? fb / fa : ba > 0 && bb > 0 ? bb / ba : NAN;
	double cpu = p->group[DG_CPU];
	if (!diag_pair_moved(p, DG_CPU, 0))
		return;
	if (clock > 0 && fabs(log(clock)) >= log1p(0.03)) {
		/* the CPU tests follow the clock: within a fifth of its ratio */
		bool follows = fabs(log(cpu / clock)) < log1p(0.2);
		diag_diff_fire(d, follows ? DC_HIGH : DC_MEDIUM,
			       "the clock differs (%.0f against %.0f MHz) and Dhrystone and Whetstone move with it: %+.1f %% "
			       "for a clock %+.1f %%",
			       fa > 0 ? fb : bb, fa > 0 ? fa : ba, pct(cpu), pct(clock));
		if (fa > 0)
			diag_diff_evidence(d, "labels: \"%s\" and \"%s\"", p->label_a, p->label_b);
		else
			diag_diff_evidence(d, "headers: BogoMIPS %.1f and %.1f (x86: twice the clock)", ba * 2, bb * 2);
		groups_evidence(p, d, 1u << DG_CPU | 1u << DG_KERNEL | 1u << DG_PROCESS);
		return;
	}
	/* no clock is said: every group moving the same way, the CPU tests most */
	bool all = true;
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (p->group[g] > 0)
			all &= (p->group[g] > 1) == (cpu > 1) && fabs(log(p->group[g])) <= fabs(log(cpu)) * 1.1;
	if (all && !others_still(p, 0) && !label_has(p->label_a, build_words) &&
	    !label_has(p->label_b, build_words)) {
		diag_diff_fire(d, DC_LOW, "every test group moves the same way, Dhrystone and Whetstone most (%+.1f %%): "
					  "what a different clock does",
			       pct(cpu));
		groups_evidence(p, d, ~0u);
	}
}

/* Only the CPU tests move: the compiler or its flags. */
static void check_build(const struct diag_pair *p, struct diag_diff *d)
{
	bool labelled = label_has(p->label_a, build_words) || label_has(p->label_b, build_words);
	bool cpu = diag_pair_moved(p, DG_CPU, 0);
	if (!cpu || !others_still(p, 1u << DG_CPU | 1u << DG_SHELL))
		return;
	if (label_mhz(p->label_a) > 0 && label_mhz(p->label_b) > 0)
		return; /* two clocks: check_clock */
	diag_diff_fire(d, labelled ? DC_MEDIUM : DC_LOW,
		       "only Dhrystone and Whetstone differ (%+.1f %%), the system tests do not: the programs were built "
		       "differently%s",
		       pct(p->group[DG_CPU]), labelled ? " (the labels name the build)" : "");
	if (labelled)
		diag_diff_evidence(d, "labels: \"%s\" and \"%s\"", p->label_a, p->label_b);
	groups_evidence(p, d, 1u << DG_CPU | 1u << DG_KERNEL | 1u << DG_PROCESS);
}

/* Only File Copy moves: the file system of the benchmark directory. */
static void check_workdir(const struct diag_pair *p, struct diag_diff *d)
{
	if (!diag_pair_moved(p, DG_FILECOPY, FILECOPY_MOVED) || diag_pair_moved(p, DG_CPU, 0))
		return;
	bool labelled = label_has(p->label_a, storage_words) || label_has(p->label_b, storage_words);
	diag_diff_fire(d, labelled ? DC_HIGH : DC_MEDIUM,
		       "File Copy differs (%+.1f %%) while the CPU tests do not: the benchmark directory is on another "
		       "file system or medium (disk, card, tmpfs)",
		       pct(p->group[DG_FILECOPY]));
	if (labelled)
		diag_diff_evidence(d, "labels: \"%s\" and \"%s\"", p->label_a, p->label_b);
	groups_evidence(p, d, 1u << DG_FILECOPY | 1u << DG_CPU);
}

/* The kernel tests move more than the CPU tests: the kernel. */
static void check_kernel(const struct diag_pair *p, struct diag_diff *d)
{
	const char *ka = p->a->hdr.kernel, *kb = p->b->hdr.kernel;
	bool two = ka && kb && !streq(ka, kb);
	/* a label naming a patch is no evidence against headers naming one kernel */
	bool patch = !(ka && kb && streq(ka, kb)) &&
		     (label_has(p->label_a, patch_words) || label_has(p->label_b, patch_words));
	double cpu = p->group[DG_CPU] > 0 ? fabs(log(p->group[DG_CPU])) : 0;
	enum diag_group worst = DG_KERNEL;
	double most = 0;
	static const enum diag_group sys[] = { DG_KERNEL, DG_CTX, DG_PROCESS };
	for (size_t i = 0; i < ARRAY_SIZE(sys); i++)
		if (p->group[sys[i]] > 0 && fabs(log(p->group[sys[i]])) > most) {
			most = fabs(log(p->group[sys[i]]));
			worst = sys[i];
		}
	if (!diag_pair_moved(p, worst, 0) || most < cpu + log1p(0.03))
		return;
	diag_diff_fire(d, two ? DC_HIGH : patch ? DC_MEDIUM : DC_LOW,
		       "%s differ%s (%+.1f %%) more than the CPU tests: %s", diag_groups[worst].name,
		       worst == DG_CTX ? "s" : "", pct(p->group[worst]),
		       two     ? "the kernels differ"
		       : patch ? "the kernel changed (the labels name a patch)"
			       : "what runs in the kernel changed");
	if (two)
		diag_diff_evidence(d, "headers: kernel %s and %s", ka, kb);
	else if (patch)
		diag_diff_evidence(d, "labels: \"%s\" and \"%s\"", p->label_a, p->label_b);
	groups_evidence(p, d, 1u << DG_KERNEL | 1u << DG_CTX | 1u << DG_PROCESS | 1u << DG_CPU);
}

/* One of them started on a busy machine. */
static void check_load(const struct diag_pair *p, struct diag_diff *d)
{
	double la = p->a->hdr.load1, lb = p->b->hdr.load1;
	unsigned cpus = p->a->cpus ?: p->a->hdr.threads;
	if (isnan(la) || isnan(lb) || !cpus)
		return;
	double busy = fmax(la, lb), idle = fmin(la, lb);
	if (busy < 1.0 || busy / cpus < 0.5 || idle > busy / 2)
		return;
	/* the busy one lost in the tests that wait on others: shell scripts, pipes, system calls */
	double sh = p->group[DG_SHELL], k = p->group[DG_KERNEL];
	bool slower = lb > la ? (sh > 0 && sh < 1 - diag_groups[DG_SHELL].noise) || (k > 0 && k < 1 - diag_groups[DG_KERNEL].noise)
			      : (sh > 1 + diag_groups[DG_SHELL].noise) || (k > 1 + diag_groups[DG_KERNEL].noise);
	diag_diff_fire(d, slower ? DC_MEDIUM : DC_LOW, "the load average at the start was %.2f for %s and %.2f for %s",
		       la, p->label_a, lb, p->label_b);
	diag_diff_evidence(d, "headers: load average %.2f and %.2f on %u CPUs", la, lb, cpus);
}

static void check_graphical(const struct diag_pair *p, struct diag_diff *d)
{
	if (p->a->hdr.graphical == p->b->hdr.graphical || !p->a->hdr.runlevel || !p->b->hdr.runlevel)
		return;
	diag_diff_fire(d, DC_LOW, "one ran in runlevel %s, the other in runlevel %s (a graphical session)",
		       p->a->hdr.runlevel, p->b->hdr.runlevel);
}

const struct diag_diff_rule diag_diff_rules[] = {
	{ "diff.clock", "A different CPU clock", check_clock },
	{ "diff.build", "Programs built differently", check_build },
	{ "diff.workdir", "Another file system under the benchmark directory", check_workdir },
	{ "diff.kernel", "A different kernel", check_kernel },
	{ "diff.load", "A busy machine at the start", check_load },
	{ "diff.graphical-session", "A graphical session in one of them", check_graphical },
	{ 0 },
};
