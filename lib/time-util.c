/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "time-util.h"

#include <stdbool.h>

#include "alloc.h"

uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static char *iso8601(time_t t, bool utc)
{
	struct tm tm;
	char s[40];
	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	strftime(s, sizeof(s), utc ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%dT%H:%M:%S%z", &tm);
	return xstrdup(s);
}

double now_s(void)
{
	return (double)now_usec() / 1e6;
}

double boottime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *iso8601_utc(time_t t)
{
	return iso8601(t, true);
}

char *iso8601_local(time_t t)
{
	return iso8601(t, false);
}
