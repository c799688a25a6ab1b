/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * A file that a person named for output (an archive, a page, a chart, an
 * export). A regular file, or a new one, is written to a temporary file
 * beside it that is renamed over it once complete: a failed write leaves
 * it as it was. A character device or a FIFO (/dev/null, /dev/stdout, a
 * pipe to a program) is written in place and never removed; a directory,
 * a socket, a block device or a symbolic link to nothing is refused.
 * Nothing ubtune did not create is ever unlinked or renamed over, except
 * the regular file being replaced.
 */

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct output_file {
	int fd;
	char *path; /* as named, for messages */
	char *target; /* the file renamed over: the one a symbolic link names */
	char *tmp; /* NULL when written in place */
	bool must_be_new;
};

enum {
	/* path must not exist: refused with -EEXIST, never replaced */
	OUTPUT_NEW = 1 << 0,
};

/* Opens path (flags: OUTPUT_*); o->fd takes the bytes. On failure *error
 * is a one-line message naming path. */
int output_file_open(struct output_file *o, const char *path, unsigned flags, char **error);
/* Completes the file: synced and renamed over path (closed when written in
 * place). On failure the temporary is removed and *error says why, with
 * the errno of the write that failed. */
int output_file_finish(struct output_file *o, char **error);
/* Gives up: removes the temporary; path stays as it was. */
void output_file_abort(struct output_file *o);

/* len bytes of text to path, by the three calls above. */
int output_file_write(const char *path, const char *text, size_t len, char **error);
/* What render writes to its stream, to path: rendered in memory first, so
 * that an error of the file is the errno of its write, never a stream's. */
int output_file_render(const char *path, void (*render)(FILE *out, const void *data), const void *data,
		       char **error);
