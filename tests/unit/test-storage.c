/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Storage of the workdir: mount tables, the block device chain, kinds and
 * scheduler recommendations, on the real dumps (lsblk ground truth, a KVM
 * guest's virtio disk, a composite with bfq) and on a synthetic workstation
 * with every case the dumps lack, and the storage findings.
 */
#include "probe/findings.h"
#include "probe/storage.h"
#include "testroot.h"

/* ---- mount tables ---- */

static void mountinfo_parsing(void **state)
{
	struct mount_table t;
	const char *text =
		"22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw,errors=remount-ro\n"
		"garbage line\n"
		"3148 3003 260:0 / /var/lib/kubelet/[vsanDatastore]\\040bafb9e5a/pvc.vmdk rw,relatime shared:31 master:2 - ext4 /dev/sda rw\n"
		"40 22 0:60 / /mnt/nfs rw - nfs4 fileserver:/export rw,vers=4.2\n"
		"41 22 0:61 / /tmp rw,nosuid - tmpfs tmpfs\n";
	assert_int_equal(mount_table_parse_mountinfo(text, &t), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.v[0].target, "/");
	assert_string_equal(t.v[0].source, "/dev/sda2");
	/* merged as /proc/mounts shows them */
	assert_string_equal(t.v[0].options, "rw,relatime,errors=remount-ro");
	assert_string_equal(t.v[0].super_options, "rw,errors=remount-ro");
	assert_true(t.v[0].has_devnum && t.v[0].major == 8 && t.v[0].minor == 2);
	/* two optional fields, an escaped space */
	assert_string_equal(t.v[1].target, "/var/lib/kubelet/[vsanDatastore] bafb9e5a/pvc.vmdk");
	assert_string_equal(t.v[1].fstype, "ext4");
	assert_int_equal(t.v[1].major, 260);
	assert_string_equal(t.v[2].source, "fileserver:/export");
	/* no super options at all */
	assert_null(t.v[3].super_options);
	mount_table_free(&t);

	assert_int_equal(mount_table_parse_mountinfo("nothing here\n", &t), -EBADMSG);
	assert_int_equal(mount_table_parse_mountinfo("1 2 8:1 / / rw - ext4\n", &t), -EBADMSG);
}

static void mounts_parsing_and_lookup(void **state)
{
	struct mount_table t;
	const char *text = "/dev/root / ext4 rw,noatime 0 0\n"
			   "/dev/sda1 /home ext4 rw 0 0\n"
			   "/dev/sdb1 /home/archive ext4 rw 0 0\n"
			   "tmpfs /home/archive tmpfs rw 0 0\n"
			   "/dev/sdc1 /homework\\040dir ext4 rw 0 0\n";
	assert_int_equal(mount_table_parse_mounts(text, &t), 0);
	assert_int_equal(t.n, 5);
	assert_false(t.v[0].has_devnum);
	assert_string_equal(mount_table_find(&t, "/", false, 0, 0)->source, "/dev/root");
	assert_string_equal(mount_table_find(&t, "/home/user", false, 0, 0)->source, "/dev/sda1");
	/* a path boundary: /homework is not under /home */
	assert_string_equal(mount_table_find(&t, "/homework", false, 0, 0)->source, "/dev/root");
	assert_string_equal(mount_table_find(&t, "/homework dir/x", false, 0, 0)->source, "/dev/sdc1");
	/* the last mount on a point hides the earlier ones */
	assert_string_equal(mount_table_find(&t, "/home/archive/2024", false, 0, 0)->source, "tmpfs");
	mount_table_free(&t);

	/* the device stat() saw wins over a longer path of another device */
	assert_int_equal(mount_table_parse_mountinfo("1 0 8:2 / / rw - ext4 /dev/sda2 rw\n"
						     "2 1 8:17 / /data rw - ext4 /dev/sdb1 rw\n",
						     &t),
			 0);
	assert_string_equal(mount_table_find(&t, "/data/x", true, 8, 2)->source, "/dev/sda2");
	assert_string_equal(mount_table_find(&t, "/data/x", true, 9, 9)->source, "/dev/sdb1");
	mount_table_free(&t);

	_cleanup_free_ char *up = mount_option("rw,lowerdir=/a:/b,upperdir=/u/diff,workdir=/u/work", "upperdir");
	assert_string_equal(up, "/u/diff");
	assert_null(mount_option("rw,upper=/x", "upperdir"));
}

/* ---- kinds and recommendations ---- */

static void kinds(void **state)
{
	assert_string_equal(blockdev_kind("nvme0n1", "/sys/devices/pci0000:00/0000:01:00.0/nvme/nvme0/nvme0n1", 0),
			    "nvme");
	assert_string_equal(blockdev_kind("mmcblk0", NULL, 0), "mmc");
	assert_string_equal(blockdev_kind("zram0", NULL, 0), "zram");
	assert_string_equal(blockdev_kind("loop3", NULL, 0), "loop");
	/* a USB stick that says it rotates is a USB stick */
	assert_string_equal(blockdev_kind("sdc", "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/"
						 "target6:0:0/6:0:0:0/block/sdc", 1),
			    "usb");
	/* virtio disks report rotational 1 by default: not an HDD */
	assert_string_equal(blockdev_kind("vda", "/sys/devices/pci10000:00/10000:00:04.0/virtio1/block/vda", 1),
			    "virtio");
	assert_string_equal(blockdev_kind("sda", "/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
						 "0:0:0:0/block/sda", 1),
			    "hdd");
	assert_string_equal(blockdev_kind("sda", NULL, 0), "ssd");
	assert_string_equal(blockdev_kind("xvda", NULL, -1), "unknown");
}

static void recommendations(void **state)
{
	struct strv mq = {0}, legacy = {0}, only_none = {0};
	char *note;
	for (const char *const *s = (const char *const[]){ "none", "mq-deadline", "kyber", "bfq", NULL }; *s; s++)
		strv_push(&mq, *s);
	for (const char *const *s = (const char *const[]){ "noop", "deadline", "cfq", NULL }; *s; s++)
		strv_push(&legacy, *s);
	strv_push(&only_none, "none");

	assert_string_equal(blockdev_recommend("nvme", &mq, &note), "none");
	assert_null(note);
	assert_string_equal(blockdev_recommend("ssd", &mq, &note), "mq-deadline");
	assert_string_equal(blockdev_recommend("hdd", &mq, &note), "bfq");
	assert_string_equal(blockdev_recommend("mmc", &mq, &note), "bfq");
	assert_string_equal(blockdev_recommend("usb", &mq, &note), "bfq");
	assert_string_equal(blockdev_recommend("virtio", &mq, &note), "none");
	assert_null(blockdev_recommend("unknown", &mq, &note));
	assert_null(note);

	/* single-queue kernels: the closest offered one, and say what is missing */
	assert_string_equal(blockdev_recommend("ssd", &legacy, &note), "deadline");
	assert_non_null(strstr(note, "mq-deadline is not offered"));
	free(note);
	assert_string_equal(blockdev_recommend("hdd", &legacy, &note), "cfq");
	assert_non_null(strstr(note, "bfq is not offered"));
	free(note);
	assert_string_equal(blockdev_recommend("nvme", &legacy, &note), "noop");
	free(note);
	/* bfq not loaded: mq-deadline is not offered either here, none is */
	assert_string_equal(blockdev_recommend("mmc", &only_none, &note), "none");
	assert_non_null(strstr(note, "bfq is not offered"));
	free(note);
	strv_free(&mq);
	strv_free(&legacy);
	strv_free(&only_none);
}

/* ---- real dumps ---- */

/* The lsblk dump and the KVM guest. */
struct dumps {
	char *lsblk, *kvm;
};

static int dumps_setup(void **state)
{
	struct dumps *d = xcalloc(1, sizeof(*d));
	d->lsblk = fixture_root("util-linux-lsblk-simple-nvme");
	d->kvm = fixture_root("hwloc-2pa-pcidomain32bits");
	*state = d;
	return 0;
}

static int dumps_teardown(void **state)
{
	struct dumps *d = *state;
	free(d->lsblk);
	free(d->kvm);
	free(d);
	return 0;
}

/*
 * util-linux's own expected lsblk output for the dump names the device of
 * every mount point: each one, probed as a workdir, must lead there.
 */
static void lsblk_ground_truth(void **state)
{
	const char *root = ((struct dumps *)*state)->lsblk;
	_cleanup_free_ char *aux = xasprintf("%s/_aux/lsblk-expected-basic.txt", root);
	_cleanup_free_ char *disk = NULL;
	size_t checked = 0;
	FILE *f = fopen(aux, "r");
	char line[512];
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[64], kname[64], majmin[16], rm[8], size[16], type[16], mnt[128];
		int n = sscanf(line, "%63s %63s %15s %7s %15s %15s %127s", name, kname, majmin, rm, size, type, mnt);
		if (n >= 6 && streq(type, "disk")) {
			free(disk);
			disk = xstrdup(kname);
		}
		if (n < 7 || mnt[0] != '/')
			continue;
		json_object *rec = probe_storage_numa(root, mnt);
		_cleanup_free_ char *source = xasprintf("/dev/%s", kname);
		assert_jstr(rec, "storage.mount.target", mnt);
		assert_jstr(rec, "storage.mount.source", source);
		assert_jstr(rec, "storage.device.name", disk);
		assert_jstr(rec, "storage.device.partition", kname);
		/* lsblk-expected-rw: RA 128 for every device */
		assert_int_equal(jint(rec, "storage.device.read_ahead_kb"), 128);
		json_object_put(rec);
		checked++;
	}
	fclose(f);
	/* /boot/efi, /boot, /, /home/archive, /home, /home/test */
	assert_int_equal(checked, 6);
}

