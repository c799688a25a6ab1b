/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench/ubimport.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/result.h"
#include "bench/spread.h"
#include "lib/store.h"
#include "lib/util.h"
#include "probe/probe.h"
#include "unixbench/catalogue.h"
#include "unixbench/score.h"

/* The score line and the indexes agree within UnixBench's rounding. */
#define SCORE_TOLERANCE 0.15

static void set_num(json_object *o, const char *key, bool has, double v)
{
	jset(o, key, has ? jnum(v) : NULL);
}

/* ---- run id: a digest of what the run says, so a run imported twice
 * (or as report and as .html) is recognised ---- */

struct digest {
	uint64_t a, b;
};

static void digest_add(struct digest *d, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); ; p++) {
		d->a = (d->a ^ *p) * 0x100000001b3ULL;
		d->b = (d->b ^ *p) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
		if (!*p)
			break;
	}
}

static char *run_id(const struct ub_result *r)
{
	struct digest d = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
	digest_add(&d, r->h.hostname);
	digest_add(&d, r->h.version);
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct ub_block *b = &r->blocks[i];
		char n[64];
		snprintf(n, sizeof(n), "%u", b->copies);
		digest_add(&d, n);
		digest_add(&d, b->date);
		digest_add(&d, b->start);
		for (size_t k = 0; k < b->ntests; k++) {
			const struct ub_test *t = &b->tests[k];
			digest_add(&d, t->name);
			snprintf(n, sizeof(n), "%.1f", t->has_result ? t->result : -1.0);
			digest_add(&d, n);
			snprintf(n, sizeof(n), "%.1f", t->has_index ? t->index : -1.0);
			digest_add(&d, n);
		}
	}
	return xasprintf("%016" PRIx64 "%016" PRIx64, d.a, d.b);
}

/* ---- the header as a partial environment record ---- */

/* "22:36:13 up 5 days,  2:03,  1 user, ..." / "up 13 min" to seconds. */
static bool uptime_seconds(const char *s, double *out)
{
	const char *p = s ? strstr(s, " up ") : NULL;
	if (!p)
		return false;
	p += 4;
	double total = 0;
	unsigned v, h, m;
	char unit[8];
	int used = 0;
	if (sscanf(p, "%u day%n", &v, &used) == 1 && used > 0) {
		total += v * 86400.0;
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
		while (*p == ' ')
			p++;
	}
	used = 0;
	if (sscanf(p, "%u:%u%n", &h, &m, &used) == 2 && used > 0 && m < 60) {
		total += h * 3600.0 + m * 60.0;
	} else if (sscanf(p, "%u %7[a-z]", &v, unit) == 2) {
		if (startswith(unit, "min"))
			total += v * 60.0;
		else if (startswith(unit, "sec"))
			total += v;
		else if (startswith(unit, "hr") || startswith(unit, "hour"))
			total += v * 3600.0;
		else
			return false;
	} else {
		return false;
	}
	*out = total;
	return true;
}

static json_object *load_average(const char *s)
{
	const char *p = s ? strstr(s, "load average: ") : NULL;
	double l[3];
	if (!p)
		return NULL;
	/* a locale with decimal commas prints "1,03, 1,74, 1,31" */
	_cleanup_free_ char *v = xstrdup(p + strlen("load average: "));
	for (char *c = v; *c; c++)
		if (*c == ',' && c > v && isdigit((unsigned char)c[-1]) && isdigit((unsigned char)c[1]))
			*c = '.';
	if (sscanf(v, "%lf, %lf, %lf", &l[0], &l[1], &l[2]) != 3)
		return NULL;
	json_object *a = json_object_new_array();
	for (int i = 0; i < 3; i++)
		json_object_array_add(a, json_object_new_double(l[i]));
	return a;
}

/* The text after "key=" up to ',' or ')' in "en_US.utf8 (charmap="UTF-8", collate=...)". */
static char *language_part(const char *lang, const char *key)
{
	const char *p = lang ? strstr(lang, key) : NULL;
	if (!p)
		return NULL;
	p += strlen(key);
	size_t n = strcspn(p, ",)");
	char *v = xstrndup(p, n);
	strstrip(v);
	size_t len = strlen(v);
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
		memmove(v, v + 1, len - 2);
		v[len - 2] = '\0';
	}
	return v;
}

