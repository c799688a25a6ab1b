/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UnixBench trees: layouts and versions told apart, the build into a copy
 * (what is copied, the flags variable, the cache), Run's arguments and its
 * progress lines. The trees are small stand-ins written here: a Run with
 * the lines that tell the versions apart, a Makefile that "builds" shell
 * scripts and echoes compile commands. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "bench/ubrun.h"
#include "bench/ubtree.h"
#include "lib/paths.h"
#include "testlib.h"

static void write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	_cleanup_free_ char *d = xstrdup(p);
	*strrchr(d, '/') = '\0';
	assert_int_equal(mkdir_p(d, 0), 0);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, mode), 0);
}

static const char run_6[] = "#!/usr/bin/perl -w\nmy $version = \"6.0.0\";\nmy $testCats = {\n"
			    "    'system'    => { 'name' => \"System Benchmarks\", 'maxCopies' => 0 },\n};\n";
static const char run_513[] = "#!/usr/bin/perl -w\nmy $version = \"5.1.3\";\nmy $testCats = {\n"
			      "    'system'    => { 'name' => \"System Benchmarks\", 'maxCopies' => 16 },\n};\n";
static const char run_512[] = "#!/usr/bin/perl -w\nmy $version = \"5.1.2\";\n";

/* A Makefile that makes every index program as a script and prints the
 * command lines a real one would. */
static const char makefile_6[] =
	"CC?=gcc\nifdef UB_GCC_OPTIONS\n  OPTON = $(UB_GCC_OPTIONS)\nelse\n  OPTON = -O3 -ffast-math -march=native\nendif\n"
	"PROGS = dhry2reg whetstone-double execl fstime pipe context1 spawn syscall looper\n"
	"all:\n\t@for p in $(PROGS); do echo \"$(CC) -o pgms/$$p -Wall $(OPTON) src/dhry_1.c\"; "
	"printf '#!/bin/sh\\n' > pgms/$$p; chmod 755 pgms/$$p; done\n";
static const char makefile_513[] =
	"CC=gcc\nOPTON = -O2 -fomit-frame-pointer -ffast-math\n"
	"PROGS = dhry2reg whetstone-double execl fstime pipe context1 spawn syscall looper\n"
	"all:\n\t@echo \"cd src; $(CC) -c -DREG=register $(OPTON) dhry_1.c -o dhry_1_reg.o\"\n"
	"\t@for p in $(PROGS); do printf '#!/bin/sh\\n' > pgms/$$p; chmod 755 pgms/$$p; done\n";

static char *make_tree(const char *run, const char *makefile, bool checkout)
{
	char *top = xstrdup("/tmp/ubtune-tree.XXXXXX");
	assert_non_null(mkdtemp(top));
	_cleanup_free_ char *root = checkout ? xasprintf("%s/UnixBench", top) : xstrdup(top);
	write_file(root, "Run", run, 0755);
	if (makefile)
		write_file(root, "Makefile", makefile, 0644);
	write_file(root, "src/dhry_1.c", "int main(void) { return 0; }\n", 0644);
	write_file(root, "pgms/unixbench.logo", "   Version 9.9.9   Based on the Byte Magazine\n", 0644);
	write_file(root, "pgms/multi.sh", "#!/bin/sh\n", 0755);
	write_file(root, "testdir/sort.src", "b\na\n", 0644);
	write_file(root, "results/old-report", "an old report\n", 0644);
	write_file(root, "tmp/fs-scratch", "scratch\n", 0644);
	write_file(root, "src/dhry_1.o", "object\n", 0644);
	return top;
}

