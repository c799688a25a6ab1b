/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/result-record.h"
#include "lib/util.h"

/*
 * Whether a result is to be trusted, as pyperf's check says of its runs:
 * each reason a sentence ("Pipe Throughput, 1 copy: CV 7.3 % (above 5 %)").
 * A run is not to be trusted when a test's passes vary by more than
 * STABILITY_CV_MAX_PCT, when the sampler saw events during it (other
 * processes, throttling, low clocks, undervoltage, steal, swapping), or
 * when a test's passes fall into two groups STABILITY_GAP_MIN_PCT apart
 * (bimodal: Pipe-based Context Switching swings with where its two
 * processes are placed). Results without passes (imports of a report)
 * are judged on what they hold.
 */
#define STABILITY_CV_MAX_PCT 5.0
#define STABILITY_GAP_MIN_PCT 15.0

/* Appends the reasons to *reasons; returns their number (0: stable). */
size_t result_stability(const struct result_record *r, struct strv *reasons);
