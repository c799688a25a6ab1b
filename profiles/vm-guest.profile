# vm-guest.profile: a virtual machine (KVM/QEMU, Xen, VMware, Hyper-V guests).
#
# Machine: virtual CPUs without a cpufreq driver (the host sets the clock), virtio or
# emulated disks, interrupts that are virtual.
# Reasoning:
# - cpu: nothing to set in the guest; generic's governor is left alone when the guest
#   has no cpufreq (apply says so). Tune the host instead.
# - io: the probe's recommendation (none for virtio: the host schedules the real disk).
# - irq: left alone (generic's [irq.guest] already does so in guests).
# - services: the generic list; qemu-guest-agent and the cloud agents stay.
# - build: -march=native gives the vCPU model's features: build and run in the same
#   guest.
# - The numbers depend on the host: compare guests only with the same host, load and
#   vCPU pinning (`ubtune probe` reports steal time).

[profile]
description = Virtual machine guest (KVM, Xen, VMware, Hyper-V)
include = generic

[cpu]
governor = keep

[irq]
storage-affinity = keep
