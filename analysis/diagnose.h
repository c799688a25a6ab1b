/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/result-record.h"
#include "lib/util.h"
#include "unixbench/catalogue.h"
#include "unixbench/expect.h"

/*
 * `ubtune diagnose`: why is a UnixBench score lower than expected?
 *
 * A case is one result (a run per copy count) with what is known about the
 * machine it ran on: the environment recorded before and after the run, the
 * sampler's events during it, the build of the programs, and the closest
 * reference runs (published ones, the person's own history). Rules are data
 * (stable id, title, fix, A/B experiment) plus one check over the case. The
 * engine runs every rule, ranks what fired by confidence and by the gain its
 * fix is expected to bring, and keeps what was checked and found normal and
 * what could not be checked.
 */

/* The 12 index tests, in UnixBench's run order. */
enum diag_test {
	DT_DHRY, DT_WHET, DT_EXECL, DT_FC1K, DT_FC256, DT_FC4K,
	DT_PIPE, DT_CTX, DT_SPAWN, DT_SYSCALL, DT_SH1, DT_SH8,
	DIAG_NTESTS
};
#define DT(t) (1u << (t))
/* Groups of tests that share what bounds them. */
#define DT_CPU (DT(DT_DHRY) | DT(DT_WHET))                    /* the core and the compiler */
#define DT_KERNEL (DT(DT_PIPE) | DT(DT_SYSCALL))              /* kernel entry, no storage, no fork */
#define DT_FILECOPY (DT(DT_FC1K) | DT(DT_FC256) | DT(DT_FC4K)) /* the workdir's file system */
#define DT_PROCESS (DT(DT_EXECL) | DT(DT_SPAWN))              /* fork, exec, address spaces */
#define DT_SHELL (DT(DT_SH1) | DT(DT_SH8))
#define DT_ALL ((1u << DIAG_NTESTS) - 1)

/* The tests are the catalogue's index tests: ub_tests[t] names test t. */
_Static_assert(DIAG_NTESTS == UB_NINDEX, "enum diag_test follows ub_tests");
/* A test by UnixBench id or report name; -1 when it is none of the 12. */
int diag_test_lookup(const char *id_or_name);

#define DIAG_MAX_RUNS 16
struct diag_run {
	unsigned copies;
	double index[DIAG_NTESTS]; /* NAN: no result */
	double score;              /* geometric mean of the indexes; NAN without any */
	unsigned ntests;           /* tests with an index */
	bool score_printed;        /* score is the log's own (of every test, however many were read) */
};
/* Geometric mean of the indexes of the tests in mask that have one; NAN when none. */
double diag_gm(const struct diag_run *r, unsigned mask);
/* Fills score and ntests from index[]. */
void diag_run_score(struct diag_run *r);

/* Per-copy efficiency of Dhrystone/Whetstone at N copies against 1 copy:
 * every published bare-metal and KVM run reaches 0.96-1.0 (TCG 0.87), the
 * undervolted Raspberry Pi 4 0.35. */
#define DIAG_SCALING_HEALTHY 0.95
#define DIAG_SCALING_POOR 0.7

enum diag_virt { DV_UNKNOWN, DV_NONE, DV_GUEST, DV_EMULATED };
const char *diag_virt_name(enum diag_virt v);

/* A run of a result record (runs[]): copies and each test's index. */
void diag_read_run(const struct result_run *run, struct diag_run *r);
/* What an environment record (env; rec: the result around it) says. */
unsigned diag_env_cpus(const struct result_record *rec, const struct env_record *env); /* online CPUs, 0: unknown */
enum diag_virt diag_env_virt(const struct env_record *env, const char **hypervisor);
int diag_env_workdir_memory(const struct env_record *env); /* 1: tmpfs, 0: block storage, -1: unknown */
bool diag_env_undervoltage(const struct result_record *rec, const struct env_record *env);

/* ---- reference runs ---- */

