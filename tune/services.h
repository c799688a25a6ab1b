/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/rootfs.h"
#include "lib/util.h"

/*
 * The service manager, behind a small interface: systemd over the bus,
 * OpenRC's rc-service, and the init scripts of busybox and sysvinit.
 * States are systemd's ActiveState words ("active", "inactive", ...);
 * "unknown" when the backend cannot tell.
 */
struct svc;

struct svc_backend {
	const char *name;
	/* 0, or -errno with *error saying why this backend cannot be used */
	int (*open)(struct svc *s, char **error);
	void (*close)(struct svc *s);
	/* What the service manager said about the last failure, or NULL. */
	const char *(*last_error)(struct svc *s);
	/* How a name in [services] stop= reads for this backend ("cups" is
	 * systemd's cups.service and busybox's S50cups); globs stay globs. */
	char *(*pattern)(const char *given);
	/* Services matching the globs, with their states. Those that match
	 * but cannot be handled come with state "unknown" and a line in notes
	 * ("NAME: why"). */
	int (*list)(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states,
		    struct strv *notes);
	int (*active_state)(struct svc *s, const char *unit, char **state);
	/* Stop and start wait until the job has finished. */
	int (*stop)(struct svc *s, const char *unit);
	int (*start)(struct svc *s, const char *unit);
	/* NULL: this init system has no default target. */
	int (*default_target)(struct svc *s, char **target);
	int (*set_default_target)(struct svc *s, const char *target);
	/* Scripts report failure loosely (a stop of a daemon that just died
	 * fails): one that fails is reported and apply goes on. */
	bool best_effort;
	/* It runs the root's programs: never in a dump (--root), where states
	 * are read from the dump's files instead. */
	bool runs_scripts;
};

struct svc {
	const struct svc_backend *backend;
	struct rootfs *rf;
	void *data;
	char *error; /* the last failure of a script backend */
};

/*
 * Opens the first backend that works. With a dump root (--root DIR), only
 * a bus named by DBUS_SYSTEM_BUS_ADDRESS or the root's own scripts
 * (DIR/etc/init.d, DIR/sbin/rc-service) are used, never this machine's
 * service manager, and the scripts are only read, never run: a dump's
 * programs are anyone's code. On failure *error says why services cannot be
 * handled.
 */
int svc_open(struct rootfs *rf, struct svc **out, char **error);
void svc_close(struct svc *s);

/* Backends, tried in this order. */
extern const struct svc_backend svc_systemd;
extern const struct svc_backend svc_openrc;
extern const struct svc_backend svc_initscripts;

const char *svc_last_error(struct svc *s);
const char *svc_name(const struct svc *s);
bool svc_best_effort(const struct svc *s);
bool svc_runs_scripts(const struct svc *s);
char *svc_pattern(const struct svc *s, const char *given);
int svc_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states, struct strv *notes);
int svc_active_state(struct svc *s, const char *unit, char **state);
int svc_stop(struct svc *s, const char *unit);
int svc_start(struct svc *s, const char *unit);
/* -EOPNOTSUPP when the init system has none. */
int svc_default_target(struct svc *s, char **target);
int svc_set_default_target(struct svc *s, const char *target);
/* "active", "reloading" and "activating" units are running. */
bool svc_state_running(const char *state);

/* ---- shared by the backends that run scripts (OpenRC, init scripts) ---- */

/* Their last_error, and how they set it (takes error, NULL clears). */
const char *svc_script_error(struct svc *s);
void svc_set_error(struct svc *s, char *error);
/* A stop or start that takes longer is killed and reported. */
#define SVC_SCRIPT_TIMEOUT_S 120
/* "cups.service" -> "cups", "S50dropbear" -> "dropbear"; globs are kept. */
char *svc_script_pattern(const char *given);
/* Whether a service name matches a pattern: a glob never matches a boot
 * script (initscript_is_boot); the plan says so with SVC_BOOT_GLOB_NOTE. */
enum svc_match { SVC_MATCH_NONE, SVC_MATCH, SVC_MATCH_BOOT_GLOB };
enum svc_match svc_script_matches(const struct strv *patterns, const char *name);
#define SVC_BOOT_GLOB_NOTE \
	"a boot script (its stop may unmount, halt or cut off the machine): a glob never matches it, name it to stop it"
/* The root's PID 1 is systemd: its services are units, whatever
 * /etc/init.d holds. */
bool svc_pid1_is_systemd(struct rootfs *rf);
/*
 * Runs a program of the live root (never a dump's: -EPERM) with args
 * (NULL-terminated): from the root directory, with the
 * bin directories in PATH, stdin from /dev/null, killed after
 * SVC_SCRIPT_TIMEOUT_S. capture keeps its output (in *output when not
 * NULL, and for the error message); without it (start: a daemon may keep
 * the output open) it goes to /dev/null. Returns the exit status or
 * -errno; on a failure (status > 0 too) *error says what ran and what it
 * said last.
 */
int svc_run_script(struct rootfs *rf, const char *path, const char *const *args, bool capture, char **output,
		   char **error);
