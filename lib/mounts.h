/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* One line of a mount table (/proc/self/mountinfo or /proc/mounts). */
struct mount_entry {
	bool has_devnum; /* mountinfo gives MAJ:MIN, /proc/mounts does not */
	unsigned major, minor;
	/* options as /proc/mounts shows them (mountinfo: the mount's and the
	 * file system's merged); super_options: mountinfo's file system ones */
	char *target, *source, *fstype, *options, *super_options;
	char *root; /* mountinfo: the mounted directory of the file system ("/" for all of it), else NULL */
};

struct mount_table {
	struct mount_entry *v;
	size_t n;
};

/* Parsers: 0, or -EBADMSG when no line parses. Octal escapes (\040) are decoded. */
int mount_table_parse_mountinfo(const char *text, struct mount_table *t);
int mount_table_parse_mounts(const char *text, struct mount_table *t);
/*
 * The mount holding path: the longest mount point that is path or one of
 * its parents, the last one mounted when several sit on the same point.
 * With a device number, mounts of that device are preferred (the live
 * machine's stat() tells which one really holds the path).
 */
const struct mount_entry *mount_table_find(const struct mount_table *t, const char *path, bool has_devnum,
					   unsigned major, unsigned minor);
void mount_table_free(struct mount_table *t);
/* The value of key= in a comma-separated option list, or NULL. */
char *mount_option(const char *options, const char *key);
