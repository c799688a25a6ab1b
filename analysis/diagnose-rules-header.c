/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Causes the run's own header shows: the load when Run started, a debug or
 * realtime kernel, Run unable to count the CPUs, a graphical session. An
 * imported log has little else, so these matter most there; a run of
 * ubtune has the probe's findings for the same facts (diag.busy-machine).
 */
#include "diagnose.h"

/* The 1-minute load average at the start, per CPU. Run prints it right
 * after building the programs, so a board that just compiled shows some
 * (published healthy runs: 0.47 on a 1-CPU RISC-V board after make, 2.53
 * on a 1-vCPU VPS, 1.98 on 64 cores): below 1.0 in all and never a whole
 * CPU's worth per CPU. A load of 34 on 4 CPUs is a busy machine. */
#define LOAD_SOME 0.5
#define LOAD_BUSY 1.0
#define LOAD_SWAMPED 2.0

static const char *copies_word(unsigned n)
{
	return n == 1 ? "copy" : "copies";
}

static unsigned cpus_of(const struct diag_case *c)
{
	return c->cpus ?: c->hdr.threads;
}

static void check_load(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_header *h = &c->hdr;
	unsigned cpus = cpus_of(c);
	if (c->probed)
		return; /* the probe's load finding: diag.busy-machine */
	if (isnan(h->load1) || !cpus) {
		diag_set_unchecked(d, "load at the start: %s", isnan(h->load1) ? "the header has no load average"
										   : "the number of CPUs is not known");
		return;
	}
	double per = h->load1 / cpus;
	if (h->load1 < 1.0 || per < LOAD_SOME) {
		diag_set_normal(d, "load average %.2f when Run started, on %u %s", h->load1, cpus,
				cpus == 1 ? "CPU" : "CPUs");
		return;
	}
	enum diag_confidence conf = per >= LOAD_SWAMPED ? DC_HIGH : per >= LOAD_BUSY ? DC_MEDIUM : DC_LOW;
	diag_fire(d, conf, DT_ALL, "the load average was %.2f when Run started, on %u %s: %s", h->load1, cpus,
		  cpus == 1 ? "CPU" : "CPUs",
		  conf == DC_LOW ? "something else was running" : "the machine was busy with other work");
	diag_evidence(d, "header: load average %.2f (1 minute) at the start; %.2f per CPU", h->load1, per);
	d->expect = xstrdup("on an idle machine (load well below one per CPU) every test gains what the other "
			    "work took from it; the 1-copy run most where the load was a few processes");
}

/* The kernel of the run is of a kind (debug, realtime): false, with the
 * normal or unchecked note set, when it is not or not known. */
static bool kernel_is(const struct diag_case *c, struct diagnosis *d, bool kind, const char *what)
{
	if (!c->hdr.kernel)
		diag_set_unchecked(d, "%s kernel: the kernel release is not known", what);
	else if (!kind)
		diag_set_normal(d, "kernel %s: not a %s build", c->hdr.kernel, what);
	return c->hdr.kernel && kind;
}

static void check_debug_kernel(const struct diag_case *c, struct diagnosis *d)
{
	if (!kernel_is(c, d, c->hdr.debug_kernel, "debug"))
		return;
	/* the debug options (lockdep, KASAN, page poisoning) tax every
	 * entry into the kernel, not plain code */
	diag_fire(d, DC_MEDIUM, DT_ALL & ~DT_CPU,
		  "the kernel %s is a debug build: its checks slow every system call, fork and file operation",
		  c->hdr.kernel);
	diag_evidence(d, "header: kernel %s", c->hdr.kernel);
	d->expect = xstrdup("with the distribution's normal kernel the system tests (pipes, system calls, process "
			    "creation, file copies, shell scripts) gain; Dhrystone and Whetstone do not move");
}

static void check_rt_kernel(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_header *h = &c->hdr;
	if (!kernel_is(c, d, h->rt_kernel, "realtime (PREEMPT_RT)"))
		return;
	diag_fire(d, DC_LOW, DT_KERNEL | DT(DT_CTX) | DT_PROCESS | DT_SHELL,
		  "the kernel is a realtime build (PREEMPT_RT): it trades throughput for latency in system calls, "
		  "pipes and context switches");
	diag_evidence(d, "header: kernel %s%s%s", h->kernel, h->kernel_version ? " " : "",
		      h->kernel_version ? h->kernel_version : "");
	d->expect = xstrdup("a non-realtime kernel runs the pipe, context-switch and process tests faster");
}

