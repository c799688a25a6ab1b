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

/* ---- the view ---- */

struct fleet {
	const struct fleet_input *in;
	size_t n;
	const struct fleet_opts *o;
	char **labels;            /* made unique where a host gives two results of one copy count */
	struct diag_refs *refs;
	json_object **diagnosis;  /* per input, made when first needed */
	size_t nsections;
	json_object *outliers;    /* the flat list */
};

const struct fleet_test *fleet_run_test(const struct fleet_run *run, const char *id)
{
	for (size_t k = 0; run && id && k < run->ntests; k++)
		if (streq_ptr(run->tests[k].id, id))
			return &run->tests[k];
	return NULL;
}

static const struct fleet_run *run_with_copies(const struct fleet_digest *d, unsigned copies)
{
	for (size_t k = 0; k < d->nruns; k++)
		if (d->runs[k].copies == copies)
			return &d->runs[k];
	return NULL;
}

static const char *label_of(const struct fleet_input *in)
{
	return in->label ?: in->d.host ?: "unnamed host";
}

static int by_label(const void *a, const void *b, void *arg)
{
	const struct fleet_input *in = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(label_of(&in[x]), label_of(&in[y]));
	return c ? c : (x > y) - (x < y);
}

/* Whether inputs i and j have a run of the same copy count. */
static bool same_copies(const struct fleet_digest *a, const struct fleet_digest *b)
{
	for (size_t k = 0; k < a->nruns; k++)
		if (a->runs[k].copies && run_with_copies(b, a->runs[k].copies))
			return true;
	return false;
}

/* The host's label, or "b7 (result 12)" where two results of a host meet
 * in one section (results named on the command line). */
static void make_labels(struct fleet *f)
{
	size_t *order = xcalloc(f->n + 1, sizeof(*order));
	f->labels = xcalloc(f->n + 1, sizeof(*f->labels));
	for (size_t i = 0; i < f->n; i++)
		order[i] = i;
	qsort_r(order, f->n, sizeof(*order), by_label, (void *)f->in);
	for (size_t k = 0; k < f->n; k++) {
		size_t i = order[k];
		const char *label = label_of(&f->in[i]);
		bool clash = false;
		for (size_t j = k; !clash && j-- > 0 && streq(label_of(&f->in[order[j]]), label);)
			clash = same_copies(&f->in[i].d, &f->in[order[j]].d);
		for (size_t j = k + 1; !clash && j < f->n && streq(label_of(&f->in[order[j]]), label); j++)
			clash = same_copies(&f->in[i].d, &f->in[order[j]].d);
		f->labels[i] = clash ? xasprintf("%s (%s)", label, f->in[i].source) : xstrdup(label);
	}
	free(order);
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
		const struct fleet_digest *d = &f->in[i].d;
		for (size_t k = 0; k < d->nruns; k++) {
			unsigned c = d->runs[k].copies;
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
static void section_tests(const struct fleet_run *const *runs, size_t n, struct strv *ids)
{
	bool seen[DIAG_NTESTS] = {0};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < runs[i]->ntests; k++) {
			int t = diag_test_lookup(runs[i]->tests[k].id ?: "");
			if (t >= 0 && streq_ptr(runs[i]->tests[k].id, ub_tests[t].id))
				seen[t] = true;
		}
	for (int t = 0; t < DIAG_NTESTS; t++)
		if (seen[t])
			strv_push(ids, ub_tests[t].id);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < runs[i]->ntests; k++) {
			const char *id = runs[i]->tests[k].id;
			if (id && !strv_contains(ids, id))
				strv_push(ids, id);
		}
}

/* Diagnose's report of input i, compared with the published runs and the
 * other hosts of the fleet; its record read only now, and let go after. */
static json_object *diagnosis_of(struct fleet *f, size_t i)
{
	if (f->diagnosis[i])
		return f->diagnosis[i];
	json_object *rec = f->o->record ? f->o->record(f->o->ctx, i) : NULL;
	if (!rec)
		return NULL;
	struct diag_case c;
	_cleanup_free_ char *error = NULL, *group = xasprintf("fleet %s", f->labels[i]);
	if (diag_case_init(&c, rec, f->refs, group, &error) == 0) {
		f->diagnosis[i] = diagnose(&c);
		diag_case_free(&c);
	}
	json_object_put(rec);
	return f->diagnosis[i];
}

