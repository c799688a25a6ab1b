/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/random.h>
#include <time.h>

#include "bench/spread.h"
#include "lib/util.h"
#include "unixbench/score.h"

char *result_run_id(void)
{
	uint8_t r[16];
	if (getrandom(r, sizeof(r), 0) != sizeof(r)) {
		/* no entropy source: time and pid still tell runs apart */
		uint64_t a = now_usec() ^ ((uint64_t)time(NULL) << 20), b = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
		memcpy(r, &a, 8);
		memcpy(r + 8, &b, 8);
	}
	struct buf b = {0};
	for (size_t i = 0; i < sizeof(r); i++)
		buf_printf(&b, "%02x", r[i]);
	return buf_steal(&b);
}

json_object *jnum(double v)
{
	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

json_object *result_run_new(unsigned copies)
{
	json_object *run = json_object_new_object();
	jset_int(run, "copies", copies);
	_cleanup_free_ char *now = iso8601_local(time(NULL));
	jset_str(run, "started_at", now);
	jset_null(run, "ended_at");
	jset(run, "tests", json_object_new_array());
	return run;
}

json_object *result_test_new(const struct ub_test_info *t, unsigned passes_planned, const struct strv *argv)
{
	json_object *o = json_object_new_object();
	jset_str(o, "id", t->id);
	jset_str(o, "name", t->name);
	jset_str(o, "unit", t->unit);
	jset_int(o, "timebase", t->timebase);
	jset(o, "baseline", jnum(t->baseline));
	jset_int(o, "passes_planned", passes_planned);
	json_object *cmd = json_object_new_array();
	for (size_t i = 0; i < argv->n; i++)
		jarr_add_str(cmd, argv->v[i]);
	jset(o, "command", cmd);
	jset_bool(o, "complete", false);
	jset_null(o, "error");
	jset(o, "passes", json_object_new_array());
	return o;
}

void result_test_add_pass(json_object *test, const struct pass_outcome *o)
{
	json_object *p = json_object_new_object();
	jset(p, "count", jnum(o->value.count));
	jset_double(p, "time_s", o->value.time);
	jset(p, "timebase", jnum(o->value.timebase));
	jset(p, "rate", jnum(pass_rate(&o->value)));
	jset_bool(p, "dropped", false);
	json_object *copies = json_object_new_array();
	for (unsigned i = 0; i < o->ncopies; i++) {
		const struct copy_outcome *c = &o->copies[i];
		json_object *co = json_object_new_object();
		struct pass_value one = { c->report.count, c->report.has_time && c->report.time > 0 ? c->report.time : c->elapsed,
					  c->report.timebase };
		jset(co, "count", jnum(c->report.count));
		jset(co, "time_s", c->report.has_time ? json_object_new_double(c->report.time) : NULL);
		jset_double(co, "elapsed_s", c->elapsed);
		jset(co, "rate", jnum(pass_rate(&one)));
		jset_int(co, "status", c->status);
		json_object_array_add(copies, co);
	}
	jset(p, "copies", copies);
	json_object_array_add(jpath(test, "passes"), p);
}

/* The passes of a test entry as scoring needs them; NULL when one is malformed. */
static struct pass_value *test_passes(json_object *test, size_t *n)
{
	json_object *passes = jpath(test, "passes");
	*n = jarr_len(passes);
	if (*n == 0)
		return NULL;
	struct pass_value *v = xcalloc(*n, sizeof(*v));
	for (size_t i = 0; i < *n; i++) {
		json_object *p = json_object_array_get_idx(passes, i);
		if (!jpath_double(p, "count", &v[i].count) || !jpath_double(p, "time_s", &v[i].time) ||
		    !jpath_double(p, "timebase", &v[i].timebase)) {
			free(v);
			return NULL;
		}
	}
	return v;
}

static json_object *dispersion_json(const struct pass_value *p, size_t n)
{
	_cleanup_free_ double *rates = xmalloc(n * sizeof(*rates));
	for (size_t i = 0; i < n; i++)
		rates[i] = pass_rate(&p[i]);
	struct dispersion d;
	score_dispersion(rates, n, &d);
	json_object *o = json_object_new_object();
	jset_int(o, "n", (int64_t)n);
	jset(o, "mean", jnum(d.mean));
	jset(o, "median", jnum(d.median));
	jset(o, "stddev", d.has_stddev ? jnum(d.stddev) : NULL);
	jset(o, "cv_pct", d.has_stddev ? jnum(d.cv_pct) : NULL);
	jset(o, "min", jnum(d.min));
	jset(o, "max", jnum(d.max));
	return o;
}

static json_object *pair(double lo, double hi)
{
	json_object *a = json_object_new_array();
	json_object_array_add(a, jnum(lo));
	json_object_array_add(a, jnum(hi));
	return a;
}

void result_score_test(json_object *test)
{
	static const char *const outputs[] = { "result", "time_s", "samples", "index", "dispersion", "ci95" };
	for (size_t i = 0; i < ARRAY_SIZE(outputs); i++)
		jset_null(test, outputs[i]);
	size_t n;
	_cleanup_free_ struct pass_value *p = test_passes(test, &n);
	double baseline;
	bool complete = false;
	jpath_bool(test, "complete", &complete);
	if (!p || !complete || !jpath_double(test, "baseline", &baseline) || baseline <= 0)
		return;

	_cleanup_free_ bool *dropped = xcalloc(n, sizeof(*dropped));
	struct test_score s;
	score_test(p, n, dropped, &s);
	json_object *passes = jpath(test, "passes");
	for (size_t i = 0; i < n; i++)
		jset_bool(json_object_array_get_idx(passes, i), "dropped", dropped[i]);
	jset(test, "result", jnum(s.result));
	jset(test, "time_s", jnum(s.time));
	jset_int(test, "samples", s.kept);
	jset(test, "index", jnum(score_index(s.result, baseline)));
	result_test_spread(test, p, n, baseline);
}

void result_test_spread(json_object *test, const struct pass_value *p, size_t n, double baseline)
{
	jset(test, "dispersion", n ? dispersion_json(p, n) : NULL);
	struct score_input in = { p, n, baseline };
	double lo, hi;
	if (n && baseline > 0 && score_bootstrap(&in, 1, SCORE_BOOTSTRAP_RESAMPLES, SCORE_BOOTSTRAP_SEED, &lo, &hi) == 0)
		jset(test, "ci95", pair(lo * baseline / 10, hi * baseline / 10));
	else
		jset_null(test, "ci95");
}

void result_score_run(json_object *run)
{
	json_object *tests = jpath(run, "tests");
	size_t nt = jarr_len(tests);
	_cleanup_free_ double *index = xcalloc(nt ? nt : 1, sizeof(*index));
	_cleanup_free_ struct score_input *in = xcalloc(nt ? nt : 1, sizeof(*in));
	size_t n = 0;
	for (size_t i = 0; i < nt; i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		size_t np;
		struct pass_value *p;
		if (!jpath_double(t, "index", &index[n]) || !jpath_double(t, "baseline", &in[n].baseline) ||
		    !(p = test_passes(t, &np)))
			continue;
		in[n].passes = p;
		in[n].n = np;
		n++;
	}
	json_object *idx = json_object_new_object();
	jset(idx, "score", n ? jnum(score_overall(index, n)) : NULL);
	jset_bool(idx, "partial", n < UB_NINDEX);
	jset_int(idx, "tests_indexed", (int64_t)n);
	jset_int(idx, "tests_total", UB_NINDEX);
	double lo, hi;
	if (n && score_bootstrap(in, n, SCORE_BOOTSTRAP_RESAMPLES, SCORE_BOOTSTRAP_SEED, &lo, &hi) == 0)
		jset(idx, "ci95", pair(lo, hi));
	else
		jset_null(idx, "ci95");
	jset_str(idx, "ci_method", "percentile bootstrap over passes");
	jset_int(idx, "resamples", SCORE_BOOTSTRAP_RESAMPLES);
	jset_int(idx, "seed", (int64_t)SCORE_BOOTSTRAP_SEED);
	jset(run, "index", idx);
	for (size_t i = 0; i < n; i++)
		free((void *)in[i].passes);
}
