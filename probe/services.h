/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Services: the pieces that unit tests and rules use (processes: probe/processes.h). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/units.h"
#include "probe/processes.h"

/*
 * Known sources of benchmark noise: a systemd unit (or glob), the process
 * it runs, and why it moves scores. Rows without a unit are session
 * processes that only /proc shows. Protective rows guard the hardware:
 * they are reported, never suggested for stopping.
 */
struct noise {
	const char *unit;  /* unit name or glob; NULL: no system unit */
	const char *comm;  /* process name as /proc/PID/stat shows it (at most 15 characters); NULL: none */
	bool protective;
	bool desktop; /* part of a graphical session */
	const char *reason;
};
extern const struct noise noise_table[];
extern const size_t noise_table_len;
/* The row a unit name or a process name belongs to, or NULL. */
const struct noise *noise_for_unit(const char *unit);
const struct noise *noise_for_comm(const char *comm);

/*
 * The unit states a dump carries (GATHER_UNITS), one line each after an
 * optional default target:
 *   default-target=graphical.target
 *   cups.service loaded active running
 * '#' starts a comment line.
 */
struct units_file {
	char *default_target;
	struct unit_state *units;
	size_t n;
};
/* On a bad line: -EBADMSG and *error names the line. */
int units_file_parse(const char *text, struct units_file *out, char **error);
void units_file_free(struct units_file *f);
/* The file for a record's services.* (NULL when the record has no unit
 * states: systemd was not reachable). */
char *units_file_format(const struct env_record *env);
