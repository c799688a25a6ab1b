/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result-args.h"

#include <errno.h>

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

int result_load_exit(int r)
{
	switch (r) {
	case -EBADMSG: /* not JSON, binary data, not a ubtune result */
	case -ENOMSG:  /* no UnixBench results in it */
	case -EISDIR:
	case -EINVAL:  /* not a regular file, or not enough in it */
	case -EFBIG:
	case -E2BIG:
		return EXIT_USAGE;
	default:
		return EXIT_FAIL;
	}
}

int command_result_args(const struct command *c, char *const *args, size_t nargs, struct loaded_inputs *li)
{
	_cleanup_free_ char *error = NULL;
	int r = load_inputs(args, nargs, NULL, li, &error);
	if (r == -E2BIG)
		return command_usage_error(c, "%s", error);
	if (r < 0) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	return EXIT_OK;
}
