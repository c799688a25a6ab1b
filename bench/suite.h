/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/util.h"

#define BENCH_NTESTS 12
#define BENCH_PASSES_LONG 10
#define BENCH_PASSES_SHORT 3
#define BENCH_QUICK_PASSES_LONG 3
#define BENCH_QUICK_PASSES_SHORT 1

/*
 * One UnixBench index test: how it is run and scored. The table is data
 * so that any engine speaking UnixBench's stderr protocol (our workloads,
 * a real tree's programs) runs the same tests the same way.
 */
struct bench_test {
	const char *id;      /* UnixBench's test id: "dhry2reg" */
	const char *name;    /* report name: "Dhrystone 2 using register variables" */
	const char *unit;    /* "lps", "MWIPS", "KBps", "lpm" */
	int timebase;        /* what the program reports: 1 (per s), 60 (per min), 0 (already a rate) */
	double baseline;     /* score of the SPARCstation 20-61 (pgms/index.base) */
	bool long_test;      /* 10 passes (else 3) */
	const char *program; /* program name in the engine: "dhry2reg", "fstime", "looper" */
	/* Arguments, split on spaces; a word that is {t} becomes the duration,
	 * {workdir} the working directory, {bindir} the engine's program directory
	 * ("{bindir}/multi.sh" works too). */
	const char *args;
	/* Arguments in a quick run, for engines that take them (ours: a shorter
	 * Whetstone); NULL: args. */
	const char *quick_args;
	unsigned duration_s;       /* 0: the program takes no duration */
	unsigned quick_duration_s;
	unsigned extra_s;          /* wall time beyond the duration (calibration, priming) */
	bool needs_input;          /* reads sort.src from the working directory */
};

/* The 12 index tests in UnixBench's run order. */
extern const struct bench_test bench_tests[BENCH_NTESTS];
const struct bench_test *bench_test_find(const char *id);

/* Passes of a test: --iterations N gives long tests N and short tests
 * int((N+1)/3), at least 1 (UnixBench's -i). iterations 0: the defaults. */
unsigned bench_passes(const struct bench_test *t, unsigned iterations, bool quick);
unsigned bench_duration(const struct bench_test *t, bool quick);

/* Expands t->args (t->quick_args when quick_args is set) into argv words
 * after the program path(s) already in argv. */
void bench_expand_args(const struct bench_test *t, bool quick, bool quick_args, const char *workdir,
		       const char *bindir, struct strv *argv);

/*
 * Parses a --tests list ("dhry2reg,pipe"; "index" = all 12) into indexes of
 * bench_tests[], in the order given, without repeats. On an unknown id
 * returns -EINVAL with *bad pointing at a copy of it.
 */
int bench_parse_tests(const char *list, unsigned *out, unsigned *n, char **bad);
/*
 * Parses a --copies list ("1,8", "1,all"): `all` is online_cpus (not
 * accepted when online_cpus is 0: copy counts of another machine). Values
 * are 1..BENCH_MAX_COPIES, at most BENCH_MAX_RUNS of them.
 */
#define BENCH_MAX_COPIES 4096
#define BENCH_MAX_RUNS 16
int bench_parse_copies(const char *list, unsigned online_cpus, unsigned *out, unsigned *n);
