/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Virtualisation: parsers, real guest dumps against their recorded verdicts, host side, findings. */
#include <zlib.h>

#include "lib/gunzip.h"
#include "probe/virt.h"
#include "probetest.h"

/* ---- parsers -------------------------------------------------------- */

static void cpuid_signatures(void **state)
{
	assert_string_equal(virt_cpuid_signature("KVMKVMKVM")->hypervisor, "kvm");
	assert_string_equal(virt_cpuid_signature("TCGTCGTCGTCG")->hypervisor, "qemu-tcg");
	assert_string_equal(virt_cpuid_signature("VMwareVMware")->hypervisor, "vmware");
	assert_string_equal(virt_cpuid_signature("XenVMMXenVMM")->hypervisor, "xen");
	assert_string_equal(virt_cpuid_signature("bhyve bhyve")->hypervisor, "bhyve");
	/* Hyper-V's leaf is offered by KVM and Xen too: a weak name */
	const struct virt_signature *hv = virt_cpuid_signature("Microsoft Hv");
	assert_string_equal(hv->hypervisor, "hyperv");
	assert_int_equal(hv->rank, VIRT_WEAK);
	assert_null(virt_cpuid_signature("GenuineIntel"));
	assert_null(virt_cpuid_signature(""));
}

static void cpuid_file(void **state)
{
	bool bit;
	char *vendor = NULL;
	assert_int_equal(virt_parse_cpuid_file("hypervisor_bit=1\nvendor=KVMKVMKVM\n", &bit, &vendor), 0);
	assert_true(bit);
	assert_string_equal(vendor, "KVMKVMKVM");
	free(vendor);

	/* without the bit the vendor leaf is not a hypervisor's */
	assert_int_equal(virt_parse_cpuid_file("hypervisor_bit=0\nvendor=GenuineIntel\n", &bit, &vendor), 0);
	assert_false(bit);
	assert_null(vendor);

	assert_int_equal(virt_parse_cpuid_file("vendor=KVMKVMKVM\n", &bit, &vendor), -EBADMSG);
	assert_int_equal(virt_parse_cpuid_file("hypervisor_bit=yes\n", &bit, &vendor), -EBADMSG);
	assert_int_equal(virt_parse_cpuid_file("hypervisor_bit=1\nvendor=ABCDEFGHIJKLMNOP\n", &bit, &vendor), -EBADMSG);
	assert_int_equal(virt_parse_cpuid_file("hypervisor_bit=1\nvendor=KVM\x01KVM\n", &bit, &vendor), -EBADMSG);
	assert_int_equal(virt_parse_cpuid_file("", &bit, &vendor), -EBADMSG);
}

static void boot_el_lines(void **state)
{
	/* dmesg text as a dump carries it, through the same stripping as live logs */
	_cleanup_free_ char *el2 = klog_strip("[    0.012345] smp: Brought up 1 node, 4 CPUs\n"
					      "[    0.012400] SMP: Total of 4 processors activated.\n"
					      "[    0.012500] CPU: All CPU(s) started at EL2\n");
	_cleanup_free_ char *el1 = klog_strip("<6>[    0.05] CPU: All CPU(s) started at EL1\n");
	_cleanup_free_ char *mixed = klog_strip("6,120,51000,-;CPU: CPUs started in inconsistent modes\n");
	char *line = NULL;

	assert_string_equal(virt_boot_el(el2, &line), "EL2");
	assert_string_equal(line, "CPU: All CPU(s) started at EL2");
	assert_string_equal(virt_boot_el(el1, &line), "EL1");
	assert_string_equal(virt_boot_el(mixed, &line), "mixed");
	assert_string_equal(line, "CPU: CPUs started in inconsistent modes");
	free(line);
	assert_null(virt_boot_el("Booting Linux on physical CPU 0x0\n", NULL));
	assert_null(virt_boot_el("", NULL));
}

static void kvm_init_lines(void **state)
{
	char *line = NULL;
	assert_int_equal(virt_kvm_initialized("kvm [1]: IPA Size Limit: 40 bits\n"
					      "kvm [1]: Hyp mode initialized successfully\n", &line), 1);
	assert_string_equal(line, "kvm [1]: Hyp mode initialized successfully");
	assert_int_equal(virt_kvm_initialized("kvm [1]: VHE mode initialized successfully\n", NULL), 1);
	assert_int_equal(virt_kvm_initialized("kvm [1]: Hyp nVHE mode initialized successfully\n", NULL), 1);
	assert_int_equal(virt_kvm_initialized("kvm [1]: Protected nVHE mode initialized successfully\n", NULL), 1);
	assert_int_equal(virt_kvm_initialized("kvm [1]: HYP mode not available\n", &line), 0);
	assert_string_equal(line, "kvm [1]: HYP mode not available");
	assert_int_equal(virt_kvm_initialized("HYP mode not available\n", NULL), 0);
	assert_int_equal(virt_kvm_initialized("kvm: disabled by bios\n", NULL), 0);
	assert_int_equal(virt_kvm_initialized("kvm_intel: VMX not enabled (by BIOS) in MSR_IA32_FEAT_CTL on CPU 0\n", NULL), 0);
	free(line);
	/* other drivers' "initialized successfully" lines say nothing about KVM */
	assert_int_equal(virt_kvm_initialized("snd: PCM mode initialized successfully\n", NULL), -1);
	assert_int_equal(virt_kvm_initialized("", NULL), -1);
}

