/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>

#include "command.h"
#include "result-args.h"

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int write_json(const char *path, json_object *rec)
{
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644) : dup(STDOUT_FILENO);
	if (fd < 0)
		return -errno;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	bool ok = fprintf(f, "%s\n", jdump(rec, true)) >= 0;
	ok = fflush(f) == 0 && ok;
	int e = errno;
	ok = fclose(f) == 0 && ok;
	return ok ? 0 : -(e ? e : EIO);
}

static int run(int argc, char **argv)
{
	const char *output = NULL;
	int opt, code;
	while ((opt = command_getopt(&cmd_export, argc, argv, "ho:", &code)) != -1) {
		if (opt != 'o')
			return code;
		output = optarg;
	}
	_cleanup_json_ json_object *rec = NULL;
	code = command_result_arg(&cmd_export, argc, argv, &rec);
	if (code != EXIT_OK)
		return code;
	if (streq_ptr(output, "-"))
		output = NULL;
	int r = write_json(output, rec);
	if (r < 0)
		return log_error_errno(r, "Failed to write %s: %m", output ? output : "the result"), EXIT_FAIL;
	return EXIT_OK;
}

const struct command cmd_export = {
	.name = "export",
	.run_argv = run,
	.args = "ID [-o FILE]",
	.summary = "Write a stored result as JSON, to share it or import it elsewhere",
	.help = "ID is a number from `ubtune history`, 'last', or 'last~N'.\n\n"
		"Options:\n"
		"  -o, --output FILE  write to FILE (default, and \"-\": standard output)\n"
		"  -h, --help         show this help\n",
	.longopts = options,
};
