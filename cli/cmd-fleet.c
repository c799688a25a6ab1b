/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "analysis/fleet.h"
#include "analysis/load.h"
#include "bench/report-expect.h"
#include "bench/report-expect.h"
#include "command.h"
#include "lib/output-file.h"
#include "lib/paths.h"
#include "lib/result-summary.h"
#include "lib/store.h"
#include "result-args.h"
#include "stdin-input.h"

struct args {
	const char *html, *round, *since;
	bool expected;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the fleet record (schema ubtune.fleet/1) instead of text"),
	{ .name = "html", .type = OPT_STRING, .arg = "FILE", OPT_AT(html), .complete = COMPLETE_FILE,
	  .help = "write a self-contained HTML page with a strip chart per test" },
	{ .name = "round", .type = OPT_STRING, .arg = "ROUND", OPT_AT(round), .complete = COMPLETE_ROUND,
	  .help = "show this round (`bench --round`, the playbook's ubtune_round) instead of the latest" },
	{ .name = "since", .type = OPT_STRING, .arg = "ROUND", OPT_AT(since), .complete = COMPLETE_ROUND,
	  .help = "also show, per host, what moved since that earlier round: each test's and the score's "
		  "change and whether it stands out of the runs' own spread" },
	{ .name = "expected", .type = OPT_FLAG, OPT_AT(expected),
	  .help = "also each host's score against what published runs of its CPU reach (\"of expected\"; "
		  "\"expected\" in the JSON; docs/expect.md)" },
	OPT_END,
};

/* The inputs of a view: digests, and where their records are. */
struct inputs {
	struct fleet_input *v;
	size_t n;
	struct fleet_choice choice;
	struct loaded_list list; /* the records given on the command line */
	struct store *store;     /* else: in the store */
	struct fleet_pool *pool; /* the strings their digests share */
};

static void inputs_free(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		fleet_digest_free(&in->v[i].d);
		free((char *)in->v[i].source);
	}
	free(in->v);
	fleet_pool_free(in->pool);
	fleet_choice_free(&in->choice);
	loaded_list_free(&in->list);
	*in = (struct inputs){0};
}

static json_object *record_of(void *ctx, size_t i)
{
	struct inputs *in = ctx;
	json_object *rec = NULL;
	if (!in->store)
		return json_object_get(in->list.v[in->choice.ids[i] - 1].rec);
	return store_get(in->store, in->v[i].id, &rec) == 0 ? rec : NULL;
}

static int list_each(int64_t id, json_object *summary, void *pick)
{
	fleet_pick_add(pick, id, summary);
	return 0;
}

/* The digests of the results chosen from the store: a round's, or the
 * latest of each host; the rates of their passes when they are compared
 * with another round's. */
static int load_stored(struct store *s, enum fleet_pick_mode mode, const char *round, bool passes, struct inputs *in)
{
	struct fleet_pick *pick = fleet_pick_new();
	_cleanup_free_ char *error = NULL;
	int r = store_each(s, list_each, pick);
	if (r < 0) {
		fleet_pick_free(pick);
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
	}
	r = fleet_pick_choose(pick, mode, round, &in->choice, &error);
	fleet_pick_free(pick);
	if (r < 0) {
		log_error("%s", error);
		return EXIT_USAGE;
	}
	in->store = s;
	in->pool = fleet_pool_new();
	in->v = xcalloc(in->choice.n + 1, sizeof(*in->v));
	for (; in->n < in->choice.n; in->n++) {
		struct fleet_input *f = &in->v[in->n];
		int64_t id = in->choice.ids[in->n];
		if (fleet_digest_load(s, id, &f->d, in->pool, passes, &error) < 0) {
			log_error("%s", error);
			return EXIT_FAIL;
		}
		*f = (struct fleet_input){ f->d, xasprintf("result %" PRId64, id), id, in->choice.labels[in->n],
					   in->choice.machines[in->n] };
	}
	return EXIT_OK;
}

/* The results named on the command line, all of them, in that order. */
static int load_given(char *const *args, size_t n, struct inputs *in)
{
	static const struct ub_import_opts import = {0};
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *error = NULL;
		const char *name;
		/* "-": standard input takes a result record as a file does */
		if (stdin_input(args[i], &name) < 0)
			return EXIT_FAIL;
		int r = load_results(name, &import, &in->list, &error);
		if (r < 0) {
			log_error("%s", error);
			return result_load_exit(r);
		}
	}
	struct fleet_pick *pick = fleet_pick_new();
	for (size_t i = 0; i < in->list.n; i++) {
		_cleanup_json_ json_object *summary = result_summary(in->list.v[i].rec);
		fleet_pick_add(pick, (int64_t)i + 1, summary);
	}
	_cleanup_free_ char *error = NULL;
	int r = fleet_pick_choose(pick, FLEET_PICK_ALL, NULL, &in->choice, &error);
	fleet_pick_free(pick);
	if (r < 0)
		return log_error("%s", error), EXIT_FAIL;
	/* given: the pick's ids are the places on the command line */
	jset_bool(in->choice.selection, "given", true);
	in->v = xcalloc(in->list.n + 1, sizeof(*in->v));
	for (size_t i = 0; i < in->choice.n; i++) {
		const struct loaded *l = &in->list.v[in->choice.ids[i] - 1];
		struct fleet_input *f = &in->v[in->n];
		if (fleet_digest_make(l->rec, &f->d, &error) < 0)
			return log_error("%s: %s", l->source, error), EXIT_FAIL;
		*f = (struct fleet_input){ f->d, xstrdup(l->source), l->id, in->choice.labels[i], in->choice.machines[i] };
		in->n++;
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

/* Each host's score against its expectation, labelled as the fleet labels the host;
 * the records read one at a time. */
static json_object *of_expected(struct inputs *in)
{
	struct expect_ref ref;
	_cleanup_free_ char *error = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &error) < 0)
		log_warning("%s; nothing is expected", error);
	json_object *rows = json_object_new_array();
	for (size_t i = 0; i < in->n; i++) {
		_cleanup_json_ json_object *rec = record_of(in, i);
		if (!rec)
			continue;
		const char *label = in->v[i].label ?: in->v[i].source;
		_cleanup_json_ json_object *some = report_expect_rows_json(&ref, &rec, &label, 1);
		for (size_t k = 0; k < json_object_array_length(some); k++)
			json_object_array_add(rows, json_object_get(json_object_array_get_idx(some, k)));
	}
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