static void lsblk_devices(void **state)
{
	const char *root = ((struct dumps *)*state)->lsblk;
	json_object *rec = probe_storage_numa(root, "/home/user/ub");
	assert_jstr(rec, "storage.mount.target", "/home");
	assert_jstr(rec, "storage.device.name", "nvme0n1");
	assert_jstr(rec, "storage.device.kind", "nvme");
	assert_jstr(rec, "storage.device.model", "KINGSTON SKC1000240G");
	assert_jstr(rec, "storage.device.scheduler", "none");
	assert_jstr(rec, "storage.device.recommended_scheduler", "none");
	assert_jstr(rec, "storage.device.controller.pci", "0000:01:00.0");
	/* no node file in this dump: unknown, not 0 */
	assert_jnull(rec, "storage.device.numa_node");
	json_object_put(rec);

	rec = probe_storage_numa(root, "/home/archive");
	assert_jstr(rec, "storage.device.name", "sdb");
	assert_jstr(rec, "storage.device.kind", "hdd");
	assert_jstr(rec, "storage.device.scheduler", "cfq");
	/* bfq does not exist on this 2018 kernel: cfq is the closest offered */
	assert_jstr(rec, "storage.device.recommended_scheduler", "cfq");
	json_object_put(rec);

	rec = probe_storage_numa(root, "/");
	assert_jstr(rec, "storage.device.name", "sda");
	assert_jstr(rec, "storage.device.partition", "sda4");
	assert_jstr(rec, "storage.device.kind", "ssd");
	assert_jstr(rec, "storage.device.model", "KINGSTON SH103S3");
	assert_jstr(rec, "storage.device.recommended_scheduler", "deadline");
	assert_jstr(rec, "storage.device.controller.path", "/sys/devices/pci0000:00/0000:00:1f.2");
	json_object_put(rec);

	rec = probe_storage_numa(root, "/tmp/ub");
	assert_jstr(rec, "storage.mount.fstype", "tmpfs");
	assert_jstr(rec, "storage.device.kind", "tmpfs");
	assert_jnull(rec, "storage.device.name");
	assert_jnull(rec, "storage.device.scheduler");
	json_object_put(rec);
}

