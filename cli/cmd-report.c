/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>

#include "analysis/report-html.h"
#include "command.h"
#include "result-args.h"

static const struct option options[] = {
	{ "html", required_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

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
	report_html(in, n, f);
	if (fflush(f) != 0 || ferror(f))
		return log_error_errno(-EIO, "Failed to write %s: %m", path && !streq(path, "-") ? path : "the report");
	if (file)
		log_info("report written to %s", path);
	return 0;
}

static int run(int argc, char **argv)
{
	const char *html = NULL;
	int opt, code = EXIT_OK;
	while ((opt = command_getopt(&cmd_report, argc, argv, "+h", &code)) != -1) {
		if (opt != 'H')
			return code;
		html = optarg;
	}
	if (optind >= argc)
		return command_usage_error(&cmd_report, "which result? (an id, 'last', a result file or UnixBench output)");

	struct loaded_inputs li;
	code = command_result_args(&cmd_report, argv + optind, (size_t)(argc - optind), &li);
	if (code == EXIT_OK && write_report(html, li.in, li.n) < 0)
		code = EXIT_FAIL;
	loaded_inputs_free(&li);
	return code;
}

const struct command cmd_report = {
	.name = "report",
	.run_argv = run,
	.args = "[--html FILE] RESULT...",
	.summary = "Write one self-contained HTML page for a result, or for several side by side",
	.help = "RESULT is a result id of the store (12, last, last~1), a result file, or UnixBench\n"
		"output of any kind, imported on the fly. With several, the page compares them.\n\n"
		"Options:\n"
		"  --html FILE      write the page to FILE (default: standard output)\n"
		"  -h, --help       show this help\n\n"
		"The page holds the scores, the environment (the facts that differ first), the probe's\n"
		"findings and the events of the run, every test with its dispersion, charts of the\n"
		"indexes and the clock, temperature and alarms sampled during the run, all as inline\n"
		"SVG: it opens offline and prints as it shows.\n",
	.longopts = options,
};
