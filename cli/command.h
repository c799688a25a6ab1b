/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <getopt.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/log.h"

/*
 * One entry of the command table. `ubtune help NAME`, `ubtune NAME --help`,
 * the man page check and shell completion all read it, so they cannot
 * drift apart.
 */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;    /* synopsis after the name: "[--json] [--root DIR]" */
	const char *summary; /* one line, no final period */
	const char *help;    /* option list and notes, shown by --help */
	const struct option *options;
	/* exit statuses beyond 0 success, 1 failure, 2 usage error: "3 ..." */
	const char *exits;
};

extern const struct command *const commands[];
const struct command *command_find(const char *name);
void command_help(const struct command *c, FILE *f);
/* Prints "ubtune NAME: message" and a hint to --help; returns EXIT_USAGE. */
int command_usage_error(const struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Flushes standard output and checks that everything printed arrived (a
 * long report is written out before the flush); else says that `what`
 * could not be written and returns -errno. */
int command_flush(const char *what);
/* Standard handling of getopt's '?' and ':' and of --help ('h'). */
int command_getopt(const struct command *c, int argc, char **argv, const char *shortopts, int *exit_code);

extern const struct command cmd_probe, cmd_gather;
extern const struct command cmd_apply, cmd_revert, cmd_status;
extern const struct command cmd_bench, cmd_history, cmd_show, cmd_export;
extern const struct command cmd_import, cmd_compare, cmd_report;
extern const struct command cmd_diagnose, cmd_fleet;
