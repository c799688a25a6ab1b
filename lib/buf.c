/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "buf.h"

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

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *s = xvasprintf(fmt, ap);
	va_end(ap);
	buf_puts(b, s);
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
