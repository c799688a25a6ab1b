/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Virtualisation, in layers: the hypervisor underneath (a guest), a
 * container around the benchmark, and the host side (can this kernel run
 * KVM guests?). Every fact is kept in virt.evidence with its source, so a
 * person sees why ubtune thinks a machine is a guest, and where sources
 * disagree.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpu.h"
#include "lib/gunzip.h"
#include "probe.h"
#include "virt.h"

#define DMI_DIR "/sys/class/dmi/id"
#define KCONFIG_MAX (8u << 20)

enum layer { LAYER_HYPERVISOR, LAYER_CONTAINER, LAYER_HOST };
static const char *const layer_names[] = { "hypervisor", "container", "host" };

struct scan {
	struct probe_ctx *ctx;
	json_object *evidence;
	const char *hypervisor; /* best guess so far, static string */
	int rank;               /* its rank, -1 while none */
	bool dom0; /* the control domain of a Xen or LDoms host */
	const char *cloud; /* the provider DMI names, static string */
	/* a source that shows hypervisors (CPUID, DMI, device tree, SMBIOS)
	 * was read: without guest evidence the machine is bare metal */
	bool bare_metal_seen;
};

static void note(struct scan *s, enum layer layer, const char *source, const char *value, const char *means,
		 int rank)
{
	json_object *e = json_object_new_object();
	jset_str(e, "layer", layer_names[layer]);
	jset_str(e, "source", source);
	jset_str(e, "value", value && text_printable(value) ? value : "(not text)");
	jset_str(e, "means", means);
	json_object_array_add(s->evidence, e);
	if (layer == LAYER_HYPERVISOR && rank > s->rank) {
		s->hypervisor = means;
		s->rank = rank;
	}
}

/* What the first piece of evidence of a layer means, or NULL. */
static const char *first_means(const struct scan *s, enum layer layer)
{
	size_t n = json_object_array_length(s->evidence);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(s->evidence, i);
		if (streq_ptr(jpath_str(e, "layer"), layer_names[layer]))
			return jpath_str(e, "means");
	}
	return NULL;
}

static void note_signature(struct scan *s, const char *source, const char *value, const struct virt_signature *sig)
{
	note(s, LAYER_HYPERVISOR, source, value, sig ? sig->hypervisor : "unknown", sig ? (int)sig->rank : VIRT_GENERIC);
}

/* ---- CPUID ---------------------------------------------------------- */

static const struct virt_signature cpuid_signatures[] = {
	{ "KVMKVMKVM", "kvm", VIRT_SPECIFIC },
	{ "Linux KVM Hv", "kvm", VIRT_SPECIFIC },
	{ "TCGTCGTCGTCG", "qemu-tcg", VIRT_SPECIFIC },
	{ "VMwareVMware", "vmware", VIRT_SPECIFIC },
	{ "XenVMMXenVMM", "xen", VIRT_SPECIFIC },
	{ "VBoxVBoxVBox", "virtualbox", VIRT_SPECIFIC },
	{ "bhyve bhyve", "bhyve", VIRT_SPECIFIC },
	{ "BHyVE BHyVE", "bhyve", VIRT_SPECIFIC },
	{ "prl hyperv", "parallels", VIRT_SPECIFIC },
	{ "lrpepyh  vr", "parallels", VIRT_SPECIFIC },
	{ "QNXQVMBSQG", "qnx", VIRT_SPECIFIC },
	{ "ACRNACRNACRN", "acrn", VIRT_SPECIFIC },
	{ "SRESRESRESRE", "sre", VIRT_SPECIFIC },
	{ "Apple VZ", "apple", VIRT_SPECIFIC },
	{ "Jailhouse", "jailhouse", VIRT_SPECIFIC },
	{ "LKVMLKVMLKVM", "kvmtool", VIRT_SPECIFIC },
	{ "OpenBSDVMM58", "vmm", VIRT_SPECIFIC },
	/* KVM and Xen offer Hyper-V's interface to Windows guests too */
	{ "Microsoft Hv", "hyperv", VIRT_WEAK },
};

const struct virt_signature *virt_cpuid_signature(const char *vendor)
{
	for (size_t i = 0; i < ARRAY_SIZE(cpuid_signatures); i++)
		if (streq(vendor, cpuid_signatures[i].text))
			return &cpuid_signatures[i];
	return NULL;
}

#if defined(__x86_64__) || defined(__i386__)
/* Register bytes as text: NULs and trailing blanks dropped ("KVMKVMKVM\0\0\0"). */
static char *cpuid_text(const char *raw, size_t n)
{
	char s[16] = "";
	size_t k = 0;
	for (size_t i = 0; i < n && k < sizeof(s) - 1; i++)
		if (raw[i])
			s[k++] = isprint((unsigned char)raw[i]) ? raw[i] : '?';
	s[k] = '\0';
	return xstrdup(strstrip(s));
}
#endif

int virt_parse_cpuid_file(const char *text, bool *bit, char **vendor)
{
	_cleanup_free_ char *copy = xstrdup(text);
	_cleanup_free_ char *v = NULL;
	int b = -1;

	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *val;
		if ((val = startswith(l, "hypervisor_bit="))) {
			if (streq(val, "1") || streq(val, "0"))
				b = val[0] == '1';
			else
				return -EBADMSG;
		} else if ((val = startswith(l, "vendor="))) {
			if (strlen(val) > 12 || !text_printable(val))
				return -EBADMSG;
			free(v);
			v = *val ? xstrdup(val) : NULL;
		}
	}
	if (b < 0)
		return -EBADMSG;
	*bit = b;
	*vendor = b ? TAKE_PTR(v) : NULL; /* leaf 0x40000000 means nothing without the bit */
	return 0;
}

