/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "analysis/load.h"
#include "cli/command.h"

/*
 * The RESULT arguments of the commands that read results. On failure they
 * say on stderr what is wrong and return the exit status; EXIT_OK when
 * loaded.
 */

/* show, export: exactly one ID ("12", "last", "last~1") after the
 * options, looked up in the results store; *rec gets the record. */
int command_result_arg(const struct command *c, int argc, char **argv, json_object **rec);

/* The exit status after loading results failed with r: EXIT_USAGE when
 * the input was read but is not what was asked for (not JSON, not a
 * result, no UnixBench output, a directory), EXIT_FAIL otherwise (a file
 * or result that is not there, cannot be read or stored). */
int result_load_exit(int r);

/* compare, report: ids, result files or UnixBench output, all loaded. */
int command_result_args(const struct command *c, char *const *args, size_t nargs, struct loaded_inputs *li);
