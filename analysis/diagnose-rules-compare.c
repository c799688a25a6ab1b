/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What explains the difference between two results of one machine. The
 * change the labels name ("with patch", "6.1", "1.0GHz", "kvm") or the
 * headers record (two kernel releases, two clocks) is the cause, quoted;
 * else the class of cause that moves exactly the groups that moved: the
 * compiler or its flags the CPU tests alone, the benchmark directory File
 * Copy alone, the kernel the tests that enter it more than the CPU tests,
 * the clock everything. A conclusion from the shape needs its control
 * group: without it (File Copy the only test that ran) it stays low.
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

/* A kernel release in a label ("5.10", "linux-6.6.30", "v6.1-rc3"): its
 * start in *at, its length; 0 when none (a major of 2 to 9, as Linux's). */
static size_t label_kernel(const char *s, const char **at)
{
	for (const char *p = s; p && *p; p++) {
		if (*p < '2' || *p > '9' || p[1] != '.' || !isdigit((unsigned char)p[2]))
			continue;
		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '.') && !(p[-1] == 'v' || p[-1] == '-'))
			continue;
		size_t n = 2 + strspn(p + 2, "0123456789.");
		if (isalpha((unsigned char)p[n]) && strncasecmp(p + n, "-rc", 3) != 0)
			continue; /* "2.5GHz", "3.2x" */
		*at = p;
		return n;
	}
	return 0;
}

/* Whether word is in s as a word (ASCII words between non-letters, or
 * starting one when prefix; others anywhere), in any letter case. */
static bool has_word(const char *s, const char *word, bool prefix)
{
	size_t n = strlen(word);
	bool ascii = (unsigned char)word[0] < 0x80;
	for (const char *p = s; p && (p = strcasestr(p, word)); p++) {
		if (!ascii)
			return true;
		bool before = p == s || !isalnum((unsigned char)p[-1]);
		bool after = !isalnum((unsigned char)p[n]) || (p[n] == 's' && !isalnum((unsigned char)p[n + 1])) ||
			     (p[n] == 'e' && p[n + 1] == 'd' && !isalnum((unsigned char)p[n + 2]));
		if (before && (after || prefix))
			return true;
	}
	return false;
}

static const char *const patch_words[] = { "patch", "unpatched", "revert", "commit", "fix", "补丁", "修复", NULL };
static const char *const config_words[] = { "config", "mitigations", "preempt", "preempt_rt", "nohz", "hz", "thp",
					    "hugepage", "hugepages", "numa", "kpti", "pti", "spectre", "ibrs", "retpoline",
					    "selinux", "apparmor", "audit", "seccomp", "smt", "ht", "hyperthreading",
					    "tickless", "sysctl", "cgroup", "配置", "开启", "关闭", NULL };
static const char *const virt_words[] = { "kvm", "qemu", "xen", "vmware", "esxi", "hyper-v", "virtualbox",
					  "firecracker", "cloud-hypervisor", "crosvm", "bhyve", "kvmtool", "docker",
					  "container", "lxc", "lxd", "podman", "kata", "gvisor", "runsc", "runc", "wsl",
					  "wsl2", "guest", "vm", "bare metal", "bare-metal", "baremetal", "native",
					  "host", "physical", "virtual", "物理机", "虚拟机", "容器", "宿主机", NULL };
static const char *const build_words[] = { "gcc", "clang", "llvm", "icc", "-o2", "-o3", "-march", "-mcpu",
					   "-mtune", "flags", "rv64gc", "zba", "zbb", "xthead", "extension", "lto", "pgo",
					   "compiler", "扩展", "编译", NULL };
static const char *const storage_words[] = { "tmpfs", "/dev/shm", "ramdisk", "ram disk", "disk", "ssd", "hdd",
					     "nvme", "emmc", "sd card", "sdcard", "usb", "nfs", "xfs", "ext4", "btrfs",
					     "zfs", "f2fs", "overlayfs", NULL };