static void kernel_config(void **state)
{
	const char *config = "#\n# Automatically generated file; DO NOT EDIT.\n"
			     "CONFIG_VIRTUALIZATION=y\nCONFIG_KVM=m\n# CONFIG_KVM_WERROR is not set\n"
			     "# CONFIG_XEN is not set\nCONFIG_KVM_GUEST=y\n";
	assert_int_equal(virt_kconfig(config, "VIRTUALIZATION"), 'y');
	assert_int_equal(virt_kconfig(config, "KVM"), 'm');
	assert_int_equal(virt_kconfig(config, "XEN"), 'n');
	/* an absent symbol is "not set" in Kconfig */
	assert_int_equal(virt_kconfig(config, "KVM_ARM_HOST"), 'n');
	assert_int_equal(virt_kconfig("CONFIG_KVMX=y\n", "KVM"), 'n');
}

static void steal_share(void **state)
{
	double pct;
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	assert_int_equal(virt_parse_steal("cpu  900 0 300 8000 200 0 100 500 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", &pct), 0);
	assert_true(pct == 5.0);
	assert_int_equal(virt_parse_steal("intr 1 2\ncpu  4018 2709 5999 163257 637 0 68 15 0 0\n", &pct), 0);
	assert_true(pct == 0.01);
	/* 2.4 kernels: no steal column */
	assert_int_equal(virt_parse_steal("cpu  1 2 3 4\n", &pct), -EBADMSG);
	assert_int_equal(virt_parse_steal("cpu  0 0 0 0 0 0 0 0 0 0\n", &pct), -EBADMSG);
	assert_int_equal(virt_parse_steal("cpu0 1 2 3 4 5 6 7 8\n", &pct), -EBADMSG);
}

