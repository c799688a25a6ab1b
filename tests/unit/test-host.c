/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host and toolchain areas: facts as real kernels and compilers give them. */
#include "lib/machine-id.h"
#include "probetest.h"
#if HAVE_SYSTEMD
#include <systemd/sd-id128.h>
#endif

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

/* The machine's id: derived from /etc/machine-id as systemd derives an
 * application's (the value below is Python's hmac of the same bytes), never
 * the machine id itself; a dump's derived one; a damaged file said. */
static void machine_id(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/sys/kernel/hostname", "board");
	json_object *rec = probe_root(root, NULL);
	assert_jnull(rec, "host.machine_id");
	assert_true(unavailable_mentions(rec, "host", "machine id: /etc/machine-id and /var/lib/dbus/machine-id are missing"));
	json_object_put(rec);

	tmproot_write(root, "var/lib/dbus/machine-id", "0123456789abcdef0123456789abcdef\n");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "host.machine_id", "adf6f206413440e0b8044a7bf188c081");
	json_object_put(rec);

	tmproot_write(root, "etc/machine-id", "uninitialized\n");
	rec = probe_root(root, NULL);
	assert_jnull(rec, "host.machine_id");
	assert_true(unavailable_mentions(rec, "host", "machine id: /etc/machine-id is not a machine id"));
	json_object_put(rec);

	/* a dump keeps the derived id */
	tmproot_write(root, ".ubtune/gather", "machine-id=00112233445566778899aabbccddeeff\n");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "host.machine_id", "00112233445566778899aabbccddeeff");
	json_object_put(rec);
	tmproot_free(root);

	assert_false(machine_id_valid("0123456789ABCDEF0123456789abcdef"));
	assert_false(machine_id_valid("00000000000000000000000000000000"));
	assert_false(machine_id_valid("0123456789abcdef"));
#if HAVE_SYSTEMD
	/* the live machine: the same as systemd's own derivation */
	_cleanup_free_ char *raw = NULL;
	sd_id128_t app = SD_ID128_MAKE(1b, f9, 20, eb, 11, 35, 4d, 00, 8f, a5, e6, be, 52, 83, 18, 47), want;
	if (read_file("/etc/machine-id", 64, &raw, NULL) < 0 || sd_id128_get_machine_app_specific(app, &want) < 0)
		return;
	raw[strcspn(raw, "\n")] = '\0';
	char id[MACHINE_ID_LEN + 1];
	machine_id_derive(raw, id);
	char text[SD_ID128_STRING_MAX];
	assert_string_equal(id, sd_id128_to_string(want, text));
#endif
}

/* The first line of `cc --version` as compilers print it. */
static void cc_versions(void **state)
{
	static const struct {
		const char *line, *name, *version;
	} cases[] = {
		{ "gcc (Debian 12.2.0-14) 12.2.0", "gcc", "12.2.0" },
		{ "cc (GCC) 13.2.1 20230801", "gcc", "13.2.1" },
		{ "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0", "gcc", "12.2.0" },
		{ "Debian clang version 14.0.6", "clang", "14.0.6" },
		{ "tcc version 0.9.27 (x86_64 Linux)", "tcc", "0.9.27" },
		{ "gcc (GCC)", "gcc", NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *name = NULL, *version = NULL;
		toolchain_parse_cc_version(cases[i].line, &name, &version);
		assert_string_equal(name, cases[i].name);
		if (cases[i].version)
			assert_string_equal(version, cases[i].version);
		else
			assert_null(version);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostname_unset),
		cmocka_unit_test(hostname_set),
		cmocka_unit_test(machine_id),
		cmocka_unit_test(cc_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