/* Live: leaf 1 ECX bit 31, then the vendor leaf. 0, or -ENOSYS off x86. */
static int cpuid_live(bool *bit, char **vendor)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char raw[12];
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -ENOSYS;
	*bit = c & (1u << 31);
	*vendor = NULL;
	if (*bit) {
		/* not __get_cpuid(): it checks the basic leaf range, which 0x40000000 is outside */
		__cpuid(0x40000000, a, b, c, d);
		memcpy(raw, &b, 4);
		memcpy(raw + 4, &c, 4);
		memcpy(raw + 8, &d, 4);
		*vendor = cpuid_text(raw, sizeof(raw));
		if (!**vendor) {
			free(*vendor);
			*vendor = NULL;
		}
	}
	return 0;
#else
	(void)bit;
	(void)vendor;
	return -ENOSYS;
#endif
}

static bool arch_is_x86(const char *arch)
{
	return arch && (streq(arch, "x86_64") || (arch[0] == 'i' && endswith(arch, "86")));
}

static void scan_cpuid(struct scan *s, json_object *virt)
{
	struct probe_ctx *ctx = s->ctx;
	const char *arch = jpath_str(ctx->rec, "host.arch");
	_cleanup_free_ char *vendor = NULL, *text = NULL;
	bool bit = false;
	int r;

	/* the source is "cpuid" either way, so a gathered dump gives the live record */
	if (ctx->live) {
		r = cpuid_live(&bit, &vendor);
	} else {
		r = rootfs_read(ctx->rf, GATHER_CPUID, &text, NULL);
		if (r == 0 && (r = virt_parse_cpuid_file(text, &bit, &vendor)) < 0)
			probe_unavailable(ctx, "virt", "%s: not a CPUID record (want hypervisor_bit=0|1, vendor=TEXT)",
					  GATHER_CPUID);
		else if (r < 0 && arch_is_x86(arch))
			probe_unavailable(ctx, "virt", "CPUID: this dump has no %s", GATHER_CPUID);
	}
	if (r < 0) {
		jset_null(virt, "cpuid");
		return;
	}
	json_object *c = jchild(virt, "cpuid");
	jset_bool(c, "hypervisor_bit", bit);
	jset_str(c, "vendor", vendor);
	if (!bit) {
		s->bare_metal_seen = true;
		return;
	}
	if (vendor)
		note_signature(s, "cpuid", vendor, virt_cpuid_signature(vendor));
	else
		note(s, LAYER_HYPERVISOR, "cpuid", "hypervisor bit", "unknown", VIRT_GENERIC);
}

/* ---- Xen ------------------------------------------------------------ */

static void scan_xen(struct scan *s)
{
	struct rootfs *rf = s->ctx->rf;
	_cleanup_free_ char *caps = NULL, *type = NULL, *features = NULL;

	if (rootfs_exists(rf, "/proc/xen") == 0) {
		rootfs_read(rf, "/proc/xen/capabilities", &caps, NULL);
		if (caps && strstr(caps, "control_d")) {
			s->dom0 = true;
			note(s, LAYER_HOST, "/proc/xen/capabilities", "control_d", "xen-dom0", 0);
		}
		note(s, LAYER_HYPERVISOR, "/proc/xen", "present", "xen", VIRT_SPECIFIC);
	}
	/* Xen's bus without its backends: an HVM guest's PV drivers (ia64, old kernels) */
	if (rootfs_exists(rf, "/sys/bus/xen") == 0 && rootfs_exists(rf, "/sys/bus/xen-backend") < 0)
		note(s, LAYER_HYPERVISOR, "/sys/bus/xen", "present without /sys/bus/xen-backend", "xen", VIRT_SPECIFIC);
	if (rootfs_read_line(rf, "/sys/hypervisor/type", &type) == 0 && *type) {
		bool xen = streq(type, "xen");
		note(s, LAYER_HYPERVISOR, "/sys/hypervisor/type", type, xen ? "xen" : "unknown",
		     xen ? VIRT_SPECIFIC : VIRT_GENERIC);
	}
	/* XENFEAT_dom0 is bit 11 of the feature word */
	uint64_t f;
	if (!s->dom0 && rootfs_read_line(rf, "/sys/hypervisor/properties/features", &features) == 0 &&
	    sscanf(features, "%" SCNx64, &f) == 1 && (f & (1u << 11))) {
		s->dom0 = true;
		note(s, LAYER_HOST, "/sys/hypervisor/properties/features", features, "xen-dom0", 0);
	}
}

/* ---- partitions: POWER, s390, SPARC ---------------------------------- */

const char *virt_s390_sysinfo(const char *sysinfo, char **value)
{
	/* "VM00 Control Program: z/VM    6.1.0": level 00 is the one we run on */
	_cleanup_free_ char *cp = cpuinfo_value(sysinfo, "VM00 Control Program");
	if (cp) {
		*value = xstrdup(strsqueeze(cp));
		if (startswith(cp, "z/VM"))
			return "zvm";
		if (startswith(cp, "KVM"))
			return "kvm";
		return "unknown";
	}
	/* every s390 system runs in a logical partition of PR/SM */
	_cleanup_free_ char *lpar = cpuinfo_value(sysinfo, "LPAR Name");
	if (lpar) {
		*value = xasprintf("LPAR Name: %s", lpar);
		return "prsm";
	}
	return NULL;
}

