/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "catalogue.h"
#include "lib/cpu-catalogue.h"
#include "lib/env-record.h"
#include "lib/keyfile.h"

/*
 * What a machine should score: every index test's expected index, and the
 * score, with an interval that holds about 80 % of healthy published runs.
 * The model (reference/expect.ini, docs/expect.md) is fitted by
 * tools/build-reference from the published runs (reference/runs.jsonl);
 * this file only evaluates it:
 *
 *   log E(t) = level[core][t] + log(clock GHz) + base[t] (an x86 base clock)
 *              + virt[class][t] + word32[t] (a 32-bit userland on a 64-bit core)
 *              + one_cpu[t] (one CPU) + kernel_old[t] or kernel_6[t] (the kernel's era)
 *              + scaling[t] * log(capacity of the copies' processes)
 *
 * the interval being the residuals' 10th and 90th percentiles (by basis:
 * the core's own runs, its neighbours', a hidden model's candidates; 1 or
 * N copies) around it, widened by the spread of clocks where the clock is
 * not known and by the spread of the candidates of a hidden model.
 */

enum expect_basis { EB_RUNS, EB_NEIGHBOURS, EB_GROUP, EB_ALL, EB_HIDDEN, EXPECT_NBASIS };
enum expect_virt { EV_NONE, EV_VM, EV_XEN_PV, EV_CONTAINER, EV_EMULATED, EV_UNKNOWN, EXPECT_NVIRT };

/* One core of the model. */
struct expect_core {
	char *name;
	unsigned runs, sources;   /* the runs behind its level */
	enum expect_basis basis;  /* runs, or neighbours' / the group's / all runs' */
	char *from;               /* the cores a borrowed level comes from: "Cortex-A73, Cortex-A57" */
	double clock;             /* median clock of its runs, GHz: for a run whose clock is not known */
	double clock_low, clock_high; /* 10th and 90th percentile of log(clock / median) */
	double level[UB_NINDEX];  /* log of the index per GHz: 1 copy, bare metal */
};

/* Residual percentiles: log(printed / expected), 10th and 90th. */
struct expect_spread {
	bool known;
	unsigned residuals;
	double low[UB_NINDEX + 1], high[UB_NINDEX + 1]; /* the tests, then the score */
};

struct expect_model {
	char *path;
	unsigned runs, sources;
	struct expect_core *cores;
	size_t ncores;
	double base[UB_NINDEX];                  /* an x86 base clock: how much faster the core runs */
	double virt[EXPECT_NVIRT][UB_NINDEX];
	double word32[UB_NINDEX];                /* a 32-bit userland on a 64-bit core */
	double one_cpu[UB_NINDEX];               /* the run saw one CPU */
	double kernel_old[UB_NINDEX];            /* a kernel before 4.15 (no page-table isolation) */
	double kernel_6[UB_NINDEX];              /* a kernel 6.0 or later */
	unsigned concurrency[UB_NINDEX];         /* processes one copy of the test runs at once */
	double scaling[UB_NINDEX];               /* exponent of the copies' capacity */
	double smt;                              /* capacity an SMT sibling adds */
	struct expect_spread spread[EXPECT_NBASIS][2]; /* [basis][0: 1 copy, 1: N copies] */
};

/* Reads a model; -EINVAL with *error "FILE:LINE: [SECTION] KEY: why";
 * expect_model_free() it either way. */
int expect_model_parse(const char *text, size_t len, const char *path, struct expect_model *m, char **error);
int expect_model_load(const char *path, struct expect_model *m, char **error);
void expect_model_free(struct expect_model *m);
const struct expect_core *expect_model_core(const struct expect_model *m, const char *name);

/* The catalogue and the model, as shipped (reference/cpus.ini, reference/expect.ini). */
struct expect_ref {
	struct cpu_catalogue cat;
	struct expect_model model;
	bool loaded;
};
/* Loads both from the data directory, or from the paths given (NULL:
 * the shipped ones); *error says which could not be read. */
int expect_ref_load(struct expect_ref *ref, const char *catalogue, const char *model, char **error);
void expect_ref_free(struct expect_ref *ref);

/* What is known of one run. */
struct expect_facts {
	struct cpu_facts cpu;
	unsigned copies;   /* 0: not known (nothing is expected) */
	unsigned cpus;     /* logical CPUs the run saw; 0: not known */
	unsigned cores;    /* physical cores among them; 0: not known */
	enum expect_virt virt;
	const char *kernel; /* release ("5.15.0-91-generic"); NULL: not known */
};
void expect_facts_init(struct expect_facts *f);
/* The facts of an environment record (a probe's, or an imported header's). */
void expect_facts_env(struct expect_facts *f, const struct env_record *env);
/* An expected figure as people read it: three significant digits, thousands
 * apart ("870", "1,090", "31,200"). */
void expect_number_text(double v, char *buf, size_t size);
/* "an" before a vowel or a letter read by its name (an FT-2000+/64, an RK3568), else "a". */
const char *expect_article(const char *name);
/* "kvm", "xen", "docker", ... (the corpus's and the probe's words) as a class. */
enum expect_virt expect_virt_class(const char *word);

struct expectation {
	bool placed;                /* false: nothing expected (why says why) */
	struct cpu_place place;
	const struct expect_core *core;
	enum expect_basis basis;
	unsigned runs, sources;
	double clock;               /* GHz used */
	char clock_text[16];        /* "2.0", "2.67": as the model or the source names it */
	bool clock_guessed;         /* not known: the median of the core's runs */
	double capacity;            /* the copies' capacity on Dhrystone (1 for one copy) */
	double index[UB_NINDEX], low[UB_NINDEX], high[UB_NINDEX];
	double score, score_low, score_high;
	char name[128];             /* "Xeon E5645", "Skylake", "Xeon of a hidden model" */
	char basis_text[256];       /* "from 23 runs of Cortex-A72 (9 sources), scaled to 1.8 GHz" */
	char why[256];              /* not placed: why */
};
/* The expectation of a run; false (e->why set) when the CPU is not placed
 * or the model has no level for its core. */
bool expect_run(const struct expect_ref *ref, const struct expect_facts *f, struct expectation *e);
/* The score over the tests of mask only (a partial run): the geometric
 * mean of their expected indexes; *low and *high its interval. */
double expect_score_of(const struct expectation *e, unsigned mask, double *low, double *high);
/* Where a score stands against its expected interval: "below", "within", "above". */
const char *expect_verdict(double score, double low, double high);
/* "Score 270.4 is 31 % of the 870 (650-1,090) expected of 1 copy on 1 vCPU of a
 * Xeon ... at 2.0 GHz (KVM): below its interval"; want, low and high the
 * expected score of the tests the run has; cpus 0: not known; virt NULL: not said. */
char *expect_level_text(const struct expectation *e, double score, bool partial, double want, double low,
			double high, unsigned copies, unsigned cpus, bool guest, const char *virt);
/* "KVM", "Xen", "VMware" for the probe's hypervisor words; NULL for one not known. */
const char *expect_hypervisor_word(const char *hypervisor);
