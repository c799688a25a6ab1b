/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "analysis/diagnose.h"
#include "analysis/load.h"
#include "command.h"
#include "result-args.h"
#include "store-setup.h"
#include "stdin-input.h"
#include "lib/paths.h"
#include "lib/store.h"

/* The person's own results compared with: the most recent ones. */
#define HISTORY_MAX 20

struct args {
	const char *reference;
	const char *cpu;
	const char *model, *catalogue;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the report (schema ubtune.diagnosis/1) as JSON"),
	{ .name = "reference", .type = OPT_STRING, .arg = "FILE", OPT_AT(reference), .complete = COMPLETE_FILE,
	  .help = "published runs to compare with (schema ubtune.reference/1; default: the "
		  "reference/published-results.json installed with ubtune)" },
	{ .name = "model", .type = OPT_STRING, .arg = "FILE", OPT_AT(model), .complete = COMPLETE_FILE,
	  .help = "the expectation model to judge the level against (default: the reference/expect.ini installed "
		  "with ubtune, fitted from the published runs)" },
	{ .name = "catalogue", .type = OPT_STRING, .arg = "FILE", OPT_AT(catalogue), .complete = COMPLETE_FILE,
	  .help = "the CPU catalogue that places the CPU (default: the reference/cpus.ini installed with ubtune)" },
	{ .name = "cpu", .type = OPT_STRING, .arg = "MODEL", OPT_AT(cpu),
	  .help = "the CPU model of a log whose header names none (a pasted index table): \"Phytium "
		  "FT-2000+/64\", \"Xeon E5645\"; it places the CPU for the expected scores and the published "
		  "runs" },
	OPT_END,
};

/* A result whose environment names no CPU model gets the one given. */
static void set_cpu(const struct loaded_list *list, const char *model)
{
	for (size_t i = 0; model && i < list->n; i++) {
		json_object *env = jpath(list->v[i].rec, "environment.before");
		if (!json_object_is_type(env, json_type_object))
			env = jchild(jchild(list->v[i].rec, "environment"), "before");
		if (!jpath_str(env, "cpu.model"))
			jset_str(jchild(env, "cpu"), "model", model);
	}
}

/* The results arg names (a stored id, a result file, UnixBench output with one or several runs of Run). */
static int load_all(const char *arg, struct loaded_list *list)
{
	static const struct ub_import_opts import = {0};
	_cleanup_free_ char *error = NULL;
	int r = load_results(arg, &import, list, &error);
	if (r < 0) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	return EXIT_OK;
}

/* The most recent stored results other than rec, as references. */
static void add_history(struct store *s, json_object *rec, struct diag_refs *refs)
{
	_cleanup_json_ json_object *list = NULL;
	_cleanup_free_ char *error = NULL;
	struct result_record r;
	/* a record that does not decode is refused by the diagnosis itself */
	if (!s || result_decode(rec, &r, &error) < 0)
		return;
	if (store_list(s, &list) < 0) {
		result_record_free(&r);
		return;
	}
	const char *self = r.run_id;
	size_t n = json_object_array_length(list), added = 0;
	for (size_t i = n; i-- > 0 && added < HISTORY_MAX;) {
		json_object *sum = json_object_array_get_idx(list, i);
		int64_t id;
		_cleanup_json_ json_object *old = NULL;
		if (streq_ptr(jpath_str(sum, "run_id"), self) || !jpath_int(sum, "id", &id) || store_get(s, id, &old) < 0)
			continue;
		_cleanup_free_ char *label = xasprintf("result %" PRId64, id);
		diag_refs_add_result(refs, old, label);
		added++;
	}
	result_record_free(&r);
}

static int load_references(const char *given, struct diag_refs *refs)
{
	_cleanup_free_ char *path = given ? xstrdup(given) : data_path("reference/published-results.json");
	_cleanup_free_ char *error = NULL;
	int r = diag_refs_load(path, refs, &error);
	if (r == 0)
		return EXIT_OK;
	diag_refs_free(refs);
	if (given) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	log_warning("%s; comparing with no published run", error);
	return EXIT_OK;
}

/* The CPU catalogue and the expectation model: without the shipped ones
 * every run is judged without a level, which is said; files the person
 * names must be read. */