static void scan_partitions(struct scan *s)
{
	struct rootfs *rf = s->ctx->rf;
	_cleanup_free_ char *sysinfo = NULL, *lparcfg = NULL, *name = NULL, *value = NULL;

	if (rootfs_read(rf, "/proc/sysinfo", &sysinfo, NULL) == 0) {
		const char *hv = virt_s390_sysinfo(sysinfo, &value);
		if (hv)
			note(s, LAYER_HYPERVISOR, "/proc/sysinfo", value, hv, VIRT_SPECIFIC);
	}
	/* PowerVM: KVM's pSeries guests have both too, and say so in cpuinfo */
	if (rootfs_read(rf, "/proc/ppc64/lparcfg", &lparcfg, NULL) == 0) {
		_cleanup_free_ char *shared = kv_value(lparcfg, "shared_processor_mode");
		_cleanup_free_ char *v = xasprintf("shared_processor_mode=%s", shared ?: "?");
		note(s, LAYER_HYPERVISOR, "/proc/ppc64/lparcfg", v, "powervm", VIRT_WEAK);
	}
	if (rootfs_read_line(rf, "/proc/device-tree/ibm,partition-name", &name) == 0)
		note(s, LAYER_HYPERVISOR, "/proc/device-tree/ibm,partition-name", name, "powervm", VIRT_WEAK);
	/* LDoms (Oracle VM Server for SPARC): the machine description of the
	 * domain, a device only sun4v kernels have */
	if (rootfs_exists(rf, "/dev/mdesc") == 0) {
		if (rootfs_exists(rf, "/sys/class/vlds/ctrl") == 0 && rootfs_exists(rf, "/sys/class/vlds/sp") == 0) {
			s->dom0 = true;
			note(s, LAYER_HOST, "/sys/class/vlds/ctrl", "present", "ldoms-control", 0);
		}
		note(s, LAYER_HYPERVISOR, "/dev/mdesc", "present", "ldoms", VIRT_SPECIFIC);
	}
}

/* ---- /proc/cpuinfo and the kernel log -------------------------------- */

/* x86 CPUs that can run KVM guests say so in their flags (lscpu's "Virtualization"). */
static const char *hw_virtualization(const char *flags)
{
	if (cpuinfo_has_word(flags, "vmx"))
		return "VT-x";
	if (cpuinfo_has_word(flags, "svm"))
		return "AMD-V";
	return NULL;
}

/* POWER: "platform : PowerNV" is bare metal (OPAL); QEMU's pSeries says so in its model. */
static void scan_cpuinfo_power(struct scan *s, const char *text)
{
	_cleanup_free_ char *platform = cpuinfo_value(text, "platform"), *model = cpuinfo_value(text, "model");
	if (streq_ptr(platform, "PowerNV"))
		s->bare_metal_seen = true;
	else if (model && strstr(model, "(emulated by qemu)"))
		note(s, LAYER_HYPERVISOR, "/proc/cpuinfo model", model, "kvm", VIRT_SPECIFIC);
}

static void scan_cpuinfo(struct scan *s, json_object *virt)
{
	_cleanup_free_ char *text = NULL;
	jset_null(virt, "hw_virtualization");
	if (rootfs_read(s->ctx->rf, "/proc/cpuinfo", &text, NULL) < 0)
		return;
	scan_cpuinfo_power(s, text);
	struct cpuinfo ci;
	cpuinfo_parse(text, &ci);
	/* the first processor: the hypervisor shows all of them the same */
	const struct cpuinfo_cpu *c = ci.n ? &ci.cpus[0] : &ci.shared;
	if (c->vendor_id && streq(c->vendor_id, "User Mode Linux"))
		note(s, LAYER_HYPERVISOR, "/proc/cpuinfo vendor_id", c->vendor_id, "uml", VIRT_SPECIFIC);
	/* x86 programs translated on POWER */
	if (c->vendor_id && streq(c->vendor_id, "PowerVM Lx86"))
		note(s, LAYER_HYPERVISOR, "/proc/cpuinfo vendor_id", c->vendor_id, "lx86", VIRT_SPECIFIC);
	if (c->model_name && strstr(c->model_name, "QEMU Virtual CPU"))
		note(s, LAYER_HYPERVISOR, "/proc/cpuinfo model name", c->model_name, "qemu", VIRT_WEAK);
	if (c->flags && cpuinfo_has_word(c->flags, "hypervisor"))
		note(s, LAYER_HYPERVISOR, "/proc/cpuinfo flags", "hypervisor", "unknown", VIRT_GENERIC);
	if (c->flags)
		jset_str(virt, "hw_virtualization", hw_virtualization(c->flags));
	cpuinfo_free(&ci);
}

static const struct virt_signature klog_hypervisors[] = {
	{ "KVM", "kvm", VIRT_SPECIFIC },
	{ "VMware", "vmware", VIRT_SPECIFIC },
	{ "Microsoft Hyper-V", "hyperv", VIRT_SPECIFIC },
	{ "Xen", "xen", VIRT_SPECIFIC },
	{ "Jailhouse", "jailhouse", VIRT_SPECIFIC },
	{ "ACRN", "acrn", VIRT_SPECIFIC },
	{ "Bhyve", "bhyve", VIRT_SPECIFIC },
};

/* x86 kernels name the hypervisor they found, or say they run on bare hardware. */
static void scan_klog_hypervisor(struct scan *s, const char *klog)
{
	_cleanup_free_ char *line = NULL;
	if (klog_count(klog, "Hypervisor detected: ", &line) > 0) {
		const char *name = strstr(line, "Hypervisor detected: ") + strlen("Hypervisor detected: ");
		const struct virt_signature *sig = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(klog_hypervisors); i++)
			if (startswith(name, klog_hypervisors[i].text))
				sig = &klog_hypervisors[i];
		note_signature(s, "kernel log", line, sig);
	}
	if (klog_count(klog, "Booting paravirtualized kernel on bare hardware", NULL) > 0)
		s->bare_metal_seen = true;
}

/* ---- DMI and SMBIOS ------------------------------------------------- */

enum match { PREFIX, WORD };

struct dmi_signature {
	const char *field;
	enum match how;
	const char *text;
	const char *hypervisor;
	enum virt_rank rank;
	const char *also_field, *also_prefix; /* second condition, or NULL */
	const char *cloud;                    /* the provider it names, or NULL */
};

