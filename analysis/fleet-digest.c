/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A result's digest: what fleet and export read of it, kept beside the
 * record in the store so that neither holds every record. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <search.h>
#include <stdlib.h>

#include "analysis/fleet.h"
#include "lib/store.h"
#include "lib/util.h"

/* ---- from a record ---- */

static double num(struct opt_num n)
{
	return n.known ? n.v : NAN;
}

static void test_make(const struct result_test *t, struct fleet_test *d)
{
	*d = (struct fleet_test){ .id = xstrdup_or_null(t->id), .name = xstrdup_or_null(t->name),
				  .unit = xstrdup_or_null(t->unit), .result = num(t->result), .index = num(t->index),
				  .baseline = num(t->baseline), .time_s = num(t->time_s),
				  .samples = int_or(t->samples, -1) };
	d->kept = xcalloc(t->passes.n + 1, sizeof(*d->kept));
	for (size_t i = 0; i < t->passes.n; i++) {
		const struct result_pass *p = &t->passes.v[i];
		if (!is_true(p->dropped) && p->rate.known && isfinite(p->rate.v))
			d->kept[d->nkept++] = p->rate.v;
	}
}

static void run_make(const struct result_run *run, struct fleet_run *d)
{
	int64_t c = int_or(run->copies, 0);
	*d = (struct fleet_run){ .copies = c > 0 && c <= 1 << 20 ? (unsigned)c : 0,
				 .started_at = xstrdup_or_null(run->started_at), .score = num(run->index.score),
				 .ci_lo = NAN, .ci_hi = NAN, .partial = is_true(run->index.partial) };
	if (run->index.ci95.n == 2) {
		d->ci_lo = num(run->index.ci95.v[0]);
		d->ci_hi = num(run->index.ci95.v[1]);
	}
	d->tests = xcalloc(run->tests.n + 1, sizeof(*d->tests));
	for (size_t k = 0; k < run->tests.n; k++)
		test_make(&run->tests.v[k], &d->tests[d->ntests++]);
	diag_read_run(run, &d->diag);
}

int fleet_digest_make(json_object *rec, struct fleet_digest *d, char **error)
{
	struct result_env res;
	int r = result_env_decode(rec, &res, error);
	if (r < 0)
		return r;
	const struct result_record *rr = &res.r;
	const struct env_record *env = &res.env;
	const char *vmm;
	*d = (struct fleet_digest){
		.run_id = xstrdup_or_null(rr->run_id), .host = xstrdup_or_null(rr->host),
		.machine_id = xstrdup_or_null(env->host.machine_id), .round = xstrdup_or_null(rr->round),
		.started_at = xstrdup_or_null(rr->started_at), .suite = xstrdup_or_null(rr->suite.name),
		.suite_version = xstrdup_or_null(rr->suite.version), .interrupted_by = xstrdup_or_null(rr->interrupted_by),
		.os = xstrdup_or_null(env->host.os), .quick = is_true(rr->quick), .imported = is_true(rr->imported),
		.incomplete = is_true(rr->incomplete), .cpu = xstrdup_or_null(env->cpu.model),
		.arch = xstrdup_or_null(env->cpu.arch), .kernel = xstrdup_or_null(env->host.kernel_release),
		.cpus = diag_env_cpus(rr, env), .virt = diag_env_virt(env, &vmm),
		.workdir_memory = diag_env_workdir_memory(env), .undervoltage = diag_env_undervoltage(rr, env),
	};
	d->vmm = xstrdup_or_null(vmm);
	d->facts = xcalloc(fleet_nfacts, sizeof(*d->facts));
	for (size_t f = 0; f < fleet_nfacts; f++)
		d->facts[f] = fleet_facts[f].get(&res);
	d->runs = xcalloc(rr->runs.n + 1, sizeof(*d->runs));
	for (size_t k = 0; k < rr->runs.n; k++)
		run_make(&rr->runs.v[k], &d->runs[d->nruns++]);
	result_env_free(&res);
	return 0;
}

/* ---- strings that the digests of a fleet share ---- */

struct fleet_pool {
	void *tree; /* tsearch() */
};

