/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Virtualisation layers: parsers exported for the unit tests. */
#pragma once

#include <stdbool.h>

/*
 * How firmly one fact names a hypervisor. When facts disagree the firmest
 * decides; among equals the first one read.
 */
enum virt_rank {
	VIRT_GENERIC,  /* only "some hypervisor": CPUID bit, cpuinfo flag, SMBIOS VM bit */
	VIRT_WEAK,     /* a name others imitate: QEMU's DMI and devices, "Microsoft Hv" */
	VIRT_SPECIFIC, /* CPUID vendor leaf, Xen interfaces, device tree, kernel log, DMI */
	VIRT_FIRMWARE, /* DMI/PCI identities that show KVM's CPUID underneath (VirtualBox, Xen, Amazon) */
};

struct virt_signature {
	const char *text;
	const char *hypervisor;
	enum virt_rank rank;
};

/* The hypervisor a CPUID leaf 0x40000000 vendor string names, or NULL. */
const struct virt_signature *virt_cpuid_signature(const char *vendor);

/* A dump's /.ubtune/cpuid ("hypervisor_bit=1", "vendor=KVMKVMKVM"):
 * 0 or -EBADMSG (no valid hypervisor_bit line, a vendor that is not text). */
int virt_parse_cpuid_file(const char *text, bool *bit, char **vendor);

/* arm64 boot exception level from the kernel log: "EL2", "EL1", "mixed"
 * (CPUs started in inconsistent modes) or NULL; *line gets the log line. */
const char *virt_boot_el(const char *klog, char **line);

/* KVM initialisation from the kernel log: 1 (initialised), 0 (failed or
 * not available), -1 (no line about it); *line gets the deciding line. */
int virt_kvm_initialized(const char *klog, char **line);

/* Value of CONFIG_SYMBOL in a kernel config: 'y', 'm' or 'n' (not set). */
char virt_kconfig(const char *config, const char *symbol);

/* Steal share (percent) of all CPU time since boot from /proc/stat text;
 * 0 or -EBADMSG (no cpu line with a steal column, or no time at all). */
int virt_parse_steal(const char *stat, double *pct);

/* The hypervisor of an s390 guest from /proc/sysinfo: the control program
 * of level VM00 ("zvm", "kvm", "unknown"), else "prsm" for a logical
 * partition; *value gets what decided. NULL when sysinfo says neither. */
const char *virt_s390_sysinfo(const char *sysinfo, char **value);

/* Display name of a hypervisor id ("kvm" -> "KVM"). */
const char *virt_hypervisor_name(const char *id);
