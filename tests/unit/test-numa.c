/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NUMA: nodes from hwloc and from sysfs (the same on every root), a kernel
 * without NUMA, /proc/interrupts in both layouts, the storage controller's
 * IRQs and their nodes, irqbalance/numad, and the remote-IRQ finding.
 */
#include <dirent.h>

#include "lib/cpuset.h"
#include "probe/findings.h"
#include "probe/numa.h"
#include "probe/storage.h"
#include "testroot.h"

/* Every fixture root: real dumps and synthetic roots. */
static void foreach_root(void (*fn)(const char *root, void *data), void *data)
{
	const char *const dirs[] = { SRCDIR "/build/fixtures", SRCDIR "/tests/fixtures/roots", SRCDIR "/tests/fixtures/partial" };
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;
		while (dir && (de = readdir(dir))) {
			if (de->d_name[0] == '.')
				continue;
			_cleanup_free_ char *root = xasprintf("%s/%s", dirs[d], de->d_name);
			struct stat st;
			if (stat(root, &st) == 0 && S_ISDIR(st.st_mode))
				fn(root, data);
		}
		if (dir)
			closedir(dir);
	}
}

struct compared {
	size_t roots, by_hwloc;
};

static void compare_readers(const char *root, void *data)
{
	struct compared *c = data;
	struct rootfs *rf;
	json_object *sys = NULL;
	assert_int_equal(rootfs_new(root, &rf), 0);
	if (numa_nodes_sysfs(rf, &sys) < 0) {
		rootfs_free(rf);
		return;
	}
	c->roots++;
#if HAVE_HWLOC
	json_object *hw = NULL;
	if (numa_nodes_hwloc(rf, &hw) == 0) {
		if (!json_object_equal(hw, sys))
			fail_msg("%s: hwloc gives %s, sysfs %s", root, jdump(hw, false), jdump(sys, false));
		c->by_hwloc++;
		json_object_put(hw);
	}
#endif
	json_object_put(sys);
	rootfs_free(rf);
}

/* Both builds must give the same record: the two readers agree on every root. */
static void hwloc_and_sysfs_agree(void **state)
{
	struct compared c = {0};
	foreach_root(compare_readers, &c);
	/* 11 dumps have /sys/devices/system/node */
	assert_true(c.roots >= 11);
#if HAVE_HWLOC
	/* all of them but the composite one, which has no CPU topology for hwloc */
	assert_true(c.by_hwloc >= 10);
#endif
}

static json_object *numa_of(const char *fixture)
{
	_cleanup_free_ char *root = fixture_root(fixture);
	return probe_storage_numa(root, "/");
}

