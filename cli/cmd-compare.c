/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "analysis/chart.h"
#include "analysis/compare.h"
#include "unixbench/catalogue.h"
#include "command.h"
#include "result-args.h"

static const struct option options[] = {
	{ "markdown", no_argument, NULL, 'm' },
	{ "csv", no_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "chart", required_argument, NULL, 'C' },
	{ "relative", no_argument, NULL, 'r' },
	{ "copies", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct args {
	enum compare_format format;
	int formats;
	const char *chart;
	bool relative;
	unsigned copies;
};

static int parse_args(int argc, char **argv, struct args *a, int *code)
{
	int opt;
	uint64_t u;
	while ((opt = command_getopt(&cmd_compare, argc, argv, "+h", code)) != -1) {
		switch (opt) {
		case 'm':
			a->format = COMPARE_MARKDOWN, a->formats++;
			break;
		case 'c':
			a->format = COMPARE_CSV, a->formats++;
			break;
		case 'j':
			a->format = COMPARE_JSON, a->formats++;
			break;
		case 'C':
			a->chart = optarg;
			break;
		case 'r':
			a->relative = true;
			break;
		case 'n':
			if (parse_u64(optarg, &u) < 0 || u < 1 || u > UB_COPIES_MAX)
				return *code = command_usage_error(&cmd_compare, "--copies takes a number from 1 to %d, not '%s'",
								   UB_COPIES_MAX, optarg);
			a->copies = (unsigned)u;
			break;
		default:
			return -1;
		}
	}
	if (a->formats > 1)
		return *code = command_usage_error(&cmd_compare, "give one of --markdown, --csv and --json");
	if (a->relative && !a->chart)
		return *code = command_usage_error(&cmd_compare, "--relative is for --chart FILE.svg");
	return 0;
}

static int write_chart(json_object *cmp, const struct args *a)
{
	_cleanup_fclose_ FILE *f = fopen(a->chart, "we");
	if (!f)
		return log_error_errno(-errno, "Failed to create %s: %m", a->chart);
	chart_compare(cmp, a->relative, CHART_FILE, f);
	if (fflush(f) != 0 || ferror(f))
		return log_error_errno(-EIO, "Failed to write %s: %m", a->chart);
	return 0;
}

static int compare_and_print(const struct loaded_inputs *li, const struct args *a)
{
	struct compare_opts o = { .copies = a->copies };
	_cleanup_json_ json_object *cmp = compare_build(li->in, li->n, &o);
	int code = EXIT_OK;
	if (a->chart && write_chart(cmp, a) < 0)
		code = EXIT_FAIL;
	compare_render(cmp, a->format, stdout);
	if (command_flush("the comparison") < 0)
		code = EXIT_FAIL;
	return code;
}

static int run(int argc, char **argv)
{
	struct args a = { .format = COMPARE_TEXT };
	int code = EXIT_OK;
	if (parse_args(argc, argv, &a, &code) < 0 || code != EXIT_OK)
		return code;
	if (argc - optind < 1)
		return command_usage_error(&cmd_compare, "which results? give two or more");

	struct loaded_inputs li;
	code = command_result_args(&cmd_compare, argv + optind, (size_t)(argc - optind), &li);
	if (code == EXIT_OK && li.n < 2)
		code = command_usage_error(&cmd_compare, "one result is nothing to compare: give two or more (ids, "
							 "result files or UnixBench output)");
	if (code == EXIT_OK)
		code = compare_and_print(&li, &a);
	loaded_inputs_free(&li);
	return code;
}

const struct command cmd_compare = {
	.name = "compare",
	.run = run,
	.args = "[--markdown|--csv|--json] [--chart FILE.svg [--relative]] [--copies N] RESULT RESULT...",
	.summary = "Put results side by side: per-test changes, their significance, what differs",
	.help = "RESULT is a result id of the store (12, last, last~1), a result file (`ubtune export`,\n"
		"`bench --json`), or UnixBench output of any kind (report, Run's output, .log, .html,\n"
		".csv, pasted text), imported on the fly; a file with several runs adds each of them.\n\n"
		"Options:\n"
		"  --markdown         a Markdown table, ready for an issue or a wiki\n"
		"  --csv              one row per test and result (RFC 4180)\n"
		"  --json             the comparison record (schema ubtune.compare/1)\n"
		"  --chart FILE.svg   also draw a grouped bar chart of every test's index\n"
		"  --relative         chart each test as a percentage of the first result\n"
		"  --copies N         compare only the runs with N copies\n"
		"  -h, --help         show this help\n\n"
		"Runs face each other by copy count. A change is against the first result; where both\n"
		"sides kept two or more passes, Welch's t-test on the pass rates says whether it stands\n"
		"out of the noise (p < 0.05), and \"~\" marks one that does not. Imported UnixBench\n"
		"reports have no per-pass values unless their .log lies beside them. The biggest\n"
		"changes are marked, and the environment facts that differ are listed below the table.\n",
	.options = options,
};
