/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several results in one file: two kernels, two clocks, before and after a
 * patch, disk and tmpfs. Each is diagnosed on its own; where they ran on
 * one machine, what differs between the first and each other is measured
 * test group by test group, and the difference rules say which condition
 * explains it.
 */
#include <inttypes.h>
#include <stdarg.h>

#include "diagnose.h"
#include "lib/schema-table.h"
#include "lib/term.h"

#define DIAGNOSIS_SET_SCHEMA "ubtune.diagnosis-set/1"

/*
 * The groups of tests that one kind of change moves, and their noise. A
 * group that moves less than its noise does not differ. Published runs of
 * one machine under one condition (a VisionFive 2 with and without the B
 * extension on Whetstone, two P550 builds, an SG2042 with two sets of
 * -march extensions) agree within 2 % on the CPU tests and within 7 % on
 * the others but Context Switching, which moves by up to 12 % with where
 * the scheduler puts the two processes (so 10 % for its group).
 */
const struct diag_group_info diag_groups[DIAG_NGROUPS] = {
	[DG_CPU] = { "cpu", "CPU", "Dhrystone, Whetstone", DT_CPU, 0.05 },
	[DG_ENTRY] = { "kernel-entry", "kernel entry", "System Call Overhead, Pipe Throughput", DT_KERNEL, 0.07 },
	[DG_SCHED] = { "scheduler", "scheduler and wake-ups", "Context Switching, Process Creation, Shell Scripts",
		       DT(DT_CTX) | DT(DT_SPAWN) | DT_SHELL, 0.10 },
	[DG_EXEC] = { "exec-memory", "exec and memory", "Execl", DT(DT_EXECL), 0.07 },
	[DG_FS] = { "filesystem", "file system and page cache", "File Copy", DT_FILECOPY, 0.10 },
};

const char diag_noise_source[] = "published repeats of one machine under one condition (a VisionFive 2, two P550 "
				 "builds, an SG2042): 5 % CPU, 10 % scheduler, 7 % and 10 % the others";

/* The ratios of b against a over the copy counts both ran (both unknown
 * counts as one); only the 1-copy runs when one_copy. */
static void pair_compute(struct diag_pair *p, bool one_copy)
{
	double sum[DIAG_NGROUPS] = {0};
	unsigned cnt[DIAG_NGROUPS] = {0};
	const struct diag_case *a = p->a, *b = p->b;
	for (size_t i = 0; i < a->nruns; i++)
		for (size_t j = 0; j < b->nruns && p->n < DIAG_MAX_RUNS; j++) {
			const struct diag_run *ra = &a->runs[i], *rb = &b->runs[j];
			bool scores = !ra->ntests && !rb->ntests && ra->score > 0 && rb->score > 0;
			if (ra->copies != rb->copies || ((!ra->ntests || !rb->ntests) && !scores) ||
			    (one_copy && ra->copies != 1))
				continue;
			p->scores_only |= scores;
			size_t k = p->n++;
			p->copies[k] = ra->copies;
			p->score[k] = rb->score / ra->score;
			for (int t = 0; t < DIAG_NTESTS; t++) {
				p->ratio[k][t] = ra->index[t] > 0 && rb->index[t] > 0 ? rb->index[t] / ra->index[t] : NAN;
				if (!(p->ratio[k][t] > 0))
					continue;
				for (int g = 0; g < DIAG_NGROUPS; g++)
					if (diag_groups[g].mask & DT(t)) {
						sum[g] += log(p->ratio[k][t]);
						cnt[g]++;
					}
			}
			break;
		}
	for (int g = 0; g < DIAG_NGROUPS; g++) {
		p->group[g] = cnt[g] ? exp(sum[g] / cnt[g]) : NAN;
		p->noise[g] = diag_groups[g].noise;
		p->noise_from[g] = diag_noise_source;
	}
}

void diag_pair_init(struct diag_pair *p, const struct diag_case *a, const struct diag_case *b, const char *label_a,
		    const char *label_b)
{
	*p = (struct diag_pair){ .a = a, .b = b, .label_a = label_a, .label_b = label_b };
	pair_compute(p, false);
}

