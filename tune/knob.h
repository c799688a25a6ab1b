/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/rootfs.h"
#include "tune/plan.h"

/*
 * Reading and setting what an action changes. The same calls serve apply
 * (set `to`), revert (set `from`) and status (compare with `to`).
 *
 * Values per kind: ACT_FILE the file's value; ACT_SERVICE "active" or
 * "inactive"; ACT_DEFAULT_TARGET a unit name; ACT_MKDIR "present" or
 * "absent"; ACT_MOUNT "tmpfs" or "none".
 */

/* Current value of a knob file: its first line trimmed, or for a choice
 * list ("none [mq-deadline] kyber") the marked choice. */
int knob_read(struct rootfs *rf, const char *path, bool choice, char **out);
/* Writes a value as `echo VALUE > FILE` would: one write(2) to a sysfs or
 * procfs file. A regular file (a dump's copy) is replaced whole through a
 * temporary, so that a kill leaves the old or the new value; a choice list
 * is rewritten with the brackets moved, the way the kernel shows it after
 * the write. Only files below /sys, /proc/sys and /proc/irq are written,
 * and under --root only inside the dump. */
int knob_write(struct rootfs *rf, const char *path, const char *value, bool choice);
/* Equal up to runs of white space ("4096\t16384" == "4096 16384"). */
bool knob_value_equal(const char *a, const char *b);

/* True when now is the value as far as the knob goes: services compare
 * running or not, mounts tmpfs or not, files up to white space. */
bool knob_same(enum action_kind kind, const char *now, const char *value);

/* Undoes what a kill in the middle of knob_write() can leave: the
 * temporary beside a regular file (KNOB_TEMP_SUFFIX). */
int knob_clean(struct rootfs *rf, const char *path);
#define KNOB_TEMP_SUFFIX ".ubtune-new"
/* ".NAME" KNOB_TEMP_SUFFIX */
char *knob_temp_name(const char *name);

/* The file system type mounted exactly at a directory of the root; NULL
 * when none. In a dump it is what the dump's mount table says. */
int knob_mount_type(struct rootfs *rf, const char *path, char **fstype);

/* Whether a change of this kind is carried out on this root. In a dump
 * (--root) apply changes files only: the tmpfs workdir is not mounted and
 * the root's init scripts are never run (services on a bus named by
 * DBUS_SYSTEM_BUS_ADDRESS are changed). knob_set() refuses the others with
 * -EPERM; apply journals them and says they were not carried out. */
bool knob_carried_out(struct rootfs *rf, struct svc *svc, enum action_kind kind);

/* The current value of what a knob or action names. */
int knob_get(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, bool choice,
	     char **out);
/* Sets it. options: mount options for ACT_MOUNT. */
int knob_set(struct rootfs *rf, struct svc *svc, enum action_kind kind, const char *target, const char *value,
	     const char *options, bool choice);
/* Why knob_get() or knob_set() failed with r: what the service manager
 * said for services, else the error's text. */
char *knob_error(struct svc *svc, enum action_kind kind, int r);
