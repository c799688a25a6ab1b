/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The diagnosis rules over what a run measured while it ran: the measured
 * clock of each test, and the background activity during it.
 */
#include "diagtest.h"

/* Runs a rule: its confidence, and the text (reason, normal or unchecked note). */
static char *outcome(const char *id, json_object *rec, enum diag_confidence *conf, struct strv *evidence)
{
	struct diagnosis d;
	rule_on(id, rec, &d);
	*conf = d.confidence;
	char *text = xstrdup(d.confidence ? d.reason : d.normal ?: d.unchecked ?: "");
	if (evidence)
		for (size_t i = 0; i < d.evidence.n; i++)
			strv_push(evidence, d.evidence.v[i]);
	diagnosis_clear(&d);
	return text;
}

/* A bench record: 1 and 4 copies of Dhrystone and Pipe, each test's clock
 * measured after it as given (kHz, and what cpufreq said beside it). */
static json_object *clocked(const char *env, unsigned one_khz, unsigned four_khz, unsigned cur_khz)
{
	json_object *rec = result_new();
	static const double idx[DIAG_NTESTS] = { 1000, 0, 0, 0, 0, 0, 400 };
	result_add_run(rec, 1, idx);
	result_add_run(rec, 4, idx);
	jset_int(rec, "online_cpus", 4);
	result_env(rec, env);
	json_object *runs = jpath(rec, "runs");
	for (size_t r = 0; r < 2; r++) {
		json_object *tests = jpath(json_object_array_get_idx(runs, r), "tests");
		for (size_t i = 0; i < jarr_len(tests); i++) {
			_cleanup_free_ char *lit = xasprintf("{\"after\": [{\"cpu\": 0, \"measured_khz\": %u, \"cur_khz\": %u}]}",
							     r ? four_khz : one_khz, cur_khz);
			jset(json_object_array_get_idx(tests, i), "clock", json_lit(lit));
		}
	}
	return rec;
}

#define ARM_BOARD "{\"virt\": {\"role\": \"host\"}, \"cpu\": {\"model\": \"Cortex-A72\", \"kinds\": [{\"model\": " \
		  "\"Cortex-A72\", \"cpus\": \"0-3\", \"measured_cpu\": 0, \"max_khz\": 1500000}]}}"
#define X86_BOOST "{\"virt\": {\"role\": \"host\"}, \"cpu\": {\"model\": \"Xeon\", \"freq\": {\"boost\": true}, " \
		  "\"kinds\": [{\"model\": \"Xeon\", \"cpus\": \"0-3\", \"measured_cpu\": 0, \"max_khz\": 3700000}]}}"

static void measured_clock(void **state)
{
	enum diag_confidence conf;
	struct strv ev = {0};

	/* capped below what cpufreq says: the firmware's cap, high confidence */
	_cleanup_json_ json_object *capped = clocked(ARM_BOARD, 1500000, 600000, 1500000);
	_cleanup_free_ char *a = outcome("diag.measured-clock", capped, &conf, &ev);
	assert_int_equal(conf, DC_HIGH);
	assert_non_null(strstr(a, "the 4-copy pass ran at 600 MHz in 100 % of its tests, 40 % of the 1500 MHz the "
				  "Cortex-A72 reaches"));
	assert_non_null(strstr(a, "cpufreq did not see it"));
	assert_true(strv_contains(&ev, "cpufreq said 1500 MHz at the same moments"));
	strv_free(&ev);

	/* by the tests' times: Dhrystone (23 s) low, Pipe Throughput (2 s) at the maximum */
	_cleanup_json_ json_object *timed = clocked(ARM_BOARD, 1500000, 600000, 1500000);
	jset_double(jpath(timed, "runs.1.tests.0"), "time_s", 23);
	jset_double(jpath(timed, "runs.1.tests.1"), "time_s", 2);
	jset(jpath(timed, "runs.1.tests.1"), "clock",
	     json_lit("{\"after\": [{\"cpu\": 0, \"measured_khz\": 1500000, \"cur_khz\": 1500000}]}"));
	_cleanup_free_ char *t = outcome("diag.measured-clock", timed, &conf, NULL);
	assert_int_equal(conf, DC_HIGH);
	assert_non_null(strstr(t, "the 4-copy pass ran at 600 MHz for 92 % of its time"));
	/* low tests at different clocks: the range */
	jset(jpath(timed, "runs.1.tests.1"), "clock",
	     json_lit("{\"after\": [{\"cpu\": 0, \"measured_khz\": 900000, \"cur_khz\": 1500000}]}"));
	_cleanup_free_ char *r = outcome("diag.measured-clock", timed, &conf, NULL);
	assert_int_equal(conf, DC_HIGH);
	assert_non_null(strstr(r, "ran at 600-900 MHz for 100 % of its time"));

	/* low, and cpufreq knew (a governor that stayed low): medium */
	_cleanup_json_ json_object *slow = clocked(ARM_BOARD, 1500000, 600000, 600000);
	_cleanup_free_ char *b = outcome("diag.measured-clock", slow, &conf, NULL);
	assert_int_equal(conf, DC_MEDIUM);
	assert_non_null(strstr(b, "did not reach its maximum under load"));

	/* all cores of a CPU with boost at 80 % of the single-core maximum: its all-core turbo */
	_cleanup_json_ json_object *x86 = clocked(X86_BOOST, 3700000, 3000000, 3000000);
	_cleanup_free_ char *c = outcome("diag.measured-clock", x86, &conf, NULL);
	assert_int_equal(conf, DC_NONE);
	assert_non_null(strstr(c, "4 copies: Xeon at 3000 MHz or more (81 % of its maximum)"));

	/* a guest: its host's clock, with no maximum to hold it against */
	_cleanup_json_ json_object *guest = clocked("{\"virt\": {\"role\": \"guest\"}, \"cpu\": {\"kinds\": [{\"model\": "
						    "\"AMD EPYC\", \"cpus\": \"0-1\", \"measured_cpu\": 0, \"max_khz\": null}]}}",
						    3600000, 3600000, 0);
	_cleanup_free_ char *g = outcome("diag.measured-clock", guest, &conf, NULL);
	assert_int_equal(conf, DC_NONE);
	assert_non_null(strstr(g, "a guest measures its host's clock"));

	/* a run that measured nothing */
	_cleanup_json_ json_object *plain = result_new();
	static const double idx[DIAG_NTESTS] = { 1000 };
	result_add_run(plain, 1, idx);
	_cleanup_free_ char *p = outcome("diag.measured-clock", plain, &conf, NULL);
	assert_int_equal(conf, DC_NONE);
	assert_non_null(strstr(p, "the run did not measure it"));
}