bool diag_pair_moved(const struct diag_pair *p, enum diag_group g, double by)
{
	return p->group[g] > 0 && fabs(log(p->group[g])) >= log1p(by > 0 ? by : p->noise[g]);
}

bool diag_pair_differs(const struct diag_pair *p)
{
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (diag_pair_moved(p, (enum diag_group)g, 0))
			return true;
	for (size_t k = 0; p->scores_only && k < p->n; k++)
		if (p->score[k] > 0 && fabs(log(p->score[k])) >= log1p(DIAG_SCORE_NOISE))
			return true;
	return false;
}

void diag_diff_fire(struct diag_diff *d, enum diag_confidence conf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(d->reason);
	d->reason = xvasprintf(fmt, ap);
	va_end(ap);
	d->confidence = conf;
}

void diag_diff_evidence(struct diag_diff *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_take(&d->evidence, xvasprintf(fmt, ap));
	va_end(ap);
}

void diag_diff_clear(struct diag_diff *d)
{
	free(d->reason);
	strv_free(&d->evidence);
	*d = (struct diag_diff){0};
}

bool diag_same_machine(const struct diag_case *a, const struct diag_case *b, char **why)
{
	const char *ha = a->r.host, *hb = b->r.host;
	unsigned ca = a->cpus ?: a->hdr.threads, cb = b->cpus ?: b->hdr.threads;
	if (a->cpu_model && b->cpu_model && !diag_same_cpu(a->cpu_model, b->cpu_model)) {
		*why = xasprintf("two machines: %s and %s", a->cpu_model, b->cpu_model);
		return false;
	}
	if (ha && hb && !streq(ha, hb) && !(a->cpu_model && b->cpu_model)) {
		*why = xasprintf("two machines: host %s and %s", ha, hb);
		return false;
	}
	if (ha && hb && !streq(ha, hb))
		*why = xasprintf("two hosts of one CPU model: %s and %s (%s)", ha, hb, a->cpu_model);
	else if (ca && cb && ca != cb)
		*why = xasprintf("one CPU model, %u and %u CPUs: compared at 1 copy", ca, cb);
	else if (ha && hb)
		*why = xasprintf("one machine: host %s", ha);
	else if (a->cpu_model && b->cpu_model)
		*why = xasprintf("one machine: %s%s", a->cpu_model, ca && cb ? ", the same CPU count" : "");
	else
		*why = xstrdup("taken as one machine: the file does not say on which each ran");
	return true;
}

/* Rules fired on a pair, the most certain first, then in table order. */
struct fired {
	const struct diag_diff_rule *rule;
	struct diag_diff d;
	size_t order;
};

static int fired_cmp(const void *x, const void *y)
{
	const struct fired *a = x, *b = y;
	if (a->d.confidence != b->d.confidence)
		return (int)b->d.confidence - (int)a->d.confidence;
	return a->order < b->order ? -1 : a->order > b->order;
}

static json_object *causes_json(const struct diag_pair *p)
{
	struct fired v[32];
	size_t n = 0;
	for (const struct diag_diff_rule *r = diag_diff_rules; r->id && n < ARRAY_SIZE(v); r++) {
		v[n] = (struct fired){ .rule = r, .order = n };
		r->check(p, &v[n].d);
		if (v[n].d.confidence > DC_NONE)
			n++;
		else
			diag_diff_clear(&v[n].d);
	}
	qsort(v, n, sizeof(*v), fired_cmp);
	json_object *causes = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_new_object();
		jset_str(x, "id", v[i].rule->id);
		jset_str(x, "class", v[i].d.class ?: v[i].rule->class);
		jset_str(x, "title", v[i].rule->title);
		jset_str(x, "confidence", diag_confidence_name(v[i].d.confidence));
		jset_str(x, "reason", v[i].d.reason);
		json_object *ev = json_object_new_array();
		for (size_t j = 0; j < v[i].d.evidence.n; j++)
			jarr_add_str(ev, v[i].d.evidence.v[j]);
		jset(x, "evidence", ev);
		json_object_array_add(causes, x);
		diag_diff_clear(&v[i].d);
	}
	return causes;
}

