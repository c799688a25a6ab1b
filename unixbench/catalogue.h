/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

/*
 * Every UnixBench test ubtune knows, once: how UnixBench names, measures
 * and scores it, and for the 12 index tests how ubtune runs it. bench,
 * import, diagnose, compare, the profile checks and the help all read this
 * table, so a fact about a test is changed here and nowhere else.
 *
 * The first UB_NINDEX entries are the tests of the System Benchmarks Index
 * in UnixBench's run order (Run's `index` list); the others are tests a
 * UnixBench report may hold (non-index, graphics), which ubtune reads but
 * never runs.
 */
#define UB_NINDEX 12

/* Run's pass counts (-i 10) and ubtune's --quick ones. */
#define UB_PASSES_LONG 10
#define UB_PASSES_SHORT 3
#define UB_QUICK_PASSES_LONG 3
#define UB_QUICK_PASSES_SHORT 1

struct ub_test_info {
	const char *id;       /* Run's test name: "dhry2reg" */
	const char *name;     /* the report's: "Dhrystone 2 using register variables" */
	const char *label;    /* short, for tables (the index tests): "Dhrystone 2" */
	const char *unit;     /* "lps", "MWIPS", "KBps", "lpm" */
	const char *category; /* Run's: "system", "misc", "2d", "3d" */
	double baseline;      /* the score of pgms/index.base; 0: not there */

	/* How the test runs (the index tests; the others leave these 0). */
	int timebase;        /* what the program reports: 1 (per s), 60 (per min), 0 (already a rate) */
	bool long_test;      /* 10 passes (else 3) */
	const char *program; /* program name in the engine: "dhry2reg", "fstime", "looper" */
	/* Arguments, split on spaces; a word that is {t} becomes the duration,
	 * {workdir} the working directory, {bindir} the engine's program directory
	 * ("{bindir}/multi.sh" works too). */
	const char *args;
	/* Arguments in a quick run, for engines that take them (ours: a shorter
	 * Whetstone); NULL: args. */
	const char *quick_args;
	unsigned duration_s; /* 0: the program takes no duration */
	unsigned quick_duration_s;
	unsigned extra_s;    /* wall time beyond the duration (calibration, priming) */
	/* The same in a quick run of ubtune's workloads, which prime File Copy
	 * for 0.2 s without its sync/sleep gaps and calibrate Whetstone to -t */
	double quick_extra_s;
	bool needs_input;    /* reads sort.src from the working directory */
	unsigned procs;      /* processes one copy can have at once */
	bool user_space;     /* all its time is its own, in user space: kernel time during it is another's */
};

/* The whole table, ending with an entry whose id is NULL:
 * ub_tests[0 .. UB_NINDEX - 1] are the index tests in run order. */
extern const struct ub_test_info ub_tests[];
/* The i-th test in the order of UnixBench's report (the index tests by
 * the byte order of their names, as Run sorts them; then the others in
 * the table's order), NULL past the end. */
const struct ub_test_info *ub_test_in_report_order(size_t i);
/* By report name (the C compiler test: "C Compiler Throughput (gcc)" too). */
const struct ub_test_info *ub_test_by_name(const char *name);
/* The index test one copy of which can have the most processes at once
 * (Shell Scripts (8 concurrent)): what a full run needs per copy. */
const struct ub_test_info *ub_most_procs(void);
/* An index test by id, NULL when id is none of the 12. */
const struct ub_test_info *ub_index_test(const char *id);
/* The ids of the index tests joined by sep: "dhry2reg, whetstone-double, ...". */
char *ub_index_ids(const char *sep);

/* Passes of a test: --iterations N gives long tests N and short tests
 * int((N+1)/3), at least 1 (UnixBench's -i). iterations 0: the defaults. */
unsigned ub_passes(const struct ub_test_info *t, unsigned iterations, bool quick);
unsigned ub_duration(const struct ub_test_info *t, bool quick);

/* Expands t->args (t->quick_args when quick_args is set) into argv words
 * after the program path(s) already in argv. */
void ub_expand_args(const struct ub_test_info *t, bool quick, bool quick_args, const char *workdir,
		    const char *bindir, struct strv *argv);

/*
 * The lists a person gives for a benchmark run, checked the same way on
 * the command line (`bench --tests`, `--copies`, `import --copies`) and in
 * a profile's [bench] section. Words are separated by any character of
 * separators. On an error *bad (bad may be NULL) gets a copy of the word
 * at fault, or NULL when the fault is no single word's.
 *
 * A test list names index tests by id ("dhry2reg,pipe"; "index" = all 12)
 * and gives their positions in ub_tests[] (out has room for UB_NINDEX), in
 * the order given, without repeats. -EINVAL for an unknown id, or a list
 * that names no test (*bad: the whole list).
 */
int ub_parse_tests(const char *list, const char *separators, unsigned *out, unsigned *n, char **bad);
/*
 * A copies list ("1,8", "1,all"): `all` is all_cpus, the online CPUs (0:
 * copy counts of another machine, `all` is refused; a check that keeps
 * `all` for later passes 1). Values are 1..UB_COPIES_MAX, at most
 * UB_RUNS_MAX of them (out has room for that many). -EINVAL for a word
 * that is no number or an empty list, -ERANGE for a number out of range,
 * -E2BIG for too many.
 */
#define UB_COPIES_MAX 4096
#define UB_RUNS_MAX 16
int ub_parse_copies(const char *list, const char *separators, unsigned all_cpus, unsigned *out, unsigned *n,
		    char **bad);
