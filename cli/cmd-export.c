/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <unistd.h>

#include "analysis/export.h"
#include "analysis/fleet.h"
#include "command.h"
#include "lib/output-file.h"
#include "lib/result-stability.h"
#include "lib/store.h"
#include "result-args.h"

struct args {
	const char *output, *format, *round, *owner;
};

static const char *const format_words[] = { "json", "openmetrics", "samples", NULL };

static const struct cmd_option options[] = {
	{ .name = "format", .type = OPT_CHOICE, .choices = format_words, OPT_AT(format),
	  .help = "json: the result record, as `ubtune import` reads it back (the default; exactly one ID); "
		  "openmetrics: OpenMetrics text for Prometheus, a gauge per index test and the score, labelled "
		  "by host, machine id, copies, round, partial and quick (node_exporter's textfile collector reads "
		  "FILE.prom); samples: one JSON sample a line, exactly as PerfKitBenchmarker's JSON publisher "
		  "writes them (its BigQuery table loads them). openmetrics and samples take any number of IDs; "
		  "without one, the results `ubtune fleet` shows: the latest round, else the latest result of "
		  "each host at each copy count" },
	{ .name = "round", .type = OPT_STRING, .arg = "ROUND", OPT_AT(round), .complete = COMPLETE_ROUND,
	  .help = "openmetrics and samples: the results of this round instead of the latest" },
	{ .name = "owner", .type = OPT_STRING, .arg = "NAME", OPT_AT(owner),
	  .help = "samples: the owner of the samples (PerfKitBenchmarker's --owner; default: the user's name)" },
	{ .name = "output", .short_name = 'o', .type = OPT_STRING, .arg = "FILE", OPT_AT(output),
	  .complete = COMPLETE_FILE,
	  .help = "write to FILE (default, and \"-\": standard output), through a temporary file renamed to "
		  "FILE: a reader of FILE never sees half of it" },
	OPT_END,
};

/* ---- where the text goes: FILE by rename, or standard output, a
 * megabyte at a time (an export of a large fleet is never held whole) ---- */

#define SINK_CHUNK (1u << 20)

struct sink {
	struct output_file file;
	int fd;
	const char *path; /* NULL: standard output */
	int err;
	char *error;
};

static int sink_open(struct sink *k, const char *path)
{
	*k = (struct sink){ .fd = STDOUT_FILENO, .path = path };
	if (!path)
		return EXIT_OK;
	int r = output_file_open(&k->file, path, 0, &k->error);
	if (r < 0)
		return command_output_failed(r, k->error);
	k->fd = k->file.fd;
	return EXIT_OK;
}

/* Writes what b holds when it is a chunk or more (or always: all). */
static void sink_flush(struct sink *k, struct buf *b, bool all)
{
	if ((!all && b->len < SINK_CHUNK) || !b->len)
		return;
	if (!k->err)
		k->err = write_full(k->fd, b->s, b->len);
	b->len = 0;
	b->s[0] = '\0';
}

static int sink_finish(struct sink *k, struct buf *b, int code, const char *what)
{
	sink_flush(k, b, true);
	buf_free(b);
	if (!k->path) {
		if (k->err)
			return log_error_errno(k->err, "Failed to write %s: %m", what), EXIT_FAIL;
		return code;
	}
	if (code != EXIT_OK || k->err) {
		output_file_abort(&k->file);
		if (k->err && code == EXIT_OK)
			return log_error("cannot write %s: %s", k->path, strerror(-k->err)), EXIT_FAIL;
		return code;
	}
	int r = output_file_finish(&k->file, &k->error);
	code = r < 0 ? command_output_failed(r, k->error) : EXIT_OK;
	free(k->error);
	return code;
}

/* ---- which results ---- */

static int list_each(int64_t id, json_object *summary, void *pick)
{
	fleet_pick_add(pick, id, summary);
	return 0;
}

