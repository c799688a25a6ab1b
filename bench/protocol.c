/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "protocol.h"

#include <errno.h>
#include <math.h>

#include "lib/util.h"

/* A finite, non-negative number filling the whole field. */
static bool field_number(const char *s, double *out)
{
	return parse_double(s, out) == 0 && isfinite(*out) && *out >= 0;
}

/* Printable form of a line for an error message: control bytes as '?'. */
static char *printable(const char *line)
{
	char *p = xstrdup(line);
	for (char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return p;
}

static int parse_count(char **fields, size_t n, struct copy_report *out)
{
	double count, timebase;
	if (n != 4 || !field_number(fields[1], &count) || !field_number(fields[2], &timebase))
		return -EBADMSG;
	_cleanup_free_ char *unit = xstrdup(fields[3]);
	strstrip(unit);
	if (!*unit || strlen(unit) >= sizeof(out->unit))
		return -EBADMSG;
	out->has_count = true;
	out->count = count;
	out->timebase = timebase;
	strcpy(out->unit, unit);
	return 0;
}

static int parse_line(char *line, struct copy_report *out, char **error)
{
	char *fields[8];
	size_t n = 0;
	for (char *p = line; n < ARRAY_SIZE(fields);) {
		fields[n++] = p;
		p = strchr(p, '|');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n == 1) {
		/* Run treats such a line as the program's error message */
		_cleanup_free_ char *msg = printable(line);
		*error = xasprintf("the program said: %s", msg);
		return -EBADMSG;
	}
	int r = 0;
	if (streq(fields[0], "COUNT")) {
		r = parse_count(fields, n, out);
	} else if (streq(fields[0], "TIME")) {
		double t;
		if (n != 2 || !field_number(fields[1], &t))
			r = -EBADMSG;
		else
			out->has_time = true, out->time = t;
	}
	return r;
}

int protocol_parse(const char *text, size_t len, struct copy_report *out, char **error)
{
	*out = (struct copy_report){0};
	*error = NULL;
	if (memchr(text, '\0', len)) {
		*error = xstrdup("the program wrote a NUL byte on stderr");
		return -EBADMSG;
	}
	_cleanup_free_ char *all = xstrndup(text, len);
	for (char *save = NULL, *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "\r")] = '\0';
		if (!*strstrip(line))
			continue;
		if (strlen(line) > PROTOCOL_LINE_MAX) {
			*error = xasprintf("result line longer than %d bytes", PROTOCOL_LINE_MAX);
			return -EBADMSG;
		}
		_cleanup_free_ char *orig = printable(line);
		int r = parse_line(line, out, error);
		if (r < 0) {
			if (!*error)
				*error = xasprintf("malformed result line '%s'", orig);
			return r;
		}
	}
	if (!out->has_count) {
		*error = xstrdup("no COUNT line in the program's output");
		return -EBADMSG;
	}
	return 0;
}
