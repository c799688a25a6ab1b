/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

void term_set_color_mode(enum color_mode m);
int term_parse_color_mode(const char *s, enum color_mode *out);
/* Colour only on a terminal, never with NO_COLOR set or TERM=dumb,
 * unless --color=always. */
bool term_color(FILE *f);
bool term_is_tty(FILE *f);

#define ANSI_RED "\033[31m"
#define ANSI_YELLOW "\033[33m"
#define ANSI_GREEN "\033[32m"
#define ANSI_BOLD "\033[1m"
#define ANSI_DIM "\033[2m"
#define ANSI_RESET "\033[0m"

/* The escape when colour is on for f, "" otherwise. */
const char *term_esc(FILE *f, const char *esc);

/* The width text output is wrapped to: the one set (--width), else
 * $COLUMNS, else the terminal's when f is one, else 80. */
void term_set_width(unsigned width);
size_t term_width(FILE *f);
#define TERM_WIDTH_DEFAULT 80
#define TERM_WIDTH_MIN 20
#define TERM_WIDTH_MAX 1000

/* The bytes of the longest start of s that fits in cols columns (a
 * character a column), never cutting a UTF-8 sequence: for a line that is
 * redrawn in place, where a wrapped line would not be. */
size_t term_fit(const char *s, size_t cols);

/* Columns a string (or its first n bytes) takes: a character each, a
 * colour escape none. */
size_t term_columns(const char *s);
size_t term_columns_n(const char *s, size_t n);

/* Prints items joined by sep ("a · b · c") from column indent: a line that
 * would pass width is broken between two items (sep dropped there), an
 * item longer than a line at its spaces; continuation lines indented by
 * indent. Columns are counted a character each. */
void term_print_items(FILE *out, const char *text, const char *sep, size_t indent, size_t width);

/* Prints text wrapped at width columns, continuation lines indented
 * by indent; the first line continues the current one at column indent. */
void term_print_wrapped(FILE *out, const char *text, size_t indent, size_t width);
/* A paragraph from column indent, wrapped at the output's width with its
 * continuation lines indented as far. */
void term_printf_wrapped(FILE *out, size_t indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
