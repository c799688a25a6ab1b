/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics of a comparison: sample summaries and Welch's t-test. */
#include "analysis/stats.h"

#include <errno.h>
#include <math.h>

#include "bench/spread.h"
#include "lib/util.h"

#define BETA_ITERATIONS 300
#define BETA_EPS 1e-15
#define BETA_TINY 1e-300

/* The continued fraction of the incomplete beta function, evaluated with
 * the modified Lentz method. */
static double beta_fraction(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < BETA_TINY)
		d = BETA_TINY;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= BETA_ITERATIONS; m++) {
		double m2 = 2.0 * m;
		/* the even step */
		double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < BETA_TINY ? 1 / BETA_TINY : 1 / d;
		c = fabs(c) < BETA_TINY ? BETA_TINY : c;
		h *= d * c;
		/* the odd step */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < BETA_TINY ? 1 / BETA_TINY : 1 / d;
		c = fabs(c) < BETA_TINY ? BETA_TINY : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < BETA_EPS)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* the fraction converges fast on this side; use the symmetry otherwise */
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * beta_fraction(a, b, x) / a;
	return 1 - exp(lfront) * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out)
{
	if (na < 2 || nb < 2)
		return -EINVAL;
	struct dispersion sa, sb;
	score_dispersion(a, na, &sa);
	score_dispersion(b, nb, &sb);
	double va = sa.stddev * sa.stddev / (double)na, vb = sb.stddev * sb.stddev / (double)nb;
	double diff = sb.mean - sa.mean;
	if (va + vb == 0) {
		*out = (struct welch){ diff == 0 ? 0 : copysign(INFINITY, diff), (double)(na + nb - 2), diff == 0 ? 1 : 0 };
		return 0;
	}
	out->t = diff / sqrt(va + vb);
	out->df = (va + vb) * (va + vb) /
		  (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	out->p = stats_t_pvalue(out->t, out->df);
	return 0;
}