static json_object *cpus_json(const struct ub_header *h)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < h->ncpus; i++) {
		json_object *c = json_object_new_object();
		jset_str(c, "model", h->cpus[i].model);
		set_num(c, "bogomips", h->cpus[i].has_bogomips, h->cpus[i].bogomips);
		jset_str(c, "flags", h->cpus[i].flags);
		json_object_array_add(a, c);
	}
	return a;
}

/* Distinct CPU models in order, joined as the probe does ("A + B"). */
static char *cpu_models(const struct ub_header *h)
{
	struct strv seen = {0};
	struct buf b = {0};
	for (size_t i = 0; i < h->ncpus; i++) {
		const char *m = h->cpus[i].model;
		if (!m || strv_contains(&seen, m))
			continue;
		strv_push(&seen, m);
		buf_printf(&b, "%s%s", seen.n > 1 ? " + " : "", m);
	}
	strv_free(&seen);
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

static const char *hw_virtualization(const struct ub_header *h)
{
	for (size_t i = 0; i < h->ncpus; i++) {
		const char *f = h->cpus[i].flags;
		if (f && strstr(f, "Intel virtualization"))
			return "VT-x";
		if (f && strstr(f, "AMD virtualization"))
			return "AMD-V";
	}
	return NULL;
}

static json_object *unixbench_json(const struct ub_result *r)
{
	const struct ub_header *h = &r->h;
	json_object *u = json_object_new_object();
	jset_str(u, "version", h->version);
	jset_str(u, "system", h->system);
	jset_str(u, "os", h->os);
	jset_str(u, "machine", h->machine);
	jset_str(u, "platform", h->platform);
	jset_str(u, "language", h->language);
	_cleanup_free_ char *charmap = language_part(h->language, "charmap=");
	_cleanup_free_ char *collate = language_part(h->language, "collate=");
	jset_str(u, "charmap", charmap);
	jset_str(u, "collate", collate);
	jset_str(u, "graphics", h->graphics);
	jset_str(u, "uptime", h->uptime);
	jset_str(u, "runlevel", h->runlevel && *h->runlevel ? h->runlevel : NULL);
	jset(u, "cpus", cpus_json(h));
	const struct ub_block *said = NULL;
	for (size_t i = 0; i < r->nblocks && !said; i++)
		said = r->blocks[i].cpus_said ? &r->blocks[i] : NULL;
	jset(u, "cpus_in_system", said ? json_object_new_int((int)said->cpus) : NULL);
	jset_str(u, "tmpdir", h->tmpdir);
	jset_str(u, "resultdir", h->resultdir);
	return u;
}

static json_object *environment_json(const struct ub_result *r)
{
	const struct ub_header *h = &r->h;
	json_object *env = json_object_new_object();
	jset_str(env, "schema", PROBE_SCHEMA);
	jset_str(env, "source", "unixbench-header");
	jset_null(env, "generated_at");
	json_object *un = json_object_new_array(), *why = json_object_new_object();
	jset_str(why, "area", "all");
	jset_str(why, "reason", r->has_header ? "imported from a UnixBench report: only what its header says is known"
					     : "imported from UnixBench output without a header: nothing is known");
	json_object_array_add(un, why);
	jset(env, "unavailable", un);

	json_object *host = jchild(env, "host");
	jset_str(host, "hostname", h->hostname);
	jset_str(host, "kernel_release", h->os_release);
	jset_str(host, "kernel_version", h->os_version);
	jset_str(host, "arch", h->machine);
	/* Run shows uname -o unless /etc/SuSE-release or /etc/release named the system */
	jset_str(host, "os", h->system && h->os && !streq(h->system, h->os) ? h->system : NULL);
	double up = 0;
	bool has_up = uptime_seconds(h->uptime, &up);
	set_num(host, "uptime_s", has_up, up);
	jset(host, "load_avg", load_average(h->uptime));

	json_object *cpu = jchild(env, "cpu");
	jset_str(cpu, "arch", h->machine);
	_cleanup_free_ char *models = cpu_models(h);
	jset_str(cpu, "model", models);
	set_num(cpu, "bogomips", h->ncpus && h->cpus[0].has_bogomips, h->ncpus ? h->cpus[0].bogomips : 0);
	json_object *per = h->ncpus ? json_object_new_array() : NULL;
	for (size_t i = 0; i < h->ncpus; i++)
		json_object_array_add(per, h->cpus[i].has_bogomips ? json_object_new_double(h->cpus[i].bogomips) : NULL);
	jset(cpu, "bogomips_per_cpu", per);
	jset(cpu, "threads", h->ncpus ? json_object_new_int((int)h->ncpus) : NULL);

	json_object *virt = jchild(env, "virt");
	jset_str(virt, "hw_virtualization", hw_virtualization(h));
	json_object *storage = jchild(env, "storage");
	jset_str(storage, "workdir", h->tmpdir);
	jset(env, "unixbench", unixbench_json(r));
	jset(env, "findings", json_object_new_array());
	return env;
}

/* ---- tests and runs ---- */

static json_object *copies_json(const struct ub_pass *p)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < p->ncopies; i++) {
		const struct ub_copy *c = &p->copies[i];
		json_object *o = json_object_new_object();
		struct pass_value one = { c->count, c->has_time && c->time > 0 ? c->time : c->elapsed, c->timebase };
		jset(o, "count", jnum(c->count));
		set_num(o, "time_s", c->has_time, c->time);
		set_num(o, "elapsed_s", c->has_elapsed, c->elapsed);
		jset(o, "rate", jnum(pass_rate(&one)));
		jset_int(o, "status", c->status);
		json_object_array_add(a, o);
	}
	return a;
}

