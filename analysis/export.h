/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "lib/json.h"
#include "lib/util.h"

/*
 * Results in the forms fleet tools read (docs/exports.md):
 * OpenMetrics text for Prometheus (node_exporter's textfile collector),
 * and newline-delimited JSON samples as PerfKitBenchmarker writes them.
 */

/* OpenMetrics exposition of the results: a gauge family for the index
 * score, one per index test, and the start time, with the labels host and
 * copies. -EINVAL, with *error naming them, when two results have runs of
 * the same host and copy count (a family holds one value per label set);
 * -EBADMSG, with *error naming the key, when a result does not decode. */
int export_openmetrics(json_object *const *recs, size_t n, struct buf *out, char **error);

/* One JSON object per line for each test's result, each test's index and
 * each run's score; -EBADMSG as export_openmetrics(). */
int export_samples(json_object *const *recs, size_t n, struct buf *out, char **error);

/* "2026-01-01T12:00:00+0100" (or without an offset: UTC) to Unix time;
 * -EINVAL when it is not such a time. */
int export_parse_time(const char *s, time_t *out);
