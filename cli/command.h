/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "cli/options.h"
#include "lib/json.h"
#include "lib/log.h"

struct store;

/* What a command runs with: its operands, the shared options and what
 * main set up for it. */
struct cmd_ctx {
	const struct command *cmd;
	char **args; /* the operands, in order */
	size_t nargs;
	/* shared options (OPT_JSON, OPT_ROOT, OPT_NO_STORE) */
	bool json;
	const char *root;
	bool no_store;
	/* global options */
	const char *color;
	unsigned width;
	bool help;
	/* CMD_STORE: the results store of this user, opened before run()
	 * unless --no-store was given */
	struct store *store;
};

enum {
	CMD_STORE = 1 << 0,  /* opens the results store before run(), for reading (none: empty) */
	CMD_HIDDEN = 1 << 1, /* not listed, not completed: __complete, __man */
	CMD_OPTIONS_FIRST = 1 << 2, /* options only before the first operand (ubtune's own) */
};

/*
 * One entry of the command table. `ubtune help NAME`, `ubtune NAME --help`,
 * the man page check and shell completion all read it, so they cannot
 * drift apart.
 */
struct command {
	const char *name;
	/* opts: a zeroed struct args of opts_size bytes with the options */
	int (*run)(struct cmd_ctx *ctx, void *opts);
	size_t opts_size;
	const struct cmd_option *options; /* OPT_END-terminated, or NULL */
	struct cmd_operands operands;
	unsigned flags;      /* CMD_* */
	const char *summary; /* one line, no final period */
	/* Paragraphs ("\n\n" between them) of --help before and after the
	 * options; reflowed to the width, except lines that start with two
	 * spaces (kept as they are). */
	const char *description;
	const char *notes;
	/* exit statuses beyond 0 success, 1 failure, 2 usage error: "3 ..." */
	const char *exits;
};

extern const struct command *const commands[];
const struct command *command_find(const char *name);
/* Commands a person may type: not hidden. */
static inline bool command_listed(const struct command *c)
{
	return !(c->flags & CMD_HIDDEN);
}
/* --help of c; of ubtune itself (the commands) when c is NULL. */
void command_help(const struct command *c, FILE *f);
/* Prints "ubtune NAME: message" and a hint to --help; returns EXIT_USAGE. */
int command_usage_error(const struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Flushes standard output and checks that everything printed arrived (a
 * long report is written out before the flush); else says that `what`
 * could not be written and returns -errno. */
int command_flush(const char *what);
/* Says why an output file (lib/output-file.h) failed; the exit status: 2
 * for a path that cannot be an output (a directory, a socket), else 1. */
int command_output_failed(int r, const char *error);
/* "'prbe' is not a command (did you mean 'probe'?)": returns EXIT_USAGE. */
int command_unknown(const char *name);
/* Prints text as --help does: paragraphs reflowed to width. */
void print_paragraphs(FILE *f, const char *text, size_t indent, size_t width);

extern const struct command cmd_probe, cmd_gather;
extern const struct command cmd_apply, cmd_revert, cmd_status;
extern const struct command cmd_bench, cmd_history, cmd_show, cmd_export;
extern const struct command cmd_import, cmd_compare, cmd_report;
extern const struct command cmd_diagnose, cmd_fleet, cmd_reference;
extern const struct command cmd_help, cmd_complete, cmd_man, cmd_expect_runs;