/* The .log's passes as Run combines copies. */
static struct pass_value *pass_values(const struct ub_test *t)
{
	struct pass_value *v = xcalloc(t->npasses ? t->npasses : 1, sizeof(*v));
	for (size_t i = 0; i < t->npasses; i++)
		ub_pass_value(&t->passes[i], &v[i].count, &v[i].time, &v[i].timebase);
	return v;
}

/* The passes as Run scored them: sorted by count, the lowest third dropped. */
static json_object *passes_json(const struct ub_test *t, const struct pass_value *v)
{
	size_t n = t->npasses;
	json_object *a = json_object_new_array();
	if (n == 0)
		return a;
	_cleanup_free_ bool *dropped = xcalloc(n, sizeof(*dropped));
	struct test_score score;
	score_test(v, n, dropped, &score);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		jset(o, "count", jnum(v[i].count));
		jset_double(o, "time_s", v[i].time);
		jset(o, "timebase", jnum(v[i].timebase));
		jset(o, "rate", jnum(pass_rate(&v[i])));
		jset_bool(o, "dropped", dropped[i]);
		jset(o, "copies", copies_json(&t->passes[i]));
		json_object_array_add(a, o);
	}
	return a;
}

static double test_baseline(const struct ub_test *t, bool *has)
{
	*has = t->has_baseline || (t->info && t->info->baseline > 0);
	return t->has_baseline ? t->baseline : t->info ? t->info->baseline : 0;
}

static json_object *test_json(const struct ub_test *t, double *index_out, bool *indexed)
{
	json_object *o = json_object_new_object();
	jset_str(o, "id", t->info ? t->info->id : t->name);
	jset_str(o, "name", t->name);
	jset_str(o, "unit", t->unit ? t->unit : t->info ? t->info->unit : NULL);
	jset(o, "timebase", t->npasses ? jnum(t->passes[0].ncopies ? t->passes[0].copies[0].timebase : NAN) : NULL);
	bool has_baseline;
	double baseline = test_baseline(t, &has_baseline);
	set_num(o, "baseline", has_baseline, baseline);
	jset_null(o, "passes_planned");
	if (t->command) {
		json_object *cmd = json_object_new_array();
		jarr_add_str(cmd, t->command);
		jset(o, "command", cmd);
	} else {
		jset_null(o, "command");
	}
	jset_bool(o, "complete", true);
	jset_null(o, "error");
	_cleanup_free_ struct pass_value *passes = pass_values(t);
	jset(o, "passes", passes_json(t, passes));
	set_num(o, "result", t->has_result, t->result);
	set_num(o, "time_s", t->has_time, t->time_s);
	set_num(o, "samples", t->has_samples, t->samples);
	double index = t->index;
	bool has_index = t->has_index;
	const char *index_source = has_index ? "report" : NULL;
	if (!has_index && t->has_result && has_baseline && baseline > 0) {
		index = 10 * t->result / baseline;
		has_index = true;
		index_source = "computed";
	}
	set_num(o, "index", has_index, index);
	result_test_spread(o, passes, t->npasses, has_baseline ? baseline : 0);
	json_object *src = jchild(o, "source");
	jset_str(src, "index", index_source);
	jset_str(src, "passes", t->npasses ? "log" : NULL);
	*index_out = index;
	*indexed = has_index && t->info && streq(t->info->category, "system") && t->info->baseline > 0 && index > 0;
	return o;
}