/* Clouds run their guests on KVM (Azure on Hyper-V); their firmware names
 * the provider, which arm64 guests without CPUID show nowhere else. */
static const struct dmi_signature dmi_signatures[] = {
	{ "sys_vendor", PREFIX, "innotek GmbH", "virtualbox", VIRT_FIRMWARE, NULL, NULL, NULL },
	{ "product_name", PREFIX, "VirtualBox", "virtualbox", VIRT_FIRMWARE, NULL, NULL, NULL },
	{ "sys_vendor", WORD, "Xen", "xen", VIRT_FIRMWARE, NULL, NULL, NULL }, /* not "Xenon ..." */
	{ "sys_vendor", PREFIX, "Amazon EC2", "kvm", VIRT_FIRMWARE, NULL, NULL, "aws" },
	{ "sys_vendor", PREFIX, "Parallels", "parallels", VIRT_FIRMWARE, NULL, NULL, NULL },
	{ "product_name", WORD, "KVM", "kvm", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "product_name", PREFIX, "OpenStack", "kvm", VIRT_SPECIFIC, NULL, NULL, "openstack" },
	{ "product_name", PREFIX, "KubeVirt", "kvm", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "product_name", PREFIX, "Google Compute Engine", "kvm", VIRT_SPECIFIC, NULL, NULL, "google" },
	{ "sys_vendor", PREFIX, "Alibaba Cloud", "kvm", VIRT_SPECIFIC, NULL, NULL, "alibaba" },
	{ "sys_vendor", PREFIX, "Tencent Cloud", "kvm", VIRT_SPECIFIC, NULL, NULL, "tencent" },
	{ "sys_vendor", PREFIX, "Huawei Cloud", "kvm", VIRT_SPECIFIC, NULL, NULL, "huawei" },
	{ "chassis_asset_tag", PREFIX, "OracleCloud.com", "kvm", VIRT_SPECIFIC, NULL, NULL, "oracle" },
	{ "sys_vendor", PREFIX, "DigitalOcean", "kvm", VIRT_SPECIFIC, NULL, NULL, "digitalocean" },
	{ "sys_vendor", PREFIX, "Hetzner", "kvm", VIRT_SPECIFIC, NULL, NULL, "hetzner" },
	{ "sys_vendor", PREFIX, "Linode", "kvm", VIRT_SPECIFIC, NULL, NULL, "linode" },
	{ "sys_vendor", PREFIX, "Vultr", "kvm", VIRT_SPECIFIC, NULL, NULL, "vultr" },
	{ "sys_vendor", PREFIX, "Scaleway", "kvm", VIRT_SPECIFIC, NULL, NULL, "scaleway" },
	{ "sys_vendor", PREFIX, "UpCloud", "kvm", VIRT_SPECIFIC, NULL, NULL, "upcloud" },
	{ "sys_vendor", PREFIX, "Nutanix", "kvm", VIRT_SPECIFIC, "product_name", "AHV", NULL },
	{ "product_name", PREFIX, "RHEV Hypervisor", "kvm", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "sys_vendor", PREFIX, "oVirt", "kvm", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "sys_vendor", PREFIX, "VMware", "vmware", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "sys_vendor", PREFIX, "VMW", "vmware", VIRT_SPECIFIC, NULL, NULL, NULL },
	/* Azure's chassis asset tag, on every one of its Hyper-V guests */
	{ "chassis_asset_tag", PREFIX, "7783-7084-3265-9085-8269-3286-77", "hyperv", VIRT_SPECIFIC, NULL, NULL, "azure" },
	{ "product_name", PREFIX, "Virtual Machine", "hyperv", VIRT_SPECIFIC, "sys_vendor", "Microsoft", NULL },
	{ "sys_vendor", PREFIX, "BHYVE", "bhyve", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "product_name", PREFIX, "BHYVE", "bhyve", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "product_name", PREFIX, "Apple Virtualization", "apple", VIRT_SPECIFIC, NULL, NULL, NULL },
	{ "sys_vendor", PREFIX, "QEMU", "qemu", VIRT_WEAK, NULL, NULL, NULL },
	{ "sys_vendor", PREFIX, "Bochs", "qemu", VIRT_WEAK, NULL, NULL, NULL },
	{ "bios_vendor", PREFIX, "Bochs", "qemu", VIRT_WEAK, NULL, NULL, NULL },
	{ "product_name", PREFIX, "Standard PC (", "qemu", VIRT_WEAK, NULL, NULL, NULL },
	{ "bios_vendor", PREFIX, "SeaBIOS", "qemu", VIRT_WEAK, NULL, NULL, NULL },
};

static const char *const dmi_fields[] = { "sys_vendor",  "product_name", "product_version",
					  "board_vendor", "bios_vendor",  "chassis_asset_tag" };