struct diag_ref {
	char *id, *group, *description, *source;
	char *cpu;          /* CPU model as published */
	char *arch, *kernel;
	char *host;         /* history: the machine's host name */
	unsigned cpus;      /* CPUs the run saw; 0: not published */
	unsigned host_cpus; /* a guest's host; 0: not published */
	enum diag_virt virt;
	char *vmm;          /* "qemu", "kvmtool"; NULL: not published */
	int workdir_memory; /* 1: tmpfs, 0: a disk, -1: not published */
	bool undervoltage;
	bool history;       /* the person's own result, not a published one */
	struct diag_run run;
};
struct diag_refs {
	struct diag_ref *v;
	size_t n;
};
/* Reads a reference document (schema ubtune.reference/1). On failure
 * *error names what is wrong in it. */
int diag_refs_parse(json_object *doc, struct diag_refs *refs, char **error);
int diag_refs_load(const char *path, struct diag_refs *refs, char **error);
/* A new reference, cleared (no index known), for the caller to fill. */
struct diag_ref *diag_refs_append(struct diag_refs *refs);
/* Adds the runs of a stored result as history, labelled (e.g. "result 12"). */
void diag_refs_add_result(struct diag_refs *refs, json_object *result, const char *label);
void diag_refs_free(struct diag_refs *refs);
/* A guest given more vCPUs than its host has CPUs. */
bool diag_ref_overcommitted(const struct diag_ref *r);
/* Usable as the expectation for test t: no known fault of the run lowers t. */
bool diag_ref_clean(const struct diag_ref *r, enum diag_test t);
/* The same CPU model, however spelled: "HiSilicon Kunpeng 920" and the
 * probe's "TSV110 (Kunpeng 920)", "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz"
 * and "Intel Xeon X5650". */
bool diag_same_cpu(const char *a, const char *b);

#define DIAG_MAX_MATCH 8
/* The reference runs closest to one run of the case, and what they expect. */
struct diag_match {
	size_t n;
	const struct diag_ref *refs[DIAG_MAX_MATCH];
	bool has[DIAG_NTESTS];
	double lo[DIAG_NTESTS], hi[DIAG_NTESTS], mid[DIAG_NTESTS]; /* over the clean ones */
	char basis[128];   /* "same CPU and copies; bare metal; same kernel" */
};

/* ---- the case ---- */

/*
 * What the run's own header says about its start (an imported log has
 * little else; a probe record says the same things in its own fields):
 * the load, the kernel, Run's CPU count, the runlevel, the CPU lines.
 */
struct diag_header {
	double load1;                /* 1-minute load average when Run started; NAN: not known */
	const char *kernel;          /* release, "5.14.0-362.el9.x86_64+debug" */
	const char *kernel_version;  /* "#1 SMP PREEMPT_RT ..." */
	bool debug_kernel, rt_kernel;
	bool cpus_uncounted;         /* Run printed "0 CPUs in system" */
	bool cpus_said;              /* Run printed "N CPUs in system" (N may be 0) */
	const char *runlevel;        /* as the header prints it; NULL: not known or not a runlevel */
	bool graphical;              /* runlevel 5, or the probe's graphical target */
	unsigned threads;            /* logical CPUs; 0: not known */
	unsigned cores;              /* physical cores; 0: not known (or no SMT) */
	double bogomips_mhz;         /* x86: the TSC clock BogoMIPS implies (BogoMIPS / 2); NAN */
};

/*
 * The cores the copies of a run get (analysis/diagnose-topology.c): the
 * kinds of core, fastest first, each with its CPUs, the cores they are on
 * (fewer with SMT) and its speed per core against the fastest kind.
 */
