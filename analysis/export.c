/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results as OpenMetrics text and as newline-delimited JSON samples. */
#include "analysis/export.h"

#include <ctype.h>
#include <errno.h>
#include <time.h>

#include "analysis/diagnose.h"
#include "lib/result-record.h"

int export_parse_time(const char *s, time_t *out)
{
	struct tm tm = {0};
	const char *rest = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!rest)
		return -EINVAL;
	long offset = 0;
	if (*rest == '+' || *rest == '-') {
		int sign = *rest == '-' ? -1 : 1;
		const char *d = rest + 1;
		if (!isdigit((unsigned char)d[0]) || !isdigit((unsigned char)d[1]))
			return -EINVAL;
		int hours = (d[0] - '0') * 10 + (d[1] - '0'), minutes = 0;
		d += 2;
		if (*d == ':')
			d++;
		if (isdigit((unsigned char)d[0]) && isdigit((unsigned char)d[1])) {
			minutes = (d[0] - '0') * 10 + (d[1] - '0');
			d += 2;
		}
		if (*d)
			return -EINVAL;
		offset = sign * (hours * 3600L + minutes * 60L);
	} else if (*rest == 'Z') {
		if (rest[1])
			return -EINVAL;
	} else if (*rest) {
		return -EINVAL;
	}
	*out = timegm(&tm) - offset;
	return 0;
}

/* ---- OpenMetrics ---- */

/* A label value: backslash, double quote and line feed escaped. */
static void label_value(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			buf_printf(b, "\\%c", *s);
		else if (*s == '\n')
			buf_puts(b, "\\n");
		else
			buf_add(b, s, 1);
	}
}

/* "whetstone-double" as a name part: "whetstone_double". */
static char *name_part(const char *id)
{
	char *s = xstrdup(id);
	for (char *c = s; *c; c++)
		if (!isalnum((unsigned char)*c))
			*c = '_';
	return s;
}

static void sample_line(struct buf *b, const char *family, const struct result_record *rec,
			const struct result_run *run, double v)
{
	buf_printf(b, "%s{host=\"", family);
	label_value(b, rec->host ?: "");
	buf_printf(b, "\",copies=\"%lld\"} %.10g\n", (long long)int_or(run->copies, 0), v);
}

/* The records exported, decoded. */
struct records {
	struct result_record *v;
	size_t n;
};

static int records_decode(json_object *const *recs, size_t n, struct records *out, char **error)
{
	*out = (struct records){ xcalloc(n ? n : 1, sizeof(*out->v)), 0 };
	for (; out->n < n; out->n++) {
		int r = result_decode(recs[out->n], &out->v[out->n], error);
		if (r < 0)
			return r;
	}
	return 0;
}

static void records_free(struct records *recs)
{
	for (size_t i = 0; i < recs->n; i++)
		result_record_free(&recs->v[i]);
	free(recs->v);
	*recs = (struct records){0};
}

/* The lines of one family: the value get() finds in each run. */
typedef bool (*run_value_fn)(const struct result_record *rec, const struct result_run *run, const void *arg,
			     double *v);

static void family(struct buf *b, const struct records *recs, const char *name, const char *unit, const char *help,
		   run_value_fn get, const void *arg)
{
	struct buf lines = {0};
	for (size_t i = 0; i < recs->n; i++) {
		const struct result_record *rec = &recs->v[i];
		for (size_t k = 0; k < rec->runs.n; k++) {
			double v;
			if (get(rec, &rec->runs.v[k], arg, &v))
				sample_line(&lines, name, rec, &rec->runs.v[k], v);
		}
	}
	if (!lines.len)
		return;
	buf_printf(b, "# TYPE %s gauge\n", name);
	if (unit)
		buf_printf(b, "# UNIT %s %s\n", name, unit);
	buf_printf(b, "# HELP %s %s\n", name, help);
	buf_add(b, lines.s, lines.len);
	buf_free(&lines);
}

static bool known(struct opt_num n, double *v)
{
	*v = n.v;
	return n.known;
}

static bool score_of(const struct result_record *rec, const struct result_run *run, const void *arg, double *v)
{
	return known(run->index.score, v);
}

static bool index_of(const struct result_record *rec, const struct result_run *run, const void *arg, double *v)
{
	const struct result_test *t = result_run_test(run, arg);
	return t && known(t->index, v);
}

static bool start_of(const struct result_record *rec, const struct result_run *run, const void *arg, double *v)
{
	time_t t;
	if (export_parse_time(run->started_at ?: rec->started_at, &t) < 0)
		return false;
	*v = (double)t;
	return true;
}

/* Two runs of one host and copy count: one label set twice. */
static int check_unique(const struct records *recs, char **error)
{
	for (size_t i = 0; i < recs->n; i++)
		for (size_t j = i + 1; j < recs->n; j++) {
			const struct result_record *a = &recs->v[i], *b = &recs->v[j];
			if (!streq(a->host ?: "", b->host ?: ""))
				continue;
			for (size_t x = 0; x < a->runs.n; x++)
				for (size_t y = 0; y < b->runs.n; y++) {
					int64_t ca = int_or(a->runs.v[x].copies, 0), cb = int_or(b->runs.v[y].copies, 0);
					if (ca != cb)
						continue;
					*error = xasprintf("results %s and %s are both of host '%s' at %lld cop%s: an "
							   "OpenMetrics family holds one value per host and copy count",
							   a->run_id ?: "?", b->run_id ?: "?", a->host ?: "", (long long)ca,
							   ca == 1 ? "y" : "ies");
					return -EINVAL;
				}
		}
	return 0;
}

