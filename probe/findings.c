/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "findings.h"

#include <errno.h>

#include "lib/term.h"

static const struct rule *const rule_tables[] = {
	cpu_rules,     clock_rules,    idle_rules, memory_rules,    virt_rules,
	power_rules,   storage_rules,  numa_rules, services_rules, limits_rules,
	cgroup_rules,
};

static const char *const severity_names[] = { "info", "warn", "crit" };

const char *severity_name(enum severity s)
{
	return severity_names[s];
}

int severity_parse(const char *s, enum severity *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(severity_names); i++)
		if (streq(s, severity_names[i])) {
			*out = (enum severity)i;
			return 0;
		}
	return -EINVAL;
}

void finding_set(char **field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	free(*field);
	*field = s;
}

void finding_clear(struct finding *f)
{
	free(f->message);
	free(f->evidence);
	free(f->fix);
	*f = (struct finding){0};
}

/* A record that does not decode (a fact of the wrong type) has no facts
 * for the rules. */
static void decode_or_unknown(json_object *rec, struct env_record *env)
{
	_cleanup_free_ char *error = NULL;
	(void)env_decode(rec, "", env, &error);
}

static bool rule_apply(const struct rule *r, const struct env_record *env, struct finding *f)
{
	*f = (struct finding){
		.id = r->id,
		.area = r->area,
		.severity = r->severity,
		.message = xstrdup(r->message),
		.fix = xstrdup_or_null(r->fix),
	};
	if (r->check(env, f))
		return true;
	finding_clear(f);
	return false;
}

bool rule_run(const struct rule *r, json_object *rec, struct finding *f)
{
	struct env_record env;
	decode_or_unknown(rec, &env);
	bool hit = rule_apply(r, &env, f);
	env_record_free(&env);
	return hit;
}

void rules_foreach(void (*fn)(const struct rule *r, void *data), void *data)
{
	for (size_t t = 0; t < ARRAY_SIZE(rule_tables); t++)
		for (const struct rule *r = rule_tables[t]; r->id; r++)
			fn(r, data);
}

struct lookup {
	const char *id;
	const struct rule *found;
};

static void lookup_one(const struct rule *r, void *data)
{
	struct lookup *l = data;
	if (!l->found && streq(r->id, l->id))
		l->found = r;
}

const struct rule *rule_lookup(const char *id)
{
	struct lookup l = { id, NULL };
	rules_foreach(lookup_one, &l);
	return l.found;
}

struct evaluation {
	struct env_record env;
	json_object *by_severity[3];
};

static void evaluate_one(const struct rule *r, void *data)
{
	struct evaluation *e = data;
	struct finding f;
	if (!rule_apply(r, &e->env, &f))
		return;
	json_object *o = json_object_new_object();
	jset_str(o, "id", f.id);
	jset_str(o, "severity", severity_name(f.severity));
	jset_str(o, "area", f.area);
	jset_str(o, "message", f.message);
	jset_str(o, "evidence", f.evidence);
	jset_str(o, "fix", f.fix);
	json_object_array_add(e->by_severity[f.severity], o);
	finding_clear(&f);
}

void findings_evaluate(json_object *rec)
{
	struct evaluation e;
	for (int s = SEV_INFO; s <= SEV_CRIT; s++)
		e.by_severity[s] = json_object_new_array();
	decode_or_unknown(rec, &e.env);
	rules_foreach(evaluate_one, &e);
	env_record_free(&e.env);

	json_object *all = json_object_new_array();
	for (int s = SEV_CRIT; s >= SEV_INFO; s--) {
		size_t n = json_object_array_length(e.by_severity[s]);
		for (size_t i = 0; i < n; i++)
			json_object_array_add(all, json_object_get(json_object_array_get_idx(e.by_severity[s], i)));
		json_object_put(e.by_severity[s]);
	}
	jset(rec, "findings", all);
}

bool findings_at_least(const struct env_record *env, enum severity min)
{
	for (size_t i = 0; i < env->findings.n; i++) {
		enum severity s;
		const char *name = env->findings.v[i].severity;
		if (name && severity_parse(name, &s) == 0 && s >= min)
			return true;
	}
	return false;
}

void findings_render(const struct env_record *env, FILE *out)
{
	fputc('\n', out);
	if (env->findings.n == 0) {
		fprintf(out, "Findings  none: nothing found that moves a UnixBench score\n");
		return;
	}
	fprintf(out, "%sFindings (worst first)%s\n", term_esc(out, ANSI_BOLD), term_esc(out, ANSI_RESET));
	/* the text beside the ids where there is room for it, else under them */
	size_t width = term_width(out), at = width >= FINDINGS_WIDE ? 38 : 7;
	for (size_t i = 0; i < env->findings.n; i++) {
		const struct env_finding *f = &env->findings.v[i];
		const char *color = streq_ptr(f->severity, "crit") ? ANSI_RED
				    : streq_ptr(f->severity, "warn") ? ANSI_YELLOW
								     : ANSI_DIM;
		fprintf(out, "  %s%-4s%s ", term_esc(out, color), f->severity, term_esc(out, ANSI_RESET));
		if (at > 7)
			fprintf(out, "%-30s ", f->id);
		else
			fprintf(out, "%s\n%*s", f->id, (int)at, "");
		term_print_wrapped(out, f->message ?: "", at, width);
		if (f->evidence) {
			fprintf(out, "%*sevidence ", (int)at, "");
			term_print_wrapped(out, f->evidence, at + 9, width);
		}
		if (f->fix) {
			fprintf(out, "%*sfix      ", (int)at, "");
			term_print_wrapped(out, f->fix, at + 9, width);
		}
	}
}
