/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "util.h"

/*
 * Machine dumps as tar archives (libarchive; without it every function
 * returns -EOPNOTSUPP): written from items held in memory, and unpacked
 * into a private temporary directory that is removed afterwards.
 */
enum tar_kind { TAR_FILE, TAR_DIR, TAR_SYMLINK };

struct tar_item {
	char *path; /* relative to the root: "proc/cpuinfo" */
	enum tar_kind kind;
	char *data; /* TAR_FILE: content (NULL: empty) */
	size_t len;
	char *target; /* TAR_SYMLINK */
};

/* Writes a gzip-compressed tar of the items to fd (files 0644, directories
 * 0755, all dated mtime); *written is the compressed size. On failure
 * *error says why. */
int tarball_write(int fd, const struct tar_item *items, size_t n, time_t mtime, uint64_t *written, char **error);

/* A tar archive unpacked for reading as a root. */
struct unpacked_root {
	char *source; /* the archive, absolute, or "standard input" */
	char *tmp;  /* the private directory (mkdtemp), removed by unpacked_root_close() */
	char *root; /* the root inside it: tmp, or its only directory when that holds the dump */
	sigset_t saved_mask; /* the signal mask before unpacking */
	bool deferring;      /* termination signals held until unpacked_root_close() */
};

/*
 * When path names a regular file, or is "-" (standard input, not a
 * terminal), unpacks it (tar, compressed or not) into a new private
 * directory; entries with absolute names, ".." or a path through a symlink
 * are refused, as are archives beyond TARBALL_MAX_BYTES /
 * TARBALL_MAX_ENTRIES, an entry deeper than TARBALL_MAX_DEPTH directories
 * and a file larger than TARBALL_MAX_FILE_BYTES (said by its header, before
 * a byte of it is unpacked: a compression bomb); devices, FIFOs and sockets
 * are left out, and an archive of nothing else is refused by its name.
 * Returns 1 when unpacked, 0 when path is not a regular file (u untouched),
 * -errno with *error otherwise.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are held from before the directory is
 * made until unpacked_root_close() has removed it, so an interrupted command
 * leaves nothing behind: one that comes while the archive is unpacked stops
 * it at once (-EINTR), and the signal takes effect once the directory is
 * removed. Meant for commands that read the root for a moment (probe,
 * gather), not for long work.
 */
/* What ubtune gather writes holds hundreds of entries (698 on a 2-CPU
 * guest), a whole sysfs dump of a large machine tens of thousands (the
 * util-linux dump of a 64-CPU EPYC: 15,803 entries, 10 directories deep at
 * most) and tens of MiB; the probe reads at most 16 MiB of one file. */
#define TARBALL_MAX_BYTES (256ull << 20)
#define TARBALL_MAX_ENTRIES 50000
#define TARBALL_MAX_DEPTH 64
#define TARBALL_MAX_FILE_BYTES (16ll << 20)
int unpacked_root_open(const char *path, struct unpacked_root *u, char **error);
void unpacked_root_close(struct unpacked_root *u);
/* A message about the unpacked root (taken over) with the private
 * directory, gone once closed, named by the archive instead. */
char *unpacked_root_message(const struct unpacked_root *u, char *msg);
