# rpi4.profile: Raspberry Pi 4 Model B and Pi 400.
#
# Machine: BCM2711, 4 Cortex-A72 cores at 1.5 GHz (1.8 GHz on later boards and the
# Pi 400), 1-8 GiB of RAM, the system on an SD card; Raspberry Pi OS sets the ondemand
# governor at boot.
# Reasoning:
# - cpu: performance governor and the minimum pinned to the maximum (ondemand leaves
#   the cores at 600 MHz between tests).
# - io: the probe's recommendation for the SD card.
# - workdir: tmpfs, 256M: fits the 1 GiB boards, and the file tests need far less.
# - build: -mcpu=cortex-a72.
# - services: the generic list plus the Pi image's extras (bluetooth, triggerhappy).
# - A weak power supply caps the clock whatever the profile says: `ubtune probe`
#   reports undervoltage.

[profile]
description = Raspberry Pi 4 / Pi 400 (BCM2711, 4 Cortex-A72), SD card
include = generic

[services]
stop-also = bluetooth hciuart triggerhappy ModemManager

[cpu]
min-freq = max

[workdir]
size = 256M

[build]
cflags = -O3 -ffast-math -mcpu=cortex-a72
