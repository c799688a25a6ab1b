/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>

#include "analysis/report-html.h"
#include "command.h"
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

static int write_report(const char *path, const struct compare_input *in, size_t n)
{
	FILE *f = stdout;
	_cleanup_fclose_ FILE *file = NULL;
	if (path && !streq(path, "-")) {
		file = fopen(path, "we");
		if (!file)
			return log_error_errno(-errno, "Failed to create %s: %m", path);
		f = file;
	}
	_cleanup_free_ char *error = NULL;
	if (report_html(in, n, f, &error) < 0)
		return log_error_errno(-EBADMSG, "Cannot make the report: %s", error);
	if (fflush(f) != 0 || ferror(f))
		return log_error_errno(-EIO, "Failed to write %s: %m", path && !streq(path, "-") ? path : "the report");
	if (file)
		log_info("report written to %s", path);
	return 0;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	struct loaded_inputs li;
	int code = command_result_args(&cmd_report, ctx->args, ctx->nargs, &li);
	_cleanup_free_ char *html = NULL;
	if (code == EXIT_OK)
		html = a->html ? xstrdup(a->html) : default_output(ctx);
	if (code == EXIT_OK && write_report(html, li.in, li.n) < 0)
		code = EXIT_FAIL;
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
