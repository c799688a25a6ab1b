/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fleet record: hosts × tests per copy count, the fleet's median and
 * spread, the outliers with the facts and causes that explain them. */
#include "analysis/fleet.h"

#include <inttypes.h>
#include <math.h>

#include "lib/doubles.h"
#include "lib/util.h"

/* ---- the rule ---- */

/* The finite values of v, sorted, in a new array. */
static double *sorted_values(const double *v, size_t n, size_t *k)
{
	double *s = xcalloc(n ? n : 1, sizeof(*s));
	*k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			s[(*k)++] = v[i];
	doubles_sort(s, *k);
	return s;
}

double fleet_median(const double *v, size_t n)
{
	size_t k;
	_cleanup_free_ double *s = sorted_values(v, n, &k);
	return doubles_median_sorted(s, k);
}

void fleet_stats(const double *v, size_t n, struct fleet_stats *st)
{
	size_t k;
	_cleanup_free_ double *s = sorted_values(v, n, &k);
	*st = (struct fleet_stats){ .n = k, .median = NAN, .mad = NAN, .sigma = NAN, .low = NAN, .high = NAN,
				    .min = NAN, .max = NAN };
	if (!k)
		return;
	st->median = doubles_median_sorted(s, k);
	st->min = s[0];
	st->max = s[k - 1];
	_cleanup_free_ double *dev = xcalloc(k, sizeof(*dev));
	for (size_t i = 0; i < k; i++)
		dev[i] = fabs(s[i] - st->median);
	doubles_sort(dev, k);
	st->mad = doubles_median_sorted(dev, k);
	if (st->median <= 0)
		return;
	/* the spread of the ratios to the median: a score or a rate varies by
	 * a factor, and a host twice as fast is as far off as one half as fast */
	double centre = log(st->median);
	for (size_t i = 0; i < k; i++)
		dev[i] = s[i] > 0 ? fabs(log(s[i]) - centre) : INFINITY;
	doubles_sort(dev, k);
	st->sigma = FLEET_MAD_SCALE * doubles_median_sorted(dev, k);
	if (!isfinite(st->sigma))
		return;
	double reach = fmax(FLEET_K * st->sigma, log1p(FLEET_MIN_PCT / 100));
	st->low = st->median * exp(-reach);
	st->high = st->median * exp(reach);
	st->judged = k >= FLEET_MIN_HOSTS;
}

int fleet_outlier(const struct fleet_stats *s, double v)
{
	if (!s->judged || !isfinite(v))
		return 0;
	return v < s->low ? -1 : v > s->high ? 1 : 0;
}

/* ---- which results ---- */

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void fleet_latest(json_object *list, bool by_copies, int64_t **ids, size_t *n)
{
	size_t len = jarr_len(list), keys_n = 0;
	/* one key per host (and copy count), with the highest id seen */
	struct strv keys = {0};
	int64_t *best = xcalloc(len * 16 + 1, sizeof(*best));
	for (size_t i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(list, i);
		int64_t id;
		if (!jpath_int(e, "id", &id))
			continue;
		const char *host = jpath_str(e, "host") ?: "";
		json_object *copies = jpath(e, "copies");
		size_t nc = by_copies ? jarr_len(copies) : 1;
		for (size_t c = 0; c < nc && c < 16; c++) {
			_cleanup_free_ char *key = by_copies ? xasprintf("%s\n%" PRId64, host,
									 json_object_get_int64(json_object_array_get_idx(copies, c)))
							     : xstrdup(host);
			size_t k = 0;
			while (k < keys.n && !streq(keys.v[k], key))
				k++;
			if (k == keys.n) {
				strv_push(&keys, key);
				best[keys_n++] = id;
			} else if (id > best[k]) {
				best[k] = id;
			}
		}
	}
	strv_free(&keys);
	qsort(best, keys_n, sizeof(*best), cmp_id);
	size_t u = 0;
	for (size_t i = 0; i < keys_n; i++)
		if (!u || best[u - 1] != best[i])
			best[u++] = best[i];
	*ids = best;
	*n = u;
}

/* ---- the view ---- */

struct fleet {
	const struct fleet_input *in;
	struct result_env *res;   /* the inputs decoded */
	size_t n;
	char **labels;            /* host names, made unique */
	struct diag_refs *refs;
	json_object **diagnosis;  /* per input, made when first needed */
	size_t nsections;
	json_object *outliers;    /* the flat list */
};

