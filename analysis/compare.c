/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison record: which runs face each other, the changes and their
 * significance, the environment facts that differ. */
#include "analysis/compare.h"

#include <inttypes.h>
#include <math.h>

#include "analysis/stats.h"
#include "unixbench/parse.h"
#include "bench/spread.h"
#include "analysis/result-facts.h"
#include "lib/env-record.h"
#include "lib/result-record.h"
#include "lib/util.h"

/* ---- the records ---- */

/* A result compared and the environment it ran in. */
static void rec_decode(json_object *o, struct result_env *rec)
{
	_cleanup_free_ char *error = NULL;
	/* the records compared were checked when they were read */
	(void)result_env_decode(o, rec, &error);
}

static unsigned run_copies(const struct result_run *run)
{
	int64_t c = int_or(run->copies, 0);
	return c > 0 && c <= UINT32_MAX ? (unsigned)c : 0;
}

static json_object *bool_json(struct opt_bool b)
{
	return b.known ? json_object_new_boolean(b.v) : NULL;
}

static void label_of(size_t i, char *b, size_t n)
{
	if (i < 26)
		snprintf(b, n, "%c", (char)('A' + i));
	else
		snprintf(b, n, "R%zu", i + 1);
}

static char *describe(const struct result_record *r)
{
	const char *suite = r->suite.name, *version = r->suite.version;
	struct buf b = {0};
	buf_puts(&b, r->host ?: "unknown host");
	if (suite && streq(suite, "native"))
		buf_printf(&b, ", ubtune %s workloads", version ?: "?");
	else
		buf_printf(&b, ", UnixBench %s", version ?: "(version unknown)");
	if (is_true(r->imported))
		buf_puts(&b, ", imported");
	if (is_true(r->quick))
		buf_puts(&b, ", quick");
	if (is_true(r->incomplete))
		buf_puts(&b, ", incomplete");
	const char *when = r->started_at;
	if (when && strlen(when) >= 16 && !is_true(r->import.dated_by_import))
		buf_printf(&b, ", %.10s %.5s", when, when + 11);
	return buf_steal(&b);
}

/* ---- which runs face each other ---- */

struct plan {
	size_t n;                     /* results */
	size_t nsections;
	const struct result_run *runs[COMPARE_SECTIONS_MAX][COMPARE_MAX]; /* NULL: the result has none */
};

static bool same_run_count(const struct result_env *in, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (in[i].r.runs.n != in[0].r.runs.n)
			return false;
	return true;
}

static const struct result_run *run_with_copies(const struct result_record *r, unsigned copies)
{
	for (size_t k = 0; k < r->runs.n; k++)
		if (run_copies(&r->runs.v[k]) == copies)
			return &r->runs.v[k];
	return NULL;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/*
 * Results with as many runs face each other run by run: the same copy
 * counts, or 1 and "all CPUs" of two machines. Otherwise each copy count
 * is a section of its own.
 */
static void make_plan(const struct result_env *in, size_t n, const struct compare_opts *o, struct plan *p)
{
	*p = (struct plan){ .n = n };
	if (o->copies) {
		p->nsections = 1;
		for (size_t i = 0; i < n; i++)
			p->runs[0][i] = run_with_copies(&in[i].r, o->copies);
		return;
	}
	if (same_run_count(in, n)) {
		size_t len = in[0].r.runs.n;
		p->nsections = len < COMPARE_SECTIONS_MAX ? len : COMPARE_SECTIONS_MAX;
		for (size_t s = 0; s < p->nsections; s++)
			for (size_t i = 0; i < n; i++)
				p->runs[s][i] = &in[i].r.runs.v[s];
		return;
	}
	unsigned all[COMPARE_SECTIONS_MAX];
	size_t nall = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < in[i].r.runs.n; k++) {
			unsigned c = run_copies(&in[i].r.runs.v[k]);
			bool seen = false;
			for (size_t j = 0; j < nall; j++)
				seen = seen || all[j] == c;
			if (!seen && nall < COMPARE_SECTIONS_MAX)
				all[nall++] = c;
		}
	}
	qsort(all, nall, sizeof(*all), cmp_unsigned);
	p->nsections = nall;
	for (size_t s = 0; s < nall; s++)
		for (size_t i = 0; i < n; i++)
			p->runs[s][i] = run_with_copies(&in[i].r, all[s]);
}

