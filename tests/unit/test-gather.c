/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gather: what goes into a dump, tar archives written and unpacked safely,
 * and the kernel log text a dump keeps. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "lib/tarball.h"
#include "probe/gather.h"
#include "probetest.h"

static const struct tar_item *find_item(const struct gather *g, const char *path)
{
	for (size_t i = 0; i < g->n; i++)
		if (streq(g->items[i].path, path))
			return &g->items[i];
	return NULL;
}

static const struct tar_item *item_of(const struct gather *g, const char *path, enum tar_kind kind)
{
	const struct tar_item *it = find_item(g, path);
	if (!it)
		fail_msg("%s is not in the dump", path);
	assert_int_equal(it->kind, kind);
	return it;
}

static void build_from_dump(void **state)
{
	_cleanup_free_ char *root = fixture_root("systemd-desktop");
	struct probe_opts opts = { .root = root, .trace = true };
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(probe_collect(&opts, &rec, &rf, &error), 0);

	struct gather g;
	assert_int_equal(gather_build(rec, rf, 1700000000, &g, &error), 0);
	assert_int_equal(g.unreadable, 0);

	/* files read, with their bytes */
	assert_string_equal(item_of(&g, "proc/1/comm", TAR_FILE)->data, "systemd\n");
	assert_non_null(strstr(item_of(&g, "proc/1500/stat", TAR_FILE)->data, "(gnome-shell)"));
	/* symlinks followed, and directories listed with placeholders of each entry */
	assert_string_equal(item_of(&g, "proc/self", TAR_SYMLINK)->target, "9001");
	item_of(&g, "proc", TAR_DIR);
	item_of(&g, "proc/9001", TAR_DIR);
	/* the README beside proc/ was never read: not copied */
	assert_null(find_item(&g, "README.md"));

	/* facts from the record */
	const struct tar_item *units = item_of(&g, ".ubtune/units", TAR_FILE);
	assert_non_null(strstr(units->data, "default-target=graphical.target\n"));
	assert_non_null(strstr(units->data, "gdm3.service loaded active running\n"));
	assert_null(strstr(units->data, "plymouth"));
	const struct tar_item *meta = item_of(&g, ".ubtune/gather", TAR_FILE);
	assert_string_equal(meta->data, "version=" UBTUNE_VERSION "\ncreated=2023-11-14T22:13:20Z\nhostname=desktop\nworkdir=/\n"
					"kernel-log-unavailable=this dump has no kernel log (/dmesg: No such file or directory)\n"
					"audit-unavailable=audit rules: `auditctl -l` runs on the live machine only\n");
	json_object *saved = NULL;
	assert_int_equal(jload_string(item_of(&g, ".ubtune/record.json", TAR_FILE)->data, &saved), 0);
	assert_jstr(saved, "services.default_target", "graphical.target");
	json_object_put(saved);
	/* no toolchain or CPUID in that dump, so none in this one */
	assert_null(find_item(&g, ".ubtune/toolchain"));
	assert_null(find_item(&g, ".ubtune/cpuid"));

	/* one entry per path, parents before children */
	for (size_t i = 1; i < g.n; i++)
		assert_true(strcmp(g.items[i - 1].path, g.items[i].path) < 0);
	gather_free(&g);
}

static void record_files(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		"{\"storage\": {\"workdir\": \"/home/ub\"},"
		" \"virt\": {\"cpuid\": {\"hypervisor_bit\": true, \"vendor\": \"KVMKVMKVM\"}},"
		" \"toolchain\": {\"cc\": \"gcc\", \"cc_version\": \"12.2.0\", \"libc\": \"glibc\", \"libc_version\": null},"
		" \"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"measured_cpu\": 0, \"measured_khz\": 1992000},"
		"                      {\"model\": \"Cortex-A76\", \"measured_cpu\": 4, \"measured_khz\": null}]},"
		" \"host\": {\"hostname\": \"rk3568\", \"arch\": \"aarch64\", \"audit\": {\"rules\": 3, \"syscall_rules\": 1}},"
		" \"unavailable\": [{\"area\": \"kernel-log\", \"reason\": \"not readable (/dev/kmsg: Operation not permitted)\"},"
		"                 {\"area\": \"cpu\", \"reason\": \"measured clock of Cortex-A76: CPU 4 is outside this process's CPU set\"}]}");
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	_cleanup_free_ char *root = fixture_root("busybox-board-noisy"), *error = NULL;
	assert_int_equal(rootfs_new(root, &rf), 0);
	struct gather g;
	assert_int_equal(gather_build(rec, rf, 0, &g, &error), 0);
	assert_string_equal(item_of(&g, ".ubtune/cpuid", TAR_FILE)->data, "hypervisor_bit=1\nvendor=KVMKVMKVM\n");
	assert_string_equal(item_of(&g, ".ubtune/toolchain", TAR_FILE)->data, "cc=gcc\ncc_version=12.2.0\nlibc=glibc\n");
	assert_string_equal(item_of(&g, ".ubtune/gather", TAR_FILE)->data,
			    "version=" UBTUNE_VERSION "\ncreated=1970-01-01T00:00:00Z\nhostname=rk3568\narch=aarch64\n"
			    "workdir=/home/ub\nkernel-log-unavailable=not readable (/dev/kmsg: Operation not permitted)\n"
			    /* what only the live probe could find out: the clock and the audit rules */
			    "clock-cpu0=1992000\nclock-why-cpu4=CPU 4 is outside this process's CPU set\n"
			    "audit-rules=3\naudit-syscall-rules=1\n");
	/* the workdir exists in the dump, and services without unit states write none */
	item_of(&g, "home/ub", TAR_DIR);
	item_of(&g, "home", TAR_DIR);
	assert_null(find_item(&g, ".ubtune/units"));
	gather_free(&g);
}

