/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "analysis/load.h"
#include "cli/command.h"

/*
 * The RESULT arguments of the commands that read results. On failure they
 * say on stderr what is wrong and return the exit status; EXIT_OK when
 * loaded.
 */

/* show, export: the one ID ("12", "last", "last~1"), looked up in the
 * results store (CMD_STORE); *rec gets the record. */
int command_result_arg(struct cmd_ctx *ctx, json_object **rec);
/* The operand of show and export. */
#define RESULT_ID_OPERAND                                                                             \
	{ .usage = "ID", .min = 1, .max = 1, .complete = COMPLETE_RESULT_ID,                           \
	  .missing = "which result? Give an id from `ubtune history`, or 'last'" }
#define RESULT_ID_HELP "ID is a number from `ubtune history`, 'last', or 'last~N' (N results before the last)."

/* The exit status after loading results failed with r: EXIT_USAGE when
 * the input was read but is not what was asked for (not JSON, not a
 * result, no UnixBench output, a directory), EXIT_FAIL otherwise (a file
 * or result that is not there, cannot be read or stored). */
int result_load_exit(int r);

/* compare, report: ids, result files or UnixBench output, all loaded. */
int command_result_args(const struct command *c, char *const *args, size_t nargs, struct loaded_inputs *li);
