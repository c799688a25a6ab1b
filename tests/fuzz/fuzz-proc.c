/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The /proc text parsers a dump feeds the probe: cpuinfo, mountinfo,
 * mounts, interrupts and the kernel log. The first byte picks the parser
 * (c, m, M, i, k: in that order), the rest is its file.
 */
#include "probe/cpu.h"
#include "probe/numa.h"
#include "probe/probe.h"
#include "probe/storage.h"
#include "tests/fuzz/fuzz.h"

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
	}
	free(text);
	return 0;
}
