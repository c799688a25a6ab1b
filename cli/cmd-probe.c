/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "command.h"
#include "lib/tarball.h"
#include "probe/findings.h"
#include "probe/probe.h"

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, 'r' },
	{ "workdir", required_argument, NULL, 'w' },
	{ "strict", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int run(int argc, char **argv)
{
	struct probe_opts opts = {0};
	bool json = false, strict = false;
	int opt, code;

	while ((opt = command_getopt(&cmd_probe, argc, argv, "+h", &code)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'r':
			opts.root = optarg;
			break;
		case 'w':
			opts.workdir = optarg;
			break;
		case 's':
			strict = true;
			break;
		default:
			return code;
		}
	}
	if (optind < argc)
		return command_usage_error(&cmd_probe, "unexpected argument '%s'", argv[optind]);

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
	unpacked_root_close(&unpacked);
	if (r < 0) {
		log_error("%s", error);
		return EXIT_FAIL;
	}
	if (json)
		printf("%s\n", jdump(rec, true));
	else
		probe_render(rec, stdout);
	if (command_flush("the report") < 0)
		return EXIT_FAIL;
	return strict && findings_at_least(rec, SEV_WARN) ? EXIT_FINDINGS : EXIT_OK;
}

const struct command cmd_probe = {
	.name = "probe",
	.run_argv = run,
	.args = "[--json] [--root DIR|FILE.tar.gz] [--workdir DIR] [--strict]",
	.summary = "Report everything about this machine that moves a UnixBench score",
	.help = "Options:\n"
		"  --json           print the environment record (schema ubtune.probe/1) as JSON\n"
		"  --root DIR       read a dump of another machine (a directory with proc/, sys/...,\n"
		"                   for example one unpacked from `ubtune gather`) instead of this one;\n"
		"                   an archive from `ubtune gather` is read directly\n"
		"  --workdir DIR    the benchmark directory whose storage is examined\n"
		"                   (default: the current directory)\n"
		"  --strict         exit with status 3 when a warning or critical finding exists\n"
		"  -h, --help       show this help\n\n"
		"Facts that cannot be read (no permission, not in a dump) are listed as not\n"
		"available; nothing is guessed. probe never changes the machine.\n",
	.longopts = options,
	.exits = "3 a warning or critical finding (--strict)",
};