static void layouts(void **state)
{
	struct ub_tree t;
	_cleanup_free_ char *error = NULL;
	char *six = make_tree(run_6, makefile_6, true);
	assert_int_equal(ubtree_find(six, &t, &error), 0);
	assert_true(endswith(t.root, "/UnixBench"));
	assert_string_equal(t.version, "6.0.0");
	assert_string_equal(t.layout_name, "6.x");
	assert_string_equal(t.flags_var, "UB_GCC_OPTIONS");
	assert_int_equal(t.max_copies, 0);
	assert_false(t.built);
	ubtree_free(&t);
	/* DIR may be pgms/ */
	_cleanup_free_ char *pgms = xasprintf("%s/UnixBench/pgms", six);
	assert_int_equal(ubtree_find(pgms, &t, &error), 0);
	assert_string_equal(t.version, "6.0.0");
	ubtree_free(&t);

	char *old = make_tree(run_513, makefile_513, false);
	assert_int_equal(ubtree_find(old, &t, &error), 0);
	assert_string_equal(t.layout_name, "5.1.3");
	assert_string_equal(t.flags_var, "OPTON");
	assert_int_equal(t.max_copies, 16);
	ubtree_free(&t);

	/* 5.1.2: OPTON but no separate register objects; no maxCopies line: 16 */
	char *oldest = make_tree(run_512, "OPTON = -O2\n", false);
	assert_int_equal(ubtree_find(oldest, &t, &error), 0);
	assert_string_equal(t.version, "5.1.2");
	assert_string_equal(t.layout_name, "5.1.2");
	assert_int_equal(t.max_copies, 16);
	ubtree_free(&t);

	/* no $version in Run: the logo says it */
	char *logo = make_tree("#!/bin/sh\n", NULL, false);
	assert_int_equal(ubtree_find(logo, &t, &error), 0);
	assert_string_equal(t.version, "9.9.9");
	ubtree_free(&t);

	assert_int_equal(ubtree_find("/proc/self", &t, &error), -ENOENT);
	assert_non_null(strstr(error, "is not a UnixBench tree"));
	char *trees[] = { six, old, oldest, logo };
	for (size_t i = 0; i < ARRAY_SIZE(trees); i++) {
		remove_tree(trees[i]);
		free(trees[i]);
	}
}

static size_t count_files(const char *dir)
{
	_cleanup_free_ char *cmd = xasprintf("find '%s' -type f | wc -l", dir);
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	assert_int_equal(fscanf(p, "%zu", &n), 1);
	pclose(p);
	return n;
}

static void build_copy(void **state)
{
	char *top = make_tree(run_6, makefile_6, false);
	_cleanup_free_ char *cache = xasprintf("%s.cache", top);
	/* a built program in the person's tree is not copied: the copy builds its own */
	_cleanup_free_ char *elf = xasprintf("%s/pgms/dhry2reg", top);
	write_file(top, "pgms/dhry2reg", "\x7f" "ELF binary", 0755);
	size_t files_before = count_files(top);

	struct ub_tree t;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(ubtree_find(top, &t, &error), 0);
	assert_true(t.built);
	json_object *b = NULL;
	if (ubtree_build(&t, "cc", "-O1 -g", cache, false, &b, &error) < 0)
		fail_msg("%s", error);
	const char *dir = jpath_str(b, "dir");
	assert_true(startswith(dir, cache));
	assert_jstr(b, "cflags", "-O1 -g");
	assert_jstr(b, "flags_source", "profile");
	assert_jstr(b, "flags_var", "UB_GCC_OPTIONS");
	assert_jstr(b, "layout", "6.x");
	bool cached = true;
	assert_true(jpath_bool(b, "cached", &cached) && !cached);
	/* make saw the flags; the commands are what it printed */
	json_object *make = jpath(b, "make");
	bool found = false;
	for (size_t i = 0; i < jarr_len(make); i++)
		found = found || streq(json_object_get_string(json_object_array_get_idx(make, i)), "UB_GCC_OPTIONS=-O1 -g");
	assert_true(found);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(jpath(b, "commands"), 0)), "-O1 -g"));
	/* the copy: sources and scripts, not the old results, scratch files, objects or binaries */
	_cleanup_free_ char *multi = xasprintf("%s/pgms/multi.sh", dir), *results = xasprintf("%s/results/old-report", dir);
	_cleanup_free_ char *object = xasprintf("%s/src/dhry_1.o", dir), *built = xasprintf("%s/pgms/dhry2reg", dir);
	assert_int_equal(access(multi, X_OK), 0);
	assert_int_equal(access(results, F_OK), -1);
	assert_int_equal(access(object, F_OK), -1);
	char head[4] = "";
	FILE *f = fopen(built, "re");
	assert_non_null(f);
	assert_int_equal(fread(head, 1, 3, f), 3);
	fclose(f);
	assert_memory_equal(head, "#!/", 3);
	/* the person's tree is as it was */
	assert_int_equal(count_files(top), files_before);
	f = fopen(elf, "re");
	assert_int_equal(fread(head, 1, 4, f), 4);
	fclose(f);
	assert_memory_equal(head, "\x7f" "ELF", 4);

	/* the same tree, compiler and flags: the cached build */
	json_object *again = NULL;
	assert_int_equal(ubtree_build(&t, "cc", "-O1 -g", cache, false, &again, &error), 0);
	assert_true(jpath_bool(again, "cached", &cached) && cached);
	assert_string_equal(jpath_str(again, "dir"), dir);
	/* other flags: another build; none: the tree's, read from the commands */
	json_object *deflt = NULL;
	assert_int_equal(ubtree_build(&t, "cc", NULL, cache, false, &deflt, &error), 0);
	assert_string_not_equal(jpath_str(deflt, "dir"), dir);
	assert_jstr(deflt, "cflags", "-O3 -ffast-math -march=native");
	assert_jstr(deflt, "flags_source", "tree");
	json_object_put(b);
	json_object_put(again);
	json_object_put(deflt);

	/* no compiler, no sources */
	assert_int_equal(ubtree_build(&t, "no-such-compiler-here", NULL, cache, false, &b, &error), -ENOENT);
	assert_non_null(strstr(error, "'no-such-compiler-here' is not installed"));
	ubtree_free(&t);
	remove_tree(cache);
	remove_tree(top);
	free(top);
}

