/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding JSON records into structs by schema tables (lib/schema.h). */
#include "schema.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Where a value sits in the record: "runs[0].tests[3].result". */
struct where {
	const struct where *up;
	const char *key; /* NULL: an array item */
	size_t index;
};

static void where_text(const struct where *w, struct buf *b)
{
	if (!w)
		return;
	where_text(w->up, b);
	if (!w->key)
		buf_printf(b, "[%zu]", w->index);
	else if (*w->key)
		buf_printf(b, "%s%s", b->len ? "." : "", w->key);
}

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a bool";
	case json_type_int:
	case json_type_double:
		return "a number";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "a list";
	case json_type_object:
		return "an object";
	}
	return "a value";
}

static const char *expected_name(enum schema_type t)
{
	switch (t) {
	case SCHEMA_STR:
		return "a string";
	case SCHEMA_INT:
	case SCHEMA_NUM:
		return "a number";
	case SCHEMA_BOOL:
		return "a bool";
	case SCHEMA_OBJ:
	case SCHEMA_PTR:
		return "an object";
	case SCHEMA_ARRAY:
		return "a list";
	default:
		return "a value";
	}
}

/* "PATH is a string, expected a number" */
static int fail(const struct where *w, char **error, const char *what, ...) _printf_(3, 4);
static int fail(const struct where *w, char **error, const char *what, ...)
{
	struct buf msg = {0};
	where_text(w, &msg);
	if (!msg.len)
		buf_puts(&msg, "the record");
	va_list ap;
	va_start(ap, what);
	_cleanup_free_ char *s = xvasprintf(what, ap);
	va_end(ap);
	buf_printf(&msg, " %s", s);
	*error = buf_steal(&msg);
	return -EBADMSG;
}

static int wrong_type(const struct where *w, char **error, json_object *v, const char *expected)
{
	return fail(w, error, "is %s, expected %s", type_name(v), expected);
}

static int decode_object(const struct schema *s, json_object *o, const struct where *w, void *out, char **error);

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* One value (not null) into the member at p. */
static int decode_value(enum schema_type t, const struct schema *nested, size_t size, json_object *v,
			const struct where *w, void *p, char **error)
{
	bool ok;
	switch (t) {
	case SCHEMA_STR:
		ok = json_object_is_type(v, json_type_string);
		break;
	case SCHEMA_INT:
	case SCHEMA_NUM:
		ok = is_number(v);
		break;
	case SCHEMA_BOOL:
		ok = json_object_is_type(v, json_type_boolean);
		break;
	case SCHEMA_OBJ:
	case SCHEMA_PTR:
		ok = json_object_is_type(v, json_type_object);
		break;
	default:
		ok = true;
	}
	if (!ok)
		return wrong_type(w, error, v, expected_name(t));
	/* NaN and Infinity are json-c's words, not JSON numbers */
	if (t == SCHEMA_NUM && !isfinite(json_object_get_double(v)))
		return fail(w, error, "is %s, expected a finite number", json_object_to_json_string(v));

	switch (t) {
	case SCHEMA_STR:
		*(const char **)p = json_object_get_string(v);
		return 0;
	case SCHEMA_INT:
		*(struct opt_int *)p = (struct opt_int){ json_object_get_int64(v), true, v };
		return 0;
	case SCHEMA_NUM:
		*(struct opt_num *)p = (struct opt_num){ json_object_get_double(v), true, v };
		return 0;
	case SCHEMA_BOOL:
		*(struct opt_bool *)p = (struct opt_bool){ json_object_get_boolean(v), true };
		return 0;
	case SCHEMA_OBJ:
		/* a table that does not fit its struct is a bug of the table */
		assert(nested->size == size);
		return decode_object(nested, v, w, p, error);
	case SCHEMA_PTR: {
		assert(nested->size == size);
		void *o = xcalloc(1, size);
		int r = decode_object(nested, v, w, o, error);
		if (r < 0) {
			schema_free(nested, o);
			free(o);
			return r;
		}
		*(void **)p = o;
		return 0;
	}
	case SCHEMA_JSON:
		*(json_object **)p = v;
		return 0;
	default:
		abort();
	}
}