/* ---- values ---- */

struct value {
	const struct result_test *test;
	double result, index;
	bool has_result, has_index;
	double *kept; /* rates of the passes UnixBench kept */
	size_t nkept, npasses;
};

static void value_load(const struct result_run *run, const char *id, struct value *v)
{
	*v = (struct value){0};
	const struct result_test *t = v->test = run ? result_run_test(run, id) : NULL;
	if (!t)
		return;
	v->has_result = t->result.known;
	v->result = t->result.v;
	v->has_index = t->index.known;
	v->index = t->index.v;
	v->npasses = t->passes.n;
	v->kept = xcalloc(v->npasses ? v->npasses : 1, sizeof(*v->kept));
	for (size_t i = 0; i < v->npasses; i++) {
		const struct result_pass *p = &t->passes.v[i];
		if (!is_true(p->dropped) && p->rate.known && isfinite(p->rate.v))
			v->kept[v->nkept++] = p->rate.v;
	}
}

static json_object *value_json(const struct value *v)
{
	const struct result_test *t = v->test;
	if (!t)
		return NULL;
	json_object *o = json_object_new_object();
	jset(o, "result", num_json(t->result));
	jset(o, "index", num_json(t->index));
	jset(o, "samples", int_json(t->samples));
	jset_int(o, "passes", (int64_t)v->npasses);
	jset(o, "cv_pct", num_json(t->dispersion.cv_pct));
	jset(o, "min", num_json(t->dispersion.min));
	jset(o, "max", num_json(t->dispersion.max));
	jset(o, "ci95", json_object_get(t->ci95.json));
	return o;
}

static double round_to(double v, double step)
{
	return round(v / step) * step;
}

/* Whether b's result lies inside a's kept passes. */
static bool within_spread(const struct value *a, double x)
{
	struct dispersion s;
	score_dispersion(a->kept, a->nkept, &s);
	return x >= s.min && x <= s.max;
}

static json_object *change_json(const struct value *a, const struct value *b, const char *la, const char *lb)
{
	if (!a->test || !b->test)
		return NULL;
	const char *basis = NULL;
	double va = 0, vb = 0;
	if (a->has_index && b->has_index)
		basis = "index", va = a->index, vb = b->index;
	else if (a->has_result && b->has_result)
		basis = "result", va = a->result, vb = b->result;
	if (!basis || !(va > 0))
		return NULL;
	json_object *c = json_object_new_object();
	jset_double(c, "pct", round_to((vb / va - 1) * 100, 0.01));
	jset_str(c, "basis", basis);
	struct welch w;
	if (a->nkept >= 2 && b->nkept >= 2 && stats_welch(a->kept, a->nkept, b->kept, b->nkept, &w) == 0) {
		jset_str(c, "test", "welch");
		jset_double(c, "p", w.p < 1e-4 ? 1e-4 : round_to(w.p, 1e-4));
		jset_bool(c, "significant", w.p < COMPARE_ALPHA);
		jset_null(c, "note");
	} else if ((a->nkept >= 2 || b->nkept >= 2) && a->has_result && b->has_result) {
		/* one side has a spread: is the other side's result inside it? */
		bool a_spread = a->nkept >= 2;
		bool inside = a_spread ? within_spread(a, b->result) : within_spread(b, a->result);
		jset_str(c, "test", "spread");
		jset_null(c, "p");
		jset(c, "significant", inside ? json_object_new_boolean(false) : NULL);
		_cleanup_free_ char *note = xasprintf("%s's result is %s the range of %s's kept passes; %s has %s",
						      a_spread ? lb : la, inside ? "inside" : "outside", a_spread ? la : lb,
						      a_spread ? lb : la, "no per-pass spread to test against");
		jset_str(c, "note", note);
	} else {
		jset_str(c, "test", "none");
		jset_null(c, "p");
		jset_null(c, "significant");
		jset_str(c, "note", "no per-pass values on both sides");
	}
	jset_bool(c, "highlight", false);
	return c;
}

