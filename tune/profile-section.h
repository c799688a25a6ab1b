/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the parts of the profile code share: the sections of a file as read
 * (profile-load.c), the checks of names and values against the key schema
 * (profile-keys.c) and the choice of the sections that apply on a machine
 * (profile-match.c).
 */

#include "profile.h"

struct profile_entry {
	char *key, *value;
	unsigned line;
};

struct profile_section {
	char *type; /* NULL when the header was invalid: its keys are not checked */
	char *name; /* as written: "cpu.a72" */
	const char *file;
	unsigned line;
	struct profile_entry *e;
	size_t n;
};

/* True for match-arch=, match-cpu= and match-virt=. */
bool profile_is_match_key(const char *key);
/* NULL with *type set ("cpu" for "cpu.a72") when a section name is valid,
 * else the reason. */
char *profile_check_section_name(const char *name, char **type);
/* NULL when a key of a section of that type is known and its value valid,
 * else the reason. */
char *profile_check_key(const char *type, const char *key, const char *value);

/* Sets the keys of the sections in order, each conditional one only where
 * it matches rec (with rec NULL none applies); notes say which did. */
void profile_resolve(struct profile *p, struct profile_section *const *sections, size_t n, json_object *rec);
