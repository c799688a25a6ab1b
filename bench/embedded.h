/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/embed.h"

/*
 * Workloads carried inside ubtune. A static build (make STATIC=1) links
 * the prebuilt workloads program, its Execl image and the shell tests'
 * scripts into the binary, so that one copied file runs `ubtune bench` on
 * a board. They are written out once, into CACHE/workloads/embedded-HASH/
 * (HASH of their names and bytes: another build gets its own directory),
 * and run from there.
 */
/* The files linked into this binary; *n = 0 in builds without them. */
const struct embedded_file *embedded_workloads(size_t *n);

/*
 * Writes files[0..n) into cachedir/workloads/embedded-HASH/ unless a
 * directory with exactly these files is there already (a damaged one is
 * replaced), and sets *dir to it. The files are executable. A directory
 * being written is private until complete, so concurrent callers never
 * run half-written files. On failure *error names the directory and the
 * reason.
 */
int embedded_write_out(const struct embedded_file *files, size_t n, const char *cachedir, char **dir,
		       char **error);
