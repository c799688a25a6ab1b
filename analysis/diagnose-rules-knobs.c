/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes in the knobs around the CPU and the kernel that the probe reads
 * and a profile or a bench option sets: the memory controller's devfreq
 * governor, idle states and the DMA latency a run holds, process limits,
 * audit rules and seccomp, the kernel's mitigations, where the 1-copy
 * pass ran on a CPU of several kinds, boost and the energy preferences
 * (EPP, EPB).
 * Each reads the environment record (its facts and the probe's findings)
 * and what the run recorded (its options, tests and events). Records
 * without a probe (imported logs) know none of these: the rules stay
 * silent on them rather than list what no log says.
 */
#include <inttypes.h>

#include "diagnose.h"

/* Tests whose time goes to memory and the kernel's copies more than to
 * the core: what a slower DRAM clock lowers (the probe's
 * memory.devfreq-dynamic names the same tests). */
#define DT_MEMORY (DT_FILECOPY | DT(DT_PIPE) | DT(DT_EXECL) | DT_SHELL)
/* Tests that hand over between processes: each hand-over wakes a CPU. */
#define DT_WAKEUP (DT(DT_CTX) | DT(DT_SPAWN))
/* What an audit rule on system calls taxes: every entry into the kernel. */
#define DT_SYSCALLS (DT(DT_SYSCALL) | DT(DT_PIPE) | DT(DT_EXECL))

/* A group of tests against the same CPU's published runs, relative to
 * the tests its cause does not touch: below this, the group is held back
 * (the system rules' REL_MILD). */
#define KNOB_REL_LOW 0.8
/* Pipe-based Context Switching over Pipe Throughput, 1 copy: published
 * runs 0.17-0.66 (kvmtool 0.16); below 0.2 the wake-ups cost. */
#define CTX_LOW_SINGLE 0.2
/* An idle state this slow to leave makes a hand-over wait (the probe's
 * cpu.idle-deep-states uses the same bound): a DMA latency held below it
 * keeps the CPUs out of such states. */
#define DEEP_IDLE_US 50
/* Single-copy CPU tests at this share of the references or more: the
 * core got its clock (the machine rules' SINGLE_OK). */
#define SINGLE_CLOCK_OK 0.85
/* A 1-copy test whose measured clock stays below this share of the
 * kind's maximum did not boost (the clock rule's CLOCK_LOW_SHARE). */
#define SINGLE_CLOCK_SHARE 0.9

static const char *copies_word(int64_t n)
{
	return n == 1 ? "copy" : "copies";
}

/* Tests of mask against the references, relative to the tests of control;
 * NAN without comparable references. */
static double held_back(const struct diag_case *c, unsigned mask, unsigned control)
{
	const struct diag_run *r = diag_single(c) ?: diag_multi(c);
	if (!r || !diag_comparable(c, r))
		return NAN;
	return diag_vs_ref(c, r, mask) / diag_vs_ref(c, r, control);
}

static void held_back_evidence(struct diagnosis *d, const struct diag_case *c, unsigned mask, const char *what,
			       unsigned control, const char *control_what)
{
	const struct diag_run *r = diag_single(c) ?: diag_multi(c);
	const struct diag_match *m = diag_match_of(c, r);
	diag_evidence(d, "%u %s: %s at %.0f %% of the published runs of this CPU (%s), %s at %.0f %%", r->copies,
		      copies_word(r->copies), what, 100 * diag_vs_ref(c, r, mask), m->refs[0]->id, control_what,
		      100 * diag_vs_ref(c, r, control));
}

/* ---- the memory controller's clock ---- */

static const struct env_devfreq *memory_devfreq(const struct env_record *env)
{
	for (size_t i = 0; i < env->power.devfreq.n; i++)
		if (streq_ptr(env->power.devfreq.v[i].kind, "memory"))
			return &env->power.devfreq.v[i];
	return NULL;
}

static void check_memory_clock(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_devfreq *mem = memory_devfreq(diag_env(c)), *after = memory_devfreq(&c->after);
	const struct env_finding *f = diag_finding(c, "memory.devfreq-dynamic");
	if (!c->probed || !mem)
		return;
	if (!f) {
		diag_set_normal(d, "the memory controller's clock is held: %s governor %s", mem->name ?: "devfreq",
				mem->governor ?: "not known");
		return;
	}
	double rel = held_back(c, DT_MEMORY, DT_CPU);
	diag_fire(d, rel < KNOB_REL_LOW ? DC_MEDIUM : DC_LOW, DT_MEMORY,
		  "the memory controller's clock follows load (devfreq governor %s): DRAM runs below its top rate "
		  "when a test starts, and the memory-bound tests pay for it",
		  mem->governor ?: "not performance");
	diag_evidence_finding(d, f);
	if (after && after->cur_hz.known && after->max_hz.known)
		diag_evidence(d, "after the run: %s at %" PRId64 " of %" PRId64 " MHz", after->name ?: "devfreq",
			      after->cur_hz.v / 1000000, after->max_hz.v / 1000000);
	if (rel < KNOB_REL_LOW)
		held_back_evidence(d, c, DT_MEMORY, "File Copy, Pipe Throughput, Execl and Shell Scripts", DT_CPU,
				   "Dhrystone and Whetstone");
	if (f->fix)
		d->fix = xstrdup(f->fix);
	if (!(rel < KNOB_REL_LOW) || !diag_gain_from_refs(d, c, DT_MEMORY, DT_CPU))
		d->expect = xstrdup("File Copy, Pipe Throughput, Execl and Shell Scripts gain what the DRAM clock's "
				    "ramp costs them; Dhrystone and Whetstone do not move");
}

/* ---- idle states and the DMA latency ---- */

static void check_idle_wakeup(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_idle *idle = &diag_env(c)->cpu.idle;
	const typeof(c->r.options.dma_latency) *qos = &c->r.options.dma_latency;
	const struct env_finding *deep = diag_finding(c, "cpu.idle-deep-states");
	const struct diag_run *one = diag_single(c);
	double q1 = one ? one->index[DT_CTX] / one->index[DT_PIPE] : NAN;
	bool slow = q1 < CTX_LOW_SINGLE, guest = c->virt == DV_GUEST;
	int64_t held_us = is_true(qos->held) ? int_or(qos->requested_us, -1) : -1;

	if (held_us >= 0 && held_us < DEEP_IDLE_US) {
		diag_set_normal(d, "idle CPUs were held out of deep idle states for the run (DMA latency %" PRId64 " µs)",
				held_us);
		return;
	}
	/* a guest's vCPU halts to its host whatever its own states say */
	if (!deep && !(guest && slow && c->probed)) {
		if (c->probed && idle->deepest_latency_us.known)
			diag_set_normal(d, "idle states no slower to leave than %" PRId64 " µs (%s)",
					idle->deepest_latency_us.v, idle->driver ?: "cpuidle");
		return;
	}
	/* a guest's slow hand-overs have other causes too (published KVM guests
	 * reach 0.17×, healthy): alone they only hint */
	diag_fire(d, slow && deep ? DC_MEDIUM : DC_LOW, DT_WAKEUP,
		  "%s: every hand-over between two processes waits for a CPU to wake",
		  deep ? "idle CPUs sleep in states that are slow to leave, and the run did not hold them out"
		       : "an idle vCPU halts and is woken through the host");
	if (deep)
		diag_evidence_finding(d, deep);
	else
		diag_evidence(d, "a guest of %s; cpuidle driver %s", diag_hypervisor_name(c), idle->driver ?: "none");
	if (slow)
		diag_evidence(d, "1 copy: Pipe-based Context Switching %.1f = %.3f× Pipe Throughput %.1f (published 1-copy "
				 "runs: 0.17-0.66×)",
			      one->index[DT_CTX], q1, one->index[DT_PIPE]);
	if (qos->json && !is_true(qos->held))
		diag_evidence(d, "the run asked to hold the DMA latency, but could not: %s", qos->error ?: "not held");
	else if (held_us >= DEEP_IDLE_US)
		diag_evidence(d, "the run held the DMA latency at %" PRId64 " µs: deep enough for these states", held_us);
	/* the references say what the hand-overs should reach only where they are slow */
	if (slow && diag_gain_from_refs(d, c, DT_WAKEUP, DT_KERNEL))
		return;
	if (slow)
		diag_gain(d, one, DT_CTX, CTX_LOW_SINGLE * one->index[DT_PIPE]);
	d->expect = xstrdup("Pipe-based Context Switching and Process Creation gain, the more the idler the machine; "
			    "the other tests do not move");
}

/* ---- process limits ---- */

struct proc_limit {
	const char *name;
	int64_t v;
};

/* A limit that is a number ("unlimited", "max" and null are none). */
static bool limit_number(json_object *o, int64_t *v)
{
	if (!o || !(json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double)))
		return false;
	*v = json_object_get_int64(o);
	return true;
}