static bool text_matches(const char *s, enum match how, const char *text)
{
	size_t n = strlen(text);
	if (how == PREFIX)
		return strncasecmp(s, text, n) == 0;
	for (const char *p = s; (p = strcasestr(p, text)); p += n)
		if ((p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* Amazon's DMI is the same on metal instances, whose type ends in ".metal". */
static bool amazon_metal(json_object *dmi)
{
	const char *product = jpath_str(dmi, "product_name");
	return product && endswith(product, ".metal");
}

static void scan_dmi(struct scan *s, json_object *virt)
{
	struct probe_ctx *ctx = s->ctx;
	struct stat st;
	if (rootfs_stat(ctx->rf, DMI_DIR, &st) < 0 || !S_ISDIR(st.st_mode)) {
		jset_null(virt, "dmi");
		return;
	}
	json_object *dmi = jchild(virt, "dmi");
	for (size_t i = 0; i < ARRAY_SIZE(dmi_fields); i++) {
		_cleanup_free_ char *path = xasprintf(DMI_DIR "/%s", dmi_fields[i]);
		_cleanup_free_ char *v = NULL;
		if (rootfs_read_line(ctx->rf, path, &v) == 0 && !text_printable(v)) {
			probe_unavailable(ctx, "virt", "%s holds binary data, not text: ignored", path);
			free(v);
			v = NULL;
		}
		jset_str(dmi, dmi_fields[i], v && *v ? v : NULL);
	}
	if (jpath_str(dmi, "sys_vendor"))
		s->bare_metal_seen = true;

	for (size_t i = 0; i < ARRAY_SIZE(dmi_signatures); i++) {
		const struct dmi_signature *d = &dmi_signatures[i];
		const char *v = jpath_str(dmi, d->field);
		if (!v || !text_matches(v, d->how, d->text))
			continue;
		if (d->also_field && !text_matches(jpath_str(dmi, d->also_field) ?: "", PREFIX, d->also_prefix))
			continue;
		if (d->cloud && !s->cloud)
			s->cloud = d->cloud;
		if (streq(d->text, "Amazon EC2") && amazon_metal(dmi))
			continue;
		_cleanup_free_ char *source = xasprintf(DMI_DIR "/%s", d->field);
		note(s, LAYER_HYPERVISOR, source, v, d->hypervisor, d->rank);
	}
}

/* SMBIOS type 0, BIOS characteristics extension byte 2, bit 4: "virtual machine". */
static void scan_smbios(struct scan *s)
{
	_cleanup_free_ char *raw = NULL;
	size_t len;
	if (rootfs_read(s->ctx->rf, "/sys/firmware/dmi/entries/0-0/raw", &raw, &len) < 0)
		return;
	const unsigned char *t = (const unsigned char *)raw;
	if (len < 0x14 || t[0] != 0 || t[1] < 0x14)
		return;
	if (t[0x13] & 0x10)
		note(s, LAYER_HYPERVISOR, "/sys/firmware/dmi/entries/0-0/raw", "BIOS characteristics: virtual machine",
		     "unknown", VIRT_GENERIC);
	else
		s->bare_metal_seen = true;
}

/* ---- device tree and PCI -------------------------------------------- */

static const struct virt_signature dt_signatures[] = {
	{ "linux,kvm", "kvm", VIRT_SPECIFIC },
	{ "xen,xen", "xen", VIRT_SPECIFIC },
	{ "vmware", "vmware", VIRT_SPECIFIC },
};

/* A compatible property holds NUL-separated strings. Hand-made dumps
 * write newlines instead: they separate too. */
static void dt_split(char *raw, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (raw[i] == '\n')
			raw[i] = '\0';
}

/* True when a split property holds the string s. */
static bool dt_has(const char *raw, size_t len, const char *s)
{
	for (size_t k = 0; k < len; k += strlen(raw + k) + 1)
		if (streq(raw + k, s))
			return true;
	return false;
}

/* The strings of a split property joined by ", ". */
static char *dt_strings(const char *raw, size_t len)
{
	struct buf b = {0};
	for (size_t i = 0; i < len; i += strlen(raw + i) + 1) {
		if (!raw[i])
			continue;
		if (b.len)
			buf_puts(&b, ", ");
		buf_puts(&b, raw + i);
	}
	return buf_steal(&b);
}

static void scan_device_tree(struct scan *s)
{
	static const char *const bases[] = { "/proc/device-tree", "/sys/firmware/devicetree/base" };
	struct rootfs *rf = s->ctx->rf;
	const char *base = NULL;
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(bases) && !base; i++)
		if (rootfs_stat(rf, bases[i], &st) == 0 && S_ISDIR(st.st_mode))
			base = bases[i];
	if (!base)
		return;
	s->bare_metal_seen = true;

	_cleanup_free_ char *path = xasprintf("%s/hypervisor/compatible", base);
	_cleanup_free_ char *raw = NULL, *root_path = xasprintf("%s/compatible", base), *root = NULL;
	size_t len;
	if (rootfs_read(rf, path, &raw, &len) == 0) {
		dt_split(raw, len);
		_cleanup_free_ char *value = dt_strings(raw, len);
		const struct virt_signature *sig = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(dt_signatures) && !sig; i++)
			if (dt_has(raw, len, dt_signatures[i].text))
				sig = &dt_signatures[i];
		note_signature(s, path, value, sig);
	}
	struct strv nodes = {0};
	bool fw_cfg = false;
	if (rootfs_list(rf, base, &nodes) == 0)
		for (size_t i = 0; i < nodes.n && !fw_cfg; i++)
			if (startswith(nodes.v[i], "fw-cfg@")) {
				_cleanup_free_ char *node = xasprintf("%s/%s", base, nodes.v[i]);
				note(s, LAYER_HYPERVISOR, node, "present", "qemu", VIRT_WEAK);
				fw_cfg = true;
			}
	strv_free(&nodes);
	/* the virtual board of qemu (with its fw-cfg) and of kvmtool (without;
	 * crosvm and Firecracker build the same) on arm */
	if (rootfs_read(rf, root_path, &root, &len) == 0) {
		dt_split(root, len);
		if (dt_has(root, len, "linux,dummy-virt"))
			note(s, LAYER_HYPERVISOR, root_path, "linux,dummy-virt", fw_cfg ? "unknown" : "kvmtool",
			     fw_cfg ? VIRT_GENERIC : VIRT_WEAK);
	}
}

static const struct virt_signature pci_vendors[] = {
	{ "80ee", "virtualbox", VIRT_FIRMWARE },
	{ "15ad", "vmware", VIRT_SPECIFIC },
	{ "5853", "xen", VIRT_SPECIFIC },
	{ "1ab8", "parallels", VIRT_SPECIFIC },
	{ "1b36", "qemu", VIRT_WEAK }, /* QEMU's own emulated devices */
	{ "1234", "qemu", VIRT_WEAK }, /* QEMU's standard VGA */
};

/* /proc/bus/pci/devices: "BBDF<tab>VVVVDDDD<tab>..." per device. */
static void scan_pci(struct scan *s)
{
	_cleanup_free_ char *text = NULL;
	bool seen[ARRAY_SIZE(pci_vendors)] = { false };
	if (rootfs_read(s->ctx->rf, "/proc/bus/pci/devices", &text, NULL) < 0)
		return;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char id[9];
		if (sscanf(l, "%*x %8[0-9a-fA-F]", id) != 1 || strlen(id) != 8)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(pci_vendors); i++) {
			if (seen[i] || strncasecmp(id, pci_vendors[i].text, 4) != 0)
				continue;
			seen[i] = true;
			char value[16];
			snprintf(value, sizeof(value), "%.4s:%.4s", id, id + 4);
			note_signature(s, "/proc/bus/pci/devices", value, &pci_vendors[i]);
		}
	}
}