static const char *const host_words[] = { "laptop", "notebook", "desktop", "workstation", "server", "nas", "mini pc",
					  "笔记本", "台式机", "工作站", "服务器", NULL };
static const char *const baseline_words[] = { "before", "without", "w/o", "base", "baseline", "stock", "vanilla",
					      "default", "original", "orig", "unpatched", "old", "upstream", "mainline",
					      "master", "reference", "bare metal", "bare-metal", "baremetal", "native",
					      "physical", "物理机", "优化前", "修改前", "补丁前", "之前", "原始", "默认",
					      "不带", "未", "基线", "基准", NULL };

/* The words of a list that s holds, as bits; build_words (ISA extensions
 * and flags run on: "xtheadba") also at the start of a word. */
static uint64_t words_in(const char *s, const char *const *words)
{
	uint64_t bits = 0;
	for (unsigned i = 0; s && words[i] && i < 64; i++)
		if (has_word(s, words[i], words == build_words))
			bits |= UINT64_C(1) << i;
	return bits;
}

/* One label says "without" what the other has ("不带 B 扩展", "w/o THP",
 * "mitigations off"). */
static bool negated(const char *s)
{
	static const char *const words[] = { "without", "w/o", "no", "not", "off", "disable", "disabled", "不带",
					     "不开", "无", "关闭", "未", "禁用", NULL };
	return words_in(s, words) != 0;
}

bool diag_label_baseline(const char *label)
{
	return label && words_in(label, baseline_words);
}

/* What the labels of a pair name as the change between them; the class
 * and a word for it, or NULL. A word both labels hold ("ramdisk" in both)
 * names what they share, not what changed. */
