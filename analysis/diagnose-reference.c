/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reference runs: published results (reference/published-results.json) and the person's own. */
#include <ctype.h>
#include <errno.h>

#include "diagnose.h"
#include "lib/paths.h"
#include "lib/schema-table.h"

#define REFERENCE_SCHEMA "ubtune.reference/1"
/* The shipped file is about 50 KiB; a thousand times that is no reference list. */
#define REFERENCE_FILE_MAX (64u << 20)

/* ---- CPU names ---- */

/* Words that name a vendor or say "CPU": "Intel(R) Xeon(R) CPU X5650" is a Xeon X5650. */
static const char *const filler_words[] = {
	"arm", "intel", "amd", "hisilicon", "phytium", "rockchip", "broadcom", "cpu", "processor",
};
/* A core's name and its chip's, as the probe and write-ups give them. */
static const char *const aliases[][2] = {
	{ "tsv110", "kunpeng 920" },
	{ "ftc662", "ft-2000+/64" },
};

#define CPU_NAME_MAX 96

/* Lower case, filler words dropped, spaces squeezed, aliases resolved. */
static void cpu_name_clean(const char *in, size_t len, char out[CPU_NAME_MAX])
{
	char buf[CPU_NAME_MAX];
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < sizeof(buf); i++)
		buf[n++] = (char)tolower((unsigned char)in[i]);
	buf[n] = '\0';
	out[0] = '\0';
	size_t o = 0;
	for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		bool filler = false;
		for (size_t k = 0; k < ARRAY_SIZE(filler_words); k++)
			filler |= streq(w, filler_words[k]);
		if (filler)
			continue;
		int r = snprintf(out + o, CPU_NAME_MAX - o, "%s%s", o ? " " : "", w);
		if (r < 0 || (size_t)r >= CPU_NAME_MAX - o)
			break;
		o += (size_t)r;
	}
	for (size_t k = 0; k < ARRAY_SIZE(aliases); k++)
		if (streq(out, aliases[k][0]))
			snprintf(out, CPU_NAME_MAX, "%s", aliases[k][1]);
}

/*
 * The names a model goes by: the model without notes, and a note in
 * brackets that holds a digit ("TSV110 (Kunpeng 920)"; "(emulated)" is no
 * name). "(R)", "(TM)" and the clock after " @" go.
 */
static size_t cpu_names(const char *model, char names[2][CPU_NAME_MAX])
{
	char main[CPU_NAME_MAX * 2];
	size_t m = 0, count = 1;
	names[1][0] = '\0';
	for (const char *p = model; *p && m + 1 < sizeof(main);) {
		if (*p == '@')
			break;
		if (*p != '(') {
			main[m++] = *p++;
			continue;
		}
		const char *end = strchr(p, ')');
		if (!end)
			break;
		if (strpbrk(p, "0123456789") && strpbrk(p, "0123456789") < end && count == 1) {
			cpu_name_clean(p + 1, (size_t)(end - p - 1), names[1]);
			count = 2;
		}
		main[m++] = ' ';
		p = end + 1;
	}
	main[m] = '\0';
	cpu_name_clean(main, m, names[0]);
	return count;
}

bool diag_same_cpu(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	char na[2][CPU_NAME_MAX], nb[2][CPU_NAME_MAX];
	size_t ca = cpu_names(a, na), cb = cpu_names(b, nb);
	for (size_t i = 0; i < ca; i++)
		for (size_t k = 0; k < cb; k++)
			if (*na[i] && streq(na[i], nb[k]))
				return true;
	return false;
}

/* ---- conditions of a reference run ---- */

bool diag_ref_overcommitted(const struct diag_ref *r)
{
	return r->virt == DV_GUEST && r->host_cpus && r->cpus > r->host_cpus;
}

bool diag_ref_clean(const struct diag_ref *r, enum diag_test t)
{
	if (r->undervoltage || diag_ref_overcommitted(r))
		return false;
	/* File Copy only from runs known to have used a memory file system */
	if (DT(t) & DT_FILECOPY)
		return r->workdir_memory == 1;
	return true;
}

static enum diag_virt published_virt(const char *v, char **vmm)
{
	*vmm = NULL;
	if (!v)
		return DV_UNKNOWN;
	if (streq(v, "none"))
		return DV_NONE;
	if (strstr(v, "tcg"))
		return DV_EMULATED;
	const char *open = strchr(v, '('), *close = open ? strchr(open, ')') : NULL;
	if (close)
		*vmm = xstrndup(open + 1, (size_t)(close - open - 1));
	return DV_GUEST;
}

static int published_workdir(const char *w)
{
	if (!w)
		return -1;
	return strstr(w, "tmpfs") || strstr(w, "shm") ? 1 : 0;
}

