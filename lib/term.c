/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum color_mode color_mode = COLOR_AUTO;

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

const char *term_esc(FILE *f, const char *esc)
{
	return term_color(f) ? esc : "";
}

void term_print_wrapped(FILE *out, const char *text, size_t indent, size_t width)
{
	size_t col = indent;
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " \n");
		if (col > indent && col + 1 + w > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
		if (*p == '\n') {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', out);
}