static const char *label_change(const struct diag_pair *p, const char **what)
{
	const char *a = p->label_a, *b = p->label_b;
	if (!a || !b || streq(a, b))
		return NULL;
	if (words_in(a, patch_words) || words_in(b, patch_words)) {
		*what = "a patch";
		return "diag.patch";
	}
	if (label_mhz(a) > 0 && label_mhz(b) > 0 && label_mhz(a) != label_mhz(b)) {
		*what = "the clock";
		return "diag.clock-change";
	}
	const char *ka, *kb;
	size_t na = label_kernel(a, &ka), nb = label_kernel(b, &kb);
	if (na && nb && (na != nb || strncmp(ka, kb, na) != 0)) {
		/* "(6.0.0)" and "(5.1.3)": UnixBench's own versions */
		const char *sa = p->a->r.suite.version, *sb = p->b->r.suite.version;
		if (sa && sb && strlen(sa) == na && strlen(sb) == nb && !strncmp(ka, sa, na) && !strncmp(kb, sb, nb)) {
			*what = "the version of UnixBench";
			return "diag.unixbench-version";
		}
		/* a version the headers contradict (one kernel in both) is none */
		const char *ha = p->a->hdr.kernel, *hb = p->b->hdr.kernel;
		if (!(ha && hb && streq(ha, hb))) {
			*what = "the kernel";
			return "diag.kernel-change";
		}
	}
	static const struct {
		const char *const *words;
		const char *class, *what;
	} kinds[] = {
		{ config_words, "diag.config-change", "a kernel or system setting" },
		{ virt_words, "diag.hypervisor-change", "the host or hypervisor" },
		{ build_words, "diag.build-flags", "the build of the programs" },
		{ storage_words, "diag.storage-bound-workdir", "the benchmark directory's medium" },
		{ host_words, "diag.host-change", "the machine" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		uint64_t wa = words_in(a, kinds[i].words), wb = words_in(b, kinds[i].words);
		if (wa != wb || (wa && negated(a) != negated(b))) {
			*what = kinds[i].what;
			return kinds[i].class;
		}
	}
	return NULL;
}

static void groups_evidence(const struct diag_pair *p, struct diag_diff *d, unsigned which)
{
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if ((which & (1u << g)) && diag_pair_ran(p, (enum diag_group)g))
			diag_diff_evidence(d, "%s (%s): %+.1f %%%s", diag_groups[g].name, diag_groups[g].tests,
					   pct(p->group[g]), diag_pair_moved(p, (enum diag_group)g, 0) ? "" : ", within noise");
}

/* The groups that moved beyond their noise, as bits. */
static unsigned moved_groups(const struct diag_pair *p)
{
	unsigned bits = 0;
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (diag_pair_moved(p, (enum diag_group)g, 0))
			bits |= 1u << g;
	return bits;
}

/* Whether a control group ran and the ones that ran stayed within their
 * noise. */
static bool controls_still(const struct diag_pair *p, unsigned controls)
{
	bool ran = false;
	for (int g = 0; g < DIAG_NGROUPS; g++) {
		if (!(controls & (1u << g)) || !diag_pair_ran(p, (enum diag_group)g))
			continue;
		if (diag_pair_moved(p, (enum diag_group)g, 0))
			return false;
		ran = true;
	}
	return ran;
}

/* Some control group ran and moved: the shape is not this cause's. */
static bool controls_moved(const struct diag_pair *p, unsigned controls)
{
	return (moved_groups(p) & controls) != 0;
}

/* The change the labels name is the cause: quoted. */
static void check_labels(const struct diag_pair *p, struct diag_diff *d)
{
	const char *what = NULL;
	const char *class = label_change(p, &what);
	if (!class)
		return;
	d->class = class;
	if (diag_pair_differs(p)) {
		diag_diff_fire(d, DC_HIGH, "the labels name the change, %s: \"%s\" against \"%s\"", what, p->label_b,
			       p->label_a);
		groups_evidence(p, d, moved_groups(p));
		for (size_t k = 0; p->scores_only && k < p->n; k++)
			diag_diff_evidence(d, "index score%s: %+.1f %%", p->copies[k] == 1 ? ", 1 copy" : "",
					   (p->score[k] - 1) * 100);
	} else {
		diag_diff_fire(d, DC_LOW, "the labels name the change, %s (\"%s\" against \"%s\"), but nothing moved "
					  "beyond its noise",
			       what, p->label_b, p->label_a);
	}
}

/* Two kernel releases in the headers: a recorded fact. The kernel moves
 * the tests that enter it, not the CPU tests. */
static void check_kernel_release(const struct diag_pair *p, struct diag_diff *d)
{
	const char *ka = p->a->hdr.kernel, *kb = p->b->hdr.kernel;
	if (!ka || !kb || streq(ka, kb))
		return;
	unsigned kernel = 1u << DG_ENTRY | 1u << DG_SCHED | 1u << DG_EXEC;
	unsigned moved = moved_groups(p);
	if (moved & kernel)
		diag_diff_fire(d, controls_still(p, 1u << DG_CPU) ? DC_HIGH : DC_MEDIUM,
			       "the headers record two kernels, and the tests that enter the kernel moved%s",
			       controls_still(p, 1u << DG_CPU) ? " while the CPU tests did not" : "");
	else
		diag_diff_fire(d, DC_LOW, "the headers record two kernels, but the tests that enter the kernel did not "
					  "move beyond their noise");
	diag_diff_evidence(d, "headers: kernel %s and %s", ka, kb);
	groups_evidence(p, d, kernel | 1u << DG_CPU);
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
		groups_evidence(p, d, 1u << DG_CPU | 1u << DG_ENTRY | 1u << DG_EXEC);
		return;
	}
	/* no clock is said: every group moving the same way, the CPU tests most */
	bool all = true;
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (p->group[g] > 0)
			all &= (p->group[g] > 1) == (cpu > 1) && fabs(log(p->group[g])) <= fabs(log(cpu)) * 1.1;
	if (all && (moved_groups(p) & ~(1u << DG_CPU))) {
		diag_diff_fire(d, DC_LOW, "every test group moves the same way, Dhrystone and Whetstone most (%+.1f %%): "
					  "what a different clock does",
			       pct(cpu));
		groups_evidence(p, d, ~0u);
	}
}