/* The members of an ARRAY_OF(): v, n, json (the same layout for every T). */
struct any_array {
	void *v;
	size_t n;
	json_object *json;
};

static int decode_array(const struct schema_field *f, json_object *v, const struct where *w, void *p, char **error)
{
	struct any_array *a = p;
	if (!json_object_is_type(v, json_type_array))
		return wrong_type(w, error, v, "a list");
	size_t n = json_object_array_length(v);
	a->json = v;
	a->v = xcalloc(n ? n : 1, f->size);
	for (size_t i = 0; i < n; i++) {
		json_object *item = json_object_array_get_idx(v, i);
		struct where at = { w, NULL, i };
		char *slot = (char *)a->v + i * f->size;
		a->n = i + 1;
		/* a null number or string is an unknown one; a list of objects holds objects */
		int r = item ? decode_value(f->item, f->nested, f->size, item, &at, slot, error)
		    : f->item == SCHEMA_OBJ ? wrong_type(&at, error, item, "an object")
					   : 0;
		if (r < 0)
			return r;
	}
	a->n = n;
	return 0;
}

static bool listed(const struct schema *s, const char *key)
{
	for (const struct schema_field *f = s->fields; f->type != SCHEMA_END; f++)
		if (f->type != SCHEMA_SELF && streq(f->name, key))
			return true;
	return false;
}

static int decode_object(const struct schema *s, json_object *o, const struct where *w, void *out, char **error)
{
	if (o && (s->flags & SCHEMA_CLOSED)) {
		json_object_object_foreach(o, key, val) {
			(void)val;
			if (!listed(s, key)) {
				struct where at = { w, key, 0 };
				return fail(&at, error, "is not a key of this record");
			}
		}
	}
	for (const struct schema_field *f = s->fields; f->type != SCHEMA_END; f++) {
		void *p = (char *)out + f->offset;
		if (f->type == SCHEMA_SELF) {
			*(json_object **)p = o;
			continue;
		}
		json_object *v = NULL;
		struct where at = { w, f->name, 0 };
		if (o)
			json_object_object_get_ex(o, f->name, &v);
		if (!v) {
			if (f->flags & SCHEMA_FLAG_REQUIRED)
				return fail(&at, error, "is missing");
			continue;
		}
		int r = f->type == SCHEMA_ARRAY ? decode_array(f, v, &at, p, error)
						: decode_value(f->type, f->nested, f->size, v, &at, p, error);
		if (r < 0)
			return r;
	}
	return 0;
}

int schema_decode(const struct schema *s, json_object *o, const char *path, void *out, char **error)
{
	*error = NULL;
	memset(out, 0, s->size);
	struct where top = { NULL, path ?: "", 0 };
	int r = 0;
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		r = wrong_type(&top, error, o, "an object");
	else
		r = decode_object(s, o, &top, out, error);
	if (r < 0) {
		schema_free(s, out);
		memset(out, 0, s->size);
	}
	return r;
}

static void free_value(enum schema_type t, const struct schema *nested, void *p)
{
	if (t == SCHEMA_OBJ) {
		schema_free(nested, p);
	} else if (t == SCHEMA_PTR && *(void **)p) {
		schema_free(nested, *(void **)p);
		free(*(void **)p);
	}
}

void schema_free(const struct schema *s, void *out)
{
	for (const struct schema_field *f = s->fields; f->type != SCHEMA_END; f++) {
		void *p = (char *)out + f->offset;
		if (f->type == SCHEMA_ARRAY) {
			struct any_array *a = p;
			for (size_t i = 0; i < a->n; i++)
				free_value(f->item, f->nested, (char *)a->v + i * f->size);
			free(a->v);
			*a = (struct any_array){0};
		} else {
			free_value(f->type, f->nested, p);
		}
	}
}