/* ---- sections ---- */

static int cmp_abs_pct(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
	return (x < y) - (x > y);
}

/* Test i's change in column col when it may be highlighted: not shown to
 * be noise, at least COMPARE_HIGHLIGHT_MIN_PCT; else NULL. */
static json_object *notable_change(json_object *tests, size_t i, size_t col, double *pct)
{
	json_object *c = json_object_array_get_idx(jpath(json_object_array_get_idx(tests, i), "changes"), col);
	bool sig = true;
	if (!c || !jpath_double(c, "pct", pct) || (jpath_bool(c, "significant", &sig) && !sig) ||
	    fabs(*pct) < COMPARE_HIGHLIGHT_MIN_PCT)
		return NULL;
	return c;
}

/* Marks the biggest notable changes against the first result, per result. */
static void highlight(json_object *tests, size_t col)
{
	double pcts[UB_TESTS_MAX], pct;
	size_t n = 0;
	for (size_t i = 0; i < jarr_len(tests) && n < UB_TESTS_MAX; i++)
		if (notable_change(tests, i, col, &pct))
			pcts[n++] = pct;
	qsort(pcts, n, sizeof(*pcts), cmp_abs_pct);
	double limit = n ? fabs(pcts[n < COMPARE_HIGHLIGHTS ? n - 1 : COMPARE_HIGHLIGHTS - 1]) : INFINITY;
	size_t marked = 0;
	for (size_t i = 0; i < jarr_len(tests) && marked < COMPARE_HIGHLIGHTS; i++) {
		json_object *c = notable_change(tests, i, col, &pct);
		if (c && fabs(pct) >= limit) {
			jset_bool(c, "highlight", true);
			marked++;
		}
	}
}

/* Test ids of a section in UnixBench's report order, then any others. */
static void section_ids(const struct result_run *const *runs, size_t n, struct strv *ids)
{
	const struct ub_test_info *t;
	for (size_t k = 0; (t = ub_test_in_report_order(k)); k++)
		for (size_t i = 0; i < n; i++)
			if (runs[i] && result_run_test(runs[i], t->id) && !strv_contains(ids, t->id))
				strv_push(ids, t->id);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; runs[i] && k < runs[i]->tests.n; k++) {
			const char *id = runs[i]->tests.v[k].id;
			if (id && !strv_contains(ids, id))
				strv_push(ids, id);
		}
	}
}

static json_object *test_row(const struct result_run *const *runs, size_t n, const char *id, char labels[][8])
{
	struct value v[COMPARE_MAX];
	json_object *row = json_object_new_object(), *values = json_object_new_array();
	json_object *changes = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		value_load(runs[i], id, &v[i]);
	const struct result_test *any = NULL;
	for (size_t i = 0; i < n && !any; i++)
		any = v[i].test;
	jset_str(row, "id", id);
	jset_str(row, "name", any ? any->name : NULL);
	jset_str(row, "unit", any ? any->unit : NULL);
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(values, value_json(&v[i]));
		json_object_array_add(changes, i ? change_json(&v[0], &v[i], labels[0], labels[i]) : NULL);
	}
	jset(row, "values", values);
	jset(row, "changes", changes);
	for (size_t i = 0; i < n; i++)
		free(v[i].kept);
	return row;
}

static bool interval(const struct result_run *run, double *lo, double *hi)
{
	if (run->index.ci95.n != 2)
		return false;
	*lo = run->index.ci95.v[0].v;
	*hi = run->index.ci95.v[1].v;
	/* one pass per test gives no width: nothing to judge a change by */
	return *lo < *hi;
}

/* The index of test id in run, when it has one. */
static bool run_test_index(const struct result_run *run, const char *id, double *index)
{
	const struct result_test *t = result_run_test(run, id);
	if (!t || !t->index.known || !(t->index.v > 0))
		return false;
	*index = t->index.v;
	return true;
}