static void background(void **state)
{
	enum diag_confidence conf;
	struct strv ev = {0};
	_cleanup_json_ json_object *rec = clocked(ARM_BOARD, 1500000, 1500000, 1500000);
	json_object *dhry = jpath(rec, "runs.1.tests.0");
	jset(dhry, "background", json_lit("{\"samples\": 10, \"sys_pct\": 12.5, \"iowait_pct\": 0, \"steal_pct\": 0, "
					  "\"others_pct\": 25, \"busiest\": \"cc1 (pid 42)\", \"untrusted\": [\"others\", \"sys\"]}"));
	jset(jpath(rec, "runs.1.tests.1"), "background",
	     json_lit("{\"samples\": 10, \"sys_pct\": 90, \"untrusted\": []}"));
	_cleanup_free_ char *a = outcome("diag.background", rec, &conf, &ev);
	assert_int_equal(conf, DC_LOW);
	assert_non_null(strstr(a, "1 of 2 tests ran while the machine did other work"));
	assert_true(strv_contains(&ev, "Dhrystone 2 using register variables, 4 copies: other processes 25 %, kernel time "
				       "12 %; busiest: cc1 (pid 42)"));
	strv_free(&ev);

	jset(dhry, "background", json_lit("{\"samples\": 10, \"untrusted\": []}"));
	_cleanup_free_ char *b = outcome("diag.background", rec, &conf, NULL);
	assert_int_equal(conf, DC_NONE);
	assert_non_null(strstr(b, "no test shared the machine beyond the thresholds (2 tests sampled)"));
}

static void kernel_events(void **state)
{
	enum diag_confidence conf;
	struct strv ev = {0};
	_cleanup_json_ json_object *rec = clocked(ARM_BOARD, 1500000, 1500000, 1500000);
	jset(rec, "sampler", json_lit("{\"count\": 10}"));
	jset(rec, "kernel_log", json_lit("{\"source\": \"/dev/kmsg\", \"marker\": null, \"read\": true, \"error\": null}"));
	jset(rec, "events", json_lit("[]"));
	_cleanup_free_ char *none = outcome("diag.kernel-events", rec, &conf, NULL);
	assert_int_equal(conf, DC_NONE);
	assert_non_null(strstr(none, "the kernel logged no OOM kill"));

	jset(rec, "events", json_lit("[{\"kind\": \"low-clock\", \"message\": \"CPU 0 ran at 600 MHz\"},"
				     " {\"kind\": \"kernel-voltage\", \"message\": \"kernel: hwmon hwmon1: Undervoltage detected!\"}]"));
	_cleanup_free_ char *volt = outcome("diag.kernel-events", rec, &conf, &ev);
	assert_int_equal(conf, DC_MEDIUM);
	assert_non_null(strstr(volt, "the kernel logged 1 event during the run"));
	assert_true(strv_contains(&ev, "kernel: hwmon hwmon1: Undervoltage detected!"));
	strv_free(&ev);

	jset(rec, "events", json_lit("[{\"kind\": \"kernel-oom\", \"message\": \"kernel: Out of memory: Killed process 9 (sh)\"}]"));
	_cleanup_free_ char *oom = outcome("diag.kernel-events", rec, &conf, NULL);
	assert_int_equal(conf, DC_HIGH);
	assert_non_null(strstr(oom, "a process was killed or stalled"));

	/* placed in the test it fell in: that test is named, and only it is affected */
	jset(rec, "events", json_lit("[{\"kind\": \"kernel-thermal\", \"test\": \"dhry2reg\", \"copies\": 16, "
				     "\"message\": \"kernel: CPU3: Core temperature above threshold, cpu clock throttled "
				     "(during Dhrystone 2 using register variables, 16 copies)\"}, "
				     "{\"kind\": \"kernel-oom\", \"test\": \"shell8\", \"copies\": 16, \"message\": "
				     "\"kernel: Out of memory: Killed process 4242 (sh) (during Shell Scripts (8 concurrent), "
				     "16 copies)\"}]"));
	struct diagnosis d;
	rule_on("diag.kernel-events", rec, &d);
	assert_int_equal(d.confidence, DC_HIGH);
	assert_string_equal(d.reason, "the kernel logged 2 events during the run, the worst an OOM kill during Shell "
				      "Scripts (8 concurrent), 16 copies; a process was killed or stalled, or the machine "
				      "failed");
	assert_int_equal(d.affects, DT(DT_DHRY) | DT(DT_SH8));
	assert_int_equal(d.evidence.n, 2);
	diagnosis_clear(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measured_clock),
		cmocka_unit_test(background),
		cmocka_unit_test(kernel_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
