/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes in the machine under the suite: emulation, supply, heat, scaling,
 * copies (too few, or gaining nothing), clocks, compiler, other load, swapping.
 *
 * Thresholds come from reference/published-results.json; each says which
 * published runs it separates.
 */
#include "diagnose.h"

/* Published 1-copy runs on real hardware (bare metal or KVM) have
 * Dhrystone 2 1010-2476 and a pipe/system-call mean of 112-1407; the TCG
 * guest 23.5 and 3.4. Ten times below real hardware: */
#define EMULATED_DHRY 100.0
#define EMULATED_KERNEL 20.0
/* Every test at this share of the same CPU's runs or less (TCG: 0.02) */
#define EMULATED_REF_RATIO 0.1
/* Emulation translates plain code once and then runs it at a fair share of
 * native speed, but every system call and context switch goes through the
 * emulator: the pipe and system-call tests fall to a few per cent of
 * Dhrystone (arm64 under qemu TCG: 8 against 390, 2 %). Published runs on
 * real hardware keep them at 39 or more per copy and at 6 % or more of
 * Dhrystone (a Raspberry Pi 4: 0.068); both must fail. */
#define EMULATED_KERNEL_SHARE 0.05
/* A full-system emulator (qemu-system TCG) runs a guest's own kernel as
 * translated code: system calls stay fast, but the pipe test's context
 * switches do not. Published riscv64 guests: Pipe Throughput 7.0-15.4 per
 * copy, 4.0-5.8 % of Dhrystone 2; the slowest real boards (Allwinner D1,
 * 1 core at 1 GHz) 116 and 44 %, real x86 and arm64 runs 130 or more and
 * 7 % or more. */
#define EMULATED_PIPE 20.0
#define EMULATED_PIPE_SHARE 0.065
/* Emulators differ by guest: published qemu riscv64 guests reach Dhrystone
 * 2 172-372 per copy, about what real riscv64 boards do (263-1238). Below
 * this, a speed that is not slow does not show the CPU is real. */
#define REAL_DHRY 1000.0
#define REAL_KERNEL 200.0
/* On x86 BogoMIPS is twice the TSC clock. Published 1-copy x86 runs reach
 * 890-1294 Dhrystone 2 per GHz of that clock (an Atom C3955 at 2.1 GHz, a
 * Xeon E5-2650 v4 at 2.2, Xeon cloud vCPUs at 2.0-2.6); a sixth of the
 * slowest is no hardware running at its clock. */
#define X86_DHRY_PER_GHZ_MIN 150.0
/* ... unless the pipe and system-call tests keep this share of Dhrystone or more: published Xen
 * guests of a Xeon E5430 capped to part of a core (the corpus's onyx 0.26-0.28, patulea-domu
 * 0.075-0.38 over their passes), one copy under QEMU's TCG 0.063 (the RK3568 write-up) */
#define EMULATED_CAPPED_SHARE 0.07

/* Per-copy efficiency below DIAG_DIAG_SCALING_POOR: poor; below this: mild. */
#define SCALING_MILD 0.85
/* Later multi-copy tests scaling worse than the first: heat building up. */
#define SCALING_WORSENING 0.85
/* Shell Scripts (8 concurrent) over (1 concurrent) in the 1-copy run, with
 * 4 or more CPUs: published runs on real hardware 1.79-2.95 (TCG 1.17),
 * the undervolted Pi 4 0.96. */
#define SHELL8_FLAT 1.3
/* Single-copy CPU tests at this share of the references or more: the
 * machine is fine until all its cores are loaded. */
#define SINGLE_OK 0.85
/* Dhrystone/Whetstone against the kernel tests, compared with the same
 * CPU's runs: a compiler effect shows as the CPU tests alone being low. */
#define BUILD_CPU_LOW 0.92
#define BUILD_CPU_LOW_UNKNOWN_FLAGS 0.85
/* UnixBench 5.1.3's Run skips 'system' tests above this many copies. */
#define UB513_MAX_COPIES 16
/* An "others" event lasting this long during the run is no blip. */
#define BUSY_LONG_S 10.0

static const char *copies_word(unsigned n)
{
	return n == 1 ? "copy" : "copies";
}

static double pct(double share)
{
	return share * 100;
}

/* ---- software emulation ---- */

/* Can this guest be running without hardware virtualisation? */
static bool emulation_possible(const struct diag_case *c)
{
	if (c->virt == DV_NONE)
		return false;
	if (c->virt != DV_GUEST || !c->hypervisor)
		return true;
	return streq(c->hypervisor, "qemu") || streq(c->hypervisor, "unknown");
}