static void nodes_of_dumps(void **state)
{
	/* sparse node ids 0, 2, 3 with interleaved CPUs and no meminfo */
	json_object *rec = numa_of("util-linux-x86_64-64cpu");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 3);
	assert_int_equal(jint(rec, "numa.nodes.1.id"), 2);
	assert_jstr(rec, "numa.nodes.1.cpus", "1,5,9,13,17,21,25,29,33,37,41,45,49,53,57,61");
	assert_jnull(rec, "numa.nodes.1.mem_kib");
	json_object_put(rec);

	/* node0 offline; node1's cpulist still names offline CPUs 1,3,21,23 */
	rec = numa_of("hwloc-offline-cpu0-node0");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 1);
	assert_int_equal(jint(rec, "numa.nodes.0.id"), 1);
	assert_jstr(rec, "numa.nodes.0.cpus", "5,7,9,11,13,15,17,19");
	assert_int_equal(jint(rec, "numa.nodes.0.mem_kib"), 67108864);
	json_object_put(rec);

	rec = numa_of("util-linux-x86_64-epyc_7451");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 8);
	assert_jstr(rec, "numa.nodes.0.cpus", "0-5,48-53");
	assert_jstr(rec, "numa.nodes.7.cpus", "42-47,90-95");
	json_object_put(rec);

	rec = numa_of("hwloc-128arm-2pa2n8cluster4co");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 4);
	assert_jstr(rec, "numa.nodes.3.cpus", "96-127");
	assert_int_equal(jint(rec, "numa.nodes.0.mem_kib"), 131732940);
	json_object_put(rec);

	/* no CPU topology: the node files alone; node2 has memory and no CPUs */
	rec = numa_of("node_exporter-composite-x86");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 3);
	assert_jstr(rec, "numa.nodes.1.cpus", "2-3");
	assert_jstr(rec, "numa.nodes.2.cpus", "");
	assert_int_equal(jint(rec, "numa.nodes.2.mem_kib"), 134217728);
	json_object_put(rec);

	/* every node the kernel lists, in its order, with the kernel's own CPUs:
	 * GPU memory nodes (250-255), memory tiers without CPUs, and nodes a
	 * firmware bug gives overlapping CPUs (hwloc by itself hides those) */
	rec = numa_of("hwloc-nvidiagpunumanodes");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 8);
	assert_int_equal(jint(rec, "numa.nodes.2.id"), 250);
	assert_jstr(rec, "numa.nodes.2.cpus", "");
	json_object_put(rec);
	rec = numa_of("hwloc-fakeheteromemtiers");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 7);
	assert_int_equal(jint(rec, "numa.nodes.3.id"), 4);
	assert_jstr(rec, "numa.nodes.3.cpus", "");
	json_object_put(rec);
	rec = numa_of("hwloc-8em64t-2s2ca2c-buggynuma");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 8);
	assert_jstr(rec, "numa.nodes.7.cpus", "0-7");
	json_object_put(rec);
	rec = numa_of("hwloc-64amd64-4p2n4ca2co");
	assert_int_equal(jint(rec, "numa.nodes.2.id"), 2);
	assert_jstr(rec, "numa.nodes.2.cpus", "32-39");
	json_object_put(rec);
	/* per-CPU online files: 2, 5, 13, 14 are offline */
	rec = numa_of("hwloc-16em64t-4s2c2t-offlines");
	assert_jstr(rec, "numa.nodes.0.cpus", "0-1,3-4,6-12,15");
	json_object_put(rec);
}

static void kernel_without_numa(void **state)
{
	bool b;
	json_object *rec = numa_of("util-linux-armv7");
	assert_true(jpath_bool(rec, "numa.kernel_numa", &b) && !b);
	assert_int_equal(jpath_len(rec, "numa.nodes"), 1);
	assert_int_equal(jint(rec, "numa.nodes.0.id"), 0);
	assert_jstr(rec, "numa.nodes.0.cpus", "0-1");
	/* the dump has no /proc/meminfo */
	assert_jnull(rec, "numa.nodes.0.mem_kib");
	json_object_put(rec);

	/* nothing about CPUs at all: unknown, not one made-up node */
	rec = numa_of("virt-what-kvm");
	assert_jnull(rec, "numa.nodes");
	assert_true(unavailable_mentions(rec, "numa", "/sys/devices/system/node"));
	json_object_put(rec);
}

/* ---- /proc/interrupts ---- */

static char *read_fixture(const char *fixture, const char *path)
{
	_cleanup_free_ char *root = fixture_root(fixture);
	_cleanup_free_ char *p = xasprintf("%s%s", root, path);
	FILE *f = fopen(p, "r");
	struct buf b = {0};
	char chunk[4096];
	size_t n;
	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_steal(&b);
}