static char *block_time(const struct ub_block *b, const char *clock)
{
	if (!b->date)
		return NULL;
	return clock ? xasprintf("%sT%s", b->date, clock) : xstrdup(b->date);
}

/* Whether the report printed t's index as one its system score counts:
 * a system test of the catalogue, or a row with its own baseline. */
static bool index_printed(const struct ub_test *t)
{
	if (!t->has_index || (t->info && !streq(t->info->category, "system")))
		return false;
	return t->has_baseline || (t->info && t->info->baseline > 0);
}

/* Whether the index table gives tests baselines other than UnixBench's
 * (pgms/index.base, the same in 4.1.0, 5.x and 6.x). */
static bool own_baselines(const struct ub_block *b)
{
	for (size_t i = 0; i < b->ntests; i++) {
		const struct ub_test *t = &b->tests[i];
		if (t->has_baseline && t->info && t->info->baseline > 0 && streq(t->info->category, "system") &&
		    fabs(t->baseline / t->info->baseline - 1) > 0.01)
			return true;
	}
	return false;
}

static json_object *run_json(const struct ub_block *b, unsigned copies, json_object *notes)
{
	json_object *run = json_object_new_object();
	jset(run, "copies", copies ? json_object_new_int((int)copies) : NULL);
	if (copies && b->copies == copies && b->copies_from_text)
		jset_str(run, "copies_source", "text");
	jset_str(run, "label", b->label);
	if (b->group)
		jset_str(run, "group", b->group);
	_cleanup_free_ char *start = block_time(b, b->start), *end = block_time(b, b->end);
	jset_str(run, "started_at", start);
	jset_str(run, "ended_at", end);
	jset(run, "cpus_in_system", b->cpus_said ? json_object_new_int((int)b->cpus) : NULL);
	json_object *tests = json_object_new_array();
	_cleanup_free_ double *indexes = xcalloc(b->ntests ? b->ntests : 1, sizeof(*indexes));
	size_t n = 0, with_passes = 0;
	for (size_t i = 0; i < b->ntests; i++) {
		bool indexed;
		json_object_array_add(tests, test_json(&b->tests[i], &indexes[n], &indexed));
		if (indexed) {
			with_passes += b->tests[i].npasses > 0;
			n++;
		}
	}
	jset(run, "tests", tests);
	/* the interval of the score, when the .log gave every test its passes */
	json_object *ci = NULL;
	if (n && with_passes == n) {
		result_score_run(run);
		ci = json_object_get(jpath(run, "index.ci95"));
	}

	json_object *idx = json_object_new_object();
	double computed = n ? score_overall(indexes, n) : NAN;
	/* a report that prints indexes scores those (4.1.0 leaves two tests out,
	 * 4.1-wht's table adds File Read 4096 with its own baseline) */
	size_t printed = 0;
	for (size_t i = 0; i < b->ntests; i++)
		printed += index_printed(&b->tests[i]);
	if (b->has_score && printed && printed != n) {
		_cleanup_free_ double *shown = xcalloc(printed, sizeof(*shown));
		size_t k = 0;
		for (size_t i = 0; i < b->ntests; i++)
			if (index_printed(&b->tests[i]) && b->tests[i].index > 0)
				shown[k++] = b->tests[i].index;
		if (k)
			computed = score_overall(shown, k);
	}
	if (b->has_score) {
		jset(idx, "score", jnum(b->score));
		jset_str(idx, "score_source", "report");
		if (n && fabs(computed - b->score) > SCORE_TOLERANCE + 1e-3 * b->score) {
			_cleanup_free_ char *msg = xasprintf("%u-copy run: the score line says %.1f, the indexes of its "
							     "tests give %.1f",
							     copies, b->score, computed);
			jarr_add_str(notes, msg);
		}
	} else {
		jset(idx, "score", n ? jnum(round(computed * 10) / 10) : NULL);
		jset_str(idx, "score_source", n ? "computed" : NULL);
	}
	jset_bool(idx, "partial", b->partial || n < UB_NINDEX);
	if (own_baselines(b)) {
		/* 4.1's own baseline, or the author's machine as the baseline:
		 * the score is kept as printed, but it is not an index */
		jset_bool(idx, "comparable", false);
		jarr_add_str(notes, "the report's indexes and score are against baselines of its own, not UnixBench's: "
				    "they are kept as printed, but are not comparable with an index");
	}
	jset_int(idx, "tests_indexed", (int64_t)n);
	jset_int(idx, "tests_total", UB_NINDEX);
	jset(idx, "ci95", ci);
	if (ci) {
		jset_str(idx, "ci_method", "percentile bootstrap over passes");
		jset_int(idx, "resamples", SCORE_BOOTSTRAP_RESAMPLES);
		jset_int(idx, "seed", (int64_t)SCORE_BOOTSTRAP_SEED);
	}
	jset(run, "index", idx);
	if (b->has_graphics_score[0] || b->has_graphics_score[1]) {
		json_object *g = jchild(run, "graphics");
		static const char *const kinds[] = { "2d", "3d" };
		for (int k = 0; k < 2; k++) {
			if (!b->has_graphics_score[k])
				continue;
			json_object *o = jchild(g, kinds[k]);
			jset(o, "score", jnum(b->graphics_score[k]));
			jset_str(o, "score_source", "report");
		}
	}
	return run;
}

