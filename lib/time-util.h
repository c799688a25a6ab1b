/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Clocks and time stamps. */

#include <stdint.h>
#include <time.h>

/* Monotonic time in microseconds, and in seconds. */
uint64_t now_usec(void);
double now_s(void);
/* Seconds since boot, suspend included (CLOCK_BOOTTIME): the clock of the
 * kernel log's time stamps. */
double boottime_s(void);
/* A time as "2024-05-01T12:00:00Z" (UTC), or in local time with its
 * offset, "2024-05-01T14:00:00+0200". */
char *iso8601_utc(time_t t);
char *iso8601_local(time_t t);
