/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Formatted straight into the buffer: no copy per call (exports write
 * millions of small pieces). */
void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	int n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		buf_add(b, "", 0);
		size_t cap = b->cap;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

char *buf_steal(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	*b = (struct buf){0};
	return s;
}

void buf_free(struct buf *b)
{
	free(b->s);
	*b = (struct buf){0};
}
