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

static int by_count(const void *a, const void *b, void *passes)
{
	const struct pass_value *p = passes;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = p[i].count, y = p[j].count;
	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

int score_resampler_init(struct score_resampler *s, const struct pass_value *p, size_t n)
{
	*s = (struct score_resampler){ .n = n };
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i].count))
			return -EINVAL;
	s->rank = xmalloc(n * sizeof(*s->rank));
	s->lograte = xmalloc(n * sizeof(*s->lograte));
	s->at = xmalloc((n + 1) * sizeof(*s->at));
	s->order = xmalloc(n * sizeof(*s->order));
	for (size_t i = 0; i < n; i++) {
		s->order[i] = i;
		s->lograte[i] = pass_log_rate(&p[i]);
	}
	qsort_r(s->order, n, sizeof(*s->order), by_count, (void *)p);
	for (size_t k = 0; k < n; k++) {
		/* equal as score_test()'s comparison sees them (0 and -0 too) */
		if (k > 0 && p[s->order[k]].count != p[s->order[k - 1]].count)
			s->nclass++;
		s->rank[s->order[k]] = s->nclass;
	}
	s->nclass++;
	return 0;
}

double score_resample(struct score_resampler *s, const size_t *draw)
{
	size_t n = s->n;
	memset(s->at, 0, (s->nclass + 1) * sizeof(*s->at));
	for (size_t k = 0; k < n; k++)
		s->at[s->rank[draw[k]] + 1]++;
	for (size_t c = 1; c <= s->nclass; c++)
		s->at[c] += s->at[c - 1];
	for (size_t k = 0; k < n; k++)
		s->order[s->at[s->rank[draw[k]]]++] = draw[k];
	size_t ndrop = n / 3;
	double logsum = 0;
	for (size_t k = ndrop; k < n; k++)
		logsum += s->lograte[s->order[k]];
	return exp(logsum / (double)(n - ndrop));
}

void score_resampler_free(struct score_resampler *s)
{
	free(s->rank);
	free(s->lograte);
	free(s->at);
	free(s->order);
	*s = (struct score_resampler){0};
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