/* A damaged copy of the dump, its sysfs links flattened into files holding
 * the target: unknown, and said why. */
static void lsblk_flattened(void **state)
{
	char *root = tmproot_copy("util-linux-lsblk-simple-nvme");
	_cleanup_free_ char *cmd = xasprintf("find '%s/sys' -type l | while read -r l; do "
					     "t=$(readlink \"$l\") && rm \"$l\" && printf %%s \"$t\" >\"$l\"; done",
					     root);
	assert_int_equal(system(cmd), 0);
	json_object *rec = probe_root(root, "/");
	tmproot_free(root);
	assert_jstr(rec, "storage.workdir", "/");
	assert_jstr(rec, "storage.mount.source", "/dev/sda4");
	assert_jnull(rec, "storage.device");
	assert_true(unavailable_mentions(rec, "storage", "the sysfs link of /dev/sda4 is a plain file"));
	json_object_put(rec);
}

static void virtio_guest(void **state)
{
	json_object *rec = probe_storage_numa(((struct dumps *)*state)->kvm, "/");
	bool rot;
	/* /proc/mounts only: found by the source name /dev/vda1 */
	assert_jstr(rec, "storage.mount.source", "/dev/vda1");
	assert_jstr(rec, "storage.device.name", "vda");
	assert_jstr(rec, "storage.device.partition", "vda1");
	assert_true(jpath_bool(rec, "storage.device.rotational", &rot) && rot);
	assert_jstr(rec, "storage.device.kind", "virtio");
	assert_jstr(rec, "storage.device.scheduler", "none");
	assert_jstr(rec, "storage.device.recommended_scheduler", "none");
	assert_jstr(rec, "storage.device.controller.pci", "10000:00:04.0");
	assert_jstr(rec, "storage.device.controller.driver", "virtio-pci");
	/* numa_node -1: no node */
	assert_jnull(rec, "storage.device.numa_node");
	json_object_put(rec);
}

/* Composite fixture: /dev/sda behind a mount point with an escaped space, no /sys/dev/block. */
static void composite_bfq(void **state)
{
	_cleanup_free_ char *root = fixture_root("node_exporter-composite-x86");
	json_object *rec = probe_storage_numa(root, "/var/lib/kubelet/plugins/kubernetes.io/vsphere-volume/mounts/"
						    "[vsanDatastore] bafb9e5a-8856-7e6c-699c-801844e77a4a/"
						    "kubernetes-dynamic-pvc-3eba5bba-48a3-11e8-89ab-005056b92113.vmdk/ub");
	assert_jstr(rec, "storage.mount.source", "/dev/sda");
	assert_jstr(rec, "storage.device.name", "sda");
	assert_jstr(rec, "storage.device.kind", "hdd");
	assert_jstr(rec, "storage.device.scheduler", "bfq");
	assert_jstr(rec, "storage.device.recommended_scheduler", "bfq");
	json_object_put(rec);

	/* "/" is on dm-2, which this fixture does not have in sysfs */
	rec = probe_storage_numa(root, "/");
	assert_jstr(rec, "storage.mount.source", "/dev/dm-2");
	assert_jnull(rec, "storage.device");
	assert_true(unavailable_mentions(rec, "storage", "259:2"));
	json_object_put(rec);
}

static bool has_finding(json_object *rec, const char *id)
{
	return finding_field(rec, id, "id") != NULL;
}

/* ---- the synthetic machine roots (tests/fixtures/roots/NAME/README.md, "Expected") ---- */

static void root_ft2000(void **state)
{
	json_object *rec = probe_fixture("ft2000plus-64", NULL);
	assert_jstr(rec, "storage.workdir", "/home/user/UnixBench");
	assert_jstr(rec, "storage.mount.target", "/home");
	assert_jstr(rec, "storage.mount.fstype", "xfs");
	assert_jstr(rec, "storage.mount.source", "/dev/mapper/klas-home");
	assert_jstr(rec, "storage.device.name", "dm-2");
	assert_jstr(rec, "storage.device.layer_type", "lvm");
	assert_jstr(rec, "storage.device.slaves.0.name", "sda");
	assert_jstr(rec, "storage.device.slaves.0.model", "Samsung SSD 860");
	assert_jstr(rec, "storage.device.slaves.0.scheduler", "mq-deadline");
	assert_jstr(rec, "storage.device.slaves.0.recommended_scheduler", "mq-deadline");
	assert_int_equal(jint(rec, "storage.device.slaves.0.numa_node"), 0);
	assert_false(has_finding(rec, "storage.slow-medium"));
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);
}

