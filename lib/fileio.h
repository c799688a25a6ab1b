/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading, writing and removing files and directories. */

#include <dirent.h>
#include <stddef.h>
#include <sys/types.h>
#include "strv.h"

/* Sorted, de-duplicated directory entries (without "." and ".."), for
 * output that does not depend on readdir order. */
int dir_list_sorted(DIR *d, struct strv *out);

/* Reads fd from its current offset to the end, NUL-terminated; -EFBIG past max bytes. */
int read_fd(int fd, size_t max, char **out, size_t *len);
/* Writes all of s, however many write() calls that takes. */
int write_full(int fd, const char *s, size_t len);
/* Replaces path with text: written to a temporary file beside it, synced,
 * renamed over it, the directory synced; a crash leaves the old file or
 * the new one, never a part. */
int write_file_atomic(const char *path, const char *text, mode_t mode);
/* A whole regular file or pipe, NUL-terminated: -EISDIR for a directory,
 * -EINVAL for another kind of file (a device), -EFBIG past max bytes. */
int read_file(const char *path, size_t max, char **out, size_t *len);
/* Removes a directory tree that ubtune created, without following
 * symlinks out of it. */
int remove_tree(const char *dir);
/* The same for the entry name of the directory dfd. */
int remove_tree_at(int dfd, const char *name);
