/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of the results store that do not depend on its backend. */
#include "store.h"

#include <errno.h>
#include <inttypes.h>

#include "lib/paths.h"
#include "lib/util.h"

static bool is_type(json_object *o, const char *path, json_type t)
{
	json_object *v = jpath(o, path);
	return v && json_object_is_type(v, t);
}

static bool is_number(json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

/* Null or a number. */
static bool is_optional_number(json_object *o, const char *path)
{
	json_object *v = jpath(o, path);
	return !v || is_number(v);
}

/* An imported run may not know its copies (a pasted table that does not
 * say): null there. */
static int check_run(json_object *run, size_t i, bool imported, char **error)
{
	int64_t copies;
	bool unknown = imported && json_object_is_type(run, json_type_object) && !jpath(run, "copies");
	if (!unknown && (!json_object_is_type(run, json_type_object) || !jpath_int(run, "copies", &copies) ||
			 copies < 1 || copies > 1 << 20)) {
		*error = xasprintf("runs[%zu].copies is missing or not a positive number", i);
		return -EBADMSG;
	}
	if (!is_type(run, "tests", json_type_array)) {
		*error = xasprintf("runs[%zu].tests is not a list", i);
		return -EBADMSG;
	}
	if (!is_optional_number(run, "index.score")) {
		*error = xasprintf("runs[%zu].index.score is not a number", i);
		return -EBADMSG;
	}
	json_object *tests = jpath(run, "tests");
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = json_object_array_get_idx(tests, k);
		if (!t || !is_type(t, "id", json_type_string) || !is_optional_number(t, "result") ||
		    !is_optional_number(t, "index")) {
			*error = xasprintf("runs[%zu].tests[%zu] needs a string id and numbers (or null) as "
					   "result and index", i, k);
			return -EBADMSG;
		}
	}
	return 0;
}

int result_check(json_object *rec, char **error)
{
	*error = NULL;
	if (!rec || !json_object_is_type(rec, json_type_object)) {
		*error = xstrdup("not a JSON object");
		return -EBADMSG;
	}
	const char *schema = jpath_str(rec, "schema");
	if (!schema || !streq(schema, RESULT_SCHEMA)) {
		*error = xasprintf("schema is '%s', expected '%s'", schema ? schema : "(none)", RESULT_SCHEMA);
		return -EBADMSG;
	}
	static const char *const strings[] = { "run_id", "started_at", "suite.name" };
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++)
		if (!is_type(rec, strings[i], json_type_string)) {
			*error = xasprintf("%s is missing or not a string", strings[i]);
			return -EBADMSG;
		}
	if (strlen(jpath_str(rec, "run_id")) > 64) {
		*error = xstrdup("run_id is longer than 64 characters");
		return -EBADMSG;
	}
	if (!is_type(rec, "runs", json_type_array)) {
		*error = xstrdup("runs is missing or not a list");
		return -EBADMSG;
	}
	json_object *runs = jpath(rec, "runs");
	bool imported = false;
	jpath_bool(rec, "imported", &imported);
	for (size_t i = 0; i < jarr_len(runs); i++) {
		int r = check_run(json_object_array_get_idx(runs, i), i, imported, error);
		if (r < 0)
			return r;
	}
	return 0;
}

static void add_flag(json_object *flags, json_object *rec, const char *key)
{
	bool v;
	if (jpath_bool(rec, key, &v) && v)
		jarr_add_str(flags, key);
}