/* Whether every test indexed on one side is indexed on the other. */
static bool same_tests(const struct result_run *a, const struct result_run *b)
{
	double v;
	for (int side = 0; side < 2; side++) {
		const struct result_run *from = side ? b : a, *to = side ? a : b;
		for (size_t i = 0; i < from->tests.n; i++) {
			const char *id = from->tests.v[i].id;
			if (run_test_index(from, id, &v) && !run_test_index(to, id, &v))
				return false;
		}
	}
	return true;
}

/* Runs of different test sets: no index change between them; the tests
 * both indexed, with the geometric mean of their indexes on each side. */
static json_object *partial_change(const struct result_run *a, const struct result_run *b)
{
	json_object *c = json_object_new_object(), *common = json_object_new_object(), *ids = json_object_new_array();
	double la = 0, lb = 0, va, vb;
	size_t n = 0;
	for (size_t i = 0; i < a->tests.n; i++) {
		const char *id = a->tests.v[i].id;
		if (!run_test_index(a, id, &va) || !run_test_index(b, id, &vb))
			continue;
		jarr_add_str(ids, id);
		la += log(va), lb += log(vb), n++;
	}
	jset_null(c, "pct");
	jset_str(c, "basis", "partial");
	jset_null(c, "p");
	jset_str(c, "test", "partial");
	jset_null(c, "significant");
	_cleanup_free_ char *note = xasprintf("partial: not comparable: the runs index different tests (%zu in common)", n);
	jset_str(c, "note", note);
	jset_bool(c, "highlight", false);
	jset(common, "tests", ids);
	if (n) {
		double ga = exp(la / (double)n), gb = exp(lb / (double)n);
		jset_double(common, "geomean", round_to(ga, 0.1));
		jset_double(common, "geomean_other", round_to(gb, 0.1));
		jset_double(common, "pct", round_to((gb / ga - 1) * 100, 0.01));
	}
	jset(c, "common", common);
	return c;
}

static json_object *score_change(const struct result_run *a, const struct result_run *b, const char *la,
				 const char *lb)
{
	double alo = 0, ahi = 0, blo = 0, bhi = 0;
	if (a && b && !same_tests(a, b))
		return partial_change(a, b);
	if (!a || !b || !a->index.score.known || !b->index.score.known || !(a->index.score.v > 0))
		return NULL;
	double sa = a->index.score.v, sb = b->index.score.v;
	json_object *c = json_object_new_object();
	jset_double(c, "pct", round_to((sb / sa - 1) * 100, 0.01));
	jset_str(c, "basis", "score");
	jset_null(c, "p");
	bool ia = interval(a, &alo, &ahi), ib = interval(b, &blo, &bhi);
	if (ia && ib) {
		bool overlap = alo <= bhi && blo <= ahi;
		jset_str(c, "test", "ci95");
		jset_bool(c, "significant", !overlap);
		jset_str(c, "note", overlap ? "the 95 % intervals overlap" : "the 95 % intervals do not overlap");
	} else if (ia || ib) {
		bool inside = ia ? sb >= alo && sb <= ahi : sa >= blo && sa <= bhi;
		jset_str(c, "test", "ci95");
		jset(c, "significant", inside ? json_object_new_boolean(false) : NULL);
		_cleanup_free_ char *note = xasprintf("%s's score is %s %s's 95 %% interval", ia ? lb : la,
						      inside ? "inside" : "outside", ia ? la : lb);
		jset_str(c, "note", note);
	} else {
		jset_str(c, "test", "none");
		jset_null(c, "significant");
		jset_str(c, "note", "no interval on either side");
	}
	jset_bool(c, "highlight", false);
	return c;
}

static json_object *score_json(const struct result_run *run)
{
	if (!run)
		return NULL;
	json_object *o = json_object_new_object();
	jset(o, "score", num_json(run->index.score));
	jset(o, "partial", bool_json(run->index.partial));
	jset(o, "tests_indexed", int_json(run->index.tests_indexed));
	jset(o, "ci95", json_object_get(run->index.ci95.json));
	return o;
}