/* The lowest process limit known: the hard ulimit -u (a run raises the
 * soft one to it), the cgroup's pids.max, kernel.threads-max and pid_max. */
static bool lowest_limit(const struct diag_case *c, struct proc_limit *low)
{
	const struct env_limits *l = &diag_env(c)->host.limits;
	int64_t v;
	bool any = false;
	struct proc_limit all[4];
	size_t n = 0;
	if (c->r.options.nproc.hard.known)
		all[n++] = (struct proc_limit){ "ulimit -u (hard)", c->r.options.nproc.hard.v };
	else if (limit_number(l->nproc_hard, &v))
		all[n++] = (struct proc_limit){ "ulimit -u (hard)", v };
	if (limit_number(l->pids_max, &v))
		all[n++] = (struct proc_limit){ "pids.max of the cgroup", v };
	if (l->threads_max.known)
		all[n++] = (struct proc_limit){ "kernel.threads-max", l->threads_max.v };
	if (l->pid_max.known)
		all[n++] = (struct proc_limit){ "kernel.pid_max", l->pid_max.v };
	for (size_t i = 0; i < n; i++)
		if (!any || all[i].v < low->v) {
			*low = all[i];
			any = true;
		}
	return any;
}

/* The processes a run's copies have at once: copies × the most of its tests. */
static int64_t run_needs(const struct result_run *run, const struct ub_test_info **most)
{
	unsigned procs = 0;
	*most = NULL;
	for (size_t i = 0; i < run->tests.n; i++) {
		int k = diag_test_lookup(run->tests.v[i].id);
		if (k >= 0 && ub_tests[k].procs > procs) {
			procs = ub_tests[k].procs;
			*most = &ub_tests[k];
		}
	}
	int64_t copies = int_or(run->copies, 0);
	/* a record's copies is what it says: only UnixBench's range counts */
	return copies > 0 && copies <= UB_COPIES_MAX ? copies * (int64_t)procs : 0;
}

