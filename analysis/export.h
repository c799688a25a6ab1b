/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <time.h>

#include "analysis/fleet.h"
#include "lib/util.h"

/*
 * Results in the forms fleet tools read (docs/exports.md): OpenMetrics
 * text for Prometheus (node_exporter's textfile collector), and
 * newline-delimited JSON samples exactly as PerfKitBenchmarker's JSON
 * publisher writes them. Both read results' digests (analysis/fleet.h),
 * never whole records.
 */

/* The families' lines of n results, with the labels host, machine_id,
 * copies, round, partial and quick. -EINVAL, with *error naming them, when
 * two results have runs of the same host and copy count (a family holds one
 * value per label set). */
int export_openmetrics(const struct fleet_digest *const *d, size_t n, struct buf *out, char **error);

/* PerfKitBenchmarker's samples of one result, a JSON object a line. */
struct export_pkb {
	const char *owner; /* who publishes them: the user, as PerfKitBenchmarker's --owner */
};
void export_samples(const struct fleet_digest *d, const struct export_pkb *pkb, struct buf *out);

/* "2026-01-01T12:00:00+0100" (or without an offset: UTC) to Unix time;
 * -EINVAL when it is not such a time. */
int export_parse_time(const char *s, time_t *out);

/* A double as Python's repr() writes it (the shortest digits that read back
 * the same: "181007.0", "1e+16", "1.5e-05"), as PerfKitBenchmarker's
 * samples carry numbers. */
void export_python_float(double v, char *b, size_t n);
