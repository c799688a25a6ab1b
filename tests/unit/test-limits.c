/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Process limits, seccomp and audit rules on small roots built here, and
 * the findings they raise. */
#include "probe/probe.h"
#include "probetest.h"

static void limits_from_a_root(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n\n"
					 "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n\n");
	tmproot_write(r, "sys/devices/system/cpu/online", "0-1");
	tmproot_write(r, "proc/self/limits",
		      "Limit                     Soft Limit           Hard Limit           Units     \n"
		      "Max cpu time              unlimited            unlimited            seconds   \n"
		      "Max processes             50                   unlimited            processes \n"
		      "Max open files            1024                 524288               files     \n");
	/* cgroup v2: the session allows 40, its parent more */
	tmproot_write(r, "proc/self/cgroup", "0::/user.slice/user-1000.slice/session-2.scope\n");
	tmproot_write(r, "sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope/pids.max", "max\n");
	tmproot_write(r, "sys/fs/cgroup/user.slice/user-1000.slice/pids.max", "40\n");
	tmproot_write(r, "sys/fs/cgroup/user.slice/pids.max", "max\n");
	tmproot_write(r, "proc/sys/kernel/pid_max", "4194304\n");
	tmproot_write(r, "proc/sys/kernel/threads-max", "126764\n");
	tmproot_write(r, "proc/self/status", "Name:\tubtune\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t3\n");
	_cleanup_json_ json_object *rec = probe_root(r, NULL);
	tmproot_free(r);
	assert_int_equal(jint(rec, "host.limits.nproc_soft"), 50);
	assert_jstr(rec, "host.limits.nproc_hard", "unlimited");
	assert_int_equal(jint(rec, "host.limits.pids_max"), 40);
	assert_jstr(rec, "host.limits.pids_max_source", "/sys/fs/cgroup/user.slice/user-1000.slice/pids.max");
	assert_int_equal(jint(rec, "host.limits.pid_max"), 4194304);
	assert_int_equal(jint(rec, "host.limits.threads_max"), 126764);
	assert_jstr(rec, "host.audit.seccomp", "filter");
	assert_int_equal(jint(rec, "host.audit.seccomp_filters"), 3);
	/* a dump: no auditctl to ask */
	assert_jnull(rec, "host.audit.rules");
	assert_true(unavailable_mentions(rec, "host", "audit rules"));

	struct finding f;
	assert_true(rule_fires("host.process-limit", rec, &f));
	/* the soft ulimit is raised for a run: only the hard one counts */
	assert_string_equal(f.evidence, "pids.max of this cgroup = 40; 2 CPUs x 33 processes per Shell Scripts (8 concurrent) "
					"copy = 66");
	finding_clear(&f);
	assert_true(rule_fires("host.seccomp-filter", rec, &f));
	assert_string_equal(f.evidence, "/proc/self/status: Seccomp 2 (filter), Seccomp_filters 3");
	finding_clear(&f);
}

static void limit_findings(void **state)
{
	assert_rule("host.process-limit", "{\"cpu\": {\"threads\": 64}, \"host\": {\"limits\": {\"nproc_hard\": 4096, "
					  "\"pids_max\": \"max\", \"pid_max\": 32768, \"threads_max\": 1000}}}",
		    true,
		    "kernel.threads-max = 1000; 64 CPUs x 33 processes per Shell Scripts (8 concurrent) copy = 2112");
	assert_rule("host.process-limit", "{\"cpu\": {\"threads\": 4}, \"host\": {\"limits\": {\"nproc_hard\": 4096}}}", false,
		    NULL);
	assert_rule("host.process-limit", "{\"host\": {\"limits\": {\"nproc_hard\": 1}}}", false, NULL);
	assert_rule("host.seccomp-filter", "{\"host\": {\"audit\": {\"seccomp\": \"disabled\"}}}", false, NULL);
}

static void audit_rules(void **state)
{
	size_t sys;
	assert_int_equal(audit_count_rules("No rules\n", &sys), 0);
	assert_int_equal(sys, 0);
	const char *listing = "-w /etc/passwd -p wa -k identity\n"
			      "-a always,exit -F arch=b64 -S execve -F key=exec\n"
			      "-a always,exit -F arch=b64 -S open,openat -F exit=-EACCES -F key=access\n"
			      "-a never,task\n";
	assert_int_equal(audit_count_rules(listing, &sys), 4);
	assert_int_equal(sys, 2);
	assert_rule("host.audit-syscall-rules", "{\"host\": {\"audit\": {\"rules\": 4, \"syscall_rules\": 2}}}", true,
		    "auditctl -l: 4 rules, 2 of them on system calls (-S)");
	assert_rule("host.audit-syscall-rules", "{\"host\": {\"audit\": {\"rules\": 1, \"syscall_rules\": 0}}}", false, NULL);
	assert_rule("host.audit-syscall-rules", "{\"host\": {\"audit\": {\"rules\": null, \"syscall_rules\": null}}}", false,
		    NULL);
}

/* The Limits line of the report, from the decoded record: the numbers
 * and words as the record has them. */
static void limits_line(void **state)
{
	_cleanup_json_ json_object *rec = json_lit(
		"{\"host\": {\"limits\": {\"nproc_soft\": 50, \"nproc_hard\": \"unlimited\", \"pids_max\": \"max\", "
		"\"pid_max\": 4194304, \"threads_max\": null}, \"audit\": {\"rules\": 4, \"syscall_rules\": 2, "
		"\"seccomp\": \"filter\"}}}");
	_cleanup_free_ char *text = render_text(limits_render, rec);
	assert_non_null(strstr(text, "ulimit -u 50 · pids.max max · pid_max 4194304 · audit 4 rules (2 on system calls) · "
				     "seccomp filter\n"));
	assert_null(strstr(text, "threads-max"));
	/* seccomp disabled and no audit rules known: nothing to say */
	_cleanup_json_ json_object *quiet = json_lit("{\"host\": {\"audit\": {\"rules\": null, \"seccomp\": \"disabled\"}}}");
	_cleanup_free_ char *none = render_text(limits_render, quiet);
	assert_string_equal(none, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limits_from_a_root),
		cmocka_unit_test(limit_findings),
		cmocka_unit_test(audit_rules),
		cmocka_unit_test(limits_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
