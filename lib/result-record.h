/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/env-record.h"
#include "lib/schema.h"

/*
 * The result record (schema ubtune.result/1, docs/result-json.md) as C
 * structs, members named as their keys; what the record does not say is
 * unknown (NULL, known == false). The environment records inside stay
 * JSON here: env_decode() them (lib/env-record.h) where they are read, or
 * decode a result with its environment (result_env_decode()).
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

/* A kind of core's clock as measured around a test (lib/hw.h). */
struct result_clock {
	const char *model, *error;
	struct opt_int cpu, measured_khz, cur_khz;
};

/* What else the machine did while a test ran, over the sampler's readings. */
struct result_background {
	json_object *json; /* NULL: no readings during the test */
	struct opt_int samples;
	struct opt_num sys_pct, iowait_pct, steal_pct, others_pct, others_max_pct;
	const char *busiest;
	ARRAY_OF(const char *) untrusted; /* "others", "iowait", "steal", "sys" */
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
	struct {
		ARRAY_OF(struct result_clock) before, after;
	} clock;
	struct result_background background;
};

struct result_index {
	json_object *json;
	const char *score_source; /* imported: "report" (as printed) or "computed" */
	struct opt_num score;
	struct opt_bool partial;
	struct opt_bool comparable; /* imported: false when the report's baselines are not UnixBench's */
	struct opt_int tests_indexed, tests_total, resamples;
	ARRAY_OF(struct opt_num) ci95;
};

struct result_run {
	json_object *json;
	struct opt_int copies, cpus_in_system;
	const char *started_at, *ended_at;
	const char *label; /* imported: which run of a document holding several */
	const char *group; /* imported: the machine (or other heading) a run is one of several under */
	ARRAY_OF(struct result_test) tests;
	struct result_index index;
};

struct result_event {
	const char *kind, *time, *test, *message;
	struct opt_num offset_s, duration_s;
	struct opt_int copies;
};

/* One of the sampler's readings. */
struct result_sample {
	struct opt_num t, temp_mc, others_pct, steal_pct;
	const char *test;
	struct opt_int copies;
	ARRAY_OF(struct opt_num) mhz, busy_pct; /* per CPU */
	ARRAY_OF(const char *) alarms;          /* the hwmon alarms raised */
};

/* A line of an imported document that looked like a test but could not be read. */
struct result_problem {
	struct opt_int line;
	const char *text, *problem;
};

/* The options a run was given (docs/result-json.md): what it held while it
 * lasted (bench/hold.h). */
struct result_options {
	const char *locale, *workdir_description;
	struct {
		json_object *json; /* NULL: not asked for */
		struct opt_int requested_us;
		const char *device, *error;
		struct opt_bool held;
	} dma_latency;
	struct {
		json_object *json; /* NULL: not asked for */
		const char *requested, *cpus, *kind, *note;
	} pin_single;
	struct {
		json_object *json; /* NULL: nothing known */
		struct opt_int soft, hard, needed; /* soft, hard: unknown here means unlimited */
		json_object *raised_to;            /* a number, "unlimited", or NULL */
	} nproc;
};

struct result_record {
	json_object *json;
	const char *schema, *run_id, *host, *round, *started_at, *ended_at, *interrupted_by;
	struct {
		const char *name, *version;
	} tool;
	struct {
		const char *name, *version, *compatible_with;
	} suite;
	struct {
		json_object *json;
		const char *kind, *path, *description, *note;
		struct opt_bool prebuilt;
	} engine;
	struct {
		json_object *json; /* NULL: how the programs were built is not known */
		const char *cc, *cc_version, *cflags;
		ARRAY_OF(const char *) commands; /* the compile lines */
	} build;
	struct result_options options;
	struct opt_bool quick, incomplete, imported, profile_stale;
	struct {
		json_object *json; /* NULL: no profile applied */
		ARRAY_OF(const char *) profiles;
	} profile;
	struct {
		json_object *json; /* NULL: not imported */
		const char *source, *log;
		ARRAY_OF(const char *) formats, repaired;
		ARRAY_OF(struct result_problem) problems;
		struct opt_bool dated_by_import, header;
	} import;
	struct {
		json_object *json; /* NULL: no look at the machine before the run */
		struct opt_num seconds, runnable, cpu_pct;
		struct opt_bool busy;
	} preflight;
	struct opt_int online_cpus;
	ARRAY_OF(struct result_run) runs;
	struct {
		json_object *before, *after; /* probe records: env_decode() */
	} environment;
	ARRAY_OF(struct result_event) events;
	struct {
		json_object *json; /* NULL: the run was not sampled */
		struct opt_num interval_s, cpu_s, wall_s, cost_pct, max_others_pct, throttled_s;
		struct opt_int count, max_temp_mc, min_mhz, max_mhz;
		struct {
			struct opt_int cpus, cpufreq, thermal_zones, hwmon_alarms;
			const char *cgroup;
		} sources;
	} sampler;
	ARRAY_OF(struct result_sample) samples;
	struct {
		const char *source, *marker, *error;
		struct opt_bool read;
	} kernel_log;
};

extern const struct schema result_record_schema;

/* Decodes a result record (borrowed, as env_decode()); -EBADMSG and
 * *error naming the key when it does not fit. */
int result_decode(json_object *rec, struct result_record *r, char **error);
void result_record_free(struct result_record *r);

/* A result and the environment it ran in, decoded together. */
struct result_env {
	struct result_record r;
	struct env_record env; /* environment.before: all unknown without one, or with one that does not decode */
};

/* As result_decode(); an environment that does not decode is left
 * unknown, as a fact of the wrong type is. */
int result_env_decode(json_object *rec, struct result_env *re, char **error);
void result_env_free(struct result_env *re);

/* A round id (`bench --round`): 1 to ROUND_MAX letters, digits and "._:+-",
 * so that it names a round in a file name, a label or a command line as it is. */
#define ROUND_MAX 64
bool round_valid(const char *round);

/* The test of a run with this id; NULL when the run has none. */
const struct result_test *result_run_test(const struct result_run *run, const char *id);

/* Checks the parts of a record the store and the reports rely on;
 * *error says what is wrong. */
int result_check(json_object *rec, char **error);
