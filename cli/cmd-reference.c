/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune reference: the published runs behind every expectation (the
 * database reference/runs.jsonl), the core types the model knows, and for
 * a result the expectation with the runs it comes from.
 */
#include <errno.h>
#include <math.h>

#include "analysis/diagnose.h"
#include "analysis/load.h"
#include "analysis/refdb.h"
#include "command.h"
#include "lib/paths.h"
#include "lib/table.h"
#include "lib/term.h"
#include "result-args.h"
#include "stdin-input.h"

struct args {
	bool all;
	const char *core, *arch, *database, *model, *catalogue;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the runs, the cores or the expectation as JSON"),
	{ .name = "all", .short_name = 'a', .type = OPT_FLAG, OPT_AT(all),
	  .help = "list every run, also those the fit leaves out (with why)" },
	{ .name = "core", .type = OPT_STRING, .arg = "NAME", OPT_AT(core),
	  .help = "only the runs of this core type (\"Cortex-A72\", \"Zen 3\")" },
	{ .name = "arch", .type = OPT_STRING, .arg = "ARCH", OPT_AT(arch),
	  .help = "only the runs of this architecture (x86_64, aarch64, riscv64, ...)" },
	{ .name = "database", .type = OPT_STRING, .arg = "FILE", OPT_AT(database), .complete = COMPLETE_FILE,
	  .help = "the database of published runs (default: the reference/runs.jsonl installed with ubtune)" },
	{ .name = "model", .type = OPT_STRING, .arg = "FILE", OPT_AT(model), .complete = COMPLETE_FILE,
	  .help = "the expectation model (default: the installed reference/expect.ini)" },
	{ .name = "catalogue", .type = OPT_STRING, .arg = "FILE", OPT_AT(catalogue), .complete = COMPLETE_FILE,
	  .help = "the CPU catalogue (default: the installed reference/cpus.ini)" },
	OPT_END,
};

static int load_db(const struct args *a, struct refdb *db)
{
	_cleanup_free_ char *path = a->database ? xstrdup(a->database) : data_path("reference/runs.jsonl");
	_cleanup_free_ char *error = NULL;
	int r = refdb_load(path, db, &error);
	if (r < 0) {
		log_error("%s", error);
		refdb_free(db);
		return result_load_exit(r);
	}
	return EXIT_OK;
}

static int load_expect(const struct args *a, struct expect_ref *ref)
{
	_cleanup_free_ char *error = NULL;
	int r = expect_ref_load(ref, a->catalogue, a->model, &error);
	if (r < 0) {
		log_error("%s", error);
		return result_load_exit(r);
	}
	return EXIT_OK;
}

static char *num_text(double v, int decimals)
{
	return isfinite(v) ? xasprintf("%.*f", decimals, v) : xstrdup("-");
}

static bool wanted(const struct args *a, const struct refdb_run *r)
{
	if (!a->all && !r->used)
		return false;
	if (a->core && !(r->core && strcasecmp(r->core, a->core) == 0))
		return false;
	return !a->arch || (r->arch && strcasecmp(r->arch, a->arch) == 0);
}

/* The runs as a table: what each is and what the fit does with it. */
static void print_runs(const struct refdb_run *const *v, size_t n, bool why)
{
	enum { RUN, COPIES, CPUS, CPU, CORE, GHZ, VIRT, SCORE, USED, NCOL };
	static const struct table_column cols[NCOL] = {
		{ .head = "RUN", .flags = TABLE_WRAP, .min = 16 },
		{ .head = "COPIES", .flags = TABLE_RIGHT },
		{ .head = "CPUS", .flags = TABLE_RIGHT, .drop = 3 },
		{ .head = "CPU", .flags = TABLE_WRAP, .min = 12, .drop = 2 },
		{ .head = "CORE", .flags = TABLE_WRAP, .min = 8 },
		{ .head = "GHZ", .flags = TABLE_RIGHT },
		{ .head = "VIRT", .drop = 4 },
		{ .head = "SCORE", .flags = TABLE_RIGHT },
		{ .head = "USED", .flags = TABLE_WRAP | TABLE_UNDER, .min = 12, .drop = 1 },
	};
	struct table *t = table_new(cols, why ? NCOL : NCOL - 1, 0, 2);
	for (size_t i = 0; i < n; i++) {
		const struct refdb_run *r = v[i];
		_cleanup_free_ char *copies = r->copies ? xasprintf("%u", r->copies) : xstrdup("?");
		_cleanup_free_ char *cpus = r->cpus ? xasprintf("%u", r->cpus) : xstrdup("?");
		_cleanup_free_ char *ghz = num_text(r->clock_ghz, 2), *score = num_text(r->score, 1);
		const char *used = r->used ? "yes" : r->not_used ?: "no";
		table_addv(t, r->id, copies, cpus, r->cpu ?: "?", r->core ?: "-", ghz, r->virt ?: "?", score, used);
	}
	table_print(t, stdout, term_width(stdout));
	table_free(t);
}

