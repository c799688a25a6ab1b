/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result protocol and the pass runner: copies started together in
 * their own process groups, output parsed, failures named, nothing left. */
#include <errno.h>
#include <math.h>
#include <sys/wait.h>

#include "bench/protocol.h"
#include "bench/runner.h"
#include "testlib.h"

static struct copy_report parse_ok(const char *text)
{
	struct copy_report r;
	char *error = NULL;
	int ret = protocol_parse(text, strlen(text), &r, &error);
	if (ret < 0)
		fail_msg("'%s' did not parse: %s", text, error);
	return r;
}

static char *parse_error_len(const char *text, size_t len)
{
	struct copy_report r;
	char *error = NULL;
	assert_int_equal(protocol_parse(text, len, &r, &error), -EBADMSG);
	assert_non_null(error);
	assert_null(strchr(error, '\n'));
	return error;
}

static char *parse_error(const char *text)
{
	return parse_error_len(text, strlen(text));
}

static void protocol_lines(void **state)
{
	struct copy_report r = parse_ok("COUNT|933516|1|lps\n");
	assert_true(r.has_count && !r.has_time);
	assert_float_equal(r.count, 933516, 0);
	assert_float_equal(r.timebase, 1, 0);
	assert_string_equal(r.unit, "lps");

	/* context1 6.0.0: the parent's COUNT, then the child's one higher; the last wins */
	r = parse_ok("COUNT|26524|1|lps\nCOUNT|26525|1|lps\n");
	assert_float_equal(r.count, 26525, 0);

	/* fstime -c: write, read and copy pairs; the copy phase's (last) wins */
	r = parse_ok("COUNT|812345|0|KBps\nTIME|2.0\nCOUNT|1654321|0|KBps\nTIME|2.0\n"
		     "COUNT|456789|0|KBps\nTIME|30.0\n");
	assert_float_equal(r.count, 456789, 0);
	assert_float_equal(r.time, 30.0, 0);
	assert_float_equal(r.timebase, 0, 0);

	/* whetstone: a fractional rate and its own time; CRLF and unknown keys tolerated */
	r = parse_ok("COUNT|7316.123|0|MWIPS\r\nTIME|9.987\r\nNOTE|calibrated\n");
	assert_float_equal(r.count, 7316.123, 1e-9);
	assert_float_equal(r.time, 9.987, 1e-9);
	assert_string_equal(r.unit, "MWIPS");

	r = parse_ok("COUNT|209|60|lpm");
	assert_float_equal(r.timebase, 60, 0);
}

static void protocol_errors(void **state)
{
	_cleanup_free_ char *e1 = parse_error("COUNT|5|1|lps\nMaster sync error\n");
	assert_string_equal(e1, "the program said: Master sync error");
	_cleanup_free_ char *e2 = parse_error("COUNT|abc|1|lps\n");
	assert_string_equal(e2, "malformed result line 'COUNT|abc|1|lps'");
	_cleanup_free_ char *e3 = parse_error("COUNT|12|1\n");
	assert_non_null(strstr(e3, "COUNT|12|1"));
	_cleanup_free_ char *e4 = parse_error("COUNT|-5|1|lps\n");
	_cleanup_free_ char *e5 = parse_error("COUNT|nan|1|lps\n");
	_cleanup_free_ char *e6 = parse_error("COUNT|5|1|lps\nTIME|soon\n");
	assert_non_null(strstr(e6, "TIME|soon"));
	_cleanup_free_ char *e7 = parse_error("TIME|3.0\n");
	assert_string_equal(e7, "no COUNT line in the program's output");
	_cleanup_free_ char *e8 = parse_error("");
	_cleanup_free_ char *e9 = parse_error_len("COUNT|5|1|lps\0x", 15);
	assert_non_null(strstr(e9, "NUL"));
	_cleanup_free_ char *e10 = parse_error("COUNT|5|1|\n");
	_cleanup_free_ char *e11 = parse_error("COUNT|5|1|averyveryverylongunit\n");

	struct buf long_line = {0};
	buf_puts(&long_line, "COUNT|1|1|lps");
	for (int i = 0; i < PROTOCOL_LINE_MAX; i++)
		buf_puts(&long_line, "0");
	_cleanup_free_ char *e12 = parse_error_len(long_line.s, long_line.len);
	assert_non_null(strstr(e12, "longer than"));
	buf_free(&long_line);
	/* control bytes in a message are not passed to the terminal */
	_cleanup_free_ char *e13 = parse_error("bad \033[31m thing\n");
	assert_null(strchr(e13, '\033'));
}

/* A pass of `sh -c SCRIPT` copies. */
static int run_sh(const char *script, unsigned copies, double timeout, struct pass_outcome *o, char **error)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	extern char **environ;
	struct pass_spec spec = { .argv = argv, .envp = environ, .cwd = "/", .copies = copies, .timeout_s = timeout };
	return runner_pass(&spec, o, error);
}