/* "rk3568-native-tmpfs-c4" belongs to "rk3568-native-tmpfs". */
static char *group_of(const char *id)
{
	const char *dash = strrchr(id, '-');
	if (dash && str_numbered(dash + 1, "c"))
		return xstrndup(id, (size_t)(dash - id));
	return xstrdup(id);
}

static void ref_free(struct diag_ref *r)
{
	free(r->id);
	free(r->group);
	free(r->description);
	free(r->source);
	free(r->cpu);
	free(r->arch);
	free(r->kernel);
	free(r->host);
	free(r->vmm);
}

void diag_refs_free(struct diag_refs *refs)
{
	for (size_t i = 0; i < refs->n; i++)
		ref_free(&refs->v[i]);
	free(refs->v);
	*refs = (struct diag_refs){0};
}

static struct diag_ref *refs_append(struct diag_refs *refs)
{
	refs->v = xrealloc(refs->v, (refs->n + 1) * sizeof(*refs->v));
	struct diag_ref *r = &refs->v[refs->n++];
	*r = (struct diag_ref){ .workdir_memory = -1 };
	for (int t = 0; t < DIAG_NTESTS; t++)
		r->run.index[t] = NAN;
	return r;
}

/* A reference document (schema ubtune.reference/1, reference/README.md). */
struct ref_env {
	const char *cpu, *arch, *kernel, *virt, *workdir, *power;
	struct opt_int cores, host_cpus;
};
struct ref_test {
	struct opt_num index, result;
};
struct ref_run {
	const char *id, *description, *source;
	struct opt_int copies;
	json_object *env, *tests; /* objects: checked, then decoded (env) or walked (tests, by name) */
};
struct ref_doc {
	const char *schema;
	ARRAY_OF(struct ref_run) runs;
	json_object *baselines; /* {"Test name": baseline} */
};

#define T struct ref_env
static const struct schema ref_env_schema = SCHEMA(T, S(cpu), S(arch), S(kernel), S(virt), S(workdir), S(power),
						   I(cores), I(host_cpus));
#undef T
#define T struct ref_test
static const struct schema ref_test_schema = SCHEMA(T, N(index), N(result));
#undef T
#define T struct ref_run
static const struct schema ref_run_schema = SCHEMA(T, S(id), S(description), S(source), I(copies), J(env), J(tests));
#undef T
#define T struct ref_doc
static const struct schema ref_doc_schema = SCHEMA(T, S(schema), L(runs, ref_run_schema), J(baselines));
#undef T

/* A count that may be missing (0), else a positive whole number. */
static int count_field(struct opt_int v, unsigned *out)
{
	*out = 0;
	if (!v.known)
		return 0;
	if (v.v <= 0 || v.v > 1000000)
		return -EINVAL;
	*out = (unsigned)v.v;
	return 0;
}

