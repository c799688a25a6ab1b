/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "background.h"

#include <math.h>

#include "bench/sampler.h"
#include "unixbench/catalogue.h"
#include "lib/util.h"

struct mean {
	double sum, max;
	unsigned n;
};

static void mean_add(struct mean *m, json_object *sample, const char *key)
{
	double v;
	if (!jpath_double(sample, key, &v))
		return;
	m->sum += v;
	m->max = m->n == 0 || v > m->max ? v : m->max;
	m->n++;
}

static json_object *mean_json(const struct mean *m)
{
	return m->n ? json_object_new_double(round(m->sum / m->n * 10) / 10) : NULL;
}

static double mean_of(const struct mean *m)
{
	return m->n ? m->sum / m->n : NAN;
}

/* Tests whose time goes to user space: kernel time during them is not theirs. */
static bool runs_in_user_space(const char *id)
{
	const struct ub_test_info *t = id ? ub_index_test(id) : NULL;
	return t && t->user_space;
}

/* The process named most often as the busiest other one. */
static const char *busiest_of(struct strv *names)
{
	const char *best = NULL;
	size_t best_n = 0;
	for (size_t i = 0; i < names->n; i++) {
		size_t n = 0;
		for (size_t k = 0; k < names->n; k++)
			n += streq(names->v[i], names->v[k]);
		if (n > best_n)
			best = names->v[i], best_n = n;
	}
	return best;
}

static void test_background(json_object *test, int64_t copies, json_object *samples)
{
	const char *id = jpath_str(test, "id");
	struct mean sys = {0}, iowait = {0}, steal = {0}, others = {0};
	struct strv top = {0};
	unsigned n = 0;
	for (size_t i = 0; i < jarr_len(samples); i++) {
		json_object *s = json_object_array_get_idx(samples, i);
		int64_t c;
		if (!streq_ptr(jpath_str(s, "test"), id) || !jpath_int(s, "copies", &c) || c != copies)
			continue;
		n++;
		mean_add(&sys, s, "sys_pct");
		mean_add(&iowait, s, "iowait_pct");
		mean_add(&steal, s, "steal_pct");
		mean_add(&others, s, "others_pct");
		if (jpath_str(s, "others_top"))
			strv_push(&top, jpath_str(s, "others_top"));
	}
	if (!n) {
		strv_free(&top);
		return;
	}
	json_object *b = jchild(test, "background");
	jset_int(b, "samples", n);
	jset(b, "sys_pct", mean_json(&sys));
	jset(b, "iowait_pct", mean_json(&iowait));
	jset(b, "steal_pct", mean_json(&steal));
	jset(b, "others_pct", mean_json(&others));
	jset(b, "others_max_pct", others.n ? json_object_new_double(round(others.max * 10) / 10) : NULL);
	jset_str(b, "busiest", busiest_of(&top));
	json_object *why = json_object_new_array();
	if (mean_of(&others) >= SAMPLER_OTHERS_PCT)
		jarr_add_str(why, "others");
	if (mean_of(&iowait) >= SAMPLER_IOWAIT_PCT)
		jarr_add_str(why, "iowait");
	if (mean_of(&steal) >= SAMPLER_STEAL_PCT)
		jarr_add_str(why, "steal");
	if (runs_in_user_space(id) && mean_of(&sys) >= SAMPLER_SYS_PCT)
		jarr_add_str(why, "sys");
	jset(b, "untrusted", why);
	strv_free(&top);
}

void background_per_test(json_object *rec)
{
	json_object *samples = jpath(rec, "samples"), *runs = jpath(rec, "runs");
	if (!jarr_len(samples))
		return;
	for (size_t r = 0; r < jarr_len(runs); r++) {
		json_object *run = json_object_array_get_idx(runs, r), *tests = jpath(run, "tests");
		int64_t copies;
		if (!jpath_int(run, "copies", &copies))
			continue;
		for (size_t t = 0; t < jarr_len(tests); t++)
			test_background(json_object_array_get_idx(tests, t), copies, samples);
	}
}

char *background_thresholds_text(void)
{
	return xasprintf("a test is untrustworthy when, on average over its samples, other processes use %.0f %% of "
			 "a CPU or more, I/O wait reaches %.0f %% or steal %.0f %% of CPU time, or kernel time "
			 "reaches %.0f %% during Dhrystone or Whetstone (which run in user space)",
			 SAMPLER_OTHERS_PCT, SAMPLER_IOWAIT_PCT, SAMPLER_STEAL_PCT, SAMPLER_SYS_PCT);
}