static void root_laptop_and_guests(void **state)
{
	bool rot;
	json_object *rec = probe_fixture("laptop-battery-powersave", NULL);
	assert_jstr(rec, "storage.mount.source", "/dev/nvme0n1p3");
	assert_jstr(rec, "storage.device.name", "nvme0n1");
	assert_jstr(rec, "storage.device.kind", "nvme");
	assert_jstr(rec, "storage.device.model", "SAMSUNG MZVLB512HBJQ-000L7");
	assert_jstr(rec, "storage.device.recommended_scheduler", "none");
	assert_jnull(rec, "storage.device.numa_node");
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);

	const char *const guests[] = { "x86-kvm-steal", "qemu-tcg-x86" };
	for (size_t i = 0; i < ARRAY_SIZE(guests); i++) {
		rec = probe_fixture(guests[i], NULL);
		assert_jstr(rec, "storage.device.name", "vda");
		assert_jstr(rec, "storage.device.kind", "virtio");
		assert_true(jpath_bool(rec, "storage.device.rotational", &rot) && rot);
		assert_jstr(rec, "storage.device.scheduler", "none");
		assert_false(has_finding(rec, "storage.slow-medium"));
		json_object_put(rec);
	}
	rec = probe_fixture("x86-kvm-steal", NULL);
	assert_jstr(rec, "storage.mount.options", "rw,relatime,discard,errors=remount-ro");
	json_object_put(rec);
}

static void root_boards(void **state)
{
	/* /dev/root resolved through 179:6 */
	json_object *rec = probe_fixture("rk3568-emmc-el2", NULL);
	assert_jstr(rec, "storage.mount.source", "/dev/root");
	assert_jstr(rec, "storage.device.name", "mmcblk0");
	assert_jstr(rec, "storage.device.partition", "mmcblk0p6");
	assert_jstr(rec, "storage.device.mmc_type", "emmc");
	assert_jstr(rec, "storage.device.model", "AJTD4R");
	/* bfq not offered: mq-deadline is the recommendation, and it is in use */
	assert_jstr(rec, "storage.device.recommended_scheduler", "mq-deadline");
	assert_non_null(strstr(jpath_str(rec, "storage.device.scheduler_note"), "bfq is not offered"));
	assert_true(has_finding(rec, "storage.slow-medium"));
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);

	rec = probe_fixture("rpi4-undervoltage", NULL);
	assert_jstr(rec, "storage.mount.options", "rw,noatime");
	assert_jstr(rec, "storage.device.name", "mmcblk0");
	assert_jstr(rec, "storage.device.mmc_type", "sd");
	assert_jstr(rec, "storage.device.model", "SC64G");
	assert_jstr(rec, "storage.device.recommended_scheduler", "bfq");
	assert_true(has_finding(rec, "storage.slow-medium"));
	assert_string_equal(finding_field(rec, "storage.scheduler", "evidence"),
			    "/sys/block/mmcblk0/queue/scheduler = mq-deadline (recommended bfq for SD card)");
	json_object_put(rec);
}

/* ---- a synthetic workstation with every case the dumps lack ---- */

#define AHCI "/sys/devices/pci0000:00/0000:00:1f.2"
#define SDA AHCI "/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define SDB AHCI "/ata2/host1/target1:0:0/1:0:0:0/block/sdb"
#define NVME_PCI "/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0"
#define NVME NVME_PCI "/nvme/nvme0/nvme0n1"
#define XHCI "/sys/devices/pci0000:00/0000:00:14.0"
#define SDC XHCI "/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdc"
#define MMC_HOST "/sys/devices/platform/fe2b0000.mmc"
#define MMC MMC_HOST "/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0"
#define VIRT "/sys/devices/virtual/block"

/* A slave link of a stacked device to a partition. */
static void blk_slave(const char *root, const char *dir, const char *name, const char *target_dir)
{
	_cleanup_free_ char *link = xasprintf("%s/slaves/%s", dir, name);
	_cleanup_free_ char *target = xasprintf("../../../../%s", target_dir + strlen("/sys/devices/"));
	tmproot_link(root, link, target);
}

static const char workstation_mountinfo[] =
	"21 1 8:2 / / rw,relatime - ext4 /dev/sda2 rw\n"
	"22 21 253:0 / /home rw,relatime - ext4 /dev/mapper/cryptroot rw\n"
	"23 21 9:0 / /srv/raid rw,noatime - xfs /dev/md0 rw,attr2\n"
	"24 21 8:33 / /media/stick rw,nosuid - vfat /dev/sdc1 rw\n"
	"25 21 179:2 / /mnt/sd rw,noatime - ext4 /dev/mmcblk0p2 rw\n"
	"26 21 252:0 / /mnt/zram rw - ext4 /dev/zram0 rw\n"
	"27 21 7:0 / /mnt/img rw - ext4 /dev/loop0 rw\n"
	"28 21 0:60 / /mnt/nfs rw - nfs4 fileserver:/export/bench rw,vers=4.2\n"
	"29 21 0:61 / /srv/ctr rw - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A,"
	"upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/var/lib/docker/overlay2/abc/work\n"
	"30 21 0:62 / /tmp rw,nosuid,nodev - tmpfs tmpfs rw\n"
	"31 21 8:17 / /var/lib/docker rw - ext4 /dev/sdb1 rw\n";