/* A baseline of the document by test name; NAN when it has none. */
static double baseline_of(json_object *baselines, const char *name)
{
	json_object *v = NULL;
	if (!json_object_is_type(baselines, json_type_object) || !json_object_object_get_ex(baselines, name, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return NAN;
	return json_object_get_double(v);
}

/* The tests of a published run: an index, or a raw result and the baseline. */
static int published_tests(json_object *tests, json_object *baselines, struct diag_ref *r, char **error)
{
	json_object_object_foreach(tests, name, t) {
		int k = diag_test_lookup(name);
		if (k < 0) {
			*error = xasprintf("run %s: unknown test '%s'", r->id, name);
			return -EINVAL;
		}
		struct ref_test v;
		_cleanup_free_ char *why = NULL;
		if (schema_decode(&ref_test_schema, t, name, &v, &why) < 0) {
			*error = xasprintf("run %s: %s", r->id, why);
			return -EINVAL;
		}
		double baseline = baseline_of(baselines, name);
		if (num_or(v.index, 0) > 0)
			r->run.index[k] = v.index.v;
		else if (num_or(v.result, 0) > 0 && baseline > 0)
			r->run.index[k] = 10 * v.result.v / baseline;
		else {
			*error = xasprintf("run %s: test '%s' has neither an index nor a result and a baseline", r->id,
					   name);
			return -EINVAL;
		}
	}
	diag_run_score(&r->run);
	return 0;
}

static int published_run(const struct ref_run *o, json_object *baselines, struct diag_refs *refs, size_t i,
			 char **error)
{
	const char *id = o->id;
	unsigned copies;
	if (!id || !*id) {
		*error = xasprintf("run %zu has no id", i);
		return -EINVAL;
	}
	if (!json_object_is_type(o->env, json_type_object) || !json_object_is_type(o->tests, json_type_object)) {
		*error = xasprintf("run %s: env and tests must be objects", id);
		return -EINVAL;
	}
	struct ref_env env;
	_cleanup_free_ char *why = NULL;
	if (schema_decode(&ref_env_schema, o->env, "env", &env, &why) < 0) {
		*error = xasprintf("run %s: %s", id, why);
		return -EINVAL;
	}
	struct diag_ref *r = refs_append(refs);
	r->id = xstrdup(id);
	r->group = group_of(id);
	r->description = xstrdup_or_null(o->description);
	r->source = xstrdup_or_null(o->source);
	r->cpu = xstrdup_or_null(env.cpu);
	r->arch = xstrdup_or_null(env.arch);
	r->kernel = xstrdup_or_null(env.kernel);
	r->virt = published_virt(env.virt, &r->vmm);
	r->workdir_memory = published_workdir(env.workdir);
	r->undervoltage = streq_ptr(env.power, "undervoltage");
	if (count_field(o->copies, &copies) < 0 || copies == 0 || count_field(env.cores, &r->cpus) < 0 ||
	    count_field(env.host_cpus, &r->host_cpus) < 0) {
		*error = xasprintf("run %s: copies, env.cores and env.host_cpus must be positive whole numbers", id);
		return -EINVAL;
	}
	r->run.copies = copies;
	return published_tests(o->tests, baselines, r, error);
}

int diag_refs_parse(json_object *json, struct diag_refs *refs, char **error)
{
	*error = NULL;
	struct ref_doc doc;
	_cleanup_free_ char *why = NULL;
	int r = schema_decode(&ref_doc_schema, json, "", &doc, &why);
	if (r < 0 && json_object_is_type(json, json_type_object)) {
		*error = TAKE_PTR(why);
		return -EINVAL;
	}
	if (!streq_ptr(doc.schema, REFERENCE_SCHEMA)) {
		*error = xasprintf("schema is not %s", REFERENCE_SCHEMA);
		r = -EINVAL;
	} else if (!doc.runs.json) {
		*error = xstrdup("runs is not a list");
		r = -EINVAL;
	}
	for (size_t i = 0; r == 0 && i < doc.runs.n; i++)
		r = published_run(&doc.runs.v[i], doc.baselines, refs, i, error);
	schema_free(&ref_doc_schema, &doc);
	return r;
}

int diag_refs_load(const char *path, struct diag_refs *refs, char **error)
{
	_cleanup_json_ json_object *doc = NULL;
	_cleanup_free_ char *why = NULL, *text = NULL;
	size_t len = 0;
	*error = NULL;
	/* the shipped file may be the copy a static build carries */
	int r = data_read(path, REFERENCE_FILE_MAX, &text, &len, error);
	if (r == 0)
		r = jload_text(text, len, &doc);
	if (r < 0) {
		if (!*error)
			*error = xasprintf("cannot read %s: %s", path, r == -EBADMSG ? "not JSON" : strerror(-r));
		return r;
	}
	r = diag_refs_parse(doc, refs, &why);
	if (r < 0)
		*error = xasprintf("%s: %s", path, why);
	return r;
}

struct diag_ref *diag_refs_append(struct diag_refs *refs)
{
	return refs_append(refs);
}

/* ---- the person's own results ---- */

/* A result whose record or environment does not decode adds nothing: the
 * store checked it, a hand-made file may not be. */
void diag_refs_add_result(struct diag_refs *refs, json_object *result, const char *label)
{
	struct result_record rec;
	struct env_record env = {0};
	_cleanup_free_ char *error = NULL;
	if (result_decode(result, &rec, &error) < 0)
		return;
	json_object *before = rec.environment.before;
	if (env_decode(json_object_is_type(before, json_type_object) ? before : NULL, "environment.before", &env,
		       &error) < 0) {
		result_record_free(&rec);
		return;
	}
	const char *hypervisor, *started = rec.started_at;
	for (size_t i = 0; i < rec.runs.n; i++) {
		struct diag_run run;
		diag_read_run(&rec.runs.v[i], &run);
		if (!run.copies || !run.ntests)
			continue;
		struct diag_ref *r = refs_append(refs);
		r->id = xasprintf("%s-c%u", label, run.copies);
		r->group = xstrdup(label);
		r->description = xasprintf("your %s%s%s", label, started ? " of " : "", started ?: "");
		r->cpu = xstrdup_or_null(env.cpu.model);
		r->arch = xstrdup_or_null(env.cpu.arch);
		r->kernel = xstrdup_or_null(env.host.kernel_release);
		r->host = xstrdup_or_null(rec.host);
		r->cpus = diag_env_cpus(&rec, &env);
		r->virt = diag_env_virt(&env, &hypervisor);
		r->vmm = xstrdup_or_null(hypervisor);
		r->workdir_memory = diag_env_workdir_memory(&env);
		r->undervoltage = diag_env_undervoltage(&rec, &env);
		r->history = true;
		r->run = run;
	}
	env_record_free(&env);
	result_record_free(&rec);
}
