/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"

#include <errno.h>

#include "term.h"

#define PREFIX "ubtune: "

/* A message a line; on a terminal wrapped at its width, its continuation
 * lines under its start (in a log or a pipe it stays one line: grep finds it). */
static void vlog(const char *level, const char *color, const char *fmt, va_list ap)
{
	int saved = errno;
	_cleanup_free_ char *msg = xvasprintf(fmt, ap); /* %m: errno as it came */
	_cleanup_free_ char *text = xasprintf("%s%s%s%s", term_esc(stderr, color), level ?: "", msg,
					      term_esc(stderr, *color ? ANSI_RESET : ""));
	fputs(PREFIX, stderr);
	if (term_is_tty(stderr))
		term_print_wrapped(stderr, text, strlen(PREFIX), term_width(stderr));
	else
		fprintf(stderr, "%s\n", text);
	errno = saved;
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