static void no_children_left(void)
{
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void pass_sums_counts_and_averages_times(void **state)
{
	struct pass_outcome o;
	_cleanup_free_ char *error = NULL;
	/* copy k sleeps a little and reports count 5 (and TIME on one path) */
	assert_int_equal(run_sh("echo 'COUNT|5|1|lps' >&2", 3, 30, &o, &error), 0);
	assert_int_equal(o.ncopies, 3);
	assert_float_equal(o.value.count, 15, 0);
	assert_float_equal(o.value.timebase, 1, 0);
	assert_string_equal(o.unit, "lps");
	double mean = (o.copies[0].elapsed + o.copies[1].elapsed + o.copies[2].elapsed) / 3;
	assert_float_equal(o.value.time, mean, 1e-12);
	for (unsigned i = 0; i < 3; i++)
		assert_true(o.copies[i].elapsed > 0 && o.copies[i].status == 0);
	pass_outcome_free(&o);

	/* a program's own TIME replaces the elapsed time */
	assert_int_equal(run_sh("echo 'COUNT|100|0|KBps' >&2; echo 'TIME|2.5' >&2", 2, 30, &o, &error), 0);
	assert_float_equal(o.value.time, 2.5, 0);
	assert_float_equal(o.value.count, 200, 0);
	assert_float_equal(pass_rate(&o.value), 200, 0);
	pass_outcome_free(&o);
	no_children_left();
}

static void copies_get_their_own_process_groups(void **state)
{
	char dir[] = "/tmp/ubtune-runner-XXXXXX";
	assert_non_null(mkdtemp(dir));
	/* each copy records its pid and process group (field 5 of stat) */
	_cleanup_free_ char *script = xasprintf(
		"set -- $(cat /proc/$$/stat); echo \"$5\" > %s/$$; echo 'COUNT|1|1|lps' >&2", dir);
	struct pass_outcome o;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(run_sh(script, 4, 30, &o, &error), 0);
	pass_outcome_free(&o);

	DIR *d = opendir(dir);
	assert_non_null(d);
	struct strv names = {0};
	assert_int_equal(dir_list_sorted(d, &names), 0);
	closedir(d);
	assert_int_equal(names.n, 4);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", dir, names.v[i]);
		_cleanup_free_ char *cmd = xasprintf("read g < %s && test \"$g\" = %s", p, names.v[i]);
		assert_int_equal(system(cmd), 0);
		unlink(p);
		assert_true(atoi(names.v[i]) != getpgrp());
	}
	strv_free(&names);
	rmdir(dir);
}

/* An affinity pins every copy: each reports the CPUs it may run on. */
static void copies_are_pinned(void **state)
{
	cpu_set_t mine;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	int cpu = 0;
	while (!CPU_ISSET(cpu, &mine))
		cpu++;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	char *argv[] = { "/bin/sh", "-c",
			 "set -- $(grep Cpus_allowed_list /proc/self/status); echo \"COUNT|$(($2 + 1))|1|lps\" >&2", NULL };
	extern char **environ;
	struct pass_spec spec = { .argv = argv, .envp = environ, .cwd = "/", .copies = 2, .timeout_s = 30,
				  .affinity = &one, .affinity_size = sizeof(one) };
	struct pass_outcome o;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(runner_pass(&spec, &o, &error), 0);
	/* both copies on that one CPU: (cpu + 1) each */
	assert_float_equal(o.value.count, 2 * (cpu + 1), 0);
	pass_outcome_free(&o);
	no_children_left();
}

static void elapsed_waits_for_whoever_holds_stderr(void **state)
{
	/* As in Run: a background process that keeps stderr open keeps the
	 * copy's clock running (looper's orphaned last iteration). */
	struct pass_outcome o;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(run_sh("echo 'COUNT|1|1|lps' >&2; sleep 0.4 & exit 0", 1, 30, &o, &error), 0);
	assert_true(o.copies[0].elapsed >= 0.35);
	pass_outcome_free(&o);
	no_children_left();
}

static void failures_are_named(void **state)
{
	struct pass_outcome o;
	char *error = NULL;
	assert_int_equal(run_sh("echo 'Master sync error' >&2; exit 2", 2, 30, &o, &error), -EBADMSG);
	assert_string_equal(error, "copy 1 of 2 failed: Master sync error");
	free(error);

	assert_int_equal(run_sh("echo 'COUNT|1|1|lps' >&2; exit 3", 1, 30, &o, &error), -EBADMSG);
	assert_string_equal(error, "the program exited with status 3");
	free(error);

	assert_int_equal(run_sh("kill -9 $$", 1, 30, &o, &error), -EBADMSG);
	assert_non_null(strstr(error, "killed by signal 9"));
	free(error);

	assert_int_equal(run_sh("echo 'COUNT|x|1|lps' >&2", 1, 30, &o, &error), -EBADMSG);
	assert_string_equal(error, "the program: malformed result line 'COUNT|x|1|lps'");
	free(error);

	char *argv[] = { "/nonexistent/dhry2reg", "10", NULL };
	struct pass_spec spec = { .argv = argv, .envp = (char *[]){ NULL }, .copies = 1, .timeout_s = 30 };
	assert_int_equal(runner_pass(&spec, &o, &error), -EBADMSG);
	assert_non_null(strstr(error, "cannot run /nonexistent/dhry2reg"));
	free(error);
	no_children_left();
}

static void timeout_kills_the_groups(void **state)
{
	struct pass_outcome o;
	_cleanup_free_ char *error = NULL;
	uint64_t t0 = now_usec();
	/* the copy and a grandchild in its group are both killed */
	assert_int_equal(run_sh("sleep 30 & sleep 30", 2, 0.3, &o, &error), -ETIMEDOUT);
	assert_true(now_usec() - t0 < 5000000);
	assert_non_null(strstr(error, "did not finish within"));
	no_children_left();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(protocol_lines),
		cmocka_unit_test(protocol_errors),
		cmocka_unit_test(pass_sums_counts_and_averages_times),
		cmocka_unit_test(copies_get_their_own_process_groups),
		cmocka_unit_test(copies_are_pinned),
		cmocka_unit_test(elapsed_waits_for_whoever_holds_stderr),
		cmocka_unit_test(failures_are_named),
		cmocka_unit_test(timeout_kills_the_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