static char *workstation(void)
{
	char *r = tmproot_new();
	tmproot_write(r, "/proc/self/mountinfo", workstation_mountinfo);
	tmproot_write(r, "/proc/meminfo", "MemTotal:       16314164 kB\nMemFree:        1000 kB");

	/* SATA: an SSD and an HDD on ahci, node 0 */
	pci_function(r, AHCI, "ahci", "0");
	blk_disk(r, SDA, "8:0", "[mq-deadline] kyber bfq none", "0", "0");
	blk_attr(r, SDA, "device/model", "Samsung SSD 870");
	blk_part(r, SDA, "sda1", "8:1", "1");
	blk_part(r, SDA, "sda2", "8:2", "2");
	blk_disk(r, SDB, "8:16", "mq-deadline kyber [bfq] none", "1", "0");
	blk_attr(r, SDB, "device/model", "WDC WD40EFRX-68N");
	blk_part(r, SDB, "sdb1", "8:17", "1");
	blk_part(r, SDB, "sdb2", "8:18", "2");

	/* dm-crypt on an NVMe partition; the NVMe sits on node 1 */
	pci_function(r, NVME_PCI, "nvme", "1");
	blk_disk(r, NVME, "259:0", "[none] mq-deadline", "0", "0");
	tmproot_link(r, NVME "/device", "../../nvme0");
	tmproot_write(r, NVME_PCI "/nvme/nvme0/model", "Samsung SSD 980 PRO 1TB");
	blk_part(r, NVME, "nvme0n1p3", "259:3", "3");
	blk_disk(r, VIRT "/dm-0", "253:0", "none", "0", "0");
	blk_attr(r, VIRT "/dm-0", "dm/name", "cryptroot");
	blk_attr(r, VIRT "/dm-0", "dm/uuid", "CRYPT-LUKS2-6c9e4a51a2b44c59a3b1e8f0c0d1e2f3-cryptroot");
	blk_slave(r, VIRT "/dm-0", "nvme0n1p3", NVME "/nvme0n1p3");

	/* md raid1 over the second partitions of both SATA disks */
	blk_disk(r, VIRT "/md0", "9:0", "none", "1", "0");
	blk_attr(r, VIRT "/md0", "md/level", "raid1");
	blk_slave(r, VIRT "/md0", "sda1", SDA "/sda1");
	blk_slave(r, VIRT "/md0", "sdb2", SDB "/sdb2");

	/* a USB stick that claims to rotate */
	pci_function(r, XHCI, "xhci_hcd", "0");
	blk_disk(r, SDC, "8:32", "mq-deadline kyber [bfq] none", "1", "1");
	blk_attr(r, SDC, "device/model", "DataTraveler 3.0");
	blk_part(r, SDC, "sdc1", "8:33", "1");

	/* an SD card on a platform controller */
	tmproot_link(r, MMC_HOST "/driver", "../../../bus/platform/drivers/dwmmc_rockchip");
	blk_disk(r, MMC, "179:0", "[mq-deadline] kyber bfq none", "0", "0");
	tmproot_link(r, MMC "/device", "../../../mmc0:aaaa");
	tmproot_write(r, MMC_HOST "/mmc_host/mmc0/mmc0:aaaa/type", "SD");
	tmproot_write(r, MMC_HOST "/mmc_host/mmc0/mmc0:aaaa/name", "SC32G");
	blk_part(r, MMC, "mmcblk0p2", "179:2", "2");

	blk_disk(r, VIRT "/zram0", "252:0", "none", "0", "0");
	blk_disk(r, VIRT "/loop0", "7:0", "[none] mq-deadline", "0", "0");
	blk_attr(r, VIRT "/loop0", "loop/backing_file", "/images/bench.img");
	return r;
}

static int workstation_setup(void **state)
{
	*state = workstation();
	return 0;
}

/* The record of one workdir, with findings. */
static json_object *ws_probe(void **state, const char *workdir)
{
	return probe_storage_numa_findings(*state, workdir);
}

static void ws_sata_ssd(void **state)
{
	json_object *rec = ws_probe(state, "/root/ub");
	assert_jstr(rec, "storage.device.name", "sda");
	assert_jstr(rec, "storage.device.partition", "sda2");
	assert_jstr(rec, "storage.device.kind", "ssd");
	assert_jstr(rec, "storage.device.model", "Samsung SSD 870");
	assert_jstr(rec, "storage.device.controller.driver", "ahci");
	assert_int_equal(jint(rec, "storage.device.numa_node"), 0);
	assert_false(has_finding(rec, "storage.scheduler"));
	assert_false(has_finding(rec, "storage.slow-medium"));
	json_object_put(rec);
}

static void ws_dm_crypt_on_nvme(void **state)
{
	json_object *rec = ws_probe(state, "/home/me");
	assert_jstr(rec, "storage.mount.source", "/dev/mapper/cryptroot");
	assert_jstr(rec, "storage.device.name", "dm-0");
	assert_jstr(rec, "storage.device.layer", "dm");
	assert_jstr(rec, "storage.device.layer_type", "crypt");
	assert_jstr(rec, "storage.device.dm_name", "cryptroot");
	assert_jstr(rec, "storage.device.kind", "nvme");
	assert_jnull(rec, "storage.device.recommended_scheduler");
	assert_int_equal(jpath_len(rec, "storage.device.slaves"), 1);
	assert_jstr(rec, "storage.device.slaves.0.name", "nvme0n1");
	assert_jstr(rec, "storage.device.slaves.0.model", "Samsung SSD 980 PRO 1TB");
	assert_jstr(rec, "storage.device.slaves.0.controller.pci", "0000:02:00.0");
	assert_int_equal(jint(rec, "storage.device.slaves.0.numa_node"), 1);
	assert_int_equal(jint(rec, "storage.device.numa_node"), 1);
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);
}

static void ws_md_raid1(void **state)
{
	json_object *rec = ws_probe(state, "/srv/raid/ub");
	assert_jstr(rec, "storage.device.name", "md0");
	assert_jstr(rec, "storage.device.layer", "md");
	assert_jstr(rec, "storage.device.layer_type", "raid1");
	assert_int_equal(jpath_len(rec, "storage.device.slaves"), 2);
	assert_jstr(rec, "storage.device.slaves.0.name", "sda");
	assert_jstr(rec, "storage.device.slaves.1.name", "sdb");
	/* one SSD and one HDD: no single kind */
	assert_jstr(rec, "storage.device.kind", "unknown");
	/* the HDD half makes it slow; sda's scheduler is fine, sdb's is bfq as it should be */
	assert_true(has_finding(rec, "storage.slow-medium"));
	assert_string_equal(finding_field(rec, "storage.slow-medium", "evidence"), "/sys/block/sdb/queue/rotational = 1");
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);
}

