/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * What ran when: the test and copy count of each stretch of a run, on the
 * clock of the kernel log's time stamps (CLOCK_BOOTTIME), so that what
 * the kernel logged during the run can be placed in the test it
 * interrupted.
 */
struct phase_mark {
	double t;      /* seconds of CLOCK_BOOTTIME from which it holds */
	int test;      /* index into ub_tests; -1: between tests */
	unsigned copies;
};

struct phases {
	struct phase_mark *v;
	size_t n;
};

/* Now (or at time t), test (-1: none) starts with this many copies. */
void phases_mark(struct phases *p, int test, unsigned copies);
void phases_mark_at(struct phases *p, double t, int test, unsigned copies);
/* What ran at time t: false before the first mark. */
bool phases_at(const struct phases *p, double t, int *test, unsigned *copies);
void phases_free(struct phases *p);

/* "during Shell Scripts (8 concurrent), 16 copies" or "between tests". */
char *phase_text(int test, unsigned copies);
