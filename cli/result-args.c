/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result-args.h"

#include <errno.h>

#include "lib/store.h"
#include "stdin-input.h"

int command_result_arg(struct cmd_ctx *ctx, json_object **rec)
{
	_cleanup_free_ char *error = NULL;
	int64_t id;
	int r = store_lookup(ctx->store, ctx->args[0], &id, rec, &error);
	if (r < 0) {
		log_error("%s", error);
		/* "1;DROP TABLE" is a bad command line; an id with no result is not */
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
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
	_cleanup_free_ char **names = xcalloc(nargs + 1, sizeof(char *));
	for (size_t i = 0; i < nargs; i++) {
		const char *name;
		if (stdin_input(args[i], &name) < 0)
			return EXIT_FAIL;
		names[i] = (char *)name;
	}
	int r = load_inputs(names, nargs, NULL, li, &error);
	if (r == -E2BIG)
		return command_usage_error(c, "%s", error);
	if (r < 0) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	return EXIT_OK;
}