static void ws_usb_stick(void **state)
{
	json_object *rec = ws_probe(state, "/media/stick/ub");
	bool b;
	assert_jstr(rec, "storage.device.name", "sdc");
	assert_jstr(rec, "storage.device.kind", "usb");
	assert_true(jpath_bool(rec, "storage.device.removable", &b) && b);
	assert_jstr(rec, "storage.device.controller.driver", "xhci_hcd");
	assert_true(has_finding(rec, "storage.slow-medium"));
	assert_non_null(strstr(finding_field(rec, "storage.slow-medium", "message"), "USB disk"));
	assert_non_null(strstr(finding_field(rec, "storage.slow-medium", "evidence"), "/usb2/"));
	json_object_put(rec);
}

static void ws_sd_card(void **state)
{
	json_object *rec = ws_probe(state, "/mnt/sd/ub");
	assert_jstr(rec, "storage.device.name", "mmcblk0");
	assert_jstr(rec, "storage.device.kind", "mmc");
	assert_jstr(rec, "storage.device.mmc_type", "sd");
	assert_jstr(rec, "storage.device.model", "SC32G");
	assert_jstr(rec, "storage.device.scheduler", "mq-deadline");
	assert_jstr(rec, "storage.device.recommended_scheduler", "bfq");
	assert_jnull(rec, "storage.device.controller.pci");
	assert_jstr(rec, "storage.device.controller.driver", "dwmmc_rockchip");
	assert_jstr(rec, "storage.device.controller.path", MMC_HOST);
	assert_jnull(rec, "storage.device.numa_node");
	assert_string_equal(finding_field(rec, "storage.scheduler", "evidence"),
			    "/sys/block/mmcblk0/queue/scheduler = mq-deadline (recommended bfq for SD card)");
	assert_non_null(strstr(finding_field(rec, "storage.scheduler", "fix"),
			       "echo bfq > /sys/block/mmcblk0/queue/scheduler"));
	assert_string_equal(finding_field(rec, "storage.slow-medium", "evidence"),
			    "/sys/block/mmcblk0/device/type = SD");
	assert_non_null(strstr(finding_field(rec, "storage.slow-medium", "message"), "an SD card"));
	json_object_put(rec);
}

static void ws_emmc(void **state)
{
	tmproot_write(*state, MMC_HOST "/mmc_host/mmc0/mmc0:aaaa/type", "MMC");
	json_object *rec = ws_probe(state, "/mnt/sd");
	tmproot_write(*state, MMC_HOST "/mmc_host/mmc0/mmc0:aaaa/type", "SD");
	assert_jstr(rec, "storage.device.mmc_type", "emmc");
	assert_non_null(strstr(finding_field(rec, "storage.slow-medium", "message"), "an eMMC"));
	assert_string_equal(finding_field(rec, "storage.slow-medium", "evidence"),
			    "/sys/block/mmcblk0/device/type = MMC");
	json_object_put(rec);
}

static void ws_zram_loop_nfs_tmpfs(void **state)
{
	json_object *rec = ws_probe(state, "/mnt/zram");
	assert_jstr(rec, "storage.device.kind", "zram");
	assert_jstr(rec, "storage.device.recommended_scheduler", "none");
	assert_jnull(rec, "storage.device.controller");
	assert_int_equal(jpath_len(rec, "numa.storage_irqs"), 0);
	assert_non_null(jpath(rec, "numa.storage_irqs"));
	json_object_put(rec);

	rec = ws_probe(state, "/mnt/img/x");
	assert_jstr(rec, "storage.device.kind", "loop");
	assert_jstr(rec, "storage.device.backing.path", "/images/bench.img");
	assert_jstr(rec, "storage.device.backing.mount.target", "/");
	assert_jstr(rec, "storage.device.backing.device.name", "sda");
	json_object_put(rec);

	rec = ws_probe(state, "/mnt/nfs/ub");
	assert_jstr(rec, "storage.device.kind", "nfs");
	assert_jstr(rec, "storage.device.remote", "fileserver:/export/bench");
	assert_jnull(rec, "storage.device.scheduler");
	assert_false(has_finding(rec, "storage.scheduler"));
	json_object_put(rec);

	rec = ws_probe(state, "/tmp");
	assert_jstr(rec, "storage.device.kind", "tmpfs");
	assert_false(has_finding(rec, "storage.slow-medium"));
	json_object_put(rec);
}

static void ws_overlay(void **state)
{
	json_object *rec = ws_probe(state, "/srv/ctr/tmp");
	assert_jstr(rec, "storage.mount.fstype", "overlay");
	assert_jstr(rec, "storage.device.kind", "overlay");
	assert_jstr(rec, "storage.device.backing.path", "/var/lib/docker/overlay2/abc/diff");
	assert_jstr(rec, "storage.device.backing.mount.target", "/var/lib/docker");
	assert_jstr(rec, "storage.device.backing.device.name", "sdb");
	/* the HDD under the container's upper layer is what the file tests hit */
	assert_true(has_finding(rec, "storage.slow-medium"));
	json_object_put(rec);
}