/* The process and shell tests of a run that failed; the first into *first. */
static unsigned failed_process_tests(const struct result_run *run, const struct result_test **first)
{
	unsigned n = 0;
	for (size_t i = 0; i < run->tests.n; i++) {
		int k = diag_test_lookup(run->tests.v[i].id);
		if (k < 0 || !((DT_PROCESS | DT_SHELL) & DT(k)) || !run->tests.v[i].error)
			continue;
		if (!n++)
			*first = &run->tests.v[i];
	}
	return n;
}

static void check_process_limit(const struct diag_case *c, struct diagnosis *d)
{
	struct proc_limit low = { NULL, 0 };
	bool limited = lowest_limit(c, &low);
	size_t rejected = diag_events(c, "kernel-fork-rejected", NULL);
	enum diag_confidence conf = rejected ? DC_HIGH : DC_NONE;
	int64_t widest = 0;
	for (size_t r = 0; r < c->r.runs.n; r++) {
		const struct result_run *run = &c->r.runs.v[r];
		const struct ub_test_info *most;
		const struct result_test *failed = NULL;
		int64_t needs = run_needs(run, &most), copies = int_or(run->copies, 0);
		unsigned nfailed = failed_process_tests(run, &failed);
		widest = needs > widest ? needs : widest;
		bool over = limited && most && needs > low.v;
		if (over) {
			conf = nfailed && conf < DC_HIGH ? DC_HIGH : conf < DC_MEDIUM ? DC_MEDIUM : conf;
			diag_evidence(d, "%" PRId64 " %s × %u processes (%s) = %" PRId64 " at once; %s = %" PRId64, copies,
				      copies_word(copies), most->procs, most->name, needs, low.name, low.v);
		} else if (nfailed && conf < DC_MEDIUM &&
			   (strstr(failed->error, "fork") || strstr(failed->error, "Resource temporarily unavailable"))) {
			conf = DC_MEDIUM;
		}
		if (nfailed)
			diag_evidence(d, "%s, %" PRId64 " %s: %s", failed->name ?: failed->id, copies, copies_word(copies),
				      failed->error);
	}
	if (conf == DC_NONE) {
		strv_free(&d->evidence);
		if (c->probed && limited && widest)
			diag_set_normal(d, "process limits above what the copies need at once (%" PRId64 "; lowest: %s = "
					   "%" PRId64 ")",
					widest, low.name, low.v);
		return;
	}
	diag_fire(d, conf, DT_PROCESS | DT_SHELL,
		  "the copies need more processes at once than a limit allows: Process Creation and Shell Scripts fail "
		  "to fork or wait for a slot, and score the limit");
	diag_evidence_events(d, c, "kernel-fork-rejected", 2);
	const struct env_finding *f = diag_finding(c, "host.process-limit");
	if (f)
		diag_evidence_finding(d, f);
	if (int_or(c->r.options.nproc.soft, -1) >= 0 && c->r.options.nproc.raised_to)
		diag_evidence(d, "the soft ulimit -u (%" PRId64 ") was raised to %s for the run", c->r.options.nproc.soft.v,
			      json_object_get_string(c->r.options.nproc.raised_to));
	d->expect = xstrdup("the process and shell tests run to the end at every copy count and score like the "
			    "machine's other tests");
}