/* gzip data made here with zlib, as /proc/config.gz is. */
static void *gzip_bytes(const char *text, size_t *len)
{
	z_stream z = {0};
	size_t cap = strlen(text) + 256;
	unsigned char *out = xmalloc(cap);
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

static void gunzip(void **state)
{
	const char *text = "CONFIG_VIRTUALIZATION=y\nCONFIG_KVM=y\n";
	size_t len, out_len;
	_cleanup_free_ void *gz = gzip_bytes(text, &len);
	char *out = NULL;

	assert_int_equal(gunzip_mem(gz, len, 1 << 20, &out, &out_len), 0);
	assert_string_equal(out, text);
	assert_int_equal(out_len, strlen(text));
	free(out);
	assert_int_equal(gunzip_mem(gz, len - 6, 1 << 20, &out, NULL), -EBADMSG);
	assert_int_equal(gunzip_mem(gz, len, 8, &out, NULL), -EFBIG);
	assert_int_equal(gunzip_mem(text, strlen(text), 1 << 20, &out, NULL), -EBADMSG);
}

/* ---- real guest dumps ----------------------------------------------- */

/* The hypervisor id a dump's recorded verdict names: virt-what's first
 * line, or lscpu's "Hypervisor vendor". */
static const char *verdict_id(const char *verdict)
{
	static const struct {
		const char *verdict, *id;
	} map[] = {
		{ "kvm", "kvm" }, { "xen", "xen" }, { "vmware", "vmware" }, { "hyperv", "hyperv" },
		{ "Oracle", "virtualbox" }, { "Xen", "xen" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (streq(verdict, map[i].verdict))
			return map[i].id;
	fail_msg("verdict %s has no hypervisor id", verdict);
	return NULL;
}

/* First line of _aux/virt-what-expected.txt, or lscpu's "Hypervisor vendor:" value. */
static char *recorded_verdict(const char *dump)
{
	_cleanup_free_ char *root = fixture_root(dump);
	_cleanup_free_ char *vw = xasprintf("%s/_aux/virt-what-expected.txt", root);
	_cleanup_free_ char *lscpu = xasprintf("%s/_aux/lscpu-expected.txt", root);
	char buf[4096] = "";
	FILE *f = fopen(vw, "re");
	const char *key = NULL;
	if (!f) {
		f = fopen(lscpu, "re");
		key = "Hypervisor vendor:";
	}
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		const char *v = key ? startswith(buf, key) : buf;
		if (v) {
			fclose(f);
			char *s = xstrdup(v);
			return strstrip(s);
		}
	}
	fclose(f);
	fail_msg("%s: no verdict recorded", dump);
	return NULL;
}

/* "Manufacturer" of the "System Information" section of dmidecode text; NULL
 * when missing or unset (sysfs then holds an empty file). */
static char *dmidecode_field(const char *text, const char *section, const char *key)
{
	const char *s = strstr(text, section);
	if (!s)
		return NULL;
	const char *end = strstr(s, "\n\n");
	_cleanup_free_ char *needle = xasprintf("\n\t%s: ", key);
	const char *k = strstr(s, needle);
	if (!k || (end && k > end))
		return NULL;
	k += strlen(needle);
	char *v = strstrip(xstrndup(k, strcspn(k, "\n")));
	if (!*v || streq(v, "Not Specified")) {
		free(v);
		return NULL;
	}
	return v;
}

static char *read_text(const char *path)
{
	struct rootfs *rf;
	char *text = NULL;
	assert_int_equal(rootfs_new("/", &rf), 0);
	if (rootfs_read(rf, path, &text, NULL) < 0)
		text = NULL;
	rootfs_free(rf);
	return text;
}

/*
 * A copy of a virt-what dump carrying what `ubtune gather` would have
 * archived on that guest: /.ubtune/cpuid from the CPUID signature and the
 * sysfs DMI files from the dmidecode text that virt-what's test kept
 * beside the dump (_aux/, which a probe never reads).
 */
static char *gathered_copy(const char *dump)
{
	char *root = tmproot_copy(dump);
	_cleanup_free_ char *sig_path = xasprintf("%s/_aux/cpuid-hypervisor-signature.txt", root);
	_cleanup_free_ char *dmi_path = xasprintf("%s/_aux/dmidecode.txt", root);
	_cleanup_free_ char *sig = read_text(sig_path), *dmi = read_text(dmi_path);
	static const struct {
		const char *section, *key, *file;
	} fields[] = {
		{ "System Information", "Manufacturer", "sys/class/dmi/id/sys_vendor" },
		{ "System Information", "Product Name", "sys/class/dmi/id/product_name" },
		{ "System Information", "Version", "sys/class/dmi/id/product_version" },
		{ "Base Board Information", "Manufacturer", "sys/class/dmi/id/board_vendor" },
		{ "BIOS Information", "Vendor", "sys/class/dmi/id/bios_vendor" },
	};

	if (sig) {
		_cleanup_free_ char *cpuid = xasprintf("hypervisor_bit=1\nvendor=%s", strstrip(sig));
		tmproot_write(root, ".ubtune/cpuid", cpuid);
	}
	for (size_t i = 0; dmi && i < ARRAY_SIZE(fields); i++) {
		_cleanup_free_ char *v = dmidecode_field(dmi, fields[i].section, fields[i].key);
		tmproot_write(root, fields[i].file, v ?: "");
	}
	return root;
}

static json_object *evidence_from(json_object *rec, const char *source_prefix)
{
	size_t n = jpath_len(rec, "virt.evidence");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(jpath(rec, "virt.evidence"), i);
		if (startswith(jpath_str(e, "source") ?: "", source_prefix))
			return e;
	}
	return NULL;
}

/*
 * Each dump as stored: what its own files show. Where the hypervisor is
 * visible there (Xen interfaces, PCI, device tree, DMI) the verdict
 * matches the one recorded for the dump; CPUID and dmidecode that only
 * exist under _aux/ are not seen.
 */
static void real_dumps_as_stored(void **state)
{
	static const struct {
		const char *dump, *role, *hypervisor, *source;
	} cases[] = {
		{ "virt-what-rhel5-xen-domU-pv", "guest", "xen", "/proc/xen" },
		{ "util-linux-x86_64-el5xen", "guest", "xen", "/proc/xen" },
		{ "util-linux-vbox-win", "guest", "virtualbox", "/proc/bus/pci/devices" },
		{ "virt-what-esx-arm", "guest", "vmware", "/proc/device-tree/hypervisor/compatible" },
		{ "hwloc-2pa-pcidomain32bits", "guest", "kvm", "/sys/class/dmi/id/product_name" },
		/* only the cpuinfo flag / model: a guest, hypervisor not named */
		{ "virt-what-aws-xen-x86", "guest", "unknown", "/proc/cpuinfo flags" },
		{ "virt-what-kvm", "guest", "qemu", "/proc/cpuinfo model name" },
		/* nothing visible: neither flag (old kernels) nor DMI nor CPUID */
		{ "virt-what-hyperv", "unknown", NULL, NULL },
		{ "virt-what-esx4.1", "unknown", NULL, NULL },
		{ "virt-what-aws-kvm-arm", "unknown", NULL, NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_object *rec = probe_fixture(cases[i].dump, NULL);
		print_message("%s\n", cases[i].dump);
		assert_jstr(rec, "virt.role", cases[i].role);
		if (cases[i].hypervisor) {
			assert_jstr(rec, "virt.hypervisor", cases[i].hypervisor);
			assert_non_null(evidence_from(rec, cases[i].source));
		} else {
			assert_jnull(rec, "virt.hypervisor");
			assert_int_equal(jpath_len(rec, "virt.evidence"), 0);
			assert_true(unavailable_mentions(rec, "virt", "guest or bare metal"));
		}
		/* never the CPUID kept beside the dump */
		assert_jnull(rec, "virt.cpuid");
		assert_null(evidence_from(rec, "cpuid"));
		if (!streq(cases[i].role, "unknown") && strncmp(cases[i].dump, "hwloc", 5) != 0) {
			_cleanup_free_ char *verdict = recorded_verdict(cases[i].dump);
			if (!streq(cases[i].hypervisor, "unknown") && !streq(cases[i].hypervisor, "qemu"))
				assert_string_equal(cases[i].hypervisor, verdict_id(verdict));
		}
		json_object_put(rec);
	}
}

/* With what gather records (CPUID, sysfs DMI), every virt-what guest gets its recorded verdict. */
static void real_dumps_gathered(void **state)
{
	static const char *const dumps[] = {
		"virt-what-kvm", "virt-what-hyperv", "virt-what-esx4.1", "virt-what-aws-xen-x86", "virt-what-aws-kvm-arm",
	};
	for (size_t i = 0; i < ARRAY_SIZE(dumps); i++) {
		char *root = gathered_copy(dumps[i]);
		json_object *rec = probe_root(root, NULL);
		_cleanup_free_ char *verdict = recorded_verdict(dumps[i]);
		print_message("%s: recorded %s\n", dumps[i], verdict);
		assert_jstr(rec, "virt.role", "guest");
		assert_jstr(rec, "virt.hypervisor", verdict_id(verdict));
		json_object_put(rec);
		tmproot_free(root);
	}

	/* the details: KVM's CPUID leaf decides over Bochs' DMI; Hyper-V's weak leaf is confirmed by DMI */
	char *root = gathered_copy("virt-what-kvm");
	json_object *rec = probe_root(root, NULL);
	bool bit;
	assert_true(jpath_bool(rec, "virt.cpuid.hypervisor_bit", &bit) && bit);
	assert_jstr(rec, "virt.cpuid.vendor", "KVMKVMKVM");
	assert_jstr(evidence_from(rec, "cpuid"), "value", "KVMKVMKVM");
	assert_jstr(evidence_from(rec, "/sys/class/dmi/id/sys_vendor"), "means", "qemu");
	json_object_put(rec);
	tmproot_free(root);

	root = gathered_copy("virt-what-aws-kvm-arm");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.dmi.product_name", "a1.medium");
	assert_jnull(rec, "virt.cpuid"); /* arm64: no CPUID */
	json_object_put(rec);
	tmproot_free(root);
}

/* Bare-metal dumps with DMI: no hypervisor, and the robustness fixture's
 * binary product_version is dropped, not written into the record. */
static void real_bare_metal(void **state)
{
	json_object *rec = probe_fixture("hwloc-64amd64-4s2n4ca2co", NULL);
	assert_jstr(rec, "virt.role", "none");
	assert_jnull(rec, "virt.hypervisor");
	assert_jstr(rec, "virt.dmi.sys_vendor", "Dell");
	json_object_put(rec);

	rec = probe_fixture("node_exporter-composite-x86", NULL);
	assert_jstr(rec, "virt.role", "none");
	assert_jstr(rec, "virt.dmi.product_name", "PowerEdge R6515");
	assert_jnull(rec, "virt.dmi.product_version");
	assert_true(unavailable_mentions(rec, "virt", "product_version holds binary data"));
	json_object_put(rec);

	/* cpuinfo alone does not tell: lscpu's VT-x is kept, the role stays unknown */
	rec = probe_fixture("util-linux-x86_64-64cpu", NULL);
	assert_jstr(rec, "virt.role", "unknown");
	assert_jstr(rec, "virt.hw_virtualization", "VT-x");
	json_object_put(rec);
}

/* ---- synthetic roots: host side, containers, steal ------------------ */

static int finding_index(json_object *rec, const char *id)
{
	size_t n = jpath_len(rec, "findings");
	for (size_t i = 0; i < n; i++)
		if (streq_ptr(jpath_str(json_object_array_get_idx(jpath(rec, "findings"), i), "id"), id))
			return (int)i;
	return -1;
}

static size_t virt_findings(json_object *rec)
{
	size_t n = jpath_len(rec, "findings"), k = 0;
	for (size_t i = 0; i < n; i++)
		k += streq_ptr(jpath_str(json_object_array_get_idx(jpath(rec, "findings"), i), "area"), "virt");
	return k;
}

static void arm64_host_el2_kvm(void **state)
{
	char *root = tmproot_new();
	size_t len;
	_cleanup_free_ void *gz = gzip_bytes("CONFIG_VIRTUALIZATION=y\nCONFIG_KVM=y\n", &len);
	tmproot_write(root, ".ubtune/gather", "arch=aarch64");
	tmproot_write(root, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd05");
	tmproot_write(root, "proc/stat", "cpu  100 0 50 10000 10 0 5 0 0 0");
	tmproot_write(root, "proc/device-tree/compatible", "rockchip,rk3568");
	tmproot_write(root, "dev/kvm", "");
	tmproot_write_bytes(root, "proc/config.gz", gz, len);
	tmproot_write(root, "dmesg", "[    0.050000] CPU: All CPU(s) started at EL2\n"
				     "[    0.300000] kvm [1]: IPA Size Limit: 40 bits\n"
				     "[    0.310000] kvm [1]: Hyp mode initialized successfully");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "host");
	assert_jnull(rec, "virt.hypervisor");
	assert_jstr(rec, "virt.boot_el", "EL2");
	bool b;
	assert_true(jpath_bool(rec, "virt.kvm_initialized", &b) && b);
	assert_true(jpath_bool(rec, "virt.kvm_dev", &b) && b);
	assert_jstr(rec, "virt.config_virtualization", "y");
	assert_jstr(rec, "virt.config_kvm", "y");
	assert_jstr(evidence_from(rec, "/proc/config.gz"), "value", "CONFIG_VIRTUALIZATION=y CONFIG_KVM=y");
	assert_jnull(rec, "virt.cpuid");
	assert_int_equal(virt_findings(rec), 0);
	json_object_put(rec);

	/* the same board entered at EL1: not a host, and the finding says why */
	tmproot_write(root, "dmesg", "[    0.050000] CPU: All CPU(s) started at EL1\n"
				     "[    0.310000] kvm [1]: HYP mode not available");
	_cleanup_free_ char *kvm = xasprintf("%s/dev/kvm", root);
	assert_int_equal(unlink(kvm), 0);
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "none");
	assert_jstr(rec, "virt.boot_el", "EL1");
	assert_true(jpath_bool(rec, "virt.kvm_initialized", &b) && !b);
	assert_true(jpath_bool(rec, "virt.kvm_dev", &b) && !b);
	int el1 = finding_index(rec, "virt.el1");
	assert_true(el1 >= 0);
	assert_jstr(json_object_array_get_idx(jpath(rec, "findings"), (size_t)el1), "evidence",
		    "kernel log: CPU: All CPU(s) started at EL1");
	assert_int_equal(virt_findings(rec), 1);
	json_object_put(rec);

	/* a corrupt config.gz is named, not guessed from */
	tmproot_write(root, "proc/config.gz", "not gzip");
	rec = probe_root(root, NULL);
	assert_jnull(rec, "virt.config_kvm");
	assert_true(unavailable_mentions(rec, "virt", "/proc/config.gz: not a gzip stream"));
	json_object_put(rec);
	tmproot_free(root);
}

static void kernel_config_from_boot(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/sys/kernel/osrelease", "6.1.0-18-amd64");
	tmproot_write(root, "proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
	tmproot_write(root, "boot/config-6.1.0-18-amd64", "# CONFIG_VIRTUALIZATION is not set");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.config_virtualization", "n");
	assert_jstr(rec, "virt.config_kvm", "n");
	assert_non_null(evidence_from(rec, "/boot/config-6.1.0-18-amd64"));
	json_object_put(rec);
	tmproot_free(root);
}

static void x86_guests(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: "
					    "QEMU Virtual CPU version 2.5+\nflags\t\t: fpu lm hypervisor");
	tmproot_write(root, ".ubtune/cpuid", "hypervisor_bit=1\nvendor=TCGTCGTCGTCG");
	tmproot_write(root, "proc/stat", "cpu  900 0 300 8000 200 0 100 500 0 0");
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "QEMU");
	tmproot_write(root, "sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)");
	tmproot_write(root, "dev/null", "");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "guest");
	assert_jstr(rec, "virt.hypervisor", "qemu-tcg");
	double steal;
	assert_true(jpath_double(rec, "virt.steal_pct", &steal) && steal == 5.0);
	/* emulation is the worse news, listed first; steal follows */
	int emulated = finding_index(rec, "virt.emulated"), stolen = finding_index(rec, "virt.steal");
	assert_true(emulated >= 0 && stolen > emulated);
	assert_jstr(json_object_array_get_idx(jpath(rec, "findings"), (size_t)emulated), "evidence",
		    "cpuid = TCGTCGTCGTCG");
	json_object_put(rec);

	/* KVM with Hyper-V enlightenments still says KVM; the kernel log agrees */
	tmproot_write(root, ".ubtune/cpuid", "hypervisor_bit=1\nvendor=Microsoft Hv");
	tmproot_write(root, "dmesg", "[    0.000000] Hypervisor detected: KVM");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.hypervisor", "kvm");
	assert_jstr(evidence_from(rec, "kernel log"), "value", "Hypervisor detected: KVM");
	json_object_put(rec);

	/* a broken CPUID record is named, not used */
	tmproot_write(root, ".ubtune/cpuid", "garbage");
	rec = probe_root(root, NULL);
	assert_jnull(rec, "virt.cpuid");
	assert_true(unavailable_mentions(rec, "virt", "/.ubtune/cpuid: not a CPUID record"));
	json_object_put(rec);
	tmproot_free(root);
}

