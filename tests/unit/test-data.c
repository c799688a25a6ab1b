/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Data files on disk and carried in the binary (lib/paths.h). This test
 * brings its own carried set: its builtin_data() is linked instead of the
 * library's, so every build runs the same checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "analysis/diagnose.h"
#include "lib/embed.h"
#include "lib/paths.h"
#include "probetest.h"
#include "tune/profile.h"

#define TEXT(s) (const unsigned char *)(s), sizeof(s) - 1
#define REFERENCE "reference/published-results.json"

static const char base_text[] = "[profile]\ndescription = base\n[cpu]\ngovernor = ondemand\n";

/* Sorted by name, as the Makefile lists them; the reference runs are the
 * shipped file's bytes, read when first asked for. */
static struct embedded_file carried[] = {
	{ "profiles/base.profile", TEXT(base_text) },
	{ "profiles/board.profile", TEXT("[profile]\ninclude = base\n[cpu]\ngovernor = performance\n") },
	{ "profiles/loop-a.profile", TEXT("[profile]\ninclude = loop-b\n") },
	{ "profiles/loop-b.profile", TEXT("[profile]\ninclude = loop-a\n") },
	{ REFERENCE, NULL, 0 },
	{ "reference/sub/deeper", TEXT("x") },
};

const struct embedded_file *builtin_data(size_t *n)
{
	struct embedded_file *ref = &carried[4];
	if (!ref->data) {
		_cleanup_free_ char *path = xasprintf("%s/%s", SRCDIR, REFERENCE);
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
		char *text = NULL;
		assert_true(fd >= 0);
		assert_int_equal(read_fd(fd, 1 << 24, &text, &ref->size), 0);
		ref->data = (const unsigned char *)text;
	}
	*n = ARRAY_SIZE(carried);
	return carried;
}

static void assert_names(const struct strv *l, const char *const *want, size_t n)
{
	assert_int_equal(l->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(l->v[i], want[i]);
}

static void builtin_files_read(void **state)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	assert_int_equal(data_read(DATA_BUILTIN "/profiles/base.profile", 4096, &text, &len, NULL), 0);
	assert_int_equal(len, strlen(base_text));
	/* a string of its own: the parsers read up to the NUL */
	assert_string_equal(text, base_text);

	char *none = NULL;
	assert_int_equal(data_read(DATA_BUILTIN "/profiles/base.profile", len - 1, &none, NULL, NULL), -EFBIG);
	assert_int_equal(data_read(DATA_BUILTIN "/profiles", 4096, &none, NULL, NULL), -EISDIR);
	assert_int_equal(data_read(DATA_BUILTIN "/profiles/nothing.profile", 4096, &none, NULL, NULL), -ENOENT);
	/* a name that merely begins like a carried one */
	assert_int_equal(data_read(DATA_BUILTIN "/profiles/base", 4096, &none, NULL, NULL), -ENOENT);
	assert_int_equal(data_read(DATA_BUILTIN "/prof", 4096, &none, NULL, NULL), -ENOENT);
	assert_null(none);

	assert_true(data_exists(DATA_BUILTIN "/profiles/board.profile"));
	assert_true(data_exists(DATA_BUILTIN "/reference"));
	assert_false(data_exists(DATA_BUILTIN "/profiles/board"));
	_cleanup_free_ char *real = data_realpath(DATA_BUILTIN "/profiles/board.profile");
	assert_string_equal(real, DATA_BUILTIN "/profiles/board.profile");
	errno = 0;
	assert_null(data_realpath(DATA_BUILTIN "/profiles/../profiles/board.profile"));
	assert_int_equal(errno, ENOENT);
}

static void builtin_dirs_listed(void **state)
{
	struct strv l = {0};
	assert_int_equal(data_list(DATA_BUILTIN "/profiles", &l), 0);
	assert_names(&l, (const char *const[]){ "base.profile", "board.profile", "loop-a.profile", "loop-b.profile" },
		     4);
	strv_free(&l);
	/* the files right in the directory, not those below */
	assert_int_equal(data_list(DATA_BUILTIN "/reference", &l), 0);
	assert_names(&l, (const char *const[]){ "published-results.json" }, 1);
	strv_free(&l);
	assert_int_equal(data_list(DATA_BUILTIN "/profiles/base.profile", &l), -ENOTDIR);
	assert_int_equal(data_list(DATA_BUILTIN "/nothing", &l), -ENOENT);
	assert_int_equal(l.n, 0);
}

static void files_on_disk(void **state)
{
	char *dir = tmproot_new();
	_cleanup_free_ char *b = xasprintf("%s/b.profile", dir), *a = xasprintf("%s/a.profile", dir);
	tmproot_write(dir, "b.profile", "bb");
	tmproot_write(dir, "a.profile", "a");
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	assert_int_equal(data_read(b, 16, &text, &len, NULL), 0);
	assert_int_equal(len, 3);
	assert_string_equal(text, "bb\n");
	char *none = NULL;
	assert_int_equal(data_read(b, 2, &none, NULL, NULL), -EFBIG);
	assert_int_equal(data_read(dir, 16, &none, NULL, NULL), -EISDIR);
	_cleanup_free_ char *missing = xasprintf("%s/missing", dir);
	assert_int_equal(data_read(missing, 16, &none, NULL, NULL), -ENOENT);
	assert_null(none);
	assert_true(data_exists(a));
	assert_false(data_exists(missing));

	struct strv l = {0};
	assert_int_equal(data_list(dir, &l), 0);
	assert_names(&l, (const char *const[]){ "a.profile", "b.profile" }, 2);
	strv_free(&l);
	assert_int_equal(data_list(missing, &l), -ENOENT);
	tmproot_free(dir);
}

