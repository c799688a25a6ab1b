/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Lists of strings. */

#include <stdbool.h>
#include <stddef.h>
#include "macro.h"

/* A growable NULL-terminated list of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};
void strv_push(struct strv *l, const char *s);
void strv_take(struct strv *l, char *s);
bool strv_contains(const struct strv *l, const char *s);
/* Appends the items of value split on any of seps, white space trimmed,
 * empty ones dropped. */
void strv_split(const char *value, const char *seps, struct strv *out);
/* The items joined with sep ("" for none). */
char *strv_join(const struct strv *l, const char *sep);
void strv_sort(struct strv *l);
void strv_free(struct strv *l);
/* A list freed when it goes out of scope: _cleanup_strv_ struct strv l = {0}; */
#define _cleanup_strv_ _cleanup_(strv_free)
