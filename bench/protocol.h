/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * UnixBench's result protocol, as Run reads a program's stderr: lines
 * `COUNT|<count>|<timebase>|<unit>` and `TIME|<seconds>`, split on '|';
 * when a key repeats the last one wins (fstime prints three pairs, the
 * copy phase's last; context1's child prints a second COUNT). A line with
 * no '|' is an error message from the program. Other keys are ignored.
 */
struct copy_report {
	bool has_count, has_time;
	double count;
	double timebase;
	char unit[16];
	double time; /* TIME, when the program measured its own */
};

/* Lines longer than this are malformed. */
#define PROTOCOL_LINE_MAX 1024

/*
 * Parses a copy's whole stderr (len bytes, need not be NUL-terminated).
 * Returns 0, or -EBADMSG with *error set (caller frees) to a one-line
 * reason: the program's own message, or which line is malformed.
 * A report without a COUNT line is an error too.
 */
int protocol_parse(const char *text, size_t len, struct copy_report *out, char **error);