/* Inside a container: the upper layer is outside its mount table. */
static void overlay_in_container(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "/proc/self/mountinfo",
	      "500 400 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A:"
	      "/var/lib/docker/overlay2/l/B,upperdir=/var/lib/docker/overlay2/abc/diff,workdir=/x/work");
	json_object *rec = probe_storage_numa(r, "/ub");
	assert_jstr(rec, "storage.device.kind", "overlay");
	assert_jstr(rec, "storage.device.backing.path", "/var/lib/docker/overlay2/abc/diff");
	assert_jnull(rec, "storage.device.backing.device");
	json_object_put(rec);
	tmproot_free(r);
}

/* A Raspberry Pi style root: /proc/mounts names /dev/root, the command line says which device. */
static void dev_root_from_cmdline(void **state)
{
	char *r = workstation();
	_cleanup_free_ char *mi = xasprintf("%s/proc/self/mountinfo", r);
	assert_int_equal(unlink(mi), 0);
	tmproot_write(r, "/proc/mounts", "/dev/root / ext4 rw,noatime 0 0\nproc /proc proc rw 0 0");
	tmproot_write(r, "/proc/cmdline", "coherent_pool=1M console=ttyS0,115200 root=/dev/mmcblk0p2 rootfstype=ext4 rootwait");
	json_object *rec = probe_storage_numa(r, "/home/pi/ub");
	assert_jstr(rec, "storage.mount.source", "/dev/root");
	assert_jstr(rec, "storage.device.name", "mmcblk0");
	assert_jstr(rec, "storage.device.partition", "mmcblk0p2");
	json_object_put(rec);

	/* /dev/mapper names resolve through dm/name when /dev is not in the root */
	tmproot_write(r, "/proc/mounts", "/dev/mapper/cryptroot / ext4 rw 0 0");
	rec = probe_storage_numa(r, "/");
	assert_jstr(rec, "storage.device.name", "dm-0");
	json_object_put(rec);
	tmproot_free(r);
}

/* A hostile dump whose dm devices are each other's slaves, and a huge IRQ number. */
static void hostile_stack(void **state)
{
	char *r = tmproot_new();
	tmproot_write(r, "/proc/self/mountinfo", "21 1 253:0 / / rw - ext4 /dev/dm-0 rw");
	blk_disk(r, VIRT "/dm-0", "253:0", "none", "0", "0");
	blk_disk(r, VIRT "/dm-1", "253:1", "none", "0", "0");
	blk_slave(r, VIRT "/dm-0", "dm-1", VIRT "/dm-1");
	blk_slave(r, VIRT "/dm-1", "dm-0", VIRT "/dm-0");
	json_object *rec = probe_storage_numa(r, "/");
	assert_jstr(rec, "storage.device.name", "dm-0");
	assert_int_equal(jpath_len(rec, "storage.device.slaves"), 0);
	assert_jstr(rec, "storage.device.kind", "unknown");
	json_object_put(rec);

	pci_function(r, AHCI, "ahci", "0");
	blk_disk(r, SDA, "8:0", "[none]", "0", "0");
	tmproot_write(r, AHCI "/msi_irqs/4294967295", "msi");
	tmproot_write(r, "/proc/self/mountinfo", "21 1 8:0 / / rw - ext4 /dev/sda rw");
	rec = probe_storage_numa(r, "/");
	assert_int_equal(jint(rec, "numa.storage_irqs.0.irq"), 4294967295ll);
	json_object_put(rec);
	tmproot_free(r);
}

static void no_mount_table(void **state)
{
	char *r = tmproot_new();
	tmproot_parents(r, "/proc/");
	json_object *rec = probe_storage_numa(r, "/");
	assert_jstr(rec, "storage.workdir", "/");
	assert_jnull(rec, "storage.mount");
	assert_jnull(rec, "storage.device");
	assert_jnull(rec, "numa.storage_irqs");
	assert_true(unavailable_mentions(rec, "storage", "no mount table"));
	json_object_put(rec);
	tmproot_free(r);
}

/* ---- rules on record literals ---- */

static json_object *disk_rec(const char *dev)
{
	_cleanup_free_ char *s = xasprintf("{\"storage\": {\"device\": %s}}", dev);
	return json_lit(s);
}


static void rule_scheduler(void **state)
{
	struct finding f;
	json_object *rec = disk_rec("{\"name\": \"sda\", \"kind\": \"ssd\", \"scheduler\": \"bfq\", "
				    "\"recommended_scheduler\": \"mq-deadline\"}");
	assert_true(rule_fires("storage.scheduler", rec, &f));
	assert_int_equal(f.severity, SEV_WARN);
	assert_string_equal(f.evidence, "/sys/block/sda/queue/scheduler = bfq (recommended mq-deadline for SSD)");
	assert_string_equal(f.fix, "echo mq-deadline > /sys/block/sda/queue/scheduler (as root), or "
				   "`[io] scheduler = auto` in a profile");
	finding_clear(&f);
	json_object_put(rec);

	rec = disk_rec("{\"name\": \"nvme0n1\", \"kind\": \"nvme\", \"scheduler\": \"none\", "
		       "\"recommended_scheduler\": \"none\"}");
	assert_false(rule_fires("storage.scheduler", rec, &f));
	json_object_put(rec);
	/* nothing to recommend, or scheduler unknown: no finding */
	rec = disk_rec("{\"name\": \"xvda\", \"kind\": \"unknown\", \"scheduler\": \"none\", "
		       "\"recommended_scheduler\": null}");
	assert_false(rule_fires("storage.scheduler", rec, &f));
	json_object_put(rec);
	rec = disk_rec("{\"name\": null, \"kind\": \"tmpfs\", \"scheduler\": null, \"recommended_scheduler\": null}");
	assert_false(rule_fires("storage.scheduler", rec, &f));
	json_object_put(rec);

	/* stacked: the physical disks' schedulers are judged */
	rec = disk_rec("{\"name\": \"md0\", \"kind\": \"hdd\", \"scheduler\": \"none\", \"recommended_scheduler\": null,"
		       " \"slaves\": [{\"name\": \"sda\", \"kind\": \"hdd\", \"scheduler\": \"bfq\", "
		       "\"recommended_scheduler\": \"bfq\"}, {\"name\": \"sdb\", \"kind\": \"hdd\", "
		       "\"scheduler\": \"none\", \"recommended_scheduler\": \"bfq\"}]}");
	assert_true(rule_fires("storage.scheduler", rec, &f));
	assert_string_equal(f.evidence, "/sys/block/sdb/queue/scheduler = none (recommended bfq for HDD)");
	finding_clear(&f);
	json_object_put(rec);
}

