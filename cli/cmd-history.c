/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "command.h"
#include "lib/store.h"

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* "1,2" or "345.6, 610.2": the members of a summary list joined. */
static char *joined(json_object *a, bool numbers)
{
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *sep = i ? (numbers ? ", " : ",") : "";
		if (!v)
			buf_printf(&b, "%s-", sep);
		else if (numbers)
			buf_printf(&b, "%s%.1f", sep, json_object_get_double(v));
		else
			buf_printf(&b, "%s%s", sep, json_object_get_string(v));
	}
	return b.s ? buf_steal(&b) : xstrdup("-");
}

static void print_table(json_object *list)
{
	printf("%4s  %-16s  %-16s  %-14s  %-8s  %-16s  %s\n", "ID", "STARTED", "HOST", "SUITE", "COPIES", "SCORE",
	       "FLAGS");
	for (size_t i = 0; i < jarr_len(list); i++) {
		json_object *e = json_object_array_get_idx(list, i);
		int64_t id = 0;
		jpath_int(e, "id", &id);
		const char *started = jpath_str(e, "started_at") ?: "?";
		/* "2026-01-01T12:00:00+0100" shown as "2026-01-01 12:00" */
		char when[17];
		snprintf(when, sizeof(when), "%s", started);
		if (strlen(when) > 10 && when[10] == 'T')
			when[10] = ' ';
		_cleanup_free_ char *copies = joined(jpath(e, "copies"), false);
		_cleanup_free_ char *scores = joined(jpath(e, "scores"), true);
		_cleanup_free_ char *flags = jpath_len(e, "flags") ? joined(jpath(e, "flags"), false) : xstrdup("");
		printf("%4" PRId64 "  %-16s  %-16s  %-14s  %-8s  %-16s  %s\n", id, when, jpath_str(e, "host") ?: "?",
		       jpath_str(e, "suite") ?: "?", copies, scores, flags);
	}
}

static int run(int argc, char **argv)
{
	bool json = false;
	int opt, code;
	while ((opt = command_getopt(&cmd_history, argc, argv, "+h", &code)) != -1) {
		if (opt != 'j')
			return code;
		json = true;
	}
	if (optind < argc)
		return command_usage_error(&cmd_history, "unexpected argument '%s'", argv[optind]);

	_cleanup_store_ struct store *s = NULL;
	_cleanup_free_ char *error = NULL;
	_cleanup_json_ json_object *list = NULL;
	if (store_open_state(&s, &error) < 0)
		return log_error("%s", error), EXIT_FAIL;
	int r = store_list(s, &list);
	if (r < 0)
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
	if (json)
		printf("%s\n", jdump(list, true));
	else if (jarr_len(list) == 0)
		printf("No results yet: run `ubtune bench`.\n");
	else
		print_table(list);
	return command_flush("the list") < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_history = {
	.name = "history",
	.run_argv = run,
	.args = "[--json]",
	.summary = "List the stored results",
	.help = "Options:\n"
		"  --json           print the list as JSON\n"
		"  -h, --help       show this help\n\n"
		"Columns: id (for show, export, compare; 'last' and 'last~N' work too), start time,\n"
		"host, suite, copy counts, the index score of each, and flags (quick, incomplete,\n"
		"imported, partial, the profile applied).\n",
	.longopts = options,
};
