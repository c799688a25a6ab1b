/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes in what the tests exercise of the system: the workdir's storage,
 * process creation in a VM, preempted vCPUs, cross-CPU wake-ups, the shell,
 * a test that failed.
 *
 * Each reads the shape of the scores (a test group against the tests that
 * share nothing with its cause) and the same ratio against the closest
 * reference runs. Thresholds come from reference/published-results.json.
 */
#include "diagnose.h"

/* File Copy over the pipe and system-call tests, 1 copy: published runs
 * 1.5-4.7 (tmpfs, or a workdir not published), the RK3568 from a SATA
 * disk 0.58. */
#define FILECOPY_LOW 0.9
#define FILECOPY_WEAK 1.2
#define FILECOPY_HEALTHY 1.5
/* A test group against the references, relative to the unaffected tests. */
#define REL_CLEAR 0.6
#define REL_MILD 0.8
/* Process Creation over the pipe and system-call tests, 1 copy: published
 * runs 0.23-1.74 (qemu/KVM guests are the lowest), kvmtool 0.045. */
#define SPAWN_COLLAPSE 0.12
#define SPAWN_WEAK 0.18
#define SPAWN_HEALTHY 0.23
#define SPAWN_REL_COLLAPSE 0.35
/* Pipe-based Context Switching over Pipe Throughput: published 1-copy runs
 * on bare metal 0.17-0.66 (kvmtool 0.16), multi-copy 0.26-0.73; the Kunpeng
 * guests with 16 vCPUs on 8 host CPUs 0.07-0.10 at 16 copies. KVM guests
 * that nothing is wrong with run one copy far lower: 55 published runs
 * 0.047-0.58, median 0.17, one in five below 0.1 (each wake-up of the
 * partner is an exit to the host). */
#define CTX_LOW_SINGLE 0.2
#define CTX_COLLAPSE_SINGLE 0.1 /* bare metal: half the lowest published 1-copy run */
#define CTX_COLLAPSE_SINGLE_GUEST 0.04 /* a guest, or not known: below the lowest KVM guest's */
#define CTX_COLLAPSE_MULTI 0.15
#define CTX_HEALTHY_MULTI 0.26
/* Shell Scripts (1 concurrent) over the Execl/Process Creation mean,
 * 1 copy: published runs 1.37-4.1 (kvmtool, whose Process Creation
 * collapsed, 5.7). */
#define SHELL_LOW 0.8
#define SHELL_WEAK 1.1
#define SHELL_HEALTHY 1.37

static const char *copies_word(unsigned n)
{
	return n == 1 ? "copy" : "copies";
}

/* 2: clear, 1: mild, 0: no sign. */
static int level_below(double v, double clear, double mild)
{
	return v < clear ? 2 : v < mild ? 1 : 0;
}

/* The run a reference comparison is made on: 1 copy, else the widest. */
static const struct diag_run *compared_run(const struct diag_case *c)
{
	return diag_single(c) ?: diag_multi(c);
}

/* Tests of mask against the references, relative to the tests of control. */
static double relative(const struct diag_case *c, const struct diag_run *r, unsigned mask, unsigned control)
{
	return r && diag_comparable(c, r) ? diag_vs_ref(c, r, mask) / diag_vs_ref(c, r, control) : NAN;
}

static void ref_evidence(struct diagnosis *d, const struct diag_case *c, const struct diag_run *r, unsigned mask,
			 unsigned control, const char *what)
{
	const struct diag_match *m = diag_match_of(c, r);
	double a = diag_vs_ref(c, r, mask), b = diag_vs_ref(c, r, control);
	if (a > 0 && b > 0)
		diag_evidence(d, "%u %s: %s at %.0f %% of the published runs of this CPU (%s), the other tests at %.0f %%",
			      r->copies, copies_word(r->copies), what, a * 100, m->refs[0]->id, b * 100);
}

/* ---- the workdir's storage ---- */

