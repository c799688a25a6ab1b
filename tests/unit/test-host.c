/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host area: facts as real kernels give them. */
#include "probetest.h"

/* A booted kernel whose init never set a name says "(none)" (seen in a
 * Debian kernel booted with a busybox initramfs): no name, and /etc/hostname
 * decides when there is one. */
static void hostname_unset(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/sys/kernel/hostname", "(none)");
	json_object *rec = probe_root(root, NULL);
	assert_jnull(rec, "host.hostname");
	assert_true(unavailable_mentions(rec, "host", "not set (the kernel says \"(none)\")"));
	json_object_put(rec);

	tmproot_write(root, "etc/hostname", "rk3568-evb");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "host.hostname", "rk3568-evb");
	assert_false(unavailable_mentions(rec, "host", "hostname"));
	json_object_put(rec);
	tmproot_free(root);
}

static void hostname_set(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/sys/kernel/hostname", "buildroot");
	tmproot_write(root, "etc/hostname", "stale");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "host.hostname", "buildroot");
	json_object_put(rec);

	/* a dump without the kernel's name */
	_cleanup_free_ char *proc_name = xasprintf("%s/proc/sys/kernel/hostname", root);
	assert_int_equal(unlink(proc_name), 0);
	rec = probe_root(root, NULL);
	assert_jstr(rec, "host.hostname", "stale");
	json_object_put(rec);
	tmproot_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostname_unset),
		cmocka_unit_test(hostname_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
