/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The applied profile's file, the engines, compiling the workloads into
 * the cache, and the working directory's cleanup. */
#include <errno.h>
#include <sys/stat.h>

#include "bench/applied.h"
#include "bench/engine.h"
#include "bench/workdir.h"
#include "testlib.h"

static char *tmp;

static int make_tmp(void **state)
{
	char tmpl[] = "/tmp/ubtune-engine-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	tmp = xstrdup(tmpl);
	return 0;
}

static int remove_tmp(void **state)
{
	assert_int_equal(remove_tree(tmp), 0);
	free(tmp);
	return 0;
}

static char *put(const char *rel, const char *text, mode_t mode)
{
	char *p = xasprintf("%s/%s", tmp, rel);
	_cleanup_free_ char *dir = xstrdup(p);
	*strrchr(dir, '/') = '\0';
	_cleanup_free_ char *mk = xasprintf("mkdir -p '%s'", dir);
	assert_int_equal(system(mk), 0);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
	return p;
}

static void applied_profile(void **state)
{
	struct applied_profile p;
	char *error = NULL;
	assert_int_equal(applied_profile_load(tmp, &p, &error), 0);
	assert_false(p.present);
	applied_profile_free(&p);

	free(put("applied.json",
		 "{\"profiles\": [\"generic\", \"ft2000\"], \"build\": {\"cc\": \"gcc\", \"cflags\": \"-O3 -mtune=cortex-a53\"},"
		 " \"bench\": {\"copies\": [1, \"all\"], \"tests\": [\"dhry2reg\", \"pipe\"], \"quick\": false},"
		 " \"workdir\": {\"path\": \"/mnt/ubtune\", \"type\": \"tmpfs\"}}", 0644));
	assert_int_equal(applied_profile_load(tmp, &p, &error), 0);
	assert_true(p.present);
	assert_int_equal(p.profiles.n, 2);
	assert_string_equal(p.profiles.v[1], "ft2000");
	assert_string_equal(p.cc, "gcc");
	assert_string_equal(p.cflags, "-O3 -mtune=cortex-a53");
	assert_string_equal(p.copies, "1,all");
	assert_string_equal(p.tests, "dhry2reg,pipe");
	assert_int_equal(p.quick, 0);
	assert_string_equal(p.workdir, "/mnt/ubtune");
	assert_string_equal(p.workdir_type, "tmpfs");
	applied_profile_free(&p);

	/* applied in another boot: its runtime settings are gone */
	free(put("applied.json", "{\"profiles\": [\"x\"], \"boot_id\": \"aaaa-1\"}", 0644));
	assert_int_equal(applied_profile_load(tmp, &p, &error), 0);
	assert_false(applied_profile_stale(&p, "aaaa-1"));
	assert_true(applied_profile_stale(&p, "bbbb-2"));
	assert_false(applied_profile_stale(&p, NULL));
	applied_profile_free(&p);

	/* members may be missing or null */
	free(put("applied.json", "{\"profiles\": [\"x\"], \"bench\": {\"copies\": \"1,all\", \"tests\": null}}", 0644));
	assert_int_equal(applied_profile_load(tmp, &p, &error), 0);
	assert_string_equal(p.copies, "1,all");
	assert_null(p.tests);
	assert_null(p.cc);
	assert_int_equal(p.quick, -1);
	applied_profile_free(&p);

	static const char *const bad[][2] = {
		{ "{\"bench\": {\"quick\": \"yes\"}}", "bench.quick is not true or false" },
		{ "{\"build\": {\"cflags\": 3}}", "build.cflags is not a string" },
		{ "{\"bench\": {\"copies\": [1, true]}}", "bench.copies is not a string or a list" },
		{ "{\"profiles\": \"ft2000\"}", "profiles is not a list of names" },
		{ "{\"workdir\": {\"path\": \"mnt\"}}", "workdir.path 'mnt' is not an absolute path" },
		{ "[1]", "not a JSON object" },
		{ "{", "not valid JSON" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		_cleanup_free_ char *file = put("applied.json", bad[i][0], 0644);
		assert_true(applied_profile_load(tmp, &p, &error) < 0);
		if (!strstr(error, bad[i][1]) || !strstr(error, file))
			fail_msg("'%s' gave '%s'", bad[i][0], error);
		free(error);
		error = NULL;
		applied_profile_free(&p);
	}
}

static void unixbench_tree(void **state)
{
	free(put("ub/pgms/dhry2reg", "", 0755));
	free(put("ub/pgms/unixbench.logo", "\n   Version 6.0.0                      Based on the Byte\n", 0644));
	free(put("ub/testdir/sort.src", "the input\n", 0644));
	_cleanup_free_ char *tree = xasprintf("%s/ub", tmp), *pgms = xasprintf("%s/ub/pgms", tmp);
	struct bench_engine e;
	char *error = NULL;
	assert_int_equal(engine_unixbench(tree, NULL, false, false, &e, &error), 0);
	assert_string_equal(e.bindir, pgms);
	assert_null(e.note);
	assert_string_equal(e.version, "6.0.0");
	assert_string_equal(e.suite, "unixbench");

	struct strv argv = {0};
	engine_argv(&e, ub_index_test("shell1"), false, "/w", &argv);
	_cleanup_free_ char *looper = xasprintf("%s/looper", pgms), *multi = xasprintf("%s/multi.sh", pgms);
	assert_int_equal(argv.n, 4);
	assert_string_equal(argv.v[0], looper);
	assert_string_equal(argv.v[1], "60");
	assert_string_equal(argv.v[2], multi);
	strv_free(&argv);
	/* UnixBench's whetstone has no target time: the same in a quick run */
	engine_argv(&e, ub_index_test("whetstone-double"), true, "/w", &argv);
	assert_int_equal(argv.n, 1);
	strv_free(&argv);

	/* the shell tests' input is copied, never over an existing file */
	_cleanup_free_ char *wd = xasprintf("%s/wd", tmp), *input = xasprintf("%s/wd/sort.src", tmp);
	assert_int_equal(mkdir(wd, 0755), 0);
	assert_int_equal(engine_prepare_input(&e, wd, &error), 0);
	assert_int_equal(access(input, R_OK), 0);
	assert_int_equal(engine_prepare_input(&e, wd, &error), -EEXIST);
	free(error);
	error = NULL;

	/* the copies' environment: LANG as Run sets it, UB_BINDIR */
	setenv("LANG", "C", 1);
	char **env = engine_env(&e, true);
	bool lang = false, bindir = false, quick = false;
	for (char **v = env; *v; v++) {
		lang |= streq(*v, "LANG=en_US.utf8");
		bindir |= startswith(*v, "UB_BINDIR=") && streq(*v + strlen("UB_BINDIR="), pgms);
		quick |= startswith(*v, "UBTUNE_WORKLOADS_QUICK=") != NULL;
		assert_false(streq(*v, "LANG=C"));
		free(*v);
	}
	free(env);
	assert_true(lang && bindir && !quick);
	engine_free(&e);

	/* DIR may be pgms/ itself; a tree without sources cannot be built with a
	 * profile's flags: its programs run as they are, and it says so */
	struct applied_profile prof = { .present = true, .cflags = "-O3" };
	assert_int_equal(engine_unixbench(pgms, &prof, false, false, &e, &error), 0);
	assert_string_equal(e.bindir, pgms);
	assert_non_null(e.note);
	assert_non_null(strstr(e.note, "run as built there"));
	engine_free(&e);
	assert_int_equal(engine_unixbench(wd, NULL, false, false, &e, &error), -ENOENT);
	assert_non_null(strstr(error, "is not a UnixBench tree"));
	free(error);
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct strv names = {0};
	assert_int_equal(dir_list_sorted(d, &names), 0);
	closedir(d);
	size_t n = names.n;
	strv_free(&names);
	return n;
}

static void compile_into_cache(void **state)
{
	const char *cc = access("/usr/bin/cc", X_OK) == 0 ? "/usr/bin/cc" : NULL;
	if (!cc)
		skip();
	/* a source directory with the workloads' make interface: O=, CC=, WORKLOAD_CFLAGS= */
	free(put("src/Makefile",
		 "O ?= .\nWORKLOAD_CFLAGS ?= -O2\n"
		 "$(O)/ubtune-workloads: main.c\n\t$(CC) $(WORKLOAD_CFLAGS) -o $@ main.c\n", 0644));
	free(put("src/main.c", "int main(void) { return 0; }\n", 0644));
	_cleanup_free_ char *src = xasprintf("%s/src", tmp), *cache = xasprintf("%s/cache", tmp);
	json_object *b = NULL, *b2 = NULL, *b3 = NULL;
	char *error = NULL;

	assert_int_equal(workloads_compile(src, cache, cc, "-O1 -DUBTUNE_TEST", false, &b, &error), 0);
	bool cached = true;
	assert_true(jpath_bool(b, "cached", &cached) && !cached);
	const char *key = jpath_str(b, "key");
	assert_int_equal(strlen(key), 16);
	const char *cmd = jpath_str(b, "commands.0");
	assert_non_null(cmd);
	assert_non_null(strstr(cmd, "-O1 -DUBTUNE_TEST"));
	assert_non_null(strstr(cmd, "main.c"));
	_cleanup_free_ char *bin = xasprintf("%s/ubtune-workloads", jpath_str(b, "dir"));
	assert_int_equal(access(bin, X_OK), 0);
	assert_non_null(jpath_str(b, "cc_version"));

	/* the same compiler, flags and sources: the cached build, same command */
	assert_int_equal(workloads_compile(src, cache, cc, "-O1 -DUBTUNE_TEST", false, &b2, &error), 0);
	assert_true(jpath_bool(b2, "cached", &cached) && cached);
	assert_string_equal(jpath_str(b2, "key"), key);
	assert_string_equal(jpath_str(b2, "commands.0"), cmd);

	/* other flags, or a changed source: another key */
	assert_int_equal(workloads_compile(src, cache, cc, "-O2", false, &b3, &error), 0);
	assert_string_not_equal(jpath_str(b3, "key"), key);
	json_object_put(b3);
	free(put("src/main.c", "int main(void) { return 1; }\n", 0644));
	assert_int_equal(workloads_compile(src, cache, cc, "-O1 -DUBTUNE_TEST", false, &b3, &error), 0);
	assert_string_not_equal(jpath_str(b3, "key"), key);
	json_object_put(b3);
	assert_int_equal(count_entries(cache), 3);

	/* flags the compiler refuses: its message, and no half-finished build left */
	assert_true(workloads_compile(src, cache, cc, "-fno-such-flag-here", false, &b3, &error) < 0);
	assert_non_null(strstr(error, "compiling the workloads with"));
	assert_non_null(strstr(error, "no-such-flag-here"));
	free(error);
	assert_int_equal(count_entries(cache), 3);
	json_object_put(b);
	json_object_put(b2);
}

static void workdir_cleanup(void **state)
{
	/* the base is kept; only our directory inside it goes, and a symlink
	 * in it is removed without touching what it points to */
	_cleanup_free_ char *outside = put("outside/keep", "keep me\n", 0644);
	_cleanup_free_ char *base = xasprintf("%s/base", tmp);
	assert_int_equal(mkdir(base, 0755), 0);
	struct workdir w;
	char *error = NULL;
	assert_int_equal(workdir_create(base, "--workdir", &w, &error), 0);
	assert_true(startswith(w.path, base) != NULL);
	_cleanup_free_ char *sub = xasprintf("%s/a/b", w.path), *f = xasprintf("%s/a/b/dummy0-1", w.path);
	_cleanup_free_ char *link = xasprintf("%s/a/link", w.path), *outdir = xasprintf("%s/outside", tmp);
	_cleanup_free_ char *mk = xasprintf("mkdir -p '%s' && echo x > '%s'", sub, f);
	assert_int_equal(system(mk), 0);
	assert_int_equal(symlink(outdir, link), 0);
	assert_int_equal(workdir_remove(&w), 0);
	assert_int_equal(access(base, F_OK), 0);
	assert_int_equal(count_entries(base), 0);
	assert_int_equal(access(outside, R_OK), 0);
	workdir_free(&w);

	_cleanup_free_ char *missing = xasprintf("%s/missing", tmp);
	assert_int_equal(workdir_create(missing, "--workdir", &w, &error), -ENOENT);
	assert_non_null(strstr(error, missing));
	free(error);
	error = NULL;
	assert_int_equal(workdir_create(outside, "--workdir", &w, &error), -ENOTDIR);
	free(error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(applied_profile, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(unixbench_tree, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(compile_into_cache, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(workdir_cleanup, make_tmp, remove_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
