/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "bench/applied.h"
#include "unixbench/catalogue.h"
#include "lib/json.h"

/*
 * What runs the tests: our workloads (one multi-call program, prebuilt or
 * compiled with a profile's compiler and flags) or the programs of a real
 * UnixBench tree. Both speak UnixBench's result protocol.
 */
enum engine_kind {
	ENGINE_WORKLOADS,
	ENGINE_PROGRAMS,
	ENGINE_RUN, /* a UnixBench tree's own Run script (bench/ubrun.h) */
};

struct bench_engine {
	enum engine_kind kind;
	char *binary;   /* workloads: the multi-call program */
	char *bindir;   /* programs: pgms/; workloads: the directory holding multi.sh */
	char *input;    /* programs: the tree's testdir/sort.src */
	char *suite;    /* "native" | "unixbench" */
	char *version;  /* ubtune's | the tree's ("6.0.0") */
	char *description;
	char *note;         /* why the profile's compiler flags were not used, or NULL */
	json_object *build; /* the compile record, or NULL */
	bool prebuilt;      /* the programs were not compiled for this run (build: what they say of it) */
	char *tree;         /* a UnixBench tree: the directory given (never written to) */
	char *layout;       /* its layout: "5.1.2", "5.1.3", "6.x" */
	char *run;          /* ENGINE_RUN: the Run script of the copy built for it */
	unsigned max_copies; /* Run's cap on the copies of the system tests (5.1.x: 16); 0: none */
	bool build_needed;   /* a plan: the build is not in the cache, the run makes it first */
};

#define WORKLOADS_BINARY "ubtune-workloads"

/*
 * A byte-unixbench tree (bench/ubtree.h: the UnixBench directory, a
 * checkout holding it, or its pgms/). It is built into a copy in the cache
 * with the applied profile p's compiler and flags (5.1.x OPTON, 6.x
 * UB_GCC_OPTIONS) when p (may be NULL) names them, when the tree is not
 * built, and always for run_script (its own Run then runs the tests in
 * the copy, ENGINE_RUN); otherwise its programs run as built there. When
 * a build fails for a built tree, out->note says why its programs are used
 * as they are.
 *
 * plan: say what would run without building, copying or writing anything
 * (bench --dry-run, and the duration bench states before it starts): the
 * build record is the cached one, or the one the run would make
 * ("cached": false, out->build_needed).
 */
int engine_unixbench(const char *dir, const struct applied_profile *p, bool run_script, bool plan,
		     struct bench_engine *out, char **error);
/*
 * Our workloads: compiled into the cache when the applied profile names a
 * compiler or flags (and a compiler is there), else the prebuilt program
 * beside ubtune or in its libexec directory; out->note says why prebuilt
 * ones are used when a profile asked for flags. plan: as for
 * engine_unixbench().
 */
int engine_workloads(const struct applied_profile *p, bool plan, struct bench_engine *out, char **error);
void engine_free(struct bench_engine *e);
/* The record's "engine": {"kind", "path", "bindir", "prebuilt", "description", "note", "tree", "layout"}. */
json_object *engine_json(const struct bench_engine *e);

/* The command line of a test. */
void engine_argv(const struct bench_engine *e, const struct ub_test_info *t, bool quick, const char *workdir,
		 struct strv *argv);
/* Environment of the copies: ours plus LANG=en_US.utf8 (as Run sets it),
 * UB_BINDIR and, in quick runs, UBTUNE_WORKLOADS_QUICK=1. */
char **engine_env(const struct bench_engine *e, bool quick);
/* Puts the shell tests' input (sort.src) into dir; *created says the file
 * is ours to remove. */
int engine_prepare_input(const struct bench_engine *e, const char *dir, char **error);

/*
 * Compiles the workload sources in srcdir with `make -C srcdir O=DIR
 * CC=cc WORKLOAD_CFLAGS=cflags` into cachedir/<key>/, key = hash of the
 * compiler's path and version, the flags and every source file; reuses a
 * finished build with the same key. *build gets {"cc", "cc_version",
 * "cflags", "commands": [...], "key", "dir", "cached"}. plan: nothing is
 * compiled or written; *build is the cached record, or the one a build
 * would make (no commands, "cached": false).
 */
int workloads_compile(const char *srcdir, const char *cachedir, const char *cc, const char *cflags, bool plan,
		      json_object **build, char **error);
