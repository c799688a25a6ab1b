/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include <math.h>

#include "command.h"
#include "lib/env-record.h"
#include "lib/tarball.h"
#include "lib/term.h"
#include "probe/findings.h"
#include "probe/probe.h"
#include "unixbench/expect.h"

struct args {
	const char *workdir;
	bool strict;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the environment record (schema ubtune.probe/1) as JSON"),
	OPT_ROOT("DIR|FILE.tar.gz|-", "read a dump of another machine (a directory with proc/, sys/..., for example "
				      "one unpacked from `ubtune gather`) instead of this one; an archive from "
				      "`ubtune gather` is read directly, - reads one from standard input"),
	OPT_WORKDIR(workdir, "the benchmark directory whose storage is examined (default: the current directory)"),
	{ .name = "strict", .type = OPT_FLAG, OPT_AT(strict),
	  .help = "exit with status 3 when a warning or critical finding exists" },
	OPT_END,
};

/*
 * What this machine should score at 1 copy and at one copy per CPU (the
 * expectation model, unixbench/expect.h): the report's last line, and
 * "expected" in the JSON (null where the CPU is not placed, with why).
 */
static json_object *expected(const struct env_record *env, char **line)
{
	struct expect_ref ref;
	_cleanup_free_ char *error = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &error) < 0) {
		*line = xasprintf("Expected UnixBench score: not known (%s)", error);
		return NULL;
	}
	struct expect_facts f;
	expect_facts_init(&f);
	expect_facts_env(&f, env);
	unsigned counts[2] = { 1, f.cpus > 1 ? f.cpus : 0 };
	json_object *o = NULL, *runs = json_object_new_array();
	struct buf b = {0};
	struct expectation e = {0};
	for (size_t i = 0; i < 2 && counts[i]; i++) {
		f.copies = counts[i];
		if (!expect_run(&ref, &f, &e))
			break;
		char mid[32], lo[32], hi[32];
		expect_number_text(e.score, mid, sizeof(mid));
		expect_number_text(e.score_low, lo, sizeof(lo));
		expect_number_text(e.score_high, hi, sizeof(hi));
		buf_printf(&b, "%s%s (%s-%s) at %u %s", i ? ", " : "", mid, lo, hi, counts[i],
			   counts[i] == 1 ? "copy" : "copies");
		json_object *r = json_object_new_object();
		jset_int(r, "copies", counts[i]);
		jset_round(r, "score", e.score, 1);
		jset_round(r, "low", e.score_low, 1);
		jset_round(r, "high", e.score_high, 1);
		json_object_array_add(runs, r);
	}
	if (!e.placed) {
		*line = xasprintf("Expected UnixBench score: not known, %s", e.why);
		json_object_put(runs);
		buf_free(&b);
	} else {
		_cleanup_free_ char *scores = buf_steal(&b);
		*line = xasprintf("Expected UnixBench score: %s; %s %s at %s GHz, %s", scores, expect_article(e.name),
				  e.name, e.clock_text, e.basis_text);
		o = json_object_new_object();
		jset_str(o, "cpu", e.name);
		jset_str(o, "core_type", e.place.ncandidates ? NULL : e.core->name);
		json_object *cands = json_object_new_array();
		for (size_t i = 0; i < e.place.ncandidates; i++)
			jarr_add_str(cands, e.place.candidates[i]->name);
		jset(o, "candidates", cands);
		jset_round(o, "clock_ghz", e.clock, 3);
		jset_str(o, "basis", e.basis_text);
		jset(o, "runs", runs);
	}
	expect_ref_free(&ref);
	return o;
}

static int run(struct cmd_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct probe_opts opts = { .root = ctx->root, .workdir = a->workdir };
	bool json = ctx->json, strict = a->strict;
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	/* an archive (from `ubtune gather`) is unpacked into a private directory */
	struct unpacked_root unpacked = {0};
	int r = unpacked_root_open(opts.root, &unpacked, &error);
	if (r > 0)
		opts.root = unpacked.root;
	if (r >= 0)
		r = probe_collect(&opts, &rec, NULL, &error);
	if (r >= 0 && unpacked.root)
		jset_str(rec, "root", unpacked.source);
	error = unpacked_root_message(&unpacked, error);
	unpacked_root_close(&unpacked);
	if (r < 0) {
		log_error("%s", error);
		return EXIT_FAIL;
	}
	struct env_record env;
	if (env_decode(rec, "", &env, &error) < 0) {
		log_error("the environment record does not fit its schema: %s", error);
		return EXIT_FAIL;
	}
	_cleanup_free_ char *line = NULL;
	jset(rec, "expected", expected(&env, &line));
	if (json)
		printf("%s\n", jdump(rec, true));
	else {
		probe_render(&env, stdout);
		printf("\n");
		term_print_wrapped(stdout, line, 2, term_width(stdout));
	}
	bool found = strict && findings_at_least(&env, SEV_WARN);
	env_record_free(&env);
	if (command_flush("the report") < 0)
		return EXIT_FAIL;
	return found ? EXIT_FINDINGS : EXIT_OK;
}

const struct command cmd_probe = {
	.name = "probe",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.summary = "Report everything about this machine that moves a UnixBench score",
	.notes = "Facts that cannot be read (no permission, not in a dump) are listed as not\n"
		"available; nothing is guessed. probe never changes the machine.",
	.exits = "3 a warning or critical finding (--strict)",
};
