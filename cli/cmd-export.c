/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "analysis/export.h"
#include "analysis/fleet.h"
#include "command.h"
#include "lib/output-file.h"
#include "lib/result-stability.h"
#include "lib/store.h"
#include "result-args.h"

struct args {
	const char *output, *format;
};

static const char *const format_words[] = { "json", "openmetrics", "samples", NULL };

static const struct cmd_option options[] = {
	{ .name = "format", .type = OPT_CHOICE, .choices = format_words, OPT_AT(format),
	  .help = "json: the result record, as `ubtune import` reads it back (the default; exactly one ID); "
		  "openmetrics: OpenMetrics text for Prometheus, a gauge per index test and the score, labelled "
		  "by host and copies (node_exporter's textfile collector reads FILE.prom); samples: one JSON "
		  "sample a line (metric, value, unit, labels, timestamp), as PerfKitBenchmarker writes them. "
		  "openmetrics and samples take any number of IDs; without one, the latest result of each host" },
	{ .name = "output", .short_name = 'o', .type = OPT_STRING, .arg = "FILE", OPT_AT(output),
	  .complete = COMPLETE_FILE,
	  .help = "write to FILE (default, and \"-\": standard output), through a temporary file renamed to "
		  "FILE: a reader of FILE never sees half of it" },
	OPT_END,
};

/* text to path, or to standard output without one */
static int write_out(const char *path, const char *text, size_t len, const char *what)
{
	if (!path) {
		fwrite(text, 1, len, stdout);
		return command_flush(what) < 0 ? EXIT_FAIL : EXIT_OK;
	}
	_cleanup_free_ char *error = NULL;
	int r = output_file_write(path, text, len, &error);
	return r < 0 ? command_output_failed(r, error) : EXIT_OK;
}

/* The records the IDs name; without any, the latest of each host. */
static int load_records(struct store *s, char *const *ids, size_t nids, json_object ***recs, size_t *n)
{
	_cleanup_free_ char *error = NULL;
	_cleanup_free_ int64_t *latest = NULL;
	if (!nids) {
		_cleanup_json_ json_object *list = NULL;
		int r = store_list(s, &list);
		if (r < 0)
			return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
		fleet_latest(list, false, &latest, &nids);
	}
	*recs = xcalloc(nids ? nids : 1, sizeof(**recs));
	for (*n = 0; *n < nids; (*n)++) {
		int64_t id;
		_cleanup_free_ char *ref = latest ? xasprintf("%" PRId64, latest[*n]) : xstrdup(ids[*n]);
		if (store_lookup(s, ref, &id, &(*recs)[*n], &error) < 0)
			return log_error("%s", error), EXIT_FAIL;
	}
	return EXIT_OK;
}

/* OpenMetrics or samples of the results, to FILE by rename (a reader of
 * FILE, as node_exporter's textfile collector, never sees half of it). */
static int write_metrics(struct store *s, const char *format, const char *output, char *const *ids, size_t nids)
{
	json_object **recs = NULL;
	size_t n = 0;
	int code = load_records(s, ids, nids, &recs, &n);
	struct buf b = {0};
	_cleanup_free_ char *error = NULL;
	if (code == EXIT_OK && streq(format, "openmetrics") && export_openmetrics(recs, n, &b, &error) < 0) {
		log_error("%s", error);
		code = EXIT_USAGE;
	} else if (code == EXIT_OK && streq(format, "samples") && export_samples(recs, n, &b, &error) < 0) {
		log_error("%s", error);
		code = EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++)
		json_object_put(recs[i]);
	free(recs);
	if (code == EXIT_OK)
		code = write_out(output, b.s ? b.s : "", b.len, "the metrics");
	buf_free(&b);
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	const char *output = streq_ptr(a->output, "-") ? NULL : a->output;
	const char *format = a->format ? a->format : "json";
	if (!streq(format, "json"))
		return write_metrics(ctx->store, format, output, ctx->args, ctx->nargs);
	if (ctx->nargs == 0)
		return command_usage_error(&cmd_export, "which result? Give an id from `ubtune history`, or 'last'");
	if (ctx->nargs > 1)
		return command_usage_error(&cmd_export, "--format json writes one result, not %zu", ctx->nargs);
	_cleanup_json_ json_object *rec = NULL;
	int code = command_result_arg(ctx, &rec);
	if (code != EXIT_OK)
		return code;
	(void)result_verdict_set(rec);
	_cleanup_free_ char *text = xasprintf("%s\n", jdump(rec, true));
	return write_out(output, text, strlen(text), "the result");
}

const struct command cmd_export = {
	.name = "export",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "[ID...]", .complete = COMPLETE_RESULT_ID },
	.flags = CMD_STORE,
	.summary = "Write stored results as JSON, OpenMetrics or samples, to share them or feed fleet tools",
	.description = RESULT_ID_HELP,
	.notes = "docs/exports.md describes both metric formats.",
};
