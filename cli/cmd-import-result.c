/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>

#include "command.h"
#include "lib/store.h"

static const struct option options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int run(int argc, char **argv)
{
	int opt, code;
	while ((opt = command_getopt(&cmd_import_result, argc, argv, "+h", &code)) != -1)
		return code;
	if (optind >= argc)
		return command_usage_error(&cmd_import_result, "which file?");

	_cleanup_store_ struct store *s = NULL;
	_cleanup_free_ char *error = NULL;
	if (store_open_state(&s, &error) < 0)
		return log_error("%s", error), EXIT_FAIL;
	int failed = 0;
	for (int i = optind; i < argc; i++) {
		int64_t id;
		_cleanup_free_ char *why = NULL;
		if (store_import_json(s, argv[i], &id, &why) < 0) {
			log_error("%s", why);
			failed++;
			continue;
		}
		printf("%s: stored as result %" PRId64 "\n", argv[i], id);
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_import_result = {
	.name = "import-result",
	.run = run,
	.args = "FILE...",
	.summary = "Add result files written by `ubtune export` (or bench --json) to the store",
	.help = "Each FILE must hold one result record (schema ubtune.result/1). A run already in\n"
		"the store (same run_id) is not added twice.\n\n"
		"Options:\n"
		"  -h, --help       show this help\n",
	.options = options,
};
