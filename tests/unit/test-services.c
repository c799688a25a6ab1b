/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Services and processes: parsers, the noise table, the unit-state file, rules. */
#include <errno.h>

#include "mock-systemd.h"
#include "probe/services.h"
#include "probetest.h"

static void stat_lines(void **state)
{
	struct proc_info p;
	assert_int_equal(proc_stat_parse("812 (irqbalance) S 1 812 812 0 -1 4194560 281 0 0 0 150 250 0 0 20 0 1 0 "
					 "1234 10000000 500 18446744073709551615\n", &p), 0);
	assert_int_equal(p.pid, 812);
	assert_string_equal(p.comm, "irqbalance");
	assert_int_equal(p.cpu_ticks, 400);
	assert_int_equal(p.start_ticks, 1234);

	/* comm with blanks and parentheses ends at the last ')' */
	assert_int_equal(proc_stat_parse("77 (tmux: (server)) R 1 77 77 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 99 0 0\n", &p), 0);
	assert_string_equal(p.comm, "tmux: (server)");
	assert_int_equal(p.cpu_ticks, 10);

	/* a hostile comm longer than the kernel keeps is cut, not overrun */
	assert_int_equal(proc_stat_parse("5 (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 9 0 0", &p), 0);
	assert_int_equal(strlen(p.comm), 15);

	assert_int_equal(proc_stat_parse("", &p), -EBADMSG);
	assert_int_equal(proc_stat_parse("12 (short) S 1 2 3", &p), -EBADMSG);
	assert_int_equal(proc_stat_parse("x (bad pid) S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 9 0 0", &p), -EBADMSG);
	assert_int_equal(proc_stat_parse("9 (bad utime) S 1 1 1 0 -1 0 0 0 0 0 x 1 0 0 20 0 1 0 9 0 0", &p), -EBADMSG);
	assert_int_equal(proc_stat_parse("9 no parentheses S 1 1", &p), -EBADMSG);
}

static void cpu_share(void **state)
{
	/* 30 s of CPU time over the 60 s since it started at 40 s after boot */
	struct proc_info p = { .pid = 1, .cpu_ticks = 3000, .start_ticks = 4000 };
	assert_float_equal(proc_cpu_pct(&p, 100.0, 100), 50.0, 1e-9);
	/* started at the moment of reading: nothing to measure over */
	assert_true(proc_cpu_pct(&p, 40.0, 100) < 0);
}

static void runnable_counts(void **state)
{
	int64_t running = -1, blocked = -1;
	assert_int_equal(proc_stat_counts("cpu  1 2 3 4\nctxt 5\nprocs_running 3\nprocs_blocked 1\n", &running, &blocked), 0);
	assert_int_equal(running, 3);
	assert_int_equal(blocked, 1);
	assert_int_equal(proc_stat_counts("cpu  1 2 3 4\n", &running, &blocked), -EBADMSG);
	assert_int_equal(proc_stat_counts("procs_running x\nprocs_blocked 0\n", &running, &blocked), -EBADMSG);
}

static void noise_table_rows(void **state)
{
	for (size_t i = 0; i < noise_table_len; i++) {
		const struct noise *n = &noise_table[i];
		assert_true(n->unit || n->comm);
		assert_non_null(n->reason);
		/* the kernel keeps 15 characters of a process name */
		if (n->comm)
			assert_true(strlen(n->comm) <= 15);
	}
	assert_string_equal(noise_for_unit("plymouth-quit-wait.service")->comm, "plymouthd");
	assert_string_equal(noise_for_unit("apt-daily-upgrade.timer")->comm, "apt.systemd.dai");
	assert_null(noise_for_unit("ssh.service"));
	assert_true(noise_for_comm("thermald")->protective);
	assert_true(noise_for_comm("gnome-shell")->desktop);
	assert_null(noise_for_comm("gnome-shell")->unit);
	assert_null(noise_for_comm("sshd"));
}

