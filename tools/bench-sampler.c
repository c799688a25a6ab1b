/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the bench sampler costs on this machine: the CPU time of one
 * reading (many readings back to back, the median of their thread CPU
 * times), then the sampler thread running at its 1 Hz for a while, as
 * `ubtune bench` runs it. Goal: under 0.5 % of one CPU.
 *   bench-sampler [SECONDS]
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/procstat.h"
#include "probe/services.h"
#include "bench/sampler.h"
#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/util.h"

#define READINGS 200

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 20;
	struct rootfs *rf;
	struct sampler *s;
	if (rootfs_new("/", &rf) < 0 || sampler_new(rf, getpid(), &s) < 0) {
		fprintf(stderr, "bench-sampler: cannot read /proc\n");
		return 1;
	}
	struct proc_table procs = {0};
	proc_table_read(rf, rootfs_is_live(rf), &procs);

	/* one reading, many times: its CPU cost */
	static double cost[READINGS];
	for (int i = 0; i < READINGS; i++) {
		double c0 = thread_cpu_s();
		sampler_tick(s, now_s(), time(NULL));
		cost[i] = thread_cpu_s() - c0;
	}
	qsort(cost, READINGS, sizeof(*cost), cmp);
	double median = cost[READINGS / 2];
	sampler_free(s);

	/* the thread at 1 Hz */
	if (sampler_new(rf, getpid(), &s) < 0 || sampler_start(s, 1.0) < 0)
		return 1;
	struct timespec ts = { (time_t)seconds, (long)((seconds - floor(seconds)) * 1e9) };
	nanosleep(&ts, NULL);
	sampler_stop(s);
	json_object *sum = sampler_summary(s);
	double cpu = 0, wall = 0, pct = 0;
	int64_t count = 0;
	jpath_double(sum, "cpu_s", &cpu);
	jpath_double(sum, "wall_s", &wall);
	jpath_double(sum, "cost_pct", &pct);
	jpath_int(sum, "count", &count);

	printf("processes on this machine    %zu\n", procs.n);
	printf("one reading                  %.3f ms CPU (median of %d back to back)\n", median * 1000, READINGS);
	printf("at 1 Hz, from that           %.3f %% of one CPU\n", median * 100);
	printf("sampler thread, %2.0f s at 1 Hz %.3f s CPU over %.1f s: %.3f %% of one CPU (%" PRId64 " readings)\n",
	       seconds, cpu, wall, pct, count);
	printf("goal                         under 0.5 %% of one CPU: %s\n", pct < 0.5 && median * 100 < 0.5 ? "met" : "MISSED");
	json_object_put(sum);
	sampler_free(s);
	proc_table_free(&procs);
	rootfs_free(rf);
	return 0;
}
