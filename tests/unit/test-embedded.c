/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workloads carried inside ubtune: written out once, reused, repaired. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "bench/embedded.h"
#include "testlib.h"

static const unsigned char prog[] = "\177ELF pretend program";
static const unsigned char script[] = "#!/bin/sh\nexit 0\n";
static const struct embedded_file files[] = {
	{ "ubtune-workloads", prog, sizeof(prog) },
	{ "multi.sh", script, sizeof(script) - 1 },
};

static char *tmpdir(void)
{
	char *d = xstrdup("/tmp/ubtune-test-embedded.XXXXXX");
	assert_non_null(mkdtemp(d));
	return d;
}

static void rm_rf(const char *dir)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void assert_file(const char *dir, const char *name, const unsigned char *data, size_t size)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_true(st.st_mode & S_IXUSR);
	_cleanup_close_ int fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(read_fd(fd, 1024, &text, &len), 0);
	assert_int_equal(len, size);
	assert_memory_equal(text, data, size);
}

static ino_t inode_of(const char *dir, const char *name)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	return st.st_ino;
}

static void written_once_then_reused(void **state)
{
	_cleanup_free_ char *cache = tmpdir();
	_cleanup_free_ char *dir = NULL, *again = NULL, *error = NULL;
	mode_t old = umask(077);
	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), cache, &dir, &error), 0);
	umask(old);
	assert_non_null(strstr(dir, "/workloads/embedded-"));
	assert_file(dir, "ubtune-workloads", prog, sizeof(prog));
	assert_file(dir, "multi.sh", script, sizeof(script) - 1);
	ino_t ino = inode_of(dir, "ubtune-workloads");

	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), cache, &again, &error), 0);
	assert_string_equal(again, dir);
	assert_true(inode_of(dir, "ubtune-workloads") == ino);

	/* other bytes: a directory of their own, the first one stays */
	const struct embedded_file other[] = { { "ubtune-workloads", script, 3 } };
	_cleanup_free_ char *odir = NULL;
	assert_int_equal(embedded_write_out(other, 1, cache, &odir, &error), 0);
	assert_string_not_equal(odir, dir);
	assert_file(dir, "ubtune-workloads", prog, sizeof(prog));
	rm_rf(cache);
}

static void damaged_copy_replaced(void **state)
{
	_cleanup_free_ char *cache = tmpdir();
	_cleanup_free_ char *dir = NULL, *again = NULL, *error = NULL;
	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), cache, &dir, &error), 0);
	_cleanup_free_ char *p = xasprintf("%s/multi.sh", dir);
	assert_int_equal(truncate(p, 3), 0);
	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), cache, &again, &error), 0);
	assert_string_equal(again, dir);
	assert_file(dir, "multi.sh", script, sizeof(script) - 1);

	/* not executable any more: replaced too */
	assert_int_equal(chmod(p, 0644), 0);
	free(again);
	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), cache, &again, &error), 0);
	assert_file(dir, "multi.sh", script, sizeof(script) - 1);
	rm_rf(cache);
}

static void unwritable_cache_named(void **state)
{
	_cleanup_free_ char *cache = tmpdir();
	_cleanup_free_ char *file = xasprintf("%s/not-a-dir", cache);
	_cleanup_close_ int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	_cleanup_free_ char *dir = NULL, *error = NULL;
	assert_int_equal(embedded_write_out(files, ARRAY_SIZE(files), file, &dir, &error), -ENOTDIR);
	assert_null(dir);
	assert_non_null(strstr(error, file));
	assert_non_null(strstr(error, "UBTUNE_CACHE_DIR"));
	rm_rf(cache);
}

/* A static build carries the real ones: programs and scripts. */
static void linked_in_files(void **state)
{
	size_t n;
	const struct embedded_file *f = embedded_workloads(&n);
	if (n == 0)
		skip();
	assert_string_equal(f[0].name, "ubtune-workloads");
	for (size_t i = 0; i < n; i++) {
		bool is_script = endswith(f[i].name, ".sh");
		assert_true(f[i].size > 4);
		assert_memory_equal(f[i].data, is_script ? "#!" : "\177ELF", is_script ? 2 : 4);
	}
}

/* A static build carries the shipped data files, byte for byte. */
static void carried_data(void **state)
{
	size_t n, profiles = 0;
	const struct embedded_file *f = builtin_data(&n);
	if (n == 0)
		skip();
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", SRCDIR, f[i].name), *text = NULL;
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
		size_t len = 0;
		assert_true(fd >= 0);
		assert_int_equal(read_fd(fd, 1 << 24, &text, &len), 0);
		assert_int_equal(f[i].size, len);
		assert_memory_equal(f[i].data, text, len);
		assert_true(i == 0 || strcmp(f[i - 1].name, f[i].name) < 0);
		profiles += startswith(f[i].name, "profiles/") != NULL;
	}
	_cleanup_free_ char *dir = xasprintf("%s/profiles", SRCDIR);
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct strv shipped = {0};
	assert_non_null(d);
	assert_int_equal(dir_list_sorted(d, &shipped), 0);
	size_t want = 0;
	for (size_t i = 0; i < shipped.n; i++)
		want += endswith(shipped.v[i], ".profile");
	assert_int_equal(profiles, want);
	strv_free(&shipped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_once_then_reused),
		cmocka_unit_test(damaged_copy_replaced),
		cmocka_unit_test(unwritable_cache_named),
		cmocka_unit_test(linked_in_files),
		cmocka_unit_test(carried_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