static void check_emulation(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *r = diag_single(c) ?: diag_multi(c);
	const struct env_finding *f = diag_finding(c, "virt.emulated");
	unsigned par = diag_parallel(c, r);
	double dhry = r->index[DT_DHRY] / par, kernel = diag_gm(r, DT_KERNEL) / par, pipe = r->index[DT_PIPE] / par;
	const struct diag_match *m = diag_match_of(c, r);
	double ratio = m->n && m->refs[0]->virt != DV_EMULATED ? diag_vs_ref(c, r, DT_ALL) : NAN;
	/* a partial run may lack Dhrystone or the kernel tests: what it has must be slow */
	bool slow = (dhry > 0 || kernel > 0) && !(dhry >= EMULATED_DHRY) && !(kernel >= EMULATED_KERNEL);
	/* or the kernel tests alone are slow, far below plain code (a fast host's emulator) */
	bool lopsided = !slow && dhry > 0 && kernel > 0 && kernel < EMULATED_KERNEL &&
			kernel / dhry < EMULATED_KERNEL_SHARE;
	/* or the pipe test alone (a whole guest system emulated) */
	bool pipe_slow = !slow && !lopsided && dhry > 0 && pipe > 0 && pipe < EMULATED_PIPE &&
			 pipe / dhry < EMULATED_PIPE_SHARE;
	/* x86: Dhrystone far below what the clock BogoMIPS implies does, with the kernel tests as far
	 * below it as an emulator keeps them; with them at a real CPU's share of Dhrystone the vCPU
	 * gets part of a core (a capped Xen vCPU), the level rules' case */
	double ghz = c->hdr.bogomips_mhz / 1000;
	bool clock_slow = ghz > 0 && dhry > 0 && dhry / ghz < X86_DHRY_PER_GHZ_MIN &&
			  !(kernel / dhry >= EMULATED_CAPPED_SHARE);
	bool shape = slow || lopsided || pipe_slow || clock_slow;
	bool ref = ratio < EMULATED_REF_RATIO;

	if (!f && c->virt != DV_EMULATED && !emulation_possible(c)) {
		diag_set_normal(d, "%s: the CPU runs the code, nothing is emulated",
				c->virt == DV_NONE ? "bare metal" : "hardware virtualisation");
		return;
	}
	if (!f && c->virt != DV_EMULATED && !shape && !ref) {
		if (dhry >= REAL_DHRY)
			diag_set_normal(d, "Dhrystone 2 %.1f per copy: real hardware speed, not emulation", dhry);
		else if (dhry > 0)
			diag_set_unchecked(d, "emulation: Dhrystone 2 %.1f per copy fits a slow core and an emulator "
					      "alike (qemu riscv64 guests: 172-372)",
					   dhry);
		else if (kernel >= REAL_KERNEL)
			diag_set_normal(d, "the pipe and system-call tests %.1f per copy: real hardware speed, not "
					   "emulation",
					kernel);
		else if (kernel > 0)
			diag_set_unchecked(d, "emulation: the pipe and system-call tests %.1f per copy fit a slow core "
					      "and an emulator alike",
					   kernel);
		else
			diag_set_unchecked(d, "emulation: neither Dhrystone nor the pipe and system-call tests ran");
		return;
	}
	enum diag_confidence conf = shape && ref ? DC_HIGH : DC_MEDIUM;
	if (f || c->virt == DV_EMULATED || c->virt == DV_GUEST)
		conf = DC_HIGH;
	if (pipe_slow && !ref)
		diag_fire(d, conf, DT_ALL, "the pipe test runs at a few per cent of the plain code's speed: a whole "
					   "guest system is emulated in software");
	else if (clock_slow && !slow && !lopsided && !ref)
		diag_fire(d, conf, DT_ALL, "Dhrystone 2 runs at a fraction of what an x86 core does at its clock: the "
					   "CPU is emulated in software, or held far below its clock");
	else
		diag_fire(d, conf, DT_ALL,
			  "every test runs at a few per cent of real hardware: the CPU is emulated in software");
	if (f)
		diag_evidence_finding(d, f);
	else if (c->virt == DV_GUEST)
		diag_evidence(d, "a guest of %s, and nothing shows hardware virtualisation (KVM)",
			      diag_hypervisor_name(c));
	if (lopsided)
		diag_evidence(d, "%u %s: the pipe and system-call tests %.1f per copy, %.1f %% of Dhrystone 2 (%.1f); "
				 "published runs on real hardware: 39 or more, and 6 %% or more of Dhrystone",
			      r->copies, copies_word(r->copies), kernel, pct(kernel / dhry), dhry);
	else if (pipe_slow)
		diag_evidence(d, "%u %s: Pipe Throughput %.1f per copy, %.1f %% of Dhrystone 2 (%.1f); published runs on "
				 "real hardware: 116 or more, and 7 %% or more of Dhrystone",
			      r->copies, copies_word(r->copies), pipe, pct(pipe / dhry), dhry);
	else if (shape && dhry > 0 && kernel > 0)
		diag_evidence(d, "%u %s: Dhrystone 2 %.1f and the pipe and system-call tests %.1f per copy; published "
				 "runs on real hardware: 1010 or more, and 112 or more",
			      r->copies, copies_word(r->copies), dhry, kernel);
	else if (shape)
		diag_evidence(d, "%u %s: %s %.1f per copy; published runs on real hardware: %s or more", r->copies,
			      copies_word(r->copies), dhry > 0 ? "Dhrystone 2" : "the pipe and system-call tests",
			      dhry > 0 ? dhry : kernel, dhry > 0 ? "1010" : "112");
	if (clock_slow)
		diag_evidence(d, "%u %s: Dhrystone 2 %.1f per copy on an x86 whose BogoMIPS (%.1f) say %.2f GHz: %.0f per "
				 "GHz, where published x86 runs reach 890 or more",
			      r->copies, copies_word(r->copies), dhry, c->hdr.bogomips_mhz * 2, ghz, dhry / ghz);
	if (ratio > 0)
		diag_evidence(d, "%u %s: the tests at %.1f %% of the published runs of %s (%s)", r->copies,
			      copies_word(r->copies), pct(ratio), m->refs[0]->cpu, m->refs[0]->id);
	if (!diag_gain_from_refs(d, c, DT_ALL, 0) || m->refs[0]->virt == DV_EMULATED)
		d->expect = xstrdup("with KVM a guest runs these tests at 65-150 % of bare metal "
				    "(published Cortex-A55 guests): tens of times the current scores");
}