static json_object *bit_names(unsigned bits, const char *(*name)(unsigned))
{
	json_object *a = json_object_new_array();
	for (unsigned bit = 1; bit && bit <= bits; bit <<= 1)
		if ((bits & bit) && name(bit))
			jarr_add_str(a, name(bit));
	return a;
}

char *ub_import_problem_text(const struct ub_problem *p)
{
	if (p->line && p->text)
		return xasprintf("line %u: %s (\"%s\")", p->line, p->why, p->text);
	if (p->line)
		return xasprintf("line %u: %s", p->line, p->why);
	return xstrdup(p->why);
}

/* Problems from the lines of result i (up to where the next one starts). */
static json_object *problems_json(const struct ub_doc *doc, size_t i)
{
	unsigned from = i ? doc->results[i].line : 0;
	unsigned to = i + 1 < doc->nresults ? doc->results[i + 1].line : UINT32_MAX;
	json_object *a = json_object_new_array();
	for (size_t k = 0; k < doc->nproblems; k++) {
		const struct ub_problem *p = &doc->problems[k];
		if (p->line && (p->line < from || p->line >= to))
			continue;
		json_object *o = json_object_new_object();
		jset(o, "line", p->line ? json_object_new_int((int)p->line) : NULL);
		jset_str(o, "text", p->text);
		jset_str(o, "problem", p->why);
		json_object_array_add(a, o);
	}
	return a;
}

static const char *format_word(unsigned formats)
{
	if (formats & UB_FMT_HTML)
		return "HTML report";
	if (formats & UB_FMT_RUN_OUTPUT)
		return "Run output";
	if (formats & UB_FMT_REPORT)
		return "report";
	if (formats & UB_FMT_LOG)
		return "log";
	if (formats & UB_FMT_CSV)
		return "CSV";
	return "tables";
}