static json_object *runs_json(const struct refdb_run *const *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_get(v[i]->json));
	return a;
}

static int list(struct cmd_ctx *ctx, const struct args *a, char *const *words, size_t nwords)
{
	struct refdb db;
	int code = load_db(a, &db);
	if (code != EXIT_OK)
		return code;
	_cleanup_free_ const struct refdb_run **v = xcalloc(db.n + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < db.n; i++)
		if (wanted(a, &db.v[i]) && refdb_matches(&db.v[i], words, nwords))
			v[n++] = &db.v[i];
	if (ctx->json) {
		_cleanup_json_ json_object *out = runs_json(v, n);
		printf("%s\n", jdump(out, true));
	} else if (!n)
		printf("No published run matches%s.\n", a->all ? "" : " among those the fit uses (--all shows every run)");
	else {
		print_runs(v, n, a->all);
		printf("%zu of %zu runs%s\n", n, db.n, a->all ? "" : " (those the fit uses; --all shows every run)");
	}
	refdb_free(&db);
	return command_flush("the runs") < 0 ? EXIT_FAIL : EXIT_OK;
}

static void show_text(const struct refdb_run *r)
{
	json_object *o = r->json;
	printf("%s%s%s\n", term_esc(stdout, ANSI_BOLD), r->id, term_esc(stdout, ANSI_RESET));
	static const char *const keys[][2] = {
		{ "label", "label" }, { "source", "source" }, { "origin", "origin" }, { "author", "author" },
		{ "cpu", "CPU line" }, { "cpu_named", "CPU (source)" }, { "board", "board" }, { "arch", "arch" },
		{ "kernel", "kernel" }, { "virt", "virt" }, { "cloud", "cloud" }, { "instance", "instance" },
		{ "os", "OS" }, { "compiler", "compiler" }, { "workdir", "workdir" }, { "place.core", "core type" },
		{ "place.chip", "chip" }, { "place.by", "placed by" }, { "place_why", "not placed" },
		{ "cause.text", "cause" }, { "cause.class", "cause class" }, { "not_used", "not used" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = jpath_str(o, keys[i][0]);
		if (v)
			printf("  %-13s %s\n", keys[i][1], v);
	}
	_cleanup_free_ char *copies = r->copies ? xasprintf("%u", r->copies) : xstrdup("not known");
	_cleanup_free_ char *cpus = r->cpus ? xasprintf("%u", r->cpus) : xstrdup("not known");
	printf("  %-13s %s, on %s CPU%s\n", "copies", copies, cpus, r->cpus == 1 ? "" : "s");
	if (isfinite(r->clock_ghz))
		printf("  %-13s %.3g GHz (%s)\n", "clock", r->clock_ghz, jpath_str(o, "place.clock_source") ?: "?");
	printf("  %-13s %s\n", "healthy", r->healthy ? "yes" : "no");
	for (int t = 0; t < UB_NINDEX; t++)
		if (isfinite(r->index[t]))
			printf("  %-40s %10.1f\n", ub_tests[t].name, r->index[t]);
	if (isfinite(r->score))
		printf("  %-40s %10.1f\n", "System Benchmarks Index Score", r->score);
}

static int show(struct cmd_ctx *ctx, const struct args *a, const char *id)
{
	struct refdb db;
	int code = load_db(a, &db);
	if (code != EXIT_OK)
		return code;
	const struct refdb_run *r = refdb_find(&db, id);
	if (!r) {
		log_error("no run '%s' in %s (`ubtune reference search WORD` finds one)", id, db.path);
		refdb_free(&db);
		return EXIT_USAGE;
	}
	if (ctx->json)
		printf("%s\n", jdump(r->json, true));
	else
		show_text(r);
	refdb_free(&db);
	return command_flush("the run") < 0 ? EXIT_FAIL : EXIT_OK;
}

/* The core types of the model: their level per GHz and the runs behind it. */
static int cores(struct cmd_ctx *ctx, const struct args *a)
{
	struct expect_ref ref;
	int code = load_expect(a, &ref);
	if (code != EXIT_OK)
		return code;
	static const char *const basis[] = { "runs", "neighbours", "group", "all", "hidden" };
	const struct expect_model *m = &ref.model;
	if (ctx->json) {
		_cleanup_json_ json_object *out = json_object_new_array();
		for (size_t i = 0; i < m->ncores; i++) {
			const struct expect_core *c = &m->cores[i];
			json_object *o = json_object_new_object(), *per = json_object_new_object();
			jset_str(o, "core_type", c->name);
			jset_str(o, "basis", basis[c->basis]);
			jset_str(o, "from", c->from);
			jset_int(o, "runs", c->runs);
			jset_int(o, "sources", c->sources);
			jset_round(o, "clock_ghz", c->clock, 3);
			for (int t = 0; t < UB_NINDEX; t++)
				jset_round(per, ub_tests[t].id, exp(c->level[t]), 1);
			jset(o, "index_per_ghz", per);
			json_object_array_add(out, o);
		}
		printf("%s\n", jdump(out, true));
	} else {
		static const struct table_column cols[] = {
			{ .head = "CORE", .flags = TABLE_WRAP, .min = 10 },
			{ .head = "FROM", .flags = TABLE_WRAP | TABLE_UNDER, .min = 12, .drop = 1 },
			{ .head = "RUNS", .flags = TABLE_RIGHT },
			{ .head = "SOURCES", .flags = TABLE_RIGHT },
			{ .head = "DHRYSTONE/GHZ", .flags = TABLE_RIGHT },
			{ .head = "WHETSTONE/GHZ", .flags = TABLE_RIGHT },
			{ .head = "CLOCK", .flags = TABLE_RIGHT, .drop = 2 },
		};
		struct table *t = table_new(cols, ARRAY_SIZE(cols), 0, 2);
		for (size_t i = 0; i < m->ncores; i++) {
			const struct expect_core *c = &m->cores[i];
			_cleanup_free_ char *from = c->basis == EB_RUNS ? xstrdup("its own runs")
								    : xasprintf("%s: %s", basis[c->basis], c->from ?: "-");
			_cleanup_free_ char *runs = xasprintf("%u", c->runs), *sources = xasprintf("%u", c->sources);
			_cleanup_free_ char *dhry = xasprintf("%.0f", exp(c->level[0])), *whet = xasprintf("%.0f", exp(c->level[1]));
			_cleanup_free_ char *clock = xasprintf("%.2f", c->clock);
			table_addv(t, c->name, from, runs, sources, dhry, whet, clock);
		}
		table_print(t, stdout, term_width(stdout));
		table_free(t);
		printf("%zu core types; %u runs from %u sources (%s)\n", m->ncores, m->runs, m->sources, m->path);
	}
	expect_ref_free(&ref);
	return command_flush("the cores") < 0 ? EXIT_FAIL : EXIT_OK;
}

/* The cores behind an expectation: its own, its neighbours, a hidden model's candidates. */
static void behind(const struct expectation *e, struct strv *names)
{
	if (e->place.ncandidates) {
		for (size_t i = 0; i < e->place.ncandidates; i++)
			strv_push(names, e->place.candidates[i]->name);
	} else if (e->core->basis != EB_RUNS && e->core->from)
		strv_split(e->core->from, ",", names);
	else
		strv_push(names, e->core->name);
}

/* A result's expectation, as diagnose judges it, and the published runs it comes from. */
static int expect(struct cmd_ctx *ctx, const struct args *a, const char *arg)
{
	struct loaded_list list = {0};
	static const struct ub_import_opts import = {0};
	_cleanup_free_ char *error = NULL;
	int code = stdin_input(arg, &arg) < 0 ? EXIT_FAIL : EXIT_OK;
	if (code == EXIT_OK) {
		int r = load_results(arg, &import, &list, &error);
		if (r < 0) {
			log_error("%s", error);
			code = result_load_exit(r);
		}
	}
	struct expect_ref ref = {0};
	struct refdb db = {0};
	if (code == EXIT_OK)
		code = load_expect(a, &ref);
	if (code == EXIT_OK)
		code = load_db(a, &db);
	struct diag_case c = {0};
	if (code == EXIT_OK && diag_case_init(&c, list.v[0].rec, NULL, NULL, &error) < 0) {
		log_error("%s: %s", list.v[0].source, error);
		code = EXIT_USAGE;
	} else if (code == EXIT_OK) {
		diag_case_expect(&c, &ref);
		_cleanup_strv_ struct strv names = {0};
		for (size_t i = 0; i < c.nruns; i++)
			if (diag_expect_of(&c, &c.runs[i]))
				behind(&c.expect[i], &names);
		_cleanup_free_ const struct refdb_run **v = xcalloc(db.n + 1, sizeof(*v));
		size_t n = 0;
		for (size_t i = 0; i < db.n; i++)
			if (db.v[i].used && db.v[i].core && strv_contains(&names, db.v[i].core))
				v[n++] = &db.v[i];
		_cleanup_json_ json_object *level = diag_level_json(&c);
		if (ctx->json) {
			_cleanup_json_ json_object *out = json_object_new_object();
			json_object *runs = json_object_new_array();
			for (size_t i = 0; i < c.nruns; i++) {
				json_object *o = json_object_new_object();
				jset_int(o, "copies", c.runs[i].copies);
				jset(o, "expected", diag_expected_json(&c, i));
				json_object_array_add(runs, o);
			}
			jset(out, "level", json_object_get(level));
			jset(out, "runs", runs);
			jset(out, "behind", runs_json(v, n));
			printf("%s\n", jdump(out, true));
		} else {
			for (size_t i = 0; i < json_object_array_length(level); i++) {
				json_object *l = json_object_array_get_idx(level, i);
				term_print_wrapped(stdout, jpath_str(l, "text") ?: "", 0, term_width(stdout));
				if (jpath_str(l, "basis")) {
					fputs("  ", stdout);
					_cleanup_free_ char *b = xasprintf("(%s)", jpath_str(l, "basis"));
					term_print_wrapped(stdout, b, 2, term_width(stdout));
				}
			}
			if (n) {
				printf("\n%sThe published runs behind it%s\n", term_esc(stdout, ANSI_BOLD),
				       term_esc(stdout, ANSI_RESET));
				print_runs(v, n, false);
			}
		}
		code = command_flush("the expectation") < 0 ? EXIT_FAIL : EXIT_OK;
	}
	diag_case_free(&c);
	refdb_free(&db);
	expect_ref_free(&ref);
	loaded_list_free(&list);
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	const char *verb = ctx->nargs ? ctx->args[0] : "list";
	char *const *rest = ctx->nargs ? ctx->args + 1 : ctx->args;
	size_t nrest = ctx->nargs ? ctx->nargs - 1 : 0;
	if (streq(verb, "list"))
		return nrest ? command_usage_error(ctx->cmd, "list takes no operand (search WORD... filters)")
			     : list(ctx, a, rest, 0);
	if (streq(verb, "search"))
		return nrest ? list(ctx, a, rest, nrest) : command_usage_error(ctx->cmd, "search needs a word");
	if (streq(verb, "show"))
		return nrest == 1 ? show(ctx, a, rest[0]) : command_usage_error(ctx->cmd, "show takes one run id");
	if (streq(verb, "cores"))
		return nrest ? command_usage_error(ctx->cmd, "cores takes no operand") : cores(ctx, a);
	if (streq(verb, "expect"))
		return nrest <= 1 ? expect(ctx, a, nrest ? rest[0] : "last")
				  : command_usage_error(ctx->cmd, "expect takes one result");
	return command_usage_error(ctx->cmd, "'%s' is not list, search, show, cores or expect", verb);
}

static const char *const verbs[] = { "list", "search", "show", "cores", "expect", NULL };

const struct command cmd_reference = {
	.name = "reference",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "[list | search WORD... | show RUN | cores | expect [ID|FILE]]", .max = 0,
		      .words = verbs },
	.summary = "The published runs behind what a machine should score",
	.description = "list (the default) prints the runs the expectation model is fitted from, search those "
		       "whose CPU, source, cloud or label holds every WORD, show one run with its facts and "
		       "tests, cores the core types the model knows, and expect the expectation of a result "
		       "(as diagnose judges it) with the published runs it comes from.",
};