static int show(struct cmd_ctx *ctx, const struct args *a, struct inputs *now, struct inputs *then)
{
	struct diag_refs refs = {0};
	load_references(&refs);
	struct fleet_opts o = { .refs = &refs, .record = record_of, .ctx = now, .selection = now->choice.selection,
				.round = now->choice.round, .then = then->v, .nthen = then->n, .since = a->since };
	_cleanup_json_ json_object *fleet = fleet_build(now->v, now->n, &o);
	_cleanup_json_ json_object *expected = a->expected ? of_expected(now) : NULL;
	if (expected && ctx->json)
		jset(fleet, "expected", json_object_get(expected));
	int code = EXIT_OK;
	if (a->html)
		code = write_html(a->html, fleet);
	if (ctx->json)
		printf("%s\n", jdump(fleet, true));
	else if (!a->html) {
		/* the text shows the records' strings: what a terminal acts on, visible */
		json_escape_controls(fleet);
		fleet_render(fleet, stdout);
		if (expected) {
			json_escape_controls(expected);
			report_expect_rows_render(expected, stdout);
		}
	}
	diag_refs_free(&refs);
	if (command_flush("the fleet") < 0)
		code = EXIT_FAIL;
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	if (ctx->nargs && (a->round || a->since))
		return command_usage_error(&cmd_fleet, "--%s chooses among the stored results, not among RESULTs given",
					   a->round ? "round" : "since");
	if (a->round && !round_valid(a->round))
		return command_usage_error(&cmd_fleet, "'%s' is not a round id", a->round);
	if (a->since && !round_valid(a->since))
		return command_usage_error(&cmd_fleet, "'%s' is not a round id", a->since);
	struct inputs now = {0}, then = {0};
	int code = ctx->nargs ? load_given(ctx->args, ctx->nargs, &now)
			      : load_stored(ctx->store, a->round ? FLEET_PICK_ROUND : FLEET_PICK_LATEST, a->round, a->since,
					    &now);
	if (code == EXIT_OK && now.n == 0) {
		log_error("no results: run `ubtune bench` on the hosts and `ubtune import` their result files");
		code = EXIT_FAIL;
	}
	if (code == EXIT_OK && a->since && streq_ptr(a->since, now.choice.round)) {
		log_error("--since %s names the round shown: give an earlier one", a->since);
		code = EXIT_USAGE;
	}
	if (code == EXIT_OK && a->since)
		code = load_stored(ctx->store, FLEET_PICK_ROUND, a->since, true, &then);
	if (code == EXIT_OK)
		code = show(ctx, a, &now, &then);
	inputs_free(&now);
	inputs_free(&then);
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
		       "output. Without one: the latest round of the store (the results given a round id by\n"
		       "`bench --round` or the playbook), each host's latest result in it at each copy count;\n"
		       "a store without rounds: the latest result of each host at each copy count.",
	.notes = "A host is a machine: results that record the same machine id are one host, two machines\n"
		 "of one name are two. The view says which results it grouped as one host and why, which\n"
		 "it left out, and which hosts of other rounds are missing from the round shown.\n\n"
		 "Per copy count: a table of hosts x tests (the index, or the result where a host has\n"
		 "no index), the fleet's median and spread per test, and the hosts outside the normal\n"
		 "range: more than 3 robust standard deviations (1.4826 x the median absolute\n"
		 "deviation, of the logarithms: scores vary by a factor) and at least 5 % from the\n"
		 "median. For each of them, the recorded facts that move the test in which it differs\n"
		 "from the other hosts, ranked (governor, kernel, mitigations, workdir medium, memory,\n"
		 "steal time, throttling events, services, build, firmware, ...), and the causes\n"
		 "diagnose finds when it compares the host with the others. Narrower than the table, the\n"
		 "text keeps each host's score, its distance from the median and the tests it is off in,\n"
		 "and leaves out groups of tests, naming them (--width or --json shows them all).\n\n"
		 "--since ROUND: per host, the change of each test and of the score since that round;\n"
		 "a change moved when it is significant (Welch's t-test of the passes kept, p < 0.05;\n"
		 "the score: its 95 % intervals apart) and at least 5 %.",
};
