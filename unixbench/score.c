/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "unixbench/score.h"

#include <errno.h>
#include <math.h>

#include "lib/util.h"

double pass_rate(const struct pass_value *p)
{
	if (p->timebase > 0 && p->time > 0)
		return p->count / (p->time / p->timebase);
	return p->count;
}

/* Run adds log(count) - log(time / timebase), or nothing for a zero count. */
static double pass_log_rate(const struct pass_value *p)
{
	if (p->count <= 0)
		return 0;
	return log(pass_rate(p));
}

int score_test(const struct pass_value *p, size_t n, bool *dropped, struct test_score *out)
{
	if (n == 0)
		return -EINVAL;
	/* Insertion sort of indexes by count: stable, and n is at most a few dozen. */
	_cleanup_free_ size_t *order = xmalloc(n * sizeof(*order));
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		for (; j > 0 && p[order[j - 1]].count > p[i].count; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	size_t ndrop = n / 3;
	double logsum = 0, time = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		if (dropped)
			dropped[i] = k < ndrop;
		if (k < ndrop)
			continue;
		logsum += pass_log_rate(&p[i]);
		time += p[i].time;
	}
	size_t kept = n - ndrop;
	*out = (struct test_score){
		.result = exp(logsum / (double)kept),
		.time = time / (double)kept,
		.kept = (unsigned)kept,
	};
	return 0;
}

double score_index(double result, double baseline)
{
	return 10.0 * result / baseline;
}

double score_overall(const double *index, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		double ratio = index[i] / 10.0;
		if (ratio > 0.000001)
			sum += log(ratio);
	}
	return 10.0 * exp(sum / (double)n);
}
