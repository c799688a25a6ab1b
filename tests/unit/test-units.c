/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The systemd client (lib/units.c) against a mock systemd on a private bus. */
#include <errno.h>

#include "lib/units.h"
#include "mock-systemd.h"
#include "testlib.h"

static const char *const mock_units[] = {
	"--default-target", "graphical.target",
	"--unit", "graphical.target=active/active",
	"--unit", "multi-user.target=active/active",
	"--unit", "cups.service=active/running",
	"--unit", "cups-browsed.service=inactive/dead",
	"--unit", "gdm.service=active/running",
	"--unit", "plymouth-start.service=active/exited",
	"--unit", "apt-daily.timer=active/waiting",
	"--unit", "broken.service=inactive/dead",
	"--job-result", "broken.service=failed",
	"--unit", "stuck.service=active/running",
	"--job-result", "stuck.service=hang",
	NULL,
};

static struct mock_systemd mock;

static int start_mock(const char *const *args)
{
	int r = mock_systemd_start(&mock, args);
	if (r == MOCK_SYSTEMD_SKIP)
		return 0; /* each test skips when no bus is set */
	return r;
}

static int setup(void **state)
{
	return start_mock(mock_units);
}

static int teardown(void **state)
{
	return getenv("DBUS_SYSTEM_BUS_ADDRESS") && mock_systemd_stop(&mock) != 0 ? -1 : 0;
}

static struct units *open_mock(void)
{
	if (!HAVE_SYSTEMD || !getenv("DBUS_SYSTEM_BUS_ADDRESS"))
		skip();
	struct units *u = NULL;
	assert_int_equal(units_open(&u), 0);
	return u;
}

static void assert_state(const struct unit_state *s, const char *name, const char *active, const char *sub)
{
	assert_string_equal(s->name, name);
	assert_string_equal(s->load_state, "loaded");
	assert_string_equal(s->active_state, active);
	assert_string_equal(s->sub_state, sub);
}

/* units_list() with an expected number of matches. */
static struct unit_state *list_expect(struct units *u, const char *const *patterns, size_t expect)
{
	struct unit_state *list = NULL;
	size_t n = 0;
	assert_int_equal(units_list(u, patterns, &list, &n), 0);
	assert_int_equal(n, expect);
	return list;
}

static void default_target(void **state)
{
	_cleanup_units_ struct units *u = open_mock();
	_cleanup_free_ char *t = NULL, *t2 = NULL;
	assert_int_equal(units_default_target(u, &t), 0);
	assert_string_equal(t, "graphical.target");

	assert_int_equal(units_set_default_target(u, "multi-user.target"), 0);
	assert_int_equal(units_default_target(u, &t2), 0);
	assert_string_equal(t2, "multi-user.target");
	assert_int_equal(units_set_default_target(u, "graphical.target"), 0);

	assert_int_equal(units_set_default_target(u, "nosuch.target"), -ENOENT);
	assert_non_null(strstr(units_last_error(u), "nosuch.target"));
	assert_int_equal(units_set_default_target(u, "cups.service"), -EINVAL);
}

static void list_by_patterns(void **state)
{
	_cleanup_units_ struct units *u = open_mock();
	const char *const patterns[] = { "cups*", "plymouth-*", "apt-daily*", "nosuch*", NULL };
	struct unit_state *list = list_expect(u, patterns, 4);
	/* sorted by name, inactive ones included */
	assert_state(&list[0], "apt-daily.timer", "active", "waiting");
	assert_state(&list[1], "cups-browsed.service", "inactive", "dead");
	assert_state(&list[2], "cups.service", "active", "running");
	assert_state(&list[3], "plymouth-start.service", "active", "exited");
	assert_true(unit_state_is_active(&list[2]));
	assert_false(unit_state_is_active(&list[1]));
	unit_state_list_free(list, 4);

	const char *const none[] = { "nosuch*", NULL };
	unit_state_list_free(list_expect(u, none, 0), 0);
}

static void get_one(void **state)
{
	_cleanup_units_ struct units *u = open_mock();
	struct unit_state s = {0};
	assert_int_equal(units_get(u, "gdm.service", &s), 0);
	assert_state(&s, "gdm.service", "active", "running");
	unit_state_free(&s);
	assert_null(s.name);

	assert_int_equal(units_get(u, "nosuch.service", &s), -ENOENT);
	assert_non_null(strstr(units_last_error(u), "nosuch.service"));
	assert_null(s.name);
}

