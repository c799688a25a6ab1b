/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/rootfs.h"
#include "lib/util.h"

/*
 * The service manager, behind a small interface so that another init
 * system (busybox or OpenRC init scripts) can be added as one more backend.
 * Unit states are systemd's ActiveState words ("active", "inactive", ...).
 */
struct svc;

struct svc_backend {
	const char *name;
	/* 0, or -errno with *why saying why this backend cannot be used */
	int (*open)(struct svc *s, char **why);
	void (*close)(struct svc *s);
	/* What the service manager said about the last failure, or NULL. */
	const char *(*last_error)(struct svc *s);
	/* Units matching the globs, loaded ones only, with their states. */
	int (*list)(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states);
	int (*active_state)(struct svc *s, const char *unit, char **state);
	/* Stop and start wait until the job has finished. */
	int (*stop)(struct svc *s, const char *unit);
	int (*start)(struct svc *s, const char *unit);
	int (*default_target)(struct svc *s, char **target);
	int (*set_default_target)(struct svc *s, const char *target);
};

struct svc {
	const struct svc_backend *backend;
	void *data;
};

/*
 * Opens the first backend that works. With a dump root (--root), only a
 * bus named by DBUS_SYSTEM_BUS_ADDRESS is used, never this machine's
 * service manager. On failure *why says why services cannot be handled.
 */
int svc_open(struct rootfs *rf, struct svc **out, char **why);
void svc_close(struct svc *s);

/* Backends, tried in this order. */
extern const struct svc_backend svc_systemd;

const char *svc_last_error(struct svc *s);
int svc_list(struct svc *s, const struct strv *patterns, struct strv *names, struct strv *states);
int svc_active_state(struct svc *s, const char *unit, char **state);
int svc_stop(struct svc *s, const char *unit);
int svc_start(struct svc *s, const char *unit);
int svc_default_target(struct svc *s, char **target);
int svc_set_default_target(struct svc *s, const char *target);
/* "active", "reloading" and "activating" units are running. */
bool svc_state_running(const char *state);