/* ---- containers ----------------------------------------------------- */

static void scan_container(struct scan *s)
{
	struct probe_ctx *ctx = s->ctx;
	struct rootfs *rf = ctx->rf;
	_cleanup_free_ char *environ = NULL, *marker = NULL, *manager = NULL;
	size_t len;

	_cleanup_free_ char *version = NULL, *status = NULL;
	/* an illumos LX branded zone emulates Linux (its init says container=zone) */
	if (rootfs_read_line(rf, "/proc/version", &version) == 0 && strstr(version, "BrandZ virtual linux"))
		note(s, LAYER_CONTAINER, "/proc/version", "BrandZ virtual linux", "illumos-lx", 0);
	/* linux-vserver: the context of this process, 0 on the host */
	if (rootfs_read(rf, "/proc/self/status", &status, NULL) == 0) {
		_cleanup_free_ char *vxid = cpuinfo_value(status, "VxID");
		if (vxid && !streq(vxid, "0"))
			note(s, LAYER_CONTAINER, "/proc/self/status VxID", vxid, "linux-vserver", 0);
		else if (vxid)
			note(s, LAYER_HOST, "/proc/self/status VxID", vxid, "linux-vserver-host", 0);
	}

	int r = rootfs_read(rf, "/proc/1/environ", &environ, &len);
	if (r == 0) {
		for (size_t i = 0; i < len; i += strlen(environ + i) + 1) {
			const char *v = startswith(environ + i, "container=");
			if (v && *v && text_printable(v))
				note(s, LAYER_CONTAINER, "/proc/1/environ", environ + i, v, 0);
		}
	}
	if (rootfs_read_line(rf, "/run/systemd/container", &marker) == 0 && *marker && text_printable(marker))
		note(s, LAYER_CONTAINER, "/run/systemd/container", marker, marker, 0);
	if (rootfs_read_line(rf, "/run/host/container-manager", &manager) == 0 && *manager &&
	    text_printable(manager))
		note(s, LAYER_CONTAINER, "/run/host/container-manager", manager, manager, 0);
	if (rootfs_exists(rf, "/run/.containerenv") == 0)
		note(s, LAYER_CONTAINER, "/run/.containerenv", "present", "podman", 0);
	if (rootfs_exists(rf, "/.dockerenv") == 0)
		note(s, LAYER_CONTAINER, "/.dockerenv", "present", "docker", 0);
	if (rootfs_exists(rf, "/proc/vz") == 0 && rootfs_exists(rf, "/proc/bc") < 0)
		note(s, LAYER_CONTAINER, "/proc/vz", "present without /proc/bc", "openvz", 0);
	const char *release = jpath_str(ctx->rec, "host.kernel_release");
	if (release && (strstr(release, "Microsoft") || strstr(release, "microsoft") || strstr(release, "WSL")))
		note(s, LAYER_CONTAINER, "/proc/sys/kernel/osrelease", release, "wsl", 0);

	/* systemd writes /run/systemd/container in a container, so only
	 * other inits leave this source missing */
	if (r == -EACCES && !first_means(s, LAYER_CONTAINER) && !streq_ptr(jpath_str(ctx->rec, "host.init"), "systemd"))
		probe_unavailable(ctx, "virt", "container: /proc/1/environ: %s (root would help)", strerror(-r));
}

/* ---- host side: /dev/kvm, kernel log, kernel config, steal ----------- */