/* The ids the arguments name; without any, those `fleet` shows. */
static int choose_ids(struct store *s, char *const *refs, size_t nrefs, const char *round, int64_t **ids, size_t *n)
{
	_cleanup_free_ char *error = NULL;
	if (nrefs) {
		*ids = xcalloc(nrefs, sizeof(**ids));
		for (*n = 0; *n < nrefs; (*n)++) {
			_cleanup_json_ json_object *rec = NULL;
			if (store_lookup(s, refs[*n], &(*ids)[*n], &rec, &error) < 0)
				return log_error("%s", error), EXIT_FAIL;
		}
		return EXIT_OK;
	}
	struct fleet_pick *pick = fleet_pick_new();
	struct fleet_choice c;
	int r = store_each(s, list_each, pick);
	if (r < 0) {
		fleet_pick_free(pick);
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
	}
	r = fleet_pick_choose(pick, round ? FLEET_PICK_ROUND : FLEET_PICK_LATEST, round, &c, &error);
	fleet_pick_free(pick);
	if (r < 0)
		return log_error("%s", error), EXIT_USAGE;
	*ids = TAKE_PTR(c.ids);
	*n = c.n;
	fleet_choice_free(&c);
	return EXIT_OK;
}

/* OpenMetrics: every digest at once (a family is a pass over them all). */
static int write_openmetrics(struct store *s, const int64_t *ids, size_t n, struct sink *k, struct buf *b)
{
	struct fleet_digest *d = xcalloc(n + 1, sizeof(*d));
	const struct fleet_digest **p = xcalloc(n + 1, sizeof(*p));
	struct fleet_pool *pool = fleet_pool_new();
	_cleanup_free_ char *error = NULL;
	int code = EXIT_OK;
	size_t loaded = 0;
	for (; loaded < n && code == EXIT_OK; loaded++) {
		if (fleet_digest_load(s, ids[loaded], &d[loaded], pool, false, &error) < 0) {
			log_error("%s", error);
			code = EXIT_FAIL;
			break;
		}
		p[loaded] = &d[loaded];
	}
	if (code == EXIT_OK && export_openmetrics(p, n, b, &error) < 0) {
		log_error("%s", error);
		code = EXIT_USAGE;
	}
	for (size_t i = 0; i < loaded; i++)
		fleet_digest_free(&d[i]);
	fleet_pool_free(pool);
	free(d);
	free(p);
	if (code == EXIT_OK)
		sink_flush(k, b, true);
	return code;
}

/* The user's name, as PerfKitBenchmarker's --owner defaults to it. */
static const char *user_name(void)
{
	struct passwd *pw = getpwuid(geteuid());
	return pw && pw->pw_name ? pw->pw_name : "user_unknown";
}

/* Samples: one result at a time. */
static int write_samples(struct store *s, const int64_t *ids, size_t n, const char *owner, struct sink *k,
			 struct buf *b)
{
	struct export_pkb pkb = { .owner = owner ? owner : user_name() };
	for (size_t i = 0; i < n; i++) {
		struct fleet_digest d;
		_cleanup_free_ char *error = NULL;
		if (fleet_digest_load(s, ids[i], &d, NULL, false, &error) < 0)
			return log_error("%s", error), EXIT_FAIL;
		export_samples(&d, &pkb, b);
		fleet_digest_free(&d);
		sink_flush(k, b, false);
	}
	return EXIT_OK;
}

static int write_metrics(struct store *s, const struct args *a, const char *output, char *const *refs, size_t nrefs)
{
	_cleanup_free_ int64_t *ids = NULL;
	size_t n = 0;
	int code = choose_ids(s, refs, nrefs, a->round, &ids, &n);
	if (code != EXIT_OK)
		return code;
	struct sink k;
	struct buf b = {0};
	buf_puts(&b, "");
	code = sink_open(&k, output);
	if (code != EXIT_OK)
		return code;
	code = streq(a->format, "openmetrics") ? write_openmetrics(s, ids, n, &k, &b)
					       : write_samples(s, ids, n, a->owner, &k, &b);
	return sink_finish(&k, &b, code, "the metrics");
}

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

static int run(struct cmd_ctx *ctx, void *opts)
{
	struct args a = *(const struct args *)opts;
	const char *output = streq_ptr(a.output, "-") ? NULL : a.output;
	a.format = a.format ? a.format : "json";
	if (a.round && ctx->nargs)
		return command_usage_error(&cmd_export, "--round chooses the results: give it or IDs, not both");
	if (a.round && !round_valid(a.round))
		return command_usage_error(&cmd_export, "'%s' is not a round id", a.round);
	if (!streq(a.format, "json")) {
		fflush(stdout);
		return write_metrics(ctx->store, &a, output, ctx->args, ctx->nargs);
	}
	if (a.round)
		return command_usage_error(&cmd_export, "--round goes with --format openmetrics or samples");
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