#define DIAG_MAX_KINDS 6
struct diag_kind {
	const char *name;     /* "Cortex-A76", "P-core"; NULL: the machine's only kind */
	unsigned cpus, cores;
	double speed;         /* 1 for the fastest kind */
};
struct diag_topology {
	struct diag_kind kinds[DIAG_MAX_KINDS];
	size_t n;             /* 0: nothing known (one copy per CPU is what N copies reach) */
	const char *source;   /* "probe" (cpu.kinds, cpu.cores/threads) or "header" (the CPU lines) */
	bool hybrid_unsplit;  /* a hybrid part (Intel 12th Gen on) whose split of cores is not known */
	const char *hybrid_model;
};
/* How many times one copy on the fastest core n copies can reach: a core
 * of each kind at its speed, fastest first, then a quarter of a core per
 * SMT sibling; n where nothing is known. */
double diag_topology_capacity(const struct diag_topology *t, unsigned n);
/* What n copies reach on CPUs that are SMT siblings two to a core: what a
 * record that says nothing of its topology may be. */
double diag_smt_capacity(unsigned n);
/* The CPUs n copies get: "4 Cortex-A76 + 4 Cortex-A55", "8 threads on 4 cores". */
void diag_topology_text(const struct diag_topology *t, unsigned n, char *buf, size_t size);

struct diag_case {
	json_object *rec;        /* the result record (borrowed) */
	struct result_record r;  /* rec decoded */
	struct diag_run runs[DIAG_MAX_RUNS];
	struct diag_match match[DIAG_MAX_RUNS];
	size_t nruns;
	/* the machine, from the environment record (an imported log's header
	 * gives a partial one); NULL / 0 / DV_UNKNOWN when not known */
	const char *cpu_model, *arch, *hypervisor;
	unsigned cpus;
	enum diag_virt virt;
	struct env_record before, after; /* environment records; .json NULL when the result has none */
	bool probed;                     /* one of them is a whole probe record (with findings) */
	bool sampled;                    /* the sampler ran: its events (r.events) mean something */
	bool imported;
	bool copies_unknown;         /* no run said its copies: runs[].copies are 0 */
	bool baselines_own;          /* the report's indexes are against baselines of its own */
	bool scores_only;            /* its runs print only their score (runs[].ntests 0) */
	const struct diag_refs *refs;
	const char *exclude_group; /* reference runs of this group are not compared with */
	struct diag_header hdr;
	struct diag_topology topo;
	/* what the published runs say each run should score (diag_case_expect()) */
	const struct expect_ref *expect_ref;
	struct expectation expect[DIAG_MAX_RUNS];
};

/* The environment before the run, else after (an all-unknown record when neither). */
#define diag_env(c) ((c)->before.json ? &(c)->before : &(c)->after)

/* Fills c->hdr from the environment record and the runs (diag_case_init does). */
void diag_case_header(struct diag_case *c);
/* Fills c->topo from the environment record and c->hdr (diag_case_init does). */
void diag_case_topology(struct diag_case *c);

/*
 * Reads what the rules need from a result record (schema ubtune.result/1,
 * as result_check() accepts it; imported logs too) and finds the closest
 * reference runs (refs may be NULL). rec must outlive the case. -EINVAL
 * with *error set when the record has no scored test or a key of the wrong
 * type (named by its path); diag_case_free() the case otherwise.
 */
int diag_case_init(struct diag_case *c, json_object *rec, const struct diag_refs *refs, const char *exclude_group,
		   char **error);
void diag_case_free(struct diag_case *c);

/* The 1-copy run, and the widest run with more copies; NULL when absent. */
const struct diag_run *diag_single(const struct diag_case *c);
const struct diag_run *diag_multi(const struct diag_case *c);
const struct diag_match *diag_match_of(const struct diag_case *c, const struct diag_run *r);
/* CPUs the copies of r could use: min(copies, online CPUs). */
unsigned diag_parallel(const struct diag_case *c, const struct diag_run *r);
/* How many times the speed of one copy the copies of r can reach: one per
 * core, a little more per SMT sibling, less per small core of a hybrid
 * CPU; diag_parallel() where the header says nothing of the kind. */
double diag_capacity(const struct diag_case *c, const struct diag_run *r);
/* The CPUs r's copies ran on, as said: "4 CPUs", "8 threads on 4 cores",
 * "4 Cortex-A76 + 4 Cortex-A55". */