const char *virt_boot_el(const char *klog, char **line)
{
	static const struct {
		const char *needle, *el;
	} modes[] = {
		{ "CPU: CPUs started in inconsistent modes", "mixed" },
		{ "CPU: All CPU(s) started at EL1", "EL1" },
		{ "CPU: All CPU(s) started at EL2", "EL2" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (klog_count(klog, modes[i].needle, line) > 0)
			return modes[i].el;
	return NULL;
}

int virt_kvm_initialized(const char *klog, char **line)
{
	/* arm64: "kvm [1]: {Hyp,VHE,Hyp nVHE,Protected nVHE} mode initialized successfully";
	 * failures on arm64 and x86 */
	static const struct {
		const char *prefix, *needle;
		int state;
	} lines[] = {
		{ "kvm [", "mode initialized successfully", 1 },
		{ "", "HYP mode not available", 0 },
		{ "kvm [", "error initializing Hyp mode", 0 },
		{ "kvm: ", "disabled by bios", 0 },
		{ "kvm: ", "no hardware support", 0 },
		{ "kvm_intel: ", "VMX not enabled", 0 },
		{ "kvm_intel: ", "VMX not supported", 0 },
		{ "kvm_amd: ", "SVM not supported", 0 },
		{ "kvm: ", "SVM not supported", 0 },
	};
	const char *pos = klog, *l;
	size_t len;
	int state = -1;

	while (klog_line(&pos, &l, &len)) {
		for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
			size_t plen = strlen(lines[i].prefix);
			if (len < plen || strncmp(l, lines[i].prefix, plen) != 0 ||
			    !memmem(l, len, lines[i].needle, strlen(lines[i].needle)))
				continue;
			state = lines[i].state;
			if (line) {
				free(*line);
				*line = xstrndup(l, len);
			}
			break;
		}
	}
	return state;
}

char virt_kconfig(const char *config, const char *symbol)
{
	_cleanup_free_ char *set = xasprintf("CONFIG_%s=", symbol);
	size_t n = strlen(set);
	const char *pos = config, *l;
	size_t len;

	while (klog_line(&pos, &l, &len))
		if (len > n && strncmp(l, set, n) == 0 && (l[n] == 'y' || l[n] == 'm'))
			return l[n];
	return 'n';
}

int virt_parse_steal(const char *stat, double *pct)
{
	const char *l = strstr(stat, "cpu ");
	if (!l || (l != stat && l[-1] != '\n'))
		return -EBADMSG;
	unsigned long long v[8];
	if (sscanf(l + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &v[6], &v[7]) != 8)
		return -EBADMSG;
	double total = 0;
	for (size_t i = 0; i < 8; i++)
		total += (double)v[i];
	if (total <= 0)
		return -EBADMSG;
	*pct = round(10000.0 * (double)v[7] / total) / 100.0;
	return 0;
}

static void set_tristate(json_object *o, const char *key, int v)
{
	if (v < 0)
		jset_null(o, key);
	else
		jset_bool(o, key, v);
}

/* /dev/kvm; the existence of /dev itself is looked at too, so that a
 * gathered dump tells "no /dev/kvm" from "no /dev recorded". */
static int scan_kvm_dev(struct scan *s)
{
	struct rootfs *rf = s->ctx->rf;
	if (rootfs_exists(rf, "/dev") < 0) {
		probe_unavailable(s->ctx, "virt", "/dev/kvm: this root has no /dev");
		return -1;
	}
	int r = rootfs_exists(rf, "/dev/kvm");
	if (r == 0) {
		note(s, LAYER_HOST, "/dev/kvm", "present", "kvm-host", 0);
		return 1;
	}
	if (r == -ENOENT)
		return 0;
	probe_unavailable(s->ctx, "virt", "/dev/kvm: %s", strerror(-r));
	return -1;
}

/* Boot exception level and KVM initialisation; returns the latter (1, 0, -1). */
static int scan_klog_host(struct scan *s, json_object *virt, const char *klog)
{
	const char *arch = jpath_str(s->ctx->rec, "host.arch");
	bool arm64 = streq_ptr(arch, "aarch64");
	_cleanup_free_ char *el_line = NULL, *kvm_line = NULL;

	const char *el = klog ? virt_boot_el(klog, &el_line) : NULL;
	int kvm = klog ? virt_kvm_initialized(klog, &kvm_line) : -1;
	jset_str(virt, "boot_el", el);
	set_tristate(virt, "kvm_initialized", kvm);
	if (el)
		note(s, LAYER_HOST, "kernel log", el_line, el, 0);
	if (kvm >= 0)
		note(s, LAYER_HOST, "kernel log", kvm_line, kvm ? "kvm-initialized" : "kvm-unavailable", 0);
	if (klog && !el && arm64)
		probe_unavailable(s->ctx, "virt", "boot exception level: the kernel log has no \"CPU: All CPU(s) "
						  "started at\" line (log wrapped?)");
	return kvm;
}

static void scan_kconfig(struct scan *s, json_object *virt)
{
	struct probe_ctx *ctx = s->ctx;
	_cleanup_free_ char *gz = NULL, *config = NULL, *boot = NULL;
	const char *source = "/proc/config.gz";
	const char *release = jpath_str(ctx->rec, "host.kernel_release");
	size_t len;
	int r = rootfs_read(ctx->rf, source, &gz, &len);

	if (r == 0) {
		r = gunzip_mem(gz, len, KCONFIG_MAX, &config, NULL);
		if (r < 0)
			probe_unavailable(ctx, "virt", "%s: %s", source,
					  r == -EBADMSG ? "not a gzip stream" : strerror(-r));
	}
	if (!config && release && !strchr(release, '/')) {
		boot = xasprintf("/boot/config-%s", release);
		if (rootfs_read(ctx->rf, boot, &config, NULL) == 0)
			source = boot;
	}
	if (!config) {
		jset_null(virt, "config_virtualization");
		jset_null(virt, "config_kvm");
		if (r != -EBADMSG)
			probe_unavailable(ctx, "virt", "kernel config: neither /proc/config.gz nor /boot/config-%s",
					  release ?: "RELEASE");
		return;
	}
	char v[2] = { virt_kconfig(config, "VIRTUALIZATION"), '\0' };
	char k[2] = { virt_kconfig(config, "KVM"), '\0' };
	jset_str(virt, "config_virtualization", v);
	jset_str(virt, "config_kvm", k);
	_cleanup_free_ char *value = xasprintf("CONFIG_VIRTUALIZATION=%s CONFIG_KVM=%s", v, k);
	note(s, LAYER_HOST, source, value, NULL, 0);
}

static void scan_steal(struct scan *s, json_object *virt)
{
	_cleanup_free_ char *stat = NULL;
	double pct;
	int r = rootfs_read(s->ctx->rf, "/proc/stat", &stat, NULL);
	if (r == 0 && (r = virt_parse_steal(stat, &pct)) == 0) {
		jset_double(virt, "steal_pct", pct);
		return;
	}
	jset_null(virt, "steal_pct");
	probe_unavailable(s->ctx, "virt", "steal time: /proc/stat: %s",
			  r == -EBADMSG ? "no cpu line with a steal column" : strerror(-r));
}

static const char *role_of(const struct scan *s, int kvm_dev, int kvm_init)
{
	if (s->dom0)
		return "host";
	if (s->rank >= 0)
		return "guest";
	if (kvm_dev == 1 || kvm_init == 1)
		return "host";
	return s->bare_metal_seen ? "none" : "unknown";
}

int virt_collect(struct probe_ctx *ctx)
{
	json_object *virt = jchild(ctx->rec, "virt");
	struct scan s = { .ctx = ctx, .evidence = json_object_new_array(), .rank = -1 };
	const char *klog = probe_klog(ctx);

	/* the verdict first in the record, filled in at the end */
	jset_null(virt, "role");
	jset_null(virt, "hypervisor");
	jset_null(virt, "container");
	jset_null(virt, "cloud");

	/* firmest sources first: among equal ranks the first one decides */
	scan_xen(&s);
	scan_partitions(&s);
	scan_cpuid(&s, virt);
	if (klog)
		scan_klog_hypervisor(&s, klog);
	scan_cpuinfo(&s, virt);
	scan_dmi(&s, virt);
	scan_pci(&s);
	scan_device_tree(&s);
	scan_smbios(&s);
	scan_container(&s);

	int kvm_dev = scan_kvm_dev(&s);
	set_tristate(virt, "kvm_dev", kvm_dev);
	int kvm_init = scan_klog_host(&s, virt, klog);
	scan_kconfig(&s, virt);
	scan_steal(&s, virt);

	const char *role = role_of(&s, kvm_dev, kvm_init);
	jset_str(virt, "role", role);
	jset_str(virt, "hypervisor", s.hypervisor);
	jset_str(virt, "container", first_means(&s, LAYER_CONTAINER));
	jset_str(virt, "cloud", s.cloud);
	jset(virt, "evidence", s.evidence);
	if (streq(role, "unknown"))
		probe_unavailable(ctx, "virt", "guest or bare metal: nothing in this root tells (no CPUID record, "
					       "DMI, device tree or hypervisor interface)");
	return 0;
}

/* ---- text report ---------------------------------------------------- */

static const struct {
	const char *id, *name;
} hypervisor_names[] = {
	{ "kvm", "KVM" },
	{ "qemu-tcg", "QEMU without KVM (TCG emulation)" },
	{ "qemu", "QEMU" },
	{ "vmware", "VMware" },
	{ "xen", "Xen" },
	{ "hyperv", "Hyper-V" },
	{ "virtualbox", "VirtualBox" },
	{ "parallels", "Parallels" },
	{ "bhyve", "bhyve" },
	{ "acrn", "ACRN" },
	{ "qnx", "QNX hypervisor" },
	{ "jailhouse", "Jailhouse" },
	{ "apple", "Apple Virtualization" },
	{ "uml", "User Mode Linux" },
	{ "kvmtool", "kvmtool" },
	{ "vmm", "OpenBSD vmm" },
	{ "powervm", "PowerVM (LPAR)" },
	{ "zvm", "z/VM" },
	{ "prsm", "PR/SM (LPAR)" },
	{ "ldoms", "LDoms" },
	{ "lx86", "PowerVM Lx86 (x86 translated)" },
	{ "unknown", "unknown hypervisor" },
};

const char *virt_hypervisor_name(const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(hypervisor_names); i++)
		if (streq(id, hypervisor_names[i].id))
			return hypervisor_names[i].name;
	return id;
}

