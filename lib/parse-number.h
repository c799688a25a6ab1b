/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Numbers read from text. */

#include <stdint.h>

/* Numbers from text, whole-string and range checked, white space around
 * them allowed; 0 or -EINVAL/-ERANGE. parse_u64() and parse_s64() read
 * decimal ("010" is ten); parse_u64_base() another base (16 takes "0x41"). */
int parse_u64(const char *s, uint64_t *out);
int parse_u64_base(const char *s, int base, uint64_t *out);
int parse_s64(const char *s, int64_t *out);
int parse_double(const char *s, double *out);
