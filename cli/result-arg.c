/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ID argument of the commands that work on one stored result. */
#include "command.h"
#include "lib/store.h"

int command_result_arg(const struct command *c, int argc, char **argv, json_object **rec)
{
	if (optind >= argc)
		return command_usage_error(c, "which result? Give an id from `ubtune history`, or 'last'");
	if (optind + 1 < argc)
		return command_usage_error(c, "unexpected argument '%s'", argv[optind + 1]);
	_cleanup_store_ struct store *s = NULL;
	_cleanup_free_ char *error = NULL;
	int64_t id;
	if (store_open_state(&s, &error) < 0 || store_lookup(s, argv[optind], &id, rec, &error) < 0) {
		log_error("%s", error);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
