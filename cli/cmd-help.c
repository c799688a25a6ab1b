/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <inttypes.h>
#include <string.h>

#include "unixbench/catalogue.h"
#include "command.h"
#include "parse-options.h"
#include "lib/embed.h"
#include "lib/paths.h"
#include "lib/store.h"
#include "lib/util.h"
#include "profiles.h"
#include "store-setup.h"

/* ---- help ---- */

static int help_run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	if (!ctx->nargs) {
		command_help(NULL, stdout);
		return EXIT_OK;
	}
	const struct command *c = command_find(ctx->args[0]);
	if (!c || !command_listed(c))
		return command_unknown(ctx->args[0]);
	command_help(c, stdout);
	return EXIT_OK;
}

const struct command cmd_help = {
	.name = "help",
	.run = help_run,
	.operands = { .usage = "[COMMAND]", .max = 1, .complete = COMPLETE_COMMAND },
	.summary = "Show the commands, or the options of one command",
	.description = "With no COMMAND, lists the commands and the global options.",
};

/* ---- __complete: the words shell completion offers ---- */

struct complete_args {
	const char *value;
	bool operands;
};

static void print_option_name(const struct cmd_option *o, void *data)
{
	(void)data;
	printf("--%s\n", o->name);
}

/* The result ids of this user's store, newest first, and 'last'. */
static void print_result_ids(void)
{
	printf("last\n");
	_cleanup_store_ struct store *s = cli_store_if_any();
	_cleanup_json_ json_object *list = NULL;
	if (!s || store_list(s, &list) < 0)
		return;
	for (size_t i = jarr_len(list); i-- > 0;) {
		int64_t id;
		if (jpath_int(json_object_array_get_idx(list, i), "id", &id))
			printf("%" PRId64 "\n", id);
	}
}

/* The rounds of this user's store, the latest first. */
static int add_round(int64_t id, json_object *summary, void *rounds)
{
	const char *round = jpath_str(summary, "round");
	if (round && !strv_contains(rounds, round))
		strv_push(rounds, round);
	return 0;
}

static void print_rounds(void)
{
	_cleanup_store_ struct store *s = cli_store_if_any();
	struct strv rounds = {0};
	if (s && store_each(s, add_round, &rounds) == 0)
		for (size_t i = rounds.n; i-- > 0;)
			printf("%s\n", rounds.v[i]);
	strv_free(&rounds);
}

/* "@file" and "@dir" ask the shell to add file or directory names. */
static void print_candidates(enum opt_complete what, const char *const *choices)
{
	for (size_t i = 0; choices && choices[i]; i++)
		printf("%s\n", choices[i]);
	switch (what) {
	case COMPLETE_NONE:
		break;
	case COMPLETE_FILE:
		printf("@file\n");
		break;
	case COMPLETE_DIR:
		printf("@dir\n");
		break;
	case COMPLETE_PROFILE: {
		struct strv names = {0};
		profiles_list(&names, NULL);
		for (size_t i = 0; i < names.n; i++)
			printf("%s\n", names.v[i]);
		strv_free(&names);
		printf("@file\n");
		break;
	}
	case COMPLETE_TESTS:
		for (size_t i = 0; i < UB_NINDEX; i++)
			printf("%s\n", ub_tests[i].id);
		break;
	case COMPLETE_RESULT_ID:
		print_result_ids();
		break;
	case COMPLETE_RESULT:
		print_result_ids();
		printf("@file\n");
		break;
	case COMPLETE_ROUND:
		print_rounds();
		break;
	case COMPLETE_COMMAND:
		for (size_t i = 0; commands[i]; i++)
			if (command_listed(commands[i]))
				printf("%s\n", commands[i]->name);
		break;
	}
}

static int complete_run(struct cmd_ctx *ctx, void *opts)
{
	const struct complete_args *a = opts;
	if (!ctx->nargs && a->value) {
		/* a global option before the command: --color WHEN */
		const struct cmd_option *o = options_find(NULL, a->value + strspn(a->value, "-"));
		if (o && option_has_value(o))
			print_candidates(o->complete, o->choices);
		return EXIT_OK;
	}
	if (!ctx->nargs) {
		print_candidates(COMPLETE_COMMAND, NULL);
		return EXIT_OK;
	}
	const struct command *c = command_find(ctx->args[0]);
	if (!c || !command_listed(c))
		return EXIT_USAGE;
	if (a->operands) {
		print_candidates(c->operands.complete, c->operands.words);
	} else if (a->value) {
		const char *name = a->value + strspn(a->value, "-");
		const struct cmd_option *o = options_find(c, name);
		if (o && option_has_value(o))
			print_candidates(o->complete, o->choices);
	} else {
		options_foreach(c, print_option_name, NULL);
	}
	return EXIT_OK;
}

static const struct cmd_option complete_options[] = {
	{ .name = "value", .type = OPT_STRING, .arg = "OPTION", .offset = offsetof(struct complete_args, value),
	  .help = "the values OPTION of COMMAND takes" },
	{ .name = "operands", .type = OPT_FLAG, .offset = offsetof(struct complete_args, operands),
	  .help = "the operands COMMAND takes" },
	OPT_END,
};

/* Hidden: words for shell completion, one a line. */
const struct command cmd_complete = {
	.name = "__complete",
	.run = complete_run,
	.opts_size = sizeof(struct complete_args),
	.options = complete_options,
	.operands = { .usage = "[COMMAND]", .max = 1 },
	.flags = CMD_HIDDEN,
	.summary = "The words shell completion offers",
};

/* ---- __man: what the man page must say of each command ---- */

static int man_run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	for (size_t i = 0; commands[i]; i++) {
		const struct command *c = commands[i];
		if (!command_listed(c) || (ctx->nargs && !streq(ctx->args[0], c->name)))
			continue;
		printf(".SS %s\n", c->name);
		options_synopsis_roff(c, stdout);
		options_roff_tags(c, stdout);
	}
	return EXIT_OK;
}

/* Hidden: the synopsis and option tags of the man page, in roff, made
 * from the option tables; the test suite checks man/ubtune.1 has them. */
const struct command cmd_man = {
	.name = "__man",
	.run = man_run,
	.operands = { .usage = "[COMMAND]", .max = 1, .complete = COMPLETE_COMMAND },
	.flags = CMD_HIDDEN,
	.summary = "The man page's synopsis and option lines of each command",
};