static void flags_of(void **state)
{
	_cleanup_free_ char *a = ubtree_flags_of("cc -o pgms/dhry2reg -Wall -pedantic -O3 -ffast-math -march=native "
						 "-mtune=native -I ./src -DTIME -DHZ= -DREG=register src/dhry_1.c");
	assert_string_equal(a, "-O3 -ffast-math -march=native -mtune=native");
	assert_null(ubtree_flags_of("cc -o x x.c"));
}

static void run_arguments(void **state)
{
	struct bench_engine e = { .kind = ENGINE_RUN, .run = (char *)"/cache/ub/Run" };
	struct bench_opts o = { .engine = &e, .ntests = 2, .ncopies = 2, .quick = true };
	o.tests[0] = (unsigned)(ub_index_test("pipe") - ub_tests);
	o.tests[1] = (unsigned)(ub_index_test("syscall") - ub_tests);
	o.copies[0] = 1;
	o.copies[1] = 8;
	struct strv argv = {0};
	ubrun_argv(&o, &argv);
	const char *want[] = { "/cache/ub/Run", "-i", "3", "-c", "1", "-c", "8", "pipe", "syscall" };
	assert_int_equal(argv.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < argv.n; i++)
		assert_string_equal(argv.v[i], want[i]);
	strv_free(&argv);
	/* no -i: Run's own 10 and 3 passes */
	o.quick = false;
	ubrun_argv(&o, &argv);
	assert_string_equal(argv.v[1], "-c");
	strv_free(&argv);
}

static void run_progress(void **state)
{
	struct ubrun_progress p;
	assert_true(ubrun_parse_progress("2 x Pipe Throughput  1 2 3", &p));
	assert_string_equal(p.test->id, "pipe");
	assert_int_equal(p.copies, 2);
	assert_int_equal(p.pass, 3);
	/* "Pipe-based Context Switching" is not Pipe Throughput */
	assert_true(ubrun_parse_progress("1 x Pipe-based Context Switching ", &p));
	assert_string_equal(p.test->id, "context1");
	assert_int_equal(p.pass, 0);
	assert_true(ubrun_parse_progress("16 x Shell Scripts (8 concurrent)  1", &p));
	assert_string_equal(p.test->id, "shell8");
	assert_int_equal(p.copies, 16);
	assert_false(ubrun_parse_progress("Pipe Throughput                              808304.4 lps", &p));
	assert_false(ubrun_parse_progress("1 x Arithmetic Test (int)  1", &p));
	assert_false(ubrun_parse_progress("make[1]: Entering directory", &p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layouts),
		cmocka_unit_test(build_copy),
		cmocka_unit_test(flags_of),
		cmocka_unit_test(run_arguments),
		cmocka_unit_test(run_progress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
