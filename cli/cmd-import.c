/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "analysis/fleet.h"
#include "analysis/load.h"
#include "bench/ubimport.h"
#include "unixbench/catalogue.h"
#include "command.h"
#include "result-args.h"
#include "stdin-input.h"
#include "cli/store-setup.h"
#include "lib/result-stability.h"
#include "lib/store.h"

#define PROBLEMS_SHOWN 10

struct args {
	const char *copies_list, *round;
	unsigned copies[UB_RUNS_MAX];
	unsigned ncopies;
	bool json, no_store;
};

static const struct cmd_option options[] = {
	{ .name = "copies", .type = OPT_STRING, .arg = "LIST", OPT_AT(copies_list),
	  .help = "copy counts for tables that do not say how many copies ran (nor the text around them), in "
		  "the order of the tables (1, or 1,8); without it such runs are stored with copies unknown" },
	{ .name = "round", .type = OPT_STRING, .arg = "ROUND", OPT_AT(round), .complete = COMPLETE_ROUND,
	  .help = "the round of a fleet these results belong to (`ubtune fleet --round`), for those that do not "
		  "carry one already" },
	OPT_JSON("print the result records (a JSON list)"),
	OPT_NO_STORE("do not add them to the results store; say what was read"),
	OPT_END,
};

/* copy counts for tables that do not say: "1" or "1,8" ('all' means nothing here) */
static int parse_copies(struct args *a)
{
	if (a->copies_list && ub_parse_copies(a->copies_list, ",", 0, a->copies, &a->ncopies, NULL) < 0)
		return command_usage_error(&cmd_import, "--copies takes up to %d numbers from 1 to %d, separated by "
							"commas, not '%s'",
					   UB_RUNS_MAX, UB_COPIES_MAX, a->copies_list);
	return EXIT_OK;
}

/* What the parser repaired and what it could not read, as warnings. */
static void tell_problems(const char *name, const struct ub_doc *doc)
{
	_cleanup_free_ char *repairs = ub_import_repairs(doc);
	if (repairs)
		log_info("%s: repaired %s", name, repairs);
	for (size_t i = 0; i < doc->nproblems && i < PROBLEMS_SHOWN; i++) {
		_cleanup_free_ char *p = ub_import_problem_text(&doc->problems[i]);
		log_warning("%s: skipped %s", name, p);
	}
	size_t more = doc->nproblems > PROBLEMS_SHOWN ? doc->nproblems - PROBLEMS_SHOWN : 0;
	more += doc->problems_dropped;
	if (more)
		log_warning("%s: %zu more lines could not be read", name, more);
}

