/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/* Setters: a NULL string becomes JSON null, never "". */
void jset(json_object *o, const char *key, json_object *v);
void jset_str(json_object *o, const char *key, const char *v);
void jset_int(json_object *o, const char *key, int64_t v);
void jset_double(json_object *o, const char *key, double v);
void jset_bool(json_object *o, const char *key, bool v);
void jset_null(json_object *o, const char *key);
/* A measured number printed with at most `decimals` digits after the point
 * (12.3, where jset_double would print 12.300000000000001). */
void jset_round(json_object *o, const char *key, double v, int decimals);
/* The same number as a value of its own (for an array). */
json_object *jround(double v, int decimals);
/* The object under key, created when missing. */
json_object *jchild(json_object *o, const char *key);
void jarr_add_str(json_object *a, const char *v);
struct strv;
/* A new array of the strings of v. */
json_object *jarr_from_strv(const struct strv *v);

/*
 * Lookups by dotted path ("cpu.freq.governor", "power.hwmon.0.name").
 * A member that is missing or JSON null gives NULL / false.
 */
json_object *jpath(json_object *o, const char *path);
const char *jpath_str(json_object *o, const char *path);
bool jpath_int(json_object *o, const char *path, int64_t *out);
bool jpath_double(json_object *o, const char *path, double *out);
bool jpath_bool(json_object *o, const char *path, bool *out);
size_t jpath_len(json_object *o, const char *path);
/* Length of an array; 0 for NULL or anything that is not an array. */
size_t jarr_len(json_object *a);

/* Serialised form (pretty or compact), owned by the object. */
const char *jdump(json_object *o, bool pretty);
/* Parses a whole file of at most max bytes; 0 or -errno as read_file()
 * gives it, -EBADMSG when it is not JSON (or holds a NUL byte). */
int jload_file(const char *path, size_t max, json_object **out);
int jload_string(const char *s, json_object **out);
/* The same for len bytes read from a file, a NUL after them as read_file()
 * leaves it (-EBADMSG when a NUL is among them). */
int jload_text(const char *text, size_t len, json_object **out);

/* Every string of o, in place, with the control characters a terminal
 * would act on made visible (str_escape_controls()): for a record from
 * outside printed as text. JSON output escapes them itself. */
void json_escape_controls(json_object *o);
/* The bound for JSON files ubtune writes itself (records, build records). */
#define JSON_FILE_MAX (64u << 20)

static inline void json_putp(json_object **o) { if (*o) json_object_put(*o); }
#define _cleanup_json_ __attribute__((cleanup(json_putp)))