static void units_file(void **state)
{
	struct units_file f;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(units_file_parse("# states\ndefault-target=graphical.target\n\n"
					  "cups.service loaded active running\n"
					  "  gdm.service\tloaded active running  \n", &f, &error), 0);
	assert_string_equal(f.default_target, "graphical.target");
	assert_int_equal(f.n, 2);
	assert_string_equal(f.units[1].name, "gdm.service");
	assert_string_equal(f.units[1].sub_state, "running");
	units_file_free(&f);

	assert_int_equal(units_file_parse("default-target=multi-user.target\ncups.service loaded active\n", &f, &error),
			 -EBADMSG);
	assert_string_equal(error, "line 2: expected UNIT LOAD ACTIVE SUB, found 3 fields");

	/* written from a record, read back */
	_cleanup_json_ json_object *rec = json_lit(
		"{\"services\": {\"available\": true, \"default_target\": \"graphical.target\", \"noisy\": ["
		"{\"unit\": \"cups.service\", \"state\": \"active\", \"sub\": \"running\", \"load\": \"loaded\", \"source\": \"unit\"},"
		"{\"unit\": null, \"process\": \"Xorg\", \"pid\": 900, \"state\": \"running\", \"source\": \"process\"}]}}");
	struct env_record env;
	env_of(rec, "the test", &env);
	_cleanup_free_ char *text = units_file_format(&env);
	env_record_free(&env);
	assert_string_equal(text, "# systemd unit states: UNIT LOAD ACTIVE SUB\ndefault-target=graphical.target\n"
				  "cups.service loaded active running\n");
	assert_int_equal(units_file_parse(text, &f, &error), 0);
	assert_int_equal(f.n, 1);
	units_file_free(&f);

	_cleanup_json_ json_object *none = json_lit("{\"services\": {\"available\": false, \"noisy\": []}}");
	env_of(none, "the test", &env);
	assert_null(units_file_format(&env));
	env_record_free(&env);
}

/* Runs one rule by id on a record literal; returns whether it matched. */
static bool run_rule(const char *id, const char *json, struct finding *f)
{
	_cleanup_json_ json_object *rec = json_lit(json);
	return rule_fires(id, rec, f);
}

#define NOISY_REC(entries, target) \
	"{\"services\": {\"available\": true, \"default_target\": " target ", \"noisy\": [" entries "]}}"
#define UNIT(name, sub) \
	"{\"unit\": \"" name "\", \"state\": \"active\", \"sub\": \"" sub "\", \"load\": \"loaded\", " \
	"\"source\": \"unit\", \"protective\": false}"
#define PROC(name, pid, unit, protective) \
	"{\"unit\": " unit ", \"process\": \"" name "\", \"pid\": " #pid ", \"state\": \"running\", " \
	"\"source\": \"process\", \"protective\": " protective "}"

static void rule_noisy(void **state)
{
	struct finding f;
	assert_true(run_rule("services.noisy", NOISY_REC(UNIT("cups.service", "running") "," UNIT("apt-daily.timer", "waiting"),
							 "\"multi-user.target\""), &f));
	assert_int_equal(f.severity, SEV_WARN);
	assert_string_equal(f.evidence, "cups.service active (running), apt-daily.timer active (waiting)");
	assert_non_null(strstr(f.message, "\ncups.service: print server"));
	assert_non_null(strstr(f.message, "\napt-daily.timer: downloads package lists"));
	assert_non_null(strstr(f.fix, "ubtune apply generic.profile"));
	assert_non_null(strstr(f.fix, "systemctl stop cups.service apt-daily.timer"));
	finding_clear(&f);

	/* without systemd: processes, and a desktop session */
	assert_true(run_rule("services.noisy", "{\"services\": {\"available\": false, \"noisy\": ["
					PROC("irqbalance", 812, "\"irqbalance.service\"", "false") ","
					PROC("Xorg", 900, "null", "false") "]}}", &f));
	assert_string_equal(f.evidence, "process irqbalance (pid 812), process Xorg (pid 900)");
	assert_null(strstr(f.fix, "systemctl"));
	assert_non_null(strstr(f.fix, "stop irqbalance for the run through the init system"));
	assert_non_null(strstr(f.fix, "log out of the desktop session (Xorg)"));
	assert_non_null(strstr(f.message, "\nXorg: X server"));
	finding_clear(&f);

	/* only a protective one: not this finding, but the info one */
	const char *thermald = "{\"services\": {\"available\": false, \"noisy\": [" PROC("thermald", 700, "\"thermald.service\"", "true") "]}}";
	assert_false(run_rule("services.noisy", thermald, &f));
	assert_true(run_rule("services.protective", thermald, &f));
	assert_int_equal(f.severity, SEV_INFO);
	assert_non_null(strstr(f.message, "thermald: protects the CPU"));
	finding_clear(&f);

	assert_false(run_rule("services.noisy", NOISY_REC("", "\"multi-user.target\""), &f));
	assert_false(run_rule("services.noisy", "{\"services\": {\"available\": false, \"noisy\": null}}", &f));
}