static unsigned run_copies(const struct result_run *run)
{
	int64_t c = int_or(run->copies, 0);
	return c > 0 && c <= 1 << 20 ? (unsigned)c : 0;
}

static const struct result_run *run_with_copies(const struct result_record *r, unsigned copies)
{
	for (size_t k = 0; k < r->runs.n; k++)
		if (run_copies(&r->runs.v[k]) == copies)
			return &r->runs.v[k];
	return NULL;
}

/* "b7", or "b7 (result 12)" when the host gives several results. */
static void make_labels(struct fleet *f)
{
	f->labels = xcalloc(f->n, sizeof(*f->labels));
	for (size_t i = 0; i < f->n; i++) {
		const char *host = f->res[i].r.host ?: "unknown host";
		size_t same = 0;
		for (size_t j = 0; j < f->n; j++)
			same += streq(f->res[j].r.host ?: "unknown host", host);
		f->labels[i] = same > 1 ? xasprintf("%s (%s)", host, f->in[i].source) : xstrdup(host);
	}
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* Every copy count of the results, ascending; at most max. */
static size_t all_copies(const struct fleet *f, unsigned *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct result_record *r = &f->res[i].r;
		for (size_t k = 0; k < r->runs.n; k++) {
			unsigned c = run_copies(&r->runs.v[k]);
			bool seen = !c;
			for (size_t j = 0; j < n && !seen; j++)
				seen = out[j] == c;
			if (!seen && n < max)
				out[n++] = c;
		}
	}
	qsort(out, n, sizeof(*out), cmp_unsigned);
	return n;
}

/* Test ids of the runs: the index tests in UnixBench's order, then others. */
static void section_tests(const struct result_run *const *runs, size_t n, struct strv *ids)
{
	for (int t = 0; t < DIAG_NTESTS; t++)
		for (size_t i = 0; i < n; i++)
			if (result_run_test(runs[i], ub_tests[t].id) && !strv_contains(ids, ub_tests[t].id))
				strv_push(ids, ub_tests[t].id);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < runs[i]->tests.n; k++) {
			const char *id = runs[i]->tests.v[k].id;
			if (id && !strv_contains(ids, id))
				strv_push(ids, id);
		}
}

/* Diagnose's report of input i, compared with the published runs and the
 * other hosts of the fleet. */
static json_object *diagnosis_of(struct fleet *f, size_t i)
{
	if (f->diagnosis[i])
		return f->diagnosis[i];
	struct diag_case c;
	_cleanup_free_ char *error = NULL, *group = xasprintf("fleet %s", f->labels[i]);
	if (diag_case_init(&c, f->in[i].rec, f->refs, group, &error) < 0)
		return NULL;
	f->diagnosis[i] = diagnose(&c);
	diag_case_free(&c);
	return f->diagnosis[i];
}

/* The causes diagnose gives for test id (NULL: the index score). */
static json_object *causes_for(struct fleet *f, size_t i, const char *id)
{
	json_object *out = json_object_new_array();
	json_object *causes = jpath(diagnosis_of(f, i), "causes");
	for (size_t k = 0; k < jarr_len(causes); k++) {
		json_object *c = json_object_array_get_idx(causes, k);
		json_object *affects = jpath(c, "affects");
		bool hit = !id;
		for (size_t a = 0; a < jarr_len(affects) && !hit; a++)
			hit = streq_ptr(json_object_get_string(json_object_array_get_idx(affects, a)), id);
		if (!hit)
			continue;
		json_object *o = json_object_new_object();
		jset_str(o, "id", jpath_str(c, "id"));
		jset_str(o, "title", jpath_str(c, "title"));
		jset_str(o, "confidence", jpath_str(c, "confidence"));
		jset_str(o, "reason", jpath_str(c, "reason"));
		json_object_array_add(out, o);
	}
	return out;
}

/* One row of a section: a test (or the score) over its hosts. */
struct row {
	const char *id;        /* NULL: the index score */
	const char *name, *label;
	double *v;             /* per host of the section, NAN: none */
	size_t n;
	const size_t *hosts;   /* input index of each */
	unsigned copies;
	bool several_sections;
};

/* "host b7 scores 22 % below its 19 peers in File Copy 1024: its workdir
 * is on ext4 on a rotating disk, theirs on tmpfs" */