static void check_cpus_counted(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_header *h = &c->hdr;
	if (!c->imported)
		return; /* ubtune counts the CPUs itself */
	/* only a log that has the line says that Run counted them */
	if (!h->cpus_uncounted && !h->cpus_said) {
		diag_set_unchecked(d, "CPU count: the log has no 'N CPUs in system' line");
		return;
	}
	if (!h->cpus_uncounted) {
		diag_set_normal(d, "Run counted the CPUs");
		return;
	}
	const struct diag_run *many = diag_multi(c);
	if (many) {
		diag_set_normal(d, "Run could not count the CPUs (\"0 CPUs in system\"), but the copies were given: "
				   "%u %s",
				many->copies, copies_word(many->copies));
		return;
	}
	unsigned cpus = h->threads;
	diag_fire(d, DC_MEDIUM, 0,
		  "Run printed \"0 CPUs in system\": it could not count the CPUs in /proc/cpuinfo, so it ran 1 copy "
		  "only and there is no multi-copy score");
	diag_evidence(d, "runs: \"0 CPUs in system\"; no run with more than 1 copy");
	d->fix = cpus > 1 ? xasprintf("give the copies: `./Run -c 1 -c %u`", cpus)
			  : xstrdup("give the copies: `./Run -c 1 -c N` with N the number of CPUs (`nproc`)");
	d->expect = xstrdup("a multi-copy run, which shows what all the cores do together; the 1-copy scores do "
			    "not change");
}

static void check_graphical(const struct diag_case *c, struct diagnosis *d)
{
	const struct diag_header *h = &c->hdr;
	if (c->probed)
		return; /* the probe's graphical-target finding: diag.busy-machine */
	const char *said = diag_env_str(c, unixbench.runlevel);
	if (!h->runlevel && streq_ptr(said, "unknown")) {
		diag_set_unchecked(d, "graphical session: the header says runlevel unknown");
		return;
	}
	if (!h->runlevel && said && *said) {
		diag_set_unchecked(d, "graphical session: the header's runlevel is \"%s\", not a runlevel (who -r "
				      "found none)",
				   said);
		return;
	}
	if (!h->runlevel) {
		diag_set_unchecked(d, "graphical session: the header prints no runlevel");
		return;
	}
	if (!h->graphical) {
		diag_set_normal(d, "runlevel %s: no graphical session started by the init system", h->runlevel);
		return;
	}
	/* systemd maps graphical.target to runlevel 5, and most distributions
	 * default to it whether a display manager is installed or not: a
	 * note, not a cause (a probe record says whether a session ran) */
	diag_set_normal(d, "runlevel 5: the default target of systemd distributions (graphical.target), with or "
			   "without a display manager; the header alone does not say that a graphical session ran");
}

const struct diag_rule diag_rules_header[] = {
	{
		.id = "diag.loaded-at-start",
		.title = "The machine was busy when Run started",
		.fix = "stop what else runs (`top` shows it), wait for the load average to fall below one per CPU, "
		       "then run again",
		.experiment = "run again on the idle machine and `ubtune compare` the two",
		.generic = true,
		.check = check_load,
	},
	{
		.id = "diag.debug-kernel",
		.title = "A debug kernel",
		.fix = "boot the distribution's normal kernel (the one without +debug / -debug in its release)",
		.experiment = "run once on each kernel and `ubtune compare` them: the system tests move, the CPU tests "
			      "do not",
		.check = check_debug_kernel,
	},
	{
		.id = "diag.realtime-kernel",
		.title = "A realtime (PREEMPT_RT) kernel",
		.fix = "benchmark throughput on a non-realtime kernel; keep the realtime one where latency matters",
		.experiment = "run once on each kernel and `ubtune compare` them",
		.check = check_rt_kernel,
	},
	{
		.id = "diag.cpus-not-counted",
		.title = "Run could not count the CPUs",
		.fix = "give the copies with -c (`./Run -c 1 -c $(nproc)`)",
		.experiment = "run `./Run -c 1 -c $(nproc)` and import it",
		.check = check_cpus_counted,
	},
	{
		.id = "diag.graphical-session",
		.title = "A graphical session ran alongside",
		.fix = "benchmark in runlevel 3: `systemctl isolate multi-user.target` (or boot with "
		       "systemd.unit=multi-user.target)",
		.experiment = "run once in each target and `ubtune compare` them",
		.generic = true,
		.check = check_graphical,
	},
	{ 0 },
};
