/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "analysis/chart.h"
#include "analysis/compare.h"
#include "bench/report-expect.h"
#include "bench/stability.h"
#include "unixbench/catalogue.h"
#include "command.h"
#include "lib/output-file.h"
#include "result-args.h"

struct args {
	int format; /* enum compare_format; --json: ctx->json */
	const char *chart;
	bool relative;
	unsigned copies;
	bool expected;
};

static const struct cmd_option options[] = {
	{ .name = "markdown", .type = OPT_SET, .set = COMPARE_MARKDOWN, OPT_AT(format), .group = "format",
	  .help = "a Markdown table, ready for an issue or a wiki" },
	{ .name = "csv", .type = OPT_SET, .set = COMPARE_CSV, OPT_AT(format), .group = "format",
	  .help = "one row per test and result (RFC 4180)" },
	OPT_JSON("the comparison record (schema ubtune.compare/1)", .group = "format"),
	{ .name = "chart", .type = OPT_STRING, .arg = "FILE.svg", OPT_AT(chart), .complete = COMPLETE_FILE,
	  .help = "also draw a grouped bar chart of every test's index" },
	{ .name = "relative", .type = OPT_FLAG, OPT_AT(relative), .needs = "chart",
	  .help = "chart each test as a percentage of the first result" },
	{ .name = "copies", .type = OPT_UINT, .arg = "N", OPT_AT(copies), .min = 1, .max = UB_COPIES_MAX,
	  .help = "compare only the runs with N copies" },
	{ .name = "expected", .type = OPT_FLAG, OPT_AT(expected),
	  .help = "also each run's score against what published runs of its CPU reach (\"of expected\"; "
		  "\"expected\" in the JSON; docs/expect.md)" },
	OPT_END,
};

struct chart {
	json_object *cmp;
	bool relative;
};

static void render_chart(FILE *out, const void *data)
{
	const struct chart *c = data;
	chart_compare(c->cmp, c->relative, CHART_FILE, out);
}

static int write_chart(json_object *cmp, const struct args *a)
{
	_cleanup_free_ char *error = NULL;
	int r = output_file_render(a->chart, render_chart, &(struct chart){ cmp, a->relative }, &error);
	return r < 0 ? command_output_failed(r, error) : EXIT_OK;
}

/* Each result's stability verdict, labelled as the table labels them. */
static void print_verdicts(const struct loaded_inputs *li)
{
	fputc('\n', stdout);
	for (size_t i = 0; i < li->n; i++) {
		_cleanup_free_ char *prefix =
			xasprintf("%c (%s): ", (int)('A' + (i < 26 ? i : 25)), li->in[i].source ? li->in[i].source : "?");
		stability_render(li->in[i].rec, prefix, stdout);
	}
}

/* Each run's score against its expectation, the results labelled as the table labels them. */
static json_object *of_expected(const struct loaded_inputs *li, json_object *cmp)
{
	struct expect_ref ref;
	_cleanup_free_ char *error = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &error) < 0)
		log_warning("%s; nothing is expected", error);
	_cleanup_free_ json_object **recs = xcalloc(li->n, sizeof(*recs));
	_cleanup_free_ const char **labels = xcalloc(li->n, sizeof(*labels));
	for (size_t i = 0; i < li->n; i++) {
		recs[i] = li->in[i].rec;
		labels[i] = jpath_str(json_object_array_get_idx(jpath(cmp, "results"), i), "label") ?: "?";
	}
	json_object *rows = report_expect_rows_json(&ref, recs, labels, li->n);
	expect_ref_free(&ref);
	return rows;
}

static int compare_and_print(const struct loaded_inputs *li, const struct args *a, bool json)
{
	int format = json ? COMPARE_JSON : a->format;
	struct compare_opts o = { .copies = a->copies };
	/* text, Markdown and CSV show a record's strings as they are: what a terminal acts on, visible */
	for (size_t i = 0; format != COMPARE_JSON && i < li->n; i++)
		json_escape_controls(li->in[i].rec);
	_cleanup_json_ json_object *cmp = compare_build(li->in, li->n, &o);
	int code = a->chart ? write_chart(cmp, a) : EXIT_OK;
	_cleanup_json_ json_object *expected = a->expected ? of_expected(li, cmp) : NULL;
	if (expected && format == COMPARE_JSON)
		jset(cmp, "expected", json_object_get(expected));
	compare_render(cmp, format, stdout);
	if (expected && format == COMPARE_TEXT)
		report_expect_rows_render(expected, stdout);
	if (format == COMPARE_TEXT)
		print_verdicts(li);
	if (command_flush("the comparison") < 0)
		code = EXIT_FAIL;
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	struct loaded_inputs li;
	int code = command_result_args(&cmd_compare, ctx->args, ctx->nargs, &li);
	if (code == EXIT_OK && li.n < 2)
		code = command_usage_error(&cmd_compare, "one result is nothing to compare: give two or more (ids, "
							 "result files or UnixBench output)");
	if (code == EXIT_OK)
		code = compare_and_print(&li, a, ctx->json);
	loaded_inputs_free(&li);
	return code;
}

const struct command cmd_compare = {
	.name = "compare",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "RESULT RESULT...", .min = 1, .complete = COMPLETE_RESULT,
		      .missing = "which results? give two or more" },
	.summary = "Put results side by side: per-test changes, their significance, what differs",
	.description = "RESULT is a result id of the store (12, last, last~1), a result file (`ubtune export`,\n"
		       "`bench --json`), or UnixBench output of any kind (report, Run's output, .log, .html,\n"
		       ".csv, pasted text), imported on the fly; a file with several runs adds each of them.",
	.notes = "Runs face each other by copy count. A change is against the first result; where both\n"
		 "sides kept two or more passes, Welch's t-test on the pass rates says whether it stands\n"
		 "out of the noise (p < 0.05), and \"~\" marks one that does not. Imported UnixBench\n"
		 "reports have no per-pass values unless their .log lies beside them. The biggest\n"
		 "changes are marked, and the environment facts that differ are listed below the table.",
};
