/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ubtune gather` archives exactly the files a traced probe read. These
 * tests copy the traced files of a root (the live machine included: read
 * only) into a fresh directory, probe that copy, and check that the storage
 * and NUMA parts of the record come out the same: libudev and hwloc read
 * files by themselves, and what they need must be in the trace.
 */
#include <fcntl.h>

#include "probe/numa.h"
#include "testroot.h"

static void copy_file(const char *src, const char *root, const char *path)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return; /* unreadable (permissions): the copy lacks it, as an archive would */
	tmproot_parents(root, path);
	_cleanup_free_ char *dst = xasprintf("%s%s", root, path);
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(out >= 0);
	char b[8192];
	ssize_t n;
	while ((n = read(in, b, sizeof(b))) > 0)
		assert_int_equal(write(out, b, (size_t)n), n);
	close(in);
	close(out);
}

/* Recreates every traced path of rf (root src) under dst. */
static void copy_traced(struct rootfs *rf, const char *src, const char *dst)
{
	size_t n;
	const struct rootfs_trace_entry *e = rootfs_trace_entries(rf, &n);
	const char *prefix = streq(src, "/") ? "" : src;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *from = xasprintf("%s%s", prefix, e[i].path);
		_cleanup_free_ char *to = xasprintf("%s%s", dst, e[i].path);
		struct stat st;
		if (lstat(to, &st) == 0 || lstat(from, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			char t[4096];
			ssize_t len = readlink(from, t, sizeof(t) - 1);
			assert_true(len > 0);
			t[len] = '\0';
			tmproot_link(dst, e[i].path, t);
		} else if (S_ISDIR(st.st_mode)) {
			_cleanup_free_ char *d = xasprintf("%s/", e[i].path);
			tmproot_parents(dst, d);
		} else if (e[i].kind == TRACE_FILE || e[i].kind == TRACE_EXISTS) {
			copy_file(from, dst, e[i].path);
		}
	}
}

/*
 * numa.storage_irqs without what moves on a live machine between the probe
 * and the copy: interrupt counts, and where irqbalance runs, the affinities.
 */
static void drop_counts(json_object *rec)
{
	static const char *const moving[] = { "affinity", "effective", "on_device_node" };
	json_object *irqs = jpath(rec, "numa.storage_irqs");
	bool balanced = false;
	jpath_bool(rec, "numa.irqbalance", &balanced);
	for (size_t i = 0; irqs && i < json_object_array_length(irqs); i++) {
		json_object *q = json_object_array_get_idx(irqs, i);
		json_object_object_del(q, "count");
		for (size_t k = 0; balanced && k < ARRAY_SIZE(moving); k++)
			json_object_object_del(q, moving[k]);
	}
}

static void assert_same(json_object *a, json_object *b, const char *path)
{
	json_object *x = jpath(a, path), *y = jpath(b, path);
	if (!json_object_equal(x, y))
		fail_msg("%s differs: %s vs %s", path, x ? jdump(x, false) : "null", y ? jdump(y, false) : "null");
}

static void check_round_trip(const char *root, const char *workdir)
{
	struct probe_opts opts = { .root = root, .workdir = workdir, .trace = true };
	json_object *rec = NULL, *again = NULL;
	struct rootfs *rf = NULL;
	_cleanup_free_ char *error = NULL, *error2 = NULL;
	assert_int_equal(probe_collect(&opts, &rec, &rf, &error), 0);

	char *copy = tmproot_new();
	copy_traced(rf, rootfs_path(rf), copy);
	_cleanup_free_ char *wd = xasprintf("%s/", jpath_str(rec, "storage.workdir"));
	tmproot_parents(copy, wd);
	struct probe_opts opts2 = { .root = copy, .workdir = jpath_str(rec, "storage.workdir") };
	assert_int_equal(probe_collect(&opts2, &again, NULL, &error2), 0);

#if HAVE_HWLOC
	/* hwloc itself can read the copy when it could read the original */
	struct rootfs *orig = NULL, *copied = NULL;
	json_object *a = NULL, *b = NULL;
	assert_int_equal(rootfs_new(root, &orig), 0);
	assert_int_equal(rootfs_new(copy, &copied), 0);
	if (numa_nodes_hwloc(orig, &a) == 0) {
		assert_int_equal(numa_nodes_hwloc(copied, &b), 0);
		assert_true(json_object_equal(a, b));
	}
	json_object_put(a);
	json_object_put(b);
	rootfs_free(orig);
	rootfs_free(copied);
#endif
	drop_counts(rec);
	drop_counts(again);
	assert_same(rec, again, "storage");
	assert_same(rec, again, "numa");
	json_object_put(rec);
	json_object_put(again);
	rootfs_free(rf);
	tmproot_free(copy);
}

static void live_machine(void **state)
{
	check_round_trip("/", SRCDIR);
}

static void dumps(void **state)
{
	const char *const names[] = { "hwloc-2pa-pcidomain32bits", "util-linux-lsblk-simple-nvme",
				      "util-linux-x86_64-epyc_7451", "hwloc-offline-cpu0-node0" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		_cleanup_free_ char *root = fixture_root(names[i]);
		check_round_trip(root, "/");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(live_machine),
		cmocka_unit_test(dumps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
