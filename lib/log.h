/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "util.h"

/* Messages for the person at the terminal, on stderr, prefixed with
 * "ubtune: ". log_error_errno() sets errno from a negative error code so
 * that %m names it, and returns that code. */
void log_error(const char *fmt, ...) _printf_(1, 2);
void log_warning(const char *fmt, ...) _printf_(1, 2);
void log_info(const char *fmt, ...) _printf_(1, 2);
int log_error_errno(int r, const char *fmt, ...) _printf_(2, 3);

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,     /* the command could not do its work */
	EXIT_USAGE = 2,    /* bad command line or input file */
	EXIT_FINDINGS = 3, /* --strict: warnings or worse were found */
};
