/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/rootfs.h"

struct svc;

/*
 * Reading and setting what an action changes. The same calls serve apply
 * (set `to`), revert (set `from`) and status (compare with `to`).
 *
 * Values per kind: ACT_FILE the file's value; ACT_SERVICE "active" or
 * "inactive"; ACT_DEFAULT_TARGET a unit name; ACT_MKDIR "present" or
 * "absent"; ACT_MOUNT "tmpfs" or "none".
 */

/* What an action (tune/plan.h) changes. */
enum action_kind {
	ACT_FILE,           /* a /sys or /proc value */
	ACT_SERVICE,        /* a unit stopped (from "active" to "inactive") */
	ACT_DEFAULT_TARGET, /* systemd's default target (persistent) */
	ACT_MKDIR,          /* a directory created (persistent) */
	ACT_MOUNT,          /* a tmpfs mounted */
};

/* Current value of a knob file: its first line trimmed, or for a choice
 * list ("none [mq-deadline] kyber") the marked choice. */
int knob_read(struct rootfs *rf, const char *path, bool choice, char **out);
/* Writes a value as `echo VALUE > FILE` would. In a dump (not the live
 * machine) a choice list is rewritten with the brackets moved, the way the
 * kernel shows it after the write. Only files below /sys, /proc/sys and
 * /proc/irq are written. */
int knob_write(struct rootfs *rf, const char *path, const char *value, bool choice);
/* Equal up to runs of white space ("4096\t16384" == "4096 16384"). */
bool knob_value_equal(const char *a, const char *b);

/* True when now is the value as far as the knob goes: services compare
 * running or not, mounts tmpfs or not, files up to white space. */
bool knob_same(enum action_kind kind, const char *now, const char *value);

/* Where a path inside the root is on this machine (for mount(2), mkdir(2)). */
char *knob_host_path(struct rootfs *rf, const char *path);
/* The file system type mounted exactly at a host path; NULL when none. */
int knob_mount_type(const char *host_path, char **fstype);

/* The current value of what a knob or action names. */
int knob_get(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, bool choice,
	     char **out);
/* Sets it. options: mount options for ACT_MOUNT. */
int knob_set(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, const char *value,
	     const char *options, bool choice);
/* Why knob_get() or knob_set() failed with r: what the service manager
 * said for services, else the error's text. */
char *knob_error(struct svc *svc, enum action_kind kind, int r);
