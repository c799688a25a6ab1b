/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/* A test UnixBench knows: its id in Run, its report name, unit, category
 * and, for indexed tests, the baseline of pgms/index.base. */
struct ub_test_info {
	const char *id;
	const char *name;
	const char *unit;
	const char *category; /* "system", "misc", "2d", "3d" */
	double baseline;      /* 0: not indexed */
};

const struct ub_test_info *ub_test_by_name(const char *name);
/* The i-th entry of the table, NULL past its end. */
const struct ub_test_info *ub_test_at(size_t i);
