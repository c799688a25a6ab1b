/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/json.h"

/* The listing summary of a result record (see store_list()): run_id,
 * started_at, host, machine_id, round, suite, copies, scores and flags ("quick", "partial",
 * "profile:NAME", "unstable", ...). */
json_object *result_summary(json_object *rec);

/* Bumped when what a summary says of a record changes (2: the stability
 * verdict of lib/result-stability.h in its flags; 3: machine_id and round):
 * a store lists a summary of another version afresh from its record. */
#define RESULT_SUMMARY_VERSION 3
bool result_summary_current(json_object *summary);
/* Adds a summary's keys, but for its version, to a row of the listing. */
void result_summary_copy(json_object *row, json_object *summary);