static void interrupts_x86(void **state)
{
	_cleanup_free_ char *text = read_fixture("node_exporter-composite-x86", "/proc/interrupts");
	struct irq_table t;
	assert_int_equal(irq_table_parse(text, &t), 0);
	/* 0 1 8 9 12 16 23 40-47; NMI, LOC, ERR, MIS are not IRQ numbers */
	assert_int_equal(t.n, 15);
	const struct irq_line *l = irq_table_find(&t, 43);
	assert_non_null(l);
	assert_string_equal(l->names, "ahci");
	assert_int_equal(l->count, 7434032ull + 8092205 + 6478877 + 7492252);
	assert_string_equal(irq_table_find(&t, 16)->names, "ehci_hcd:usb1, mmc0");
	assert_string_equal(irq_table_find(&t, 40)->names, "dmar0");
	assert_null(irq_table_find(&t, 2));
	irq_table_free(&t);

	/* newer x86 layouts: hwirq-trigger column, chip names with the PCI address */
	assert_int_equal(irq_table_parse("           CPU0       CPU1       \n"
					 " 36:          0      93554 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
					 " 24:          1          0  IR-PCI-MSI 512000-edge      ahci[0000:00:1f.2]\n"
					 " 27:          0          0  IR-PCI-MSI 1048576-edge\n",
					 &t),
			 0);
	assert_string_equal(irq_table_find(&t, 36)->names, "virtio1-req.0");
	assert_int_equal(irq_table_find(&t, 36)->count, 93554);
	assert_string_equal(irq_table_find(&t, 24)->names, "ahci[0000:00:1f.2]");
	assert_null(irq_table_find(&t, 27)->names);
	irq_table_free(&t);

	assert_int_equal(irq_table_parse("not interrupts\n", &t), -EBADMSG);
}

static void interrupts_arm64(void **state)
{
	_cleanup_free_ char *text = read_fixture("node_exporter-interrupts-aarch64", "/proc/interrupts");
	struct irq_table t;
	assert_int_equal(irq_table_parse(text, &t), 0);
	assert_string_equal(irq_table_find(&t, 10)->names, "arch_timer");
	assert_int_equal(irq_table_find(&t, 10)->count, 3287008667ull + 3310445093ull + 3301386305ull + 3273132897ull +
								3368262064ull + 3641875466ull + 3360412019ull +
								3225020442ull);
	assert_string_equal(irq_table_find(&t, 50)->names, "ACPI:Event");
	assert_string_equal(irq_table_find(&t, 57)->names, "ena-mgmnt@pci:0000:00:05.0");

	/* the NVMe controllers' queues, by name */
	struct irq_names n;
	irq_names_for_disk("/sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", "nvme", "0000:00:04.0", &n);
	struct cpuset found = {0};
	for (size_t i = 0; i < t.n; i++)
		if (irq_names_match(&n, t.v[i].names))
			cpuset_set(&found, t.v[i].irq);
	_cleanup_free_ char *list = cpuset_format(&found);
	assert_string_equal(list, "51,53-54");
	cpuset_free(&found);
	irq_names_free(&n);
	irq_table_free(&t);
}