/* ---- audit rules and seccomp ---- */

static void check_syscall_filters(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_audit *a = &diag_env(c)->host.audit;
	const struct env_finding *audit = diag_finding(c, "host.audit-syscall-rules"),
				 *seccomp = diag_finding(c, "host.seccomp-filter");
	if (!c->probed)
		return;
	if (!audit && !seccomp) {
		if (a->syscall_rules.known)
			diag_set_normal(d, "no audit rule on system calls; seccomp %s", a->seccomp ?: "not known");
		else if (a->seccomp)
			diag_set_unchecked(d, "audit rules on system calls: auditctl -l needs root (seccomp %s)", a->seccomp);
		return;
	}
	unsigned mask = audit ? DT_SYSCALLS : DT(DT_SYSCALL), control = DT_ALL & ~DT_SYSCALLS;
	double rel = held_back(c, DT(DT_SYSCALL), control);
	enum diag_confidence conf = audit ? DC_MEDIUM : DC_LOW;
	if (rel < KNOB_REL_LOW)
		conf = diag_raise(conf);
	if (audit)
		diag_fire(d, conf, mask, "the kernel checks every system call against %" PRId64 " audit rule%s: System Call "
					 "Overhead, Pipe Throughput and Execl pay for each call",
			  int_or(a->syscall_rules, 0), int_or(a->syscall_rules, 0) == 1 ? "" : "s");
	else
		diag_fire(d, conf, mask, "the tests ran under a seccomp filter: every system call passes through it, "
					 "and System Call Overhead measures the filter too");
	if (audit)
		diag_evidence_finding(d, audit);
	if (seccomp)
		diag_evidence_finding(d, seccomp);
	if (rel < KNOB_REL_LOW)
		held_back_evidence(d, c, DT(DT_SYSCALL), "System Call Overhead", control, "the tests that make few calls");
	if (!(rel < KNOB_REL_LOW) || !diag_gain_from_refs(d, c, mask, control))
		d->expect = xstrdup("System Call Overhead gains the most, Pipe Throughput and Execl less; the CPU tests "
				    "do not move");
}

