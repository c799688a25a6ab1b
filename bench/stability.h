/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <json-c/json.h>

#include <stdio.h>

#include "lib/result-stability.h"

/* The verdict after prefix, wrapped at the width of out: "Stability: not
 * to be trusted: REASON; ..." or
 * that nothing was seen; reasons beyond the first few are counted. Returns
 * the number of reasons; a record that does not decode is not judged. */
size_t stability_render(json_object *rec, const char *prefix, FILE *out);
