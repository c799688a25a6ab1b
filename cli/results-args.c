/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "results-args.h"

#include <errno.h>

#include "command.h"

int load_result_args(char *const *args, size_t nargs, size_t min, struct loaded_inputs *li)
{
	_cleanup_free_ char *error = NULL;
	int r = load_inputs(args, nargs, NULL, li, &error);
	if (r < 0) {
		log_error("%s", error);
		return r == -E2BIG ? EXIT_USAGE : EXIT_FAIL;
	}
	if (li->n < min) {
		log_error("one result is nothing to compare: give two or more (ids, result files or UnixBench output)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
