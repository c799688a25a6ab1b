/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "command.h"

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "workdir", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int run(int argc, char **argv)
{
	int opt, code;
	while ((opt = command_getopt(&cmd_gather, argc, argv, "+ho:", &code)) != -1)
		if (opt != 'o' && opt != 'w')
			return code;
	log_error("gather is not available yet");
	return EXIT_FAIL;
}

const struct command cmd_gather = {
	.name = "gather",
	.run = run,
	.args = "[-o FILE.tar.gz] [--workdir DIR]",
	.summary = "Save the files probe reads into an archive that `probe --root` reads back",
	.help = "",
	.options = options,
};
