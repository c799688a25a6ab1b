/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For tests of `diagnose`: result records built from the published runs
 * (as an imported UnixBench log would give them: scores, CPU model, CPU
 * count, architecture and kernel, nothing else) or from index literals,
 * environment records added to them, and the report of a case.
 */
#pragma once

#include "analysis/diagnose.h"
#include "testlib.h"

/* The RK3568 from tmpfs (published), 1 and 4 copies: a healthy shape. */
static const double healthy1[DIAG_NTESTS] = { 1032.4, 496.2, 163.3, 724.4, 500.6, 1186.2,
					      394.3,  85.2,  178.3, 497.3, 348.1, 767.8 };
static const double healthy4[DIAG_NTESTS] = { 4021.8, 1940.2, 584.8, 1374.8, 918.4,  2463.0,
					      1539.5, 492.4,  583.2, 1797.4, 1016.7, 958.5 };

static inline struct diag_refs *published_refs(void)
{
	static struct diag_refs refs;
	static bool loaded;
	if (!loaded) {
		_cleanup_free_ char *path = xasprintf("%s/reference/published-results.json", SRCDIR);
		_cleanup_free_ char *error = NULL;
		if (diag_refs_load(path, &refs, &error) < 0)
			fail_msg("%s", error);
		loaded = true;
	}
	return &refs;
}

/* The keys every result record has (result_check()), and no run yet. */
#define RESULT_HEAD "\"schema\": \"ubtune.result/1\", \"run_id\": \"0123456789abcdef0123456789abcdef\", " \
		    "\"started_at\": \"2026-01-01T12:00:00\", \"suite\": {\"name\": \"unixbench\"}"

static inline json_object *result_new(void)
{
	json_object *rec = json_lit("{" RESULT_HEAD "}");
	jset(rec, "runs", json_object_new_array());
	return rec;
}

/* A run of 12 indexes in UnixBench's order (0: not run). */
static inline void result_add_run(json_object *rec, unsigned copies, const double index[DIAG_NTESTS])
{
	json_object *run = json_object_new_object(), *tests = json_object_new_array();
	jset_int(run, "copies", copies);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		if (!(index[t] > 0))
			continue;
		json_object *o = json_object_new_object();
		jset_str(o, "id", ub_tests[t].id);
		jset_str(o, "name", ub_tests[t].name);
		jset_double(o, "index", index[t]);
		json_object_array_add(tests, o);
	}
	jset(run, "tests", tests);
	json_object_array_add(jpath(rec, "runs"), run);
}

/*
 * The runs of a published group ("rk3568-native-disk": its -c1 and -c4
 * runs) as an imported log: the header's CPU model (without the write-up's
 * notes such as "(emulated)": the guest's cpuinfo names the core), CPU
 * count, architecture and kernel; no environment otherwise.
 */
static inline json_object *published_result(const char *group)
{
	struct diag_refs *refs = published_refs();
	json_object *rec = result_new();
	jset_bool(rec, "imported", true);
	bool found = false;
	for (size_t i = 0; i < refs->n; i++) {
		const struct diag_ref *r = &refs->v[i];
		if (!streq(r->group, group))
			continue;
		if (!found) {
			/* the importer's partial record of a header */
			json_object *env = jchild(jchild(rec, "environment"), "before");
			jset_str(env, "schema", "ubtune.probe/1");
			jset_str(env, "source", "unixbench-header");
			jset(env, "unavailable", json_lit("[{\"area\": \"all\", \"reason\": \"imported from a UnixBench "
							  "report: only what its header says is known\"}]"));
			jset(env, "findings", json_object_new_array());
			_cleanup_free_ char *model = xstrdup(r->cpu);
			char *note = strstr(model, " (");
			if (note && !strpbrk(note, "0123456789"))
				*note = '\0';
			jset_str(jchild(env, "cpu"), "model", model);
			jset_str(jchild(env, "cpu"), "arch", r->arch);
			jset_str(jchild(env, "host"), "kernel_release", r->kernel);
			if (r->cpus)
				jset_int(rec, "online_cpus", r->cpus);
			found = true;
		}
		result_add_run(rec, r->run.copies, r->run.index);
	}
	if (!found)
		fail_msg("no published group %s", group);
	return rec;
}

/* Merges the members of a JSON literal into o, recursively for objects. */
static inline void json_merge(json_object *o, json_object *add)
{
	json_object_object_foreach(add, key, v) {
		json_object *have = jpath(o, key);
		if (json_object_is_type(v, json_type_object) && json_object_is_type(have, json_type_object))
			json_merge(have, v);
		else
			json_object_object_add(o, key, json_object_get(v));
	}
}

/* Adds a literal to the record's top level ("sampler", "events", ...). */
static inline void result_merge(json_object *rec, const char *lit)
{
	_cleanup_json_ json_object *add = json_lit(lit);
	json_merge(rec, add);
}

/* Adds to environment.before and makes it a whole probe record: an empty
 * findings list unless the literal has its own, and no longer the partial
 * record of an imported header. */
static inline void result_env(json_object *rec, const char *lit)
{
	json_object *env = jchild(jchild(rec, "environment"), "before");
	json_object_object_del(env, "unavailable");
	json_object_object_del(env, "source");
	if (!jpath(env, "findings"))
		jset(env, "findings", json_object_new_array());
	_cleanup_json_ json_object *add = json_lit(lit);
	json_merge(env, add);
}

/* The report of a case; the group's own published runs are left out of the
 * references (NULL: compare with all). */
static inline json_object *report_of(json_object *rec, const char *exclude_group)
{
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	if (diag_case_init(&c, rec, published_refs(), exclude_group, &error) < 0)
		fail_msg("%s", error);
	json_object *report = diagnose(&c);
	diag_case_free(&c);
	return report;
}

static inline const char *cause_id(json_object *report, size_t i)
{
	return jpath_str(json_object_array_get_idx(jpath(report, "causes"), i), "id");
}

static inline const char *cause_confidence(json_object *report, size_t i)
{
	return jpath_str(json_object_array_get_idx(jpath(report, "causes"), i), "confidence");
}

/* The ids and confidences of the causes, for failure messages. */
static inline char *causes_text(json_object *report)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < jpath_len(report, "causes"); i++)
		buf_printf(&b, "%s%s:%s", i ? ", " : "", cause_id(report, i), cause_confidence(report, i));
	return buf_steal(&b);
}

/* Runs one rule on a record; *d is filled (the caller clears it). */
static inline void rule_on(const char *id, json_object *rec, struct diagnosis *d)
{
	const struct diag_rule *r = diag_rule_lookup(id);
	if (!r)
		fail_msg("no rule %s", id);
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	if (diag_case_init(&c, rec, published_refs(), NULL, &error) < 0)
		fail_msg("%s", error);
	diag_rule_run(r, &c, d);
	diag_case_free(&c);
}

/* Runs a rule; checks the confidence, and that a text holds `says`
 * (the reason when it fired, else the normal or unchecked note). */
static inline void expect_rule(const char *id, json_object *rec, enum diag_confidence want, const char *says)
{
	struct diagnosis d;
	rule_on(id, rec, &d);
	const char *text = d.confidence ? d.reason : d.normal ?: d.unchecked;
	if (d.confidence != want)
		fail_msg("%s: confidence %s, expected %s (%s)", id, diag_confidence_name(d.confidence),
			 diag_confidence_name(want), text ?: "no text");
	if (says && !(text && strstr(text, says)))
		fail_msg("%s: \"%s\" does not say \"%s\"", id, text ?: "(nothing)", says);
	diagnosis_clear(&d);
}
