/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "bench/result.h"
#include "command.h"
#include "result-args.h"

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int run(int argc, char **argv)
{
	bool json = false;
	int opt, code;
	while ((opt = command_getopt(&cmd_show, argc, argv, "h", &code)) != -1) {
		if (opt != 'j')
			return code;
		json = true;
	}
	_cleanup_json_ json_object *rec = NULL;
	code = command_result_arg(&cmd_show, argc, argv, &rec);
	if (code != EXIT_OK)
		return code;
	if (json)
		printf("%s\n", jdump(rec, true));
	else
		result_render(rec, stdout);
	return command_flush("the result") < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_show = {
	.name = "show",
	.run_argv = run,
	.args = "ID [--json]",
	.summary = "Print a stored result as the bench report, or as JSON",
	.help = "ID is a number from `ubtune history`, 'last', or 'last~N' (N results before the last).\n\n"
		"Options:\n"
		"  --json           print the result record (schema ubtune.result/1)\n"
		"  -h, --help       show this help\n",
	.longopts = options,
};
