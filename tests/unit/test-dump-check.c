/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump_check(): what a dump's proc/ and sys/ may hold before hwloc and the
 * probe read them. */
#include <errno.h>
#include <sys/stat.h>

#include "testlib.h"

static char *make_dump(void)
{
	char *root = xstrdup("/tmp/ubtune-dump.XXXXXX");
	assert_non_null(mkdtemp(root));
	_cleanup_free_ char *cmd = xasprintf("mkdir -p %s/proc %s/sys/devices/system/cpu/cpu0 %s/etc %s/dev && "
					     "echo 'processor : 0' >%s/proc/cpuinfo && "
					     "ln -s ../../devices/system/cpu/cpu0 %s/sys/devices/cpu0",
					     root, root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
	return root;
}

static int check(const char *root, bool *escapes, char **error)
{
	free(*error);
	*error = NULL;
	return dump_check(root, escapes, error);
}

static void dumps_hold_files_dirs_and_links(void **state)
{
	char *root = make_dump(), *error = NULL;
	bool escapes = true;
	assert_int_equal(check(root, &escapes, &error), 0);
	assert_false(escapes);

	/* FIFOs and devices elsewhere (a mounted system's /dev, /etc/initctl)
	 * are not read by hwloc: left to the readers */
	_cleanup_free_ char *dev = xasprintf("%s/dev/fifo", root), *etc = xasprintf("%s/etc/initctl", root);
	assert_int_equal(mkfifo(dev, 0600), 0);
	assert_int_equal(mkfifo(etc, 0600), 0);
	assert_int_equal(check(root, &escapes, &error), 0);

	/* links that climb to the dump's top and back down stay inside, as
	 * do chains of them */
	_cleanup_free_ char *back = xasprintf("%s/sys/back", root), *chain = xasprintf("%s/proc/chain", root);
	assert_int_equal(symlink("../proc/cpuinfo", back), 0);
	assert_int_equal(symlink("../sys/back", chain), 0);
	assert_int_equal(check(root, &escapes, &error), 0);
	assert_false(escapes);

	/* a link out of the dump keeps hwloc away */
	_cleanup_free_ char *abs = xasprintf("%s/proc/device-tree", root), *up = xasprintf("%s/sys/up", root);
	assert_int_equal(symlink("/sys/firmware/devicetree/base", abs), 0);
	assert_int_equal(check(root, &escapes, &error), 0);
	assert_true(escapes);
	assert_int_equal(unlink(abs), 0);
	assert_int_equal(symlink("../../..", up), 0);
	assert_int_equal(check(root, &escapes, &error), 0);
	assert_true(escapes);
	assert_int_equal(unlink(up), 0);

	/* a FIFO in sys/, or a link to the one in dev/, refuses the dump */
	_cleanup_free_ char *link = xasprintf("%s/proc/stat", root);
	assert_int_equal(symlink("../dev/fifo", link), 0);
	assert_int_equal(check(root, &escapes, &error), -EINVAL);
	_cleanup_free_ char *want = xasprintf("%s/proc/stat is a symbolic link to a FIFO, not to a regular file", root);
	assert_string_equal(error, want);
	assert_int_equal(unlink(link), 0);
	_cleanup_free_ char *online = xasprintf("%s/sys/devices/system/cpu/online", root);
	assert_int_equal(mkfifo(online, 0600), 0);
	assert_int_equal(check(root, &escapes, &error), -EINVAL);
	_cleanup_free_ char *want2 = xasprintf("%s is a FIFO, not a regular file", online);
	assert_string_equal(error, want2);
	free(error);
	assert_int_equal(remove_tree(root), 0);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dumps_hold_files_dirs_and_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
