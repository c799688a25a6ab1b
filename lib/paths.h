/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * Where ubtune finds its data and keeps its state.
 *
 * Data (profiles/, reference/, workloads/): $UBTUNE_DATADIR, else the
 * source tree when the binary runs from its build/ folder, else the
 * installed DATADIR; when that does not exist either, the copy a static
 * build carries (lib/embed.h: builtin_data()), whose paths begin with
 * DATA_BUILTIN. Read data through data_read() and friends, which take
 * both kinds of path.
 * State (results, journal): /var/lib/ubtune as root, else
 * $XDG_DATA_HOME/ubtune (~/.local/share/ubtune); $UBTUNE_STATE_DIR overrides.
 * Cache (compiled workloads): /var/cache/ubtune as root, else
 * $XDG_CACHE_HOME/ubtune (~/.cache/ubtune); $UBTUNE_CACHE_DIR overrides.
 */

/* Path of a data item ("profiles", "reference/published-results.json",
 * "workloads"); the caller frees it. */
char *data_path(const char *item);
/* The directory the carried data files seem to be in, in messages too. */
#define DATA_BUILTIN "<built-in>"
/* Reads a regular file of at most max bytes into *out (NUL-terminated);
 * -ENOENT, -EISDIR, -EINVAL (not a regular file: *error, when error is
 * not NULL, says what it is), -EFBIG, or another -errno. */
int data_read(const char *path, size_t max, char **out, size_t *len, char **error);
/* access(path, F_OK) for both kinds of path. */
bool data_exists(const char *path);
/* realpath() for both kinds of path (a built-in one is its own); NULL
 * with errno set when there is no such file. */
char *data_realpath(const char *path);
/* Appends the names in the directory dir, sorted (of a built-in one: its
 * files); -errno. */
int data_list(const char *dir, struct strv *names);
char *state_dir(void);
char *cache_dir(void);
/* Directory of the running binary (for the prebuilt workloads). */
char *self_dir(void);
/* mkdir -p with mode 0755 (0700 for the last component when private);
 * -ENOTDIR when path or a directory above it is another kind of file. */
int mkdir_p(const char *path, int private_last);
/* Why path cannot be a directory: "PREFIX is a regular file, not a
 * directory" for the first component of it that exists and is not one;
 * NULL when there is none. */
char *not_a_directory(const char *path);
