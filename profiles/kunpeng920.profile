# kunpeng920.profile: HiSilicon Kunpeng 920 servers (TaiShan 200 and similar).
#
# Machine: 24 to 64 TaiShan v110 cores (ARMv8.2, 2.6 GHz on the 48- and 64-core parts)
# per socket, one or two sockets, two NUMA nodes per socket; SAS/SATA or NVMe storage;
# cpufreq through ACPI CPPC (cppc_cpufreq).
# Reasoning:
# - cpu: performance governor (generic) and the minimum pinned to the maximum: CPPC
#   otherwise lets idle cores drop and ramp up slowly between UnixBench's short tests.
# - io: the probe's recommendation (none for NVMe, mq-deadline for SAS/SATA SSD).
# - workdir: tmpfs, 4G.
# - build: -mcpu=tsv110 (GCC 9 and later) tunes for the TaiShan v110 core.
# - bench: 1 copy and all cores; never capped at 16.
# - irq: the storage controller's interrupts on its own NUMA node: with 4 nodes, a
#   far node adds latency to every disk interrupt.

[profile]
description = HiSilicon Kunpeng 920 (TaiShan v110 cores, 2 NUMA nodes per socket)
include = generic

[cpu]
min-freq = max

[workdir]
size = 4G

[build]
cflags = -O3 -ffast-math -mcpu=tsv110