/* Only the CPU tests move: the compiler or its flags. */
static void check_build(const struct diag_pair *p, struct diag_diff *d)
{
	unsigned controls = 1u << DG_ENTRY | 1u << DG_SCHED | 1u << DG_EXEC;
	if (!diag_pair_moved(p, DG_CPU, 0) || controls_moved(p, controls))
		return;
	if (label_mhz(p->label_a) > 0 && label_mhz(p->label_b) > 0)
		return; /* two clocks: check_clock */
	bool still = controls_still(p, controls);
	diag_diff_fire(d, still ? DC_MEDIUM : DC_LOW,
		       "only Dhrystone and Whetstone differ (%+.1f %%)%s: the programs were built differently (compiler, "
		       "flags)",
		       pct(p->group[DG_CPU]),
		       still ? ", the system tests do not" : "; the system tests that would tell a clock apart did not run");
	groups_evidence(p, d, 1u << DG_CPU | controls);
}

/* Only File Copy moves: the file system of the benchmark directory. */
static void check_workdir(const struct diag_pair *p, struct diag_diff *d)
{
	unsigned controls = 1u << DG_CPU | 1u << DG_ENTRY;
	if (!diag_pair_moved(p, DG_FS, FILECOPY_MOVED) || controls_moved(p, controls))
		return;
	bool still = controls_still(p, controls);
	diag_diff_fire(d, still ? DC_MEDIUM : DC_LOW,
		       "File Copy differs (%+.1f %%)%s: the benchmark directory is on another file system or medium, or "
		       "the page cache behaves otherwise",
		       pct(p->group[DG_FS]),
		       still ? " while the CPU and kernel-entry tests do not"
			     : "; the CPU and kernel-entry tests that would rule out other causes did not run");
	groups_evidence(p, d, 1u << DG_FS | controls);
}

/* The tests that enter the kernel move more than the CPU tests: the kernel. */
static void check_kernel(const struct diag_pair *p, struct diag_diff *d)
{
	static const enum diag_group sys[] = { DG_ENTRY, DG_SCHED, DG_EXEC };
	enum diag_group worst = DG_ENTRY;
	double most = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sys); i++)
		if (diag_pair_moved(p, sys[i], 0) && fabs(log(p->group[sys[i]])) > most) {
			most = fabs(log(p->group[sys[i]]));
			worst = sys[i];
		}
	double cpu = p->group[DG_CPU] > 0 ? fabs(log(p->group[DG_CPU])) : 0;
	if (!most || most < cpu + log1p(0.03))
		return;
	bool still = controls_still(p, 1u << DG_CPU);
	diag_diff_fire(d, still ? DC_MEDIUM : DC_LOW, "%s (%s) moved %+.1f %%%s: what runs in the kernel changed",
		       diag_groups[worst].name, diag_groups[worst].tests, pct(p->group[worst]),
		       still ? ", the CPU tests did not"
			     : p->group[DG_CPU] > 0 ? ", more than the CPU tests"
						    : "; the CPU tests that would rule out a clock did not run");
	groups_evidence(p, d, 1u << DG_ENTRY | 1u << DG_SCHED | 1u << DG_EXEC | 1u << DG_CPU);
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
	double sc = p->group[DG_SCHED], k = p->group[DG_ENTRY];
	bool slower = lb > la ? (sc > 0 && sc < 1 - p->noise[DG_SCHED]) || (k > 0 && k < 1 - p->noise[DG_ENTRY])
			      : (sc > 1 + p->noise[DG_SCHED]) || (k > 1 + p->noise[DG_ENTRY]);
	diag_diff_fire(d, slower ? DC_MEDIUM : DC_LOW, "the load average at the start was %.2f for %s and %.2f for %s",
		       la, p->label_a, lb, p->label_b);
	diag_diff_evidence(d, "headers: load average %.2f and %.2f on %u CPUs", la, lb, cpus);
}

