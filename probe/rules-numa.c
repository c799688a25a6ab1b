/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about NUMA: storage IRQs served away from the controller's node. */
#include "findings.h"

/* The CPUs of node id in numa.nodes, or NULL. */
static const char *node_cpus(const struct env_record *env, int64_t id)
{
	for (size_t i = 0; i < env->numa.nodes.n; i++) {
		const struct env_node *node = &env->numa.nodes.v[i];
		if (node->id.known && node->id.v == id)
			return node->cpus;
	}
	return NULL;
}

/*
 * Multi-queue controllers (NVMe) spread one IRQ per CPU over every node by
 * design, so a single remote IRQ means nothing: the finding is for a
 * controller none of whose IRQs is served on its own node.
 */
static bool storage_irq_remote(const struct env_record *env, struct finding *f)
{
	struct buf ev = {0}, fix = {0};
	size_t local = 0, remote = 0;

	for (size_t i = 0; i < env->numa.storage_irqs.n; i++) {
		const struct env_irq *q = &env->numa.storage_irqs.v[i];
		if (!q->on_device_node.known)
			continue;
		if (q->on_device_node.v) {
			local++;
			continue;
		}
		remote++;
		int64_t irq = int_or(q->irq, 0), node = int_or(q->device_node, -1);
		const char *eff = q->effective;
		const char *cpus = node_cpus(env, node);
		buf_printf(&ev, "%s/proc/irq/%lld/%s = %s (%s); controller %s on node %lld (CPUs %s)",
			   ev.len ? "; " : "", (long long)irq, eff ? "effective_affinity_list" : "smp_affinity_list",
			   eff ? eff : q->affinity, q->name ? q->name : "unnamed", q->controller, (long long)node,
			   cpus ? cpus : "?");
		buf_printf(&fix, "%secho %s > /proc/irq/%lld/smp_affinity_list", fix.len ? "; " : "", cpus ? cpus : "?",
			   (long long)irq);
	}
	bool hit = remote > 0 && local == 0;
	if (hit) {
		finding_set(&f->evidence, "%s", ev.s);
		finding_set(&f->fix, "`[irq] storage-affinity = device-node` in a profile, or as root: %s "
				     "(with irqbalance stopped, or it moves them again)", fix.s);
	}
	buf_free(&ev);
	buf_free(&fix);
	return hit;
}

const struct rule numa_rules[] = {
	{
		.id = "numa.storage-irq-remote",
		.area = "numa",
		.severity = SEV_WARN,
		.message = "The storage controller's interrupts are served on another NUMA node than the "
			   "controller's: every completion of the file tests crosses the interconnect.",
		.check = storage_irq_remote,
	},
	{ 0 },
};
