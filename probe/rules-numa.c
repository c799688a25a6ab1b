/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about NUMA: storage IRQs served away from the controller's node. */
#include "findings.h"

/* The CPUs of node id in numa.nodes, or NULL. */
static const char *node_cpus(json_object *rec, int64_t id)
{
	json_object *nodes = jpath(rec, "numa.nodes");
	for (size_t i = 0; nodes && i < json_object_array_length(nodes); i++) {
		json_object *node = json_object_array_get_idx(nodes, i);
		int64_t nid;
		if (jpath_int(node, "id", &nid) && nid == id)
			return jpath_str(node, "cpus");
	}
	return NULL;
}

/*
 * Multi-queue controllers (NVMe) spread one IRQ per CPU over every node by
 * design, so a single remote IRQ means nothing: the finding is for a
 * controller none of whose IRQs is served on its own node.
 */
static bool storage_irq_remote(json_object *rec, struct finding *f)
{
	json_object *irqs = jpath(rec, "numa.storage_irqs");
	struct buf ev = {0}, fix = {0};
	size_t local = 0, remote = 0;

	for (size_t i = 0; irqs && i < json_object_array_length(irqs); i++) {
		json_object *q = json_object_array_get_idx(irqs, i);
		bool on;
		int64_t irq = 0, node = -1;
		if (!jpath_bool(q, "on_device_node", &on))
			continue;
		if (on) {
			local++;
			continue;
		}
		remote++;
		jpath_int(q, "irq", &irq);
		jpath_int(q, "device_node", &node);
		const char *eff = jpath_str(q, "effective");
		const char *cpus = node_cpus(rec, node);
		buf_printf(&ev, "%s/proc/irq/%lld/%s = %s (%s); controller %s on node %lld (CPUs %s)",
			   ev.len ? "; " : "", (long long)irq, eff ? "effective_affinity_list" : "smp_affinity_list",
			   eff ? eff : jpath_str(q, "affinity"), jpath_str(q, "name") ? jpath_str(q, "name") : "unnamed",
			   jpath_str(q, "controller"), (long long)node, cpus ? cpus : "?");
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
		.match = storage_irq_remote,
	},
	{ 0 },
};
