/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The diagnosis engine: runs every rule, ranks the causes, builds the report. */
#include "diagnose.h"

#define DIAGNOSIS_SCHEMA "ubtune.diagnosis/1"

static const struct diag_rule *const rule_tables[] = { diag_rules_machine, diag_rules_system, diag_rules_clock,
							 diag_rules_header, diag_rules_knobs, diag_rules_level };

void diag_rules_foreach(void (*fn)(const struct diag_rule *r, void *data), void *data)
{
	for (size_t t = 0; t < ARRAY_SIZE(rule_tables); t++)
		for (const struct diag_rule *r = rule_tables[t]; r->id; r++)
			fn(r, data);
}

const struct diag_rule *diag_rule_lookup(const char *id)
{
	for (size_t t = 0; t < ARRAY_SIZE(rule_tables); t++)
		for (const struct diag_rule *r = rule_tables[t]; r->id; r++)
			if (streq(r->id, id))
				return r;
	return NULL;
}

const char *diag_confidence_name(enum diag_confidence c)
{
	static const char *const names[] = { "none", "low", "medium", "high" };
	return names[c];
}

/* ---- what checks fill ---- */

void diag_rule_run(const struct diag_rule *r, const struct diag_case *c, struct diagnosis *d)
{
	*d = (struct diagnosis){ .rule = r };
	r->check(c, d);
}

void diagnosis_clear(struct diagnosis *d)
{
	free(d->reason);
	free(d->fix);
	free(d->expect);
	free(d->normal);
	free(d->unchecked);
	strv_free(&d->evidence);
	*d = (struct diagnosis){0};
}

_printf_(2, 0) static void vreplace(char **field, const char *fmt, va_list ap)
{
	free(*field);
	*field = xvasprintf(fmt, ap);
}

/* Replaces a text field with the formatted variadic arguments after fmt. */
#define REPLACE_TEXT(field, fmt)                  \
	do {                                      \
		va_list ap;                       \
		va_start(ap, fmt);                \
		vreplace(field, fmt, ap);         \
		va_end(ap);                       \
	} while (0)

void diag_fire(struct diagnosis *d, enum diag_confidence conf, unsigned affects, const char *fmt, ...)
{
	REPLACE_TEXT(&d->reason, fmt);
	d->confidence = conf;
	d->affects |= affects;
}

void diag_evidence(struct diagnosis *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_take(&d->evidence, xvasprintf(fmt, ap));
	va_end(ap);
}

void diag_set_normal(struct diagnosis *d, const char *fmt, ...)
{
	REPLACE_TEXT(&d->normal, fmt);
}

void diag_set_unchecked(struct diagnosis *d, const char *fmt, ...)
{
	REPLACE_TEXT(&d->unchecked, fmt);
}

void diag_evidence_finding(struct diagnosis *d, const struct env_finding *f)
{
	diag_evidence(d, "finding %s: %s", f->id, f->evidence ?: f->message ?: "");
}

size_t diag_evidence_events(struct diagnosis *d, const struct diag_case *c, const char *kind, size_t max)
{
	size_t count = 0;
	diag_foreach_event(c, e) {
		if (!streq_ptr(e->kind, kind))
			continue;
		if (count++ < max)
			diag_evidence(d, "during the run: %s", e->message ?: kind);
	}
	if (count > max)
		diag_evidence(d, "and %zu more %s events", count - max, kind);
	return count;
}

void diag_gain(struct diagnosis *d, const struct diag_run *r, enum diag_test t, double expected)
{
	if (!(r->index[t] > 0) || !(expected > r->index[t]) || d->ngains >= DIAG_MAX_GAINS)
		return;
	for (size_t i = 0; i < d->ngains; i++)
		if (d->gains[i].test == t && d->gains[i].copies == r->copies) {
			d->gains[i].expected = fmax(d->gains[i].expected, expected);
			return;
		}
	d->gains[d->ngains++] = (struct diag_gain){ t, r->copies, r->index[t], expected };
}

bool diag_gain_from_refs(struct diagnosis *d, const struct diag_case *c, unsigned mask, unsigned control)
{
	size_t before = d->ngains;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		const struct diag_match *m = &c->match[i];
		double speed = control ? diag_vs_ref(c, r, control) : 1;
		if (!(speed > 0))
			continue;
		for (int t = 0; t < DIAG_NTESTS; t++)
			if ((mask & DT(t)) && m->has[t])
				diag_gain(d, r, (enum diag_test)t, m->mid[t] * speed);
	}
	return d->ngains > before;
}

