/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several results in one file: two kernels, two clocks, before and after a
 * patch, disk and tmpfs. Each is diagnosed on its own; where they ran on
 * one machine, what differs between the first and each other is measured
 * test group by test group, and the difference rules say which condition
 * explains it.
 */
#include <stdarg.h>

#include "diagnose.h"
#include "lib/schema-table.h"
#include "lib/term.h"

#define DIAGNOSIS_SET_SCHEMA "ubtune.diagnosis-set/1"

/*
 * A group that moves less than its noise does not differ. Published runs
 * of one machine under one condition (a VisionFive 2 with and without the
 * B extension on Whetstone, two P550 builds, an SG2042 with two sets of
 * -march extensions) agree within 2 % on the CPU tests and within 7 % on
 * the others but Context Switching, which moves by up to 12 % with where
 * the scheduler puts the two processes.
 */
const struct diag_group_info diag_groups[DIAG_NGROUPS] = {
	[DG_CPU] = { "cpu", "Dhrystone and Whetstone", DT_CPU, 0.05 },
	[DG_KERNEL] = { "kernel", "the pipe and system-call tests", DT_KERNEL, 0.07 },
	[DG_CTX] = { "context", "Pipe-based Context Switching", DT(DT_CTX), 0.2 },
	[DG_PROCESS] = { "process", "Execl and Process Creation", DT_PROCESS, 0.07 },
	[DG_FILECOPY] = { "filecopy", "File Copy", DT_FILECOPY, 0.1 },
	[DG_SHELL] = { "shell", "the shell scripts", DT_SHELL, 0.07 },
};