static void rule_graphical(void **state)
{
	struct finding f;
	assert_true(run_rule("services.graphical-target", NOISY_REC(UNIT("gdm3.service", "running") "," PROC("gnome-shell", 1500, "null", "false"),
								   "\"graphical.target\""), &f));
	assert_int_equal(f.severity, SEV_WARN);
	assert_string_equal(f.evidence, "systemd default target = graphical.target; running: gdm3.service, gnome-shell");
	assert_non_null(strstr(f.fix, "systemctl set-default multi-user.target"));
	finding_clear(&f);

	/* graphical by default, but nothing graphical runs: worth knowing, not a warning */
	assert_true(run_rule("services.graphical-target", NOISY_REC(UNIT("cups.service", "running"), "\"graphical.target\""), &f));
	assert_int_equal(f.severity, SEV_INFO);
	assert_string_equal(f.evidence, "systemd default target = graphical.target");
	finding_clear(&f);

	assert_false(run_rule("services.graphical-target", NOISY_REC("", "\"multi-user.target\""), &f));
	assert_false(run_rule("services.graphical-target", NOISY_REC("", "null"), &f));
}

#define BUSY_REC(running, top, online) \
	"{\"host\": {\"load_avg\": [2.5, 1.0, 0.5]}, \"cpu\": {\"online\": " online "}, " \
	"\"processes\": {\"running\": " #running ", \"top\": [" top "]}}"
#define TOP(comm, pid, pct) "{\"pid\": " #pid ", \"comm\": \"" comm "\", \"cpu_pct\": " #pct "}"

static void rule_busy(void **state)
{
	struct finding f;
	assert_true(run_rule("load.busy", BUSY_REC(2, TOP("stress-ng", 812, 98.5) "," TOP("Xorg", 900, 12.1), "\"0-3\""), &f));
	assert_int_equal(f.severity, SEV_WARN);
	assert_string_equal(f.evidence, "/proc/stat procs_running = 2 besides ubtune; CPU share since start: "
					"stress-ng 98.5 % (pid 812), Xorg 12.1 % (pid 900); load average 2.50");
	finding_clear(&f);

	/* as many runnable as CPUs: every test shares its CPU */
	assert_true(run_rule("load.busy", BUSY_REC(4, TOP("make", 100, 30), "\"0-3\""), &f));
	assert_int_equal(f.severity, SEV_CRIT);
	assert_non_null(strstr(f.message, "4 processes besides ubtune are runnable on 4 CPUs"));
	finding_clear(&f);

	/* a long-running hog counts even when the moment of reading was quiet */
	assert_true(run_rule("load.busy", BUSY_REC(0, TOP("miner", 3, 95), "\"0-3\""), &f));
	assert_int_equal(f.severity, SEV_WARN);
	finding_clear(&f);

	/* one runnable at the moment, nothing busy over time: a passing kworker */
	assert_false(run_rule("load.busy", BUSY_REC(1, TOP("kworker/0:1", 30, 2.0), "\"0-3\""), &f));
	/* busy over time but nothing runnable now and below the hog level */
	assert_false(run_rule("load.busy", BUSY_REC(0, TOP("Xorg", 900, 20), "\"0-3\""), &f));
	/* CPU count unknown: no claim of saturation */
	assert_false(run_rule("load.busy", BUSY_REC(8, "", "null"), &f));
	assert_false(run_rule("load.busy", "{\"processes\": {\"running\": null, \"top\": null}}", &f));
}

/* The noise entry at index i: "unit|process|source". */
static char *noisy_at(json_object *rec, size_t i)
{
	json_object *e = json_object_array_get_idx(jpath(rec, "services.noisy"), i);
	assert_non_null(e);
	return xasprintf("%s|%s|%s", jpath_str(e, "unit") ?: "-", jpath_str(e, "process") ?: "-",
			 jpath_str(e, "source") ?: "-");
}

static void assert_noisy(json_object *rec, const char *const *expected)
{
	size_t n = 0;
	for (; expected[n]; n++) {
		_cleanup_free_ char *got = noisy_at(rec, n);
		assert_string_equal(got, expected[n]);
	}
	assert_int_equal(jpath_len(rec, "services.noisy"), n);
}

static void busybox_dump(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("busybox-board-noisy", NULL);
	assert_false(json_object_get_boolean(jpath(rec, "services.available")));
	assert_jstr(rec, "services.manager", "busybox");
	assert_jnull(rec, "services.default_target");
	const char *const noisy[] = { "irqbalance.service|irqbalance|process", "cups.service|cupsd|process",
				      "thermald.service|thermald|process", "-|Xorg|process", NULL };
	assert_noisy(rec, noisy);
	assert_int_equal(jint(rec, "services.noisy.0.pid"), 300);
	assert_true(json_object_get_boolean(jpath(rec, "services.noisy.2.protective")));

	/* the reader (/proc/self = 4242, "ubtune") is left out */
	assert_int_equal(jint(rec, "processes.total"), 8);
	assert_int_equal(jint(rec, "processes.running"), 2);
	assert_int_equal(jint(rec, "processes.blocked"), 0);
	assert_int_equal(jpath_len(rec, "processes.top"), 2);
	assert_jstr(rec, "processes.top.0.comm", "stress-ng");
	assert_int_equal(jint(rec, "processes.top.0.pid"), 500);
	assert_string_equal(json_object_to_json_string(jpath(rec, "processes.top.0.cpu_pct")), "98");
	assert_string_equal(json_object_to_json_string(jpath(rec, "processes.top.1.cpu_pct")), "8");
	assert_true(unavailable_mentions(rec, "services", "systemd is not PID 1 (busybox init)"));
}