/* ---- supply and heat ---- */

/* Why multi-copy runs scale badly, measured. */
struct scaling {
	double dhry, whet; /* per-copy efficiency, NAN when not measured */
	bool poor;         /* from the first multi-copy test on */
	bool worsening;    /* later tests worse than the first */
	bool shell_flat;   /* Shell Scripts 8 no better than 1 in the 1-copy run */
};

static struct scaling scaling_of(const struct diag_case *c)
{
	struct scaling s = { diag_scaling(c, DT_DHRY), diag_scaling(c, DT_WHET), false, false, false };
	s.poor = s.dhry < DIAG_SCALING_POOR;
	s.worsening = s.whet < s.dhry * SCALING_WORSENING && s.whet < SCALING_MILD;
	const struct diag_run *one = diag_single(c);
	unsigned cpus = c->cpus ?: diag_multi(c) ? diag_multi(c)->copies : 0;
	s.shell_flat = one && cpus >= 4 && one->index[DT_SH8] / one->index[DT_SH1] < SHELL8_FLAT;
	return s;
}

static void scaling_evidence(struct diagnosis *d, const struct diag_case *c, const struct scaling *s)
{
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (s->dhry > 0)
		diag_evidence(d, "%u copies: Dhrystone 2 %.1f = %.0f %% of %.3g × its 1-copy %.1f; Whetstone at %.0f %%",
			      many->copies, many->index[DT_DHRY], pct(s->dhry), diag_capacity(c, many),
			      one->index[DT_DHRY], pct(s->whet));
	if (s->shell_flat)
		diag_evidence(d, "1 copy: Shell Scripts (8 concurrent) %.1f, barely above (1 concurrent) %.1f: loading "
				 "every core is capped there too",
			      one->index[DT_SH8], one->index[DT_SH1]);
}

static bool sampled_alarms(const struct diag_case *c)
{
	return c->sampled && int_or(c->r.sampler.sources.hwmon_alarms, 0) > 0;
}

static void check_undervoltage(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_finding *now = diag_finding(c, "power.undervoltage"),
				 *since = diag_finding(c, "power.undervoltage-since-boot");
	size_t events = diag_events(c, "undervoltage", NULL);
	struct scaling s = scaling_of(c);
	bool board = diag_small_board(c), shape = s.poor || s.shell_flat;
	const struct diag_run *one = diag_single(c);
	double single = one ? diag_vs_ref(c, one, DT_CPU) : NAN;

	/* watched: the sampler read a voltage alarm, or the kernel log after
	 * the run has no undervoltage line */
	bool watched = sampled_alarms(c) || int_or(c->after.power.undervoltage_events, -1) == 0;
	if (!now && !since && !events && watched) {
		/* only worth saying where a supply can cap the clocks */
		if (board || sampled_alarms(c) || c->before.power.undervoltage_now.known)
			diag_set_normal(d, "no undervoltage during the run (%s)",
					sampled_alarms(c) ? "voltage alarm sampled" : "none in the kernel log");
		return;
	}
	enum diag_confidence conf = DC_NONE;
	if (events || now)
		conf = DC_HIGH;
	else if (since)
		conf = shape ? DC_HIGH : DC_LOW;
	else if (shape && board && !s.worsening && !(single < SINGLE_OK))
		conf = s.poor ? DC_MEDIUM : DC_LOW;
	if (conf == DC_NONE) {
		if (!c->probed && board)
			diag_set_unchecked(d, "supply voltage during the run: %s", diag_env_missing(c));
		return;
	}
	diag_fire(d, conf, DT_ALL,
		  events || now ? "the supply voltage sagged during the run: the firmware capped the clocks"
				: "all-core load collapses from the first multi-copy test on while one copy runs at full "
				  "speed: the pattern of a supply that sags (undervoltage caps the clocks)");
	diag_evidence_events(d, c, "undervoltage", 3);
	diag_evidence_events(d, c, "low-clock", 2);
	if (now)
		diag_evidence_finding(d, now);
	if (since)
		diag_evidence_finding(d, since);
	scaling_evidence(d, c, &s);
	if (single > 0)
		diag_evidence(d, "1 copy: Dhrystone and Whetstone at %.0f %% of the published runs of this CPU",
			      pct(single));
	if (s.poor && !s.worsening)
		diag_evidence(d, "already the first %u-copy test (Dhrystone) is capped: a limit that acts at once, "
				 "not heat that builds up",
			      diag_multi(c)->copies);
	diag_gain_scaling(d, c, DT_ALL);
	if (s.shell_flat)
		diag_gain_from_refs(d, c, DT(DT_SH8), DT(DT_SH1));
}