static void workdir_evidence(struct diagnosis *d, const struct diag_case *c)
{
	const char *dir = diag_env_str(c, storage.workdir), *fs = diag_env_str(c, storage.mount.fstype),
		   *src = diag_env_str(c, storage.mount.source), *kind = diag_device_str(c, kind),
		   *dev = diag_device_str(c, name);
	if (dir && !fs && !src && !dev)
		diag_evidence(d, "workdir %s: its file system and device not recorded", dir);
	else if (dir || fs)
		diag_evidence(d, "workdir %s: %s on %s%s%s%s", dir ?: "?", fs ?: "?", src ?: dev ?: "?",
			      kind ? " (" : "", kind ?: "", kind ? ")" : "");
}

/* "SD card", "eMMC", "hdd", "ext4": what the workdir is on, in a word. */
static const char *medium_name(const struct diag_case *c)
{
	const char *mmc = diag_device_str(c, mmc_type);
	if (streq_ptr(mmc, "sd"))
		return "SD card";
	if (streq_ptr(mmc, "emmc"))
		return "eMMC";
	return diag_device_str(c, kind) ?: diag_env_str(c, storage.mount.fstype) ?: "a disk";
}

static void check_storage(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *r = compared_run(c);
	int memory = diag_env_workdir_memory(diag_env(c));
	double q = one ? diag_gm(one, DT_FILECOPY) / diag_gm(one, DT_KERNEL) : NAN;
	double rel = relative(c, r, DT_FILECOPY, DT_KERNEL | DT_CPU);
	int shape = level_below(q, FILECOPY_LOW, FILECOPY_WEAK), ref = level_below(rel, REL_CLEAR, REL_MILD);
	int level = shape > ref ? shape : ref;

	if (memory == 1) {
		diag_set_normal(d, "workdir on %s: File Copy measures memory, not a disk",
				diag_env_str(c, storage.mount.fstype) ?: "memory");
		return;
	}
	if (level == 0) {
		if (q > 0 && memory == 0)
			diag_set_normal(d, "File Copy %.2f× the pipe and system-call tests (1 copy): the workdir's "
					   "medium (%s) did not hold it back",
					q, medium_name(c));
		else if (q > 0)
			diag_set_normal(d, "File Copy %.2f× the pipe and system-call tests (1 copy), as from a fast "
					   "file system",
					q);
		else if (memory < 0)
			diag_set_unchecked(d, "File Copy: %s, and no reference with a known workdir",
					   !one ? "no 1-copy run"
					   : !(diag_gm(one, DT_FILECOPY) > 0)
						   ? "not run at 1 copy"
						   : "no pipe or system-call test at 1 copy to measure it against");
		return;
	}
	enum diag_confidence conf = shape == 2 && ref == 2 ? DC_HIGH : level == 2 ? DC_MEDIUM : DC_LOW;
	if (memory == 0)
		conf = level == 2 ? DC_HIGH : DC_MEDIUM;
	diag_fire(d, conf, DT_FILECOPY | DT_SHELL,
		  "File Copy is low while the CPU and kernel tests are normal: the benchmark directory is on a "
		  "disk or card, and File Copy measures that medium");
	workdir_evidence(d, c);
	const struct env_finding *f = diag_finding(c, "storage.slow-medium");
	if (f)
		diag_evidence_finding(d, f);
	if ((f = diag_finding(c, "storage.scheduler")))
		diag_evidence_finding(d, f);
	if (shape)
		diag_evidence(d, "1 copy: File Copy %.1f / %.1f / %.1f, %.2f× the pipe and system-call tests "
				 "(published runs not from a disk: 1.5-4.7×)",
			      one->index[DT_FC1K], one->index[DT_FC256], one->index[DT_FC4K], q);
	if (ref)
		ref_evidence(d, c, r, DT_FILECOPY, DT_KERNEL | DT_CPU, "File Copy");
	if (!diag_gain_from_refs(d, c, DT_FILECOPY, DT_KERNEL | DT_CPU) && one) {
		for (int t = 0; t < DIAG_NTESTS; t++)
			if (DT(t) & DT_FILECOPY)
				diag_gain(d, one, (enum diag_test)t, one->index[t] * FILECOPY_HEALTHY / q);
		d->expect = xstrdup("File Copy at least 1.5× the pipe and system-call tests, the lowest share of "
				    "published runs not from a disk");
	}
}