/* ---- boost and the energy preferences ---- */

static const char *const energy_findings[] = { "cpu.boost-off", "cpu.epp-power-saving", "cpu.epb-power-saving" };

/* The lowest clock measured after a 1-copy test, as a share of its kind's
 * maximum; NAN when the run did not measure it. */
static double single_clock_share(const struct diag_case *c, double *mhz)
{
	const struct env_record *env = diag_env(c);
	double share = NAN;
	for (size_t r = 0; r < c->r.runs.n; r++) {
		const struct result_run *run = &c->r.runs.v[r];
		for (size_t i = 0; int_or(run->copies, 0) == 1 && i < run->tests.n; i++)
			for (size_t k = 0; k < run->tests.v[i].clock.after.n; k++) {
				const struct result_clock *m = &run->tests.v[i].clock.after.v[k];
				for (size_t j = 0; j < env->cpu.kinds.n; j++) {
					const struct env_cpu_kind *kind = &env->cpu.kinds.v[j];
					if (!is_true(kind->fastest) || int_or(kind->max_khz, 0) <= 0 || !m->measured_khz.known ||
					    int_or(m->cpu, -1) != int_or(kind->measured_cpu, -2))
						continue;
					double s = (double)m->measured_khz.v / (double)kind->max_khz.v;
					if (isnan(share) || s < share)
						share = s, *mhz = (double)m->measured_khz.v / 1000;
				}
			}
	}
	return share;
}

static void check_energy_policy(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_freq *freq = &diag_env(c)->cpu.freq;
	const struct env_finding *found[ARRAY_SIZE(energy_findings)], *first = NULL;
	struct buf what = {0};
	if (!c->probed)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(energy_findings); i++) {
		found[i] = diag_finding(c, energy_findings[i]);
		if (!found[i])
			continue;
		first = first ?: found[i];
		buf_printf(&what, "%s%s", what.len ? ", " : "",
			   i == 0 ? "boost off" : i == 1 ? "EPP saves power" : "EPB favours power");
	}
	if (!first) {
		if (freq->boost.known || freq->epp || freq->epb.known)
			diag_set_normal(d, "boost %s, energy preference %s, bias %s", !freq->boost.known ? "not known"
										   : freq->boost.v ? "on" : "off",
					freq->epp ?: "not set", freq->epb.known ? (freq->epb.v <= 6 ? "normal or faster" : "power")
										 : "not known");
		return;
	}
	const struct diag_run *one = diag_single(c);
	double single = one ? diag_vs_ref(c, one, DT_CPU) : NAN, mhz = NAN;
	double share = single_clock_share(c, &mhz);
	bool low = single < SINGLE_CLOCK_OK || share < SINGLE_CLOCK_SHARE;
	diag_fire(d, low ? DC_MEDIUM : DC_LOW, DT_ALL,
		  "the CPU is told to favour power over speed (%s): one copy runs below the clock the core can reach", what.s);
	buf_free(&what);
	for (size_t i = 0; i < ARRAY_SIZE(energy_findings); i++)
		if (found[i])
			diag_evidence_finding(d, found[i]);
	if (share < SINGLE_CLOCK_SHARE)
		diag_evidence(d, "1 copy: the fastest core measured at %.0f MHz after a test, %.0f %% of its maximum", mhz,
			      100 * share);
	if (single < SINGLE_CLOCK_OK)
		diag_evidence(d, "1 copy: Dhrystone and Whetstone at %.0f %% of the published runs of this CPU", 100 * single);
	if (first->fix)
		d->fix = xstrdup(first->fix);
	if (!(single < SINGLE_CLOCK_OK) || !diag_gain_from_refs(d, c, DT_CPU, 0))
		d->expect = xstrdup("the 1-copy tests gain the most (one busy core boosts highest); all copies less");
}

/* ---- kernel mitigations ---- */

/* The tests that enter the kernel, against the references, relative to
 * Dhrystone and Whetstone: what the mitigations' cost on each entry, exit
 * and switch shows as. */
#define DT_KERNEL_ENTRY (DT_KERNEL | DT(DT_CTX) | DT_PROCESS)