static void firmware_identities(void **state)
{
	char *root = tmproot_new();
	/* VirtualBox offering KVM's paravirt interface: the DMI identity wins */
	tmproot_write(root, ".ubtune/cpuid", "hypervisor_bit=1\nvendor=KVMKVMKVM");
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "innotek GmbH");
	tmproot_write(root, "sys/class/dmi/id/product_name", "VirtualBox");
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.hypervisor", "virtualbox");
	json_object_put(rec);
	tmproot_free(root);

	/* Amazon's metal instances share the DMI vendor with its guests */
	root = tmproot_new();
	tmproot_write(root, ".ubtune/cpuid", "hypervisor_bit=0");
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "Amazon EC2");
	tmproot_write(root, "sys/class/dmi/id/product_name", "c6g.metal");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "none");
	assert_jnull(rec, "virt.hypervisor");
	json_object_put(rec);

	/* nor is a vendor whose name merely starts with "Xen" */
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "Xenon Systems");
	tmproot_write(root, "sys/class/dmi/id/product_name", "NITRO A6");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "none");
	json_object_put(rec);

	/* a Microsoft laptop is not Hyper-V: only "Virtual Machine" is */
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "Microsoft Corporation");
	tmproot_write(root, "sys/class/dmi/id/product_name", "Surface Laptop 5");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "none");
	json_object_put(rec);

	/* SMBIOS' virtual-machine bit alone: a guest of an unnamed hypervisor */
	unsigned char raw[0x18] = { 0, 0x18 };
	raw[0x13] = 0x10;
	tmproot_write_bytes(root, "sys/firmware/dmi/entries/0-0/raw", raw, sizeof(raw));
	tmproot_write(root, "sys/class/dmi/id/sys_vendor", "Acme Computing");
	tmproot_write(root, "sys/class/dmi/id/product_name", "VC-1");
	rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "guest");
	assert_jstr(rec, "virt.hypervisor", "unknown");
	json_object_put(rec);

	/* clouds and KVM platforms named by their firmware; Azure by its asset tag */
	static const struct {
		const char *vendor, *product, *asset, *hypervisor, *cloud;
	} named[] = {
		{ "Nutanix", "AHV", NULL, "kvm", NULL },
		{ "Tencent Cloud", "CVM", NULL, "kvm", "tencent" },
		{ "DigitalOcean", "Droplet", NULL, "kvm", "digitalocean" },
		{ "Hetzner", "vServer", NULL, "kvm", "hetzner" },
		{ "QEMU", "Standard PC (i440FX + PIIX, 1996)", "OracleCloud.com", "kvm", "oracle" },
		{ "Microsoft Corporation", "Virtual Machine", "7783-7084-3265-9085-8269-3286-77", "hyperv", "azure" },
	};
	_cleanup_free_ char *raw_path = xasprintf("%s/sys/firmware/dmi/entries/0-0/raw", root);
	unlink(raw_path);
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		tmproot_write(root, "sys/class/dmi/id/sys_vendor", named[i].vendor);
		tmproot_write(root, "sys/class/dmi/id/product_name", named[i].product);
		tmproot_write(root, "sys/class/dmi/id/chassis_asset_tag", named[i].asset ?: "");
		rec = probe_root(root, NULL);
		print_message("%s\n", named[i].vendor);
		assert_jstr(rec, "virt.role", "guest");
		assert_jstr(rec, "virt.hypervisor", named[i].hypervisor);
		if (named[i].cloud)
			assert_jstr(rec, "virt.cloud", named[i].cloud);
		else
			assert_jnull(rec, "virt.cloud");
		json_object_put(rec);
	}
	tmproot_free(root);
}

