/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Init scripts: what a script's text says, which entries are services,
 * whether their daemons run; running programs with a timeout. */
#include <errno.h>
#include <signal.h>

#include "lib/spawn.h"
#include "probe/initscripts.h"
#include "probetest.h"
#include "tune/services.h"

static void parse(const char *name, const char *text, struct initscript *s)
{
	*s = (struct initscript){ .name = xstrdup(name) };
	initscript_parse(text, s);
}

/* buildroot's layout: start-stop-daemon with -p and -x, no status */
static void buildroot_script(void **state)
{
	struct initscript s;
	parse("syslogd",
	      "#!/bin/sh\ncase \"$1\" in\n  start)\n\tprintf \"Starting syslogd: \"\n"
	      "\tstart-stop-daemon -S -q -b -m -p /var/run/syslogd.pid -x /sbin/syslogd -- -n\n\t;;\n"
	      "  stop)\n\tstart-stop-daemon -K -q -p /var/run/syslogd.pid\n\t;;\n"
	      "  restart|reload)\n\t\"$0\" stop\n\t\"$0\" start\n\t;;\n  *)\n\techo \"Usage: $0 {start|stop|restart}\"\n\texit 1\nesac\n",
	      &s);
	assert_string_equal(s.daemon, "syslogd");
	assert_true(s.daemon_named);
	assert_string_equal(s.pidfile, "/var/run/syslogd.pid");
	/* "{start|stop|restart}" in the usage line is no status verb */
	assert_false(s.has_status);
	initscript_clear(&s);

	/* newer buildroot: variables, and the daemon's own -p 2222 (a port) is no pidfile */
	parse("dropbear",
	      "#!/bin/sh\nDAEMON=\"dropbear\"\nPIDFILE=\"/var/run/$DAEMON.pid\"\nDROPBEAR_ARGS=\"-R -p 2222\"\n"
	      "start() {\n\tstart-stop-daemon -S -q -p \"$PIDFILE\" --exec \"/usr/sbin/$DAEMON\" -- -p 2222\n}\n",
	      &s);
	assert_string_equal(s.daemon, "dropbear");
	assert_string_equal(s.pidfile, "/var/run/dropbear.pid");
	initscript_clear(&s);
}

/* sysvinit with LSB headers, NAME/DAEMON/PIDFILE and a status verb */
static void lsb_script(void **state)
{
	struct initscript s;
	parse("cron",
	      "#!/bin/sh\n### BEGIN INIT INFO\n# Provides: cron\n### END INIT INFO\n"
	      "PATH=/bin:/usr/bin:/sbin:/usr/sbin\nNAME=cron\nDAEMON=/usr/sbin/$NAME\nPIDFILE=/var/run/${NAME}d.pid\n"
	      "test -x $DAEMON || exit 0\n. /lib/lsb/init-functions\n"
	      "case \"$1\" in\nstart) start-stop-daemon --start --quiet --pidfile $PIDFILE --name cron --startas $DAEMON ;;\n"
	      "status)\n\tstatus_of_proc -p $PIDFILE $DAEMON $NAME && exit 0 || exit $?\n\t;;\nesac\n",
	      &s);
	assert_string_equal(s.daemon, "cron");
	assert_string_equal(s.pidfile, "/var/run/crond.pid");
	assert_true(s.has_status);
	initscript_clear(&s);

	/* status as one of several labels */
	parse("x", "case \"$1\" in\n  restart|status|force-reload) : ;;\nesac\n", &s);
	assert_true(s.has_status);
	initscript_clear(&s);
}

/* OpenRC scripts: command=, pidfile= with ${RC_SVCNAME}; openrc-run answers status */
static void openrc_script(void **state)
{
	struct initscript s;
	parse("chronyd",
	      "#!/sbin/openrc-run\ncommand=\"/usr/sbin/chronyd\"\npidfile=\"/run/${RC_SVCNAME}.pid\"\n"
	      "depend() {\n\tneed net\n}\n",
	      &s);
	assert_string_equal(s.daemon, "chronyd");
	assert_string_equal(s.pidfile, "/run/chronyd.pid");
	assert_true(s.has_status);
	initscript_clear(&s);
}