/* The kernel release of every reference run r is compared with when they
 * all ran this run's kernel, else NULL: the same kernel mitigates the same
 * vulnerabilities the same way, so its cost is on both sides. */
static const char *same_kernel_as_refs(const struct diag_case *c, const struct diag_run *r)
{
	const char *kernel = diag_env_str(c, host.kernel_release);
	const struct diag_match *m = diag_match_of(c, r);
	if (!kernel || !m || !m->n)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (!streq_ptr(m->refs[i]->kernel, kernel))
			return NULL;
	return kernel;
}

static void check_mitigations(const struct diag_case *c, struct diagnosis *d)
{
	const struct env_finding *f = diag_finding(c, "cpu.mitigations");
	if (!c->probed || !f)
		return;
	double rel = held_back(c, DT_KERNEL_ENTRY, DT_CPU);
	if (!(rel < KNOB_REL_LOW)) {
		if (rel > 0)
			diag_set_normal(d, "the kernel mitigates CPU vulnerabilities, and the tests that enter it are at "
					   "%.0f %% of the published runs relative to Dhrystone and Whetstone",
					100 * rel);
		return;
	}
	const char *kernel = same_kernel_as_refs(c, diag_single(c) ?: diag_multi(c));
	if (kernel) {
		diag_set_normal(d, "the tests that enter the kernel are at %.0f %% of the published runs relative to "
				   "Dhrystone and Whetstone, but those ran the same kernel (%s): its mitigations cost "
				   "them as much, and are not the difference",
				100 * rel, kernel);
		return;
	}
	diag_fire(d, DC_LOW, DT_KERNEL_ENTRY,
		  "the tests that enter the kernel are low against the same CPU's published runs while the CPU tests "
		  "are not, and the kernel mitigates CPU vulnerabilities: each system call and switch pays for them");
	diag_evidence_finding(d, f);
	held_back_evidence(d, c, DT_KERNEL_ENTRY, "the system-call, pipe, context-switch and process tests", DT_CPU,
			   "Dhrystone and Whetstone");
	d->expect = xstrdup("the kernel-entry tests gain what the mitigations cost; a fair comparison needs the "
			    "same kernel and mitigations on both sides");
}

/* ---- where the 1-copy pass ran ---- */

/* N copies over 1 copy above what the topology allows: the one copy ran
 * slower than the fastest core. */
#define SINGLE_TOO_SLOW 1.1
/* The slowest kind at this share of the fastest's speed or more: where the
 * one copy lands does not matter (the capacities' rounding). */
#define SAME_SPEED 0.95

static void check_single_placement(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_topology *t = &c->topo;
	const typeof(c->r.options.pin_single) *pin = &c->r.options.pin_single;
	if (t->n < 2 || !diag_single(c))
		return;
	/* kinds told apart (by part or core type) whose cores are as fast: any of them is the fastest */
	if (!(t->kinds[t->n - 1].speed < SAME_SPEED)) {
		if (!c->imported)
			diag_set_normal(d, "the %zu kinds of core are as fast as each other (%s, %s): the 1-copy pass "
					   "gets the same core wherever it runs",
					t->n, t->kinds[0].name ?: "CPU", t->kinds[t->n - 1].name ?: "CPU");
		return;
	}
	if (pin->cpus) {
		diag_set_normal(d, "the 1-copy pass ran on the fastest kind of core, %s (CPUs %s)", pin->kind ?: "?",
				pin->cpus);
		return;
	}
	if (c->imported) {
		diag_set_unchecked(d, "where the 1-copy pass ran: not in an imported log of a CPU with %zu kinds of core",
				   t->n);
		return;
	}
	double eff = diag_scaling(c, DT_DHRY);
	diag_fire(d, eff > SINGLE_TOO_SLOW ? DC_MEDIUM : DC_LOW, DT_ALL,
		  "the 1-copy pass was not pinned on a CPU with %zu kinds of core: the scheduler may have run it on a "
		  "slower kind for part of its time",
		  t->n);
	diag_evidence(d, "fastest kind: %u × %s; slowest: %u × %s, at about %.0f %% of its speed", t->kinds[0].cpus,
		      t->kinds[0].name ?: "CPU", t->kinds[t->n - 1].cpus, t->kinds[t->n - 1].name ?: "CPU",
		      100 * t->kinds[t->n - 1].speed);
	if (pin->note)
		diag_evidence(d, "the run was asked to pin it, but: %s", pin->note);
	if (eff > SINGLE_TOO_SLOW)
		diag_evidence(d, "%u copies: Dhrystone 2 at %.0f %% of what its cores give against the 1-copy run: "
				 "one copy ran below the fastest core's speed",
			      diag_multi(c)->copies, 100 * eff);
	d->expect = xstrdup("the 1-copy scores of the fastest core, and a scaling that the topology explains");
}

