/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "lib/json.h"

/*
 * Typed views of JSON records. A record stays JSON (what is stored, sent
 * and written); a schema table says, for one C struct, which key fills
 * which member, one line per key:
 *
 *	struct policy { struct opt_int policy; const char *governor; };
 *	static const struct schema policy_schema = SCHEMA(struct policy,
 *		FIELD_INT(struct policy, policy, OPTIONAL),
 *		FIELD_STR(struct policy, governor, OPTIONAL));
 *
 * The key is the member's name, so a fact has one name in C and in JSON.
 * schema_decode() fills the struct. What it does with keys is decided here
 * and nowhere else:
 * - a key that is missing or null leaves its member unknown: NULL for a
 *   string, known == false for a number or a bool, an empty array whose
 *   json is NULL, an all-unknown struct for an object (never 0 or "");
 *   a REQUIRED key that is missing or null is an error;
 * - a key of the wrong JSON type is an error naming its path
 *   ("runs[0].tests[3].result is a string, expected a number");
 * - keys the table does not list are ignored (records may grow), unless
 *   the schema is SCHEMA_CLOSED.
 * Strings and json members borrow from the JSON object, which must outlive
 * the struct and stay unchanged; schema_free() frees what decoding
 * allocated (arrays, FIELD_PTR objects).
 */

/* A number or a bool that may be unknown (JSON null or no key). `json` is
 * the value as it was read: copied out, it keeps its exact text. */
struct opt_int {
	int64_t v;
	bool known;
	json_object *json;
};
struct opt_num {
	double v;
	bool known;
	json_object *json;
};
struct opt_bool {
	bool v;
	bool known;
};

static inline bool is_true(struct opt_bool b) { return b.known && b.v; }
static inline bool is_false(struct opt_bool b) { return b.known && !b.v; }
static inline int64_t int_or(struct opt_int n, int64_t unknown) { return n.known ? n.v : unknown; }
static inline double num_or(struct opt_num n, double unknown) { return n.known ? n.v : unknown; }
/* The value as the record has it (a new reference), NULL when unknown: for
 * output that repeats a record's numbers byte for byte. */
static inline json_object *num_json(struct opt_num n) { return json_object_get(n.json); }
static inline json_object *int_json(struct opt_int n) { return json_object_get(n.json); }

/* An array of T; json is NULL when the key was missing or null (unknown),
 * an empty array when it was []. */
#define ARRAY_OF(T)                                                                                                    \
	struct {                                                                                                       \
		T *v;                                                                                                  \
		size_t n;                                                                                              \
		json_object *json;                                                                                     \
	}

enum schema_type {
	SCHEMA_END,
	SCHEMA_STR,   /* const char * */
	SCHEMA_INT,   /* struct opt_int: a JSON number, fractions cut */
	SCHEMA_NUM,   /* struct opt_num */
	SCHEMA_BOOL,  /* struct opt_bool */
	SCHEMA_OBJ,   /* a struct of the nested schema, inside this one */
	SCHEMA_PTR,   /* a pointer to one (allocated), NULL when missing: for records inside records */
	SCHEMA_ARRAY, /* ARRAY_OF(item), item one of the above but SCHEMA_PTR */
	SCHEMA_JSON,  /* json_object *: the value as it is, any type (maps, parts with a schema elsewhere) */
	SCHEMA_SELF,  /* json_object *: the object this struct was decoded from (no key); NULL when missing */
};

#define SCHEMA_FLAG_OPTIONAL 0u
#define SCHEMA_FLAG_REQUIRED 1u

struct schema;
struct schema_field {
	const char *name;
	enum schema_type type, item; /* item: of a SCHEMA_ARRAY */
	unsigned flags;
	size_t offset, size;         /* size: of the member, or of an array's item */
	const struct schema *nested; /* SCHEMA_OBJ, SCHEMA_PTR, arrays of objects */
};

struct schema {
	size_t size; /* of the struct */
	unsigned flags;
	const struct schema_field *fields; /* ended by SCHEMA_END */
};
/* Unknown keys are an error. */
#define SCHEMA_CLOSED 1u

#define SCHEMA(T, ...) SCHEMA_FLAGS(T, 0, __VA_ARGS__)
#define SCHEMA_FLAGS(T, fl, ...) { .size = sizeof(T), .flags = (fl), .fields = (const struct schema_field[]){ __VA_ARGS__, { 0 } } }