static void irq_names(void **state)
{
	struct irq_names n;
	irq_names_for_disk("/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda", "ahci",
			   "0000:00:1f.2", &n);
	assert_true(irq_names_match(&n, "ahci"));
	assert_true(irq_names_match(&n, "ahci[0000:00:1f.2]"));
	assert_false(irq_names_match(&n, "ahci[0000:00:17.0]"));
	assert_false(irq_names_match(&n, "ahci_platform"));
	assert_false(irq_names_match(&n, NULL));
	irq_names_free(&n);

	irq_names_for_disk("/sys/devices/platform/fe2b0000.mmc/mmc_host/mmc1/mmc1:aaaa/block/mmcblk1", "dwmmc_rockchip",
			   NULL, &n);
	assert_true(irq_names_match(&n, "ehci_hcd:usb1, mmc1"));
	assert_false(irq_names_match(&n, "mmc0"));
	irq_names_free(&n);

	irq_names_for_disk("/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "virtio-pci", "0000:00:02.0", &n);
	assert_true(irq_names_match(&n, "virtio1-req.0"));
	assert_true(irq_names_match(&n, "virtio1-requests"));
	assert_false(irq_names_match(&n, "virtio10-requests"));
	assert_true(irq_names_match(&n, "virtio1"));
	irq_names_free(&n);

	irq_names_for_disk("/sys/devices/platform/usbdrd3_0/fcc00000.usb/xhci-hcd.1.auto/usb5/5-1/5-1:1.0/host0/"
			   "target0:0:0/0:0:0:0/block/sda",
			   "xhci-hcd", NULL, &n);
	assert_true(irq_names_match(&n, "xhci-hcd:usb5"));
	assert_false(irq_names_match(&n, "xhci-hcd:usb1"));
	irq_names_free(&n);
}

/* ---- a Phytium FT-2000+/64 shaped root: 8 nodes, ahci SATA SSD on node 0 ---- */

#define AHCI "/sys/devices/pci0000:00/0000:00:1f.2"
#define SDA AHCI "/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define NVME_PCI "/sys/devices/pci0000:00/0000:00:03.0/0000:01:00.0"
#define NVME NVME_PCI "/nvme/nvme0/nvme0n1"

static void irq_files(const char *r, unsigned irq, const char *affinity, const char *effective)
{
	_cleanup_free_ char *a = xasprintf("/proc/irq/%u/smp_affinity_list", irq);
	_cleanup_free_ char *e = xasprintf("/proc/irq/%u/effective_affinity_list", irq);
	tmproot_write(r, a, affinity);
	tmproot_write(r, e, effective);
}

static char *eight_nodes(void)
{
	char *r = tmproot_new();
	struct buf irqs = {0};
	for (int n = 0; n < 8; n++) {
		_cleanup_free_ char *list = xasprintf("/sys/devices/system/node/node%d/cpulist", n);
		_cleanup_free_ char *cpus = xasprintf("%d-%d", n * 8, n * 8 + 7);
		_cleanup_free_ char *mem = xasprintf("/sys/devices/system/node/node%d/meminfo", n);
		_cleanup_free_ char *memv = xasprintf("Node %d MemTotal:       33554432 kB\nNode %d MemFree: 1 kB", n, n);
		tmproot_write(r, list, cpus);
		tmproot_write(r, mem, memv);
	}
	tmproot_write(r, "/sys/devices/system/node/online", "0-7");
	tmproot_write(r, "/sys/devices/system/cpu/online", "0-63");
	tmproot_write(r, "/proc/self/mountinfo", "21 1 8:2 / / rw,relatime - ext4 /dev/sda2 rw\n"
					 "22 21 8:3 / /home rw,relatime - xfs /dev/sda3 rw,attr2\n"
					 "23 21 259:1 / /scratch rw - ext4 /dev/nvme0n1p1 rw\n");
	pci_function(r, AHCI, "ahci", "0");
	blk_disk(r, SDA, "8:0", "[mq-deadline] kyber bfq none", "0", "0");
	blk_part(r, SDA, "sda2", "8:2", "2");
	blk_part(r, SDA, "sda3", "8:3", "3");
	tmproot_write(r, AHCI "/msi_irqs/43", "msi");
	pci_function(r, NVME_PCI, "nvme", "4");
	blk_disk(r, NVME, "259:0", "[none] mq-deadline", "0", "0");
	blk_part(r, NVME, "nvme0n1p1", "259:1", "1");

	/* /proc/interrupts 64 CPUs wide */
	buf_puts(&irqs, "      ");
	for (int c = 0; c < 64; c++)
		buf_printf(&irqs, "       CPU%-3d", c);
	buf_puts(&irqs, "\n");
	const char *names[] = { "ahci[0000:00:1f.2]", "nvme0q0", "nvme0q1", "nvme0q2", "nvme0q3" };
	const unsigned nums[] = { 43, 60, 61, 62, 63 };
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		buf_printf(&irqs, "%4u:", nums[i]);
		for (int c = 0; c < 64; c++)
			buf_printf(&irqs, " %10d", c == 40 ? 1000 : 0);
		buf_printf(&irqs, "  ITS-MSI %u Edge      %s\n", 524288 + nums[i], names[i]);
	}
	buf_puts(&irqs, "IPI0:  1 2 3   Rescheduling interrupts\nErr:          0");
	tmproot_write(r, "/proc/interrupts", irqs.s);
	buf_free(&irqs);

	irq_files(r, 43, "0-63", "40");
	/* NVMe: admin queue on node 0, one I/O queue per node 4..7 */
	irq_files(r, 60, "0-63", "0");
	for (unsigned q = 1; q <= 3; q++) {
		_cleanup_free_ char *cpus = xasprintf("%u-%u", 24 + q * 8, 31 + q * 8);
		_cleanup_free_ char *eff = xasprintf("%u", 24 + q * 8);
		irq_files(r, 60 + q, cpus, eff);
	}
	tmproot_write(r, "/proc/1/stat", "1 (systemd) S 0 1 1 0 -1 4194560 100 0 0 0 500 300 0 0 20 0 1 0 1");
	tmproot_write(r, "/proc/733/stat", "733 (irqbalance) S 1 733 733 0 -1 4194560 100 0 0 0 90 60 0 0 20 0 1 0 900");
	return r;
}

