/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "analysis/report-html.h"
#include "command.h"
#include "lib/output-file.h"
#include "lib/term.h"
#include "result-args.h"

struct args {
	const char *html;
};

static const struct cmd_option options[] = {
	{ .name = "html", .type = OPT_STRING, .arg = "FILE", OPT_AT(html), .complete = COMPLETE_FILE,
	  .help = "write the page to FILE (\"-\": standard output; default: standard output when it is not "
		  "a terminal, else report-ID.html, said on standard error)" },
	OPT_END,
};

/* Without --html: standard output, unless it is a terminal (HTML is not
 * for reading there): then report-ID.html (or report.html) in the current
 * directory. */
static char *default_output(const struct cmd_ctx *ctx)
{
	if (!term_is_tty(stdout))
		return NULL;
	const char *arg = ctx->args[0];
	bool plain = ctx->nargs == 1 && arg[strspn(arg, "0123456789")] == '\0';
	return plain ? xasprintf("report-%s.html", arg) : xstrdup("report.html");
}

/* The page in memory first: a record it cannot draw fails before anything
 * is written, and the file gets it whole (lib/output-file.h). */
static int write_report(const char *path, const struct compare_input *in, size_t n)
{
	_cleanup_free_ char *error = NULL, *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return log_error_errno(-errno, "Failed to make the report: %m");
	int r = report_html(in, n, mem, &error);
	if (fclose(mem) != 0 && r >= 0)
		r = -errno;
	if (r < 0)
		return error ? log_error_errno(r, "Cannot make the report: %s", error)
			     : log_error_errno(r, "Failed to make the report: %m");
	if (!path || streq(path, "-")) {
		fwrite(text, 1, len, stdout);
		return command_flush("the report") < 0 ? EXIT_FAIL : EXIT_OK;
	}
	r = output_file_write(path, text, len, &error);
	if (r < 0)
		return command_output_failed(r, error);
	log_info("report written to %s", path);
	return EXIT_OK;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	struct loaded_inputs li;
	int code = command_result_args(&cmd_report, ctx->args, ctx->nargs, &li);
	_cleanup_free_ char *html = NULL;
	if (code == EXIT_OK)
		html = a->html ? xstrdup(a->html) : default_output(ctx);
	if (code == EXIT_OK)
		code = write_report(html, li.in, li.n);
	loaded_inputs_free(&li);
	return code;
}

const struct command cmd_report = {
	.name = "report",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "RESULT...", .min = 1, .complete = COMPLETE_RESULT,
		      .missing = "which result? (an id, 'last', a result file or UnixBench output)" },
	.summary = "Write one self-contained HTML page for a result, or for several side by side",
	.description = "RESULT is a result id of the store (12, last, last~1), a result file, or UnixBench\n"
		       "output of any kind, imported on the fly. With several, the page compares them.",
	.notes = "The page holds the scores, the environment (the facts that differ first), the probe's\n"
		 "findings and the events of the run, every test with its dispersion, charts of the\n"
		 "indexes and the clock, temperature and alarms sampled during the run, all as inline\n"
		 "SVG: it opens offline and prints as it shows.",
};
