/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run holds for its length: the DMA latency request (written to a
 * stand-in for /dev/cpu_dma_latency), the CPUs of the fastest kind, and
 * the process limit of this test process. */
#include <fcntl.h>
#include <sys/resource.h>

#include "bench/hold.h"
#include "testlib.h"

static void dma_latency(void **state)
{
	char dev[] = "/tmp/ubtune-qos-XXXXXX";
	int tmp = mkstemp(dev);
	assert_true(tmp >= 0);
	close(tmp);
	setenv("UBTUNE_DMA_LATENCY_DEV", dev, 1);
	int fd;
	_cleanup_json_ json_object *q = hold_dma_latency(0, &fd);
	assert_true(fd >= 0);
	bool held;
	assert_true(jpath_bool(q, "held", &held) && held);
	assert_int_equal(jint(q, "requested_us"), 0);
	assert_jstr(q, "device", dev);
	assert_jnull(q, "error");
	close(fd);
	/* the kernel reads a 32-bit binary value */
	int32_t v = -1;
	_cleanup_close_ int rd = open(dev, O_RDONLY | O_CLOEXEC);
	assert_int_equal(read(rd, &v, sizeof(v)), sizeof(v));
	assert_int_equal(v, 0);
	unlink(dev);

	/* no device: not held, and why */
	_cleanup_json_ json_object *none = hold_dma_latency(10, &fd);
	assert_int_equal(fd, -1);
	assert_true(jpath_bool(none, "held", &held) && !held);
	assert_non_null(strstr(jpath_str(none, "error"), "No such file or directory"));
	unsetenv("UBTUNE_DMA_LATENCY_DEV");
}

/* hold_pin_fastest() on the environment record of this JSON text. */
static json_object *pin_of(const char *text, cpu_set_t *set, size_t size, bool *pinned)
{
	_cleanup_json_ json_object *rec = json_lit(text);
	struct env_record env;
	env_of(rec, "the test", &env);
	json_object *pin = hold_pin_fastest(&env, set, size, pinned);
	env_record_free(&env);
	return pin;
}

static void pin_fastest(void **state)
{
	size_t size = CPU_ALLOC_SIZE(64);
	cpu_set_t *set = CPU_ALLOC(64);
	bool pinned;
	_cleanup_json_ json_object *pin =
		pin_of("{\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\", \"fastest\": false},"
		       " {\"model\": \"Cortex-A76\", \"cpus\": \"4-7\", \"fastest\": true}]}}",
		       set, size, &pinned);
	assert_true(pinned);
	assert_int_equal(CPU_COUNT_S(size, set), 4);
	assert_true(CPU_ISSET_S(4, size, set) && CPU_ISSET_S(7, size, set) && !CPU_ISSET_S(3, size, set));
	assert_jstr(pin, "kind", "Cortex-A76");
	assert_jstr(pin, "cpus", "4-7");
	assert_jnull(pin, "note");

	_cleanup_json_ json_object *p1 = pin_of("{\"cpu\": {\"kinds\": [{\"model\": \"Xeon\", \"cpus\": \"0-7\", \"fastest\": true}]}}",
						set, size, &pinned);
	assert_false(pinned);
	assert_jstr(p1, "note", "one kind of core: nothing to pin");
	assert_jnull(p1, "cpus");

	_cleanup_json_ json_object *p2 = pin_of("{\"cpu\": {\"kinds\": [{\"cpus\": \"0-3\"}, {\"cpus\": \"4-7\"}]}}", set, size,
						&pinned);
	assert_false(pinned);
	assert_jstr(p2, "note", "the fastest kind of core is not known");
	CPU_FREE(set);
}

static void nproc(void **state)
{
	struct rlimit saved, rl;
	assert_int_equal(getrlimit(RLIMIT_NPROC, &saved), 0);
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 4096)
		skip();
	/* a soft limit well below what 64 copies of 33 processes need */
	rl = (struct rlimit){ .rlim_cur = 1000, .rlim_max = saved.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_NPROC, &rl), 0);
	_cleanup_json_ json_object *np = hold_nproc(64, 33);
	assert_non_null(np);
	assert_int_equal(jint(np, "soft"), 1000);
	assert_int_equal(jint(np, "needed"), 64 * 33);
	assert_int_equal(getrlimit(RLIMIT_NPROC, &rl), 0);
	assert_true(rl.rlim_cur == saved.rlim_max);
	if (saved.rlim_max == RLIM_INFINITY)
		assert_jstr(np, "raised_to", "unlimited");
	else
		assert_int_equal(jint(np, "raised_to"), (int64_t)saved.rlim_max);

	/* far enough below: left alone */
	rl.rlim_cur = 100000 < saved.rlim_max ? 100000 : saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NPROC, &rl), 0);
	_cleanup_json_ json_object *fine = hold_nproc(2, 1);
	assert_jnull(fine, "raised_to");
	assert_int_equal(setrlimit(RLIMIT_NPROC, &saved), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dma_latency),
		cmocka_unit_test(pin_fastest),
		cmocka_unit_test(nproc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