static void check_thermal(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_finding *throttled = diag_finding(c, "power.throttled"),
				 *near = diag_finding(c, "power.thermal-near-trip");
	size_t events = diag_events(c, "thermal", NULL) + diag_events(c, "throttle", NULL);
	struct scaling s = scaling_of(c);
	enum diag_confidence conf = DC_NONE;
	if (events)
		conf = DC_HIGH;
	else if (throttled || near)
		conf = s.poor || s.worsening ? DC_MEDIUM : DC_LOW;
	else if (s.worsening && !c->sampled)
		conf = DC_LOW;
	if (conf == DC_NONE) {
		if (c->sampled && c->r.sampler.max_temp_mc.known)
			diag_set_normal(d, "no thermal trip crossed and no throttling during the run (hottest %.1f °C)",
					(double)c->r.sampler.max_temp_mc.v / 1000);
		else if (c->sampled)
			diag_set_normal(d, "no thermal trip crossed and no throttling during the run");
		else if (!c->probed)
			diag_set_unchecked(d, "temperature and throttling during the run: %s", diag_env_missing(c));
		return;
	}
	diag_fire(d, conf, DT_ALL,
		  events ? "the CPU got hot enough during the run to be throttled"
			 : "the CPUs lose speed as the run goes on: heat builds up and the kernel throttles the clocks");
	diag_evidence_events(d, c, "thermal", 3);
	diag_evidence_events(d, c, "throttle", 3);
	diag_evidence_events(d, c, "low-clock", 2);
	if (throttled)
		diag_evidence_finding(d, throttled);
	if (near)
		diag_evidence_finding(d, near);
	scaling_evidence(d, c, &s);
	if (s.worsening)
		diag_evidence(d, "Whetstone (run after Dhrystone) scales worse than Dhrystone: %.0f %% against %.0f %%",
			      pct(s.whet), pct(s.dhry));
	diag_gain_scaling(d, c, DT_ALL);
}

static void check_scaling(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (!many) {
		diag_set_unchecked(d, "scaling: only 1 copy was run%s",
				   c->cpus > 1 ? "; a run with one copy per CPU shows how the machine scales" : "");
		return;
	}
	if (!one) {
		diag_set_unchecked(d, "scaling: no 1-copy run to compare the %u-copy run with", many->copies);
		return;
	}
	struct scaling s = scaling_of(c);
	double eff = isnan(s.whet) ? s.dhry : isnan(s.dhry) ? s.whet : sqrt(s.dhry * s.whet);
	double cap = diag_capacity(c, many);
	char cpus[96];
	diag_cpus_text(c, many, cpus, sizeof(cpus));
	if (isnan(eff)) {
		diag_set_unchecked(d, "scaling: Dhrystone and Whetstone did not run at both copy counts");
		return;
	}
	if (!(eff < SCALING_MILD)) {
		if (eff > 0)
			diag_set_normal(d, "%u copies run Dhrystone and Whetstone %.2f× as fast as 1 copy on %s",
					many->copies, eff * cap, cpus);
		return;
	}
	/* a hybrid part whose split is not known: its small cores may be all the gap */
	bool unsplit = c->topo.hybrid_unsplit;
	/*
	 * Nothing says whether the CPUs are cores or SMT siblings (a log pasted
	 * without its CPU lines, no probe): on siblings two to a core the same
	 * numbers may be what the machine gives. The 32-copy runs of 16-core,
	 * 32-thread Ryzen 9 9950X servers whose posts give lscpu but whose logs
	 * lack the CPU lines (catcat-self-9950x-benchmark.md,
	 * catcat-webnx-10g-amd-9950x-benchmark.md: 22.31× and 21.88× one copy)
	 * and the 6-core, 12-thread Xeon E-2336 (catcat-worldstream-nl-intelr-
	 * e-2336-benchmark.md: 8.25× at 12 copies) reach 0.68-0.70 of one copy
	 * per CPU and 1.09-1.12 on cores with siblings; the undervolted
	 * Raspberry Pi 4 (4 copies at 1.44×, rpi4-native-undervoltage) stays
	 * below DIAG_SCALING_POOR either way.
	 */
	unsigned n = (unsigned)(cap + 0.5);
	double smt = !c->topo.n && n >= 2 ? eff * cap / diag_smt_capacity(n) : NAN;
	bool maybe_smt = smt >= DIAG_SCALING_POOR;
	diag_fire(d, eff < DIAG_SCALING_POOR && !unsplit && !maybe_smt ? DC_MEDIUM : DC_LOW, DT_ALL,
		  "%u copies run the CPU tests only %.2f× as fast as 1 copy on %s: something caps the clocks or "
		  "takes the CPUs under all-core load (supply, heat, other processes, overcommitted vCPUs)",
		  many->copies, eff * cap, cpus);
	if (unsplit)
		diag_evidence(d, "the %s has performance and efficiency cores, and the record does not say how many of "
				 "each: the expectation counts them all as performance cores",
			      c->topo.hybrid_model);
	if (maybe_smt)
		diag_evidence(d, "nothing says whether the %u CPUs are cores or SMT siblings: on %u cores with a "
				 "sibling each, this is %.0f %% of what they give",
			      n, n / 2, pct(smt));
	scaling_evidence(d, c, &s);
	diag_gain_scaling(d, c, DT_ALL);
}

