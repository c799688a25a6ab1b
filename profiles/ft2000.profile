# ft2000.profile: Phytium FT-2000+/64 servers and workstations.
#
# Machine: 64 FTC662 cores (ARMv8, about 2.2 GHz) in 8 panels of 8 cores, each panel
# its own NUMA node; usually a SATA SSD; distributions with 4.19 kernels (Kylin, UOS).
# Reasoning:
# - services: the generic list plus the desktop and management daemons these
#   distributions start (bluetooth, ModemManager, accounts-daemon, tuned).
# - cpu: most firmware exposes no cpufreq driver (the clock is fixed); where it does,
#   the generic performance governor applies, and the minimum is pinned to the maximum.
# - io: mq-deadline for the SATA SSD (with deadline for legacy single-queue kernels).
# - workdir: tmpfs, 2G: memory is plentiful on these machines.
# - build: -O3 -fomit-frame-pointer -ffast-math with the architecture named explicitly
#   (-march=armv8-a -mtune=cortex-a53): GCC has no model of the FTC662 core, so
#   -march=native cannot tune for it. Keep these flags when comparing FT-2000+ runs.
# - bench: 1 copy and 64 copies (all cores); UnixBench's old cap of 16 would hide
#   three quarters of the machine.
# - irq: the SATA controller's interrupts on the CPUs of its own NUMA node.

[profile]
description = Phytium FT-2000+/64 (64 cores, 8 NUMA nodes), SATA SSD
include = generic

[services]
stop-also = bluetooth ModemManager accounts-daemon tuned

[cpu]
min-freq = max

[io]
scheduler = mq-deadline|deadline

[workdir]
size = 2G

[build]
cflags = -O3 -fomit-frame-pointer -ffast-math -march=armv8-a -mtune=cortex-a53

[bench]
copies = 1, 64
