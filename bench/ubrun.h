/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "bench/bench.h"
#include "bench/sampler.h"
#include "lib/json.h"

/*
 * `bench --unixbench DIR --engine=run`: the tree's own Run, unchanged, in
 * the copy built for it, with UB_TMPDIR in the run's working directory and
 * UB_RESULTDIR beside it. Its progress ("2 x Pipe Throughput  1 2 3")
 * becomes ubtune's progress and the sampler's phases; its report and .log
 * become the record's runs (the .log gives every pass). Ctrl-C stops Run
 * and everything it started; the copy counts Run finished are kept.
 */

/* Run's arguments for the options: -i N (quick: -i 3), -c per copy count,
 * the test ids. argv[0] is the Run script. */
void ubrun_argv(const struct bench_opts *o, struct strv *argv);

/*
 * Runs Run and appends its runs to rec's runs[]. 0; -EINTR when a stop
 * signal ended it; -EIO when Run failed (*error says how, with the end of
 * its output).
 */
int ubrun_measure(const struct bench_opts *o, const char *workdir, struct sampler *s, json_object *rec, char **error);

/* Progress in Run's output: the test and copy count of the last
 * "N x NAME  1 2 ..." and the pass it reached. */
struct ubrun_progress {
	const struct ub_test_info *test; /* NULL: none yet */
	unsigned copies, pass;
};
/* Reads the last line of text (what Run printed so far on it); true when
 * it is a progress line. */
bool ubrun_parse_progress(const char *line, struct ubrun_progress *p);
