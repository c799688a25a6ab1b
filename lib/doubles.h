/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/* Sorts v ascending in place (NaNs compare equal to everything: leave them out first). */
void doubles_sort(double *v, size_t n);

/* The median of n sorted values; NAN when n is 0. */
double doubles_median_sorted(const double *s, size_t n);
