/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "macro.h"

/*
 * Data files of [section] headers and "key = value" lines (the CPU
 * catalogue, the fitted expectation model), read with inih, every entry
 * keeping its line so that an error can name it. An indented line
 * continues the value above it (joined with a space); '#' and ';' begin
 * a comment line. tools/build-reference reads the same files the same way.
 */

struct kf_entry {
	char *key, *value;
	unsigned line;
};

struct kf_section {
	char *name;
	unsigned line;
	struct kf_entry *e;
	size_t n;
};

struct keyfile {
	char *path;
	struct kf_section *s;
	size_t n;
};

/* Reads the text; -EINVAL with *error "PATH:LINE: why" for a line that is
 * no header, key or comment, a key set twice in a section, a key before
 * the first header or a line longer than KEYFILE_LINE_MAX. keyfile_free()
 * it either way. */
#define KEYFILE_LINE_MAX 196
int keyfile_parse(const char *text, size_t len, const char *path, struct keyfile *kf, char **error);
void keyfile_free(struct keyfile *kf);
/* The entry of a key in a section; NULL when the section has none. */
const struct kf_entry *kf_get(const struct kf_section *s, const char *key);
/* "PATH:LINE: [SECTION] KEY: message" (entry NULL: the section's line, no key). */
char *kf_error(const struct keyfile *kf, const struct kf_section *s, const struct kf_entry *e, const char *fmt, ...)
	_printf_(4, 5);

/* Feeds inih's ini_parse_stream() one line of TEXT (LEN bytes) from *POS
 * into STR (NUM bytes): so that a reader knows its number, sees every
 * header and refuses a long line rather than have it cut. Returns the
 * line's start in TEXT and its length in *N (a CR before the newline
 * left out), or NULL at the end. A line longer than MAX is handed to inih
 * empty, with *TOO_LONG set. */
const char *ini_feed_line(const char *text, size_t len, size_t *pos, char *str, int num, size_t max, size_t *n,
			  bool *too_long);

/* Interpreting a key file: the section being read and the first problem. */
struct kf_check {
	const struct keyfile *kf;
	const struct kf_section *s;
	char *error; /* "PATH:LINE: [SECTION] KEY: why", the first one only */
};
/* Records a problem of entry e (NULL: of the section) unless one is already recorded. */
void kf_fail(struct kf_check *c, const struct kf_entry *e, const char *fmt, ...) _printf_(3, 4);
/* The entry of a key the section must have; NULL, and "KEY: missing" recorded, when it has none. */
const struct kf_entry *kf_need(struct kf_check *c, const char *key);