static char *sentence(const char *host, double pct, size_t npeers, const struct row *r, json_object *diffs)
{
	struct buf b = {0};
	buf_printf(&b, "host %s scores %.0f %% %s its %zu peer%s in %s", host, fabs(pct), pct < 0 ? "below" : "above",
		   npeers, npeers == 1 ? "" : "s", r->label);
	if (r->several_sections)
		buf_printf(&b, " (%u cop%s)", r->copies, r->copies == 1 ? "y" : "ies");
	json_object *top = json_object_array_get_idx(diffs, 0);
	if (top)
		buf_printf(&b, ": %s, %s", jpath_str(top, "own"), jpath_str(top, "theirs"));
	else
		buf_puts(&b, "; no recorded fact sets it apart");
	return buf_steal(&b);
}

static json_object *outlier_json(struct fleet *f, const struct row *r, const struct fleet_stats *st, size_t k,
				 int dir)
{
	size_t i = r->hosts[k], npeers = 0;
	const struct result_env **peers = xcalloc(r->n, sizeof(*peers));
	double *pv = xcalloc(r->n, sizeof(*pv));
	for (size_t j = 0; j < r->n; j++)
		if (j != k && isfinite(r->v[j]) && !fleet_outlier(st, r->v[j])) {
			pv[npeers] = r->v[j];
			peers[npeers++] = &f->res[r->hosts[j]];
		}
	double peers_median = fleet_median(pv, npeers), pct = (r->v[k] / peers_median - 1) * 100;
	int t = r->id ? diag_test_lookup(r->id) : -1;
	json_object *o = json_object_new_object();
	jset_str(o, "host", f->labels[i]);
	jset_int(o, "result", (int64_t)i);
	jset_double(o, "value", r->v[k]);
	jset_str(o, "direction", dir < 0 ? "low" : "high");
	jset_round(o, "pct", pct, 1);
	jset(o, "robust_z", st->sigma > 0 && r->v[k] > 0
				    ? json_object_new_double(round(log(r->v[k] / st->median) / st->sigma * 100) / 100)
				    : NULL);
	jset_int(o, "peers", (int64_t)npeers);
	jset_round(o, "peers_median", peers_median, 2);
	json_object *diffs = fleet_differences(&f->res[i], peers, npeers, t);
	_cleanup_free_ char *s = sentence(f->labels[i], pct, npeers, r, diffs);
	jset(o, "differences", diffs);
	jset(o, "causes", causes_for(f, i, r->id));
	jset_str(o, "sentence", s);

	json_object *flat = json_object_new_object();
	jset_str(flat, "host", f->labels[i]);
	jset_int(flat, "copies", r->copies);
	jset_str(flat, "test", r->id ? r->id : "score");
	jset_str(flat, "name", r->name);
	jset_str(flat, "direction", dir < 0 ? "low" : "high");
	jset_round(flat, "pct", pct, 1);
	jset_str(flat, "sentence", s);
	json_object_array_add(f->outliers, flat);
	free(peers);
	free(pv);
	return o;
}

static json_object *stats_json(const struct fleet_stats *s)
{
	json_object *o = json_object_new_object();
	jset_int(o, "n", (int64_t)s->n);
	json_object *nums[] = {
		isfinite(s->median) ? json_object_new_double(s->median) : NULL,
		isfinite(s->mad) ? json_object_new_double(s->mad) : NULL,
		isfinite(s->sigma) ? json_object_new_double(round(s->sigma * 1000) / 10) : NULL,
		isfinite(s->low) ? json_object_new_double(s->low) : NULL,
		isfinite(s->high) ? json_object_new_double(s->high) : NULL,
		isfinite(s->min) ? json_object_new_double(s->min) : NULL,
		isfinite(s->max) ? json_object_new_double(s->max) : NULL,
	};
	static const char *const keys[] = { "median", "mad", "spread_pct", "low", "high", "min", "max" };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		jset(o, keys[i], nums[i]);
	jset_bool(o, "judged", s->judged);
	return o;
}

static json_object *row_json(struct fleet *f, const struct row *r, const char *unit, const char *basis)
{
	json_object *o = json_object_new_object(), *values = json_object_new_array();
	jset_str(o, "id", r->id ? r->id : "score");
	jset_str(o, "name", r->name);
	jset_str(o, "label", r->label);
	jset_str(o, "unit", unit);
	jset_str(o, "basis", basis);
	for (size_t k = 0; k < r->n; k++)
		json_object_array_add(values, isfinite(r->v[k]) ? json_object_new_double(r->v[k]) : NULL);
	jset(o, "values", values);
	struct fleet_stats st;
	fleet_stats(r->v, r->n, &st);
	jset(o, "stats", stats_json(&st));
	json_object *outliers = json_object_new_array();
	for (size_t k = 0; k < r->n; k++) {
		int dir = fleet_outlier(&st, r->v[k]);
		if (dir)
			json_object_array_add(outliers, outlier_json(f, r, &st, k, dir));
	}
	jset(o, "outliers", outliers);
	return o;
}

