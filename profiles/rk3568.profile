# rk3568.profile: boards with the Rockchip RK3568 (Radxa, Firefly, Pine64 Quartz64...).
#
# Machine: 4 Cortex-A55 cores up to about 2.0 GHz (cpufreq-dt with OPP tables),
# 2-8 GiB of RAM, eMMC or an SD card, sometimes SATA or NVMe over PCIe.
# Reasoning:
# - cpu: performance governor and the minimum pinned to the maximum: the vendor kernels
#   default to schedutil or ondemand, and the short UnixBench tests end before the clock
#   has ramped up.
# - devfreq: the DDR controller (dmc) to performance: the BSP's dmc_ondemand keeps DRAM at
#   324 MHz until load has lasted, and memory-bound tests (File Copy, Pipe, Execl) start
#   before it rises.
# - io: the probe's recommendation (bfq for SD cards and eMMC, none for NVMe).
# - workdir: tmpfs, 512M (from generic): eMMC and SD cards would be measured instead of
#   the system.
# - build: -mcpu=cortex-a55.
# - services: the generic list plus the board images' extras.

[profile]
description = Rockchip RK3568 (4 Cortex-A55), eMMC or SD card
include = generic

[services]
stop-also = bluetooth ModemManager

[cpu]
min-freq = max

[devfreq]
governor = performance

[build]
cflags = -O3 -ffast-math -mcpu=cortex-a55
