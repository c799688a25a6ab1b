/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/result-record.h"

/*
 * Charts as self-written SVG: readable in a browser, scalable in a
 * document (viewBox), with a <title> and <desc>, and a tooltip on every
 * bar and point. No script, no external font or style.
 */

/* Inline in an HTML page (no XML declaration) or a file of its own. */
enum chart_mode { CHART_INLINE, CHART_FILE };

/* Grouped horizontal bars per test, one bar per result: the index, or with
 * relative the percentage of the first result. One panel per section of
 * the comparison (copy count). */
void chart_compare(json_object *cmp, bool relative, enum chart_mode mode, FILE *out);

/* The sampler's readings of a result over time: CPU clock (mean and
 * lowest over the CPUs), the hottest temperature, raised alarms, the
 * events, on bands naming the test that ran. Returns false (and writes
 * nothing) when the result has no readings of clock, temperature or load. */
bool chart_timeline(const struct result_record *r, enum chart_mode mode, FILE *out);
/* Whether chart_timeline() would draw anything for the result. */
bool chart_has_timeline(const struct result_record *r);

/* The fleet view's strips, one section of the fleet record (copy count):
 * a row per test, a dot per host at its % off the fleet's median, the
 * normal range as a band, the outliers larger and named. */
void chart_fleet(json_object *fleet, json_object *sec, enum chart_mode mode, FILE *out);