int export_openmetrics(json_object *const *list, size_t n, struct buf *out, char **error)
{
	struct records recs;
	*error = NULL;
	int r = records_decode(list, n, &recs, error);
	if (r == 0)
		r = check_unique(&recs, error);
	if (r < 0) {
		records_free(&recs);
		return r;
	}
	family(out, &recs, "ubtune_score", NULL,
	       "UnixBench System Benchmarks Index Score: the geometric mean of the test indexes", score_of, NULL);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		_cleanup_free_ char *part = name_part(ub_tests[t].id);
		_cleanup_free_ char *name = xasprintf("ubtune_index_%s", part);
		_cleanup_free_ char *help = xasprintf("UnixBench index of %s (10 x result / baseline)", ub_tests[t].name);
		family(out, &recs, name, NULL, help, index_of, ub_tests[t].id);
	}
	family(out, &recs, "ubtune_start_time_seconds", "seconds", "When the run of this copy count started", start_of,
	       NULL);
	buf_puts(out, "# EOF\n");
	records_free(&recs);
	return 0;
}

/* ---- samples ---- */

/* PerfKitBenchmarker's labels: "|key:value|,|key:value|". */
static char *pkb_labels(json_object *metadata)
{
	struct buf b = {0};
	json_object_object_foreach(metadata, k, v) {
		const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v)
									  : json_object_to_json_string(v);
		buf_printf(&b, "%s|%s:%s|", b.len ? "," : "", k, s);
	}
	return b.s ? buf_steal(&b) : xstrdup("");
}

struct sampler_ctx {
	const struct result_record *rec;
	const struct result_run *run;
	struct buf *out;
	size_t seq;
};

static json_object *metadata_of(const struct sampler_ctx *c)
{
	json_object *m = json_object_new_object();
	int64_t copies = int_or(c->run->copies, 0);
	jset_str(m, "host", c->rec->host ?: "");
	jset_int(m, "copies", copies);
	jset_int(m, "num_parallel_copies", copies);
	jset_str(m, "run_id", c->rec->run_id);
	jset_str(m, "suite", c->rec->suite.name);
	jset_str(m, "suite_version", c->rec->suite.version);
	jset_bool(m, "quick", is_true(c->rec->quick));
	jset_bool(m, "imported", is_true(c->rec->imported));
	return m;
}

/* One line; takes metadata. */
static void emit(struct sampler_ctx *c, const char *metric, double value, const char *unit, json_object *metadata)
{
	json_object *o = json_object_new_object();
	time_t t;
	const char *started = c->run->started_at ?: c->rec->started_at;
	_cleanup_free_ char *labels = pkb_labels(metadata);
	_cleanup_free_ char *uri = xasprintf("%s-%zu", c->rec->run_id ?: "", c->seq++);
	jset_str(o, "metric", metric);
	jset_double(o, "value", value);
	jset_str(o, "unit", unit);
	jset_str(o, "labels", labels);
	jset(o, "metadata", metadata);
	jset(o, "timestamp", export_parse_time(started, &t) == 0 ? json_object_new_int64(t) : NULL);
	jset_str(o, "test", "unixbench");
	jset_str(o, "run_uri", c->rec->run_id);
	jset_str(o, "sample_uri", uri);
	jset_str(o, "product_name", "ubtune");
	jset_bool(o, "official", false);
	buf_printf(c->out, "%s\n", jdump(o, false));
	json_object_put(o);
}

static void run_samples(struct sampler_ctx *c)
{
	for (size_t k = 0; k < c->run->tests.n; k++) {
		const struct result_test *t = &c->run->tests.v[k];
		const char *name = t->name ?: t->id ?: "?";
		if (t->result.known) {
			json_object *m = metadata_of(c);
			jset_str(m, "test_id", t->id);
			if (t->time_s.known)
				jset_double(m, "time_s", t->time_s.v);
			jset(m, "samples", int_json(t->samples));
			emit(c, name, t->result.v, t->unit ?: "", m);
		}
		if (t->index.known) {
			json_object *m = metadata_of(c);
			_cleanup_free_ char *metric = xasprintf("%s:index", name);
			jset_str(m, "test_id", t->id);
			if (t->baseline.known)
				jset_double(m, "baseline", t->baseline.v);
			emit(c, metric, t->index.v, "", m);
		}
	}
	if (c->run->index.score.known) {
		json_object *m = metadata_of(c);
		jset_bool(m, "partial", is_true(c->run->index.partial));
		emit(c, "System Benchmarks Index Score", c->run->index.score.v, "", m);
	}
}

int export_samples(json_object *const *list, size_t n, struct buf *out, char **error)
{
	struct records recs;
	*error = NULL;
	int r = records_decode(list, n, &recs, error);
	for (size_t i = 0; r == 0 && i < recs.n; i++) {
		struct sampler_ctx c = { .rec = &recs.v[i], .out = out };
		for (size_t k = 0; k < recs.v[i].runs.n; k++) {
			c.run = &recs.v[i].runs.v[k];
			run_samples(&c);
		}
	}
	records_free(&recs);
	return r;
}
