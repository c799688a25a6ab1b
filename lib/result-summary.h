/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/json.h"

/* The listing summary of a result record (see store_list()): run_id,
 * started_at, host, suite, copies, scores and flags ("quick", "partial",
 * "profile:NAME", "unstable", ...). */
json_object *result_summary(json_object *rec);