void diag_cpus_text(const struct diag_case *c, const struct diag_run *r, char *buf, size_t size);
/* Per-copy efficiency of the widest run against the 1-copy run for test t:
 * multi / (single × parallel); NAN when either is missing. */
double diag_scaling(const struct diag_case *c, enum diag_test t);
/* How r compares with its references over the tests in mask: geometric
 * mean of index / expected; NAN without expectations for those tests. */
double diag_vs_ref(const struct diag_case *c, const struct diag_run *r, unsigned mask);
/* r is within a few times of its references in every test: their ratios
 * test by test mean something. */
bool diag_comparable(const struct diag_case *c, const struct diag_run *r);
/* Fewer than that: an ARM board of a few cores (where supply and heat cap clocks). */
bool diag_small_board(const struct diag_case *c);

/* ---- the expectation (analysis/diagnose-expect.c) ---- */

/* Fills c->expect[] for every run from the model (ref NULL or not loaded:
 * nothing is expected). */
void diag_case_expect(struct diag_case *c, const struct expect_ref *ref);
/* The expectation of run r; NULL when its CPU is not placed. */
const struct expectation *diag_expect_of(const struct diag_case *c, const struct diag_run *r);
/* r's indexes over the expected ones, geometric mean over the tests of
 * mask both have; NAN without an expectation. */
double diag_vs_expect(const struct diag_case *c, const struct diag_run *r, unsigned mask);
/* The expected score of r over the tests r has (a partial run), and its interval. */
double diag_expected_score(const struct diag_case *c, const struct diag_run *r, double *low, double *high);
/* result.runs[i].expected of the report (docs/diagnose-json.md); NULL: not placed. */
json_object *diag_expected_json(const struct diag_case *c, size_t i);
/* The report's first lines: "Score 270.4 is 31 % of the 870 (650-1,090)
 * expected of 1 copy on 1 vCPU of ..." per run; why nothing is expected. */
json_object *diag_level_json(const struct diag_case *c);

/* "kvm", "qemu", or "a hypervisor not identified". */
const char *diag_hypervisor_name(const struct diag_case *c);
/* Why environment facts are missing: "not in an imported log", ... */
const char *diag_env_missing(const struct diag_case *c);
/* A finding of the environment record with this id, or an id under it
 * ("cpu.governor" finds "cpu.governor.powersave"); before, else after. */
const struct env_finding *diag_finding(const struct diag_case *c, const char *id);
/* Sampler events of a kind (NULL: any); *first gets the first one. */
size_t diag_events(const struct diag_case *c, const char *kind, const struct result_event **first);
/* The events of a sampled run (none when it was not sampled). */
#define diag_foreach_event(c, e)                                                                                       \
	for (const struct result_event *e = (c)->r.events.v; (c)->sampled && e < (c)->r.events.v + (c)->r.events.n; e++)
/* A string fact (member m of struct env_record) of the environment before the run, else after. */
#define diag_env_str(c, m) ((c)->before.m ?: (c)->after.m)
/* A string fact (member m of struct env_device) of the workdir's device, before the run, else after. */
#define diag_device_str(c, m)                                                                                          \
	((c)->before.storage.device && (c)->before.storage.device->m ? (c)->before.storage.device->m                  \
	 : (c)->after.storage.device				     ? (c)->after.storage.device->m                   \
									     : NULL)

/* ---- rules ---- */

enum diag_confidence { DC_NONE, DC_LOW, DC_MEDIUM, DC_HIGH };
const char *diag_confidence_name(enum diag_confidence c);

#define DIAG_MAX_GAINS 64
struct diag_gain {
	enum diag_test test;
	unsigned copies;
	double now, expected; /* indexes */
};

