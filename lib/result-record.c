/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result record's schema tables (docs/result-json.md) and its check. */
#include "result-record.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>

#include "schema-table.h"
#include "util.h"

#define T struct result_pass
static const struct schema pass_schema = SCHEMA(T, N(count), N(time_s), N(timebase), N(rate), B(dropped));
#undef T

#define T struct result_dispersion
static const struct schema dispersion_schema = SCHEMA(T, FIELD_SELF(T, json), I(n), N(mean), N(median), N(stddev),
						      N(cv_pct), N(min), N(max));
#undef T

#define T struct result_clock
static const struct schema clock_schema = SCHEMA(T, S(model), S(error), I(cpu), I(measured_khz), I(cur_khz));
#undef T

#define T typeof(((struct result_test *)0)->clock)
static const struct schema test_clock_schema = SCHEMA(T, L(before, clock_schema), L(after, clock_schema));
#undef T

#define T struct result_background
static const struct schema background_schema = SCHEMA(T, FIELD_SELF(T, json), I(samples), N(sys_pct), N(iowait_pct),
						      N(steal_pct), N(others_pct), N(others_max_pct), S(busiest),
						      FIELD_STR_ARRAY(T, untrusted, OPTIONAL));
#undef T

#define T struct result_test
static const struct schema test_schema = SCHEMA(T, FIELD_SELF(T, json), FIELD_STR(T, id, REQUIRED), S(name), S(unit),
						S(error), N(timebase), N(baseline), N(result), N(time_s), N(index),
						I(passes_planned), I(samples), B(complete), L(passes, pass_schema),
						O(dispersion, dispersion_schema), FIELD_NUM_ARRAY(T, ci95, OPTIONAL),
						O(clock, test_clock_schema), O(background, background_schema));
#undef T

#define T struct result_index
static const struct schema index_schema = SCHEMA(T, FIELD_SELF(T, json), S(score_source), N(score), B(partial), B(comparable),
						 I(tests_indexed), I(tests_total), I(resamples),
						 FIELD_NUM_ARRAY(T, ci95, OPTIONAL));
#undef T

#define T struct result_run
static const struct schema run_schema = SCHEMA(T, FIELD_SELF(T, json), I(copies),
					       I(cpus_in_system), S(started_at), S(ended_at), S(label), S(group),
					       FIELD_OBJ_ARRAY(T, tests, REQUIRED, test_schema),
					       O(index, index_schema));
#undef T

#define T struct result_event
static const struct schema event_schema = SCHEMA(T, S(kind), S(time), S(test), S(message), N(offset_s),
						 N(duration_s), I(copies));
#undef T

#define T struct result_sample
static const struct schema sample_schema = SCHEMA(T, N(t), S(test), I(copies), FIELD_NUM_ARRAY(T, mhz, OPTIONAL),
						  FIELD_NUM_ARRAY(T, busy_pct, OPTIONAL), N(temp_mc),
						  FIELD_STR_ARRAY(T, alarms, OPTIONAL), N(others_pct), N(steal_pct));
#undef T

#define T struct result_problem
static const struct schema problem_schema = SCHEMA(T, I(line), S(text), S(problem));
#undef T

#define T typeof(((struct result_record *)0)->preflight)
static const struct schema preflight_schema = SCHEMA(T, FIELD_SELF(T, json), N(seconds), N(runnable), N(cpu_pct),
						     B(busy));
#undef T

#define T typeof(((struct result_record *)0)->sampler.sources)
static const struct schema sources_schema = SCHEMA(T, I(cpus), I(cpufreq), I(thermal_zones), I(hwmon_alarms),
						   S(cgroup));
#undef T

#define T typeof(((struct result_record *)0)->sampler)
static const struct schema sampler_schema = SCHEMA(T, FIELD_SELF(T, json), N(interval_s), N(cpu_s), N(wall_s),
						   N(cost_pct), N(max_others_pct), N(throttled_s), I(count), I(max_temp_mc),
						   I(min_mhz), I(max_mhz), O(sources, sources_schema));
#undef T

