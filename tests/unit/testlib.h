/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the cmocka unit tests: fixture paths and record helpers. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/term.h"
#include "lib/util.h"
#include "probe/probe.h"

/* A synthetic root (tests/fixtures/roots/NAME: a whole machine; partial/NAME:
 * the files one area reads) or an unpacked real dump
 * (build/fixtures/NAME). */
static inline char *fixture_root(const char *name)
{
	static const char *const places[] = { "tests/fixtures/roots", "tests/fixtures/partial" };
	for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
		char *p = xasprintf("%s/%s/%s", SRCDIR, places[i], name);
		if (access(p, F_OK) == 0)
			return p;
		free(p);
	}
	return xasprintf("%s/build/fixtures/%s", SRCDIR, name);
}

/* Decodes an environment record (asserts that it fits the schema); what names it. */
static inline void env_of(json_object *rec, const char *what, struct env_record *env)
{
	_cleanup_free_ char *error = NULL;
	if (env_decode(rec, "", env, &error) < 0)
		fail_msg("the record of %s does not decode: %s", what, error);
}

/* Every record the probe writes fits the environment schema. */
static inline void assert_decodes(json_object *rec, const char *what)
{
	struct env_record env;
	env_of(rec, what, &env);
	env_record_free(&env);
}

/* What an area's render function prints for rec (caller frees). */
static inline char *render_text(void (*render)(const struct env_record *env, FILE *out), json_object *rec)
{
	char *text = NULL;
	size_t len = 0;
	struct env_record env;
	env_of(rec, "the test", &env);
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	/* a line per fact, unwrapped: the tests check whole lines */
	term_set_width(TERM_WIDTH_MAX);
	render(&env, out);
	term_set_width(0);
	fclose(out);
	env_record_free(&env);
	return text;
}

/* Probes a root directory and returns the record (asserts success). */
static inline json_object *probe_root(const char *root, const char *workdir)
{
	_cleanup_free_ char *error = NULL;
	struct probe_opts opts = { .root = root, .workdir = workdir };
	json_object *rec = NULL;
	int r = probe_collect(&opts, &rec, NULL, &error);
	if (r < 0)
		print_error("probe of %s failed: %s\n", root, error);
	assert_int_equal(r, 0);
	assert_decodes(rec, root);
	return rec;
}

/* Probes a fixture root and returns the record (asserts success). */
static inline json_object *probe_fixture(const char *name, const char *workdir)
{
	_cleanup_free_ char *root = fixture_root(name);
	return probe_root(root, workdir);
}

/* Parses a JSON literal written in a test. */
static inline json_object *json_lit(const char *s)
{
	json_object *o = NULL;
	assert_int_equal(jload_string(s, &o), 0);
	return o;
}

#define assert_jstr(rec, path, expected) assert_string_equal(jpath_str((rec), (path)) ?: "(null)", (expected))
#define assert_jnull(rec, path) assert_null(jpath((rec), (path)))
static inline int64_t jint(json_object *rec, const char *path)
{
	int64_t v = 0;
	if (!jpath_int(rec, path, &v))
		fail_msg("%s is not a number", path);
	return v;
}