/* "UnixBench 6.0.0, 1 and 2 copies, 12 tests, score 1084.8 / 1109.4" */
static char *describe(const struct result_record *r)
{
	struct buf b = {0};
	size_t n = r->runs.n, tests = 0;
	int64_t last = 0;
	buf_printf(&b, "UnixBench %s", r->suite.version ?: "(version unknown)");
	for (size_t i = 0; i < n; i++) {
		const struct result_run *run = &r->runs.v[i];
		const char *sep = i == 0 ? ", " : i + 1 == n ? " and " : ", ";
		if (run->copies.known)
			buf_printf(&b, "%s%" PRId64, sep, last = run->copies.v);
		else
			buf_printf(&b, "%s?", sep);
		if (run->tests.n > tests)
			tests = run->tests.n;
	}
	buf_printf(&b, " cop%s, %zu test%s", n == 1 && last == 1 ? "y" : "ies", tests, tests == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		if (r->runs.v[i].index.score.known)
			buf_printf(&b, "%s%.1f", i ? " / " : ", score ", r->runs.v[i].index.score.v);
	return buf_steal(&b);
}

/* Adds between two commits: one sync for a fleet's results, and a crash
 * loses at most these. */
#define BATCH 256

/* The store, opened on first use. */
struct sink {
	const struct args *a;
	struct store *store;
	size_t pending; /* adds since the last commit */
	json_object *out; /* --json: every record */
};

static int open_store(struct sink *k)
{
	if (k->store)
		return 0;
	if (cli_store_open(&k->store, true) < 0)
		return -EIO;
	int r = store_begin(k->store);
	return r < 0 ? log_error_errno(r, "Failed to write to the results store: %m") : 0;
}

static int commit(struct sink *k, bool last)
{
	if (!k->store || (!last && k->pending < BATCH))
		return 0;
	k->pending = 0;
	int r = store_commit(k->store);
	if (r < 0)
		return log_error_errno(r, "Failed to write to the results store: %m");
	return last ? 0 : store_begin(k->store);
}

/* What was stored: the output, or with --json (where the records are the
 * output) a message on stderr. */
static void tell(const struct sink *k, const char *fmt, ...) _printf_(2, 3);
static void tell(const struct sink *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (k->a->json)
		log_info("%s", msg);
	else
		printf("%s\n", msg);
}

/* what: the UnixBench run in a few words, or NULL (a result file) */
static int store_record(struct sink *k, const char *name, json_object *rec, bool describe_it)
{
	_cleanup_free_ char *why = NULL, *what = NULL;
	struct result_record r;
	if (k->a->round && !jpath(rec, "round"))
		jset_str(rec, "round", k->a->round);
	if (result_check(rec, &why) < 0 || result_decode(rec, &r, &why) < 0) {
		log_error("%s: cannot keep this run: %s", name, why);
		return -EIO;
	}
	what = describe_it ? describe(&r) : NULL;
	result_record_free(&r);
	(void)result_verdict_set(rec);
	if (k->a->json)
		json_object_array_add(k->out, json_object_get(rec));
	if (k->a->no_store) {
		tell(k, "%s: read %s (not stored)", name, what ?: "a result");
		return 0;
	}
	if (open_store(k) < 0)
		return -EIO;
	int64_t id;
	int ret = fleet_store_add(k->store, rec, &id);
	if (ret == -EEXIST)
		tell(k, "%s: already stored as result %" PRId64 "%s%s%s", name, id, what ? " (" : "", what ?: "",
		     what ? ")" : "");
	else if (ret < 0)
		return log_error_errno(ret, "Failed to store %s: %m", name);
	else
		tell(k, "%s: stored as result %" PRId64 "%s%s%s", name, id, what ? " (" : "", what ?: "", what ? ")" : "");
	k->pending += ret == 0;
	return commit(k, false);
}

/* The input in messages. */
static const char *input_name(const char *path)
{
	return streq(path, "-") || streq(path, "/dev/stdin") ? "standard input" : path;
}

static int import_unixbench(struct sink *k, const char *path)
{
	const char *name = input_name(path);
	struct ub_import_opts o = { .source = path, .copies = k->a->copies, .ncopies = k->a->ncopies };
	json_object *recs = NULL;
	struct ub_doc doc = {0};
	_cleanup_free_ char *error = NULL;
	int r = ub_import_file(path, &o, &recs, &doc, &error);
	if (r < 0) {
		log_error("%s", error);
		return r;
	}
	tell_problems(name, &doc);
	for (size_t i = 0; i < jarr_len(recs); i++) {
		json_object *rec = json_object_array_get_idx(recs, i);
		if (!ub_import_copies_known(rec))
			log_warning("%s: a table does not say how many copies ran (no 'running N parallel copies' line, "
				    "no './Run -c N' or 'N copies' near it): stored with copies unknown; --copies N "
				    "(or --copies 1,8 for several tables) gives them",
				    name);
		if (store_record(k, name, rec, true) < 0)
			r = -EIO;
	}
	json_object_put(recs);
	ub_doc_free(&doc);
	return r;
}

/* A result file written by `ubtune export` or `bench --json`. */
static int import_result_file(struct sink *k, const char *path)
{
	struct loaded_list list = {0};
	_cleanup_free_ char *error = NULL;
	int r = load_results(path, NULL, &list, &error);
	if (r < 0)
		log_error("%s", error);
	for (size_t i = 0; r == 0 && i < list.n; i++)
		r = store_record(k, input_name(path), list.v[i].rec, k->a->json || k->a->no_store);
	loaded_list_free(&list);
	return r;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	struct args *a = opts;
	a->json = ctx->json;
	a->no_store = ctx->no_store;
	int code = parse_copies(a);
	if (code != EXIT_OK)
		return code;
	if (a->round && !round_valid(a->round))
		return command_usage_error(&cmd_import, "'%s' is not a round id (1 to %d letters, digits and . _ : + -)",
					   a->round, ROUND_MAX);
	struct sink k = { .a = a, .out = a->json ? json_object_new_array() : NULL };
	for (size_t i = 0; i < ctx->nargs; i++) {
		const char *path;
		int r = stdin_input(ctx->args[i], &path);
		if (r == 0) {
			bool json = !streq(path, "-") && load_looks_like_json(path);
			r = json ? import_result_file(&k, path) : import_unixbench(&k, path);
		}
		/* a failure outweighs a file that is not UnixBench output */
		if (r < 0 && code != EXIT_FAIL)
			code = result_load_exit(r);
	}
	if (a->json)
		printf("%s\n", jdump(k.out, true));
	json_object_put(k.out);
	if (commit(&k, true) < 0)
		code = EXIT_FAIL;
	if (k.store)
		store_close(k.store);
	return command_flush("the output") < 0 ? EXIT_FAIL : code;
}

const struct command cmd_import = {
	.name = "import",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "FILE|-...", .min = 1, .complete = COMPLETE_FILE,
		      .missing = "which file? (a UnixBench report, log or .html, or - for standard input)" },
	.summary = "Store UnixBench output (report, Run's output, .log, .html, pasted text) as results",
	.description = "FILE is UnixBench output as people have it: the text report Run writes to results/,\n"
		       "Run's output (nohup ./Run > run.log), the .log, .html or .csv of results/, or text\n"
		       "pasted from a web page or a mail (non-breaking spaces, CR LF, typographic dashes,\n"
		       "lines glued together or wrapped, '>' quotes, index tables alone). '-' reads standard\n"
		       "input, of any of these kinds or a result file. Each run of Run in the file becomes one\n"
		       "result, marked imported, with the header as a partial environment record; a report's\n"
		       ".log beside it adds every pass, so its changes can be tested for significance. A result\n"
		       "file of `ubtune export` is stored as it is. A run already stored is not added twice.",
	.notes = "Lines that look like a test but cannot be read are listed and left out; the rest\n"
		 "is imported. A file that is not UnixBench output or a result file is an input\n"
		 "error (status 2); one that cannot be read or stored a failure (status 1).",
};