struct diag_rule;
struct diagnosis {
	const struct diag_rule *rule;
	enum diag_confidence confidence; /* DC_NONE: the rule did not fire */
	char *reason;                    /* one line */
	struct strv evidence;            /* facts and numbers */
	char *fix;                       /* NULL: the rule's */
	char *expect;                    /* what the fix brings when not a number per test */
	struct diag_gain gains[DIAG_MAX_GAINS];
	size_t ngains;
	unsigned affects; /* DT mask of the tests it lowers */
	char *normal;     /* not fired: what was checked and found fine */
	char *unchecked;  /* not fired: why it could not be checked */
};

struct diag_rule {
	const char *id; /* stable: "diag.storage-bound-workdir" */
	const char *title;
	const char *fix;
	const char *experiment;
	/* A symptom with several causes: it ranks after a specific cause of
	 * the same tests with at least its confidence. */
	bool generic;
	/* judges a run whose indexes are against baselines of its own (a
	 * test at 1 % of the others failed whatever the baselines) */
	bool any_baselines;
	void (*check)(const struct diag_case *c, struct diagnosis *d);
};

/* Rule tables, each ended by an entry with id == NULL. */
extern const struct diag_rule diag_rules_machine[], diag_rules_system[], diag_rules_clock[], diag_rules_header[],
	diag_rules_knobs[], diag_rules_level[];
void diag_rules_foreach(void (*fn)(const struct diag_rule *r, void *data), void *data);
const struct diag_rule *diag_rule_lookup(const char *id);
/* Runs one rule on a case; the caller clears d. */
void diag_rule_run(const struct diag_rule *r, const struct diag_case *c, struct diagnosis *d);
void diagnosis_clear(struct diagnosis *d);

/* For checks: fire with a confidence and a reason; add facts, gains. */
void diag_fire(struct diagnosis *d, enum diag_confidence conf, unsigned affects, const char *fmt, ...) _printf_(4, 5);
void diag_evidence(struct diagnosis *d, const char *fmt, ...) _printf_(2, 3);
void diag_set_normal(struct diagnosis *d, const char *fmt, ...) _printf_(2, 3);
void diag_set_unchecked(struct diagnosis *d, const char *fmt, ...) _printf_(2, 3);
static inline enum diag_confidence diag_raise(enum diag_confidence c)
{
	return c >= DC_HIGH ? DC_HIGH : (enum diag_confidence)(c + 1);
}
/* An environment finding ("finding power.undervoltage: <its evidence>"). */
void diag_evidence_finding(struct diagnosis *d, const struct env_finding *finding);
/* The sampler's events of a kind, at most max of them, as evidence; the count. */
size_t diag_evidence_events(struct diagnosis *d, const struct diag_case *c, const char *kind, size_t max);
/* Records that the fix should bring test t of run r to about `expected`
 * (ignored unless it is higher than now). */
void diag_gain(struct diagnosis *d, const struct diag_run *r, enum diag_test t, double expected);
/* Gains from the references: each test of mask in every run brought to
 * what the references expect at this run's own speed on the tests of
 * control (control 0: the references' speed). False when the references
 * give nothing. */
bool diag_gain_from_refs(struct diagnosis *d, const struct diag_case *c, unsigned mask, unsigned control);
/* Gains of the widest run when its copies scale like the references'
 * (else, for the CPU tests, like healthy machines: DIAG_SCALING_HEALTHY). */
void diag_gain_scaling(struct diagnosis *d, const struct diag_case *c, unsigned mask);

/* ---- several results of one machine ---- */

/* The tests that move together, for saying what differs, and what moves
 * each group alone. */
enum diag_group { DG_CPU, DG_ENTRY, DG_SCHED, DG_EXEC, DG_FS, DIAG_NGROUPS };
extern const struct diag_group_info {
	const char *id, *name, *tests;
	unsigned mask;
	double noise; /* a change below this is run-to-run noise (published repeats) */
} diag_groups[DIAG_NGROUPS];
/* Where the published noise of each group comes from. */
extern const char diag_noise_source[];