static int eight_setup(void **state)
{
	*state = eight_nodes();
	return 0;
}

static json_object *eight_probe(void **state, const char *workdir)
{
	return probe_storage_numa_findings(*state, workdir);
}

static const char *finding_evidence(json_object *rec, const char *id)
{
	return finding_field(rec, id, "evidence");
}

static void ahci_irq_remote(void **state)
{
	bool b;
	json_object *rec = eight_probe(state, "/home/bench");
	assert_int_equal(jpath_len(rec, "numa.nodes"), 8);
	assert_jstr(rec, "storage.mount.fstype", "xfs");
	assert_jstr(rec, "storage.device.name", "sda");
	assert_int_equal(jint(rec, "storage.device.numa_node"), 0);
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 1);
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 43);
	assert_jstr(rec, "numa.storage_irqs.0.name", "ahci[0000:00:1f.2]");
	assert_int_equal(jint(rec, "numa.storage_irqs.0.count"), 1000);
	assert_jstr(rec, "numa.storage_irqs.0.affinity", "0-63");
	assert_jstr(rec, "numa.storage_irqs.0.effective", "40");
	assert_jstr(rec, "numa.storage_irqs.0.controller", "0000:00:1f.2");
	assert_true(jpath_bool(rec, "numa.storage_irqs.0.on_device_node", &b) && !b);
	assert_true(jpath_bool(rec, "numa.irqbalance", &b) && b);
	assert_true(jpath_bool(rec, "numa.numad", &b) && !b);
	assert_string_equal(finding_evidence(rec, "numa.storage-irq-remote"),
			    "/proc/irq/43/effective_affinity_list = 40 (ahci[0000:00:1f.2]); controller 0000:00:1f.2 on "
			    "node 0 (CPUs 0-7)");
	json_object_put(rec);

	/* served on the controller's node: fine */
	tmproot_write(*state, "/proc/irq/43/effective_affinity_list", "3");
	rec = eight_probe(state, "/home/bench");
	tmproot_write(*state, "/proc/irq/43/effective_affinity_list", "40");
	assert_true(jpath_bool(rec, "numa.storage_irqs.0.on_device_node", &b) && b);
	assert_null(finding_evidence(rec, "numa.storage-irq-remote"));
	json_object_put(rec);
}