/* ---- copies ---- */

static void check_copies(const struct diag_case *c, struct diagnosis *d)
{
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		if (r->copies > UB513_MAX_COPIES && r->ntests == 0) {
			diag_fire(d, DC_HIGH, DT_ALL,
				  "the %u-copy run has no system test: UnixBench 5.1.3 skips them above 16 copies",
				  r->copies);
			diag_evidence(d, "runs[%zu]: %u copies, 0 tests scored", i, r->copies);
			d->expect = xasprintf("a %u-copy index at all, where there is none now", r->copies);
			return;
		}
	}
	const struct diag_run *many = diag_multi(c);
	if (!c->cpus) {
		diag_set_unchecked(d, "copies against CPUs: the number of online CPUs was not recorded");
		return;
	}
	if (!many)
		return;
	if (many->copies >= c->cpus) {
		diag_set_normal(d, "copies = online CPUs (%u)", c->cpus);
		return;
	}
	/* a run starts as many copies as its cgroup lets it keep busy */
	int64_t allowed = int_or(diag_env(c)->cgroup.cpus, 0);
	if (allowed > 0 && many->copies >= allowed) {
		diag_set_normal(d, "copies = the %lld CPUs ubtune's cgroup allows (of %u online)", (long long)allowed,
				c->cpus);
		return;
	}
	diag_fire(d, DC_HIGH, DT_ALL, "the widest run used %u copies on %u CPUs: %u CPUs sat idle", many->copies,
		  c->cpus, c->cpus - many->copies);
	diag_evidence(d, "runs: %u copies at most; online CPUs %u", many->copies, c->cpus);
	if (many->copies == UB513_MAX_COPIES)
		diag_evidence(d, "16 is UnixBench 5.1.3's cap (maxCopies of the 'system' tests in Run)");
	for (int t = 0; t < DIAG_NTESTS; t++)
		if (DT(t) & DT_CPU)
			diag_gain(d, many, (enum diag_test)t, many->index[t] * c->cpus / many->copies);
}

/* ---- copies that gain nothing ---- */

/*
 * N copies no faster than one, on N CPUs, in tests whose copies share
 * nothing: the copies got one CPU's time between them. The runs of the
 * published corpus (tests/fixtures/unixbench-published) gain 3.2-4.0x in
 * Dhrystone 2 at 4 copies and 4.5x or more at 8 (on 8 threads of 4 cores);
 * the 2-CPU OpenVZ container of Teddysun's sample run 0.98x, its pipe and
 * system-call tests 0.98-1.01x, at 2 copies.
 */
#define NO_GAIN 1.1

/* N copies' index of test t over one copy's; NAN when either is missing. */
static double copies_gain(const struct diag_run *one, const struct diag_run *many, enum diag_test t)
{
	return many->index[t] / one->index[t];
}

/* OpenVZ's kernels ("2.6.32-042stab076.8") run containers with CPU limits. */
static bool openvz_kernel(const struct diag_case *c)
{
	return c->hdr.kernel && strstr(c->hdr.kernel, "stab");
}

static void check_no_gain(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (!one || !many || c->cpus < 2 || diag_parallel(c, many) < 2)
		return;
	double dhry = copies_gain(one, many, DT_DHRY), pipe = copies_gain(one, many, DT_PIPE),
	       sys = copies_gain(one, many, DT_SYSCALL);
	if (!(dhry < NO_GAIN))
		return;
	bool kernel = pipe < NO_GAIN && sys < NO_GAIN;
	enum diag_confidence conf = kernel ? DC_MEDIUM : DC_LOW;
	if (kernel && openvz_kernel(c))
		conf = diag_raise(conf);
	diag_fire(d, conf, DT_ALL,
		  "%u copies on %u CPUs run Dhrystone 2 no faster than 1 copy: the copies shared one CPU's time, as "
		  "under a container's CPU limit or quota, or CPUs that are listed but not really there",
		  many->copies, diag_parallel(c, many));
	diag_evidence(d, "Dhrystone 2: %.1f with 1 copy, %.1f with %u copies (%.2f×; published runs: 3.2× or more at "
			 "4 copies)",
		      one->index[DT_DHRY], many->index[DT_DHRY], many->copies, dhry);
	if (kernel)
		diag_evidence(d, "Pipe Throughput %.2f× and System Call Overhead %.2f× at %u copies: every test whose "
				 "copies share nothing stays at one CPU's worth",
			      pipe, sys, many->copies);
	/* UnixBench 5.1's Whetstone times its copies by the CPU time they get
	 * (byte-unixbench issues 15 and 18): it rises with the copies even
	 * when they take turns on one CPU */
	double whet = copies_gain(one, many, DT_WHET);
	if (whet >= NO_GAIN)
		diag_evidence(d, "Whetstone %.2f× at %u copies: it counts the CPU time each copy gets, not the wall "
				 "time, so it rises even when the copies take turns",
			      whet, many->copies);
	if (openvz_kernel(c))
		diag_evidence(d, "kernel %s: an OpenVZ kernel, whose containers run under a CPU limit", c->hdr.kernel);
	diag_gain_scaling(d, c, DT_CPU | DT_KERNEL);
}

