/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about idle states and devfreq clocks. */
#include <inttypes.h>

#include "findings.h"

/* An exit latency from which a hand-over between two processes (a pipe
 * write that wakes the reader on another CPU) costs more than the work:
 * C1 is 1-2 µs, Intel C6 and ARM cluster sleep 100 µs and more. */
#define DEEP_IDLE_US 50

/* The enabled state whose exit latency is the deepest one's. */
static const struct env_idle_state *deepest_state(const struct env_idle *idle, int64_t lat)
{
	const struct env_idle_state *deep = NULL;
	for (size_t i = 0; i < idle->states.n; i++) {
		const struct env_idle_state *s = &idle->states.v[i];
		if (!is_true(s->disabled) && s->latency_us.known && s->latency_us.v == lat)
			deep = s;
	}
	return deep;
}

static bool deep_idle(const struct env_record *env, struct finding *f)
{
	const struct env_idle *idle = &env->cpu.idle;
	if (!idle->deepest_latency_us.known || idle->deepest_latency_us.v < DEEP_IDLE_US)
		return false;
	int64_t lat = idle->deepest_latency_us.v;
	const struct env_idle_state *deep = deepest_state(idle, lat);
	finding_set(&f->evidence, "cpu%" PRId64 " idle state %s (%s): exit latency %" PRId64 " µs; driver %s",
		    int_or(idle->cpu, 0), deep && deep->name ? deep->name : "?", deep && deep->desc ? deep->desc : "?",
		    lat, idle->driver ?: "unknown");
	return true;
}

/* A memory controller whose clock follows load: not performance, and
 * either below its top clock now or able to go there. */
static bool devfreq_memory_dynamic(const struct env_record *env, struct finding *f)
{
	for (size_t i = 0; i < env->power.devfreq.n; i++) {
		const struct env_devfreq *d = &env->power.devfreq.v[i];
		const char *gov = d->governor;
		if (!streq_ptr(d->kind, "memory") || !gov || streq(gov, "performance"))
			continue;
		bool below = d->cur_hz.known && d->max_hz.known && d->cur_hz.v < d->max_hz.v;
		if (streq(gov, "userspace") && !below)
			continue;
		if (!below)
			finding_set(&f->evidence, "%s/governor = %s (at its top clock now)", d->path, gov);
		else
			finding_set(&f->evidence, "%s/governor = %s, cur_freq %" PRId64 " MHz of max_freq %" PRId64 " MHz",
				    d->path, gov, d->cur_hz.v / 1000000, d->max_hz.v / 1000000);
		finding_set(&f->fix, "`[devfreq] governor = performance` in a profile, or as root: echo performance > "
				     "%s/governor",
			    d->path);
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