void diag_gain_scaling(struct diagnosis *d, const struct diag_case *c, unsigned mask)
{
	bool healthy = false;
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (!one || !many)
		return;
	const struct diag_match *m1 = diag_match_of(c, one), *mn = diag_match_of(c, many);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		if (!(mask & DT(t)))
			continue;
		double factor = NAN;
		if (m1->has[t] && mn->has[t])
			factor = mn->mid[t] / m1->mid[t];
		else if (DT(t) & DT_CPU) {
			factor = DIAG_SCALING_HEALTHY * diag_capacity(c, many);
			healthy = true;
		}
		if (factor > 0)
			diag_gain(d, many, (enum diag_test)t, one->index[t] * factor);
	}
	if (healthy && !d->expect)
		d->expect = xasprintf("the CPU tests at %u copies at %.0f %% of %.3g × their 1-copy index, as on "
				      "published healthy machines; the other tests gain less",
				      many->copies, DIAG_SCALING_HEALTHY * 100, diag_capacity(c, many));
}

/* ---- ranking ---- */

struct cause {
	struct diagnosis d;
	double impact; /* largest relative gain of a run's score */
	size_t order;  /* position in the rule tables */
	const char *explained_by; /* a generic cause: the specific one that names why */
};

/* The score of run r once the gains of d are had. */
static double score_after(const struct diagnosis *d, const struct diag_run *r)
{
	struct diag_run after = *r;
	for (size_t i = 0; i < d->ngains; i++)
		if (d->gains[i].copies == r->copies)
			after.index[d->gains[i].test] = d->gains[i].expected;
	diag_run_score(&after);
	return after.score;
}

/* A printed score of every test, of which only some were read, cannot be recomputed. */
static bool score_of_unread(const struct diag_run *r)
{
	return r->score_printed && r->ntests < DIAG_NTESTS;
}

static double impact(const struct diagnosis *d, const struct diag_case *c)
{
	double best = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		double now = score_of_unread(r) ? diag_gm(r, DT_ALL) : r->score;
		if (now > 0)
			best = fmax(best, score_after(d, r) / now - 1);
	}
	return best;
}

static int cause_cmp(const void *pa, const void *pb)
{
	const struct cause *a = pa, *b = pb;
	if (a->d.confidence != b->d.confidence)
		return a->d.confidence > b->d.confidence ? -1 : 1;
	if (fabs(a->impact - b->impact) > 1e-9)
		return a->impact > b->impact ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* A generic cause goes after the specific causes that lower some of the
 * same tests with at least its confidence: the first of them names why. */
static void demote_generic(struct cause *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!v[i].d.rule->generic)
			continue;
		size_t last = i;
		for (size_t j = 0; j < n; j++)
			if (j != i && !v[j].d.rule->generic && v[j].d.confidence >= v[i].d.confidence &&
			    (v[j].d.affects & v[i].d.affects)) {
				if (!v[i].explained_by)
					v[i].explained_by = v[j].d.rule->id;
				if (j > i)
					last = j;
			}
		if (last == i)
			continue;
		struct cause g = v[i];
		memmove(&v[i], &v[i + 1], (last - i) * sizeof(*v));
		v[last] = g;
		i--; /* the entry now at i has not been looked at */
	}
}

/* ---- the report ---- */

json_object *diag_jround(double v, double unit)
{
	return isfinite(v) ? json_object_new_double(round(v / unit) * unit) : NULL;
}

static const char *copies_word(unsigned n)
{
	return n == 1 ? "copy" : "copies";
}

static json_object *gains_json(const struct diagnosis *d)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < d->ngains; i++) {
		const struct diag_gain *g = &d->gains[i];
		json_object *o = json_object_new_object();
		jset_str(o, "test", ub_tests[g->test].id);
		jset_str(o, "name", ub_tests[g->test].name);
		jset_int(o, "copies", g->copies);
		jset(o, "now", diag_jround(g->now, 0.1));
		jset(o, "expected", diag_jround(g->expected, 0.1));
		jset(o, "change_pct", diag_jround((g->expected / g->now - 1) * 100, 1));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *score_gains_json(const struct diagnosis *d, const struct diag_case *c)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < c->nruns && d->ngains; i++) {
		const struct diag_run *r = &c->runs[i];
		double after = score_after(d, r);
		if (!(r->score > 0) || !(after > r->score * 1.005) || score_of_unread(r))
			continue;
		json_object *o = json_object_new_object();
		jset_int(o, "copies", r->copies);
		jset(o, "now", diag_jround(r->score, 0.1));
		jset(o, "expected", diag_jround(after, 0.1));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *strv_json(const struct strv *l)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < l->n; i++)
		jarr_add_str(a, l->v[i]);
	return a;
}

