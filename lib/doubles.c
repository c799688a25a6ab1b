/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lib/doubles.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void doubles_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double doubles_median_sorted(const double *s, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
