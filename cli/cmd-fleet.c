/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "analysis/fleet.h"
#include "analysis/load.h"
#include "bench/report-expect.h"
#include "command.h"
#include "lib/output-file.h"
#include "lib/paths.h"
#include "lib/store.h"
#include "result-args.h"
#include "stdin-input.h"

struct args {
	const char *html;
	bool expected;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the fleet record (schema ubtune.fleet/1) instead of text"),
	{ .name = "html", .type = OPT_STRING, .arg = "FILE", OPT_AT(html), .complete = COMPLETE_FILE,
	  .help = "write a self-contained HTML page with a strip chart per test" },
	{ .name = "expected", .type = OPT_FLAG, OPT_AT(expected),
	  .help = "also each host's score against what published runs of its CPU reach (\"of expected\"; "
		  "\"expected\" in the JSON; docs/expect.md)" },
	OPT_END,
};

/* The latest stored result of each host at each copy count. */
static int load_latest(struct store *s, struct loaded_list *list)
{
	_cleanup_json_ json_object *summaries = NULL;
	int r = store_list(s, &summaries);
	if (r < 0)
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
	_cleanup_free_ int64_t *ids = NULL;
	size_t n;
	fleet_latest(summaries, true, &ids, &n);
	for (size_t i = 0; i < n; i++) {
		json_object *rec = NULL;
		r = store_get(s, ids[i], &rec);
		if (r < 0)
			return log_error_errno(r, "Failed to read result %" PRId64 ": %m", ids[i]), EXIT_FAIL;
		list->v = xrealloc(list->v, (list->n + 1) * sizeof(*list->v));
		list->v[list->n++] = (struct loaded){ rec, xasprintf("result %" PRId64, ids[i]), ids[i] };
	}
	return EXIT_OK;
}

static int load_given(char *const *args, size_t n, struct loaded_list *list)
{
	static const struct ub_import_opts import = {0};
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *error = NULL;
		const char *name;
		/* "-": standard input takes a result record as a file does */
		if (stdin_input(args[i], &name) < 0)
			return EXIT_FAIL;
		int r = load_results(name, &import, list, &error);
		if (r < 0) {
			log_error("%s", error);
			return result_load_exit(r);
		}
	}
	return EXIT_OK;
}

static void load_references(struct diag_refs *refs)
{
	_cleanup_free_ char *path = data_path("reference/published-results.json"), *error = NULL;
	if (diag_refs_load(path, refs, &error) < 0) {
		diag_refs_free(refs);
		log_warning("%s; the outliers are compared with their peers only", error);
	}
}

/* Each host's score against its expectation, labelled by its host name (else where it came from). */
static json_object *of_expected(const struct loaded_list *list)
{
	struct expect_ref ref;
	_cleanup_free_ char *error = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &error) < 0)
		log_warning("%s; nothing is expected", error);
	_cleanup_free_ json_object **recs = xcalloc(list->n, sizeof(*recs));
	_cleanup_free_ const char **labels = xcalloc(list->n, sizeof(*labels));
	for (size_t i = 0; i < list->n; i++) {
		recs[i] = list->v[i].rec;
		labels[i] = jpath_str(recs[i], "host") ?: list->v[i].source;
	}
	json_object *rows = report_expect_rows_json(&ref, recs, labels, list->n);
	expect_ref_free(&ref);
	return rows;
}

static void render_html(FILE *out, const void *fleet)
{
	fleet_html((json_object *)fleet, out);
}

static int write_html(const char *path, json_object *fleet)
{
	_cleanup_free_ char *error = NULL;
	int r = output_file_render(path, render_html, fleet, &error);
	if (r < 0)
		return command_output_failed(r, error);
	log_info("fleet page written to %s", path);
	return EXIT_OK;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const char *html = ((const struct args *)opts)->html;
	bool with_expected = ((const struct args *)opts)->expected;
	bool json = ctx->json;
	int code;
	struct loaded_list list = {0};
	code = ctx->nargs ? load_given(ctx->args, ctx->nargs, &list) : load_latest(ctx->store, &list);
	if (code == EXIT_OK && list.n == 0) {
		log_error("no results: run `ubtune bench` on the hosts and `ubtune import` their result files");
		code = EXIT_FAIL;
	}
	if (code != EXIT_OK) {
		loaded_list_free(&list);
		return code;
	}
	struct fleet_input *in = xcalloc(list.n, sizeof(*in));
	for (size_t i = 0; i < list.n; i++) {
		/* the text shows the records' strings: what a terminal acts on, visible */
		if (!json)
			json_escape_controls(list.v[i].rec);
		in[i] = (struct fleet_input){ list.v[i].rec, list.v[i].source, list.v[i].id };
	}
	struct diag_refs refs = {0};
	load_references(&refs);
	_cleanup_json_ json_object *fleet = fleet_build(in, list.n, &refs);
	_cleanup_json_ json_object *expected = with_expected ? of_expected(&list) : NULL;
	if (expected && json)
		jset(fleet, "expected", json_object_get(expected));
	if (html)
		code = write_html(html, fleet);
	if (json)
		printf("%s\n", jdump(fleet, true));
	else if (!html) {
		fleet_render(fleet, stdout);
		if (expected)
			report_expect_rows_render(expected, stdout);
	}
	diag_refs_free(&refs);
	free(in);
	loaded_list_free(&list);
	if (command_flush("the fleet") < 0)
		code = EXIT_FAIL;
	return code;
}

const struct command cmd_fleet = {
	.name = "fleet",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "[RESULT...]", .complete = COMPLETE_RESULT },
	.flags = CMD_STORE,
	.summary = "Results of many hosts side by side: the hosts that are off, and why",
	.description = "RESULT is a result id of the store (12, last, last~1), a result file, or UnixBench\n"
		       "output. Without one: the latest stored result of each host at each copy count.",
	.notes = "Per copy count: a table of hosts x tests (the index, or the result where a host has\n"
		 "no index), the fleet's median and spread per test, and the hosts outside the normal\n"
		 "range: more than 3 robust standard deviations (1.4826 x the median absolute\n"
		 "deviation, of the logarithms: scores vary by a factor) and at least 5 % from the\n"
		 "median. For each of them, the recorded facts in which it differs from the other\n"
		 "hosts, ranked (governor, kernel, mitigations, workdir medium, memory, steal time,\n"
		 "throttling events, services, build, firmware, ...), and the causes diagnose finds\n"
		 "when it compares the host with the others. Narrower than the table, the text keeps each\n"
		 "host's score, its distance from the median and the tests it is off in, and leaves out\n"
		 "groups of tests, naming them (--width or --json shows them all).",
};
