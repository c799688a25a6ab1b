/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "parse-number.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/* After a number that took at least one character: only white space. */
static int number_end(const char *start, const char *end)
{
	if (end == start)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -EINVAL : 0;
}

int parse_u64_base(const char *s, int base, uint64_t *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	/* strtoull() would take a sign, and turn "-1" into UINT64_MAX */
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_base(s, 10, out);
}

int parse_s64(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}
