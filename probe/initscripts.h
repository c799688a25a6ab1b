/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Init scripts of machines without systemd: busybox and buildroot
 * (/etc/init.d/S50dropbear), sysvinit and OpenRC (/etc/init.d/cron). The
 * probe lists them; the service backends of tune/ stop and start them.
 */
#pragma once

#include <stdbool.h>

#include "lib/rootfs.h"
#include "probe/processes.h"

#define INITD "/etc/init.d"
/* OpenRC's state while it runs the machine; started services are listed
 * in its started/ directory. */
#define OPENRC_RUN "/run/openrc"
#define OPENRC_STARTED OPENRC_RUN "/started"

struct initscript {
	char *name;    /* "dropbear": the script name without busybox's S?? prefix */
	char *path;    /* "/etc/init.d/S50dropbear", inside the root */
	char *daemon;  /* the process it runs as /proc/PID/stat names it: "dropbear" */
	bool daemon_named; /* the script names it (else it is the service name) */
	char *pidfile; /* "/var/run/dropbear.pid" inside the root, or NULL */
	bool has_status; /* answers `status` (LSB exit codes: 0 running, 3 stopped) */
	bool executable;
};

/*
 * What a script's text says: the daemon (start-stop-daemon -x/--exec,
 * DAEMON=, OpenRC's command=) and its pidfile (-p/--pidfile, PIDFILE=,
 * pidfile=), with the script's own simple variables expanded, and whether
 * it has a `status` verb. The daemon defaults to the service name.
 * Fills s->daemon, s->pidfile and s->has_status; s->name must be set.
 */
void initscript_parse(const char *text, struct initscript *s);

/* The service name of an entry of /etc/init.d ("S50dropbear" -> "dropbear"),
 * or NULL for entries that are not services (rcS, rcK, K?? scripts,
 * README, backup files). */
char *initscript_name(const char *entry);

/* Scripts whose stop unmounts, halts or cuts the machine off: a glob in
 * [services] stop= never matches them (naming one does). */
bool initscript_is_boot(const char *name);

/* Every service script of the root's /etc/init.d, in name order (one per
 * service name: S50dropbear wins over dropbear). -ENOENT without the
 * directory. */
int initscripts_list(struct rootfs *rf, struct initscript **out, size_t *n);
void initscripts_free(struct initscript *v, size_t n);
void initscript_clear(struct initscript *s);

/*
 * Whether the daemon of a script runs, from the root's /proc: the pid of
 * its pidfile when that process lives (with the daemon's name), else a
 * process named like the daemon in t (a pidfile's process must carry the
 * daemon's name when the script names the daemon). 1 (and *pid) when it runs, 0 when
 * not, -ENODATA when t is empty (no /proc) and the pidfile does not show it.
 */
int initscript_running(struct rootfs *rf, const struct initscript *s, const struct proc_table *t, int *pid);
