/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measured clock on this machine: every online CPU measured ROUNDS
 * times as the probe measures it, with the median, the spread between
 * measurements and what one measurement costs; beside it what cpufreq and
 * /proc/cpuinfo's "cpu MHz" say. Self-consistency where no fixed
 * instruction rate is given (under qemu -icount, tools/check-vm checks the
 * rate itself).
 *   bench-clock [ROUNDS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/hw.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	if (rounds < 1 || rounds > 10000) {
		fprintf(stderr, "usage: bench-clock [ROUNDS]\n");
		return 2;
	}
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	if (rootfs_new("/", &rf) < 0)
		return 1;
	struct hw_policies pols;
	hw_cpufreq_policies(rf, NULL, &pols);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	printf("%-5s %10s %10s %10s %10s %8s\n", "cpu", "median", "min", "max", "cpufreq", "ms each");
	for (long cpu = 0; cpu < ncpu; cpu++) {
		uint64_t *khz = xcalloc((size_t)rounds, sizeof(*khz));
		double ms = 0;
		uint64_t cur = 0;
		for (int i = 0; i < rounds; i++) {
			struct hw_clock c;
			_cleanup_free_ char *why = NULL;
			if (hw_clock_measure(rf, (unsigned)cpu, hw_policy_of_cpu(&pols, (size_t)cpu), &c, &why) < 0) {
				printf("cpu%-2ld %s\n", cpu, why);
				break;
			}
			khz[i] = c.khz;
			ms += c.ms;
			cur = c.cpufreq_khz;
		}
		qsort(khz, (size_t)rounds, sizeof(*khz), cmp_u64);
		if (khz[0])
			printf("cpu%-2ld %7.1f MHz %6.1f MHz %6.1f MHz %6s %8.2f   spread %.2f %%\n", cpu,
			       (double)khz[rounds / 2] / 1000, (double)khz[0] / 1000, (double)khz[rounds - 1] / 1000,
			       cur ? "" : "-", ms / rounds, 100.0 * (double)(khz[rounds - 1] - khz[0]) / (double)khz[rounds / 2]);
		free(khz);
	}
	hw_policies_free(&pols);
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (startswith(line, "cpu MHz"))
			printf("/proc/cpuinfo %s", line);
	if (f)
		fclose(f);
	return 0;
}