/* ---- process creation in a VM ---- */

static void check_vmm(const struct diag_case *c, struct diagnosis *d)
{
	if (c->virt == DV_NONE || c->virt == DV_EMULATED) {
		if (c->virt == DV_NONE)
			diag_set_normal(d, "bare metal: no VMM between the guest and its memory");
		return;
	}
	const struct diag_run *one = diag_single(c), *r = compared_run(c);
	double p = one ? one->index[DT_SPAWN] / diag_gm(one, DT_KERNEL) : NAN;
	double rel = relative(c, r, DT(DT_SPAWN), DT_KERNEL | DT_CPU);
	int shape = level_below(p, SPAWN_COLLAPSE, SPAWN_WEAK), ref = level_below(rel, SPAWN_REL_COLLAPSE, REL_CLEAR);
	int level = shape > ref ? shape : ref;
	if (level == 0) {
		if (p > 0)
			diag_set_normal(d, "Process Creation %.2f× the pipe and system-call tests (1 copy)", p);
		return;
	}
	enum diag_confidence conf = level == 2 ? DC_MEDIUM : DC_LOW;
	if (c->virt == DV_GUEST)
		conf = diag_raise(conf);
	diag_fire(d, conf, DT_PROCESS | DT_SHELL,
		  "Process Creation collapses while the CPU and kernel tests are normal: setting up each new "
		  "address space is slow, as under a VMM that maps guest memory expensively (kvmtool vs qemu)");
	if (c->virt == DV_GUEST)
		diag_evidence(d, "a guest of %s", diag_hypervisor_name(c));
	if (shape)
		diag_evidence(d, "1 copy: Process Creation %.1f, %.3f× the pipe and system-call tests (published runs: "
				 "0.23-1.74×); Execl %.1f",
			      one->index[DT_SPAWN], p, one->index[DT_EXECL]);
	if (ref)
		ref_evidence(d, c, r, DT(DT_SPAWN), DT_KERNEL | DT_CPU, "Process Creation");
	if (!diag_gain_from_refs(d, c, DT_PROCESS, DT_KERNEL | DT_CPU) && one) {
		diag_gain(d, one, DT_SPAWN, SPAWN_HEALTHY * diag_gm(one, DT_KERNEL));
		d->expect = xstrdup("Process Creation at least 0.23× the pipe and system-call tests, the lowest "
				    "share of published runs (a qemu/KVM guest)");
	}
}

/* ---- preempted vCPUs ---- */

static double ctx_ratio(const struct diag_run *r)
{
	return r ? r->index[DT_CTX] / r->index[DT_PIPE] : NAN;
}

/* A published run of the same CPU and copies, a guest with more vCPUs than
 * host CPUs, with the same collapse. */
static const struct diag_ref *overcommitted_peer(const struct diag_case *c, const struct diag_run *r)
{
	const struct diag_match *m = diag_match_of(c, r);
	for (size_t i = 0; m && i < m->n; i++)
		if (diag_ref_overcommitted(m->refs[i]) && ctx_ratio(&m->refs[i]->run) < CTX_COLLAPSE_MULTI)
			return m->refs[i];
	return NULL;
}