/*
 * The peers' dumps that only platform files tell (virt-what's with what
 * its stubs print laid in, tools/peer-import): every one gets virt-what's
 * verdict, from the source named here.
 */
static void platform_guests(void **state)
{
	static const struct {
		const char *dump, *role, *hypervisor, *container, *cloud, *source;
	} cases[] = {
		{ "virt-what-google-cloud", "guest", "kvm", NULL, "google", "/sys/class/dmi/id/product_name" },
		{ "virt-what-alibaba-cloud-arm", "guest", "kvm", NULL, "alibaba", "/sys/class/dmi/id/sys_vendor" },
		{ "virt-what-aws-baremetal-x86", "none", NULL, NULL, "aws", NULL },
		{ "virt-what-upcloud", "guest", "kvm", NULL, "upcloud", "cpuid" },
		{ "virt-what-lkvm", "guest", "kvmtool", NULL, NULL, "cpuid" },
		{ "virt-what-lkvm-arm", "guest", "kvmtool", NULL, NULL, "/proc/device-tree/compatible" },
		{ "virt-what-qemu-arm", "guest", "qemu", NULL, NULL, "/proc/device-tree/fw-cfg@9020000" },
		{ "virt-what-vmm", "guest", "vmm", NULL, NULL, "cpuid" },
		{ "virt-what-ppc64-baremetal", "none", NULL, NULL, NULL, NULL },
		{ "virt-what-ppc64-kvm", "guest", "kvm", NULL, NULL, "/proc/cpuinfo model" },
		{ "virt-what-ppc64-lpar-shared", "guest", "powervm", NULL, NULL, "/proc/ppc64/lparcfg" },
		{ "virt-what-ppc64-lpar-dedicated", "guest", "powervm", NULL, NULL, "/proc/ppc64/lparcfg" },
		{ "util-linux-ppc64-POWER7-64cpu", "guest", "powervm", NULL, NULL, "/proc/device-tree/ibm,partition-name" },
		{ "virt-what-zvm", "guest", "zvm", NULL, NULL, "/proc/sysinfo" },
		{ "util-linux-s390-lpar", "guest", "prsm", NULL, NULL, "/proc/sysinfo" },
		{ "util-linux-s390-nested-virt", "guest", "kvm", NULL, NULL, "/proc/sysinfo" },
		{ "virt-what-rhel5-xen-domU-hvm-ia64", "guest", "xen", NULL, NULL, "/sys/bus/xen" },
		{ "virt-what-ldoms", "guest", "ldoms", NULL, NULL, "/dev/mdesc" },
		{ "virt-what-lx86", "guest", "lx86", NULL, NULL, "/proc/cpuinfo vendor_id" },
		{ "virt-what-linux-vserver", "none", NULL, "linux-vserver", NULL, NULL },
		{ "virt-what-illumos-lx", "guest", "unknown", "illumos-lx", NULL, "cpuid" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_object *rec = probe_fixture(cases[i].dump, NULL);
		print_message("%s\n", cases[i].dump);
		assert_jstr(rec, "virt.role", cases[i].role);
		if (cases[i].hypervisor)
			assert_jstr(rec, "virt.hypervisor", cases[i].hypervisor);
		else
			assert_jnull(rec, "virt.hypervisor");
		if (cases[i].container)
			assert_jstr(rec, "virt.container", cases[i].container);
		else
			assert_jnull(rec, "virt.container");
		if (cases[i].cloud)
			assert_jstr(rec, "virt.cloud", cases[i].cloud);
		else
			assert_jnull(rec, "virt.cloud");
		if (cases[i].source)
			assert_jstr(evidence_from(rec, cases[i].source), "means", cases[i].hypervisor);
		json_object_put(rec);
	}

	char *value = NULL;
	assert_string_equal(virt_s390_sysinfo("LPAR Name:            L15     \nVM00 Name:            DEVEL1  \n"
					      "VM00 Control Program: z/VM    5.3.0   \n", &value), "zvm");
	assert_string_equal(value, "z/VM 5.3.0");
	free(value);
	/* KVM in z/VM: level 00 is the one the guest runs on */
	assert_string_equal(virt_s390_sysinfo("VM00 Control Program: KVM/Linux       \n"
					      "VM01 Control Program: z/VM    6.4.0   \n", &value), "kvm");
	free(value);
	assert_string_equal(virt_s390_sysinfo("LPAR Number:          21\nLPAR Name:            R17LP39 \n", &value),
			    "prsm");
	assert_string_equal(value, "LPAR Name: R17LP39");
	free(value);
	value = NULL;
	assert_null(virt_s390_sysinfo("Manufacturer:         IBM\n", &value));
	assert_null(value);
}

static void xen_dom0_and_containers(void **state)
{
	char *root = tmproot_new();
	tmproot_write(root, "proc/xen/capabilities", "control_d");
	tmproot_write(root, "sys/hypervisor/type", "xen");
	tmproot_write(root, ".dockerenv", "");
	tmproot_write_bytes(root, "proc/1/environ", "HOME=/\0container=lxc\0TERM=linux\0", 31);
	json_object *rec = probe_root(root, NULL);
	assert_jstr(rec, "virt.role", "host");
	assert_jstr(rec, "virt.hypervisor", "xen");
	/* PID 1's environment decides over the marker files, which stay as evidence */
	assert_jstr(rec, "virt.container", "lxc");
	assert_jstr(evidence_from(rec, "/.dockerenv"), "means", "docker");
	json_object_put(rec);
	tmproot_free(root);
}

/* ---- findings ------------------------------------------------------- */

static void rule_steal(void **state)
{
	assert_rule("virt.steal", "{\"virt\": {\"role\": \"guest\", \"steal_pct\": 5.3}}", true,
		    "/proc/stat steal = 5.3 % of all CPU time since boot");
	assert_rule("virt.steal", "{\"virt\": {\"role\": \"guest\", \"steal_pct\": 2.0}}", false, NULL);
	assert_rule("virt.steal", "{\"virt\": {\"role\": \"host\", \"steal_pct\": 9}}", false, NULL);
	assert_rule("virt.steal", "{\"virt\": {\"role\": \"guest\", \"steal_pct\": null}}", false, NULL);
}

static void rule_emulated(void **state)
{
	assert_rule("virt.emulated",
		    "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"qemu-tcg\", \"evidence\": [{\"layer\": "
		    "\"hypervisor\", \"source\": \"cpuid\", \"value\": \"TCGTCGTCGTCG\", \"means\": \"qemu-tcg\"}]}}",
		    true, "cpuid = TCGTCGTCGTCG");
	assert_rule("virt.emulated",
		    "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\", \"evidence\": [{\"layer\": "
		    "\"hypervisor\", \"source\": \"cpuid\", \"value\": \"KVMKVMKVM\", \"means\": \"kvm\"}]}}",
		    false, NULL);
	assert_rule("virt.emulated", "{\"virt\": {\"role\": \"guest\", \"hypervisor\": \"qemu\"}}", false, NULL);
}

static void rule_el1(void **state)
{
	assert_rule("virt.el1",
		    "{\"virt\": {\"role\": \"none\", \"boot_el\": \"EL1\", \"evidence\": [{\"layer\": \"host\", "
		    "\"source\": \"kernel log\", \"value\": \"CPU: All CPU(s) started at EL1\", \"means\": \"EL1\"}]}}",
		    true, "kernel log: CPU: All CPU(s) started at EL1");
	assert_rule("virt.el1", "{\"virt\": {\"role\": \"none\", \"boot_el\": \"mixed\"}}", true,
		    "virt.boot_el = mixed");
	/* a guest at EL1 cannot host guests either (QEMU's virtualization=true
	 * gives guests EL2): said, as information */
	assert_rule("virt.el1", "{\"virt\": {\"role\": \"guest\", \"boot_el\": \"EL1\"}}", true,
		    "virt.boot_el = EL1");
	assert_rule("virt.el1", "{\"virt\": {\"role\": \"guest\", \"boot_el\": \"EL2\"}}", false, NULL);
	const char *sev_of[][2] = { { "{\"virt\": {\"role\": \"guest\", \"boot_el\": \"EL1\"}}", "info" },
				    { "{\"virt\": {\"role\": \"none\", \"boot_el\": \"EL1\"}}", "warn" } };
	for (size_t i = 0; i < ARRAY_SIZE(sev_of); i++) {
		json_object *rec = json_lit(sev_of[i][0]);
		struct finding f;
		assert_true(rule_fires("virt.el1", rec, &f));
		assert_string_equal(severity_name(f.severity), sev_of[i][1]);
		finding_clear(&f);
		json_object_put(rec);
	}
	assert_rule("virt.el1", "{\"virt\": {\"role\": \"host\", \"boot_el\": \"EL2\"}}", false, NULL);
	assert_rule("virt.el1", "{\"virt\": {\"role\": \"unknown\", \"boot_el\": null}}", false, NULL);
}

static void rule_kvm_unavailable(void **state)
{
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"none\", \"boot_el\": \"EL2\", \"kvm_initialized\": false, \"evidence\": "
		    "[{\"layer\": \"host\", \"source\": \"kernel log\", \"value\": \"kvm [1]: error initializing Hyp "
		    "mode: -22\", \"means\": \"kvm-unavailable\"}]}}",
		    true, "kernel log: kvm [1]: error initializing Hyp mode: -22");
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"none\", \"boot_el\": \"EL2\", \"kvm_initialized\": null, "
		    "\"config_virtualization\": \"n\", \"config_kvm\": \"n\"}}",
		    true, "kernel config: CONFIG_KVM is not set (CONFIG_VIRTUALIZATION=n)");
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"none\", \"hw_virtualization\": \"VT-x\", \"config_kvm\": \"m\", "
		    "\"kvm_dev\": false}}",
		    true, "kernel config: CONFIG_KVM=m, but /dev/kvm is absent");
	/* fine: KVM up */
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"host\", \"boot_el\": \"EL2\", \"kvm_initialized\": true, "
		    "\"config_kvm\": \"y\", \"kvm_dev\": true}}", false, NULL);
	/* EL1 has its own finding; guests and machines that cannot host are left alone */
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"none\", \"boot_el\": \"EL1\", \"kvm_initialized\": false}}", false, NULL);
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"guest\", \"hw_virtualization\": \"VT-x\", \"config_kvm\": \"n\"}}", false, NULL);
	assert_rule("virt.kvm-unavailable",
		    "{\"virt\": {\"role\": \"none\", \"hw_virtualization\": null, \"config_kvm\": \"n\"}}", false, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuid_signatures),
		cmocka_unit_test(cpuid_file),
		cmocka_unit_test(boot_el_lines),
		cmocka_unit_test(kvm_init_lines),
		cmocka_unit_test(kernel_config),
		cmocka_unit_test(steal_share),
		cmocka_unit_test(gunzip),
		cmocka_unit_test(real_dumps_as_stored),
		cmocka_unit_test(real_dumps_gathered),
		cmocka_unit_test(real_bare_metal),
		cmocka_unit_test(arm64_host_el2_kvm),
		cmocka_unit_test(kernel_config_from_boot),
		cmocka_unit_test(x86_guests),
		cmocka_unit_test(firmware_identities),
		cmocka_unit_test(platform_guests),
		cmocka_unit_test(xen_dom0_and_containers),
		cmocka_unit_test(rule_steal),
		cmocka_unit_test(rule_emulated),
		cmocka_unit_test(rule_el1),
		cmocka_unit_test(rule_kvm_unavailable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
