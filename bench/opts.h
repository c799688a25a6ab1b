/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a bench run is asked to do and how it reports its progress: shared
 * by the suite (bench/bench.h) and the engine that runs a tree's own Run
 * (bench/ubrun.h). */
#pragma once

#include <stdbool.h>

#include "bench/applied.h"
#include "bench/engine.h"
#include "unixbench/catalogue.h"

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
	/* A one-line notice ("the 1-copy pass runs on ..."). */
	void (*notice)(const char *msg, void *data);
	/* A line the next one replaces ("waiting up to 40 s more for the
	 * machine to calm down: ..."): redrawn in place on a terminal, like the
	 * progress. */
	void (*status)(const char *msg, void *data);
	void *data;
};

struct bench_opts {
	unsigned tests[UB_NINDEX];
	unsigned ntests;
	unsigned copies[UB_RUNS_MAX];
	unsigned ncopies;
	/* why "all" copies are fewer than the online CPUs (the cgroup), or NULL */
	char *copies_note;
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
	/* "fastest": the 1-copy pass runs on the fastest kind of core; NULL: anywhere */
	const char *pin_single;
	/* hold the CPU DMA latency at dma_latency_us for the run */
	bool dma_latency;
	unsigned dma_latency_us;
};