/* A test's value of each host: the index when every host has one, else the result. */
static json_object *test_row(struct fleet *f, const struct result_run *const *runs, const size_t *hosts, size_t n,
			     unsigned copies, const char *id)
{
	double *v = xcalloc(n, sizeof(*v));
	bool all_index = true;
	const struct result_test *any = NULL;
	for (size_t k = 0; k < n; k++) {
		const struct result_test *t = result_run_test(runs[k], id);
		any = any ? any : t;
		if (t && t->result.known && !t->index.known)
			all_index = false;
	}
	for (size_t k = 0; k < n; k++) {
		const struct result_test *t = result_run_test(runs[k], id);
		struct opt_num x = !t ? (struct opt_num){0} : all_index ? t->index : t->result;
		v[k] = x.known ? x.v : NAN;
	}
	int dt = diag_test_lookup(id);
	const char *name = any ? any->name : NULL;
	struct row r = { id, name ?: id, dt >= 0 ? ub_tests[dt].label : name ?: id, v, n, hosts, copies,
			 f->nsections > 1 };
	json_object *o = row_json(f, &r, all_index || !any ? NULL : any->unit, all_index ? "index" : "result");
	free(v);
	return o;
}

/* "dhry2reg,fstime": the indexed tests of a run, to tell whether scores compare. */
static char *indexed_set(const struct result_run *run)
{
	struct strv ids = {0};
	for (size_t k = 0; k < run->tests.n; k++) {
		const struct result_test *t = &run->tests.v[k];
		if (t->index.known && t->id)
			strv_push(&ids, t->id);
	}
	strv_sort(&ids);
	char *s = strv_join(&ids, ",");
	strv_free(&ids);
	return s;
}

/* The index score of each host, when all of them indexed the same tests
 * (a score over other tests is another number). */
static json_object *score_row(struct fleet *f, const struct result_run *const *runs, const size_t *hosts, size_t n,
			      unsigned copies, json_object *notes)
{
	double *v = xcalloc(n, sizeof(*v));
	_cleanup_free_ char *first = n ? indexed_set(runs[0]) : NULL;
	bool same = true;
	for (size_t k = 0; k < n; k++) {
		_cleanup_free_ char *set = indexed_set(runs[k]);
		same = same && streq(set, first);
		v[k] = num_or(runs[k]->index.score, NAN);
	}
	if (!same) {
		_cleanup_free_ char *note = xasprintf("%u cop%s: the hosts' index scores are over different tests, so "
						      "they are not compared",
						      copies, copies == 1 ? "y" : "ies");
		jarr_add_str(notes, note);
		for (size_t k = 0; k < n; k++)
			v[k] = NAN;
	}
	struct row r = { NULL, "System Benchmarks Index Score", "the index score", v, n, hosts, copies,
			 f->nsections > 1 };
	json_object *o = row_json(f, &r, NULL, "score");
	free(v);
	return o;
}

static json_object *section_json(struct fleet *f, unsigned copies, json_object *notes)
{
	const struct result_run **runs = xcalloc(f->n, sizeof(*runs));
	size_t *hosts = xcalloc(f->n, sizeof(*hosts)), n = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct result_run *run = run_with_copies(&f->res[i].r, copies);
		if (run) {
			runs[n] = run;
			hosts[n++] = i;
		}
	}
	json_object *s = json_object_new_object(), *h = json_object_new_array(), *tests = json_object_new_array();
	jset_int(s, "copies", copies);
	for (size_t k = 0; k < n; k++)
		json_object_array_add(h, json_object_new_int64((int64_t)hosts[k]));
	jset(s, "hosts", h);
	struct strv ids = {0};
	section_tests(runs, n, &ids);
	for (size_t t = 0; t < ids.n; t++)
		json_object_array_add(tests, test_row(f, runs, hosts, n, copies, ids.v[t]));
	strv_free(&ids);
	jset(s, "tests", tests);
	jset(s, "score", score_row(f, runs, hosts, n, copies, notes));
	if (n < FLEET_MIN_HOSTS) {
		_cleanup_free_ char *note = xasprintf("%u cop%s: %zu host%s; outliers are called from %d hosts on", copies,
						      copies == 1 ? "y" : "ies", n, n == 1 ? "" : "s", FLEET_MIN_HOSTS);
		jarr_add_str(notes, note);
	}
	free(runs);
	free(hosts);
	return s;
}

