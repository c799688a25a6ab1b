/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * Welch's unequal-variance t-test of two samples (each n >= 2): the t
 * statistic, the Welch-Satterthwaite degrees of freedom and the two-sided
 * p-value. When both samples have no spread at all the means either are
 * equal (p = 1) or differ for sure (p = 0). -EINVAL for fewer than two
 * values in a sample.
 */
struct welch {
	double t, df, p;
};
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double stats_t_pvalue(double t, double df);
/* The regularized incomplete beta function I_x(a, b). */
double stats_betai(double a, double b, double x);
