/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "util.h"

/*
 * Every read of /proc, /sys, /dev, /etc, /boot and /run goes through a
 * rootfs: the live machine ("/") or a directory holding a dump of another
 * machine (root-relative proc/, sys/, ...). In a dump, paths and symlinks
 * (absolute ones too) resolve inside the dump and never reach the host.
 *
 * All functions take absolute paths ("/proc/cpuinfo") and return 0 (or a
 * file descriptor) on success and -errno on failure.
 */
struct rootfs;

int rootfs_new(const char *path, struct rootfs **out);
void rootfs_free(struct rootfs *rf);
static inline void rootfs_freep(struct rootfs **rf) { if (*rf) rootfs_free(*rf); }
#define _cleanup_rootfs_ _cleanup_(rootfs_freep)

bool rootfs_is_live(const struct rootfs *rf);
/* "/" or the absolute path of the dump directory. */
const char *rootfs_path(const struct rootfs *rf);

int rootfs_open(struct rootfs *rf, const char *path, int flags);
int rootfs_stat(struct rootfs *rf, const char *path, struct stat *st);
int rootfs_lstat(struct rootfs *rf, const char *path, struct stat *st);
/* 0 when path exists (after following symlinks). */
int rootfs_exists(struct rootfs *rf, const char *path);

/* Whole file, NUL-terminated; at most 16 MiB. A FIFO, socket or device of
 * a dump is refused (-EINVAL) without being waited on. */
int rootfs_read(struct rootfs *rf, const char *path, char **out, size_t *len);
/* Why a read of path failed with r, for a message: "PATH is a FIFO, not a
 * regular file" for what a dump may not hold, else "cannot read PATH:
 * strerror" (caller frees). */
char *rootfs_read_error(struct rootfs *rf, const char *path, int r);
/* First line, white space trimmed. */
int rootfs_read_line(struct rootfs *rf, const char *path, char **out);
int rootfs_read_u64(struct rootfs *rf, const char *path, uint64_t *out);
int rootfs_read_s64(struct rootfs *rf, const char *path, int64_t *out);
/* Bracketed choice lists such as "none [mq-deadline] kyber": the marked
 * choice in *current (NULL if none), all choices in *all. */
int rootfs_read_choice(struct rootfs *rf, const char *path, char **current, struct strv *all);
/* The first line of DIR/NAME trimmed (a sysfs attribute), or NULL when it
 * cannot be read or is empty. */
char *rootfs_read_attr(struct rootfs *rf, const char *dir, const char *name);

int rootfs_readlink(struct rootfs *rf, const char *path, char **out);
/* readlink(2) of this machine's path (/proc/self/fd/N), allocated. */
int readlink_host(const char *path, char **out);
/* The last path component of a symlink's target ("../../bus/pci/drivers/ahci" -> "ahci"). */
int rootfs_readlink_base(struct rootfs *rf, const char *path, char **out);
/* Where path leads for a reader not confined to the root (hwloc given
 * the dump's directory): -EXDEV when a ".." above the root or an absolute
 * symlink target leads out of it, -ENOENT or -ELOOP for a dangling link
 * or a loop, the canonical path otherwise. */
int rootfs_resolve_beneath(struct rootfs *rf, const char *path, char **out);
/* Canonical absolute path inside the root, symlinks resolved. */
int rootfs_realpath(struct rootfs *rf, const char *path, char **out);

/* Sorted entry names of a directory (natural order: cpu2 before cpu10). */
int rootfs_list(struct rootfs *rf, const char *path, struct strv *out);

/*
 * Changing files of the root (`apply --root`). Paths resolve as they do
 * for reading, and in a dump the kernel enforces it where it can (openat2
 * with RESOLVE_IN_ROOT; else the same walk, each step not followed): no
 * directory is created, no file written, renamed or removed outside it.
 * The last component is never followed: the functions act on the entry
 * itself, a symlink included.
 */
/* The directory holding path, opened O_PATH (for the *at() calls), and the
 * last component of path in *name; follow_last resolves a symlink at the
 * end first (inside the root), so that the entry named is its target.
 * -EINVAL for the root itself. */
int rootfs_open_parent(struct rootfs *rf, const char *path, bool follow_last, char **name);
/* A directory opened O_RDONLY (for *at() calls and flock()); not followed
 * when it is a symlink (-ENOTDIR or -ELOOP). */
int rootfs_open_dir(struct rootfs *rf, const char *path);
int rootfs_mkdir(struct rootfs *rf, const char *path, mode_t mode);
int rootfs_rmdir(struct rootfs *rf, const char *path);

/*
 * Tracing: while on, every path read, listed or passed through as a
 * symlink is remembered, so `ubtune gather` can archive exactly the files a
 * probe read. A file read twice gives the bytes of its first read.
 */
/* FILE: content read; DIR: entries listed; LINK: symlink followed;
 * EXISTS: only existence (and file type) looked at. */
enum rootfs_trace_kind { TRACE_FILE, TRACE_DIR, TRACE_LINK, TRACE_EXISTS };
struct rootfs_trace_entry {
	char *path;
	enum rootfs_trace_kind kind;
	/* TRACE_FILE read by rootfs_read(): the bytes it returned, so an
	 * archive holds what the probe saw (/proc changes between reads).
	 * NULL for files only opened. */
	char *data;
	size_t len;
};
void rootfs_trace_start(struct rootfs *rf);
bool rootfs_is_tracing(const struct rootfs *rf);
/* Entries in the order met; the same path may repeat. */
const struct rootfs_trace_entry *rootfs_trace_entries(const struct rootfs *rf, size_t *n);
/* Adds a path to the trace as if it had been read. */
void rootfs_trace_add(struct rootfs *rf, const char *path, enum rootfs_trace_kind kind);
/* Adds a file with the bytes a dump should hold for it, for facts read
 * from elsewhere (the kernel log: DUMP_DMESG). */
void rootfs_trace_add_data(struct rootfs *rf, const char *path, const char *data, size_t len);