/* Two results of one machine under two conditions: b against a. */
struct diag_pair {
	const struct diag_case *a, *b;
	const char *label_a, *label_b; /* the runs' labels ("before patch"), else "result N" */
	size_t n;                      /* copy counts both have (0 for two runs of unknown copies) */
	unsigned copies[DIAG_MAX_RUNS];
	double ratio[DIAG_MAX_RUNS][DIAG_NTESTS]; /* b / a per test; NAN where one lacks it */
	double score[DIAG_MAX_RUNS];              /* b / a of the scores */
	double group[DIAG_NGROUPS];               /* geometric mean of the ratios over the common runs; NAN */
	/* the run-to-run noise of each group: the published one, or the
	 * spread of two runs of one condition in the same document */
	double noise[DIAG_NGROUPS];
	const char *noise_from[DIAG_NGROUPS];
	/* runs that print only their score: compared by it, against its noise */
	bool scores_only;
};
/* The index scores of published near-repeats (one board, two builds that
 * differ in ISA flags the system tests do not use: the P550, JH7110 and K1
 * builds, an SG2042's two sets of -march) agree within 1.5 %. */
#define DIAG_SCORE_NOISE 0.02
/* Whether the pair differs: a group moved, or, for runs that print only
 * their score, the score moved beyond DIAG_SCORE_NOISE. */
bool diag_pair_differs(const struct diag_pair *p);
void diag_pair_init(struct diag_pair *p, const struct diag_case *a, const struct diag_case *b, const char *label_a,
		    const char *label_b);
/* A group moved: by at least `by` (0.07: 7 %) up or down; by 0: by more than its noise. */
bool diag_pair_moved(const struct diag_pair *p, enum diag_group g, double by);
/* A group ran in both (some test of it has an index in each). */
static inline bool diag_pair_ran(const struct diag_pair *p, enum diag_group g)
{
	return p->group[g] > 0;
}

/* What a difference rule concludes about a pair. */
struct diag_diff {
	enum diag_confidence confidence; /* DC_NONE: not this */
	const char *class;               /* the class of cause ("diag.patch"); NULL: the rule's */
	char *reason;
	struct strv evidence;
};
struct diag_diff_rule {
	const char *id; /* stable: "diff.clock" */
	const char *title;
	const char *class; /* the class of cause, as the corpus names them: "diag.kernel-change" */
	void (*check)(const struct diag_pair *p, struct diag_diff *d);
};
extern const struct diag_diff_rule diag_diff_rules[]; /* ended by id == NULL */
void diag_diff_fire(struct diag_diff *d, enum diag_confidence conf, const char *fmt, ...) _printf_(3, 4);
void diag_diff_evidence(struct diag_diff *d, const char *fmt, ...) _printf_(2, 3);
void diag_diff_clear(struct diag_diff *d);
/* The pair's notes that are no cause ("runlevel 5 in one of them: the
 * default of systemd distributions"); each a new string. */
void diag_diff_notes(const struct diag_pair *p, struct strv *notes);
/* Whether a label names the run that the others are measured against
 * ("before", "without patch", "base", "stock", "host"). */
bool diag_label_baseline(const char *label);

/* Whether two results ran on one machine: true when their host or CPU
 * model and count agree, or when neither says; *why tells. */
bool diag_same_machine(const struct diag_case *a, const struct diag_case *b, char **why);

/*
 * The reports of several results (one file holding several runs of Run)
 * and, where they ran on one machine, what differs between the first and
 * each other and which cause explains it (schema ubtune.diagnosis-set/1).
 */
json_object *diagnose_set(const struct diag_case *cases, const char *const *labels, size_t n);
void diagnose_set_render(json_object *set, FILE *out);

/* ---- the report ---- */

/*
 * Runs every rule and returns the report (schema ubtune.diagnosis/1):
 * summary, causes ranked, normal, not checked, references, experiments.
 */
json_object *diagnose(const struct diag_case *c);
/* v rounded to a multiple of unit, as a JSON number; NULL when not finite. */
json_object *diag_jround(double v, double unit);
/* The text form of a report. */
void diagnose_render(json_object *report, FILE *out);