/* The fleet's results as diagnose's history, each of its own group. */
static void add_refs(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_digest *d = &f->in[i].d;
		for (size_t k = 0; k < d->nruns; k++) {
			const struct diag_run *run = &d->runs[k].diag;
			if (!run->copies || !run->ntests)
				continue;
			struct diag_ref *r = diag_refs_append(f->refs);
			r->id = xasprintf("fleet %s-c%u", f->labels[i], run->copies);
			r->group = xasprintf("fleet %s", f->labels[i]);
			r->description = xasprintf("your fleet %s%s%s", f->labels[i], d->started_at ? " of " : "",
						   d->started_at ?: "");
			r->cpu = xstrdup_or_null(d->cpu);
			r->arch = xstrdup_or_null(d->arch);
			r->kernel = xstrdup_or_null(d->kernel);
			r->host = xstrdup_or_null(d->host);
			r->cpus = d->cpus;
			r->virt = d->virt;
			r->vmm = xstrdup_or_null(d->vmm);
			r->workdir_memory = d->workdir_memory;
			r->undervoltage = d->undervoltage;
			r->history = true;
			r->run = *run;
		}
	}
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

void fleet_off_text(double value, double median, char *b, size_t n)
{
	double ratio = value / median;
	/* a factor of ten or more is said as one: "100 % below" would round
	 * away what 0.9 against 697 is */
	if (ratio > 0 && ratio <= 0.1)
		snprintf(b, n, "%.0f times below", 1 / ratio);
	else if (ratio >= 10)
		snprintf(b, n, "%.0f times above", ratio);
	else if (ratio <= 0)
		snprintf(b, n, "100 %% below");
	else
		snprintf(b, n, "%.0f %% %s", fabs(ratio - 1) * 100, ratio < 1 ? "below" : "above");
}

/* The first difference that moves the test: the one a sentence names. */
static json_object *first_relevant(json_object *diffs)
{
	for (size_t i = 0; i < jarr_len(diffs); i++) {
		json_object *d = json_object_array_get_idx(diffs, i);
		bool relevant = false;
		if (jpath_bool(d, "relevant", &relevant) && relevant)
			return d;
	}
	return NULL;
}

/* "host b7 scores 22 % below its 19 peers in File Copy 1024: its workdir
 * is on ext4 on a rotating disk, theirs on tmpfs" */
static char *sentence(const char *host, double value, double median, size_t npeers, const struct row *r,
		      json_object *diffs)
{
	struct buf b = {0};
	char off[64];
	fleet_off_text(value, median, off, sizeof(off));
	buf_printf(&b, "host %s scores %s its %zu peer%s in %s", host, off, npeers, npeers == 1 ? "" : "s", r->label);
	if (r->several_sections)
		buf_printf(&b, " (%u cop%s)", r->copies, r->copies == 1 ? "y" : "ies");
	json_object *top = first_relevant(diffs);
	if (top)
		buf_printf(&b, ": %s, %s", jpath_str(top, "own"), jpath_str(top, "theirs"));
	else
		buf_puts(&b, "; no recorded fact that moves this test sets it apart");
	return buf_steal(&b);
}

