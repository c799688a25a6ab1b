/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "bench/opts.h"
#include "lib/json.h"

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
