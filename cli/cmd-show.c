/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "bench/result.h"
#include "lib/result-stability.h"
#include "command.h"
#include "result-args.h"

static const struct cmd_option options[] = {
	OPT_JSON("print the result record (schema ubtune.result/1)"),
	OPT_END,
};

static int run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	_cleanup_json_ json_object *rec = NULL;
	int code = command_result_arg(ctx, &rec);
	if (code != EXIT_OK)
		return code;
	_cleanup_free_ char *error = NULL;
	if (ctx->json) {
		/* the verdict as it is judged now, also for a record stored before */
		(void)result_verdict_set(rec);
		printf("%s\n", jdump(rec, true));
	} else {
		/* the report shows what a terminal would act on in the record's strings, visible */
		json_escape_controls(rec);
		if (result_render(rec, stdout, &error) < 0) {
			log_error("%s", error);
			return EXIT_FAIL;
		}
	}
	return command_flush("the result") < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_show = {
	.name = "show",
	.run = run,
	.options = options,
	.operands = RESULT_ID_OPERAND,
	.flags = CMD_STORE,
	.summary = "Print a stored result as the bench report, or as JSON",
	.description = RESULT_ID_HELP,
};
