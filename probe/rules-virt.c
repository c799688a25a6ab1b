/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about virtualisation: steal time, emulation, hosts that cannot run KVM. */
#include "findings.h"

#define STEAL_WARN_PCT 2.0

/* The value of the first virt.evidence entry of a layer that means `means`. */
static const struct env_evidence *evidence_for(const struct env_record *env, const char *layer, const char *means)
{
	for (size_t i = 0; i < env->virt.evidence.n; i++) {
		const struct env_evidence *e = &env->virt.evidence.v[i];
		if (streq_ptr(e->layer, layer) && streq_ptr(e->means, means))
			return e;
	}
	return NULL;
}

static void set_evidence(struct finding *f, const struct env_evidence *e)
{
	finding_set(&f->evidence, "%s = %s", e->source, e->value);
}

static bool is_guest(const struct env_record *env)
{
	return streq_ptr(env->virt.role, "guest");
}

static bool steal(const struct env_record *env, struct finding *f)
{
	double pct = num_or(env->virt.steal_pct, 0);
	if (!is_guest(env) || !env->virt.steal_pct.known || pct <= STEAL_WARN_PCT)
		return false;
	finding_set(&f->evidence, "/proc/stat steal = %.1f %% of all CPU time since boot", pct);
	return true;
}

static bool emulated(const struct env_record *env, struct finding *f)
{
	const struct env_evidence *e = evidence_for(env, "hypervisor", "qemu-tcg");
	if (!streq_ptr(env->virt.hypervisor, "qemu-tcg") || !e)
		return false;
	set_evidence(f, e);
	return true;
}

static bool booted_el1(const struct env_record *env, struct finding *f)
{
	const char *el = env->virt.boot_el;
	if (!el || (!streq(el, "EL1") && !streq(el, "mixed")))
		return false;
	const struct env_evidence *e = evidence_for(env, "host", el);
	if (e)
		finding_set(&f->evidence, "kernel log: %s", e->value);
	else
		finding_set(&f->evidence, "virt.boot_el = %s", el);
	/* Most guests are entered at EL1, but QEMU and some clouds can give a
	 * guest EL2 (nested virtualisation): say which one this is, quietly. */
	if (is_guest(env)) {
		f->severity = SEV_INFO;
		finding_set(&f->message, "This guest's kernel was entered at EL1: it cannot host KVM guests of "
					 "its own, so a guest started inside it runs emulated. Normal for a guest; "
					 "it matters only for nested virtualisation.");
		finding_set(&f->fix, "for nested guests, give this guest EL2 (qemu-system-aarch64 -M "
				     "virt,virtualization=true, or the cloud's nested virtualisation option)");
		return true;
	}
	if (streq(el, "mixed"))
		finding_set(&f->message, "The CPUs were started at different exception levels (EL1 and EL2): "
					 "the kernel disables KVM, so this machine cannot host KVM guests, and "
					 "firmware that treats cores unequally may clock them unequally too.");
	return true;
}

/* Hardware that could host KVM guests: arm64 entered at EL2, or x86 VT-x/AMD-V. */
static bool host_capable(const struct env_record *env)
{
	return streq_ptr(env->virt.boot_el, "EL2") || env->virt.hw_virtualization;
}

static bool kvm_unavailable(const struct env_record *env, struct finding *f)
{
	const char *el = env->virt.boot_el;
	const char *kconfig = env->virt.config_kvm;

	/* a guest runs no guests of its own here; EL1 has its own finding */
	if (is_guest(env) || streq_ptr(el, "EL1") || streq_ptr(el, "mixed"))
		return false;
	if (is_false(env->virt.kvm_initialized)) {
		const struct env_evidence *e = evidence_for(env, "host", "kvm-unavailable");
		finding_set(&f->evidence, "kernel log: %s", e ? e->value : "KVM not initialised");
		const char *line = e && e->value ? e->value : "";
		if (strstr(line, "bios") || strstr(line, "VMX") || strstr(line, "SVM"))
			finding_set(&f->fix, "enable VT-x / AMD-V (SVM) in the firmware setup, then reboot");
		return true;
	}
	if (!host_capable(env))
		return false;
	if (streq_ptr(kconfig, "n")) {
		finding_set(&f->message, "This kernel was built without KVM although the hardware can host "
					 "guests: bare-metal versus guest comparisons need a KVM-enabled kernel.");
		finding_set(&f->evidence, "kernel config: CONFIG_KVM is not set (CONFIG_VIRTUALIZATION=%s)",
			    env->virt.config_virtualization ?: "?");
		finding_set(&f->fix, "build the kernel with CONFIG_VIRTUALIZATION=y and CONFIG_KVM=y");
		return true;
	}
	if ((streq_ptr(kconfig, "y") || streq_ptr(kconfig, "m")) && is_false(env->virt.kvm_dev)) {
		finding_set(&f->evidence, "kernel config: CONFIG_KVM=%s, but /dev/kvm is absent", kconfig);
		if (streq(kconfig, "m"))
			finding_set(&f->fix, "load the module: modprobe kvm_intel, kvm_amd or kvm (as root), and "
					     "see why it did not load at boot");
		return true;
	}
	return false;
}

const struct rule virt_rules[] = {
	{
		.id = "virt.steal",
		.area = "virt",
		.severity = SEV_WARN,
		.message = "The hypervisor gives this guest's vCPUs to others part of the time (steal time): "
			   "the host's CPUs are overcommitted, so every score depends on the neighbours' load "
			   "and varies from run to run; preempted lock holders hit multi-copy tests hardest.",
		.fix = "run on a host without vCPU overcommit (dedicated or pinned vCPUs), or compare runs "
		       "only with the steal time recorded",
		.check = steal,
	},
	{
		.id = "virt.emulated",
		.area = "virt",
		.severity = SEV_CRIT,
		.message = "This guest runs under QEMU without KVM: every instruction is emulated in software "
			   "(TCG), so every test runs at a few per cent of native speed.",
		.fix = "start the guest with KVM (qemu -accel kvm / -enable-kvm; on arm64 the host kernel must "
		       "boot at EL2 and initialise KVM)",
		.check = emulated,
	},
	{
		.id = "virt.el1",
		.area = "virt",
		.severity = SEV_WARN,
		.message = "This arm64 kernel was entered at EL1, not EL2: it cannot host KVM guests, so any "
			   "guest started here runs emulated.",
		.fix = "the firmware or boot loader must enter the kernel at EL2 (e.g. the ATF/U-Boot or UEFI "
		       "setting that keeps EL2 for the OS)",
		.check = booted_el1,
	},
	{
		.id = "virt.kvm-unavailable",
		.area = "virt",
		.severity = SEV_WARN,
		.message = "KVM is not available although this machine could host guests: guests started here "
			   "would run emulated, at a few per cent of native speed.",
		.fix = "see the kernel log lines starting with \"kvm\" for the cause",
		.check = kvm_unavailable,
	},
	{ 0 },
};