/* " (cpuid = KVMKVMKVM)": the first fact that named the hypervisor. */
static void render_guest_source(const struct env_virt *v, const char *hv, struct buf *b)
{
	for (size_t i = 0; i < v->evidence.n; i++) {
		const struct env_evidence *e = &v->evidence.v[i];
		if (streq_ptr(e->layer, "hypervisor") && streq_ptr(e->means, hv)) {
			buf_printf(b, " (%s = %s)", e->source, e->value);
			return;
		}
	}
}

void virt_render(const struct env_record *env, FILE *out)
{
	const struct env_virt *v = &env->virt;
	struct buf b = {0};
	const char *role = v->role, *hv = v->hypervisor, *el = v->boot_el;

	if (streq_ptr(role, "guest")) {
		buf_printf(&b, "%s guest", virt_hypervisor_name(hv ?: "unknown"));
		render_guest_source(v, hv, &b);
	} else if (streq_ptr(role, "host")) {
		if (streq_ptr(hv, "xen"))
			buf_puts(&b, "Xen dom0 (host)");
		else if (hv)
			buf_printf(&b, "%s control domain (host)", virt_hypervisor_name(hv));
		else
			buf_puts(&b, "bare metal, KVM host");
	} else if (streq_ptr(role, "none")) {
		buf_puts(&b, "bare metal");
	} else {
		buf_puts(&b, "guest or bare metal: unknown");
	}
	if (v->cloud)
		buf_printf(&b, " · cloud %s", v->cloud);
	if (v->container)
		buf_printf(&b, " · container %s", v->container);
	if (el)
		buf_printf(&b, " · %s%s", streq(el, "mixed") ? "CPUs booted at mixed exception levels" : "booted at ",
			   streq(el, "mixed") ? "" : el);
	if (el && streq(el, "EL1") && !streq_ptr(role, "guest"))
		buf_puts(&b, " (cannot host KVM)");
	if (v->kvm_initialized.known)
		buf_printf(&b, " · KVM %s", v->kvm_initialized.v ? "initialised" : "not available");
	if (v->kvm_dev.known)
		buf_printf(&b, " · /dev/kvm %s", !v->kvm_dev.v ? "absent"
						: streq_ptr(role, "guest") ? "present (nested)" : "present");
	if (streq_ptr(v->config_kvm, "n"))
		buf_puts(&b, " · kernel built without KVM");
	if (streq_ptr(role, "guest") && v->steal_pct.known)
		buf_printf(&b, " · steal %.1f %%", v->steal_pct.v);
	render_line(out, "Virt", "%s", b.s);
	buf_free(&b);
}
