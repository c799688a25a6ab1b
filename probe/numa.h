/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/util.h"
#include "probe.h"

/*
 * NUMA nodes as [{id, cpus, mem_kib}]: cpus are the node's online CPUs,
 * mem_kib its MemTotal (null when the root does not say). Both readers give
 * the same array for the same root; hwloc is used when built in, sysfs
 * otherwise and when hwloc cannot read the root. -errno when the root has
 * no /sys/devices/system/node (or hwloc fails).
 */
int numa_nodes_sysfs(struct rootfs *rf, json_object **out);
#if HAVE_HWLOC
int numa_nodes_hwloc(struct rootfs *rf, json_object **out);
#endif

/* One numbered line of /proc/interrupts. */
struct irq_line {
	unsigned irq;
	uint64_t count;  /* summed over the CPU columns */
	char *names;     /* the actions, "ehci_hcd:usb1, mmc0"; NULL when none */
};

struct irq_table {
	struct irq_line *v;
	size_t n;
};

/*
 * Parses /proc/interrupts in the x86 layout ("IR-PCI-MSI 524288-edge
 * nvme0q0", older "IR-PCI-MSI-edge ahci") and the arm64 one ("ITS-MSI
 * 65536 Edge nvme0q0"). Rows that are not numbered IRQs (NMI, LOC, IPI0,
 * Err) are skipped. -EBADMSG without a CPU header line.
 */
int irq_table_parse(const char *text, struct irq_table *t);
const struct irq_line *irq_table_find(const struct irq_table *t, unsigned irq);
void irq_table_free(struct irq_table *t);

/* Action names an IRQ of a storage controller carries: exact names and prefixes. */
struct irq_names {
	struct strv exact, prefix;
};
/*
 * The names a disk's controller gives its IRQs in /proc/interrupts, from the
 * disk's sysfs path and the controller's driver: nvme0q*, virtio1-*, mmc0,
 * ahci, ahci[0000:00:1f.2], xhci-hcd:usb5.
 */
void irq_names_for_disk(const char *syspath, const char *driver, const char *pci, struct irq_names *n);
bool irq_names_match(const struct irq_names *n, const char *names);
void irq_names_free(struct irq_names *n);

/* numa.storage_irqs for the record's storage devices (NULL when unknown). */
json_object *numa_storage_irqs(struct probe_ctx *ctx);