/* What cannot be known is not guessed: the daemon falls back to the name */
static void hostile_scripts(void **state)
{
	struct initscript s;
	parse("weird",
	      "PIDFILE=$(mktemp)\nDAEMON=`which foo`\nA=$B\nB=$A\npidfile=$A\necho -n status\n"
	      "start-stop-daemon -K -p /var/run/../../etc/shadow.pid\nstart-stop-daemon -K -p /var/run/x\n",
	      &s);
	assert_null(s.pidfile);
	assert_string_equal(s.daemon, "weird");
	assert_false(s.daemon_named);
	assert_false(s.has_status);
	initscript_clear(&s);

	/* the kernel keeps 15 characters of a process name */
	parse("long", "DAEMON=/usr/bin/a-very-long-daemon-name\n", &s);
	assert_string_equal(s.daemon, "a-very-long-dae");
	initscript_clear(&s);

	/* unterminated quotes and a script of only blanks */
	parse("q", "DAEMON=\"/usr/sbin/food\nstart-stop-daemon -x 'bar\n", &s);
	assert_string_equal(s.daemon, "food");
	initscript_clear(&s);
	parse("empty", "", &s);
	assert_string_equal(s.daemon, "empty");
	assert_null(s.pidfile);
	initscript_clear(&s);
}

