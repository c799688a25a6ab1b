/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once
/* Text tables that fit a width: every column as wide as its widest cell
 * (counted in characters, colour escapes none), headers over their values. When
 * the rows pass the width, the table gives way in this order, as lscpu
 * and ps do:
 *   1. the columns marked TABLE_WRAP (a name, a description, a list),
 *      the last first, narrow down to their min and their cells wrap at
 *      their spaces onto continuation lines;
 *   2. columns with a drop rank are left out, the highest rank first and
 *      the columns of one rank together, and a line under the table
 *      names them;
 *   3. the TABLE_WRAP columns narrow on, down to the longest word they
 *      hold, and then, where a word is longer than their min (a path),
 *      down to their min, the word cut.
 * A column marked TABLE_UNDER gives way in step 2 by moving instead of
 * being left out: its cell goes on lines of its own under its row,
 * wrapped to the width, from one gap past the start of the row's second
 * column (a reason under the thing it explains).
 * Numbers are never wrapped: a column not marked TABLE_WRAP keeps its
 * cells whole (a word longer than a wrapped column is cut). A table that
 * still does not fit is printed as it is. */

#include <stddef.h>
#include <stdio.h>

enum {
	TABLE_RIGHT = 1 << 0,    /* right-aligned (numbers), else left */
	TABLE_WRAP = 1 << 1,     /* a text column that narrows */
	TABLE_UNDER = 1 << 2,    /* with a drop rank: goes under its row rather than out */
};

struct table_column {
	const char *head;
	unsigned flags;
	size_t min;    /* TABLE_WRAP: the narrowest it gets before columns are left out, and at last */
	unsigned drop; /* rank of leaving it out when the table cannot fit, 1 last; 0: never */
};

struct table;

/* A table of ncols columns (copied, heads too), each gap columns apart, every line starting
 * with indent spaces. */
struct table *table_new(const struct table_column *cols, size_t ncols, size_t indent, size_t gap);
/* What the line naming the left-out columns ends with (copied; default
 * "--width shows more"). */
void table_set_hint(struct table *t, const char *hint);
/* Adds a row: ncols cells, copied (NULL prints as ""). */
void table_add(struct table *t, const char *const *cells);
/* Adds a row of ncols cells given as arguments. */
void table_addv(struct table *t, ...);
/* Prints the header (unless every head is NULL) and the rows; returns
 * how many columns were left out (not those moved under their rows). */
size_t table_print(struct table *t, FILE *out, size_t width);
void table_free(struct table *t);