static int load_expectation(const struct args *a, struct expect_ref *ref)
{
	_cleanup_free_ char *error = NULL;
	int r = expect_ref_load(ref, a->catalogue, a->model, &error);
	if (r < 0 && (a->model || a->catalogue)) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	if (r < 0)
		log_warning("%s; no run is judged against what its CPU should score", error);
	return EXIT_OK;
}

/* What to call a result of several: its runs' label, else where it came from. */
static char *label_of(const struct diag_case *c, const struct loaded *l)
{
	const char *label = c->r.runs.n ? c->r.runs.v[0].label : NULL;
	return xstrdup(label ?: l->source);
}

static int report(const struct loaded_list *list, struct diag_refs *refs, const struct expect_ref *expect, bool json)
{
	_cleanup_free_ struct diag_case *cases = xcalloc(list->n, sizeof(*cases));
	_cleanup_free_ char **labels = xcalloc(list->n, sizeof(*labels));
	int code = EXIT_OK;
	for (size_t i = 0; i < list->n && code == EXIT_OK; i++) {
		_cleanup_free_ char *error = NULL;
		if (!json)
			json_escape_controls(list->v[i].rec);
		if (diag_case_init(&cases[i], list->v[i].rec, refs, NULL, &error) < 0) {
			log_error("%s: %s", list->v[i].source, error);
			code = EXIT_USAGE;
		} else
			diag_case_expect(&cases[i], expect);
		labels[i] = label_of(&cases[i], &list->v[i]);
	}
	if (code == EXIT_OK) {
		_cleanup_json_ json_object *out = list->n == 1 ? diagnose(&cases[0])
							      : diagnose_set(cases, (const char *const *)labels, list->n);
		if (json)
			printf("%s\n", jdump(out, true));
		else if (list->n == 1)
			diagnose_render(out, stdout);
		else
			diagnose_set_render(out, stdout);
		code = command_flush("the report") < 0 ? EXIT_FAIL : EXIT_OK;
	}
	for (size_t i = 0; i < list->n; i++) {
		diag_case_free(&cases[i]);
		free(labels[i]);
	}
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	const char *arg = ctx->nargs ? ctx->args[0] : "last";
	struct loaded_list list = {0};
	int code = stdin_input(arg, &arg) < 0 ? EXIT_FAIL : load_all(arg, &list);
	struct diag_refs refs = {0};
	struct expect_ref expect = {0};
	if (code == EXIT_OK)
		code = load_references(a->reference, &refs);
	if (code == EXIT_OK)
		code = load_expectation(a, &expect);
	if (code == EXIT_OK && a->cpu && !*a->cpu)
		code = command_usage_error(ctx->cmd, "--cpu: an empty model");
	if (code == EXIT_OK)
		set_cpu(&list, a->cpu);
	if (code == EXIT_OK) {
		_cleanup_store_ struct store *s = cli_store_if_any();
		add_history(s, list.v[0].rec, &refs);
		code = report(&list, &refs, &expect, ctx->json);
	}
	expect_ref_free(&expect);
	diag_refs_free(&refs);
	loaded_list_free(&list);
	return code;
}

const struct command cmd_diagnose = {
	.name = "diagnose",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "[ID|FILE]", .max = 1, .complete = COMPLETE_RESULT },
	.summary = "Explain a low score: ranked causes with evidence, fix and expected gain",
	.description = "ID is a number from `ubtune history`, 'last' (the default) or 'last~N'. FILE is a\n"
		       "result record (schema ubtune.result/1) as `ubtune bench --json` or `ubtune export`\n"
		       "write it, or UnixBench output of one run (imported on the fly, as `ubtune import`\n"
		       "reads it).",
	.notes = "The report combines the environment recorded before, during and after the run, the\n"
		 "shape of the scores (each test against the others), the closest published runs of\n"
		 "the same CPU and your own stored results. Each cause has a confidence, the evidence,\n"
		 "a fix and the gain expected per test; then what looks normal, what could not be\n"
		 "checked (an imported log has no environment), and A/B experiments to confirm the\n"
		 "fix with `ubtune compare`.",
};