static char *slurp(const char *path)
{
	char *text = NULL;
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	assert_int_equal(rootfs_new("/", &rf), 0);
	assert_int_equal(rootfs_read(rf, path, &text, NULL), 0);
	return text;
}

static void write_archive(const char *path, const struct tar_item *items, size_t n)
{
	_cleanup_free_ char *error = NULL;
	uint64_t written = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(tarball_write(fd, items, n, 1700000000, &written, &error), 0);
	assert_true(written > 0);
	assert_int_equal(close(fd), 0);
}

static void archive_round_trip(void **state)
{
	if (!HAVE_ARCHIVE)
		skip();
	_cleanup_free_ char *tmp = tmproot_new();
	_cleanup_free_ char *tgz = xasprintf("%s/dump.tar.gz", tmp);
	struct tar_item items[] = {
		{ .path = "box", .kind = TAR_DIR },
		{ .path = "box/proc", .kind = TAR_DIR },
		{ .path = "box/proc/uptime", .kind = TAR_FILE, .data = "12.5 40.0\n", .len = 10 },
		{ .path = "box/proc/self", .kind = TAR_SYMLINK, .target = "42" },
		{ .path = "box/proc/empty", .kind = TAR_FILE },
	};
	write_archive(tgz, items, ARRAY_SIZE(items));

	struct unpacked_root u = {0};
	_cleanup_free_ char *error = NULL;
	assert_int_equal(unpacked_root_open(tgz, &u, &error), 1);
	/* a dump packed in its own top directory has its root there */
	_cleanup_free_ char *expect_root = xasprintf("%s/box", u.tmp);
	assert_string_equal(u.root, expect_root);
	assert_string_equal(u.source, tgz);
	_cleanup_free_ char *uptime_path = xasprintf("%s/proc/uptime", u.root), *link_path = xasprintf("%s/proc/self", u.root);
	_cleanup_free_ char *uptime = slurp(uptime_path);
	assert_string_equal(uptime, "12.5 40.0\n");
	char target[16] = {0};
	assert_int_equal(readlink(link_path, target, sizeof(target) - 1), 2);
	assert_string_equal(target, "42");
	/* termination signals wait while the copy exists, and only then */
	sigset_t mask;
	assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &mask), 0);
	assert_true(sigismember(&mask, SIGINT) && sigismember(&mask, SIGTERM));
	_cleanup_free_ char *private = xstrdup(u.tmp);
	unpacked_root_close(&u);
	assert_int_equal(access(private, F_OK), -1);
	assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &mask), 0);
	assert_false(sigismember(&mask, SIGINT) || sigismember(&mask, SIGTERM));

	/* a directory is no archive: nothing to do */
	assert_int_equal(unpacked_root_open(tmp, &u, &error), 0);
	assert_null(u.tmp);
	/* a file that is no archive is an error naming it */
	_cleanup_free_ char *junk = xasprintf("%s/junk.tar.gz", tmp);
	_cleanup_free_ char *cmd = xasprintf("echo not an archive >%s", junk);
	assert_int_equal(system(cmd), 0);
	assert_true(unpacked_root_open(junk, &u, &error) < 0);
	assert_non_null(strstr(error, junk));
	assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &mask), 0);
	assert_false(sigismember(&mask, SIGINT));
	assert_non_null(strstr(error, "not a readable tar archive"));
	assert_int_equal(remove_tree(tmp), 0);
}