/* ---- clocks ---- */

/* The clock findings of the probe and how much each costs: a governor that
 * holds the clock low or ramps slowly, against one that ramps fast. */
static const struct {
	const char *id;
	enum diag_confidence conf;
	const char *what; /* NULL: "governor NAME" */
} clock_findings[] = {
	{ "cpu.governor.powersave", DC_MEDIUM, NULL },
	{ "cpu.governor.conservative", DC_MEDIUM, NULL },
	{ "cpu.governor.userspace", DC_MEDIUM, NULL },
	{ "cpu.governor.ondemand", DC_LOW, NULL },
	{ "cpu.governor.schedutil", DC_LOW, NULL },
	{ "cpu.governor.other", DC_LOW, NULL },
	{ "cpu.max-freq-capped", DC_MEDIUM, "maximum frequency capped" },
	{ "power.on-battery", DC_MEDIUM, "on battery" },
};

/* intel_pstate's and amd-pstate-epp's powersave is their dynamic governor. */
static enum diag_confidence clock_cost(const struct diag_case *c, size_t i)
{
	const char *driver = diag_env_str(c, cpu.freq.driver);
	if (streq(clock_findings[i].id, "cpu.governor.powersave") &&
	    (streq_ptr(driver, "intel_pstate") || streq_ptr(driver, "amd-pstate-epp")))
		return DC_LOW;
	return clock_findings[i].conf;
}

/* Low-clock events while one copy ran: the clock stayed low under load. */
static size_t single_copy_low_clock(const struct diag_case *c, struct diagnosis *d)
{
	size_t count = 0;
	diag_foreach_event(c, e)
		if (streq_ptr(e->kind, "low-clock") && int_or(e->copies, 0) == 1 && count++ < 3)
			diag_evidence(d, "during the run: %s", e->message);
	return count;
}

static void check_governor(const struct diag_case *c, struct diagnosis *d)
{
	if (!c->probed) {
		diag_set_unchecked(d, "CPU frequency governor: %s", diag_env_missing(c));
		return;
	}
	enum diag_confidence conf = DC_NONE;
	const struct env_finding *first = NULL;
	const char *gov = diag_env_str(c, cpu.freq.governor);
	struct buf why = {0};
	for (size_t i = 0; i < ARRAY_SIZE(clock_findings); i++) {
		const struct env_finding *f = diag_finding(c, clock_findings[i].id);
		if (!f)
			continue;
		if (!first)
			first = f;
		if (clock_cost(c, i) > conf)
			conf = clock_cost(c, i);
		if (clock_findings[i].what)
			buf_printf(&why, "%s%s", why.len ? ", " : "", clock_findings[i].what);
		else
			buf_printf(&why, "%sgovernor %s", why.len ? ", " : "", gov ?: "not performance");
		diag_evidence_finding(d, f);
	}
	if (!first) {
		if (gov)
			diag_set_normal(d, "CPU frequency governor %s", gov);
		else
			diag_set_normal(d, "no CPU frequency scaling: the %s sets the clock",
					c->virt == DV_GUEST ? "host" : "firmware");
		return;
	}
	diag_fire(d, conf, DT_ALL, "the CPU clock is not held at its maximum while the tests run: %s", why.s);
	buf_free(&why);
	if (single_copy_low_clock(c, d))
		d->confidence = diag_raise(d->confidence);
	const struct diag_run *one = diag_single(c);
	double single = one ? diag_vs_ref(c, one, DT_CPU) : NAN;
	if (single < SINGLE_OK) {
		diag_evidence(d, "1 copy: Dhrystone and Whetstone at %.0f %% of the published runs of this CPU",
			      pct(single));
		d->confidence = diag_raise(d->confidence);
		diag_gain_from_refs(d, c, DT_CPU, 0);
	} else {
		d->expect = xstrdup("a few per cent on short tests that start from an idle CPU (Pipe-based Context "
				    "Switching, Execl, Shell Scripts); more when the clock stays low");
	}
	if (first->fix)
		d->fix = xstrdup(first->fix);
}

/* ---- compiler ---- */

