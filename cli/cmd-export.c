/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>

#include "command.h"
#include "result-args.h"

struct args {
	const char *output;
};

static const struct cmd_option options[] = {
	{ .name = "output", .short_name = 'o', .type = OPT_STRING, .arg = "FILE", OPT_AT(output),
	  .complete = COMPLETE_FILE, .help = "write to FILE (default, and \"-\": standard output)" },
	OPT_END,
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

static int run(struct cmd_ctx *ctx, void *opts)
{
	const char *output = ((struct args *)opts)->output;
	_cleanup_json_ json_object *rec = NULL;
	int code = command_result_arg(ctx, &rec);
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
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = RESULT_ID_OPERAND,
	.flags = CMD_STORE,
	.summary = "Write a stored result as JSON, to share it or import it elsewhere",
	.description = RESULT_ID_HELP,
};