static json_object *record_json(const struct ub_doc *doc, size_t ri, const struct ub_import_opts *o, size_t *unknown)
{
	const struct ub_result *r = &doc->results[ri];
	json_object *rec = json_object_new_object();
	_cleanup_free_ char *id = run_id(r);
	jset_str(rec, "schema", RESULT_SCHEMA);
	jset_str(rec, "run_id", id);
	json_object *tool = jchild(rec, "tool");
	jset_str(tool, "name", "ubtune");
	jset_str(tool, "version", UBTUNE_VERSION);
	jset_str(rec, "host", r->h.hostname);
	const struct ub_block *first = &r->blocks[0], *last = &r->blocks[r->nblocks - 1];
	_cleanup_free_ char *start = block_time(first, first->start), *end = block_time(last, last->end);
	/* an input that does not say when it ran is dated by its import */
	_cleanup_free_ char *now = start ? NULL : iso8601_local(time(NULL));
	jset_str(rec, "started_at", start ? start : now);
	jset_str(rec, "ended_at", end);
	json_object *suite = jchild(rec, "suite");
	jset_str(suite, "name", "unixbench");
	jset_str(suite, "version", r->h.version);
	jset_str(suite, "compatible_with", NULL);

	json_object *engine = jchild(rec, "engine");
	jset_str(engine, "kind", UB_IMPORT_ENGINE);
	jset_str(engine, "path", NULL);
	_cleanup_free_ char *desc = xasprintf("UnixBench %s %s imported from %s", r->h.version ? r->h.version : "(version unknown)",
					      format_word(r->formats), o->source ? o->source : "-");
	jset_str(engine, "description", desc);
	jset_null(rec, "build");

	json_object *runs = json_object_new_array(), *copies = json_object_new_array();
	json_object *ids = json_object_new_array(), *notes = json_object_new_array();
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct ub_block *b = &r->blocks[i];
		unsigned c = b->copies;
		if (!c && o->ncopies) {
			c = o->copies[*unknown < o->ncopies ? *unknown : o->ncopies - 1];
			(*unknown)++;
		}
		json_object_array_add(runs, run_json(b, c, notes));
		json_object_array_add(copies, c ? json_object_new_int((int)c) : NULL);
		for (size_t k = 0; k < b->ntests; k++) {
			const char *tid = b->tests[k].info ? b->tests[k].info->id : b->tests[k].name;
			bool seen = false;
			for (size_t j = 0; j < jarr_len(ids); j++)
				seen = seen || streq(json_object_get_string(json_object_array_get_idx(ids, j)), tid);
			if (!seen)
				jarr_add_str(ids, tid);
		}
	}
	json_object *opt = jchild(rec, "options");
	jset(opt, "tests", ids);
	jset(opt, "copies", copies);
	jset_null(opt, "iterations");
	jset_bool(opt, "quick", false);
	jset_str(opt, "workdir", r->h.tmpdir);
	jset_str(opt, "locale", "en_US.utf8");
	jset_bool(rec, "quick", false);
	jset_bool(rec, "incomplete", false);
	jset_null(rec, "interrupted_by");
	jset_bool(rec, "imported", true);

	json_object *imp = jchild(rec, "import");
	jset_str(imp, "source", o->source);
	jset_str(imp, "log", o->log_source);
	jset(imp, "formats", bit_names(r->formats, ub_format_name));
	jset(imp, "repaired", bit_names(doc->manglings, ub_mangling_name));
	jset_bool(imp, "header", r->has_header);
	jset_bool(imp, "dated_by_import", !start);
	jset(imp, "problems", problems_json(doc, ri));
	if (ri == doc->nresults - 1 && doc->problems_dropped) {
		_cleanup_free_ char *more = xasprintf("%zu more problems were not listed", doc->problems_dropped);
		jarr_add_str(notes, more);
	}
	jset(imp, "notes", notes);

	jset_null(rec, "profile");
	unsigned cpus = 0;
	for (size_t i = 0; i < r->nblocks && !cpus; i++)
		cpus = r->blocks[i].cpus;
	jset(rec, "online_cpus", cpus ? json_object_new_int((int)cpus) : NULL);
	json_object *env = jchild(rec, "environment");
	jset(env, "before", environment_json(r));
	jset_null(env, "after");
	jset_null(rec, "sampler");
	jset(rec, "samples", json_object_new_array());
	jset(rec, "events", json_object_new_array());
	jset(rec, "runs", runs);
	return rec;
}

json_object *ub_import_records(const struct ub_doc *doc, const struct ub_import_opts *o)
{
	json_object *a = json_object_new_array();
	size_t unknown = 0;
	for (size_t i = 0; i < doc->nresults; i++)
		json_object_array_add(a, record_json(doc, i, o, &unknown));
	return a;
}