static void check_overcommit(const struct diag_case *c, struct diagnosis *d)
{
	if (c->virt == DV_NONE) {
		diag_set_normal(d, "bare metal: no vCPUs to be preempted");
		return;
	}
	if (c->virt == DV_EMULATED)
		return;
	const struct diag_run *many = diag_multi(c);
	const struct env_finding *steal = diag_finding(c, "virt.steal");
	size_t events = diag_events(c, "steal", NULL);
	double q = ctx_ratio(many), eff = diag_scaling(c, DT_DHRY);
	bool shape = q < CTX_COLLAPSE_MULTI;
	const struct diag_ref *peer = many ? overcommitted_peer(c, many) : NULL;

	enum diag_confidence conf = DC_NONE;
	if (events)
		conf = DC_HIGH;
	else if (shape)
		conf = steal || peer || c->virt == DV_GUEST ? DC_HIGH : DC_MEDIUM;
	else if (steal)
		conf = DC_LOW;
	if (conf == DC_NONE) {
		if (c->virt == DV_GUEST && c->sampled)
			diag_set_normal(d, "no steal time during the run");
		else if (q > 0)
			diag_set_normal(d, "%u copies: Pipe-based Context Switching %.2f× Pipe Throughput", many->copies,
					q);
		return;
	}
	diag_fire(d, conf, DT(DT_CTX) | DT_FILECOPY | DT_PROCESS | DT_SHELL,
		  "the guest's vCPUs are preempted by the host (more vCPUs than free host CPUs): processes that wait "
		  "for each other, or for a lock, wait for a vCPU that is not running");
	diag_evidence_events(d, c, "steal", 3);
	if (steal)
		diag_evidence_finding(d, steal);
	if (shape)
		diag_evidence(d, "%u copies: Pipe-based Context Switching %.1f = %.3f× Pipe Throughput %.1f (published "
				 "multi-copy runs: 0.26-0.73×)",
			      many->copies, many->index[DT_CTX], q, many->index[DT_PIPE]);
	if (eff < DIAG_SCALING_POOR)
		diag_evidence(d, "%u copies: Dhrystone 2 at %.0f %% per copy of the 1-copy run", many->copies, eff * 100);
	if (peer)
		diag_evidence(d, "the published run %s (%s) has the same collapse: %.3f×; it ran %u vCPUs on %u host "
				 "CPUs",
			      peer->id, peer->cpu, ctx_ratio(&peer->run), peer->cpus, peer->host_cpus);
	if (many && !diag_gain_from_refs(d, c, DT(DT_CTX), DT_KERNEL)) {
		diag_gain(d, many, DT_CTX, CTX_HEALTHY_MULTI * many->index[DT_PIPE]);
		d->expect = xstrdup("Context Switching at least at the lowest share of Pipe Throughput of published "
				    "multi-copy runs (0.26×); File Copy, Execl and Shell Scripts recover too (published "
				    "Kunpeng 920 guests gained 5 to 6.5× in File Copy with a kernel that knows preempted "
				    "vCPUs)");
	}
}

/* ---- context switching ---- */

static void check_context(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	double q1 = ctx_ratio(one), qn = ctx_ratio(many);
	bool low1 = q1 < CTX_LOW_SINGLE, lown = qn < CTX_COLLAPSE_MULTI;
	if (!low1 && !lown) {
		if (q1 > 0)
			diag_set_normal(d, "Pipe-based Context Switching %.2f× Pipe Throughput (1 copy)", q1);
		return;
	}
	double collapse1 = c->virt == DV_NONE ? CTX_COLLAPSE_SINGLE : CTX_COLLAPSE_SINGLE_GUEST;
	enum diag_confidence conf = lown || q1 < collapse1 ? DC_MEDIUM : DC_LOW;
	const struct env_finding *gov = diag_finding(c, "cpu.governor");
	if (low1 && gov)
		conf = diag_raise(conf);
	diag_fire(d, conf, DT(DT_CTX),
		  "Pipe-based Context Switching is low against Pipe Throughput: each wake-up crosses CPUs, comes out "
		  "of a deep idle state, or waits for a preempted vCPU");
	if (low1)
		diag_evidence(d, "1 copy: Pipe-based Context Switching %.1f = %.3f× Pipe Throughput %.1f (published "
				 "1-copy runs: 0.17-0.66× on bare metal, 0.047-0.58× in KVM guests)",
			      one->index[DT_CTX], q1, one->index[DT_PIPE]);
	if (lown)
		diag_evidence(d, "%u copies: %.3f× Pipe Throughput (published multi-copy runs: 0.26-0.73×)",
			      many->copies, qn);
	if (gov)
		diag_evidence_finding(d, gov);
	if (!diag_gain_from_refs(d, c, DT(DT_CTX), DT_KERNEL))
		d->expect = xstrdup("Pipe-based Context Switching when both processes of a pair share a CPU "
				    "(`taskset -c 0`) shows what the wake-ups cost");
}

