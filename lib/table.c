/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "term.h"
#include "util.h"

struct table {
	struct table_column *cols;
	size_t ncols, indent, gap;
	struct strv cells; /* row after row, ncols each */
	char *hint;        /* after the left-out columns */
};

struct table *table_new(const struct table_column *cols, size_t ncols, size_t indent, size_t gap)
{
	struct table *t = xcalloc(1, sizeof(*t));
	t->cols = xcalloc(ncols, sizeof(*cols));
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	for (size_t c = 0; c < ncols; c++)
		t->cols[c].head = cols[c].head ? xstrdup(cols[c].head) : NULL;
	t->ncols = ncols;
	t->indent = indent;
	t->gap = gap;
	return t;
}

void table_set_hint(struct table *t, const char *hint)
{
	free(t->hint);
	t->hint = xstrdup(hint);
}

void table_add(struct table *t, const char *const *cells)
{
	for (size_t c = 0; c < t->ncols; c++)
		strv_push(&t->cells, cells[c] ?: "");
}

void table_addv(struct table *t, ...)
{
	va_list ap;
	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = va_arg(ap, const char *);
		strv_push(&t->cells, s ?: "");
	}
	va_end(ap);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	strv_free(&t->cells);
	free(t->hint);
	for (size_t c = 0; c < t->ncols; c++)
		free((char *)t->cols[c].head);
	free(t->cols);
	free(t);
}

static size_t rows(const struct table *t)
{
	return t->cells.n / t->ncols;
}

static bool has_head(const struct table *t)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].head)
			return true;
	return false;
}

/* The longest word of s, in columns. */
static size_t longest_word(const char *s)
{
	size_t best = 0;
	while (*s) {
		size_t n = strcspn(s, " "), cols = term_columns_n(s, n);
		if (cols > best)
			best = cols;
		s += n;
		s += strspn(s, " ");
	}
	return best;
}

struct layout {
	size_t *width;   /* 0: left out */
	size_t *natural; /* as wide as its widest cell */
	size_t *floor;   /* TABLE_WRAP: the narrowest it gets, its longest word */
	size_t *soft;    /* TABLE_WRAP: the narrowest before columns are left out */
	size_t *hard;    /* TABLE_WRAP: its min where a word is longer, cut */
	size_t *cutsoft; /* hard where words are cut, else soft */
	bool *under;     /* TABLE_UNDER, moved under its rows */
};

/* The width of the table with the columns of l shown. */
static size_t total(const struct table *t, const struct layout *l)
{
	size_t sum = t->indent, shown = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (l->width[c]) {
			sum += l->width[c];
			shown++;
		}
	return sum + (shown ? (shown - 1) * t->gap : 0);
}

static void measure(const struct table *t, struct layout *l)
{
	for (size_t c = 0; c < t->ncols; c++) {
		const char *head = t->cols[c].head ?: "";
		size_t w = term_columns(head), floor = longest_word(head);
		for (size_t r = 0; r < rows(t); r++) {
			const char *s = t->cells.v[r * t->ncols + c];
			size_t cw = term_columns(s), lw = longest_word(s);
			if (cw > w)
				w = cw;
			if (lw > floor)
				floor = lw;
		}
		l->natural[c] = l->width[c] = w ?: 1;
		l->floor[c] = floor < l->natural[c] ? floor : l->natural[c];
		l->soft[c] = t->cols[c].min > l->floor[c] && t->cols[c].min < l->natural[c] ? t->cols[c].min : l->floor[c];
		l->hard[c] = t->cols[c].min && t->cols[c].min < l->floor[c] ? t->cols[c].min : l->floor[c];
		l->cutsoft[c] = l->hard[c] < l->floor[c] ? l->hard[c] : l->soft[c];
	}
}

/* Narrows the shown TABLE_WRAP columns, the last first, until the table
 * fits width or they reach the floors given (l's soft, floor or hard). */
static void narrow(const struct table *t, struct layout *l, size_t width, const size_t *floors)
{
	for (size_t c = t->ncols; c-- > 0;) {
		if (!(t->cols[c].flags & TABLE_WRAP) || !l->width[c])
			continue;
		l->width[c] = l->natural[c];
		size_t sum = total(t, l);
		if (sum <= width)
			continue;
		size_t excess = sum - width;
		l->width[c] = l->natural[c] > floors[c] + excess ? l->natural[c] - excess : floors[c];
	}
}

/* Fills l for width: natural widths, then the wrap columns narrowed to
 * their min, then the columns of the highest drop rank left out together
 * (the others widened again), and so on; at last the wrap columns
 * narrowed to their longest words. */
static size_t lay_out(const struct table *t, struct layout *l, size_t width)
{
	size_t dropped = 0;
	measure(t, l);
	for (;;) {
		narrow(t, l, width, l->soft);
		if (total(t, l) <= width)
			break;
		unsigned rank = 0;
		for (size_t c = 0; c < t->ncols; c++)
			if (l->width[c] && t->cols[c].drop > rank)
				rank = t->cols[c].drop;
		if (!rank) {
			/* the columns holding a word too long are cut before the others
			 * pass their min */
			narrow(t, l, width, l->floor);
			if (total(t, l) > width)
				narrow(t, l, width, l->cutsoft);
			if (total(t, l) > width)
				narrow(t, l, width, l->hard);
			break;
		}
		for (size_t c = 0; c < t->ncols; c++)
			if (l->width[c] && t->cols[c].drop == rank) {
				l->width[c] = 0;
				if (t->cols[c].flags & TABLE_UNDER)
					l->under[c] = true;
				else
					dropped++;
			}
		for (size_t w = 0; w < t->ncols; w++)
			if (l->width[w])
				l->width[w] = l->natural[w];
	}
	return dropped;
}