struct fleet_pool *fleet_pool_new(void)
{
	return xcalloc(1, sizeof(struct fleet_pool));
}

void fleet_pool_free(struct fleet_pool *p)
{
	if (!p)
		return;
	tdestroy(p->tree, free);
	free(p);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* s kept once in the pool, or a copy of its own without one. */
static char *pooled(struct fleet_pool *p, const char *s)
{
	if (!s || !p)
		return xstrdup_or_null(s);
	char **found = tfind(s, &p->tree, cmp_str);
	if (!found) {
		found = tsearch(xstrdup(s), &p->tree, cmp_str);
		if (!found)
			abort(); /* out of memory, as xmalloc() */
	}
	return *found;
}

void fleet_digest_free(struct fleet_digest *d)
{
	/* what a pool keeps, the pool frees */
	bool own = !d->pool;
	for (size_t k = 0; k < d->nruns; k++) {
		struct fleet_run *run = &d->runs[k];
		for (size_t t = 0; t < run->ntests; t++) {
			if (own) {
				free(run->tests[t].id);
				free(run->tests[t].name);
				free(run->tests[t].unit);
			}
			free(run->tests[t].kept);
		}
		free(run->tests);
		free(run->started_at);
	}
	free(d->runs);
	for (size_t f = 0; own && d->facts && f < fleet_nfacts; f++)
		free(d->facts[f]);
	free(d->facts);
	char **mine[] = { &d->run_id, &d->host, &d->machine_id, &d->started_at };
	char **shared[] = { &d->round, &d->suite, &d->suite_version, &d->interrupted_by, &d->os,
			    &d->cpu,   &d->arch,  &d->kernel,	    &d->vmm };
	for (size_t i = 0; i < ARRAY_SIZE(mine); i++)
		free(*mine[i]);
	for (size_t i = 0; own && i < ARRAY_SIZE(shared); i++)
		free(*shared[i]);
	*d = (struct fleet_digest){0};
}

/* ---- as text ---- */

/* Numbers as they round-trip exactly (the digest is read back, not shown). */
static json_object *exact(double v)
{
	if (!isfinite(v))
		return NULL;
	char b[32];
	snprintf(b, sizeof(b), "%.17g", v);
	return json_object_new_double_s(v, b);
}

static json_object *doubles_json(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, exact(v[i]));
	return a;
}

static json_object *test_json(const struct fleet_test *t)
{
	json_object *o = json_object_new_object();
	jset_str(o, "id", t->id);
	jset_str(o, "name", t->name);
	jset_str(o, "unit", t->unit);
	jset(o, "result", exact(t->result));
	jset(o, "index", exact(t->index));
	jset(o, "baseline", exact(t->baseline));
	jset(o, "time_s", exact(t->time_s));
	jset(o, "samples", t->samples >= 0 ? json_object_new_int64(t->samples) : NULL);
	jset(o, "kept", doubles_json(t->kept, t->nkept));
	return o;
}

static json_object *run_json(const struct fleet_run *run)
{
	json_object *o = json_object_new_object(), *tests = json_object_new_array();
	jset_int(o, "copies", run->copies);
	jset_str(o, "started_at", run->started_at);
	jset(o, "score", exact(run->score));
	jset(o, "ci95", doubles_json((double[]){ run->ci_lo, run->ci_hi }, 2));
	jset_bool(o, "partial", run->partial);
	for (size_t t = 0; t < run->ntests; t++)
		json_object_array_add(tests, test_json(&run->tests[t]));
	jset(o, "tests", tests);
	jset(o, "diag_index", doubles_json(run->diag.index, DIAG_NTESTS));
	jset(o, "diag_score", exact(run->diag.score));
	return o;
}

