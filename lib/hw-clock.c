/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clock a CPU really runs at: a calibrated dependent-add loop. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "hw.h"

/*
 * One addition whose result the next one needs. The empty asm tells the
 * compiler x changed in a way it cannot see, so it neither folds the
 * chain into one addition nor reorders it: each is one add instruction.
 */
#define ADD1 x += 1; __asm__ __volatile__("" : "+r"(x));
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8

/* The same loop around 64 and 128 additions: their difference is 64. */
static __attribute__((noinline)) uint64_t chain64(uint64_t n, uint64_t x)
{
	while (n--) {
		ADD64
	}
	return x;
}

static __attribute__((noinline)) uint64_t chain128(uint64_t n, uint64_t x)
{
	while (n--) {
		ADD64
		ADD64
	}
	return x;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds one chain of n iterations takes; *sink keeps its result alive. */
static double timed(uint64_t (*chain)(uint64_t, uint64_t), uint64_t n, uint64_t *sink)
{
	double t0 = mono_s();
	*sink += chain(n, *sink);
	return mono_s() - t0;
}

uint64_t hw_clock_khz(uint64_t n, double short_s, double long_s)
{
	double d = long_s - short_s;
	if (!(d > 0) || n == 0)
		return 0;
	return (uint64_t)llround(64.0 * (double)n / d / 1000.0);
}

struct job {
	struct rootfs *rf;
	const struct hw_policy *pol;
	struct hw_clock *out;
	uint64_t sink;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void *measure(void *arg)
{
	struct job *j = arg;
	double start = mono_s();
	uint64_t n = 16;

	while (mono_s() - start < HW_CLOCK_WARMUP_MS / 1000.0)
		timed(chain128, 256, &j->sink);
	/* iterations for a long chain of at least HW_CLOCK_ROUND_US */
	while (n < (1u << 24) && timed(chain128, n, &j->sink) < HW_CLOCK_ROUND_US / 1e6)
		n *= 2;

	double best_short = INFINITY, best_long = INFINITY;
	uint64_t est[HW_CLOCK_ROUNDS];
	for (int i = 0; i < HW_CLOCK_ROUNDS; i++) {
		double s = timed(chain64, n, &j->sink), l = timed(chain128, n, &j->sink);
		best_short = fmin(best_short, s);
		best_long = fmin(best_long, l);
		est[i] = hw_clock_khz(n, s, l);
	}
	uint64_t khz;
	if (j->pol && hw_policy_cur_khz(j->rf, j->pol, &khz) == 0)
		j->out->cpufreq_khz = khz;
	j->out->khz = hw_clock_khz(n, best_short, best_long);
	qsort(est, HW_CLOCK_ROUNDS, sizeof(*est), cmp_u64);
	uint64_t mid = est[HW_CLOCK_ROUNDS / 2];
	j->out->spread_pct = mid ? 100.0 * (double)(est[HW_CLOCK_ROUNDS - 1] - est[0]) / (double)mid : NAN;
	j->out->ms = (mono_s() - start) * 1000.0;
	return NULL;
}

int hw_clock_measure(struct rootfs *rf, unsigned cpu, const struct hw_policy *pol, struct hw_clock *out, char **error)
{
	*out = (struct hw_clock){0};
	*error = NULL;
	size_t setsize = CPU_ALLOC_SIZE(cpu + 1);
	cpu_set_t *set = CPU_ALLOC(cpu + 1);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(setsize, set);
	/* the CPUs this process may run on: a cpuset cgroup or taskset may
	 * leave out the one asked for */
	size_t allowed_size = CPU_ALLOC_SIZE(CPUSET_MAX);
	cpu_set_t *allowed = CPU_ALLOC(CPUSET_MAX);
	int r = 0;
	if (allowed && sched_getaffinity(0, allowed_size, allowed) == 0 && !CPU_ISSET_S(cpu, allowed_size, allowed)) {
		*error = xasprintf("CPU %u is not among the CPUs this process may run on (taskset, cpuset cgroup)", cpu);
		r = -EPERM;
	}
	if (allowed)
		CPU_FREE(allowed);
	if (r < 0) {
		CPU_FREE(set);
		return r;
	}

	CPU_SET_S(cpu, setsize, set);
	pthread_attr_t attr;
	pthread_t t;
	struct job j = { .rf = rf, .pol = pol, .out = out };
	pthread_attr_init(&attr);
	r = -pthread_attr_setaffinity_np(&attr, setsize, set);
	if (r == 0)
		r = -pthread_create(&t, &attr, measure, &j);
	pthread_attr_destroy(&attr);
	CPU_FREE(set);
	if (r < 0) {
		*error = xasprintf("cannot run a thread on CPU %u: %s", cpu, strerror(-r));
		return r;
	}
	pthread_join(t, NULL);
	if (!out->khz) {
		*error = xasprintf("the timings on CPU %u made no sense (the clock went backwards?)", cpu);
		return -ERANGE;
	}
	return 0;
}