/* ---- shell scripts ---- */

static void check_shell(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *r = compared_run(c);
	double s = one ? one->index[DT_SH1] / diag_gm(one, DT_PROCESS) : NAN;
	/* one script at a time: Shell Scripts (8) also measures all cores */
	double rel = relative(c, r, DT(DT_SH1), DT_ALL & ~DT_SHELL);
	/* "with everything else normal": storage, process creation, scaling */
	bool others = !(diag_scaling(c, DT_DHRY) < DIAG_SCALING_POOR) &&
		      (!one || (diag_gm(one, DT_FILECOPY) / diag_gm(one, DT_KERNEL) >= FILECOPY_LOW &&
				one->index[DT_SPAWN] / diag_gm(one, DT_KERNEL) >= SPAWN_COLLAPSE));
	int shape = level_below(s, SHELL_LOW, SHELL_WEAK), ref = level_below(rel, REL_CLEAR, REL_MILD);
	int level = shape > ref ? shape : ref;
	if (level == 0 || !others) {
		if (s > 0 && others)
			diag_set_normal(d, "Shell Scripts (1 concurrent) %.2f× the Execl/Process Creation mean (1 copy)", s);
		return;
	}
	/* the references may differ in shell, libc and kernel: alone they
	 * only hint */
	diag_fire(d, shape == 2 ? DC_MEDIUM : DC_LOW, DT_SHELL,
		  "the Shell Scripts tests are low while everything else is normal: a slow /bin/sh, missing or "
		  "slow tools (sort, grep, od), or a slow workdir for the scripts");
	if (shape)
		diag_evidence(d, "1 copy: Shell Scripts (1 concurrent) %.1f, %.2f× the Execl/Process Creation mean "
				 "(published runs: 1.37-4.1×)",
			      one->index[DT_SH1], s);
	if (ref)
		ref_evidence(d, c, r, DT(DT_SH1), DT_ALL & ~DT_SHELL, "Shell Scripts (1 concurrent)");
	if (!diag_gain_from_refs(d, c, DT_SHELL, DT_ALL & ~DT_SHELL) && one) {
		diag_gain(d, one, DT_SH1, SHELL_HEALTHY * diag_gm(one, DT_PROCESS));
		d->expect = xstrdup("Shell Scripts (1 concurrent) at least 1.37× the Execl/Process Creation mean, "
				    "the lowest share of published runs");
	}
}

/* N copies of File Copy doing less than one copy: below this share of the 1-copy index. */
#define FILECOPY_COPIES_FALL 0.9
/*
 * Every File Copy test below this share at one copy count is the contention
 * itself: the runs whose sources name it fall to 0.44-0.49× (fstime at 4 to
 * 32 copies, byte-unixbench issue 87) and 0.55-0.68× (all three at 160
 * copies, pull request 85), where the PerfKitBenchmarker sample's 8 copies
 * keep File Copy 4096 at 1.08× and the other published multi-copy runs
 * gain.
 */
#define FILECOPY_COPIES_CLEAR 0.7

/* The multi-copy run where File Copy falls furthest below one copy, its
 * lowest share and whether every File Copy test it ran fell below clear. */