void diag_pair_init(struct diag_pair *p, const struct diag_case *a, const struct diag_case *b, const char *label_a,
		    const char *label_b)
{
	*p = (struct diag_pair){ .a = a, .b = b, .label_a = label_a, .label_b = label_b };
	double sum[DIAG_NGROUPS] = {0};
	unsigned cnt[DIAG_NGROUPS] = {0};
	for (size_t i = 0; i < a->nruns; i++)
		for (size_t j = 0; j < b->nruns && p->n < DIAG_MAX_RUNS; j++) {
			const struct diag_run *ra = &a->runs[i], *rb = &b->runs[j];
			if (ra->copies != rb->copies || !ra->ntests || !rb->ntests)
				continue;
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
	for (int g = 0; g < DIAG_NGROUPS; g++)
		p->group[g] = cnt[g] ? exp(sum[g] / cnt[g]) : NAN;
}

bool diag_pair_moved(const struct diag_pair *p, enum diag_group g, double by)
{
	return p->group[g] > 0 && fabs(log(p->group[g])) >= log1p(by > 0 ? by : diag_groups[g].noise);
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
	if (ha && hb && !streq(ha, hb)) {
		*why = xasprintf("two machines: host %s and %s", ha, hb);
		return false;
	}
	if (a->cpu_model && b->cpu_model && !streq(a->cpu_model, b->cpu_model)) {
		*why = xasprintf("two machines: %s and %s", a->cpu_model, b->cpu_model);
		return false;
	}
	if (ca && cb && ca != cb) {
		*why = xasprintf("two machines: %u and %u CPUs", ca, cb);
		return false;
	}
	if (ha && hb)
		*why = xasprintf("one machine: host %s", ha);
	else if (a->cpu_model && b->cpu_model)
		*why = xasprintf("one machine: %s%s", a->cpu_model, ca && cb ? ", the same CPU count" : "");
	else
		*why = xstrdup("taken as one machine: the file does not say on which each ran");
	return true;
}

/* Rules fired on a pair, the most certain first. */
struct fired {
	const struct diag_diff_rule *rule;
	struct diag_diff d;
};

static int fired_cmp(const void *x, const void *y)
{
	const struct fired *a = x, *b = y;
	return (int)b->d.confidence - (int)a->d.confidence;
}

static json_object *pair_json(const struct diag_pair *p)
{
	json_object *o = json_object_new_object();
	jset_str(o, "a", p->label_a);
	jset_str(o, "b", p->label_b);
	json_object *groups = json_object_new_array();
	for (int g = 0; g < DIAG_NGROUPS; g++) {
		if (!(p->group[g] > 0))
			continue;
		json_object *x = json_object_new_object();
		jset_str(x, "group", diag_groups[g].id);
		jset(x, "change_pct", diag_jround((p->group[g] - 1) * 100, 0.1));
		jset_bool(x, "moved", diag_pair_moved(p, (enum diag_group)g, 0));
		json_object_array_add(groups, x);
	}
	jset(o, "groups", groups);
	json_object *runs = json_object_new_array();
	for (size_t k = 0; k < p->n; k++) {
		json_object *x = json_object_new_object();
		jset_int(x, "copies", p->copies[k]);
		jset(x, "score_change_pct", diag_jround((p->score[k] - 1) * 100, 0.1));
		json_object_array_add(runs, x);
	}
	jset(o, "runs", runs);

	struct fired v[32];
	size_t n = 0;
	for (const struct diag_diff_rule *r = diag_diff_rules; r->id && n < ARRAY_SIZE(v); r++) {
		v[n] = (struct fired){ .rule = r };
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
	jset(o, "causes", causes);
	bool moved = false;
	for (int g = 0; g < DIAG_NGROUPS; g++)
		moved |= diag_pair_moved(p, (enum diag_group)g, 0);
	jset_bool(o, "differs", moved);
	return o;
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
	for (size_t i = 1; i < n; i++) {
		/* against the first earlier result with a copy count in common */
		struct diag_pair p = {0};
		size_t j = 0;
		for (; j < i; j++) {
			diag_pair_init(&p, &cases[j], &cases[i], labels[j], labels[i]);
			if (p.n)
				break;
		}
		if (!p.n)
			continue;
		_cleanup_free_ char *why = NULL;
		bool one = diag_same_machine(&cases[j], &cases[i], &why);
		json_object *o = one ? pair_json(&p) : json_object_new_object();
		if (!one) {
			jset_str(o, "a", labels[j]);
			jset_str(o, "b", labels[i]);
		}
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
	const char *group;
	struct opt_num change_pct;
	struct opt_bool moved;
};
struct set_cause {
	const char *id, *title, *confidence, *reason;
	ARRAY_OF(const char *) evidence;
};
struct set_pair {
	const char *a, *b, *machine;
	struct opt_bool one_machine, differs;
	ARRAY_OF(struct set_group) groups; /* json NULL: two machines, not compared */
	ARRAY_OF(struct set_cause) causes;
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
static const struct schema group_schema = SCHEMA(T, S(group), N(change_pct), B(moved));
#undef T
#define T struct set_cause
static const struct schema set_cause_schema = SCHEMA(T, S(id), S(title), S(confidence), S(reason),
						     FIELD_STR_ARRAY(T, evidence, OPTIONAL));
#undef T
#define T struct set_pair
static const struct schema pair_schema = SCHEMA(T, S(a), S(b), S(machine), B(one_machine), B(differs),
						L(groups, group_schema), L(causes, set_cause_schema));
#undef T
#define T struct set_report
static const struct schema set_report_schema = SCHEMA(T, FIELD_SELF(T, json), S(label));
#undef T
#define T struct diag_set
static const struct schema set_schema = SCHEMA(T, L(reports, set_report_schema), L(comparisons, pair_schema));
#undef T

static void render_pair(const struct set_pair *o, FILE *out)
{
	term_printf_wrapped(out, 0, "%s against %s: %s", o->b, o->a, o->machine);
	if (!o->groups.json)
		return;
	struct buf moved = {0}, same = {0};
	for (size_t i = 0; i < o->groups.n; i++) {
		const struct set_group *g = &o->groups.v[i];
		bool m = is_true(g->moved);
		double pct = num_or(g->change_pct, 0);
		const char *id = g->group;
		const char *name = id;
		for (int k = 0; k < DIAG_NGROUPS; k++)
			if (streq_ptr(id, diag_groups[k].id))
				name = diag_groups[k].name;
		struct buf *bb = m ? &moved : &same;
		buf_printf(bb, "%s%s %+.1f %%", bb->len ? ", " : "", name, pct);
	}
	if (moved.len)
		term_printf_wrapped(out, 2, "differs: %s", moved.s);
	if (same.len)
		term_printf_wrapped(out, 2, "%s: %s",
				    moved.len ? "the same within noise" : "no test group differs beyond noise", same.s);
	buf_free(&moved);
	buf_free(&same);
	size_t n = o->causes.n;
	if (!n && is_true(o->differs))
		term_printf_wrapped(out, 2, "no cause found: nothing in the headers or labels tells the two apart");
	for (size_t i = 0; i < n; i++) {
		const struct set_cause *c = &o->causes.v[i];
		term_printf_wrapped(out, 2, "%s %s (confidence: %s)  %s", i ? "or" : "explained by:", c->title, c->confidence, c->id);
		term_printf_wrapped(out, 4, "%s", c->reason);
		for (size_t j = 0; j < c->evidence.n; j++)
			term_printf_wrapped(out, 4, "- %s", c->evidence.v[j]);
	}
}

void diagnose_set_render(json_object *json, FILE *out)
{
	struct diag_set set;
	_cleanup_free_ char *error = NULL;
	/* diagnose_set() wrote it: a set that does not fit is a bug, drawn as empty */
	(void)schema_decode(&set_schema, json, "", &set, &error);
	size_t n = set.reports.n;
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s== %s (%zu of %zu) ==\n\n", i ? "\n" : "", set.reports.v[i].label, i + 1, n);
		diagnose_render(set.reports.v[i].json, out);
	}
	for (size_t i = 0; i < set.comparisons.n; i++) {
		fputs(i ? "\n" : "\n== What differs ==\n\n", out);
		render_pair(&set.comparisons.v[i], out);
	}
	schema_free(&set_schema, &set);
}