/* The carried copy only where no data directory is found on disk. */
static void where_data_is_found(void **state)
{
	_cleanup_free_ char *old = getenv("UBTUNE_DATADIR") ? xstrdup(getenv("UBTUNE_DATADIR")) : NULL;
	setenv("UBTUNE_DATADIR", "/some/data", 1);
	_cleanup_free_ char *env = data_path("profiles");
	assert_string_equal(env, "/some/data/profiles");

	/* a test program runs from B/tests/, where no source tree is found */
	unsetenv("UBTUNE_DATADIR");
	_cleanup_free_ char *profiles = data_path("profiles"), *ref = data_path(REFERENCE);
	_cleanup_free_ char *workloads = data_path("workloads");
	assert_string_equal(workloads, UBTUNE_DATADIR "/workloads");
	if (access(UBTUNE_DATADIR, F_OK) == 0) {
		/* installed on this machine: that one wins */
		assert_string_equal(profiles, UBTUNE_DATADIR "/profiles");
	} else {
		assert_string_equal(profiles, DATA_BUILTIN "/profiles");
		assert_string_equal(ref, DATA_BUILTIN "/" REFERENCE);
	}
	if (old)
		setenv("UBTUNE_DATADIR", old, 1);
}

static void builtin_profiles_include_each_other(void **state)
{
	struct strv errors = {0};
	_cleanup_profile_ struct profile *p = NULL;
	assert_int_equal(profile_load(DATA_BUILTIN "/profiles/board.profile", NULL, &p, &errors), 0);
	assert_int_equal(errors.n, 0);
	assert_int_equal(p->chain.n, 2);
	assert_string_equal(p->chain.v[0], "base");
	assert_string_equal(p->chain.v[1], "board");
	assert_string_equal(profile_get(p, "cpu", "governor")->value, "performance");
	/* the description is the named profile's own */
	assert_null(p->description);

	struct profile *loop = NULL;
	assert_int_equal(profile_load(DATA_BUILTIN "/profiles/loop-a.profile", NULL, &loop, &errors), -EINVAL);
	assert_int_equal(errors.n, 1);
	assert_string_equal(errors.v[0], DATA_BUILTIN "/profiles/loop-b.profile:2: [profile] include: includes "
							"itself (loop-a -> loop-b -> loop-a)");
	strv_free(&errors);

	assert_int_equal(profile_load(DATA_BUILTIN "/profiles/nothing.profile", NULL, &loop, &errors), -ENOENT);
	assert_string_equal(errors.v[0], DATA_BUILTIN "/profiles/nothing.profile: No such file or directory");
	strv_free(&errors);
}

/* A profile on disk includes a carried one by name. */
static void own_profile_includes_carried(void **state)
{
	if (access(UBTUNE_DATADIR, F_OK) == 0)
		skip();
	_cleanup_free_ char *old = getenv("UBTUNE_DATADIR") ? xstrdup(getenv("UBTUNE_DATADIR")) : NULL;
	unsetenv("UBTUNE_DATADIR");
	char *dir = tmproot_new();
	_cleanup_free_ char *mine = xasprintf("%s/mine.profile", dir);
	tmproot_write(dir, "mine.profile", "[profile]\ninclude = board\n[sysctl]\nvm.swappiness = 10");
	struct strv errors = {0};
	_cleanup_profile_ struct profile *p = NULL;
	assert_int_equal(profile_load(mine, NULL, &p, &errors), 0);
	assert_int_equal(p->chain.n, 3);
	assert_string_equal(p->chain.v[2], "mine");
	assert_string_equal(profile_get(p, "cpu", "governor")->file, DATA_BUILTIN "/profiles/board.profile");
	tmproot_free(dir);
	if (old)
		setenv("UBTUNE_DATADIR", old, 1);
}

/* The carried reference runs read as the file itself. */
static void builtin_reference_runs(void **state)
{
	struct diag_refs disk = {0}, mem = {0};
	_cleanup_free_ char *error = NULL, *path = xasprintf("%s/%s", SRCDIR, REFERENCE);
	assert_int_equal(diag_refs_load(path, &disk, &error), 0);
	assert_int_equal(diag_refs_load(DATA_BUILTIN "/" REFERENCE, &mem, &error), 0);
	assert_true(disk.n > 0);
	assert_int_equal(mem.n, disk.n);
	for (size_t i = 0; i < disk.n; i++)
		assert_string_equal(mem.v[i].id, disk.v[i].id);
	diag_refs_free(&disk);
	diag_refs_free(&mem);

	assert_int_equal(diag_refs_load(DATA_BUILTIN "/reference/none.json", &mem, &error), -ENOENT);
	assert_string_equal(error, "cannot read " DATA_BUILTIN "/reference/none.json: No such file or directory");
	free(error);
	error = NULL;
	assert_int_equal(diag_refs_load(DATA_BUILTIN "/profiles/base.profile", &mem, &error), -EBADMSG);
	assert_string_equal(error, "cannot read " DATA_BUILTIN "/profiles/base.profile: not JSON");
	diag_refs_free(&mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtin_files_read),
		cmocka_unit_test(builtin_dirs_listed),
		cmocka_unit_test(files_on_disk),
		cmocka_unit_test(where_data_is_found),
		cmocka_unit_test(builtin_profiles_include_each_other),
		cmocka_unit_test(own_profile_includes_carried),
		cmocka_unit_test(builtin_reference_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