#define T typeof(((struct result_record *)0)->kernel_log)
static const struct schema kernel_log_schema = SCHEMA(T, S(source), S(marker), S(error), B(read));
#undef T

#define T typeof(((struct result_record *)0)->tool)
static const struct schema tool_schema = SCHEMA(T, S(name), S(version));
#undef T

#define T typeof(((struct result_record *)0)->suite)
static const struct schema suite_schema = SCHEMA(T, FIELD_STR(T, name, REQUIRED), S(version), S(compatible_with));
#undef T

#define T typeof(((struct result_record *)0)->engine)
static const struct schema engine_schema = SCHEMA(T, FIELD_SELF(T, json), S(kind), S(path), S(description), S(note),
						  B(prebuilt));
#undef T

#define T typeof(((struct result_record *)0)->build)
static const struct schema build_schema = SCHEMA(T, FIELD_SELF(T, json), S(cc), S(cc_version), S(cflags),
						 FIELD_STR_ARRAY(T, commands, OPTIONAL));
#undef T

#define T typeof(((struct result_record *)0)->profile)
static const struct schema profile_schema = SCHEMA(T, FIELD_SELF(T, json), FIELD_STR_ARRAY(T, profiles, OPTIONAL));
#undef T

#define T typeof(((struct result_record *)0)->import)
static const struct schema import_schema = SCHEMA(T, FIELD_SELF(T, json), S(source), S(log),
						  FIELD_STR_ARRAY(T, formats, OPTIONAL),
						  FIELD_STR_ARRAY(T, repaired, OPTIONAL), L(problems, problem_schema),
						  B(dated_by_import), B(header));
#undef T

#define T typeof(((struct result_options *)0)->dma_latency)
static const struct schema dma_latency_schema = SCHEMA(T, FIELD_SELF(T, json), I(requested_us), S(device), S(error),
						       B(held));
#undef T

#define T typeof(((struct result_options *)0)->pin_single)
static const struct schema pin_single_schema = SCHEMA(T, FIELD_SELF(T, json), S(requested), S(cpus), S(kind), S(note));
#undef T

#define T typeof(((struct result_options *)0)->nproc)
static const struct schema nproc_schema = SCHEMA(T, FIELD_SELF(T, json), I(soft), I(hard), I(needed), J(raised_to));
#undef T

#define T struct result_options
static const struct schema options_schema = SCHEMA(T, S(locale), S(workdir_description),
						O(dma_latency, dma_latency_schema), O(pin_single, pin_single_schema),
						O(nproc, nproc_schema));
#undef T

#define T typeof(((struct result_record *)0)->environment)
static const struct schema environment_schema = SCHEMA(T, J(before), J(after));
#undef T

#define T struct result_record
const struct schema result_record_schema =
	SCHEMA(T, FIELD_SELF(T, json), FIELD_STR(T, schema, REQUIRED), FIELD_STR(T, run_id, REQUIRED), S(host), S(round),
	       FIELD_STR(T, started_at, REQUIRED), S(ended_at), S(interrupted_by), O(tool, tool_schema),
	       FIELD_OBJ(T, suite, REQUIRED, suite_schema), O(engine, engine_schema), O(build, build_schema),
	       B(quick), B(incomplete), B(imported), B(profile_stale), O(profile, profile_schema),
	       O(import, import_schema), O(preflight, preflight_schema), I(online_cpus), O(options, options_schema),
	       FIELD_OBJ_ARRAY(T, runs, REQUIRED, run_schema), O(environment, environment_schema),
	       L(events, event_schema), O(sampler, sampler_schema), L(samples, sample_schema),
	       O(kernel_log, kernel_log_schema));
#undef T

int result_decode(json_object *rec, struct result_record *r, char **error)
{
	return schema_decode(&result_record_schema, rec, "", r, error);
}

void result_record_free(struct result_record *r)
{
	schema_free(&result_record_schema, r);
	*r = (struct result_record){0};
}

/* No UnixBench value comes near it (unixbench/parse-tokens.c reads none above). */
#define VALUE_MAX 1e15

/* A number of a run that no UnixBench run has: negative, past VALUE_MAX,
 * or 0 where UnixBench divides by it (a baseline). */