/* 0; a compile error when member m of T is not of type C. */
#define SCHEMA_IS(T, m, C)                                                                                             \
	(0 * sizeof(struct {                                                                                           \
		 _Static_assert(__builtin_types_compatible_p(typeof(((T *)0)->m), C), #T "." #m " is not " #C);        \
		 int ok;                                                                                               \
	 }))
#define SCHEMA_FIELD_(T, m, t, C, fl)                                                                                  \
	{ .name = #m, .type = (t), .flags = SCHEMA_FLAG_##fl, .offset = offsetof(T, m) + SCHEMA_IS(T, m, C),            \
	  .size = sizeof(C) }
#define SCHEMA_ARRAY_(T, m, t, C, fl, sub)                                                                             \
	{ .name = #m, .type = SCHEMA_ARRAY, .item = (t), .flags = SCHEMA_FLAG_##fl,                                     \
	  .offset = offsetof(T, m) + SCHEMA_IS(T, m.v, C *), .size = sizeof(C), .nested = (sub) }

/* One line per key; fl is REQUIRED or OPTIONAL. */
#define FIELD_STR(T, m, fl) SCHEMA_FIELD_(T, m, SCHEMA_STR, const char *, fl)
#define FIELD_INT(T, m, fl) SCHEMA_FIELD_(T, m, SCHEMA_INT, struct opt_int, fl)
#define FIELD_NUM(T, m, fl) SCHEMA_FIELD_(T, m, SCHEMA_NUM, struct opt_num, fl)
#define FIELD_BOOL(T, m, fl) SCHEMA_FIELD_(T, m, SCHEMA_BOOL, struct opt_bool, fl)
#define FIELD_JSON(T, m, fl) SCHEMA_FIELD_(T, m, SCHEMA_JSON, json_object *, fl)
#define FIELD_SELF(T, m) { .name = "", .type = SCHEMA_SELF, .offset = offsetof(T, m) + SCHEMA_IS(T, m, json_object *) }
/* An object of schema sub (its struct's size is checked when decoding). */
#define FIELD_OBJ(T, m, fl, sub)                                                                                       \
	{ .name = #m, .type = SCHEMA_OBJ, .flags = SCHEMA_FLAG_##fl, .offset = offsetof(T, m),                          \
	  .size = sizeof(((T *)0)->m), .nested = &(sub) }
#define FIELD_PTR(T, m, fl, sub)                                                                                       \
	{ .name = #m, .type = SCHEMA_PTR, .flags = SCHEMA_FLAG_##fl, .offset = offsetof(T, m),                          \
	  .size = sizeof(*((T *)0)->m), .nested = &(sub) }
#define FIELD_STR_ARRAY(T, m, fl) SCHEMA_ARRAY_(T, m, SCHEMA_STR, const char *, fl, NULL)
#define FIELD_INT_ARRAY(T, m, fl) SCHEMA_ARRAY_(T, m, SCHEMA_INT, struct opt_int, fl, NULL)
#define FIELD_NUM_ARRAY(T, m, fl) SCHEMA_ARRAY_(T, m, SCHEMA_NUM, struct opt_num, fl, NULL)
#define FIELD_BOOL_ARRAY(T, m, fl) SCHEMA_ARRAY_(T, m, SCHEMA_BOOL, struct opt_bool, fl, NULL)
#define FIELD_OBJ_ARRAY(T, m, fl, sub)                                                                                 \
	{ .name = #m, .type = SCHEMA_ARRAY, .item = SCHEMA_OBJ, .flags = SCHEMA_FLAG_##fl, .offset = offsetof(T, m),    \
	  .size = sizeof(*((T *)0)->m.v), .nested = &(sub) }

/*
 * Fills out (a struct of s->size bytes, cleared first) from the JSON object
 * o; a NULL o (no such object) leaves every member unknown. -EBADMSG with
 * *error naming the key path (under `path`, "" at the top) when o does not
 * fit the schema; out is then freed and cleared.
 */
int schema_decode(const struct schema *s, json_object *o, const char *path, void *out, char **error);
/* Frees what schema_decode() allocated in out (not out itself). */
void schema_free(const struct schema *s, void *out);