static json_object *pair_json(const struct diag_pair *p)
{
	json_object *o = json_object_new_object();
	jset_str(o, "a", p->label_a);
	jset_str(o, "b", p->label_b);
	json_object *groups = json_object_new_array();
	for (int g = 0; g < DIAG_NGROUPS; g++) {
		json_object *x = json_object_new_object();
		jset_str(x, "group", diag_groups[g].id);
		jset_str(x, "name", diag_groups[g].name);
		jset_str(x, "tests", diag_groups[g].tests);
		jset_bool(x, "ran", diag_pair_ran(p, (enum diag_group)g));
		jset(x, "change_pct", diag_jround((p->group[g] - 1) * 100, 0.1));
		jset_bool(x, "moved", diag_pair_moved(p, (enum diag_group)g, 0));
		jset(x, "noise_pct", diag_jround(p->noise[g] * 100, 0.1));
		jset_str(x, "noise_from", p->noise_from[g]);
		json_object_array_add(groups, x);
	}
	jset(o, "groups", groups);
	json_object *runs = json_object_new_array();
	for (size_t k = 0; k < p->n; k++) {
		json_object *x = json_object_new_object();
		jset(x, "copies", p->copies[k] ? json_object_new_int((int)p->copies[k]) : NULL);
		jset(x, "score_change_pct", diag_jround((p->score[k] - 1) * 100, 0.1));
		json_object_array_add(runs, x);
	}
	jset(o, "runs", runs);
	jset(o, "causes", causes_json(p));
	struct strv notes = {0};
	diag_diff_notes(p, &notes);
	json_object *nj = json_object_new_array();
	for (size_t i = 0; i < notes.n; i++)
		jarr_add_str(nj, notes.v[i]);
	strv_free(&notes);
	jset(o, "notes", nj);
	if (p->scores_only)
		jset(o, "score_noise_pct", diag_jround(DIAG_SCORE_NOISE * 100, 0.1));
	jset_bool(o, "differs", diag_pair_differs(p));
	return o;
}

/* The group of runs (a machine of several) a result belongs to: its first
 * run's, as the source gave it. */
static const char *group_of(const struct diag_case *c)
{
	return c->r.runs.n ? c->r.runs.v[0].group : NULL;
}

/* The spread of results of one condition (the same label) in one group,
 * as the noise of each test group where it is above the floor; the
 * published noise where the document has no repeat. */
static void own_noise(struct diag_pair *p, const struct diag_case *cases, const char *const *labels, size_t n,
		      char *from, size_t size)
{
	double spread[DIAG_NGROUPS] = {0};
	const char *twice = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!labels[i] || !streq(labels[i], labels[j]) || !streq_ptr(group_of(&cases[i]), group_of(&cases[j])))
				continue;
			struct diag_pair r;
			diag_pair_init(&r, &cases[i], &cases[j], labels[i], labels[j]);
			for (int g = 0; g < DIAG_NGROUPS && r.n; g++)
				if (r.group[g] > 0) {
					spread[g] = fmax(spread[g], fabs(r.group[g] - 1));
					twice = labels[i];
				}
		}
	if (!twice)
		return;
	snprintf(from, size, "this document's repeats: the runs labelled \"%s\" (their spread, at least 2 %%)", twice);
	for (int g = 0; g < DIAG_NGROUPS; g++)
		if (spread[g] > 0) {
			p->noise[g] = fmax(spread[g], 0.02);
			p->noise_from[g] = from;
		}
}

/* The result the others of its group are measured against: the first whose
 * label names a baseline ("before", "without patch"), else the first. */
static size_t baseline_of(const struct diag_case *cases, const char *const *labels, size_t n, size_t i)
{
	const char *g = group_of(&cases[i]);
	size_t first = n;
	for (size_t k = 0; k < n; k++) {
		if (!streq_ptr(group_of(&cases[k]), g))
			continue;
		if (diag_label_baseline(labels[k]))
			return k;
		if (first == n)
			first = k;
	}
	return first;
}