bool ub_import_copies_known(json_object *rec)
{
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++)
		if (!jpath(json_object_array_get_idx(runs, i), "copies"))
			return false;
	return true;
}

char *ub_import_repairs(const struct ub_doc *doc)
{
	struct buf b = {0};
	for (unsigned bit = 1; bit && bit <= doc->manglings; bit <<= 1)
		if ((doc->manglings & bit) && ub_mangling_name(bit))
			buf_printf(&b, "%s%s", b.len ? ", " : "", ub_mangling_name(bit));
	return b.s ? buf_steal(&b) : NULL;
}

/* ---- files ---- */

/* A regular file, or standard input ("-"), which may be a pipe. */
static int read_input(const char *path, char **data, size_t *len, char **error)
{
	if (streq(path, "-"))
		return read_fd(STDIN_FILENO, UB_INPUT_MAX, data, len);
	return read_regular(path, UB_INPUT_MAX, data, len, error);
}

static int parse_file(const char *path, struct ub_doc *doc, char **error)
{
	_cleanup_free_ char *data = NULL;
	size_t len = 0;
	int r = read_input(path, &data, &len, error);
	const char *name = streq(path, "-") ? "standard input" : path;
	if (r == -EISDIR) {
		free(*error);
		*error = xasprintf("%s is a directory: give one of its files (the report, .log or .html)", name);
	} else if (r < 0 && !*error) { /* else "PATH is a FIFO, not a regular file" */
		*error = r == -EFBIG ? xasprintf("%s: larger than %u MiB; not UnixBench output", name, UB_INPUT_MAX >> 20)
				     : xasprintf("cannot read %s: %s", name, strerror(-r));
	}
	if (r < 0)
		return r;
	r = ub_parse(data, len, doc);
	if (r == -EBADMSG) {
		*error = xasprintf("%s: binary data, not UnixBench output", name);
	} else if (r == -ENOMSG) {
		_cleanup_free_ char *closest = doc->nproblems ? ub_import_problem_text(&doc->problems[0]) : NULL;
		*error = xasprintf("%s: no UnixBench results found; expected a UnixBench report (lines like "
				   "'Pipe Throughput   1430147.1 lps   (10.0 s, 7 samples)' or the 'System Benchmarks "
				   "Index Values' table), Run's output, or a results/*.log, *.html or *.csv file%s%s",
				   name, closest ? "; closest: " : "", closest ? closest : "");
	}
	return r;
}

/* HOST-DATE-NN.log beside HOST-DATE-NN, HOST-DATE-NN.html or .csv. */
static char *sibling_log(const char *path)
{
	if (streq(path, "-") || endswith(path, ".log"))
		return NULL;
	_cleanup_free_ char *base = xstrdup(path);
	if (endswith(base, ".html"))
		base[strlen(base) - 5] = '\0';
	else if (endswith(base, ".csv"))
		base[strlen(base) - 4] = '\0';
	char *log = xasprintf("%s.log", base);
	struct stat st;
	if (stat(log, &st) == 0 && S_ISREG(st.st_mode))
		return log;
	free(log);
	return NULL;
}

int ub_import_file(const char *path, const struct ub_import_opts *o, json_object **records, struct ub_doc *doc_out,
		   char **error)
{
	struct ub_doc doc = {0};
	*records = NULL;
	*error = NULL;
	int r = parse_file(path, &doc, error);
	if (r < 0) {
		ub_doc_free(&doc);
		return r;
	}
	struct ub_import_opts opts = *o;
	_cleanup_free_ char *log = (doc.formats & (UB_FMT_REPORT | UB_FMT_HTML | UB_FMT_CSV)) && !(doc.formats & UB_FMT_LOG)
					   ? sibling_log(path)
					   : NULL;
	if (log) {
		struct ub_doc ld = {0};
		_cleanup_free_ char *ignored = NULL;
		if (parse_file(log, &ld, &ignored) == 0 && (ld.formats & UB_FMT_LOG) && ub_attach_log(&doc, &ld) > 0)
			opts.log_source = log;
		ub_doc_free(&ld);
	}
	*records = ub_import_records(&doc, &opts);
	if (doc_out)
		*doc_out = doc;
	else
		ub_doc_free(&doc);
	return 0;
}
