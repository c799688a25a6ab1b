/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <json-c/json.h>

#include <stdio.h>

#include "lib/result-stability.h"

/* The verdict (lib/result-stability.h) after prefix, wrapped at the width
 * of out: "Stability: not to be trusted: REASON; ...", "Stability: not
 * judged: WHY" or "Stability: to be trusted: ..."; reasons beyond the first
 * few are counted. Returns the verdict; a record that does not decode is
 * not judged. */
enum verdict_state stability_render(json_object *rec, const char *prefix, FILE *out);