char *fleet_digest_text(const struct fleet_digest *d)
{
	_cleanup_json_ json_object *o = json_object_new_object();
	json_object *facts = json_object_new_object(), *runs = json_object_new_array();
	jset_int(o, "version", FLEET_DIGEST_VERSION);
	const struct {
		const char *key, *value;
	} strings[] = {
		{ "run_id", d->run_id }, { "host", d->host }, { "machine_id", d->machine_id }, { "round", d->round },
		{ "started_at", d->started_at }, { "suite", d->suite }, { "suite_version", d->suite_version },
		{ "interrupted_by", d->interrupted_by }, { "os", d->os }, { "cpu", d->cpu }, { "arch", d->arch },
		{ "kernel", d->kernel }, { "vmm", d->vmm },
	};
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++)
		jset_str(o, strings[i].key, strings[i].value);
	jset_bool(o, "quick", d->quick);
	jset_bool(o, "imported", d->imported);
	jset_bool(o, "incomplete", d->incomplete);
	jset_int(o, "cpus", d->cpus);
	jset_int(o, "virt", d->virt);
	jset_int(o, "workdir_memory", d->workdir_memory);
	jset_bool(o, "undervoltage", d->undervoltage);
	for (size_t f = 0; f < fleet_nfacts; f++)
		if (d->facts[f])
			jset_str(facts, fleet_facts[f].name, d->facts[f]);
	jset(o, "facts", facts);
	for (size_t k = 0; k < d->nruns; k++)
		json_object_array_add(runs, run_json(&d->runs[k]));
	jset(o, "runs", runs);
	return xstrdup(jdump(o, false));
}

/* ---- read back ---- */

static char *str_of(json_object *o, const char *key)
{
	return xstrdup_or_null(jpath_str(o, key));
}

static double num_of(json_object *o, const char *key)
{
	double v;
	return jpath_double(o, key, &v) ? v : NAN;
}

static size_t doubles_of(json_object *a, double *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < jarr_len(a) && i < max; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		out[n++] = v ? json_object_get_double(v) : NAN;
	}
	return n;
}

static void test_parse(json_object *o, struct fleet_test *t, struct fleet_pool *pool, bool passes)
{
	int64_t samples;
	*t = (struct fleet_test){ .id = pooled(pool, jpath_str(o, "id")), .name = pooled(pool, jpath_str(o, "name")),
				  .unit = pooled(pool, jpath_str(o, "unit")), .result = num_of(o, "result"),
				  .index = num_of(o, "index"), .baseline = num_of(o, "baseline"),
				  .time_s = num_of(o, "time_s"), .samples = jpath_int(o, "samples", &samples) ? samples : -1 };
	json_object *kept = passes ? jpath(o, "kept") : NULL;
	t->kept = jarr_len(kept) ? xcalloc(jarr_len(kept), sizeof(*t->kept)) : NULL;
	t->nkept = doubles_of(kept, t->kept, jarr_len(kept));
}

static void run_parse(json_object *o, struct fleet_run *run, struct fleet_pool *pool, bool passes)
{
	int64_t copies = 0;
	double ci[2] = { NAN, NAN };
	jpath_int(o, "copies", &copies);
	doubles_of(jpath(o, "ci95"), ci, 2);
	bool partial = false;
	jpath_bool(o, "partial", &partial);
	*run = (struct fleet_run){ .copies = copies > 0 && copies <= 1 << 20 ? (unsigned)copies : 0,
				   .started_at = str_of(o, "started_at"), .score = num_of(o, "score"), .ci_lo = ci[0],
				   .ci_hi = ci[1], .partial = partial };
	json_object *tests = jpath(o, "tests");
	run->tests = xcalloc(jarr_len(tests) + 1, sizeof(*run->tests));
	for (size_t t = 0; t < jarr_len(tests); t++)
		test_parse(json_object_array_get_idx(tests, t), &run->tests[run->ntests++], pool, passes);
	run->diag.copies = run->copies;
	for (int t = 0; t < DIAG_NTESTS; t++)
		run->diag.index[t] = NAN;
	doubles_of(jpath(o, "diag_index"), run->diag.index, DIAG_NTESTS);
	diag_run_score(&run->diag);
	run->diag.score = num_of(o, "diag_score");
}