static bool flags_weak(const char *cflags)
{
	bool opt = strstr(cflags, "-O3") || strstr(cflags, "-Ofast");
	bool tuned = strstr(cflags, "-march=") || strstr(cflags, "-mcpu=") || strstr(cflags, "-mtune=");
	return !opt || !tuned;
}

static void check_build(const struct diag_case *c, struct diagnosis *d)
{
	const char *cflags = c->r.build.cflags;
	const struct diag_run *one = diag_single(c);
	/* the CPU tests low against the references, and lower than the kernel
	 * tests: a slower clock would lower both */
	double cpu = one && diag_comparable(c, one) ? diag_vs_ref(c, one, DT_CPU) : NAN;
	double rel = cpu / diag_vs_ref(c, one, DT_KERNEL);
	bool prebuilt = is_true(c->r.engine.prebuilt);
	if (!cflags) {
		if (cpu < BUILD_CPU_LOW_UNKNOWN_FLAGS && rel < BUILD_CPU_LOW_UNKNOWN_FLAGS) {
			diag_fire(d, DC_LOW, DT_CPU,
				  "Dhrystone and Whetstone are low against the same CPU's published runs while the "
				  "kernel tests match: compiler, flags or a lower clock");
			diag_evidence(d, "1 copy: Dhrystone and Whetstone at %.0f %% of what the kernel tests predict "
					 "from the published runs",
				      pct(rel));
			diag_gain_from_refs(d, c, DT_CPU, DT_KERNEL);
		} else {
			diag_set_unchecked(d, "compiler flags: %s",
					   c->imported ? "an imported log does not record them"
					   : c->r.build.json ? "the build used the programs' default flags"
					   : prebuilt  ? "prebuilt programs, their flags are not recorded"
						       : "no build record");
		}
		return;
	}
	if (!flags_weak(cflags)) {
		diag_set_normal(d, "built with %s", cflags);
		return;
	}
	bool low = cpu < BUILD_CPU_LOW && rel < BUILD_CPU_LOW;
	diag_fire(d, low ? DC_MEDIUM : DC_LOW, DT_CPU,
		  "the programs were built without %s: Dhrystone and Whetstone measure the compiler as much as the CPU",
		  strstr(cflags, "-O3") || strstr(cflags, "-Ofast") ? "tuning for this CPU (-march/-mcpu/-mtune)"
								    : "-O3");
	diag_evidence(d, "build: %s %s", c->r.build.cc_version ?: c->r.build.cc ?: "cc", cflags);
	if (low)
		diag_evidence(d, "1 copy: Dhrystone and Whetstone at %.0f %% of what the kernel tests predict from the "
				 "published runs",
			      pct(rel));
	if (!diag_gain_from_refs(d, c, DT_CPU, DT_KERNEL))
		d->expect = xstrdup("Dhrystone and Whetstone move with the flags; the other tests do not");
}

/* ---- other load ---- */

static void check_busy(const struct diag_case *c, struct diagnosis *d)
{
	double longest = 0;
	diag_foreach_event(c, e)
		if (streq_ptr(e->kind, "others") && e->duration_s.known)
			longest = fmax(longest, e->duration_s.v);
	bool busy = is_true(c->r.preflight.busy);
	const struct env_finding *noisy = diag_finding(c, "services.noisy") ?: diag_finding(c, "services.graphical-target"),
				 *load = diag_finding(c, "load.busy");
	size_t events = diag_events(c, "others", NULL);
	enum diag_confidence conf = events ? (longest >= BUSY_LONG_S ? DC_HIGH : DC_MEDIUM)
				    : busy || load ? DC_MEDIUM
				    : noisy	   ? DC_LOW
						   : DC_NONE;
	if (conf == DC_NONE) {
		if (c->sampled)
			diag_set_normal(d, "no other process above 10 %% of a CPU during the run");
		else if (!c->probed)
			diag_set_unchecked(d, "other processes and services: %s", diag_env_missing(c));
		return;
	}
	diag_fire(d, conf, DT_ALL, "%s",
		  events	 ? "other processes took CPU time while the tests ran"
		  : busy || load ? "the machine was busy when the run started"
				 : "services that wake up during a benchmark were running (printing, mDNS, "
				   "desktop, timers)");
	diag_evidence_events(d, c, "others", 4);
	if (busy) {
		diag_evidence(d, "before the run: %.0f %% of all CPUs busy (preflight)", num_or(c->r.preflight.cpu_pct, 0));
	}
	if (load)
		diag_evidence_finding(d, load);
	if (noisy)
		diag_evidence_finding(d, noisy);
	const struct env_finding *gui = diag_finding(c, "services.graphical-target");
	if (gui && gui != noisy)
		diag_evidence_finding(d, gui);
	d->expect = xstrdup("the tests that ran while others were busy come back to the level of the rest");
}