static double filecopy_fall(const struct diag_case *c, const struct diag_run *one, const struct diag_run **worst,
			    bool *all_clear)
{
	double low = INFINITY;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		double run_low = INFINITY, run_high = 0;
		for (int t = 0; r->copies > 1 && t < DIAG_NTESTS; t++) {
			double ratio = r->index[t] / one->index[t];
			if (!(DT_FILECOPY & DT(t)) || !(ratio > 0))
				continue;
			run_low = ratio < run_low ? ratio : run_low;
			run_high = ratio > run_high ? ratio : run_high;
		}
		if (run_low < low) {
			low = run_low;
			*worst = r;
			*all_clear = run_high < FILECOPY_COPIES_CLEAR;
		}
	}
	return low;
}

/* UnixBench's File Copy copies all read and write files of one directory:
 * past a few copies they wait for each other on the file system's locks,
 * and more copies score less than one. */
static void check_filecopy_copies(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *worst = NULL;
	bool clear = false;
	if (!one || !(diag_gm(one, DT_FILECOPY) > 0))
		return;
	double low = filecopy_fall(c, one, &worst, &clear);
	if (!worst)
		return;
	if (!(low < FILECOPY_COPIES_FALL)) {
		diag_set_normal(d, "File Copy at %u copies: %.2f× its 1-copy index or more", worst->copies, low);
		return;
	}
	diag_fire(d, clear ? DC_MEDIUM : DC_LOW, DT_FILECOPY,
		  "File Copy scores less at %u copies than at 1 copy: the copies work on files of one directory and "
		  "wait for each other in the file system, so more copies give a lower index",
		  worst->copies);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		for (int t = 0; r->copies > 1 && t < DIAG_NTESTS; t++) {
			double ratio = r->index[t] / one->index[t];
			if ((DT_FILECOPY & DT(t)) && ratio < FILECOPY_COPIES_FALL)
				diag_evidence(d, "%s: %.1f with 1 copy, %.1f with %u copies (%.2f×)", ub_tests[t].label,
					      one->index[t], r->index[t], r->copies, ratio);
		}
	}
	d->expect = xstrdup("the multi-copy File Copy index measures the copies' contention, not the storage: "
			    "judge the storage by the 1-copy run");
}

/* ---- a test that failed ---- */

/*
 * A test scoring a hundredth of the run's other tests or less did not run
 * as it should: the 4.1-wht report of an OpenVZ VPS whose Process Creation
 * printed 1.0 lps (index 0.0) is the only run of the published corpus
 * (tests/fixtures/unixbench-published) below this; its lowest other test
 * sits at 0.043x the rest (a Pipe-based Context Switching collapse), of a
 * healthy run at 0.11x.
 */
#define TEST_FAILED 0.01

/* Test t's index in a run of the record as the log printed it: a failed
 * test's 0.0 stays 0 (the case reads it as no result). NAN: none. */
static double printed_index(const struct result_run *o, enum diag_test t)
{
	for (size_t i = 0; i < o->tests.n; i++) {
		const struct result_test *x = &o->tests.v[i];
		int k = diag_test_lookup(x->id);
		if (k < 0)
			k = diag_test_lookup(x->name);
		if (k != (int)t)
			continue;
		if (x->index.known)
			return x->index.v;
		if (x->result.known && x->baseline.known && x->baseline.v > 0)
			return 10 * x->result.v / x->baseline.v;
		return NAN;
	}
	return NAN;
}

/* Test t of a run against the geometric mean of its other tests; NAN with
 * fewer than three of them. */
static double share_of_rest(const struct diag_run *r, double index, enum diag_test t)
{
	unsigned rest = 0;
	for (int u = 0; u < DIAG_NTESTS; u++)
		rest += u != (int)t && r->index[u] > 0;
	return rest >= 3 && index >= 0 ? index / diag_gm(r, DT_ALL & ~DT(t)) : NAN;
}

