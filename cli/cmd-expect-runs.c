/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * __expect: the catalogue's placement and the model's expectation of every
 * run of a reference database (reference/runs.jsonl, one JSON object a
 * line), one JSON object a line, for tools/build-reference: the placement
 * fills the database, the expectation of each left-out source validates
 * the model. The C code that diagnose runs is the code measured.
 */
#include <errno.h>
#include <math.h>

#include "command.h"
#include "lib/fileio.h"
#include "lib/paths.h"
#include "lib/json.h"
#include "unixbench/expect.h"

/* A database is a few MiB. */
#define RUNS_MAX (256u << 20)

struct args {
	const char *catalogue, *model;
};

static const struct cmd_option options[] = {
	{ .name = "catalogue", .type = OPT_STRING, .arg = "FILE", OPT_AT(catalogue), .complete = COMPLETE_FILE,
	  .help = "the CPU catalogue (default: the shipped reference/cpus.ini)" },
	{ .name = "model", .type = OPT_STRING, .arg = "FILE", OPT_AT(model), .complete = COMPLETE_FILE,
	  .help = "the fitted model; without it only the placement is printed" },
	OPT_END,
};

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : NULL;
}

static double jnum(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return NAN;
	return json_object_get_double(v);
}

static unsigned jcount(json_object *o, const char *key)
{
	double v = jnum(o, key);
	return v >= 1 && v < 1e6 ? (unsigned)v : 0;
}

/* The facts of a database run (reference/README.md). */
static void run_facts(json_object *run, struct expect_facts *f)
{
	expect_facts_init(f);
	size_t n = 0;
	const char *models[] = { jstr(run, "cpu_named"), jstr(run, "cpu"), jstr(run, "board") };
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (models[i])
			f->cpu.models[n++] = models[i];
	f->cpu.arch = jstr(run, "arch");
	f->cpu.clock_mhz = jnum(run, "clock_mhz");
	f->cpu.bogomips = jnum(run, "bogomips");
	f->copies = jcount(run, "copies");
	f->cpus = jcount(run, "cpus");
	f->cores = jcount(run, "cores");
	if (f->cores > f->cpus)
		f->cores = 0;
	f->virt = expect_virt_class(jstr(run, "virt"));
	f->kernel = jstr(run, "kernel");
}

static json_object *num3(double v)
{
	return isfinite(v) ? json_object_new_double(round(v * 1000) / 1000) : NULL;
}

static json_object *place_json(const struct cpu_place *p)
{
	json_object *o = json_object_new_object();
	jset_str(o, "core", p->core ? p->core->name : NULL);
	jset_str(o, "chip", p->cpu ? p->cpu->name : NULL);
	jset_str(o, "hidden", p->hidden ? p->hidden->name : NULL);
	jset_str(o, "by", p->by);
	json_object *c = json_object_new_array();
	for (size_t i = 0; i < p->ncandidates; i++)
		jarr_add_str(c, p->candidates[i]->name);
	jset(o, "candidates", c);
	jset(o, "clock_ghz", num3(p->clock_ghz));
	jset_str(o, "clock_source", p->clock_source);
	jset_bool(o, "clock_base", p->clock_base);
	const struct cat_cpu *chip = p->cpu;
	if (chip && chip->little) {
		jset_str(o, "little", chip->little->name);
		jset_int(o, "big_cores", chip->big_cores);
		jset_int(o, "little_cores", chip->little_cores);
		jset(o, "little_clock", num3(chip->little_clock));
	}
	return o;
}

static json_object *expected_json(const struct expectation *e)
{
	json_object *o = json_object_new_object(), *tests = json_object_new_object();
	jset(o, "score", num3(e->score));
	jset(o, "low", num3(e->score_low));
	jset(o, "high", num3(e->score_high));
	jset_str(o, "basis", e->basis_text);
	jset(o, "clock_ghz", num3(e->clock));
	jset(o, "capacity", num3(e->capacity));
	for (int t = 0; t < UB_NINDEX; t++) {
		json_object *a = json_object_new_array();
		json_object_array_add(a, num3(e->index[t]));
		json_object_array_add(a, num3(e->low[t]));
		json_object_array_add(a, num3(e->high[t]));
		jset(tests, ub_tests[t].id, a);
	}
	jset(o, "tests", tests);
	return o;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	const struct args *a = opts;
	struct expect_ref ref = {0};
	_cleanup_free_ char *error = NULL, *text = NULL;
	int r;
	if (a->model)
		r = expect_ref_load(&ref, a->catalogue, a->model, &error);
	else {
		_cleanup_free_ char *path = a->catalogue ? xstrdup(a->catalogue) : data_path("reference/cpus.ini");
		r = cpu_catalogue_load(path, &ref.cat, &error);
	}
	if (r < 0) {
		log_error("%s", error);
		expect_ref_free(&ref);
		return EXIT_USAGE;
	}
	size_t len = 0;
	r = read_regular(ctx->args[0], RUNS_MAX, &text, &len, &error);
	if (r < 0) {
		log_error("%s", error ?: strerror(-r));
		expect_ref_free(&ref);
		return EXIT_USAGE;
	}
	int code = EXIT_OK;
	unsigned line = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && code == EXIT_OK; l = strtok_r(NULL, "\n", &save)) {
		line++;
		_cleanup_json_ json_object *run = NULL;
		if (jload_text(l, strlen(l), &run) < 0 || !json_object_is_type(run, json_type_object)) {
			log_error("%s:%u: not a JSON object", ctx->args[0], line);
			code = EXIT_USAGE;
			break;
		}
		if (!jstr(run, "id"))
			continue; /* the header line */
		struct expect_facts f;
		run_facts(run, &f);
		_cleanup_json_ json_object *out = json_object_new_object();
		jset_str(out, "id", jstr(run, "id"));
		struct expectation e;
		if (ref.loaded) {
			bool ok = expect_run(&ref, &f, &e);
			jset(out, "place", place_json(&e.place));
			jset(out, "expected", ok ? expected_json(&e) : NULL);
		} else {
			struct cpu_place p;
			cpu_place(&ref.cat, &f.cpu, &p);
			jset(out, "place", place_json(&p));
		}
		printf("%s\n", jdump(out, false));
	}
	expect_ref_free(&ref);
	if (code == EXIT_OK && command_flush("the expectations") < 0)
		code = EXIT_FAIL;
	return code;
}

const struct command cmd_expect_runs = {
	.name = "__expect",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "RUNS.jsonl", .min = 1, .max = 1, .missing = "no database of runs given",
		      .complete = COMPLETE_FILE },
	.flags = CMD_HIDDEN,
	.summary = "Place and expect every run of a reference database (for tools/build-reference)",
};
