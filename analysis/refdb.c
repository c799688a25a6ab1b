/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading the reference database (analysis/refdb.h). */
#include "refdb.h"

#include <errno.h>
#include <math.h>

#include "lib/paths.h"
#include "lib/util.h"

#define REFDB_SCHEMA "ubtune.reference-runs/1"
/* The shipped database is about 1 MiB. */
#define REFDB_MAX (256u << 20)
#define REFDB_RUNS_MAX 1000000

struct line {
	const char *path;
	unsigned no;
	char *error;
};

static void fail(struct line *l, const char *key, const char *fmt, ...) _printf_(3, 4);
static void fail(struct line *l, const char *key, const char *fmt, ...)
{
	if (l->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	l->error = key ? xasprintf("%s:%u: %s: %s", l->path, l->no, key, msg) : xasprintf("%s:%u: %s", l->path, l->no, msg);
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A string member, or null; anything else is refused. */
static const char *str(struct line *l, json_object *o, const char *key, bool required)
{
	json_object *v = member(o, key);
	if (!v) {
		if (required)
			fail(l, key, "missing");
		return NULL;
	}
	if (!json_object_is_type(v, json_type_string)) {
		fail(l, key, "not a string");
		return NULL;
	}
	return json_object_get_string(v);
}

/* A number in [min, max], or null (NAN); errors name it path. */
static double number_at(struct line *l, json_object *o, const char *key, const char *path, double min, double max)
{
	json_object *v = member(o, key);
	key = path;
	if (!v)
		return NAN;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double)) {
		fail(l, key, "not a number");
		return NAN;
	}
	double d = json_object_get_double(v);
	if (!(d >= min && d <= max))
		fail(l, key, "%g is not from %g to %g", d, min, max);
	return d;
}

static double number(struct line *l, json_object *o, const char *key, double min, double max)
{
	return number_at(l, o, key, key, min, max);
}

static void read_run(struct line *l, json_object *o, struct refdb_run *r)
{
	*r = (struct refdb_run){ .json = o, .line = l->no, .clock_ghz = NAN, .score = NAN };
	for (int t = 0; t < UB_NINDEX; t++)
		r->index[t] = NAN;
	r->id = str(l, o, "id", true);
	r->source = str(l, o, "source", true);
	r->origin = str(l, o, "origin", false);
	r->cpu = str(l, o, "cpu_named", false) ?: str(l, o, "cpu", false) ?: str(l, o, "board", false);
	r->arch = str(l, o, "arch", false);
	r->virt = str(l, o, "virt", false);
	r->cloud = str(l, o, "cloud", false);
	r->instance = str(l, o, "instance", false);
	r->not_used = str(l, o, "not_used", false);
	double copies = number(l, o, "copies", 1, REFDB_RUNS_MAX), cpus = number(l, o, "cpus", 1, REFDB_RUNS_MAX);
	r->copies = copies > 0 ? (unsigned)copies : 0;
	r->cpus = cpus > 0 ? (unsigned)cpus : 0;
	r->score = number(l, o, "score", 0, 1e9);
	if (isnan(r->score))
		r->score = number(l, o, "score_computed", 0, 1e9);
	json_object *use = member(o, "use"), *healthy = member(o, "healthy");
	if (use && !json_object_is_type(use, json_type_boolean))
		fail(l, "use", "not true or false");
	if (healthy && !json_object_is_type(healthy, json_type_boolean))
		fail(l, "healthy", "not true or false");
	r->used = use && json_object_get_boolean(use);
	r->healthy = healthy && json_object_get_boolean(healthy);
	json_object *tests = member(o, "tests");
	if (tests && !json_object_is_type(tests, json_type_object))
		fail(l, "tests", "not an object");
	else if (tests) {
		json_object_object_foreach(tests, name, v) {
			const struct ub_test_info *t = ub_index_test(name);
			_cleanup_free_ char *key = xasprintf("tests.%s", name);
			if (!t) {
				fail(l, key, "not an index test");
				break;
			}
			r->index[t - ub_tests] = number_at(l, tests, name, key, 1e-6, 1e9);
			(void)v;
		}
	}
	json_object *place = member(o, "place");
	if (place && !json_object_is_type(place, json_type_object))
		fail(l, "place", "not an object");
	else if (place) {
		r->core = str(l, place, "core", false);
		r->chip = str(l, place, "chip", false);
		if (!r->core)
			fail(l, "place.core", "missing");
		r->clock_ghz = number_at(l, place, "clock_ghz", "place.clock_ghz", 0.01, 100);
	}
}