static void check_failed_test(const struct diag_case *c, struct diagnosis *d)
{
	unsigned failed = 0;
	struct diag_run last = {0};
	for (size_t i = 0; i < c->r.runs.n; i++) {
		struct diag_run r;
		diag_read_run(&c->r.runs.v[i], &r);
		for (int t = 0; t < DIAG_NTESTS; t++) {
			double index = printed_index(&c->r.runs.v[i], (enum diag_test)t);
			double share = share_of_rest(&r, index, (enum diag_test)t);
			if (!(share < TEST_FAILED))
				continue;
			if (!failed)
				diag_fire(d, DC_HIGH, DT(t),
					  "%s scored almost nothing while the other tests ran normally: the test failed or "
					  "could not run (a process or memory limit, a missing program, a crash), and its "
					  "index drags the score down",
					  ub_tests[t].label);
			failed |= DT(t);
			d->affects |= DT(t);
			last = r;
			char run[32] = "copies unknown";
			if (r.copies)
				snprintf(run, sizeof(run), "%u %s", r.copies, copies_word(r.copies));
			diag_evidence(d, "%s: %s index %.1f, %.2f %% of the other tests' geometric mean %.1f", run,
				      ub_tests[t].label, index, share * 100, diag_gm(&r, DT_ALL & ~DT(t)));
		}
	}
	if (failed)
		d->expect = xasprintf("an index for the failed test like the others' once it runs; without it the "
				      "score is %.1f",
				      diag_gm(&last, DT_ALL & ~failed));
}

/* ---- the container's CPU quota ---- */

static void check_cpu_quota(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_cgroup *cg = &diag_env(c)->cgroup;
	const struct env_finding *quota = diag_finding(c, "cgroup.cpu-quota");
	size_t events = diag_events(c, "cpu-quota", NULL);
	double throttled = num_or(c->r.sampler.throttled_s, 0);
	if (!events && !quota) {
		/* records made before ubtune read cgroups say nothing either way */
		if (cg->cpu_quota_cpus.known)
			diag_set_normal(d, "CPU quota of the cgroup %g CPUs, not below the %u online",
					cg->cpu_quota_cpus.v, c->cpus);
		else if (cg->version.known || c->r.sampler.sources.cgroup)
			diag_set_normal(d, "no CPU quota on ubtune's cgroup%s",
					c->r.sampler.sources.cgroup ? ", and no throttling during the run" : "");
		return;
	}
	diag_fire(d, events ? DC_HIGH : DC_MEDIUM, DT_ALL, "%s",
		  events ? "the CPU quota of ubtune's cgroup (a container, a service's CPUQuota=, a pod's CPU limit) "
			   "stopped the tests each time they had used it up, so they ran a share of the time"
			 : "the CPU quota of ubtune's cgroup is below the CPUs online: the copies share what it allows");
	diag_evidence_events(d, c, "cpu-quota", 4);
	if (throttled > 0)
		diag_evidence(d, "held back %.1f s in all while the tests ran (sampler, %s/cpu.stat)", throttled,
			      c->r.sampler.sources.cgroup);
	if (quota)
		diag_evidence_finding(d, quota);
	else if (cg->cpu_quota_cpus.known)
		diag_evidence(d, "%s: %g CPUs", cg->cpu_quota_source ?: "cpu.max", cg->cpu_quota_cpus.v);
	/* below one CPU even one copy runs that share of the time */
	const struct diag_run *one = diag_single(c);
	double q = num_or(cg->cpu_quota_cpus, 0);
	for (int t = 0; one && q > 0 && q < 1 && t < DIAG_NTESTS; t++)
		if (!isnan(one->index[t]))
			diag_gain(d, one, (enum diag_test)t, one->index[t] / q);
	d->expect = xstrdup("without the quota every test runs at the machine's speed: the 1-copy run too when the "
			    "quota is below one CPU, the multi-copy run up to a copy per CPU");
	diag_gain_scaling(d, c, DT_CPU | DT_KERNEL);
}

