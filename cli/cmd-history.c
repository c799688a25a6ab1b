/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "command.h"
#include "lib/store.h"

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

/* Each column as wide as its widest cell, so headers sit over their values. */
static void print_table(json_object *list)
{
	static const char *const head[NCOLUMNS] = { "ID", "STARTED", "HOST", "SUITE", "COPIES", "SCORE", "FLAGS" };
	size_t n = jarr_len(list);
	char **cells = xcalloc(n * NCOLUMNS + 1, sizeof(char *));
	size_t width[NCOLUMNS];
	for (size_t c = 0; c < NCOLUMNS; c++)
		width[c] = strlen(head[c]);
	for (size_t i = 0; i < n; i++) {
		row_cells(json_object_array_get_idx(list, i), cells + i * NCOLUMNS);
		for (size_t c = 0; c < NCOLUMNS; c++)
			if (strlen(cells[i * NCOLUMNS + c]) > width[c])
				width[c] = strlen(cells[i * NCOLUMNS + c]);
	}
	for (size_t i = 0; i <= n; i++) {
		const char *const *row = i == 0 ? head : (const char *const *)cells + (i - 1) * NCOLUMNS;
		/* the id right-aligned, the last column not padded */
		printf("%*s", (int)width[0], row[0]);
		for (size_t c = 1; c < NCOLUMNS - 1; c++)
			printf("  %-*s", (int)width[c], row[c]);
		printf("  %s\n", row[NCOLUMNS - 1]);
	}
	for (size_t i = 0; i < n * NCOLUMNS; i++)
		free(cells[i]);
	free(cells);
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	(void)opts;
	_cleanup_json_ json_object *list = NULL;
	int r = store_list(ctx->store, &list);
	if (r < 0)
		return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
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
		"imported, partial, the profile applied, unstable: the result is not to be trusted, see\n"
		"the stability verdict of `ubtune bench --help`).\n",
};
