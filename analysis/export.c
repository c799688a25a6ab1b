/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results as OpenMetrics text and as newline-delimited JSON samples. */
#include "analysis/export.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/diagnose.h"

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

static void label(struct buf *b, const char *name, const char *value, bool first)
{
	buf_printf(b, "%s%s=\"", first ? "" : ",", name);
	label_value(b, value ?: "");
	buf_puts(b, "\"");
}

static void sample_line(struct buf *b, const char *family, const struct fleet_digest *d, const struct fleet_run *run,
			double v)
{
	char copies[16];
	snprintf(copies, sizeof(copies), "%u", run->copies);
	buf_printf(b, "%s{", family);
	label(b, "host", d->host, true);
	label(b, "machine_id", d->machine_id, false);
	label(b, "copies", copies, false);
	label(b, "round", d->round, false);
	/* a score over fewer than the 12 tests, or from shortened runs, is
	 * another number: a query can tell it from the label */
	label(b, "partial", run->partial || d->incomplete ? "true" : "false", false);
	label(b, "quick", d->quick ? "true" : "false", false);
	buf_printf(b, "} %.10g\n", v);
}

/* The value get() finds in a run; false when it has none. */
typedef bool (*run_value_fn)(const struct fleet_digest *d, const struct fleet_run *run, const void *arg, double *v);

static void family(struct buf *b, const struct fleet_digest *const *d, size_t n, const char *name, const char *unit,
		   const char *help, run_value_fn get, const void *arg)
{
	size_t head = b->len;
	buf_printf(b, "# TYPE %s gauge\n", name);
	if (unit)
		buf_printf(b, "# UNIT %s %s\n", name, unit);
	buf_printf(b, "# HELP %s %s\n", name, help);
	size_t lines = b->len;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i]->nruns; k++) {
			double v;
			if (d[i]->runs[k].copies && get(d[i], &d[i]->runs[k], arg, &v))
				sample_line(b, name, d[i], &d[i]->runs[k], v);
		}
	/* a family no result has a value for is left out */
	if (b->len == lines)
		b->len = head;
	if (b->s)
		b->s[b->len] = '\0';
}

static bool score_of(const struct fleet_digest *d, const struct fleet_run *run, const void *arg, double *v)
{
	*v = run->score;
	return isfinite(*v);
}

static bool index_of(const struct fleet_digest *d, const struct fleet_run *run, const void *arg, double *v)
{
	const struct fleet_test *t = fleet_run_test(run, arg);
	*v = t ? t->index : NAN;
	return isfinite(*v);
}

static bool start_of(const struct fleet_digest *d, const struct fleet_run *run, const void *arg, double *v)
{
	time_t t;
	if (export_parse_time(run->started_at ?: d->started_at, &t) < 0)
		return false;
	*v = (double)t;
	return true;
}

/* A run's label set without its values: host, machine and copy count. */
struct label_set {
	const struct fleet_digest *d;
	unsigned copies;
};

static int by_label_set(const void *a, const void *b)
{
	const struct label_set *x = a, *y = b;
	int c = strcmp(x->d->host ?: "", y->d->host ?: "");
	if (!c)
		c = strcmp(x->d->machine_id ?: "", y->d->machine_id ?: "");
	return c ? c : (x->copies > y->copies) - (x->copies < y->copies);
}

/* Two runs of one host and copy count: one label set twice. */
static int check_unique(const struct fleet_digest *const *d, size_t n, char **error)
{
	size_t ns = 0;
	for (size_t i = 0; i < n; i++)
		ns += d[i]->nruns;
	struct label_set *v = xcalloc(ns + 1, sizeof(*v));
	ns = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i]->nruns; k++)
			if (d[i]->runs[k].copies)
				v[ns++] = (struct label_set){ d[i], d[i]->runs[k].copies };
	qsort(v, ns, sizeof(*v), by_label_set);
	int r = 0;
	for (size_t k = 1; k < ns && r == 0; k++)
		if (by_label_set(&v[k - 1], &v[k]) == 0) {
			const struct fleet_digest *a = v[k - 1].d, *b = v[k].d;
			*error = xasprintf("results %s and %s are both of host '%s' at %u cop%s: an OpenMetrics family holds "
					   "one value per host and copy count",
					   a->run_id ?: "?", b->run_id ?: "?", a->host ?: "", v[k].copies,
					   v[k].copies == 1 ? "y" : "ies");
			r = -EINVAL;
		}
	free(v);
	return r;
}

