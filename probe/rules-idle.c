/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about idle states and devfreq clocks. */
#include <inttypes.h>

#include "findings.h"

/* An exit latency from which a hand-over between two processes (a pipe
 * write that wakes the reader on another CPU) costs more than the work:
 * C1 is 1-2 µs, Intel C6 and ARM cluster sleep 100 µs and more. */
#define DEEP_IDLE_US 50

static bool deep_idle(const struct env_record *env, struct finding *f)
{
	json_object *rec = env->json; /* keys the typed record does not decode yet */
	int64_t lat;
	if (!jpath_int(rec, "cpu.idle.deepest_latency_us", &lat) || lat < DEEP_IDLE_US)
		return false;
	json_object *states = jpath(rec, "cpu.idle.states"), *deep = NULL;
	for (size_t i = 0; i < jarr_len(states); i++) {
		int64_t v;
		bool off = false;
		json_object *s = json_object_array_get_idx(states, i);
		jpath_bool(s, "disabled", &off);
		if (!off && jpath_int(s, "latency_us", &v) && v == lat)
			deep = s;
	}
	int64_t cpu = 0;
	jpath_int(rec, "cpu.idle.cpu", &cpu);
	finding_set(&f->evidence, "cpu%" PRId64 " idle state %s (%s): exit latency %" PRId64 " µs; driver %s", cpu,
		    jpath_str(deep, "name") ?: "?", jpath_str(deep, "desc") ?: "?", lat,
		    jpath_str(rec, "cpu.idle.driver") ?: "unknown");
	return true;
}

/* A memory controller whose clock follows load: not performance, and
 * either below its top clock now or able to go there. */
static bool devfreq_memory_dynamic(const struct env_record *env, struct finding *f)
{
	json_object *rec = env->json; /* keys the typed record does not decode yet */
	json_object *devs = jpath(rec, "power.devfreq");
	for (size_t i = 0; i < jarr_len(devs); i++) {
		json_object *d = json_object_array_get_idx(devs, i);
		const char *gov = jpath_str(d, "governor");
		int64_t cur, max;
		if (!streq_ptr(jpath_str(d, "kind"), "memory") || !gov || streq(gov, "performance"))
			continue;
		bool below = jpath_int(d, "cur_hz", &cur) && jpath_int(d, "max_hz", &max) && cur < max;
		if (streq(gov, "userspace") && !below)
			continue;
		if (!below)
			finding_set(&f->evidence, "%s/governor = %s (at its top clock now)", jpath_str(d, "path"), gov);
		else
			finding_set(&f->evidence, "%s/governor = %s, cur_freq %" PRId64 " MHz of max_freq %" PRId64 " MHz",
				    jpath_str(d, "path"), gov, cur / 1000000, max / 1000000);
		finding_set(&f->fix, "`[devfreq] governor = performance` in a profile, or as root: echo performance > "
				     "%s/governor",
			    jpath_str(d, "path"));
		return true;
	}
	return false;
}

const struct rule idle_rules[] = {
	{
		.id = "cpu.idle-deep-states",
		.area = "cpu",
		.severity = SEV_INFO,
		.message = "Idle CPUs enter states that are slow to leave: on an otherwise idle machine Pipe-based "
			   "Context Switching and Process Creation wait for a CPU to wake at every hand-over, and "
			   "score lower and vary more than on a busy one.",
		.fix = "`[bench] dma-latency = 0` in a profile (or `ubtune bench --dma-latency 0`, as root) keeps idle "
		       "CPUs in shallow states for the length of the run",
		.check = deep_idle,
	},
	{
		.id = "memory.devfreq-dynamic",
		.area = "memory",
		.severity = SEV_WARN,
		.message = "The memory controller's clock follows load (devfreq): DRAM runs below its top rate when a "
			   "test starts, so memory-bound tests (File Copy, Pipe Throughput, Execl, Shell Scripts) "
			   "score lower and vary more.",
		.check = devfreq_memory_dynamic,
	},
	{ 0 },
};
