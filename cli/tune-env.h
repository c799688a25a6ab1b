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
