/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

/*
 * The directory the File Copy and Shell Scripts tests work in: always a
 * fresh mkdtemp directory of our own, made inside the base (the --workdir
 * option, the applied profile's workdir, else the current directory), so
 * the tests measure the base's file system and cleaning up removes only
 * what ubtune created, never the base.
 */
struct workdir {
	char *base;
	char *path; /* ours: removed at the end */
	const char *source; /* "--workdir", "profile", "current directory" */
};

/* The base as an absolute path (NULL: the current directory), when it is
 * a directory; *error names it and its source otherwise. */
int workdir_base(const char *base, const char *source, char **out, char **error);
int workdir_create(const char *base, const char *source, struct workdir *out, char **error);
/* Removes w->path and everything in it (symlinks are removed, never
 * followed: remove_tree() of lib/util.h). */
int workdir_remove(struct workdir *w);
void workdir_free(struct workdir *w);
