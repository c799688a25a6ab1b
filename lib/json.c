/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void jset(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

void jset_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

void jset_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

void jset_double(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

void jset_bool(json_object *o, const char *key, bool v)
{
	json_object_object_add(o, key, json_object_new_boolean(v));
}

void jset_null(json_object *o, const char *key)
{
	json_object_object_add(o, key, NULL);
}

void jset_round(json_object *o, const char *key, double v, int decimals)
{
	json_object_object_add(o, key, jround(v, decimals));
}

json_object *jround(double v, int decimals)
{
	char s[64];
	snprintf(s, sizeof(s), "%.*f", decimals, v);
	if (strchr(s, '.')) {
		size_t n = strlen(s);
		while (s[n - 1] == '0')
			s[--n] = '\0';
		if (s[n - 1] == '.')
			s[--n] = '\0';
	}
	if (streq(s, "-0"))
		strcpy(s, "0");
	return json_object_new_double_s(strtod(s, NULL), s);
}

json_object *jchild(json_object *o, const char *key)
{
	json_object *c;
	if (json_object_object_get_ex(o, key, &c) && json_object_is_type(c, json_type_object))
		return c;
	c = json_object_new_object();
	json_object_object_add(o, key, c);
	return c;
}

void jarr_add_str(json_object *a, const char *v)
{
	json_object_array_add(a, v ? json_object_new_string(v) : NULL);
}

json_object *jpath(json_object *o, const char *path)
{
	char key[128];
	const char *p = path;

	while (o && *p) {
		size_t n = strcspn(p, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		p += n;
		if (*p == '.')
			p++;
		if (json_object_is_type(o, json_type_array)) {
			uint64_t idx;
			if (parse_u64(key, &idx) < 0 || idx >= json_object_array_length(o))
				return NULL;
			o = json_object_array_get_idx(o, idx);
		} else if (json_object_is_type(o, json_type_object)) {
			if (!json_object_object_get_ex(o, key, &o))
				return NULL;
		} else {
			return NULL;
		}
	}
	return o;
}

const char *jpath_str(json_object *o, const char *path)
{
	json_object *v = jpath(o, path);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool jpath_int(json_object *o, const char *path, int64_t *out)
{
	json_object *v = jpath(o, path);
	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

bool jpath_double(json_object *o, const char *path, double *out)
{
	json_object *v = jpath(o, path);
	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

bool jpath_bool(json_object *o, const char *path, bool *out)
{
	json_object *v = jpath(o, path);
	if (!v || !json_object_is_type(v, json_type_boolean))
		return false;
	*out = json_object_get_boolean(v);
	return true;
}

size_t jpath_len(json_object *o, const char *path)
{
	json_object *v = jpath(o, path);
	return v && json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
}

size_t jarr_len(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

const char *jdump(json_object *o, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
	return json_object_to_json_string_ext(o, flags);
}

int jload_string(const char *s, json_object **out)
{
	json_tokener *tok = json_tokener_new();
	json_object *o = json_tokener_parse_ex(tok, s, (int)strlen(s));
	enum json_tokener_error err = json_tokener_get_error(tok);
	/* the tokener stops after the first value: what follows must be blank */
	const char *rest = s + json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	rest += strspn(rest, " \t\r\n");
	if (err != json_tokener_success || *rest) {
		json_object_put(o);
		return -EBADMSG;
	}
	*out = o;
	return 0;
}

int jload_text(const char *text, size_t len, json_object **out)
{
	/* text read from a file: a NUL byte would end it early */
	if (strlen(text) != len)
		return -EBADMSG;
	return jload_string(text, out);
}

int jload_file(const char *path, size_t max, json_object **out)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_file(path, max, &text, &len);
	return r < 0 ? r : jload_text(text, len, out);
}

json_object *jarr_from_strv(const struct strv *v)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < v->n; i++)
		jarr_add_str(a, v->v[i]);
	return a;
}

void json_escape_controls(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_string: {
		_cleanup_free_ char *e = str_escape_controls(json_object_get_string(o));
		if (e)
			json_object_set_string(o, e);
		break;
	}
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_escape_controls(json_object_array_get_idx(o, i));
		break;
	case json_type_object: {
		json_object_object_foreach(o, key, v) {
			(void)key;
			json_escape_controls(v);
		}
		break;
	}
	default:
		break;
	}
}