static void check_swap(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_finding *used = diag_finding(c, "memory.swap-in-use");
	size_t events = diag_events(c, "swap", NULL);
	if (!events && !used) {
		if (c->sampled)
			diag_set_normal(d, "no swapping during the run");
		else if (!c->probed)
			diag_set_unchecked(d, "swapping: %s", diag_env_missing(c));
		return;
	}
	diag_fire(d, events ? DC_HIGH : DC_LOW, DT_ALL,
		  events ? "the machine swapped during the run: tests waited for the disk"
			 : "swap was in use before the run: memory is short, a multi-copy run may swap");
	diag_evidence_events(d, c, "swap", 3);
	if (used)
		diag_evidence_finding(d, used);
	d->expect = xstrdup("the tests that ran while swapping come back to the level of the rest");
}

const struct diag_rule diag_rules_machine[] = {
	{
		.id = "diag.software-emulation",
		.title = "The CPU is emulated (QEMU without KVM)",
		.fix = "run the guest with KVM: `qemu-system-… -accel kvm -cpu host` (or -enable-kvm); the host needs "
		       "/dev/kvm, and an arm64 host kernel must boot at EL2 (`dmesg | grep 'started at EL'`)",
		.experiment = "start the same guest with KVM, run `ubtune bench` in it, then `ubtune compare`",
		.check = check_emulation,
	},
	{
		.id = "diag.undervoltage",
		.title = "Power supply too weak (undervoltage)",
		.fix = "a stronger supply with a short, thick cable (Raspberry Pi 4: 5.1 V / 3 A); afterwards the "
		       "kernel log has no 'Undervoltage detected'",
		.experiment = "swap the supply, run 1 copy and one copy per CPU again, then `ubtune compare last~1 "
			      "last`: the N-copy CPU tests should reach about N × the 1-copy ones",
		.check = check_undervoltage,
	},
	{
		.id = "diag.thermal-throttling",
		.title = "The CPU is throttled by heat",
		.fix = "better cooling (heatsink, fan, airflow), and a cool machine at the start of the run",
		.experiment = "add cooling or let the machine cool down, run again, then `ubtune compare last~1 last`",
		.check = check_thermal,
	},
	{
		.id = "diag.poor-scaling",
		.title = "Multi-copy scores scale far below the CPU count",
		.fix = "find what takes the clock or the CPUs under all-core load: `ubtune bench` samples clocks, "
		       "temperature, alarms, steal time and other processes during the run",
		.experiment = "run 1 copy and one copy per CPU with `ubtune bench` and read its events",
		.generic = true,
		.check = check_scaling,
	},
	{
		.id = "diag.copies-capped",
		.title = "Fewer copies than CPUs",
		.fix = "run one copy per online CPU: `ubtune bench --copies 1,all` (profile key `[bench] copies = 1, "
		       "all`); UnixBench 5.1.3's Run caps the 'system' tests at 16 copies (maxCopies), 6.0 does not",
		.experiment = "run with one copy per CPU, then `ubtune compare last~1 last`",
		.check = check_copies,
	},
	{
		.id = "diag.copies-no-gain",
		.title = "Copies gain nothing: a CPU limit, or CPUs that are not there",
		.fix = "find what holds the copies to one CPU: a container's CPU limit or quota (cgroup cpu.max, "
		       "OpenVZ's cpulimit and cpus, LXC's limits.cpu), a cloud instance out of CPU credits, or vCPUs "
		       "that share one host CPU; lift it, or run as many copies as the CPUs the machine really gets",
		.experiment = "run Dhrystone with 1 copy and one per CPU (`ubtune bench --tests dhry2reg --copies "
			      "1,all`) and watch `top`: copies that each get a share of one CPU show the limit",
		.check = check_no_gain,
	},
	{
		.id = "diag.governor",
		.title = "CPU clock not held at its maximum",
		.fix = "the performance governor: `[cpu] governor = performance` in a profile and `ubtune apply`, or "
		       "`echo performance | tee /sys/devices/system/cpu/cpufreq/policy*/scaling_governor` as root",
		.experiment = "`ubtune apply` a profile with the performance governor, run again, then `ubtune compare "
			      "last~1 last`; `ubtune revert` afterwards",
		.check = check_governor,
	},
	{
		.id = "diag.build-flags",
		.title = "Compiler flags weaker than the published runs'",
		.fix = "build with UnixBench 6's own flags: `[build] cflags = -O3 -ffast-math -march=native "
		       "-mtune=native` (arm64: -mcpu=native) and the same compiler as the runs you compare with",
		.experiment = "rebuild with the profile's flags, run again, then `ubtune compare last~1 last`: only "
			      "Dhrystone and Whetstone should move",
		.check = check_build,
	},
	{
		.id = "diag.busy-machine",
		.title = "Other processes competed with the benchmark",
		.fix = "stop them for the run: `ubtune apply` stops irqbalance, numad, printing, mDNS and desktop "
		       "services (`[services] stop`), and waits for a quiet machine",
		.experiment = "stop the busy services (`ubtune apply`), run again, then `ubtune compare last~1 last`",
		.check = check_busy,
	},
	{
		.id = "diag.swapping",
		.title = "The machine swapped during the run",
		.fix = "free memory before the run (close programs, a smaller tmpfs workdir), or run fewer copies",
		.experiment = "free memory, run again, then `ubtune compare last~1 last`",
		.check = check_swap,
	},
	{ 0 },
};
