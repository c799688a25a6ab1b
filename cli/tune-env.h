/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "cli/command.h"
#include "lib/log.h"
#include "tune/tune.h"

/* Opens the tuning environment for a command, saying why when it cannot. */
static inline int cli_tune_env(const char *root, struct tune_env *env)
{
	_cleanup_free_ char *error = NULL;
	int r = tune_env_open(root, true, env, &error);
	if (r < 0)
		log_error("%s", error);
	return r;
}

/* Parses the options revert and status share: --root DIR and, when json
 * is not NULL, --json. Returns -1 to go on, else the exit code. */
static inline int cli_tune_options(const struct command *c, int argc, char **argv, const char **root, bool *json)
{
	int opt, code;
	while ((opt = command_getopt(c, argc, argv, "h", &code)) != -1) {
		if (opt == 'r')
			*root = optarg;
		else if (opt == 'j' && json)
			*json = true;
		else
			return code;
	}
	if (optind < argc)
		return command_usage_error(c, "unexpected argument '%s'", argv[optind]);
	return -1;
}
