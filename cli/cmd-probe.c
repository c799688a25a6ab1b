/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "command.h"
#include "lib/env-record.h"
#include "lib/tarball.h"
#include "probe/findings.h"
#include "probe/probe.h"

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
	if (json)
		printf("%s\n", jdump(rec, true));
	else
		probe_render(&env, stdout);
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
