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
#define UB_LINE_MAX (256u << 10)
#define UB_LINES_MAX (1u << 20)

/* How the text was damaged on its way (bits of ub_doc.manglings and ub_lines.manglings). */
enum {
	UB_MANGLE_CRLF = 1 << 0,        /* CR LF or bare CR line ends */
	UB_MANGLE_NBSP = 1 << 1,        /* non-breaking or other Unicode spaces */
	UB_MANGLE_QUOTED = 1 << 2,      /* '>' quote prefixes */
	UB_MANGLE_GLUED = 1 << 3,       /* several lines run together on one */
	UB_MANGLE_WRAPPED = 1 << 4,     /* one line broken over two */
	UB_MANGLE_TYPOGRAPHIC = 1 << 5, /* typographic dashes and quotes */
	UB_MANGLE_CONTROL = 1 << 6,     /* tabs, control characters, bad UTF-8 */
	UB_MANGLE_MAIL = 1 << 7,        /* a mail's quoted-printable or format=flowed */
	UB_MANGLE_LISTED = 1 << 8,      /* every line numbered ("12. ") or bulleted ("- ") */
	UB_MANGLE_CASE = 1 << 9,        /* a word of Run's lines in other letter case ("BenchMark Run:") */
	UB_MANGLE_CELLS = 1 << 10,      /* every line a row of a page's table ("... | |") */
};

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
