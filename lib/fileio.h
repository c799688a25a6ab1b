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
/* "a FIFO", "a character device", ...: the kind of file mode is, for messages. */
const char *file_kind(mode_t mode);
/* Opens a regular file that a person named, for reading (flags may add
 * O_NOFOLLOW). A FIFO, socket or device is refused without being opened
 * (opening one may block or act): -EINVAL (-EISDIR for a directory), and
 * *error, when error is not NULL, is "PATH is a FIFO, not a regular file".
 * Returns the descriptor. */
int open_regular_at(int dfd, const char *path, int flags, char **error);
/* A whole regular file, NUL-terminated, opened by open_regular_at(): -EFBIG
 * past max bytes, and on a file that is not regular *error says so. */
int read_regular(const char *path, size_t max, char **out, size_t *len, char **error);
/* The same without the message. */
int read_file(const char *path, size_t max, char **out, size_t *len);
/* Removes a directory tree that ubtune created, without following
 * symlinks out of it. */
int remove_tree(const char *dir);
/* The same for the entry name of the directory dfd. */
int remove_tree_at(int dfd, const char *name);
