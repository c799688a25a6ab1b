/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Allocation that never returns NULL. */

#include <stdarg.h>
#include <stddef.h>
#include "macro.h"

/* Allocation that aborts on exhaustion: a probe that cannot allocate a few
 * bytes has nothing sensible left to report. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A copy of s, or NULL for NULL. */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) _printf_(1, 2);
char *xvasprintf(const char *fmt, va_list ap) _printf_(1, 0);