int export_openmetrics(const struct fleet_digest *const *d, size_t n, struct buf *out, char **error)
{
	*error = NULL;
	int r = check_unique(d, n, error);
	if (r < 0)
		return r;
	family(out, d, n, "ubtune_score", NULL,
	       "UnixBench System Benchmarks Index Score: the geometric mean of the test indexes", score_of, NULL);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		_cleanup_free_ char *part = name_part(ub_tests[t].id);
		_cleanup_free_ char *name = xasprintf("ubtune_index_%s", part);
		_cleanup_free_ char *help = xasprintf("UnixBench index of %s (10 x result / baseline)", ub_tests[t].name);
		family(out, d, n, name, NULL, help, index_of, ub_tests[t].id);
	}
	family(out, d, n, "ubtune_start_time_seconds", "seconds", "When the run of this copy count started", start_of,
	       NULL);
	buf_puts(out, "# EOF\n");
	return 0;
}

/* ---- PerfKitBenchmarker's samples ---- */

void export_python_float(double v, char *b, size_t n)
{
	if (isnan(v)) {
		snprintf(b, n, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(b, n, v < 0 ? "-Infinity" : "Infinity");
		return;
	}
	/* the shortest digits that read back as v: more digits never read
	 * back worse, so the fewest is found by halving */
	char e[40];
	int lo = 0, hi = 16;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		snprintf(e, sizeof(e), "%.*e", mid, v);
		if (strtod(e, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(e, sizeof(e), "%.*e", lo, v);
	/* e is "-d.ddde+XX": the digits and the decimal exponent */
	bool neg = e[0] == '-';
	char digits[24];
	size_t nd = 0;
	const char *c = e + neg;
	for (; *c && *c != 'e'; c++)
		if (*c != '.')
			digits[nd++] = *c;
	int exp10 = atoi(c + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	struct buf s = {0};
	buf_puts(&s, neg ? "-" : "");
	if (exp10 >= -4 && exp10 < 16) {
		/* Python's repr writes these without an exponent, and ".0" for a whole number */
		if (exp10 < 0) {
			buf_puts(&s, "0.");
			for (int i = exp10 + 1; i < 0; i++)
				buf_puts(&s, "0");
			buf_puts(&s, digits);
		} else {
			for (int i = 0; i <= exp10; i++)
				buf_printf(&s, "%c", (size_t)i < nd ? digits[i] : '0');
			buf_printf(&s, ".%s", (size_t)exp10 + 1 < nd ? digits + exp10 + 1 : "0");
		}
	} else {
		buf_printf(&s, "%c%s%s", digits[0], nd > 1 ? "." : "", digits + 1);
		buf_printf(&s, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	}
	snprintf(b, n, "%s", s.s);
	buf_free(&s);
}

/* A string as Python's json.dumps() writes it: ASCII only, the rest as
 * \uXXXX (UTF-16, so beyond the BMP a surrogate pair); bytes that are not
 * UTF-8 are taken as Latin-1. */
static void py_escape(struct buf *b, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)(s ?: ""); *c;) {
		uint32_t cp = *c;
		size_t len = 1;
		if (cp >= 0xc0 && cp < 0xf8) {
			size_t need = cp < 0xe0 ? 2 : cp < 0xf0 ? 3 : 4;
			uint32_t v = cp & (0x3f >> (need - 1));
			size_t k = 1;
			for (; k < need && (c[k] & 0xc0) == 0x80; k++)
				v = v << 6 | (c[k] & 0x3f);
			if (k == need) {
				cp = v;
				len = need;
			}
		}
		c += len;
		switch (cp) {
		case '"': buf_puts(b, "\\\""); continue;
		case '\\': buf_puts(b, "\\\\"); continue;
		case '\n': buf_puts(b, "\\n"); continue;
		case '\r': buf_puts(b, "\\r"); continue;
		case '\t': buf_puts(b, "\\t"); continue;
		case '\b': buf_puts(b, "\\b"); continue;
		case '\f': buf_puts(b, "\\f"); continue;
		}
		if (cp >= 0x20 && cp < 0x7f)
			buf_add(b, (const char *)c - 1, 1);
		else if (cp < 0x10000)
			buf_printf(b, "\\u%04x", cp);
		else
			buf_printf(b, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
	}
}

static void py_string(struct buf *b, const char *s)
{
	buf_puts(b, "\"");
	py_escape(b, s);
	buf_puts(b, "\"");
}

/* A metadata value, as PerfKitBenchmarker's labels write it: str() of a
 * Python value. */
enum meta_kind { META_STR, META_INT, META_FLOAT, META_BOOL };
struct meta {
	char key[40];
	enum meta_kind kind;
	const char *s;
	double v;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct meta *)a)->key, ((const struct meta *)b)->key);
}

#define META_MAX 48
struct metadata {
	struct meta v[META_MAX];
	size_t n;
};

static void meta_add(struct metadata *m, const char *key, enum meta_kind kind, const char *s, double v)
{
	if (m->n == META_MAX || (kind == META_STR && !s) || (kind != META_STR && kind != META_BOOL && !isfinite(v)))
		return;
	struct meta *e = &m->v[m->n++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->kind = kind;
	e->s = s;
	e->v = v;
}

/* "key:value" of a metadata value, escaped for the JSON string it goes in:
 * pieces escaped one by one make the same string as escaped whole. */
static void meta_piece(struct buf *b, const struct meta *e)
{
	char num[40];
	py_escape(b, e->key);
	buf_puts(b, ":");
	switch (e->kind) {
	case META_STR:
		py_escape(b, e->s);
		break;
	case META_INT:
		buf_printf(b, "%.0f", e->v);
		break;
	case META_FLOAT:
		export_python_float(e->v, num, sizeof(num));
		buf_puts(b, num);
		break;
	case META_BOOL:
		buf_puts(b, e->v ? "True" : "False");
		break;
	}
}

/* The pieces of a sorted metadata, each "key:value" escaped, made once
 * for the facts every sample of a result carries. */
struct pieces {
	struct meta *keys; /* sorted; their .s is the piece */
	struct buf text;
	size_t *at, n;
};

static void pieces_make(struct pieces *p, struct metadata *m)
{
	qsort(m->v, m->n, sizeof(m->v[0]), by_key);
	*p = (struct pieces){ .keys = xcalloc(m->n + 1, sizeof(*p->keys)), .at = xcalloc(m->n + 1, sizeof(size_t)),
			      .n = m->n };
	for (size_t i = 0; i < m->n; i++) {
		p->keys[i] = m->v[i];
		p->at[i] = p->text.len;
		meta_piece(&p->text, &m->v[i]);
		buf_add(&p->text, "", 1); /* each piece ends in a NUL */
	}
}

static void pieces_free(struct pieces *p)
{
	free(p->keys);
	free(p->at);
	buf_free(&p->text);
}

/* "|key:value|,|key:value|" sorted by key, as PerfKitBenchmarker's
 * GetLabelsFromDict() collapses metadata: the sample's own merged into the
 * result's. */
static void labels_text(struct buf *b, const struct pieces *all, struct metadata *own)
{
	qsort(own->v, own->n, sizeof(own->v[0]), by_key);
	size_t i = 0, k = 0;
	bool first = true;
	buf_puts(b, "\"");
	while (i < all->n || k < own->n) {
		buf_puts(b, first ? "|" : "|,|");
		first = false;
		if (k < own->n && (i == all->n || strcmp(own->v[k].key, all->keys[i].key) < 0))
			meta_piece(b, &own->v[k++]);
		else
			buf_puts(b, all->text.s + all->at[i++]);
	}
	buf_puts(b, first ? "\"" : "|\"");
}

/* The facts of the machine and the result, on every sample (as
 * PerfKitBenchmarker puts the VM's on each): PerfKitBenchmarker's names
 * where it has the fact, else the fleet's ("workdir medium":
 * "workdir_medium"). */
static void machine_meta(struct metadata *m, const struct fleet_digest *d)
{
	m->n = 0;
	meta_add(m, "hostname", META_STR, d->host, 0);
	meta_add(m, "machine_id", META_STR, d->machine_id, 0);
	meta_add(m, "round", META_STR, d->round, 0);
	meta_add(m, "run_id", META_STR, d->run_id, 0);
	meta_add(m, "suite", META_STR, d->suite, 0);
	meta_add(m, "ubtune_version", META_STR, d->suite_version, 0);
	meta_add(m, "quick", META_BOOL, NULL, d->quick);
	meta_add(m, "incomplete", META_BOOL, NULL, d->incomplete);
	meta_add(m, "imported", META_BOOL, NULL, d->imported);
	meta_add(m, "kernel_release", META_STR, d->kernel, 0);
	meta_add(m, "cpu_arch", META_STR, d->arch, 0);
	meta_add(m, "os_info", META_STR, d->os, 0);
	if (d->cpus)
		meta_add(m, "num_cpus", META_INT, NULL, d->cpus);
	for (size_t f = 0; f < fleet_nfacts; f++) {
		/* kernel and online CPUs are above, by PerfKitBenchmarker's names */
		if (!d->facts[f] || streq(fleet_facts[f].name, "kernel") || streq(fleet_facts[f].name, "online CPUs"))
			continue;
		char key[40];
		size_t k = 0;
		for (const char *c = fleet_facts[f].name; *c && k + 1 < sizeof(key); c++)
			key[k++] = isalnum((unsigned char)*c) ? (char)tolower((unsigned char)*c) : '_';
		key[k] = '\0';
		meta_add(m, key, META_STR, d->facts[f], 0);
	}
}

struct pkb_ctx {
	const struct fleet_digest *d;
	const struct export_pkb *pkb;
	struct buf *out;
	size_t seq;
	char timestamp[40];    /* the run's start, or "null" */
	struct pieces machine; /* the facts on every sample */
};

/* A sample's own id: a UUID made from the result's run id and the sample's
 * place in it (version 8, RFC 9562), the same on every export. */
static void sample_uri(const struct pkb_ctx *c, char *b, size_t n)
{
	uint64_t h[2] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	for (int k = 0; k < 2; k++) {
		for (const char *s = c->d->run_id ?: ""; *s; s++)
			h[k] = (h[k] ^ (unsigned char)*s) * 0x100000001b3ull;
		h[k] = (h[k] ^ c->seq) * 0x100000001b3ull;
	}
	h[0] = (h[0] & ~0xf000ull) | 0x8000ull;
	h[1] = (h[1] & ~(3ull << 62)) | (2ull << 62);
	snprintf(b, n, "%08x-%04x-%04x-%04x-%012llx", (unsigned)(h[0] >> 32), (unsigned)(h[0] >> 16) & 0xffff,
		 (unsigned)h[0] & 0xffff, (unsigned)(h[1] >> 48), (unsigned long long)(h[1] & 0xffffffffffffull));
}

/* One line, with the keys in the order PerfKitBenchmarker's publisher
 * writes them: the sample's, then the run's, then the labels. */
static void emit(struct pkb_ctx *c, const char *metric, double value, const char *unit, struct metadata *m)
{
	struct buf *b = c->out;
	char num[40], uri[40];
	buf_puts(b, "{\"metric\": ");
	py_string(b, metric);
	export_python_float(value, num, sizeof(num));
	buf_printf(b, ", \"value\": %s, \"unit\": ", num);
	py_string(b, unit);
	buf_printf(b, ", \"timestamp\": %s, \"test\": \"unixbench\", \"product_name\": \"ubtune\", \"official\": false, "
		      "\"owner\": ",
		   c->timestamp);
	py_string(b, c->pkb->owner);
	buf_puts(b, ", \"run_uri\": ");
	py_string(b, c->d->run_id);
	sample_uri(c, uri, sizeof(uri));
	c->seq++;
	buf_printf(b, ", \"sample_uri\": \"%s\", \"labels\": ", uri);
	labels_text(b, &c->machine, m);
	buf_puts(b, "}\n");
}

/* The samples of a run, as PerfKitBenchmarker's UnixBench benchmark
 * makes them from the report: each test's result ("NAME", with its
 * duration and passes), its index ("NAME:score": the result, with baseline
 * and index), and the index score. */
static void run_samples(struct pkb_ctx *c, const struct fleet_run *run)
{
	time_t start;
	if (export_parse_time(run->started_at ?: c->d->started_at, &start) == 0)
		export_python_float((double)start, c->timestamp, sizeof(c->timestamp));
	else
		snprintf(c->timestamp, sizeof(c->timestamp), "null");
	for (size_t k = 0; k < run->ntests; k++) {
		const struct fleet_test *t = &run->tests[k];
		const char *name = t->name ?: t->id ?: "?";
		if (!isfinite(t->result))
			continue;
		struct metadata m = { .n = 0 };
		char time[40];
		meta_add(&m, "num_parallel_copies", META_INT, NULL, run->copies);
		if (t->samples >= 0)
			meta_add(&m, "samples", META_INT, NULL, (double)t->samples);
		if (isfinite(t->time_s)) {
			snprintf(time, sizeof(time), "%.1fs", t->time_s);
			meta_add(&m, "time", META_STR, time, 0);
		}
		emit(c, name, t->result, t->unit ?: "", &m);
		if (!isfinite(t->index))
			continue;
		struct metadata s = { .n = 0 };
		_cleanup_free_ char *metric = xasprintf("%s:score", name);
		meta_add(&s, "num_parallel_copies", META_INT, NULL, run->copies);
		meta_add(&s, "baseline", META_FLOAT, NULL, t->baseline);
		meta_add(&s, "index", META_FLOAT, NULL, t->index);
		emit(c, metric, t->result, "", &s);
	}
	if (isfinite(run->score)) {
		struct metadata m = { .n = 0 };
		meta_add(&m, "num_parallel_copies", META_INT, NULL, run->copies);
		meta_add(&m, "partial", META_BOOL, NULL, run->partial);
		emit(c, "System Benchmarks Index Score", run->score, "", &m);
	}
}

void export_samples(const struct fleet_digest *d, const struct export_pkb *pkb, struct buf *out)
{
	struct pkb_ctx c = { .d = d, .pkb = pkb, .out = out };
	struct metadata m;
	machine_meta(&m, d);
	pieces_make(&c.machine, &m);
	for (size_t k = 0; k < d->nruns; k++)
		if (d->runs[k].copies)
			run_samples(&c, &d->runs[k]);
	pieces_free(&c.machine);
}