static void rule_slow_medium(void **state)
{
	struct finding f;
	json_object *rec = disk_rec("{\"name\": \"mmcblk0\", \"kind\": \"mmc\", \"mmc_type\": \"sd\"}");
	assert_true(rule_fires("storage.slow-medium", rec, &f));
	assert_string_equal(f.evidence, "/sys/block/mmcblk0/device/type = SD");
	assert_non_null(strstr(f.message, "on an SD card"));
	assert_non_null(strstr(f.fix, "[workdir] type = tmpfs"));
	finding_clear(&f);
	json_object_put(rec);

	rec = disk_rec("{\"name\": \"sdb\", \"kind\": \"hdd\"}");
	assert_true(rule_fires("storage.slow-medium", rec, &f));
	assert_string_equal(f.evidence, "/sys/block/sdb/queue/rotational = 1");
	assert_non_null(strstr(f.message, "on an HDD"));
	finding_clear(&f);
	json_object_put(rec);

	/* a slow disk under an overlay counts */
	rec = disk_rec("{\"name\": null, \"kind\": \"overlay\", \"backing\": {\"path\": \"/var/lib/docker\", "
		       "\"device\": {\"name\": \"sdc\", \"kind\": \"usb\", \"syspath\": \"/sys/devices/x/usb1/1-1/sdc\"}}}");
	assert_true(rule_fires("storage.slow-medium", rec, &f));
	assert_string_equal(f.evidence, "/sys/block/sdc -> /sys/devices/x/usb1/1-1/sdc (under a USB port)");
	finding_clear(&f);
	json_object_put(rec);

	/* virtio (rotational 1 by default), NVMe, tmpfs: not slow */
	for (const char *const *k = (const char *const[]){ "virtio", "nvme", "ssd", "tmpfs", "zram", NULL }; *k; k++) {
		_cleanup_free_ char *d = xasprintf("{\"name\": \"x\", \"kind\": \"%s\", \"rotational\": true}", *k);
		rec = disk_rec(d);
		assert_false(rule_fires("storage.slow-medium", rec, &f));
		json_object_put(rec);
	}
	rec = json_lit("{\"storage\": {\"device\": null}}");
	assert_false(rule_fires("storage.slow-medium", rec, &f));
	json_object_put(rec);
}

/* The text report's Storage lines. */
static void render(void **state)
{
	json_object *rec = ws_probe(state, "/home/me");
	char *text = render_text(storage_render, rec);
	assert_non_null(strstr(text, "Storage   workdir /home/me → /dev/mapper/cryptroot ext4 (rw,relatime) on dm-0 "
				     "(dm crypt) over NVMe nvme0n1\n"));
	assert_non_null(strstr(text, "          nvme0n1: scheduler none (recommended for NVMe) · not rotational · "
				     "read-ahead 128 KiB · nvme at 0000:02:00.0, node 1\n"));
	free(text);
	json_object_put(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mountinfo_parsing),
		cmocka_unit_test(mounts_parsing_and_lookup),
		cmocka_unit_test(kinds),
		cmocka_unit_test(recommendations),
		cmocka_unit_test(lsblk_flattened),
		cmocka_unit_test(composite_bfq),
		cmocka_unit_test(overlay_in_container),
		cmocka_unit_test(dev_root_from_cmdline),
		cmocka_unit_test(hostile_stack),
		cmocka_unit_test(no_mount_table),
		cmocka_unit_test(rule_scheduler),
		cmocka_unit_test(rule_slow_medium),
	};
	const struct CMUnitTest ws[] = {
		cmocka_unit_test(ws_sata_ssd),
		cmocka_unit_test(ws_dm_crypt_on_nvme),
		cmocka_unit_test(ws_md_raid1),
		cmocka_unit_test(ws_usb_stick),
		cmocka_unit_test(ws_sd_card),
		cmocka_unit_test(ws_emmc),
		cmocka_unit_test(ws_zram_loop_nfs_tmpfs),
		cmocka_unit_test(ws_overlay),
		cmocka_unit_test(render),
	};
	const struct CMUnitTest roots[] = {
		cmocka_unit_test(root_ft2000),
		cmocka_unit_test(root_laptop_and_guests),
		cmocka_unit_test(root_boards),
	};
	const struct CMUnitTest dumps[] = {
		cmocka_unit_test(lsblk_ground_truth),
		cmocka_unit_test(lsblk_devices),
		cmocka_unit_test(virtio_guest),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	failed += cmocka_run_group_tests_name("machine roots", roots, NULL, NULL);
	failed += cmocka_run_group_tests_name("relinked dumps", dumps, dumps_setup, dumps_teardown);
	return failed + cmocka_run_group_tests_name("workstation", ws, workstation_setup, tmproot_teardown);
}
