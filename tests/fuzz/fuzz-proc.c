/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The /proc and /sys text a dump feeds the probe and a live machine feeds
 * the bench sampler. The first byte picks the parser, the rest is its file:
 *   c  cpuinfo            m  self/mountinfo      M  mounts
 *   i  interrupts         k  the kernel log
 *   s  /proc/stat: the sampler's and preflight's CPU times, the probe's
 *      runnable processes and steal time
 *   p  /proc/PID/stat: the process table of the probe and of the sampler's
 *      busiest other process
 * (hwmon and thermal, read from files: fuzz-hw.c)
 */
#include "bench/procstat.h"
#include "probe/cpu.h"
#include "probe/numa.h"
#include "probe/probe.h"
#include "probe/processes.h"
#include "probe/storage.h"
#include "probe/virt.h"
#include "tests/fuzz/fuzz.h"

static void proc_stat(const char *text)
{
	struct stat_snapshot a = { 0 }, b = { 0 };
	if (stat_parse(text, &a) == 0 && stat_parse(text, &b) == 0) {
		(void)cpu_share_pct(&a.all, &b.all, cpu_part_busy);
		for (size_t i = 0; i < a.ncpu; i++)
			(void)cpu_share_pct(&a.cpu[i], &b.cpu[i], cpu_part_steal);
	}
	stat_snapshot_free(&a);
	stat_snapshot_free(&b);
	int64_t running, blocked;
	(void)proc_stat_counts(text, &running, &blocked);
	double pct;
	(void)virt_parse_steal(text, &pct);
}

static void pid_stat(const char *text)
{
	struct proc_info p;
	if (proc_stat_parse(text, &p) == 0)
		(void)proc_cpu_pct(&p, 1000.0, 100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = fuzz_text(data + 1, size - 1);
	switch (data[0]) {
	case 'c': {
		struct cpuinfo ci = { 0 };
		cpuinfo_parse(text, &ci);
		for (size_t i = 0; i < ci.n; i++)
			(void)cpuinfo_find(&ci, ci.cpus[i].processor);
		cpuinfo_free(&ci);
		break;
	}
	case 'm':
	case 'M': {
		struct mount_table t = { 0 };
		if ((data[0] == 'm' ? mount_table_parse_mountinfo(text, &t) : mount_table_parse_mounts(text, &t)) >= 0)
			(void)mount_table_find(&t, "/var/tmp", false, 0, 0);
		mount_table_free(&t);
		break;
	}
	case 'i': {
		struct irq_table t = { 0 };
		if (irq_table_parse(text, &t) >= 0)
			(void)irq_table_find(&t, 1);
		irq_table_free(&t);
		break;
	}
	case 'k':
		free(klog_strip(text));
		break;
	case 's':
		proc_stat(text);
		break;
	case 'p':
		pid_stat(text);
		break;
	}
	free(text);
	return 0;
}
