/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "strv.h"

/*
 * The CPU catalogue (reference/cpus.ini, described in reference/README.md):
 * which core a CPU has and at what clock it runs, from its model string,
 * its ARM MIDR or its x86 family and model. tools/build-reference reads
 * the same file.
 */

struct cat_core;

struct cat_midr {
	unsigned implementer, part;
};
struct cat_x86 {
	char *vendor;
	unsigned family, model_lo, model_hi;
};

struct cat_core {
	char *name, *group;
	unsigned line;
	struct strv arch, match, neighbour_names;
	struct cat_midr *midr;
	size_t nmidr;
	struct cat_x86 *x86;
	size_t nx86;
};

struct cat_cpu {
	char *name;
	unsigned line;
	const struct cat_core *core, *little;
	double nominal, boost, little_clock; /* GHz; NAN: not known */
	unsigned big_cores, little_cores;    /* 0: not a big.LITTLE chip */
	struct strv match;
};

#define CAT_MAX_CANDIDATES 8
struct cat_hidden {
	char *name;
	unsigned line;
	const struct cat_core *candidates[CAT_MAX_CANDIDATES];
	size_t ncandidates;
	struct {
		double ghz;
		const struct cat_core *core;
	} at[CAT_MAX_CANDIDATES];
	size_t nat;
	struct strv match;
};

struct cpu_catalogue {
	char *path;
	struct cat_core *cores;
	size_t ncores;
	struct cat_cpu *cpus;
	size_t ncpus;
	struct cat_hidden *hidden;
	size_t nhidden;
};

/* Reads a catalogue; -EINVAL with *error "FILE:LINE: [SECTION] KEY: why"
 * for the first line that does not fit, another -errno when it cannot be
 * read. cpu_catalogue_free() it either way. */
int cpu_catalogue_load(const char *path, struct cpu_catalogue *cat, char **error);
int cpu_catalogue_parse(const char *text, size_t len, const char *path, struct cpu_catalogue *cat, char **error);
void cpu_catalogue_free(struct cpu_catalogue *cat);
const struct cat_core *cpu_catalogue_core(const struct cpu_catalogue *cat, const char *name);

/* A model string as patterns see it: lower case, "(R)", "(TM)", "CPU",
 * "Processor" and the clock after "@" dropped, spaces squeezed; *ghz gets
 * that clock (NAN when the string names none). */
void cpu_model_normalize(const char *in, char *out, size_t size, double *ghz);

/* What is known of a machine's CPU. */
#define CPU_FACTS_MAX_MODELS 4
struct cpu_facts {
	const char *models[CPU_FACTS_MAX_MODELS]; /* model strings, the most specific first */
	const char *arch;                          /* NULL: not known */
	int midr_implementer, midr_part;           /* -1: not known */
	const char *x86_vendor;                    /* "GenuineIntel"; NULL: not known */
	int x86_family, x86_model;                 /* -1: not known */
	double clock_mhz;                          /* a clock the source states; NAN */
	const char *clock_said_by;                 /* who states it ("cpufreq"); NULL: "stated" */
	double bogomips;                           /* per CPU; NAN */
};
void cpu_facts_init(struct cpu_facts *f);

/* Where the catalogue places a CPU. */
struct cpu_place {
	const struct cat_core *core; /* NULL: not placed */
	const struct cat_cpu *cpu;   /* the chip, when a [cpu] entry matched */
	const struct cat_hidden *hidden; /* a model string that hides the model */
	/* a hidden model whose clock names no core: the cores it may be
	 * (core is the first of them) */
	const struct cat_core *candidates[CAT_MAX_CANDIDATES];
	size_t ncandidates;
	char by[160];          /* "MIDR 0x41:0xd08", "model string 'Xeon E5645' ([cpu Xeon E5645])" */
	double clock_ghz;      /* NAN: not known */
	const char *clock_source; /* "stated", "boost", "nominal", "model string", "BogoMIPS"; NULL */
	bool clock_base;       /* the clock is an x86 base clock: the core may run faster */
};
/* Places the CPU; false (p->core NULL, p->by saying why) when nothing in
 * the catalogue fits. */
bool cpu_place(const struct cpu_catalogue *cat, const struct cpu_facts *f, struct cpu_place *p);