static json_object *results_json(const struct fleet *f)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < f->n; i++) {
		const struct result_record *r = &f->res[i].r;
		json_object *o = json_object_new_object();
		jset_str(o, "label", f->labels[i]);
		jset_str(o, "host", r->host);
		jset(o, "id", f->in[i].id ? json_object_new_int64(f->in[i].id) : NULL);
		jset_str(o, "source", f->in[i].source);
		jset_str(o, "run_id", r->run_id);
		jset_str(o, "started_at", r->started_at);
		jset_str(o, "suite", r->suite.name);
		jset_bool(o, "quick", is_true(r->quick));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *rule_json(void)
{
	json_object *o = json_object_new_object();
	jset_str(o, "method", "median and MAD of the logarithms");
	jset_double(o, "k", FLEET_K);
	jset_double(o, "mad_scale", FLEET_MAD_SCALE);
	jset_double(o, "min_pct", FLEET_MIN_PCT);
	jset_int(o, "min_hosts", FLEET_MIN_HOSTS);
	return o;
}

/* Quick and full runs, or ubtune's workloads and a UnixBench tree, do not
 * give the same numbers: say so when the fleet mixes them. */
static void mixed_notes(const struct fleet *f, json_object *notes)
{
	size_t quick = 0, native = 0;
	for (size_t i = 0; i < f->n; i++) {
		quick += is_true(f->res[i].r.quick);
		native += streq_ptr(f->res[i].r.suite.name, "native");
	}
	if (quick && quick < f->n)
		jarr_add_str(notes, "quick and full runs are mixed: their numbers are not comparable");
	if (native && native < f->n)
		jarr_add_str(notes, "ubtune's workloads and UnixBench trees are mixed: the programs differ too");
}

size_t fleet_section_rows(json_object *sec, json_object **rows, size_t max)
{
	size_t n = 0;
	json_object *tests = jpath(sec, "tests");
	for (size_t k = 0; k < jarr_len(tests) && n < max; k++)
		rows[n++] = json_object_array_get_idx(tests, k);
	if (n < max && jpath(sec, "score.stats.median"))
		rows[n++] = jpath(sec, "score");
	return n;
}

void fleet_value_text(json_object *v, char *b, size_t n)
{
	double x = json_object_get_double(v);
	if (!v)
		snprintf(b, n, "-");
	else
		snprintf(b, n, fabs(x) >= 100000 ? "%.0f" : "%.1f", x);
}

json_object *fleet_build(const struct fleet_input *in, size_t n, struct diag_refs *refs)
{
	struct diag_refs none = {0};
	struct fleet f = { .in = in, .n = n, .refs = refs ? refs : &none, .outliers = json_object_new_array() };
	f.res = xcalloc(n ? n : 1, sizeof(*f.res));
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *error = NULL;
		/* the results were checked when they were read */
		(void)result_env_decode(in[i].rec, &f.res[i], &error);
	}
	make_labels(&f);
	f.diagnosis = xcalloc(n ? n : 1, sizeof(*f.diagnosis));
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *group = xasprintf("fleet %s", f.labels[i]);
		diag_refs_add_result(f.refs, in[i].rec, group);
	}
	unsigned copies[64];
	f.nsections = all_copies(&f, copies, ARRAY_SIZE(copies));

	json_object *o = json_object_new_object(), *sections = json_object_new_array();
	json_object *notes = json_object_new_array();
	jset_str(o, "schema", FLEET_SCHEMA);
	jset(o, "rule", rule_json());
	jset(o, "results", results_json(&f));
	for (size_t s = 0; s < f.nsections; s++)
		json_object_array_add(sections, section_json(&f, copies[s], notes));
	mixed_notes(&f, notes);
	jset(o, "sections", sections);
	jset(o, "outliers", f.outliers);
	jset(o, "notes", notes);
	for (size_t i = 0; i < n; i++) {
		free(f.labels[i]);
		json_object_put(f.diagnosis[i]);
		result_env_free(&f.res[i]);
	}
	free(f.res);
	free(f.labels);
	free(f.diagnosis);
	diag_refs_free(&none);
	return o;
}