/* Whether a label holds a word beyond those that only say it comes second
 * ("after", "with", "优化后"): a word that names what changed. */
static bool names_something(const char *s)
{
	static const char *const plain[] = { "after", "with", "new", "now", "then", "later", "second", "run", "test",
					     "result", "results", "and", NULL };
	static const char *const plain_cjk[] = { "优化后", "修改后", "补丁后", "之后", "以后", "后", "测试", "结果" };
	for (const char *p = s; *p;) {
		if ((unsigned char)*p >= 0x80) {
			size_t k = 0;
			for (; k < ARRAY_SIZE(plain_cjk); k++)
				if (startswith(p, plain_cjk[k]))
					break;
			if (k == ARRAY_SIZE(plain_cjk))
				return true;
			p += strlen(plain_cjk[k]);
			continue;
		}
		if (!isalpha((unsigned char)*p)) {
			p++;
			continue;
		}
		size_t n = 0;
		while (isalnum((unsigned char)p[n]))
			n++;
		bool known = false;
		for (size_t k = 0; plain[k] && !known; k++)
			known = strlen(plain[k]) == n && strncasecmp(p, plain[k], n) == 0;
		if (!known)
			return true;
		p += n;
	}
	return false;
}

/* A baseline ("基线", "before") against a label whose words the lists above
 * do not know ("sysboost优化后", "turbo"): that label names the change in
 * its own words, quoted; after the rules that know what it means. */
static void check_label_words(const struct diag_pair *p, struct diag_diff *d)
{
	const char *what, *a = p->label_a, *b = p->label_b;
	if (!a || !b || streq(a, b) || label_change(p, &what) || diag_label_baseline(a) == diag_label_baseline(b))
		return;
	const char *named = diag_label_baseline(a) ? b : a, *base = named == b ? a : b;
	if (!names_something(named))
		return;
	if (diag_pair_differs(p)) {
		diag_diff_fire(d, DC_HIGH, "the label names the change in its own words: \"%s\" against \"%s\"", named,
			       base);
		groups_evidence(p, d, moved_groups(p));
	} else {
		diag_diff_fire(d, DC_LOW, "the label names the change in its own words (\"%s\" against \"%s\"), but "
					  "nothing moved beyond its noise",
			       named, base);
	}
}

void diag_diff_notes(const struct diag_pair *p, struct strv *notes)
{
	const struct diag_header *a = &p->a->hdr, *b = &p->b->hdr;
	if (a->runlevel && b->runlevel && a->graphical != b->graphical)
		strv_take(notes, xasprintf("one ran in runlevel %s, the other in runlevel %s: runlevel 5 is what systemd "
					   "distributions report for graphical.target, their default with or without a "
					   "display manager, so it is no cause by itself",
					   a->runlevel, b->runlevel));
	if (p->n && !p->copies[0])
		strv_take(notes, xstrdup("neither says how many copies ran: compared as they are, ratio by ratio"));
}

const struct diag_diff_rule diag_diff_rules[] = {
	{ "diff.labels", "The change the labels name", NULL, check_labels },
	{ "diff.kernel-release", "Two kernels (the headers record them)", "diag.kernel-change", check_kernel_release },
	{ "diff.clock", "A different CPU clock", "diag.clock-change", check_clock },
	{ "diff.build", "Programs built differently", "diag.build-flags", check_build },
	{ "diff.workdir", "Another file system under the benchmark directory", "diag.storage-bound-workdir",
	  check_workdir },
	{ "diff.kernel", "A different kernel", "diag.kernel-change", check_kernel },
	{ "diff.load", "A busy machine at the start", "diag.busy-machine", check_load },
	{ "diff.label-words", "The change a label names", "diag.labelled-change", check_label_words },
	{ 0 },
};