static json_object *cause_json(const struct cause *k, size_t rank, const struct diag_case *c)
{
	const struct diagnosis *d = &k->d;
	json_object *o = json_object_new_object();
	jset_int(o, "rank", (int64_t)rank);
	jset_str(o, "id", d->rule->id);
	jset_str(o, "title", d->rule->title);
	jset_str(o, "confidence", diag_confidence_name(d->confidence));
	jset_bool(o, "generic", d->rule->generic);
	jset_str(o, "reason", d->reason);
	jset(o, "evidence", strv_json(&d->evidence));
	jset_str(o, "fix", d->fix ?: d->rule->fix);
	jset(o, "gains", gains_json(d));
	jset(o, "score", score_gains_json(d, c));
	jset_str(o, "expect", d->expect);
	jset_str(o, "experiment", d->rule->experiment);
	jset_str(o, "explained_by", k->explained_by);
	json_object *tests = json_object_new_array();
	for (int t = 0; t < DIAG_NTESTS; t++)
		if (d->affects & DT(t))
			jarr_add_str(tests, ub_tests[t].id);
	jset(o, "affects", tests);
	return o;
}

static json_object *note_json(const char *id, const char *text)
{
	json_object *o = json_object_new_object();
	jset_str(o, "id", id);
	jset_str(o, "text", text);
	return o;
}

static json_object *references_json(const struct diag_case *c)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		const struct diag_match *m = &c->match[i];
		if (!m->n)
			continue;
		json_object *o = json_object_new_object(), *runs = json_object_new_array(),
			    *tests = json_object_new_array();
		jset_int(o, "copies", r->copies);
		jset_str(o, "basis", m->basis);
		for (size_t k = 0; k < m->n; k++) {
			const struct diag_ref *ref = m->refs[k];
			json_object *x = json_object_new_object();
			jset_str(x, "id", ref->id);
			jset_str(x, "description", ref->description);
			jset_str(x, "source", ref->source);
			jset_bool(x, "history", ref->history);
			jset(x, "score", diag_jround(ref->run.score, 0.1));
			json_object_array_add(runs, x);
		}
		for (int t = 0; t < DIAG_NTESTS; t++) {
			if (!(r->index[t] > 0) || !m->has[t])
				continue;
			json_object *x = json_object_new_object();
			jset_str(x, "test", ub_tests[t].id);
			jset_str(x, "name", ub_tests[t].name);
			jset(x, "index", diag_jround(r->index[t], 0.1));
			jset(x, "expected_low", diag_jround(m->lo[t], 0.1));
			jset(x, "expected_high", diag_jround(m->hi[t], 0.1));
			jset(x, "ratio", diag_jround(r->index[t] / m->mid[t], 0.01));
			json_object_array_add(tests, x);
		}
		jset(o, "runs", runs);
		jset(o, "tests", tests);
		json_object_array_add(a, o);
	}
	return a;
}

/* A clean reference pair's multi-copy score over its 1-copy score; *ref
 * gets the pair's 1-copy run. */
static double reference_scaling(const struct diag_case *c, const struct diag_ref **ref)
{
	const struct diag_match *m1 = diag_match_of(c, diag_single(c)), *mn = diag_match_of(c, diag_multi(c));
	for (size_t i = 0; m1 && mn && i < m1->n; i++)
		for (size_t k = 0; k < mn->n; k++) {
			const struct diag_ref *a = m1->refs[i], *b = mn->refs[k];
			if (streq(a->group, b->group) && diag_ref_clean(a, DT_DHRY) && a->run.ntests == DIAG_NTESTS &&
			    b->run.ntests == DIAG_NTESTS) {
				*ref = a;
				return b->run.score / a->run.score;
			}
		}
	return NAN;
}

static char *summary(const struct diag_case *c)
{
	struct buf b = {0};
	buf_puts(&b, "Score");
	for (size_t i = 0, n = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		if (!(r->score > 0))
			continue;
		if (r->copies)
			buf_printf(&b, "%s %.1f (%u %s%s)", n++ ? " /" : "", r->score, r->copies, copies_word(r->copies),
				   r->ntests < DIAG_NTESTS ? ", partial" : "");
		else
			buf_printf(&b, "%s %.1f (copies unknown%s)", n++ ? " /" : "", r->score,
				   r->ntests < DIAG_NTESTS ? ", partial" : "");
	}
	if (c->cpu_model || c->cpus) {
		buf_puts(&b, " on ");
		if (c->cpus)
			buf_printf(&b, "%u × ", c->cpus);
		buf_puts(&b, c->cpu_model ?: "CPUs");
	}
	if (c->virt != DV_UNKNOWN)
		buf_printf(&b, " (%s)", diag_virt_name(c->virt));
	if (c->copies_unknown)
		buf_puts(&b, "; the log does not say how many copies ran, so only its header is judged "
			     "(import it with --copies N for the scores)");
	else if (c->scores_only)
		buf_puts(&b, " as printed; no test is printed, so only the header is judged");
	else if (c->baselines_own)
		buf_puts(&b, " as printed; its indexes are against baselines of its own, not UnixBench's: no index "
			     "to compare, so only a test that failed and its header are judged");
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (one && many && one->score > 0 && many->score > 0) {
		buf_printf(&b, "; %u copies scale %.2f×", many->copies, many->score / one->score);
		if (c->cpus)
			buf_printf(&b, " on %u CPUs", c->cpus);
		const struct diag_ref *pair = NULL;
		double ref = reference_scaling(c, &pair);
		if (ref > 0 && pair->history)
			buf_printf(&b, ", your %s %.2f×", pair->group, ref);
		else if (ref > 0)
			buf_printf(&b, ", published runs of this CPU %.2f×", ref);
	}
	if (is_true(c->r.quick))
		buf_puts(&b, "; a quick run: short passes, noisier than the published ones");
	if (is_true(c->r.incomplete))
		buf_printf(&b, "; stopped by %s before the end", c->r.interrupted_by ?: "a signal");
	return buf_steal(&b);
}