static void systemd_dump(void **state)
{
	_cleanup_json_ json_object *rec = probe_fixture("systemd-desktop", NULL);
	assert_true(json_object_get_boolean(jpath(rec, "services.available")));
	assert_jstr(rec, "services.manager", "systemd");
	assert_jstr(rec, "services.default_target", "graphical.target");
	/* units from the dump's unit states (inactive plymouth left out); cupsd's
	 * process is its unit's, the session processes have no unit */
	const char *const noisy[] = { "avahi-daemon.service|-|unit", "cups.service|-|unit", "gdm3.service|-|unit",
				      "thermald.service|-|unit", "-|Xwayland|process", "-|gnome-shell|process",
				      "-|tracker-miner-f|process", NULL };
	assert_noisy(rec, noisy);
	assert_jstr(rec, "services.noisy.1.sub", "running");
	assert_string_equal(json_object_to_json_string(jpath(rec, "processes.top.0.cpu_pct")), "3.2");
	assert_int_equal(jint(rec, "processes.running"), 0);
}

/* A dump whose unit states are broken says so instead of guessing. */
static void broken_units_file(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/1/comm", "systemd");
	tmproot_write(root, ".ubtune/units", "default-target=graphical.target\nbroken line");
	struct probe_opts opts = { .root = root };
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(probe_collect(&opts, &rec, NULL, &error), 0);
	assert_false(json_object_get_boolean(jpath(rec, "services.available")));
	assert_jnull(rec, "services.default_target");
	assert_true(unavailable_mentions(rec, "services",
					 "/.ubtune/units line 2: expected UNIT LOAD ACTIVE SUB, found 2 fields"));
	tmproot_free(root);
}

/* The live probe asks the systemd on DBUS_SYSTEM_BUS_ADDRESS (a mock here). */
static void live_with_mock_bus(void **state)
{
	const char *const args[] = { "--default-target", "graphical.target", "--unit", "cups.service=active/running",
				     "--unit", "cups-browsed.service=inactive/dead", "--unit", "irqbalance.service=active",
				     "--unit", "apt-daily.timer=active/waiting", "--unit", "ssh.service=active", NULL };
	struct mock_systemd m;
	if (!HAVE_SYSTEMD)
		skip();
	int r = mock_systemd_start(&m, args);
	if (r == MOCK_SYSTEMD_SKIP)
		skip();
	assert_int_equal(r, 0);
	struct probe_opts opts = { .workdir = "/tmp" };
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(probe_collect(&opts, &rec, NULL, &error), 0);
	assert_int_equal(mock_systemd_stop(&m), 0);

	assert_true(json_object_get_boolean(jpath(rec, "services.available")));
	assert_jstr(rec, "services.manager", "systemd");
	assert_jstr(rec, "services.default_target", "graphical.target");
	/* active noise units by name; inactive and unknown ones are not listed */
	assert_jstr(rec, "services.noisy.0.unit", "apt-daily.timer");
	assert_jstr(rec, "services.noisy.0.sub", "waiting");
	assert_jstr(rec, "services.noisy.1.unit", "cups.service");
	assert_jstr(rec, "services.noisy.2.unit", "irqbalance.service");
	for (size_t i = 0; i < jpath_len(rec, "services.noisy"); i++) {
		json_object *e = json_object_array_get_idx(jpath(rec, "services.noisy"), i);
		assert_false(streq_ptr(jpath_str(e, "unit"), "cups-browsed.service"));
		assert_false(streq_ptr(jpath_str(e, "unit"), "ssh.service"));
		if (i > 2)
			assert_string_equal(jpath_str(e, "source"), "process");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_lines),	    cmocka_unit_test(cpu_share),   cmocka_unit_test(runnable_counts),
		cmocka_unit_test(noise_table_rows), cmocka_unit_test(units_file),  cmocka_unit_test(rule_noisy),
		cmocka_unit_test(rule_graphical),   cmocka_unit_test(rule_busy),   cmocka_unit_test(busybox_dump),
		cmocka_unit_test(systemd_dump),	    cmocka_unit_test(broken_units_file),
		cmocka_unit_test(live_with_mock_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