int refdb_parse(const char *text, size_t len, const char *path, struct refdb *db, char **error)
{
	*db = (struct refdb){ .path = xstrdup(path) };
	*error = NULL;
	struct line l = { .path = path };
	if (memchr(text, '\0', len)) {
		*error = xasprintf("%s: contains NUL bytes, not a reference database", path);
		return -EINVAL;
	}
	for (const char *p = text, *end = text + len; p < end && !l.error;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		l.no++;
		json_object *o = NULL;
		_cleanup_free_ char *one = xstrndup(p, n);
		if (n && (jload_text(one, n, &o) < 0 || !json_object_is_type(o, json_type_object))) {
			json_object_put(o);
			o = NULL;
			fail(&l, NULL, "not a JSON object");
		}
		p += n + 1;
		if (!o) {
			if (n)
				break;
			continue;
		}
		if (!db->head) {
			db->head = o;
			const char *schema = str(&l, o, "schema", true);
			if (schema && !streq(schema, REFDB_SCHEMA))
				fail(&l, "schema", "'%s' is not %s", schema, REFDB_SCHEMA);
			continue;
		}
		if (db->n >= REFDB_RUNS_MAX) {
			json_object_put(o);
			fail(&l, NULL, "more than %d runs", REFDB_RUNS_MAX);
			break;
		}
		db->v = xrealloc(db->v, (db->n + 1) * sizeof(*db->v));
		read_run(&l, o, &db->v[db->n++]);
	}
	if (!l.error && !db->head)
		l.error = xasprintf("%s: empty, not a reference database", path);
	*error = l.error;
	return l.error ? -EINVAL : 0;
}

int refdb_load(const char *path, struct refdb *db, char **error)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	*db = (struct refdb){0};
	*error = NULL;
	int r = data_read(path, REFDB_MAX, &text, &len, error);
	if (r < 0) {
		if (!*error)
			*error = xasprintf("cannot read %s: %s", path, strerror(-r));
		return r;
	}
	return refdb_parse(text, len, path, db, error);
}

void refdb_free(struct refdb *db)
{
	for (size_t i = 0; i < db->n; i++)
		json_object_put(db->v[i].json);
	json_object_put(db->head);
	free(db->v);
	free(db->path);
	*db = (struct refdb){0};
}

const struct refdb_run *refdb_find(const struct refdb *db, const char *id)
{
	for (size_t i = 0; id && i < db->n; i++)
		if (streq_ptr(db->v[i].id, id))
			return &db->v[i];
	return NULL;
}

bool refdb_matches(const struct refdb_run *r, char *const *words, size_t n)
{
	const char *fields[] = { r->id, r->source, r->origin, r->cpu, r->core, r->chip, r->arch, r->virt, r->cloud,
				 r->instance, json_object_get_string(member(r->json, "label")),
				 json_object_get_string(member(r->json, "board")),
				 json_object_get_string(member(r->json, "os")) };
	for (size_t w = 0; w < n; w++) {
		bool found = false;
		for (size_t i = 0; i < ARRAY_SIZE(fields) && !found; i++)
			found = fields[i] && strcasestr(fields[i], words[w]);
		if (!found)
			return false;
	}
	return true;
}