/* Bytes of s (at its start, spaces skipped before) that fit cols columns,
 * broken at a space where one is; *next is where the rest starts. */
static size_t cut(const char *s, size_t cols, const char **next)
{
	size_t fit = term_fit(s, cols);
	if (!s[fit]) {
		*next = s + fit;
		return fit;
	}
	size_t end = fit;
	if (s[fit] != ' ') {
		while (end > 0 && s[end - 1] != ' ')
			end--;
		if (end == 0)
			end = fit; /* a word longer than the column: cut it */
	}
	*next = s + end;
	while (**next == ' ')
		(*next)++;
	while (end > 0 && s[end - 1] == ' ')
		end--;
	return end;
}

static void put_cell(struct buf *b, const char *s, size_t n, size_t width, bool right)
{
	size_t pad = width - term_columns_n(s, n);
	if (right)
		buf_printf(b, "%*s%.*s", (int)pad, "", (int)n, s);
	else
		buf_printf(b, "%.*s%*s", (int)n, s, (int)pad, "");
}

/* The cells of the columns moved under the row, each on lines of its own
 * from one gap past the second column's start. */
static void print_under(const struct table *t, const struct layout *l, const char *const *row, FILE *out,
			size_t width)
{
	size_t at = t->indent, shown = 0;
	for (size_t c = 0; c < t->ncols && shown < 1; c++)
		if (l->width[c]) {
			at += l->width[c] + t->gap;
			shown++;
		}
	at += t->gap;
	for (size_t c = 0; c < t->ncols; c++) {
		if (!l->under[c] || !*row[c])
			continue;
		fprintf(out, "%*s", (int)at, "");
		term_print_wrapped(out, row[c], at, width);
	}
}

/* One row, over as many lines as its wrapped cells take. */
static void print_row(const struct table *t, const struct layout *l, const char *const *row, FILE *out)
{
	const char **rest = xcalloc(t->ncols, sizeof(char *));
	memcpy(rest, row, t->ncols * sizeof(char *));
	for (bool more = true, first = true; more; first = false) {
		struct buf b = {0};
		buf_printf(&b, "%*s", (int)t->indent, "");
		bool any = false;
		more = false;
		for (size_t c = 0; c < t->ncols; c++) {
			if (!l->width[c])
				continue;
			if (any)
				buf_printf(&b, "%*s", (int)t->gap, "");
			any = true;
			bool right = t->cols[c].flags & TABLE_RIGHT;
			if (t->cols[c].flags & TABLE_WRAP) {
				const char *s = rest[c];
				size_t n = cut(s, l->width[c], &rest[c]);
				put_cell(&b, s, n, l->width[c], right);
				more |= *rest[c] != '\0';
			} else {
				put_cell(&b, first ? row[c] : "", first ? strlen(row[c]) : 0, l->width[c], right);
			}
		}
		while (b.len > 0 && b.s[b.len - 1] == ' ')
			b.s[--b.len] = '\0';
		fprintf(out, "%s\n", b.s ?: "");
		buf_free(&b);
	}
	free(rest);
}

size_t table_print(struct table *t, FILE *out, size_t width)
{
	struct layout l = {
		.width = xcalloc(t->ncols, sizeof(size_t)),
		.natural = xcalloc(t->ncols, sizeof(size_t)),
		.floor = xcalloc(t->ncols, sizeof(size_t)),
		.soft = xcalloc(t->ncols, sizeof(size_t)),
		.hard = xcalloc(t->ncols, sizeof(size_t)),
		.cutsoft = xcalloc(t->ncols, sizeof(size_t)),
		.under = xcalloc(t->ncols, sizeof(bool)),
	};
	size_t dropped = lay_out(t, &l, width);
	if (has_head(t)) {
		const char **head = xcalloc(t->ncols, sizeof(char *));
		for (size_t c = 0; c < t->ncols; c++)
			head[c] = t->cols[c].head ?: "";
		print_row(t, &l, head, out);
		free(head);
	}
	for (size_t r = 0; r < rows(t); r++) {
		const char *const *row = (const char *const *)t->cells.v + r * t->ncols;
		print_row(t, &l, row, out);
		print_under(t, &l, row, out, width);
	}
	if (dropped) {
		struct buf b = {0};
		for (size_t c = 0; c < t->ncols; c++)
			if (!l.width[c] && !l.under[c])
				buf_printf(&b, "%s%s", b.len ? ", " : "", t->cols[c].head ?: "?");
		_cleanup_free_ char *note = xasprintf("(left out to fit %zu columns: %s; %s)", width, b.s,
							     t->hint ?: "--width shows more");
		fprintf(out, "%*s", (int)t->indent, "");
		term_print_wrapped(out, note, t->indent + 1, width);
		buf_free(&b);
	}
	free(l.width);
	free(l.natural);
	free(l.floor);
	free(l.soft);
	free(l.hard);
	free(l.cutsoft);
	free(l.under);
	return dropped;
}