/* NVMe queues are spread over all nodes on purpose: some remote ones are no finding. */
static void nvme_queues_spread(void **state)
{
	bool b;
	json_object *rec = eight_probe(state, "/scratch");
	assert_jstr(rec, "storage.device.name", "nvme0n1");
	assert_int_equal(jint(rec, "storage.device.numa_node"), 4);
	/* no msi_irqs/ in this root: found by their names nvme0q* */
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 4);
	assert_jstr(rec, "numa.storage_irqs.0.name", "nvme0q0");
	assert_true(jpath_bool(rec, "numa.storage_irqs.0.on_device_node", &b) && !b);
	assert_true(jpath_bool(rec, "numa.storage_irqs.1.on_device_node", &b) && b);
	assert_null(finding_evidence(rec, "numa.storage-irq-remote"));
	json_object_put(rec);
}

/* Mask files only (older kernels), and an INTx line found through the PCI irq file. */
static void masks_and_intx(void **state)
{
	char *r = eight_nodes();
	_cleanup_free_ char *msi = xasprintf("%s" AHCI "/msi_irqs/43", r);
	_cleanup_free_ char *list = xasprintf("%s/proc/irq/43/smp_affinity_list", r);
	_cleanup_free_ char *eff = xasprintf("%s/proc/irq/43/effective_affinity_list", r);
	assert_int_equal(unlink(msi), 0);
	assert_int_equal(unlink(list), 0);
	assert_int_equal(unlink(eff), 0);
	tmproot_write(r, "/proc/irq/43/smp_affinity", "00000000,000000f0");
	tmproot_write(r, "/proc/interrupts", "      CPU0  CPU1\n 19:  5  6  IO-APIC  19-fasteoi   ata_piix, ahci\n");
	tmproot_write(r, AHCI "/irq", "19");
	json_object *rec = probe_storage_numa(r, "/");
	/* no msi_irqs: IRQ 43 is gone, the INTx line 19 is named after the driver */
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 1);
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 19);
	assert_jstr(rec, "numa.storage_irqs.0.name", "ata_piix, ahci");
	assert_int_equal(jint(rec, "numa.storage_irqs.0.count"), 11);
	assert_jnull(rec, "numa.storage_irqs.0.affinity");
	assert_true(unavailable_mentions(rec, "numa", "smp_affinity_list"));
	json_object_put(rec);

	/* the same line without a driver name: the PCI function's irq file */
	tmproot_write(r, "/proc/interrupts", "      CPU0  CPU1\n 19:  5  6  IO-APIC  19-fasteoi   ata_piix\n");
	tmproot_write(r, "/proc/irq/19/smp_affinity", "00000000,000000f0");
	rec = probe_storage_numa(r, "/");
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 19);
	assert_jstr(rec, "numa.storage_irqs.0.affinity", "4-7");
	assert_jnull(rec, "numa.storage_irqs.0.effective");
	bool b;
	/* no effective list: the allowed CPUs 4-7 are on node 0 */
	assert_true(jpath_bool(rec, "numa.storage_irqs.0.on_device_node", &b) && b);
	json_object_put(rec);
	tmproot_free(r);
}

static void virtio_guest_irqs(void **state)
{
	char *root = fixture_root("hwloc-2pa-pcidomain32bits");
	json_object *rec = probe_storage_numa(root, "/");
	free(root);
	/* msi_irqs/27 and 28 of 10000:00:04.0; this dump has no /proc/interrupts or /proc/irq */
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 2);
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 27);
	assert_int_equal(jint(rec, "numa.storage_irqs.1.irq"), 28);
	assert_jnull(rec, "numa.storage_irqs.0.name");
	assert_jnull(rec, "numa.storage_irqs.0.effective");
	assert_jnull(rec, "numa.storage_irqs.0.on_device_node");
	json_object_put(rec);
}

/* ---- the synthetic machine roots (tests/fixtures/roots/NAME/README.md, "Expected") ---- */

