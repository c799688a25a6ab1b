/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * The first stage of reading UnixBench output: bytes to clean logical
 * lines. HTML becomes text (tags to line breaks, cells to spaces, entities
 * decoded); Unicode spaces, typographic dashes and quotes become ASCII;
 * '>' quote prefixes go; lines glued together are cut where a line
 * UnixBench writes begins. Every line remembers the input line it came
 * from, so problems can name it.
 */
struct ub_line {
	char *s;
	unsigned src; /* 1-based line of the input */
};

struct ub_lines {
	struct ub_line *v;
	size_t n, cap;
	unsigned manglings; /* UB_MANGLE_* */
	bool html;
	unsigned long_line;  /* the first line cut at UB_LINE_MAX, 0: none */
	bool too_many;       /* stopped at UB_LINES_MAX lines */
};

/* 0, or -EBADMSG for binary data (NUL bytes). */
int ub_text_lines(const char *data, size_t len, struct ub_lines *out);
void ub_lines_free(struct ub_lines *l);

/* One line's bytes to clean ASCII-leaning UTF-8 (see above); adds to
 * *manglings what it had to repair. At most UB_LINE_MAX bytes are kept. */
char *ub_clean(const char *s, size_t n, unsigned *manglings);

/* Decodes one UTF-8 sequence at s (n bytes left) into *cp; returns its
 * length, 0 when it is not valid UTF-8 (overlong, surrogate, cut short). */
size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp);