static bool in_table(const struct diag_rule *r, const struct diag_rule *table)
{
	for (; table->id; table++)
		if (r == table)
			return true;
	return false;
}

static void collect(const struct diag_rule *r, void *data)
{
	void **p = data;
	const struct diag_case *c = p[0];
	struct cause **v = p[1];
	size_t *n = p[2];
	/* runs of unknown copies: only what the log's header says can be judged */
	if ((c->copies_unknown || c->scores_only || (c->baselines_own && !r->any_baselines)) &&
	    !in_table(r, diag_rules_header))
		return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	struct cause *k = &(*v)[*n];
	*k = (struct cause){ .order = *n };
	diag_rule_run(r, c, &k->d);
	k->impact = impact(&k->d, c);
	(*n)++;
}

json_object *diagnose(const struct diag_case *c)
{
	struct cause *v = NULL;
	size_t n = 0;
	void *args[] = { (void *)c, &v, &n };
	diag_rules_foreach(collect, args);

	json_object *report = json_object_new_object();
	jset_str(report, "schema", DIAGNOSIS_SCHEMA);
	json_object *res = jchild(report, "result");
	jset_str(res, "run_id", c->r.run_id);
	jset_str(res, "host", c->r.host);
	jset_str(res, "started_at", c->r.started_at);
	jset_bool(res, "imported", c->imported);
	jset_bool(res, "environment", c->probed);
	jset_bool(res, "sampled", c->sampled);
	jset_str(res, "cpu", c->cpu_model);
	jset(res, "cpus", c->cpus ? json_object_new_int((int)c->cpus) : NULL);
	jset_str(res, "virt", c->virt == DV_UNKNOWN ? NULL : diag_virt_name(c->virt));
	json_object *runs = json_object_new_array();
	for (size_t i = 0; i < c->nruns; i++) {
		json_object *o = json_object_new_object();
		jset(o, "copies", c->runs[i].copies ? json_object_new_int((int)c->runs[i].copies) : NULL);
		jset(o, "score", diag_jround(c->runs[i].score, 0.1));
		jset_int(o, "tests", c->runs[i].ntests);
		jset(o, "expected", diag_expected_json(c, i));
		json_object_array_add(runs, o);
	}
	jset(res, "runs", runs);
	if (c->baselines_own || c->scores_only)
		jset_bool(res, "scores_judged", false);
	jset(report, "level", diag_level_json(c));
	_cleanup_free_ char *sum = summary(c);
	jset_str(report, "summary", sum);

	qsort(v, n, sizeof(*v), cause_cmp);
	demote_generic(v, n);
	json_object *causes = json_object_new_array(), *normal = json_object_new_array(),
		    *unchecked = json_object_new_array(), *experiments = json_object_new_array();
	size_t rank = 0;
	for (size_t i = 0; i < n; i++) {
		struct diagnosis *d = &v[i].d;
		if (d->confidence > DC_NONE) {
			json_object_array_add(causes, cause_json(&v[i], ++rank, c));
			if (d->rule->experiment && !v[i].explained_by)
				jarr_add_str(experiments, d->rule->experiment);
		} else if (d->normal) {
			json_object_array_add(normal, note_json(d->rule->id, d->normal));
		} else if (d->unchecked) {
			json_object_array_add(unchecked, note_json(d->rule->id, d->unchecked));
		}
		diagnosis_clear(d);
	}
	free(v);
	jset(report, "causes", causes);
	jset(report, "normal", normal);
	jset(report, "not_checked", unchecked);
	jset(report, "references", references_json(c));
	jset(report, "experiments", experiments);
	return report;
}