json_object *result_summary(json_object *rec)
{
	json_object *s = json_object_new_object();
	jset_str(s, "run_id", jpath_str(rec, "run_id"));
	jset_str(s, "started_at", jpath_str(rec, "started_at"));
	jset_str(s, "host", jpath_str(rec, "host"));
	const char *name = jpath_str(rec, "suite.name"), *version = jpath_str(rec, "suite.version");
	_cleanup_free_ char *suite = version ? xasprintf("%s %s", name, version) : xstrdup(name);
	jset_str(s, "suite", suite);

	json_object *copies = json_object_new_array(), *scores = json_object_new_array();
	json_object *flags = json_object_new_array();
	json_object *runs = jpath(rec, "runs");
	bool partial = false;
	for (size_t i = 0; i < jarr_len(runs); i++) {
		json_object *run = json_object_array_get_idx(runs, i);
		int64_t c = 0;
		double score;
		bool p;
		json_object_array_add(copies, jpath_int(run, "copies", &c) ? json_object_new_int64(c) : NULL);
		json_object_array_add(scores, jpath_double(run, "index.score", &score) ? json_object_new_double(score)
										   : NULL);
		if (jpath_bool(run, "index.partial", &p) && p)
			partial = true;
	}
	add_flag(flags, rec, "quick");
	add_flag(flags, rec, "incomplete");
	add_flag(flags, rec, "imported");
	if (partial)
		jarr_add_str(flags, "partial");
	json_object *profiles = jpath(rec, "profile.profiles");
	for (size_t i = 0; i < jarr_len(profiles); i++) {
		const char *p = json_object_get_string(json_object_array_get_idx(profiles, i));
		_cleanup_free_ char *f = xasprintf("profile:%s", p ? p : "?");
		jarr_add_str(flags, f);
	}
	jset(s, "copies", copies);
	jset(s, "scores", scores);
	jset(s, "flags", flags);
	return s;
}

int store_resolve(struct store *s, const char *ref, int64_t *id)
{
	uint64_t back = 0;
	const char *rest = startswith(ref, "last");
	if (!rest) {
		int64_t v;
		if (parse_s64(ref, &v) < 0 || v <= 0)
			return -EINVAL;
		_cleanup_json_ json_object *rec = NULL;
		int r = store_get(s, v, &rec);
		if (r < 0)
			return r;
		*id = v;
		return 0;
	}
	if (*rest && (rest[0] != '~' || parse_u64(rest + 1, &back) < 0))
		return -EINVAL;
	_cleanup_json_ json_object *list = NULL;
	int r = store_list(s, &list);
	if (r < 0)
		return r;
	size_t n = jarr_len(list);
	if (back >= n)
		return -ENOENT;
	return jpath_int(json_object_array_get_idx(list, n - 1 - back), "id", id) ? 0 : -EIO;
}

int result_load_file(const char *path, json_object **out, char **error)
{
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *why = NULL;
	*error = NULL;
	int r = jload_file(path, RESULT_FILE_MAX, &rec);
	if (r == -EFBIG) {
		*error = xasprintf("%s: larger than %u MiB, not a result file", path, RESULT_FILE_MAX >> 20);
	} else if (r == -EISDIR || r == -EINVAL) {
		*error = xasprintf("%s: not a regular file", path);
		r = -EINVAL;
	} else if (r == -EBADMSG) {
		*error = xasprintf("%s: not valid JSON (a result file as `ubtune export` writes it was expected)", path);
	} else if (r < 0) {
		*error = xasprintf("cannot read %s: %s", path, strerror(-r));
	} else if ((r = result_check(rec, &why)) < 0) {
		*error = xasprintf("%s: not a ubtune result: %s", path, why);
	}
	if (r < 0)
		return r;
	*out = TAKE_PTR(rec);
	return 0;
}

int store_import_json(struct store *s, const char *path, int64_t *id, char **error)
{
	_cleanup_json_ json_object *rec = NULL;
	int r = result_load_file(path, &rec, error);
	if (r < 0)
		return r;
	r = store_add(s, rec, id);
	if (r == -EEXIST)
		*error = xasprintf("%s: this run is already stored as result %" PRId64, path, *id);
	else if (r < 0)
		*error = xasprintf("cannot store %s: %s", path, strerror(-r));
	return r;
}

int store_open_state(struct store **out, char **error)
{
	_cleanup_free_ char *dir = state_dir();
	int r = store_open(dir, out);
	if (r < 0) {
		_cleanup_free_ char *path = store_path(dir);
		*error = xasprintf("cannot open the results store %s: %s", path, strerror(-r));
	}
	return r;
}

int store_lookup(struct store *s, const char *ref, int64_t *id, json_object **rec, char **error)
{
	int r = store_resolve(s, ref, id);
	if (r == 0)
		r = store_get(s, *id, rec);
	if (r == -EINVAL)
		*error = xasprintf("'%s' is not a result id (a number, 'last' or 'last~N')", ref);
	else if (r == -ENOENT)
		*error = xasprintf("there is no result '%s' (see ubtune history)", ref);
	else if (r < 0)
		*error = xasprintf("cannot read result '%s': %s", ref, strerror(-r));
	return r;
}