const struct diag_rule diag_rules_system[] = {
	{
		.id = "diag.cpu-quota",
		.title = "CPU quota of the container",
		.fix = "benchmark where no CPU quota applies: `docker run` without --cpus / --cpu-quota, a service "
		       "without CPUQuota=, a pod without a CPU limit (`cat /sys/fs/cgroup/cpu.max` says max); or "
		       "report the score as that of the quota, not of the machine",
		.experiment = "run once without the quota (or with it raised to the CPU count), then `ubtune compare "
			      "last~1 last`: every test should gain, the multi-copy run most",
		.check = check_cpu_quota,
	},
	{
		.id = "diag.storage-bound-workdir",
		.title = "Benchmark directory on a disk or card instead of tmpfs",
		.fix = "a tmpfs workdir: `[workdir] type = tmpfs` in a profile and `ubtune apply`, or `ubtune bench "
		       "--workdir DIR` on a tmpfs (UnixBench's Run: UB_TMPDIR=/dev/shm/ub)",
		.experiment = "run once with the workdir on tmpfs, then `ubtune compare last~1 last`: File Copy should "
			      "move, Dhrystone should not",
		.check = check_storage,
	},
	{
		.id = "diag.vmm-process-creation",
		.title = "Process creation is slow in this VM",
		.fix = "run the guest under QEMU/KVM (`-accel kvm -cpu host`) rather than kvmtool, with its memory on "
		       "huge pages on the host (transparent huge pages, or -mem-path on hugetlbfs)",
		.experiment = "boot the same guest image under another VMM (or with huge-page memory), run again, "
			      "then `ubtune compare`",
		.check = check_vmm,
	},
	{
		.id = "diag.vcpu-overcommit",
		.title = "Overcommitted vCPUs (preempted by the host)",
		.fix = "no more vCPUs than free host CPUs, pinned 1:1 (`virsh vcpupin`, or fewer -smp CPUs); a guest "
		       "kernel that knows preempted vCPUs (vcpu_is_preempted, arm64 since 5.x) suffers less",
		.experiment = "run with half the vCPUs (or pinned 1:1) and the same copies per vCPU, then `ubtune "
			      "compare`",
		.check = check_overcommit,
	},
	{
		.id = "diag.context-switch",
		.title = "Slow wake-ups between processes",
		.fix = "keep the performance governor and shallow idle states for the run (kernel parameter "
		       "cpuidle.off=1 or processor.max_cstate=1); check with both processes on one CPU: "
		       "`taskset -c 0 ubtune bench --tests context1 --copies 1`",
		.experiment = "run Pipe-based Context Switching pinned to one CPU and unpinned, then `ubtune compare`",
		.generic = true,
		.check = check_context,
	},
	{
		.id = "diag.filecopy-copies",
		.title = "File Copy copies contend with each other",
		.fix = "read File Copy from the 1-copy run; for the multi-copy one, give each copy its own files "
		       "(a UnixBench whose fstime opens files per copy)",
		.experiment = "run File Copy alone with 1, 2 and 4 copies (`ubtune bench --tests fstime --copies "
			      "1,2,4`): the index falls as copies are added",
		.check = check_filecopy_copies,
	},
	{
		.id = "diag.test-failed",
		.title = "A test failed",
		.fix = "run the test alone and read what it prints (UnixBench: `./Run spawn`, `./Run -v spawn`): a "
		       "limit on processes (`ulimit -u`, a container's numproc) or memory stops Process Creation and "
		       "the shell tests, a missing program the others; fix that, then run the suite again",
		.experiment = "run the failed test alone, then the whole suite, and `ubtune compare last~1 last`",
		.any_baselines = true,
		.check = check_failed_test,
	},
	{
		.id = "diag.shell-only",
		.title = "Shell Scripts slow on their own",
		.fix = "see what /bin/sh is (`readlink -f /bin/sh`): dash runs the scripts faster than bash; the "
		       "scripts need sort, grep, od, wc and tr from the system (not busybox), and the en_US.utf8 locale",
		.experiment = "run the shell tests with /bin/sh pointing at dash, then `ubtune compare`",
		.check = check_shell,
	},
	{ 0 },
};