json_object *diagnose_set(const struct diag_case *cases, const char *const *labels, size_t n)
{
	json_object *set = json_object_new_object();
	jset_str(set, "schema", DIAGNOSIS_SET_SCHEMA);
	json_object *reports = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *r = diagnose(&cases[i]);
		jset_str(r, "label", labels[i]);
		json_object_array_add(reports, r);
	}
	jset(set, "reports", reports);
	json_object *pairs = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		size_t base = baseline_of(cases, labels, n, i);
		if (base == i || (labels[i] && labels[base] && streq(labels[i], labels[base])))
			continue;
		/* against the baseline; else the first earlier result of the
		 * group with a copy count in common (a 1-copy run is never
		 * measured against a 72-copy one) */
		_cleanup_free_ char *why = NULL;
		struct diag_pair p = {0};
		size_t j = base;
		bool one = diag_same_machine(&cases[j], &cases[i], &why);
		diag_pair_init(&p, &cases[j], &cases[i], labels[j], labels[i]);
		for (size_t k = 0; !p.n && k < i; k++) {
			if (k == base || !streq_ptr(group_of(&cases[k]), group_of(&cases[i])))
				continue;
			j = k;
			free(why);
			one = diag_same_machine(&cases[j], &cases[i], &why);
			diag_pair_init(&p, &cases[j], &cases[i], labels[j], labels[i]);
		}
		if (!p.n)
			continue;
		if (one && strstr(why, "compared at 1 copy")) {
			p = (struct diag_pair){ .a = &cases[j], .b = &cases[i], .label_a = labels[j], .label_b = labels[i] };
			pair_compute(&p, true);
			if (!p.n)
				continue;
		}
		char from[256];
		own_noise(&p, cases, labels, n, from, sizeof(from));
		json_object *o = one ? pair_json(&p) : json_object_new_object();
		if (!one) {
			jset_str(o, "a", labels[j]);
			jset_str(o, "b", labels[i]);
		}
		jset_int(o, "a_result", (int64_t)j + 1);
		jset_int(o, "b_result", (int64_t)i + 1);
		jset_str(o, "group", group_of(&cases[i]));
		jset_bool(o, "one_machine", one);
		jset_str(o, "machine", why);
		json_object_array_add(pairs, o);
	}
	jset(set, "comparisons", pairs);
	return set;
}

/* ---- text ---- */

/* The set (ubtune.diagnosis-set/1) as diagnose_set() writes it, read back for the text. */
struct set_group {
	const char *group, *name, *tests, *noise_from;
	struct opt_num change_pct, noise_pct;
	struct opt_bool moved, ran;
};
struct set_cause {
	const char *id, *class, *title, *confidence, *reason;
	ARRAY_OF(const char *) evidence;
};
struct set_run {
	struct opt_int copies;
	struct opt_num score_change_pct;
};
struct set_pair {
	const char *a, *b, *machine, *group;
	struct opt_bool one_machine, differs;
	struct opt_num score_noise_pct;
	ARRAY_OF(struct set_run) runs;
	ARRAY_OF(struct set_group) groups; /* json NULL: two machines, not compared */
	ARRAY_OF(struct set_cause) causes;
	ARRAY_OF(const char *) notes;
};
struct set_report {
	json_object *json;
	const char *label;
};
struct diag_set {
	ARRAY_OF(struct set_report) reports;
	ARRAY_OF(struct set_pair) comparisons;
};

#define T struct set_group
static const struct schema group_schema = SCHEMA(T, S(group), S(name), S(tests), S(noise_from), N(change_pct),
						 N(noise_pct), B(moved), B(ran));
#undef T
#define T struct set_run
static const struct schema set_run_schema = SCHEMA(T, I(copies), N(score_change_pct));
#undef T
#define T struct set_cause
static const struct schema set_cause_schema = SCHEMA(T, S(id), S(class), S(title), S(confidence), S(reason),
						     FIELD_STR_ARRAY(T, evidence, OPTIONAL));
#undef T
#define T struct set_pair
static const struct schema pair_schema = SCHEMA(T, S(a), S(b), S(machine), S(group), B(one_machine), B(differs),
						N(score_noise_pct), L(runs, set_run_schema), L(groups, group_schema),
						L(causes, set_cause_schema),
						FIELD_STR_ARRAY(T, notes, OPTIONAL));
#undef T
#define T struct set_report
static const struct schema set_report_schema = SCHEMA(T, FIELD_SELF(T, json), S(label));
#undef T
#define T struct diag_set
static const struct schema set_schema = SCHEMA(T, L(reports, set_report_schema), L(comparisons, pair_schema));
#undef T