static json_object *outlier_json(struct fleet *f, const struct row *r, const struct fleet_stats *st, size_t k,
				 int dir)
{
	size_t i = r->hosts[k], npeers = 0;
	const struct fleet_digest **peers = xcalloc(r->n, sizeof(*peers));
	double *pv = xcalloc(r->n, sizeof(*pv));
	for (size_t j = 0; j < r->n; j++)
		if (j != k && isfinite(r->v[j]) && !fleet_outlier(st, r->v[j])) {
			pv[npeers] = r->v[j];
			peers[npeers++] = &f->in[r->hosts[j]].d;
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
	json_object *diffs = fleet_differences(&f->in[i].d, peers, npeers, t);
	_cleanup_free_ char *s = sentence(f->labels[i], r->v[k], peers_median, npeers, r, diffs);
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
static json_object *test_row(struct fleet *f, const struct fleet_run *const *runs, const size_t *hosts, size_t n,
			     unsigned copies, const char *id)
{
	double *v = xcalloc(n + 1, sizeof(*v));
	bool all_index = true;
	const struct fleet_test *any = NULL;
	for (size_t k = 0; k < n; k++) {
		const struct fleet_test *t = fleet_run_test(runs[k], id);
		any = any ? any : t;
		if (t && isfinite(t->result) && !isfinite(t->index))
			all_index = false;
	}
	for (size_t k = 0; k < n; k++) {
		const struct fleet_test *t = fleet_run_test(runs[k], id);
		v[k] = !t ? NAN : all_index ? t->index : t->result;
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
static char *indexed_set(const struct fleet_run *run)
{
	struct strv ids = {0};
	for (size_t k = 0; k < run->ntests; k++) {
		const struct fleet_test *t = &run->tests[k];
		if (isfinite(t->index) && t->id)
			strv_push(&ids, t->id);
	}
	strv_sort(&ids);
	char *s = strv_join(&ids, ",");
	strv_free(&ids);
	return s;
}

/* The index score of each host, when all of them indexed the same tests
 * (a score over other tests is another number). */
static json_object *score_row(struct fleet *f, const struct fleet_run *const *runs, const size_t *hosts, size_t n,
			      unsigned copies, json_object *notes)
{
	double *v = xcalloc(n + 1, sizeof(*v));
	_cleanup_free_ char *first = n ? indexed_set(runs[0]) : NULL;
	bool same = true;
	for (size_t k = 0; k < n; k++) {
		_cleanup_free_ char *set = indexed_set(runs[k]);
		same = same && streq(set, first);
		v[k] = runs[k]->score;
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
	const struct fleet_run **runs = xcalloc(f->n + 1, sizeof(*runs));
	size_t *hosts = xcalloc(f->n + 1, sizeof(*hosts)), n = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_run *run = run_with_copies(&f->in[i].d, copies);
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
		const struct fleet_digest *d = &f->in[i].d;
		json_object *o = json_object_new_object();
		jset_str(o, "label", f->labels[i]);
		jset_str(o, "host", d->host);
		jset_str(o, "machine_id", d->machine_id);
		jset(o, "id", f->in[i].id ? json_object_new_int64(f->in[i].id) : NULL);
		jset_str(o, "source", f->in[i].source);
		jset_str(o, "run_id", d->run_id);
		jset_str(o, "round", d->round);
		jset_str(o, "started_at", d->started_at);
		jset_str(o, "suite", d->suite);
		jset_bool(o, "quick", d->quick);
		jset_bool(o, "incomplete", d->incomplete);
		jset_str(o, "interrupted_by", d->interrupted_by);
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
 * give the same numbers: say so when the fleet mixes them. A result cut
 * short is said too: its missing tests are no fault of the host. */
static void mixed_notes(const struct fleet *f, json_object *notes)
{
	size_t quick = 0, native = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_digest *d = &f->in[i].d;
		quick += d->quick;
		native += streq_ptr(d->suite, "native");
		if (d->incomplete) {
			size_t tests = 0;
			for (size_t k = 0; k < d->nruns; k++)
				for (size_t t = 0; t < d->runs[k].ntests; t++)
					tests += isfinite(d->runs[k].tests[t].index) || isfinite(d->runs[k].tests[t].result);
			_cleanup_free_ char *note = xasprintf("%s's result is incomplete: stopped%s%s after %zu test%s", f->labels[i],
							      d->interrupted_by ? " by " : "", d->interrupted_by ?: "",
							      tests, tests == 1 ? "" : "s");
			jarr_add_str(notes, note);
		}
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

json_object *fleet_build(const struct fleet_input *in, size_t n, const struct fleet_opts *o)
{
	static const struct fleet_opts none_opts = {0};
	struct diag_refs none = {0};
	o = o ? o : &none_opts;
	struct fleet f = { .in = in, .n = n, .o = o, .refs = o->refs ? o->refs : &none,
			   .outliers = json_object_new_array() };
	make_labels(&f);
	f.diagnosis = xcalloc(n + 1, sizeof(*f.diagnosis));
	add_refs(&f);
	unsigned copies[64];
	f.nsections = all_copies(&f, copies, ARRAY_SIZE(copies));

	json_object *rec = json_object_new_object(), *sections = json_object_new_array();
	json_object *notes = json_object_new_array();
	jset_str(rec, "schema", FLEET_SCHEMA);
	jset(rec, "rule", rule_json());
	jset_str(rec, "round", o->round);
	jset(rec, "selection", json_object_get(o->selection));
	jset(rec, "results", results_json(&f));
	for (size_t s = 0; s < f.nsections; s++)
		json_object_array_add(sections, section_json(&f, copies[s], notes));
	mixed_notes(&f, notes);
	jset(rec, "sections", sections);
	jset(rec, "outliers", f.outliers);
	if (o->since)
		jset(rec, "since", fleet_since(in, n, f.labels, o->then, o->nthen, o->since));
	jset(rec, "notes", notes);
	for (size_t i = 0; i < n; i++) {
		free(f.labels[i]);
		json_object_put(f.diagnosis[i]);
	}
	free(f.labels);
	free(f.diagnosis);
	diag_refs_free(&none);
	return rec;
}