static int check_value(struct opt_num n, bool divisor, char **error, const char *fmt, ...) _printf_(4, 5);
static int check_value(struct opt_num n, bool divisor, char **error, const char *fmt, ...)
{
	if (!n.known || (n.v >= 0 && n.v <= VALUE_MAX && (n.v > 0 || !divisor)))
		return 0;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *what = xvasprintf(fmt, ap);
	va_end(ap);
	*error = xasprintf("%s is %g, expected %s to %g", what, n.v, divisor ? "more than 0 and up" : "0",
			   VALUE_MAX);
	return -EBADMSG;
}

static int check_values(const struct result_run *run, size_t i, char **error)
{
	int r = check_value(run->index.score, false, error, "runs[%zu].index.score", i);
	for (size_t k = 0; r == 0 && k < run->tests.n; k++) {
		const struct result_test *t = &run->tests.v[k];
		r = check_value(t->baseline, true, error, "runs[%zu].tests[%zu].baseline", i, k);
		if (r == 0)
			r = check_value(t->result, false, error, "runs[%zu].tests[%zu].result", i, k);
		if (r == 0)
			r = check_value(t->index, false, error, "runs[%zu].tests[%zu].index", i, k);
	}
	return r;
}

int result_env_decode(json_object *rec, struct result_env *re, char **error)
{
	_cleanup_free_ char *env_error = NULL;
	int r = result_decode(rec, &re->r, error);
	if (r < 0) {
		re->env = (struct env_record){0};
		return r;
	}
	(void)env_decode(re->r.environment.before, "environment.before", &re->env, &env_error);
	return 0;
}

void result_env_free(struct result_env *re)
{
	env_record_free(&re->env);
	result_record_free(&re->r);
}

const struct result_test *result_run_test(const struct result_run *run, const char *id)
{
	for (size_t i = 0; i < run->tests.n; i++)
		if (streq_ptr(run->tests.v[i].id, id))
			return &run->tests.v[i];
	return NULL;
}

bool round_valid(const char *round)
{
	size_t n = strlen(round);
	if (n == 0 || n > ROUND_MAX)
		return false;
	for (const char *c = round; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._:+-", *c))
			return false;
	return true;
}

int result_check(json_object *rec, char **error)
{
	*error = NULL;
	if (!rec || !json_object_is_type(rec, json_type_object)) {
		*error = xstrdup("not a JSON object");
		return -EBADMSG;
	}
	/* another record altogether is named as such, before what it lacks */
	const char *schema = jpath_str(rec, "schema");
	if (!schema || !streq(schema, RESULT_SCHEMA)) {
		*error = xasprintf("schema is '%s', expected '%s'", schema ? schema : "(none)", RESULT_SCHEMA);
		return -EBADMSG;
	}
	struct result_record r;
	int ret = result_decode(rec, &r, error);
	if (ret < 0)
		return ret;
	if (strlen(r.run_id) > 64) {
		*error = xstrdup("run_id is longer than 64 characters");
		ret = -EBADMSG;
	}
	if (ret == 0 && r.round && !round_valid(r.round)) {
		*error = xasprintf("round '%s' is not a round id (1 to %d letters, digits and . _ : + -)", r.round,
				   ROUND_MAX);
		ret = -EBADMSG;
	}
	for (size_t i = 0; ret == 0 && i < r.runs.n; i++) {
		int64_t copies = r.runs.v[i].copies.v;
		/* an imported run may not know its copies (a pasted table that
		 * does not say): null there */
		if (!r.runs.v[i].copies.known) {
			if (!is_true(r.imported)) {
				*error = xasprintf("runs[%zu].copies is missing", i);
				ret = -EBADMSG;
			}
		} else if (copies < 1 || copies > 1 << 20) {
			*error = xasprintf("runs[%zu].copies is %" PRId64 ", expected 1 to %d", i, copies, 1 << 20);
			ret = -EBADMSG;
		}
		if (ret == 0)
			ret = check_values(&r.runs.v[i], i, error);
	}
	result_record_free(&r);
	return ret;
}
