/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Text built piece by piece. */

#include <stddef.h>
#include "macro.h"

/* A growable byte buffer that always holds a terminating NUL. */
struct buf {
	char *s;
	size_t len, cap;
};
void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) _printf_(2, 3);
char *buf_steal(struct buf *b);
void buf_free(struct buf *b);
