/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "command.h"
#include "cli/tune-env.h"

static const struct cmd_option options[] = {
	OPT_JSON("print what was put back (schema ubtune.revert/1) as JSON"),
	OPT_ROOT("DIR", "revert in a machine dump in DIR (the journal DIR/var/lib/ubtune/journal)"),
	OPT_END,
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

static const char *const outcome_names[] = {
	[REVERT_RESTORED] = "restored", [REVERT_ALREADY] = "already", [REVERT_LOST] = "reset",
	[REVERT_KEPT] = "kept",		[REVERT_FAILED] = "failed",
};

/* --json: {"schema", "state_dir", "journal", "profiles", "items": [...], "failed", "cleared"} */
static void print_json(const struct tune_env *env, const struct revert_result *res, int r)
{
	_cleanup_json_ json_object *o = json_object_new_object();
	json_object *items = json_object_new_array();
	_cleanup_free_ char *journal = xasprintf("%s/" JOURNAL_FILE, env->state_dir);
	jset_str(o, "schema", "ubtune.revert/1");
	jset_str(o, "state_dir", env->state_dir);
	jset_str(o, "journal", res->had_journal ? journal : NULL);
	jset_bool(o, "settings_removed", res->had_applied && r >= 0 && !res->failed);
	jset(o, "profiles", jarr_from_strv(&res->profiles));
	for (size_t i = 0; i < res->n; i++) {
		const struct revert_item *it = &res->items[i];
		json_object *e = action_to_json(&it->a);
		jset_str(e, "now", it->now);
		jset_str(e, "outcome", outcome_names[it->outcome]);
		jset_str(e, "detail", it->detail);
		json_object_array_add(items, e);
	}
	jset(o, "items", items);
	jset_int(o, "failed", (int64_t)res->failed);
	jset_bool(o, "cleared", res->had_journal && r >= 0 && !res->failed);
	printf("%s\n", jdump(o, true));
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	int code;
	_cleanup_free_ char *error = NULL;
	struct tune_env env;
	if (cli_tune_env(ctx->root, &env) < 0)
		return EXIT_FAIL;
	struct revert_result res;
	int r = tune_revert(&env, &res, &error);
	code = EXIT_OK;
	if (ctx->json && (r >= 0 || res.n))
		print_json(&env, &res, r);
	if (r < 0 && !res.n) {
		log_error("%s", error);
		code = EXIT_FAIL;
	} else if (ctx->json) {
		if (res.failed || r < 0)
			log_error("%s", res.failed ? "values could not be put back; the journal is kept" : error);
		code = res.failed || r < 0 ? EXIT_FAIL : EXIT_OK;
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
			_cleanup_free_ char *again = cli_tune_hint("revert", ctx->root);
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
	.options = options,
	.summary = "Undo every change of the applied profiles from the journal",
	.notes = "Replays the journal backwards and writes every old value back: services that were\n"
		"running are started again, the tmpfs workdir is unmounted, governors, schedulers,\n"
		"sysctls and IRQ affinities get their old values. It works after apply was killed at\n"
		"any point. Values set before a reboot were reset by it: they are reported and left\n"
		"as they are. When everything is back, the journal and applied.json are removed;\n"
		"otherwise the journal is kept for another try.",
};
