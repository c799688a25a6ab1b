/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/schema.h"

/*
 * The result record (schema ubtune.result/1, docs/result-json.md) as C
 * structs, members named as their keys; what the record does not say is
 * unknown (NULL, known == false). The environment records inside stay
 * JSON here: env_decode() them (lib/env-record.h) where they are read.
 * To read a new fact: add its member here and its line to the table in
 * lib/result-record.c.
 */
#define RESULT_SCHEMA "ubtune.result/1"
/* Largest result file read. */
#define RESULT_FILE_MAX (64u << 20)

struct result_pass {
	struct opt_num count, time_s, timebase, rate;
	struct opt_bool dropped;
};

struct result_dispersion {
	json_object *json;
	struct opt_int n;
	struct opt_num mean, median, stddev, cv_pct, min, max;
};

struct result_test {
	json_object *json;
	const char *id, *name, *unit, *error;
	struct opt_num timebase, baseline, result, time_s, index;
	struct opt_int passes_planned, samples;
	struct opt_bool complete;
	ARRAY_OF(struct result_pass) passes;
	struct result_dispersion dispersion;
	ARRAY_OF(struct opt_num) ci95;
};

struct result_index {
	json_object *json;
	struct opt_num score;
	struct opt_bool partial;
	struct opt_int tests_indexed, tests_total;
	ARRAY_OF(struct opt_num) ci95;
};

struct result_run {
	json_object *json;
	struct opt_int copies, cpus_in_system;
	const char *started_at, *ended_at;
	ARRAY_OF(struct result_test) tests;
	struct result_index index;
};

struct result_event {
	const char *kind, *time, *test, *message;
	struct opt_num offset_s, duration_s;
	struct opt_int copies;
};

struct result_record {
	json_object *json;
	const char *schema, *run_id, *host, *started_at, *ended_at, *interrupted_by;
	struct {
		const char *name, *version, *compatible_with;
	} suite;
	struct {
		json_object *json;
		const char *kind, *path, *description, *note;
	} engine;
	struct {
		json_object *json; /* NULL: how the programs were built is not known */
		const char *cc, *cc_version, *cflags;
	} build;
	struct opt_bool quick, incomplete, imported, profile_stale;
	struct {
		json_object *json; /* NULL: no profile applied */
		ARRAY_OF(const char *) profiles;
	} profile;
	struct {
		json_object *json;
		struct opt_bool dated_by_import, header;
	} import;
	struct opt_int online_cpus;
	ARRAY_OF(struct result_run) runs;
	struct {
		json_object *before, *after; /* probe records: env_decode() */
	} environment;
	ARRAY_OF(struct result_event) events;
};

extern const struct schema result_record_schema;

/* Decodes a result record (borrowed, as env_decode()); -EBADMSG and
 * *error naming the key when it does not fit. */
int result_decode(json_object *rec, struct result_record *r, char **error);
void result_record_free(struct result_record *r);

/* Checks the parts of a record the store and the reports rely on;
 * *error says what is wrong. */
int result_check(json_object *rec, char **error);
/* The listing summary of a record (see store_list()). */
json_object *result_summary(json_object *rec);