const struct diag_rule diag_rules_knobs[] = {
	{
		.id = "diag.memory-clock",
		.title = "The memory controller's clock follows load",
		.fix = "hold it at its top clock: `[devfreq] governor = performance` in a profile and `ubtune apply`",
		.experiment = "`ubtune apply` a profile with `[devfreq] governor = performance`, run again, then `ubtune "
			      "compare last~1 last`: File Copy and Pipe Throughput should move, Dhrystone not",
		.check = check_memory_clock,
	},
	{
		.id = "diag.idle-wakeup",
		.title = "Idle CPUs are slow to wake",
		.fix = "hold idle CPUs in shallow states for the run: `ubtune bench --dma-latency 0` as root, or "
		       "`[bench] dma-latency = 0` in a profile",
		.experiment = "run the same tests with `--dma-latency 0`, then `ubtune compare last~1 last`: Pipe-based "
			      "Context Switching and Process Creation should move",
		.check = check_idle_wakeup,
	},
	{
		.id = "diag.process-limit",
		.title = "A process limit stops the copies",
		.fix = "raise the limit for the run: ulimit -u (LimitNPROC=), the cgroup's pids.max (TasksMax= of the "
		       "service or session), kernel.pid_max or kernel.threads-max (`[sysctl]` in a profile); or run "
		       "fewer copies",
		.experiment = "raise the limit, run the process and shell tests again (`ubtune bench --tests "
			      "spawn,shell1,shell8`) and `ubtune compare`",
		.check = check_process_limit,
	},
	{
		.id = "diag.syscall-filters",
		.title = "System calls pass through audit rules or a seccomp filter",
		.fix = "compare with the audit rules removed (as root: auditctl -D; auditctl -R /etc/audit/audit.rules "
		       "restores them), or run outside the container or service whose seccomp filter applies",
		.experiment = "remove the rules (or run outside the filter), run `ubtune bench --tests syscall,pipe,execl` "
			      "and `ubtune compare`",
		.check = check_syscall_filters,
	},
	{
		.id = "diag.mitigations",
		.title = "The kernel's vulnerability mitigations tax each entry",
		.fix = "compare only with runs under the same kernel and mitigations; to measure their cost, boot a test "
		       "machine with mitigations=off (it is then unprotected)",
		.experiment = "on a test machine, boot once with mitigations=off, run again and `ubtune compare`",
		.check = check_mitigations,
	},
	{
		.id = "diag.single-copy-placement",
		.title = "The 1-copy pass was not held on the fastest cores",
		.fix = "`ubtune bench --pin-single fastest` (profile key `[bench] pin-single = fastest`): the 1-copy pass "
		       "runs on the fastest kind of core, and the result says so",
		.experiment = "run with `--pin-single fastest`, then `ubtune compare last~1 last`",
		.check = check_single_placement,
	},
	{
		.id = "diag.energy-policy",
		.title = "The CPU is told to save power (boost off, EPP, EPB)",
		.fix = "`[cpu] boost = on`, `[cpu] epp = performance` and `[cpu] epb = performance` in a profile and "
		       "`ubtune apply` (`ubtune revert` restores them)",
		.experiment = "`ubtune apply` a profile that sets them, run 1 copy again, then `ubtune compare last~1 last`",
		.check = check_energy_policy,
	},
	{ 0 },
};