/* Runs of different test sets: the tests every one of them indexed (in the
 * section's order), with the geometric mean of their indexes in each run,
 * which charts draw in place of the scores. NULL when the runs index the
 * same tests, or a result has no run here. */
static json_object *common_json(const struct result_run *const *runs, size_t n, const struct strv *ids)
{
	bool differ = false;
	for (size_t i = 0; i < n; i++) {
		if (!runs[i])
			return NULL;
		differ = differ || (i && !same_tests(runs[0], runs[i]));
	}
	if (!differ)
		return NULL;
	json_object *c = json_object_new_object(), *tests = json_object_new_array(), *means = json_object_new_array();
	double logs[COMPARE_MAX] = {0}, v;
	size_t k = 0;
	for (size_t t = 0; t < ids->n; t++) {
		bool all = true;
		for (size_t i = 0; i < n && all; i++)
			all = run_test_index(runs[i], ids->v[t], &v);
		if (!all)
			continue;
		jarr_add_str(tests, ids->v[t]);
		for (size_t i = 0; i < n; i++) {
			run_test_index(runs[i], ids->v[t], &v);
			logs[i] += log(v);
		}
		k++;
	}
	for (size_t i = 0; i < n; i++)
		json_object_array_add(means, k ? jround(exp(logs[i] / (double)k), 1) : NULL);
	jset(c, "tests", tests);
	jset(c, "geomeans", means);
	return c;
}

static json_object *section_json(const struct result_run *const *runs, size_t n, char labels[][8])
{
	json_object *s = json_object_new_object(), *copies = json_object_new_array();
	unsigned first = 0;
	bool same = true;
	for (size_t i = 0; i < n; i++) {
		unsigned c = runs[i] ? run_copies(runs[i]) : 0;
		json_object_array_add(copies, c ? json_object_new_int((int)c) : NULL);
		if (c && !first)
			first = c;
		same = same && (!c || c == first);
	}
	jset(s, "copies", copies);
	struct buf title = {0};
	if (same && first) {
		buf_printf(&title, "%u cop%s", first, first == 1 ? "y" : "ies");
		for (size_t i = 0; i < n; i++)
			if (runs[i] && !run_copies(runs[i]))
				buf_printf(&title, " (%s: copies not said)", labels[i]);
	} else
		for (size_t i = 0; i < n; i++) {
			unsigned c = runs[i] ? run_copies(runs[i]) : 0;
			buf_printf(&title, "%s%s %s", i ? ", " : "copies: ", labels[i], runs[i] ? (c ? "" : "?") : "-");
			if (c)
				buf_printf(&title, "%u", c);
		}
	jset_str(s, "title", title.s);
	buf_free(&title);

	struct strv ids = {0};
	section_ids(runs, n, &ids);
	json_object *tests = json_object_new_array();
	for (size_t k = 0; k < ids.n; k++)
		json_object_array_add(tests, test_row(runs, n, ids.v[k], labels));
	json_object *common = common_json(runs, n, &ids);
	strv_free(&ids);
	for (size_t i = 1; i < n; i++)
		highlight(tests, i);
	jset(s, "tests", tests);

	json_object *score = json_object_new_object(), *values = json_object_new_array();
	json_object *changes = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(values, score_json(runs[i]));
		json_object_array_add(changes, i ? score_change(runs[0], runs[i], labels[0], labels[i]) : NULL);
	}
	jset(score, "values", values);
	jset(score, "changes", changes);
	jset(s, "score", score);
	if (common)
		jset(s, "common", common);
	return s;
}

/* ---- the environment ---- */

static char *fact_suite(const struct result_env *rec)
{
	const char *name = rec->r.suite.name, *version = rec->r.suite.version;
	if (!name || !version)
		return NULL;
	if (streq(name, "native"))
		return xasprintf("ubtune %s workloads", version);
	return xasprintf("UnixBench %s", version);
}

static char *fact_engine(const struct result_env *rec)
{
	return fact_text(rec->r.engine.kind);
}