static void entry_names(void **state)
{
	static const struct {
		const char *entry, *name;
	} cases[] = {
		{ "S50dropbear", "dropbear" }, { "S01syslogd", "syslogd" }, { "cron", "cron" },
		{ "hwclock.sh", "hwclock.sh" }, { "rcS", NULL }, { "rcK", NULL }, { "K20nfs", NULL },
		{ "README", NULL }, { "skeleton", NULL }, { "functions", NULL }, { "cron.dpkg-old", NULL },
		{ "cron~", NULL }, { ".depend.start", NULL }, { "S99rc.local", NULL }, { "S99", "S99" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *n = initscript_name(cases[i].entry);
		if (!streq_ptr(n, cases[i].name))
			fail_msg("%s: got %s, want %s", cases[i].entry, n ?: "(null)", cases[i].name ?: "(null)");
	}
	assert_true(initscript_is_boot("localmount"));
	assert_true(initscript_is_boot("network"));
	assert_true(initscript_is_boot("net.eth0"));
	assert_true(initscript_is_boot("umountfs"));
	assert_true(initscript_is_boot("watchdog"));
	assert_false(initscript_is_boot("dropbear"));
	assert_false(initscript_is_boot("cupsd"));
}

static void script_patterns(void **state)
{
	static const char *const cases[][2] = {
		{ "cups.service", "cups" }, { "S50dropbear", "dropbear" }, { "cups*", "cups*" },
		{ "irqbalance", "irqbalance" }, { "S??dropbear", "S??dropbear" }, { "apt-daily.timer", "apt-daily.timer" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *p = svc_script_pattern(cases[i][0]);
		assert_string_equal(p, cases[i][1]);
	}
	struct strv pats = {0};
	strv_push(&pats, "net*");
	strv_push(&pats, "localmount");
	assert_int_equal(svc_script_matches(&pats, "networking"), SVC_MATCH_BOOT_GLOB);
	assert_int_equal(svc_script_matches(&pats, "netdata"), SVC_MATCH);
	assert_int_equal(svc_script_matches(&pats, "localmount"), SVC_MATCH);
	assert_int_equal(svc_script_matches(&pats, "cron"), SVC_MATCH_NONE);
	strv_free(&pats);
}

static void put_process(const char *root, int pid, const char *comm)
{
	_cleanup_free_ char *path = xasprintf("proc/%d/stat", pid);
	_cleanup_free_ char *stat = xasprintf("%d (%s) S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 9 0 0", pid, comm);
	tmproot_write(root, path, stat);
}

/* A root's scripts: S?? wins over a plain name, pidfile before process name */
static void scripts_of_a_root(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "etc/init.d/S50dropbear", "start-stop-daemon -S -p /var/run/dropbear.pid -x dropbear");
	tmproot_write(root, "etc/init.d/dropbear", "#!/bin/sh\n");
	tmproot_write(root, "etc/init.d/S40ntpd", "start-stop-daemon -S -p /var/run/ntpd.pid -x ntpd");
	tmproot_write(root, "etc/init.d/S45crond", "DAEMON=/usr/sbin/crond");
	tmproot_write(root, "etc/init.d/rcS", "for i in /etc/init.d/S??*; do $i start; done");
	tmproot_write(root, "var/run/dropbear.pid", "431");
	/* ntpd's pidfile names a pid that now belongs to another program */
	tmproot_write(root, "var/run/ntpd.pid", "500");
	put_process(root, 431, "dropbear");
	put_process(root, 500, "sh");
	put_process(root, 612, "crond");
	struct rootfs *rf;
	assert_int_equal(rootfs_new(root, &rf), 0);
	struct initscript *v;
	size_t n;
	assert_int_equal(initscripts_list(rf, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].name, "crond");
	assert_string_equal(v[1].name, "dropbear");
	assert_string_equal(v[1].path, "/etc/init.d/S50dropbear");
	assert_string_equal(v[2].name, "ntpd");
	assert_false(v[1].executable);

	struct proc_table t;
	assert_int_equal(proc_table_read(rf, false, &t), 0);
	int pid = 0;
	assert_int_equal(initscript_running(rf, &v[0], &t, &pid), 1);
	assert_int_equal(pid, 612);
	assert_int_equal(initscript_running(rf, &v[1], &t, &pid), 1);
	assert_int_equal(pid, 431);
	assert_int_equal(initscript_running(rf, &v[2], &t, &pid), 0);
	/* without /proc only a pidfile could tell */
	struct proc_table none = {0};
	assert_int_equal(initscript_running(rf, &v[0], &none, &pid), -ENODATA);
	proc_table_free(&t);
	initscripts_free(v, n);
	rootfs_free(rf);

	/* no /etc/init.d at all */
	char *empty = tmproot_new();
	assert_int_equal(rootfs_new(empty, &rf), 0);
	assert_int_equal(initscripts_list(rf, &v, &n), -ENOENT);
	rootfs_free(rf);
	tmproot_free(empty);
	tmproot_free(root);
}

static void run_capture(void **state)
{
	char *out = NULL;
	const char *echo[] = { "/bin/sh", "-c", "echo out; echo err >&2; pwd; echo $MARK; exit 3", NULL };
	const char *env[] = { "MARK=set", NULL };
	struct spawn_opts o = { .argv = echo, .envp = env, .cwd = "/tmp", .capture = true };
	assert_int_equal(spawn_run(&o, &out), 3);
	assert_string_equal(out, "out\nerr\n/tmp\nset\n");
	free(out);

	/* not captured: nothing to hand back, the status still counts */
	o.capture = false;
	out = NULL;
	assert_int_equal(spawn_run(&o, &out), 3);
	assert_null(out);

	const char *missing[] = { "/nonexistent/program", NULL };
	struct spawn_opts m = { .argv = missing, .capture = true };
	assert_int_equal(spawn_run(&m, &out), -ENOENT);
}

/* A daemon started in the background keeps the pipe open: the run ends
 * when the program does, not when the pipe closes. */
static void run_background_child(void **state)
{
	char *out = NULL;
	const char *argv[] = { "/bin/sh", "-c", "sleep 30 & echo $!", NULL };
	struct spawn_opts o = { .argv = argv, .capture = true, .timeout_s = 20 };
	uint64_t t0 = now_usec();
	assert_int_equal(spawn_run(&o, &out), 0);
	assert_true(now_usec() - t0 < 10 * 1000000u);
	int64_t pid;
	assert_int_equal(parse_s64(strstrip(out), &pid), 0);
	assert_int_equal(kill((pid_t)pid, SIGKILL), 0);
	free(out);
}

static void run_timeout(void **state)
{
	char *out = NULL;
	const char *argv[] = { "/bin/sleep", "30", NULL };
	struct spawn_opts o = { .argv = argv, .capture = true, .timeout_s = 1 };
	uint64_t t0 = now_usec();
	assert_int_equal(spawn_run(&o, &out), -ETIMEDOUT);
	assert_true(now_usec() - t0 < 10 * 1000000u);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buildroot_script),  cmocka_unit_test(lsb_script),	 cmocka_unit_test(openrc_script),
		cmocka_unit_test(hostile_scripts),   cmocka_unit_test(entry_names),	 cmocka_unit_test(script_patterns),
		cmocka_unit_test(scripts_of_a_root), cmocka_unit_test(run_capture),	 cmocka_unit_test(run_background_child),
		cmocka_unit_test(run_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
