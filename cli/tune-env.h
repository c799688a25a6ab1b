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

/* The command to suggest, with the --root the command was given (quoted
 * for a shell when it needs it): "ubtune revert --root 'my dump'". */
static inline char *cli_tune_hint(const char *cmd, const char *root)
{
	if (!root || streq(root, "/"))
		return xasprintf("ubtune %s", cmd);
	if (!root[strspn(root, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-:,@%=")])
		return xasprintf("ubtune %s --root %s", cmd, root);
	struct buf b = {0};
	buf_printf(&b, "ubtune %s --root '", cmd);
	for (const char *p = root; *p; p++)
		buf_puts(&b, *p == '\'' ? "'\\''" : (char[]){ *p, '\0' });
	buf_puts(&b, "'");
	return buf_steal(&b);
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
