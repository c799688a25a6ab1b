/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "bench/applied.h"
#include "bench/engine.h"
#include "unixbench/catalogue.h"
#include "lib/json.h"

/* Where the run is, for a progress line. */
struct bench_progress {
	const struct ub_test_info *test;
	unsigned copies;
	unsigned pass, passes;      /* 1-based */
	unsigned step, steps;       /* test among all (copy counts × tests), 1-based */
	double elapsed_s, eta_s;    /* eta: NAN while unknown */
};

/* How the run talks to the person: the command prints, the run does not. */
struct bench_ui {
	void (*progress)(const struct bench_progress *p, void *data);
	/* A one-line notice ("the machine is busy ...; waiting"). */
	void (*notice)(const char *msg, void *data);
	void *data;
};

struct bench_opts {
	unsigned tests[UB_NINDEX];
	unsigned ntests;
	unsigned copies[UB_RUNS_MAX];
	unsigned ncopies;
	unsigned iterations; /* 0: UnixBench's 10 and 3 (quick: 3 and 1) */
	bool quick;
	const char *workdir; /* NULL: the current directory */
	const char *workdir_source;
	double wait_s;
	bool force;
	const struct applied_profile *profile;
	bool profile_stale; /* applied before the last reboot */
	const struct bench_engine *engine;
	const struct bench_ui *ui;
};

/* Seconds the preflight check measures the machine. */
#define BENCH_PREFLIGHT_S 1.0

/*
 * Runs the suite and builds the result record (schema ubtune.result/1).
 * Returns 0 when every test finished; -EINTR when a signal stopped the run
 * (*rec holds what finished, marked incomplete); -EIO when a test failed
 * (*rec holds the run, the failure in the test's "error"); -EBUSY when the
 * machine stayed busy; other -errno. *error says why for every failure;
 * *rec may be NULL when nothing ran.
 */
int bench_run(const struct bench_opts *o, json_object **rec, char **error);

/* True when at least one test of the record has a result. */
bool bench_has_results(json_object *rec);