/* Archives that try to write outside their directory are refused whole. */
static void hostile_archives(void **state)
{
	if (!HAVE_ARCHIVE)
		skip();
	_cleanup_free_ char *tmp = tmproot_new();
	_cleanup_free_ char *outside = xasprintf("%s/outside", tmp), *tgz = xasprintf("%s/evil.tar.gz", tmp);
	assert_int_equal(mkdir(outside, 0755), 0);
	struct tar_item dotdot[] = { { .path = "proc/../../outside/x", .kind = TAR_FILE, .data = "x", .len = 1 } };
	struct tar_item absolute[] = { { .path = "/tmp/ubtune-evil", .kind = TAR_FILE, .data = "x", .len = 1 } };
	struct tar_item through_link[] = {
		{ .path = "escape", .kind = TAR_SYMLINK, .target = outside },
		{ .path = "escape/x", .kind = TAR_FILE, .data = "x", .len = 1 },
	};
	const struct {
		struct tar_item *items;
		size_t n;
		const char *error;
	} cases[] = {
		{ dotdot, 1, "unsafe entry name 'proc/../../outside/x'" },
		{ absolute, 1, "unsafe entry name '/tmp/ubtune-evil'" },
		{ through_link, 2, "Cannot extract through symlink" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		write_archive(tgz, cases[i].items, cases[i].n);
		struct unpacked_root u = {0};
		_cleanup_free_ char *error = NULL;
		assert_true(unpacked_root_open(tgz, &u, &error) < 0);
		assert_non_null(strstr(error, cases[i].error));
		assert_null(u.tmp);
		_cleanup_free_ char *x = xasprintf("%s/x", outside);
		assert_int_equal(access(x, F_OK), -1);
	}
	assert_int_equal(access("/tmp/ubtune-evil", F_OK), -1);

	/* one entry too many (the same directory again and again, quick to unpack) */
	struct tar_item *many = xcalloc(TARBALL_MAX_ENTRIES + 1, sizeof(*many));
	for (size_t i = 0; i <= TARBALL_MAX_ENTRIES; i++)
		many[i] = (struct tar_item){ .path = "proc", .kind = TAR_DIR };
	write_archive(tgz, many, TARBALL_MAX_ENTRIES + 1);
	free(many);
	struct unpacked_root u = {0};
	_cleanup_free_ char *error = NULL;
	assert_true(unpacked_root_open(tgz, &u, &error) < 0);
	_cleanup_free_ char *want = xasprintf("more than %d entries", TARBALL_MAX_ENTRIES);
	assert_non_null(strstr(error, want));
	assert_null(u.tmp);
	assert_int_equal(remove_tree(tmp), 0);
}

static void remove_tree_keeps_link_targets(void **state)
{
	_cleanup_free_ char *tmp = tmproot_new();
	_cleanup_free_ char *cmd = xasprintf("set -e; cd %s; mkdir -p keep tree/a/b; echo data >keep/file;"
					     "ln -s ../../keep tree/a/link; ln -s %s/keep/file tree/a/b/abs; touch tree/a/b/f",
					     tmp, tmp);
	assert_int_equal(system(cmd), 0);
	_cleanup_free_ char *tree = xasprintf("%s/tree", tmp), *kept = xasprintf("%s/keep/file", tmp);
	assert_int_equal(remove_tree(tree), 0);
	assert_int_equal(access(tree, F_OK), -1);
	assert_int_equal(access(kept, F_OK), 0);
	assert_int_equal(remove_tree(tmp), 0);
}

/* A dump's FIFO, socket or device where a file belongs is refused at
 * once: reading it would wait for ever or read the machine's device. */
static void dump_special_files(void **state)
{
	_cleanup_free_ char *tmp = tmproot_new();
	_cleanup_free_ char *cmd = xasprintf("set -e; cd %s; mkdir -p proc dev; mkfifo proc/cpuinfo; echo 1 >proc/ok;"
					     "python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"dev/sock\")'",
					     tmp);
	assert_int_equal(system(cmd), 0);
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	assert_int_equal(rootfs_new(tmp, &rf), 0);
	char *text = NULL;
	assert_int_equal(rootfs_read(rf, "/proc/cpuinfo", &text, NULL), -EINVAL);
	assert_int_equal(rootfs_read(rf, "/dev/sock", &text, NULL), -ENXIO);
	assert_int_equal(rootfs_read(rf, "/proc/ok", &text, NULL), 0);
	assert_string_equal(text, "1\n");
	free(text);
	assert_int_equal(remove_tree(tmp), 0);
}

static void kernel_log_text(void **state)
{
	_cleanup_free_ char *a = klog_strip("6,1,2,-;[drm] Initialized\n SUBSYSTEM=pci\n<6>[    1.500000] kvm [1]: VHE mode\n"
					    "[    0.000000] Booting Linux\n<IRQ>\n Call Trace:\nplain\n");
	assert_string_equal(a, "[drm] Initialized\nkvm [1]: VHE mode\nBooting Linux\n<IRQ>\n Call Trace:\nplain\n");
	/* a dump keeps stripped text: reading it strips nothing more */
	_cleanup_free_ char *b = klog_strip(a);
	assert_string_equal(b, a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_from_dump),    cmocka_unit_test(record_files),
		cmocka_unit_test(archive_round_trip), cmocka_unit_test(hostile_archives),
		cmocka_unit_test(remove_tree_keeps_link_targets), cmocka_unit_test(kernel_log_text),
		cmocka_unit_test(dump_special_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
