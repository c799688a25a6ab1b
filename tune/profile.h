/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"
#include "lib/util.h"

/*
 * Tuning profiles: INI files read with libinih (syntax in
 * profiles/README.md). A profile may include others (their keys first, the
 * including file's keys win) and may hold sections that apply only on
 * matching machines (match-arch=, match-cpu=, match-virt=).
 */

/* Bounds that keep the parser safe on hostile input. */
#define PROFILE_FILE_MAX (64u * 1024)
#define PROFILE_LINE_MAX 190
#define PROFILE_INCLUDE_DEPTH 8
#define PROFILE_ERRORS_MAX 20

/* One resolved key: the value that wins and where it was written. */
struct profile_setting {
	char *section; /* section type: "cpu" (an instance "[cpu.a72]" counts as "cpu") */
	char *key;     /* "governor"; in [sysctl] the sysctl name with dots */
	char *value;
	char *file;
	unsigned line;
};

struct profile {
	char *name; /* file name without ".profile" */
	char *path;
	char *description;
	struct strv chain; /* names of the profiles read, included ones first */
	struct profile_setting *settings;
	size_t n_settings;
	struct strv notes; /* which conditional sections applied, and why (not) */
};

/*
 * Reads the profile at path with its includes. With rec (an environment
 * record), sections with match-* keys apply when the machine matches; with
 * rec NULL they are checked but not applied. On failure (-EINVAL, or -errno
 * when a file cannot be read) *errors holds one line per problem, each
 * "FILE:LINE: [SECTION] KEY: message".
 */
int profile_load(const char *path, json_object *rec, struct profile **out, struct strv *errors);
void profile_free(struct profile *p);
static inline void profile_freep(struct profile **p) { if (*p) profile_free(*p); }
#define _cleanup_profile_ _cleanup_(profile_freep)

/* The winning setting of a key, or NULL when no profile sets it. */
const struct profile_setting *profile_get(const struct profile *p, const char *section, const char *key);
/* "[cpu] governor (ft2000.profile:23)": where a setting comes from. */
char *profile_origin(const struct profile_setting *s);

/* A profile named on the command line: an existing file, else
 * NAME[.profile] among the shipped profiles. Caller frees. */
char *profile_find(const char *name);

/* Parsers of validated values, shared with the planner. */
/* "1800MHz", "2.2GHz", "1500000kHz" -> kHz. */
int profile_parse_freq(const char *s, uint64_t *khz);
/* yes/no, true/false, on/off, 1/0. */
int profile_parse_bool(const char *s, bool *out);
