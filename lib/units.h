/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A small client of systemd's manager (org.freedesktop.systemd1) on the
 * system bus, through sd-bus. sd-bus honours DBUS_SYSTEM_BUS_ADDRESS, which
 * is how tests point it at a mock systemd on a private bus
 * (tests/lib/mock-systemd.py).
 *
 * Every function returns 0 on success and -errno on failure; after a
 * failure units_last_error() says what systemd (or the bus) answered.
 * Errors: -ENOENT no such unit, -EACCES/-EPERM not allowed (root needed),
 * -EHOSTDOWN no systemd on the bus, -ETIME no end of a job in time,
 * -EIO/-ECANCELED/-ETIMEDOUT/-ENOLINK a job that ended failed, canceled,
 * timed out or with a failed dependency. Built without libsystemd, every
 * function returns -EOPNOTSUPP.
 */
struct units;

struct unit_state {
	char *name, *load_state, *active_state, *sub_state;
};

/* How long units_stop()/units_start() wait for the job to finish. */
#define UNITS_JOB_TIMEOUT_USEC (90ull * 1000000ull)

int units_open(struct units **u);
void units_close(struct units *u);
static inline void units_closep(struct units **u) { if (*u) units_close(*u); }
#define _cleanup_units_ __attribute__((cleanup(units_closep)))

/* The message of the last failure on this connection, or NULL. */
const char *units_last_error(const struct units *u);
void units_set_job_timeout(struct units *u, uint64_t usec);

int units_default_target(struct units *u, char **out);
/* SetDefaultTarget (as `systemctl set-default`): takes effect at next boot. */
int units_set_default_target(struct units *u, const char *target);

/* Loaded units whose names match any of the globs ("plymouth-*"), sorted
 * by name. Uses ListUnitsByPatterns, or ListUnits and filters itself when
 * systemd is older than 230. */
int units_list(struct units *u, const char *const *patterns, struct unit_state **out, size_t *n);
/* One loaded unit's state (name is its primary name); -ENOENT when not loaded. */
int units_get(struct units *u, const char *name, struct unit_state *out);

/* StopUnit/StartUnit with mode "replace", then waits for the job's
 * JobRemoved signal (done or skipped: 0). */
int units_stop(struct units *u, const char *name);
int units_start(struct units *u, const char *name);

/* Frees the strings of one state / a whole list from units_list(). */
void unit_state_free(struct unit_state *s);
void unit_state_list_free(struct unit_state *list, size_t n);
/* True when ACTIVE is "active", "activating" or "reloading". */
bool unit_state_is_active(const struct unit_state *s);
