/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results as OpenMetrics text and as newline-delimited JSON samples. */
#include "analysis/export.h"

#include <ctype.h>
#include <errno.h>
#include <time.h>

#include "analysis/diagnose.h"
#include "analysis/fleet.h"

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

static void sample_line(struct buf *b, const char *family, json_object *rec, json_object *run, double v)
{
	int64_t copies = 0;
	jpath_int(run, "copies", &copies);
	buf_printf(b, "%s{host=\"", family);
	label_value(b, jpath_str(rec, "host") ?: "");
	buf_printf(b, "\",copies=\"%lld\"} %.10g\n", (long long)copies, v);
}

/* The lines of one family: the value get() finds in each run. */
typedef bool (*run_value_fn)(json_object *rec, json_object *run, const void *arg, double *v);

static void family(struct buf *b, json_object *const *recs, size_t n, const char *name, const char *unit,
		   const char *help, run_value_fn get, const void *arg)
{
	struct buf lines = {0};
	for (size_t i = 0; i < n; i++) {
		json_object *runs = jpath(recs[i], "runs");
		for (size_t k = 0; k < jarr_len(runs); k++) {
			double v;
			json_object *run = json_object_array_get_idx(runs, k);
			if (get(recs[i], run, arg, &v))
				sample_line(&lines, name, recs[i], run, v);
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

static bool score_of(json_object *rec, json_object *run, const void *arg, double *v)
{
	return jpath_double(run, "index.score", v);
}

static bool index_of(json_object *rec, json_object *run, const void *arg, double *v)
{
	return jpath_double(fleet_run_test(run, arg), "index", v);
}

static bool start_of(json_object *rec, json_object *run, const void *arg, double *v)
{
	time_t t;
	if (export_parse_time(jpath_str(run, "started_at") ?: jpath_str(rec, "started_at"), &t) < 0)
		return false;
	*v = (double)t;
	return true;
}

/* Two runs of one host and copy count: one label set twice. */
static int check_unique(json_object *const *recs, size_t n, char **error)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!streq(jpath_str(recs[i], "host") ?: "", jpath_str(recs[j], "host") ?: ""))
				continue;
			json_object *a = jpath(recs[i], "runs"), *b = jpath(recs[j], "runs");
			for (size_t x = 0; x < jarr_len(a); x++)
				for (size_t y = 0; y < jarr_len(b); y++) {
					int64_t ca = 0, cb = 0;
					jpath_int(json_object_array_get_idx(a, x), "copies", &ca);
					jpath_int(json_object_array_get_idx(b, y), "copies", &cb);
					if (ca != cb)
						continue;
					*error = xasprintf("results %s and %s are both of host '%s' at %lld cop%s: an "
							   "OpenMetrics family holds one value per host and copy count",
							   jpath_str(recs[i], "run_id") ?: "?", jpath_str(recs[j], "run_id") ?: "?",
							   jpath_str(recs[i], "host") ?: "", (long long)ca, ca == 1 ? "y" : "ies");
					return -EINVAL;
				}
		}
	return 0;
}

int export_openmetrics(json_object *const *recs, size_t n, struct buf *out, char **error)
{
	*error = NULL;
	int r = check_unique(recs, n, error);
	if (r < 0)
		return r;
	family(out, recs, n, "ubtune_score", NULL,
	       "UnixBench System Benchmarks Index Score: the geometric mean of the test indexes", score_of, NULL);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		_cleanup_free_ char *part = name_part(ub_tests[t].id);
		_cleanup_free_ char *name = xasprintf("ubtune_index_%s", part);
		_cleanup_free_ char *help = xasprintf("UnixBench index of %s (10 x result / baseline)", ub_tests[t].name);
		family(out, recs, n, name, NULL, help, index_of, ub_tests[t].id);
	}
	family(out, recs, n, "ubtune_start_time_seconds", "seconds", "When the run of this copy count started",
	       start_of, NULL);
	buf_puts(out, "# EOF\n");
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
	json_object *rec, *run;
	struct buf *out;
	size_t seq;
};

static json_object *metadata_of(const struct sampler_ctx *c)
{
	json_object *m = json_object_new_object();
	int64_t copies = 0;
	bool quick = false, imported = false;
	jpath_int(c->run, "copies", &copies);
	jpath_bool(c->rec, "quick", &quick);
	jpath_bool(c->rec, "imported", &imported);
	jset_str(m, "host", jpath_str(c->rec, "host") ?: "");
	jset_int(m, "copies", copies);
	jset_int(m, "num_parallel_copies", copies);
	jset_str(m, "run_id", jpath_str(c->rec, "run_id"));
	jset_str(m, "suite", jpath_str(c->rec, "suite.name"));
	jset_str(m, "suite_version", jpath_str(c->rec, "suite.version"));
	jset_bool(m, "quick", quick);
	jset_bool(m, "imported", imported);
	return m;
}

/* One line; takes metadata. */
static void emit(struct sampler_ctx *c, const char *metric, double value, const char *unit, json_object *metadata)
{
	json_object *o = json_object_new_object();
	time_t t;
	const char *started = jpath_str(c->run, "started_at") ?: jpath_str(c->rec, "started_at");
	_cleanup_free_ char *labels = pkb_labels(metadata);
	_cleanup_free_ char *uri = xasprintf("%s-%zu", jpath_str(c->rec, "run_id") ?: "", c->seq++);
	jset_str(o, "metric", metric);
	jset_double(o, "value", value);
	jset_str(o, "unit", unit);
	jset_str(o, "labels", labels);
	jset(o, "metadata", metadata);
	jset(o, "timestamp", export_parse_time(started, &t) == 0 ? json_object_new_int64(t) : NULL);
	jset_str(o, "test", "unixbench");
	jset_str(o, "run_uri", jpath_str(c->rec, "run_id"));
	jset_str(o, "sample_uri", uri);
	jset_str(o, "product_name", "ubtune");
	jset_bool(o, "official", false);
	buf_printf(c->out, "%s\n", jdump(o, false));
	json_object_put(o);
}

static void run_samples(struct sampler_ctx *c)
{
	json_object *tests = jpath(c->run, "tests");
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = json_object_array_get_idx(tests, k);
		const char *name = jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?";
		double v, x;
		if (jpath_double(t, "result", &v)) {
			json_object *m = metadata_of(c);
			jset_str(m, "test_id", jpath_str(t, "id"));
			if (jpath_double(t, "time_s", &x))
				jset_double(m, "time_s", x);
			jset(m, "samples", json_object_get(jpath(t, "samples")));
			emit(c, name, v, jpath_str(t, "unit") ?: "", m);
		}
		if (jpath_double(t, "index", &v)) {
			json_object *m = metadata_of(c);
			_cleanup_free_ char *metric = xasprintf("%s:index", name);
			jset_str(m, "test_id", jpath_str(t, "id"));
			if (jpath_double(t, "baseline", &x))
				jset_double(m, "baseline", x);
			emit(c, metric, v, "", m);
		}
	}
	double score;
	if (jpath_double(c->run, "index.score", &score)) {
		json_object *m = metadata_of(c);
		bool partial = false;
		jpath_bool(c->run, "index.partial", &partial);
		jset_bool(m, "partial", partial);
		emit(c, "System Benchmarks Index Score", score, "", m);
	}
}

void export_samples(json_object *const *recs, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n; i++) {
		json_object *runs = jpath(recs[i], "runs");
		struct sampler_ctx c = { .rec = recs[i], .out = out };
		for (size_t k = 0; k < jarr_len(runs); k++) {
			c.run = json_object_array_get_idx(runs, k);
			run_samples(&c);
		}
	}
}