/* "b against a": what differs, group by group, with the noise each is
 * measured against; then the causes that move exactly those groups. */
static void render_pair(const struct set_pair *o, FILE *out)
{
	if (o->group)
		term_printf_wrapped(out, 0, "%s, %s against %s: %s", o->group, o->b, o->a, o->machine);
	else
		term_printf_wrapped(out, 0, "%s against %s: %s", o->b, o->a, o->machine);
	if (!o->groups.json)
		return;
	struct buf missing = {0};
	struct strv from = {0};
	for (size_t i = 0; i < o->groups.n; i++) {
		const struct set_group *g = &o->groups.v[i];
		if (!is_true(g->ran)) {
			buf_printf(&missing, "%s%s", missing.len ? ", " : "", g->name);
			continue;
		}
		term_printf_wrapped(out, 2, "%s (%s): %+.1f %%, %s (noise %.0f %%)", g->name, g->tests,
				    num_or(g->change_pct, 0), is_true(g->moved) ? "stands out" : "within noise",
				    num_or(g->noise_pct, 0));
		if (g->noise_from && !strv_contains(&from, g->noise_from))
			strv_push(&from, g->noise_from);
	}
	if (o->score_noise_pct.known) {
		/* runs that print only their score */
		for (size_t i = 0; i < o->runs.n; i++) {
			double pct = num_or(o->runs.v[i].score_change_pct, 0);
			_cleanup_free_ char *copies = o->runs.v[i].copies.known
							      ? xasprintf(" (%" PRId64 " %s)", o->runs.v[i].copies.v,
									  o->runs.v[i].copies.v == 1 ? "copy" : "copies")
							      : xstrdup("");
			term_printf_wrapped(out, 2, "index score%s: %+.1f %%, %s (noise %.0f %%)", copies, pct,
					    fabs(pct) >= o->score_noise_pct.v ? "stands out" : "within noise",
					    o->score_noise_pct.v);
		}
		term_printf_wrapped(out, 2, "noise: published near-repeats of one board (two builds): their index "
					    "scores within 1.5 %%; only the scores are printed");
		buf_free(&missing);
	} else if (missing.len) {
		term_printf_wrapped(out, 2, "not run in both: %s", missing.s);
	}
	for (size_t i = 0; i < from.n; i++)
		term_printf_wrapped(out, 2, "noise: %s", from.v[i]);
	buf_free(&missing);
	strv_free(&from);
	size_t n = o->causes.n;
	if (!n && is_true(o->differs))
		term_printf_wrapped(out, 2, "no cause found: nothing in the headers or labels tells the two apart");
	for (size_t i = 0; i < n; i++) {
		const struct set_cause *c = &o->causes.v[i];
		term_printf_wrapped(out, 2, "%s %s (confidence: %s)  %s", i ? "or" : "cause:", c->title, c->confidence,
				    c->class ?: c->id);
		term_printf_wrapped(out, 4, "%s", c->reason);
		for (size_t j = 0; j < c->evidence.n; j++)
			term_printf_wrapped(out, 4, "- %s", c->evidence.v[j]);
	}
	for (size_t i = 0; i < o->notes.n; i++)
		term_printf_wrapped(out, 2, "note: %s", o->notes.v[i]);
}

/* What differs between the runs leads; then each result's own report. */
void diagnose_set_render(json_object *json, FILE *out)
{
	struct diag_set set;
	_cleanup_free_ char *error = NULL;
	/* diagnose_set() wrote it: a set that does not fit is a bug, drawn as empty */
	(void)schema_decode(&set_schema, json, "", &set, &error);
	for (size_t i = 0; i < set.comparisons.n; i++) {
		fputs(i ? "\n" : "== What differs ==\n\n", out);
		render_pair(&set.comparisons.v[i], out);
	}
	size_t n = set.reports.n;
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s== %s (%zu of %zu) ==\n\n", i || set.comparisons.n ? "\n" : "", set.reports.v[i].label,
			i + 1, n);
		diagnose_render(set.reports.v[i].json, out);
	}
	schema_free(&set_schema, &set);
}
