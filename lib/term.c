/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "term.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util.h"

static enum color_mode color_mode = COLOR_AUTO;
static unsigned width_set;

void term_set_color_mode(enum color_mode m)
{
	color_mode = m;
}

int term_parse_color_mode(const char *s, enum color_mode *out)
{
	if (!strcmp(s, "auto"))
		*out = COLOR_AUTO;
	else if (!strcmp(s, "always"))
		*out = COLOR_ALWAYS;
	else if (!strcmp(s, "never"))
		*out = COLOR_NEVER;
	else
		return -EINVAL;
	return 0;
}

bool term_is_tty(FILE *f)
{
	return isatty(fileno(f)) == 1;
}

bool term_color(FILE *f)
{
	if (color_mode != COLOR_AUTO)
		return color_mode == COLOR_ALWAYS;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	const char *term = getenv("TERM");
	if (term && !strcmp(term, "dumb"))
		return false;
	return term_is_tty(f);
}

void term_set_width(unsigned width)
{
	width_set = width;
}

size_t term_width(FILE *f)
{
	if (width_set)
		return width_set;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env && *env ? strtol(env, &end, 10) : 0;
	if (n > 0 && !*end)
		return n < TERM_WIDTH_MIN ? TERM_WIDTH_MIN : n > TERM_WIDTH_MAX ? TERM_WIDTH_MAX : (size_t)n;
	struct winsize ws;
	if (term_is_tty(f) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < TERM_WIDTH_MIN ? TERM_WIDTH_MIN : ws.ws_col;
	return TERM_WIDTH_DEFAULT;
}

const char *term_esc(FILE *f, const char *esc)
{
	return term_color(f) ? esc : "";
}

size_t term_fit(const char *s, size_t cols)
{
	size_t i = 0, used = 0;
	while (s[i] && used < cols) {
		/* one character: its lead byte and its continuation bytes */
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		used++;
	}
	return i;
}

/* Columns n bytes of UTF-8 take: a character each, a colour escape
 * ("\033[1m") none. */
size_t term_columns_n(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			while (i < n && s[i] != 'm')
				i++;
			continue;
		}
		c += (s[i] & 0xc0) != 0x80;
	}
	return c;
}

size_t term_columns(const char *s)
{
	return term_columns_n(s, strlen(s));
}

/* A word longer than a whole line (a path) in pieces that fit, each but
 * the last ended after a '/' where one is in its second half; returns the
 * bytes of the last piece, left to the caller. */
static size_t print_long_word(FILE *out, const char *p, size_t n, size_t indent, size_t width)
{
	size_t avail = width > indent + 10 ? width - indent : 10;
	while (term_columns_n(p, n) > avail) {
		size_t cut = term_fit(p, avail);
		for (size_t i = cut; i > cut / 2; i--)
			if (p[i - 1] == '/') {
				cut = i;
				break;
			}
		fwrite(p, 1, cut, out);
		fprintf(out, "\n%*s", (int)indent, "");
		p += cut;
		n -= cut;
	}
	return n;
}

/* Writes n bytes of text from column col, broken at its spaces before
 * width, a word longer than a line cut as print_long_word() cuts it;
 * returns the column it ends at. */
static size_t put_words(FILE *out, const char *s, size_t n, size_t indent, size_t width, size_t col)
{
	size_t i = 0;
	bool first = true;
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] != ' ')
			j++;
		size_t w = term_columns_n(s + i, j - i);
		if (indent + w > width) {
			if (col > indent)
				fprintf(out, "\n%*s", (int)indent, "");
			size_t last = print_long_word(out, s + i, j - i, indent, width);
			fwrite(s + j - last, 1, last, out);
			col = indent + term_columns_n(s + j - last, last);
			first = false;
			for (i = j; i < n && s[i] == ' '; i++)
				;
			continue;
		}
		if (!first && col + 1 + w > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(s + i, 1, j - i, out);
		col += w;
		first = false;
		for (i = j; i < n && s[i] == ' '; i++)
			;
	}
	return col;
}

void term_print_items(FILE *out, const char *text, const char *sep, size_t indent, size_t width)
{
	size_t col = indent, seplen = strlen(sep), sepcols = term_columns_n(sep, seplen);
	for (const char *p = text; *p;) {
		const char *next = strstr(p, sep);
		size_t n = next ? (size_t)(next - p) : strlen(p);
		if (p != text && col + sepcols + term_columns_n(p, n) <= width) {
			fputs(sep, out);
			col += sepcols;
		} else if (p != text) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		col = put_words(out, p, n, indent, width, col);
		p += n + (next ? seplen : 0);
	}
	fputc('\n', out);
}


void term_print_wrapped(FILE *out, const char *text, size_t indent, size_t width)
{
	size_t col = indent;
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, " \n"), w = term_columns_n(p, n);
		if (indent + w > width) {
			/* no line holds it: it starts a line, cut into pieces that fit */
			if (col > indent)
				fprintf(out, "\n%*s", (int)indent, "");
			size_t last = print_long_word(out, p, n, indent, width);
			p += n - last;
			n = last;
			w = term_columns_n(p, n);
			col = indent;
		} else if (col > indent && col + 1 + w > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, n, out);
		col += w;
		p += n;
		if (*p == '\n') {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', out);
}

void term_printf_wrapped(FILE *out, size_t indent, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *text = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(out, "%*s", (int)indent, "");
	term_print_wrapped(out, text, indent, term_width(out));
}