static void root_ft2000(void **state)
{
	bool b;
	json_object *rec = probe_fixture("ft2000plus-64", NULL);
	assert_int_equal(jpath_len(rec, "numa.nodes"), 8);
	assert_jstr(rec, "numa.nodes.7.cpus", "56-63");
	assert_int_equal(jint(rec, "numa.nodes.0.mem_kib"), 16184320);
	assert_int_equal(jint(rec, "numa.nodes.1.mem_kib"), 16711680);
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 1);
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 79);
	assert_jstr(rec, "numa.storage_irqs.0.name", "ahci[0000:03:00.0]");
	assert_jstr(rec, "numa.storage_irqs.0.effective", "37");
	assert_true(jpath_bool(rec, "numa.storage_irqs.0.on_device_node", &b) && !b);
	assert_true(jpath_bool(rec, "numa.irqbalance", &b) && b);
	assert_non_null(strstr(finding_evidence(rec, "numa.storage-irq-remote"),
			       "/proc/irq/79/effective_affinity_list = 37"));
	json_object_put(rec);
}

/* One node each, storage IRQs (";"-separated) named as the README lists them, nothing remote. */
static void root_single_node_machines(void **state)
{
	static const struct {
		const char *root, *cpus, *irqs;
	} roots[] = {
		{ "laptop-battery-powersave", "0-7", "138 nvme0q0;139 nvme0q1;146 nvme0q8" },
		{ "qemu-tcg-x86", "0-1", "26 virtio1-config;27 virtio1-req.0;28 virtio1-req.1" },
		{ "x86-kvm-steal", "0-3", "33 virtio2-config;34 virtio2-req.0;37 virtio2-req.3" },
		{ "rk3568-emmc-el2", "0-3", "14 mmc0" },
		{ "rpi4-undervoltage", "0-3", "28 mmc1, mmc0" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		json_object *rec = probe_fixture(roots[i].root, NULL);
		bool b;
		assert_int_equal(jpath_len(rec, "numa.nodes"), 1);
		assert_jstr(rec, "numa.nodes.0.cpus", roots[i].cpus);
		assert_true(jpath_bool(rec, "numa.irqbalance", &b) && !b);
		assert_null(finding_evidence(rec, "numa.storage-irq-remote"));
		_cleanup_free_ char *want = xstrdup(roots[i].irqs);
		for (char *save = NULL, *w = strtok_r(want, ";", &save); w; w = strtok_r(NULL, ";", &save)) {
			json_object *irqs = jpath(rec, "numa.storage_irqs");
			bool found = false;
			for (size_t k = 0; irqs && k < json_object_array_length(irqs); k++) {
				json_object *q = json_object_array_get_idx(irqs, k);
				_cleanup_free_ char *got = xasprintf("%lld %s", (long long)jint(q, "irq"), jpath_str(q, "name"));
				found |= streq(got, w);
			}
			if (!found)
				fail_msg("%s: no storage IRQ \"%s\"", roots[i].root, w);
		}
		json_object_put(rec);
	}
}

/* ---- processes ---- */

static void daemons(void **state)
{
	char *r = tmproot_new();
	bool b;
	tmproot_write(r, "/proc/1/stat", "1 (init) S 0 1 1 0 -1 4194560 100 0 0 0 10 20 0 0 20 0 1 0 1");
	tmproot_write(r, "/proc/42/stat", "42 (numad) S 1 42 42 0 -1 4194560 100 0 0 0 10 20 0 0 20 0 1 0 50");
	/* exited between listing and reading */
	tmproot_parents(r, "/proc/77/");
	json_object *rec = probe_storage_numa(r, "/");
	assert_true(jpath_bool(rec, "numa.numad", &b) && b);
	assert_true(jpath_bool(rec, "numa.irqbalance", &b) && !b);
	json_object_put(rec);
	tmproot_free(r);

	/* a board whose process list shows irqbalance only in /proc/300/stat */
	rec = numa_of("busybox-board-noisy");
	assert_true(jpath_bool(rec, "numa.irqbalance", &b) && b);
	json_object_put(rec);

	/* a dump without processes: unknown */
	rec = numa_of("util-linux-x86_64-64cpu");
	assert_jnull(rec, "numa.irqbalance");
	assert_jnull(rec, "numa.numad");
	assert_true(unavailable_mentions(rec, "numa", "irqbalance"));
	json_object_put(rec);
}

/* ---- the rule on record literals ---- */

static bool run_remote(const char *irqs, struct finding *f)
{
	_cleanup_free_ char *s = xasprintf("{\"numa\": {\"nodes\": [{\"id\": 0, \"cpus\": \"0-7\"}, "
					   "{\"id\": 1, \"cpus\": \"8-15\"}], \"storage_irqs\": %s}}",
					   irqs);
	json_object *rec = json_lit(s);
	bool hit = rule_run(rule_lookup("numa.storage-irq-remote"), rec, f);
	json_object_put(rec);
	return hit;
}

static void rule_remote(void **state)
{
	struct finding f;
	assert_true(run_remote("[{\"irq\": 43, \"name\": \"ahci\", \"effective\": \"9\", \"controller\": \"0000:00:1f.2\","
			       " \"device_node\": 0, \"on_device_node\": false}]",
			       &f));
	assert_int_equal(f.severity, SEV_WARN);
	assert_string_equal(f.evidence, "/proc/irq/43/effective_affinity_list = 9 (ahci); controller 0000:00:1f.2 on "
					"node 0 (CPUs 0-7)");
	assert_non_null(strstr(f.fix, "[irq] storage-affinity = device-node"));
	assert_non_null(strstr(f.fix, "echo 0-7 > /proc/irq/43/smp_affinity_list"));
	finding_clear(&f);

	/* only the allowed list known */
	assert_true(run_remote("[{\"irq\": 19, \"name\": null, \"affinity\": \"8-15\", \"effective\": null, "
			       "\"controller\": \"0000:00:1f.2\", \"device_node\": 0, \"on_device_node\": false}]",
			       &f));
	assert_string_equal(f.evidence, "/proc/irq/19/smp_affinity_list = 8-15 (unnamed); controller 0000:00:1f.2 on "
					"node 0 (CPUs 0-7)");
	finding_clear(&f);

	/* one queue local is enough (multi-queue devices spread on purpose) */
	assert_false(run_remote("[{\"irq\": 60, \"device_node\": 1, \"on_device_node\": false},"
				" {\"irq\": 61, \"device_node\": 1, \"on_device_node\": true}]",
				&f));
	/* unknown node, no IRQs, unknown list */
	assert_false(run_remote("[{\"irq\": 60, \"device_node\": null, \"on_device_node\": null}]", &f));
	assert_false(run_remote("[]", &f));
	assert_false(run_remote("null", &f));
}

static void render(void **state)
{
	json_object *rec = eight_probe(state, "/home/bench");
	char *text = render_text(numa_render, rec);
	assert_non_null(strstr(text, "NUMA      8 nodes · storage ahci[0000:00:1f.2] IRQ 43 on CPU 40, 1 outside the "
				     "controller's node · irqbalance running\n"));
	assert_non_null(strstr(text, "          node 7: CPUs 56-63, 32.0 GiB\n"));
	free(text);
	json_object_put(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hwloc_and_sysfs_agree),
		cmocka_unit_test(nodes_of_dumps),
		cmocka_unit_test(kernel_without_numa),
		cmocka_unit_test(interrupts_x86),
		cmocka_unit_test(interrupts_arm64),
		cmocka_unit_test(irq_names),
		cmocka_unit_test(masks_and_intx),
		cmocka_unit_test(virtio_guest_irqs),
		cmocka_unit_test(root_ft2000),
		cmocka_unit_test(root_single_node_machines),
		cmocka_unit_test(daemons),
		cmocka_unit_test(rule_remote),
	};
	const struct CMUnitTest eight[] = {
		cmocka_unit_test(ahci_irq_remote),
		cmocka_unit_test(nvme_queues_spread),
		cmocka_unit_test(render),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	return failed + cmocka_run_group_tests_name("eight nodes", eight, eight_setup, tmproot_teardown);
}
