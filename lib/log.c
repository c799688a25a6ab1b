/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"

#include <errno.h>

#include "term.h"

static void vlog(const char *level, const char *color, const char *fmt, va_list ap)
{
	int saved = errno;
	fprintf(stderr, "ubtune: %s", term_esc(stderr, color));
	if (level)
		fputs(level, stderr);
	errno = saved;
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", term_esc(stderr, *color ? ANSI_RESET : ""));
}

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog(NULL, ANSI_RED, fmt, ap);
	va_end(ap);
}

void log_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog("warning: ", ANSI_YELLOW, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog(NULL, "", fmt, ap);
	va_end(ap);
}

int log_error_errno(int r, const char *fmt, ...)
{
	va_list ap;
	errno = r < 0 ? -r : r;
	va_start(ap, fmt);
	vlog(NULL, ANSI_RED, fmt, ap);
	va_end(ap);
	return r;
}
