/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "command.h"
#include "lib/store.h"
#include "lib/table.h"
#include "lib/term.h"

static const struct cmd_option options[] = {
	OPT_JSON("print the list as JSON"),
	OPT_END,
};

/* "1,2" or "345.6, 610.2": the members of a summary list joined. */
static char *joined(json_object *a, bool numbers)
{
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *sep = i ? ", " : "";
		if (!v)
			buf_printf(&b, "%s-", sep);
		else if (numbers)
			buf_printf(&b, "%s%.1f", sep, json_object_get_double(v));
		else
			buf_printf(&b, "%s%s", sep, json_object_get_string(v));
	}
	return b.s ? buf_steal(&b) : xstrdup("-");
}

#define NCOLUMNS 7

/* The cells of one row of the table. */
static void row_cells(json_object *e, char **cells)
{
	int64_t id = 0;
	jpath_int(e, "id", &id);
	const char *started = jpath_str(e, "started_at") ?: "?";
	/* "2026-01-01T12:00:00+0100" shown as "2026-01-01 12:00" */
	char when[17];
	snprintf(when, sizeof(when), "%s", started);
	if (strlen(when) > 10 && when[10] == 'T')
		when[10] = ' ';
	cells[0] = xasprintf("%" PRId64, id);
	cells[1] = xstrdup(when);
	cells[2] = xstrdup(jpath_str(e, "host") ?: "?");
	cells[3] = xstrdup(jpath_str(e, "suite") ?: "?");
	cells[4] = joined(jpath(e, "copies"), false);
	cells[5] = joined(jpath(e, "scores"), true);
	cells[6] = jarr_len(jpath(e, "flags")) ? joined(jpath(e, "flags"), false) : xstrdup("");
}

/* Headers sit over their values; narrower than the table, the suite, the
 * flags and the scores wrap between their items, then the start
 * time is left out. */
static void print_table(json_object *list)
{
	static const struct table_column cols[NCOLUMNS] = {
		{ .head = "ID", .flags = TABLE_RIGHT },
		{ .head = "STARTED", .drop = 1 },
		{ .head = "HOST" },
		{ .head = "SUITE", .flags = TABLE_WRAP },
		{ .head = "COPIES" },
		{ .head = "SCORE", .flags = TABLE_WRAP },
		{ .head = "FLAGS", .flags = TABLE_WRAP },
	};
	struct table *t = table_new(cols, NCOLUMNS, 0, 2);
	for (size_t i = 0; i < jarr_len(list); i++) {
		char *cells[NCOLUMNS];
		row_cells(json_object_array_get_idx(list, i), cells);
		table_add(t, (const char *const *)cells);
		for (size_t c = 0; c < NCOLUMNS; c++)
			free(cells[c]);
	}
	table_print(t, stdout, term_width(stdout));
	table_free(t);
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	_cleanup_json_ json_object *list = NULL;
	int r = store_list(ctx->store, &list);
	if (r < 0)
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
	/* the text shows what a terminal would act on in a record's strings, visible */
	if (!ctx->json)
		json_escape_controls(list);
	if (ctx->json)
		printf("%s\n", jdump(list, true));
	else if (jarr_len(list) == 0)
		printf("No results yet: run `ubtune bench`.\n");
	else
		print_table(list);
	return command_flush("the list") < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct command cmd_history = {
	.name = "history",
	.run = run,
	.options = options,
	.flags = CMD_STORE,
	.summary = "List the stored results",
	.notes = "Columns: id (for show, export, compare; 'last' and 'last~N' work too), start time,\n"
		"host, suite, copy counts, the index score of each, and flags (quick, incomplete,\n"
		"imported, partial, the profile applied; unstable: the result is not to be trusted,\n"
		"unjudged: its stability could not be judged, see the stability verdict of\n"
		"`ubtune bench --help`).\n",
};