int fleet_digest_parse(const char *text, struct fleet_digest *d, struct fleet_pool *pool, bool passes)
{
	_cleanup_json_ json_object *o = NULL;
	int64_t version = 0, v;
	if (jload_string(text, &o) < 0 || !json_object_is_type(o, json_type_object))
		return -EBADMSG;
	if (!jpath_int(o, "version", &version) || version != FLEET_DIGEST_VERSION)
		return -ESTALE;
	*d = (struct fleet_digest){
		.run_id = str_of(o, "run_id"), .host = str_of(o, "host"), .machine_id = str_of(o, "machine_id"),
		.round = pooled(pool, jpath_str(o, "round")), .started_at = str_of(o, "started_at"),
		.suite = pooled(pool, jpath_str(o, "suite")), .suite_version = pooled(pool, jpath_str(o, "suite_version")),
		.interrupted_by = pooled(pool, jpath_str(o, "interrupted_by")), .os = pooled(pool, jpath_str(o, "os")),
		.cpu = pooled(pool, jpath_str(o, "cpu")), .arch = pooled(pool, jpath_str(o, "arch")),
		.kernel = pooled(pool, jpath_str(o, "kernel")), .vmm = pooled(pool, jpath_str(o, "vmm")),
		.workdir_memory = -1, .pool = pool,
	};
	jpath_bool(o, "quick", &d->quick);
	jpath_bool(o, "imported", &d->imported);
	jpath_bool(o, "incomplete", &d->incomplete);
	jpath_bool(o, "undervoltage", &d->undervoltage);
	if (jpath_int(o, "cpus", &v) && v > 0 && v < 1000000)
		d->cpus = (unsigned)v;
	if (jpath_int(o, "virt", &v) && v >= DV_UNKNOWN && v <= DV_EMULATED)
		d->virt = (enum diag_virt)v;
	if (jpath_int(o, "workdir_memory", &v))
		d->workdir_memory = (int)v;
	json_object *facts = jpath(o, "facts");
	d->facts = xcalloc(fleet_nfacts, sizeof(*d->facts));
	for (size_t f = 0; f < fleet_nfacts; f++) {
		json_object *value = NULL;
		if (facts && json_object_object_get_ex(facts, fleet_facts[f].name, &value))
			d->facts[f] = pooled(pool, json_object_get_string(value));
	}
	json_object *runs = jpath(o, "runs");
	d->runs = xcalloc(jarr_len(runs) + 1, sizeof(*d->runs));
	for (size_t k = 0; k < jarr_len(runs); k++)
		run_parse(json_object_array_get_idx(runs, k), &d->runs[d->nruns++], pool, passes);
	return 0;
}

/* ---- in the store ---- */

int fleet_digest_load(struct store *s, int64_t id, struct fleet_digest *d, struct fleet_pool *pool, bool passes,
		      char **error)
{
	_cleanup_free_ char *text = NULL;
	if (store_get_digest(s, id, &text) == 0 && fleet_digest_parse(text, d, pool, passes) == 0)
		return 0;
	/* none yet (stored before digests were kept), or of an older kind:
	 * made from the record, and kept for the next reader */
	_cleanup_json_ json_object *rec = NULL;
	int r = store_get(s, id, &rec);
	if (r < 0) {
		*error = xasprintf("cannot read result %" PRId64 ": %s", id, strerror(-r));
		return r;
	}
	_cleanup_free_ char *why = NULL;
	r = fleet_digest_make(rec, d, &why);
	if (r < 0) {
		*error = xasprintf("result %" PRId64 " of the store is damaged: %s", id, why);
		return r;
	}
	free(text);
	text = fleet_digest_text(d);
	fleet_digest_free(d);
	/* a store that cannot be written is read all the same */
	(void)store_set_digest(s, id, text);
	return fleet_digest_parse(text, d, pool, passes);
}

int fleet_store_add(struct store *s, json_object *rec, int64_t *id)
{
	struct fleet_digest d;
	_cleanup_free_ char *error = NULL, *text = NULL;
	/* a record that does not decode is refused by store_add() */
	if (fleet_digest_make(rec, &d, &error) == 0) {
		text = fleet_digest_text(&d);
		fleet_digest_free(&d);
	}
	return store_add_with_digest(s, rec, text, id);
}