static char *fact_flags(const struct result_env *rec)
{
	const char *flags = rec->r.build.cflags;
	if (flags)
		return xstrdup(flags);
	if (is_true(rec->r.imported))
		return NULL;
	/* a prebuilt program or a tree as built there: its flags are not ours to know */
	return rec->r.build.json ? xstrdup("(default flags)") : NULL;
}

/* The compiler that built the programs, as `cc --version` names it without
 * the name it was called by ("cc" and "gcc" are one compiler). */
static char *fact_compiler(const struct result_env *rec)
{
	const char *v = rec->r.build.cc_version;
	const char *rest = v ? strchr(v, ' ') : NULL;
	return rest && rest[1] ? xstrdup(rest + 1) : fact_text(v);
}

static char *fact_copies(const struct result_env *rec)
{
	struct buf b = {0};
	for (size_t i = 0; i < rec->r.runs.n; i++) {
		unsigned c = run_copies(&rec->r.runs.v[i]);
		if (!c) {
			/* an imported table that does not say */
			buf_free(&b);
			return NULL;
		}
		buf_printf(&b, "%s%u", i ? ", " : "", c);
	}
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

static char *fact_host(const struct result_env *rec)
{
	return fact_text(rec->r.host);
}

static char *fact_os(const struct result_env *rec)
{
	return fact_text(rec->env.host.os);
}

static char *fact_arch(const struct result_env *rec)
{
	return fact_text(rec->env.host.arch);
}

static char *fact_bogomips(const struct result_env *rec)
{
	return rec->env.cpu.bogomips.known ? xasprintf("%.1f", rec->env.cpu.bogomips.v) : NULL;
}

static char *fact_virt(const struct result_env *rec)
{
	const char *role = rec->env.virt.role, *hv = rec->env.virt.hypervisor, *ct = rec->env.virt.container;
	if (!role)
		return NULL;
	struct buf b = {0};
	buf_puts(&b, streq(role, "none") ? "bare metal" : role);
	if (hv)
		buf_printf(&b, " (%s)", hv);
	if (ct)
		buf_printf(&b, ", container %s", ct);
	return buf_steal(&b);
}

static char *fact_medium(const struct result_env *rec)
{
	const struct env_device *dev = rec->env.storage.device;
	const char *kind = dev ? dev->kind : NULL, *fs = rec->env.storage.mount.fstype;
	if (!kind && !fs)
		return NULL;
	if (kind && fs && !streq(kind, fs))
		return xasprintf("%s (%s)", kind, fs);
	return xstrdup(kind ? kind : fs);
}

static char *fact_scheduler(const struct result_env *rec)
{
	const struct env_device *dev = rec->env.storage.device;
	return fact_text(dev ? dev->scheduler : NULL);
}

static char *fact_memory(const struct result_env *rec)
{
	char s[32];
	if (!rec->env.memory.total_kib.known)
		return NULL;
	kib_text(rec->env.memory.total_kib.v, s, sizeof(s));
	return xstrdup(s);
}

static char *fact_services(const struct result_env *rec)
{
	const struct env_services *sv = &rec->env.services;
	if (!sv->available.known)
		return NULL;
	struct buf b = {0};
	for (size_t i = 0; i < sv->noisy.n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", sv->noisy.v[i].unit ?: "?");
	return b.len ? buf_steal(&b) : (buf_free(&b), xstrdup("none"));
}

static char *fact_libc(const struct result_env *rec)
{
	return fact_text(rec->env.toolchain.libc_version);
}

static char *fact_charmap(const struct result_env *rec)
{
	return fact_text(rec->env.unixbench.charmap);
}

static char *fact_kind(const struct result_env *rec)
{
	return xasprintf("%s%s", is_true(rec->r.quick) ? "quick" : "full",
			 is_true(rec->r.incomplete) ? ", incomplete" : "");
}

/* "undervoltage, low-clock x3" */
static char *fact_events(const struct result_env *rec)
{
	const struct result_record *r = &rec->r;
	if (is_true(r->imported) && !r->events.n)
		return NULL;
	struct strv kinds = {0};
	size_t counts[64] = {0};
	for (size_t i = 0; i < r->events.n; i++) {
		const char *k = r->events.v[i].kind ?: "?";
		size_t j = 0;
		while (j < kinds.n && !streq(kinds.v[j], k))
			j++;
		if (j == kinds.n && kinds.n < ARRAY_SIZE(counts))
			strv_push(&kinds, k);
		if (j < ARRAY_SIZE(counts))
			counts[j]++;
	}
	struct buf b = {0};
	for (size_t j = 0; j < kinds.n; j++) {
		buf_printf(&b, "%s%s", j ? ", " : "", kinds.v[j]);
		if (counts[j] > 1)
			buf_printf(&b, " x%zu", counts[j]);
	}
	strv_free(&kinds);
	return b.len ? buf_steal(&b) : (buf_free(&b), xstrdup("none"));
}

static const struct fact {
	const char *name;
	char *(*get)(const struct result_env *rec);
} facts[] = {
	{ "suite", fact_suite },
	{ "engine", fact_engine },
	{ "compiler flags", fact_flags },
	{ "compiler", fact_compiler },
	{ "run", fact_kind },
	{ "copies", fact_copies },
	{ "online CPUs", fact_online_cpus },
	{ "host", fact_host },
	{ "kernel", fact_kernel },
	{ "OS", fact_os },
	{ "arch", fact_arch },
	{ "CPU", fact_cpu },
	{ "BogoMIPS", fact_bogomips },
	{ "governor", fact_governor },
	{ "max clock", fact_max_clock },
	{ "boost", fact_boost },
	{ "virtualisation", fact_virt },
	{ "workdir medium", fact_medium },
	{ "IO scheduler", fact_scheduler },
	{ "memory", fact_memory },
	{ "THP", fact_thp },
	{ "noisy services", fact_services },
	{ "C library", fact_libc },
	{ "locale charmap", fact_charmap },
	{ "profile", fact_profile },
	{ "events during the run", fact_events },
};

static json_object *environment_json(const struct result_env *in, size_t n)
{
	json_object *env = json_object_new_object();
	json_object *differs = json_object_new_array(), *unknown = json_object_new_array();
	json_object *same = json_object_new_array();
	for (size_t f = 0; f < ARRAY_SIZE(facts); f++) {
		char *v[COMPARE_MAX];
		size_t known = 0;
		bool differ = false;
		const char *first = NULL;
		for (size_t i = 0; i < n; i++) {
			v[i] = facts[f].get(&in[i]);
			if (!v[i])
				continue;
			known++;
			if (!first)
				first = v[i];
			else if (!streq(first, v[i]))
				differ = true;
		}
		json_object *values = json_object_new_array();
		for (size_t i = 0; i < n; i++)
			json_object_array_add(values, v[i] ? json_object_new_string(v[i]) : NULL);
		json_object *o = json_object_new_object();
		jset_str(o, "fact", facts[f].name);
		jset(o, "values", values);
		if (differ)
			json_object_array_add(differs, o);
		else if (known && known < n)
			json_object_array_add(unknown, o);
		else if (known)
			json_object_array_add(same, o);
		else
			json_object_put(o);
		for (size_t i = 0; i < n; i++)
			free(v[i]);
	}
	jset(env, "differs", differs);
	jset(env, "unknown", unknown);
	jset(env, "same", same);
	return env;
}

/* ---- notes ---- */

/* The most passes any test of the record kept. */
static size_t max_passes(const struct result_env *rec)
{
	size_t most = 0;
	for (size_t i = 0; i < rec->r.runs.n; i++) {
		const struct result_run *run = &rec->r.runs.v[i];
		for (size_t k = 0; k < run->tests.n; k++)
			most = run->tests.v[k].passes.n > most ? run->tests.v[k].passes.n : most;
	}
	return most;
}

/* "A", "A and C", "A, B and C" of the results that pass the check. */
static char *labels_where(const struct result_env *in, size_t n, char labels[][8], bool (*check)(const struct result_env *rec),
			  size_t *count)
{
	struct buf b = {0};
	size_t total = 0, done = 0;
	for (size_t i = 0; i < n; i++)
		total += check(&in[i]);
	for (size_t i = 0; i < n; i++) {
		if (!check(&in[i]))
			continue;
		done++;
		buf_printf(&b, "%s%s", done == 1 ? "" : done == total ? " and " : ", ", labels[i]);
	}
	*count = total;
	return buf_steal(&b);
}

static bool no_passes(const struct result_env *rec)
{
	return max_passes(rec) == 0;
}

static bool one_pass(const struct result_env *rec)
{
	return max_passes(rec) == 1;
}

static bool is_quick(const struct result_env *rec)
{
	return is_true(rec->r.quick);
}

static void note_where(json_object *notes, const struct result_env *in, size_t n, char labels[][8],
		       bool (*check)(const struct result_env *rec), const char *one, const char *many, const char *rest)
{
	size_t count;
	_cleanup_free_ char *who = labels_where(in, n, labels, check, &count);
	if (!count)
		return;
	_cleanup_free_ char *s = xasprintf("%s %s %s", who, count == 1 ? one : many, rest);
	jarr_add_str(notes, s);
}

static json_object *notes_json(const struct result_env *in, size_t n, char labels[][8])
{
	json_object *notes = json_object_new_array();
	note_where(notes, in, n, labels, no_passes, "has", "have",
		   "no per-pass values (a UnixBench report alone has none; its .log beside it has them), so changes "
		   "against it cannot be tested for significance");
	note_where(notes, in, n, labels, one_pass, "ran", "ran",
		   "one pass per test: there is no spread to test changes against");
	note_where(notes, in, n, labels, is_quick, "is a quick run", "are quick runs",
		   "(shorter tests, fewer passes): not comparable with full runs");
	_cleanup_free_ char *s0 = fact_suite(&in[0]);
	for (size_t i = 1; i < n; i++) {
		_cleanup_free_ char *si = fact_suite(&in[i]);
		if (s0 && si && !streq(s0, si)) {
			_cleanup_free_ char *s = xasprintf("%s ran %s and %s ran %s: the programs and their build differ "
							   "too, not only the machine",
							   labels[0], s0, labels[i], si);
			jarr_add_str(notes, s);
		}
	}
	return notes;
}

json_object *compare_build(const struct compare_input *in, size_t n, const struct compare_opts *o)
{
	if (n > COMPARE_MAX)
		n = COMPARE_MAX;
	char labels[COMPARE_MAX][8];
	struct result_env recs[COMPARE_MAX];
	for (size_t i = 0; i < n; i++)
		rec_decode(in[i].rec, &recs[i]);
	json_object *cmp = json_object_new_object();
	jset_str(cmp, "schema", COMPARE_SCHEMA);
	json_object *results = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		label_of(i, labels[i], sizeof(labels[i]));
		json_object *r = json_object_new_object();
		const struct result_record *rec = &recs[i].r;
		_cleanup_free_ char *name = describe(rec);
		jset_str(r, "label", labels[i]);
		jset_str(r, "name", name);
		jset_str(r, "source", in[i].source);
		jset(r, "id", in[i].id ? json_object_new_int64(in[i].id) : NULL);
		jset_str(r, "run_id", rec->run_id);
		jset_str(r, "host", rec->host);
		jset_str(r, "started_at", rec->started_at);
		jset(r, "imported", bool_json(rec->imported));
		jset_int(r, "max_passes", (int64_t)max_passes(&recs[i]));
		json_object_array_add(results, r);
	}
	jset(cmp, "results", results);
	struct plan p;
	make_plan(recs, n, o, &p);
	json_object *sections = json_object_new_array();
	for (size_t s = 0; s < p.nsections; s++)
		json_object_array_add(sections, section_json(p.runs[s], n, labels));
	jset(cmp, "sections", sections);
	jset(cmp, "environment", environment_json(recs, n));
	jset(cmp, "notes", notes_json(recs, n, labels));
	for (size_t i = 0; i < n; i++)
		result_env_free(&recs[i]);
	return cmp;
}