static void stop_and_start(void **state)
{
	_cleanup_units_ struct units *u = open_mock();
	struct unit_state s = {0};

	assert_int_equal(units_stop(u, "cups.service"), 0);
	assert_int_equal(units_get(u, "cups.service", &s), 0);
	assert_state(&s, "cups.service", "inactive", "dead");
	unit_state_free(&s);

	assert_int_equal(units_start(u, "cups.service"), 0);
	assert_int_equal(units_get(u, "cups.service", &s), 0);
	assert_state(&s, "cups.service", "active", "running");
	unit_state_free(&s);

	/* a timer that is started waits for its time */
	assert_int_equal(units_stop(u, "apt-daily.timer"), 0);
	assert_int_equal(units_start(u, "apt-daily.timer"), 0);
	assert_int_equal(units_get(u, "apt-daily.timer", &s), 0);
	assert_state(&s, "apt-daily.timer", "active", "waiting");
	unit_state_free(&s);

	assert_int_equal(units_stop(u, "nosuch.service"), -ENOENT);
}

static void failing_jobs(void **state)
{
	_cleanup_units_ struct units *u = open_mock();
	struct unit_state s = {0};

	assert_int_equal(units_start(u, "broken.service"), -EIO);
	assert_non_null(strstr(units_last_error(u), "'failed'"));
	assert_int_equal(units_get(u, "broken.service", &s), 0);
	assert_string_equal(s.active_state, "failed");
	unit_state_free(&s);

	units_set_job_timeout(u, 200 * 1000);
	uint64_t t0 = now_usec();
	assert_int_equal(units_stop(u, "stuck.service"), -ETIME);
	assert_true(now_usec() - t0 >= 200 * 1000);
	assert_non_null(strstr(units_last_error(u), "stuck.service"));
	/* the connection still works after a timed-out wait */
	assert_int_equal(units_get(u, "gdm.service", &s), 0);
	unit_state_free(&s);
}

/* systemd < 230 has no ListUnitsByPatterns: the client filters ListUnits. */
static void old_systemd(void **state)
{
	if (!HAVE_SYSTEMD || !getenv("DBUS_SYSTEM_BUS_ADDRESS"))
		skip();
	struct mock_systemd saved = mock;
	const char *const args[] = { "--no-list-by-patterns", "--unit", "cups.service=active",
				     "--unit", "avahi-daemon.service=active", "--unit", "cron.service=active", NULL };
	assert_int_equal(mock_systemd_start(&mock, args), 0);
	struct units *u = NULL;
	assert_int_equal(units_open(&u), 0);
	const char *const patterns[] = { "cups*", "avahi-*", NULL };
	struct unit_state *list = list_expect(u, patterns, 2);
	assert_state(&list[0], "avahi-daemon.service", "active", "running");
	assert_state(&list[1], "cups.service", "active", "running");
	unit_state_list_free(list, 2);
	units_close(u);
	assert_int_equal(mock_systemd_stop(&mock), 0);
	mock = saved;
	setenv("DBUS_SYSTEM_BUS_ADDRESS", mock.address, 1);
}

static void no_bus(void **state)
{
	_cleanup_free_ char *saved = getenv("DBUS_SYSTEM_BUS_ADDRESS") ? xstrdup(getenv("DBUS_SYSTEM_BUS_ADDRESS")) : NULL;
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/ubtune-test-bus", 1);
	struct units *u = NULL;
	int r = units_open(&u);
	if (r == 0) {
		_cleanup_free_ char *t = NULL;
		r = units_default_target(u, &t);
		assert_null(t);
		assert_non_null(units_last_error(u));
		units_close(u);
	}
	assert_true(r < 0);
	if (saved)
		setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1);
	else
		unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_target), cmocka_unit_test(list_by_patterns),
		cmocka_unit_test(get_one),	  cmocka_unit_test(stop_and_start),
		cmocka_unit_test(failing_jobs),	  cmocka_unit_test(old_systemd),
		cmocka_unit_test(no_bus),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
