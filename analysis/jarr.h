/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/json.h"

/* Length of an array; 0 for NULL or anything that is not an array. */
static inline size_t jarr_len(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}
