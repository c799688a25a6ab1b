/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "command.h"
#include "cli/tune-env.h"

static const struct option options[] = {
	{ "root", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static void print_item(const struct revert_item *it)
{
	const struct action *a = &it->a;
	const char *now = it->now ? it->now : "?";
	switch (it->outcome) {
	case REVERT_RESTORED:
		printf("  restored  %s: %s -> %s\n", a->what, now, a->from);
		break;
	case REVERT_ALREADY:
		printf("  already   %s: %s\n", a->what, a->from);
		break;
	case REVERT_LOST:
		printf("  reset     %s: set to %s before a reboot, which reset it; now %s (before: %s), left as is\n",
		       a->what, a->to, now, a->from);
		break;
	case REVERT_KEPT:
		printf("  kept      %s: %s\n", a->what, it->detail);
		break;
	case REVERT_FAILED:
		printf("  FAILED    %s: cannot put back %s: %s\n", a->what, a->from, it->detail);
		break;
	}
}

static int run(int argc, char **argv)
{
	const char *root = NULL;
	int code;

	if ((code = cli_tune_options(&cmd_revert, argc, argv, &root, NULL)) >= 0)
		return code;

	_cleanup_free_ char *error = NULL;
	struct tune_env env;
	if (cli_tune_env(root, &env) < 0)
		return EXIT_FAIL;
	struct revert_result res;
	int r = tune_revert(&env, &res, &error);
	code = EXIT_OK;
	if (r < 0 && !res.n) {
		log_error("%s", error);
		code = EXIT_FAIL;
	} else if (!res.had_journal && res.had_applied) {
		printf("No changes to revert; the recorded settings (%s/" APPLIED_FILE ") are removed.\n", env.state_dir);
	} else if (!res.had_journal) {
		printf("Nothing to revert: no journal in %s.\n", env.state_dir);
	} else {
		printf("Reverting %s (journal %s/" JOURNAL_FILE "):\n", res.profiles.n ? res.profiles.v[0] : "?",
		       env.state_dir);
		for (size_t i = 1; i < res.profiles.n; i++)
			printf("  stacked profile %s\n", res.profiles.v[i]);
		for (size_t i = 0; i < res.n; i++)
			print_item(&res.items[i]);
		if (res.failed) {
			_cleanup_free_ char *again = cli_tune_hint("revert", root);
			log_error("%zu value%s could not be put back; the journal is kept: fix the cause and run "
				  "`%s` again", res.failed, res.failed == 1 ? "" : "s", again);
			code = EXIT_FAIL;
		} else if (r < 0) {
			log_error("%s", error);
			code = EXIT_FAIL;
		} else {
			printf("Done: the journal is cleared.\n");
		}
	}
	revert_result_free(&res);
	tune_env_close(&env);
	if (command_flush("what was reverted") < 0 && code == EXIT_OK)
		code = EXIT_FAIL;
	return code;
}

const struct command cmd_revert = {
	.name = "revert",
	.run = run,
	.args = "[--root DIR]",
	.summary = "Undo every change of the applied profiles from the journal",
	.help = "Options:\n"
		"  --root DIR       revert in a machine dump in DIR (the journal DIR/var/lib/ubtune/journal)\n"
		"  -h, --help       show this help\n\n"
		"Replays the journal backwards and writes every old value back: services that were\n"
		"running are started again, the tmpfs workdir is unmounted, governors, schedulers,\n"
		"sysctls and IRQ affinities get their old values. It works after apply was killed at\n"
		"any point. Values set before a reboot were reset by it: they are reported and left\n"
		"as they are. When everything is back, the journal and applied.json are removed;\n"
		"otherwise the journal is kept for another try.\n",
	.options = options,
};
