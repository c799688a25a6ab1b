/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Comparing, trimming, reading and formatting strings. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool streq(const char *a, const char *b) { return strcmp(a, b) == 0; }
static inline bool streq_ptr(const char *a, const char *b)
{
	return a && b ? streq(a, b) : a == b;
}
static inline const char *startswith(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}
bool endswith(const char *s, const char *suffix);
/* True when s is prefix followed by one or more ASCII digits and nothing
 * else: "cpu12" for "cpu", "1234" for "". */
bool str_numbered(const char *s, const char *prefix);

/* In-place trimming of ASCII white space; returns s. */
char *strstrip(char *s);
/* Collapses runs of white space into one space and trims. */
char *strsqueeze(char *s);
/* The value of the last "KEY=value" line of text (white space around the
 * line ignored), or NULL when there is none or it is empty. */
char *kv_value(const char *text, const char *key);

/* A memory size given in KiB as people read it: "15.6 GiB", "512 MiB". */
void kib_text(int64_t kib, char *buf, size_t n);

/* Natural comparison: "cpu2" < "cpu10". */
int strnatcmp(const char *a, const char *b);

/* Levenshtein distance (ASCII case ignored), for "did you mean". */
size_t str_edit_distance(const char *a, const char *b);
/* The closest word of a NULL-terminated list when it is near enough to be
 * a typo of word; else NULL. */
const char *str_closest(const char *word, const char *const *choices);

/* True when s is valid UTF-8 without control characters: text a firmware
 * or driver meant to be read, not binary data. */
bool text_printable(const char *s);
/* s with what a terminal would act on made visible: C0 controls but the
 * line break and the tab, and DEL as "\x1b", C1 controls as "\u009b", a
 * byte that is no UTF-8 as "\xff"; NULL when s has none (else the caller
 * frees). */
char *str_escape_controls(const char *s);
