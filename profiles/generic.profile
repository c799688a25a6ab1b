# generic.profile: the base every other profile includes; fits any Linux machine.
#
# Reasoning, section by section:
# - services: daemons that wake up while UnixBench runs and take CPU time or move
#   interrupts: irqbalance and numad rebalance IRQs and memory mid-run, printing
#   (cups), mDNS (avahi), desktop managers, power and subscription agents, NFS, boot
#   splash leftovers, and the apt timers that start downloads or upgrades at random
#   times. Units that are not installed are simply not there; revert starts again
#   only the ones that were running.
# - cpu: the performance governor keeps the clock at its maximum; schedutil is the
#   fallback where performance is not offered. Boost and the minimum frequency stay
#   as the machine has them: the machine profiles decide.
# - io: the scheduler the probe recommends for the medium of the benchmark directory.
# - workdir: a tmpfs, so that File Copy measures the system, not an SD card or a disk.
# - build: UnixBench 6's own flags (its Makefile: -O3 -ffast-math -march=native
#   -mtune=native), so that scores compare with published runs of the same version.
# - bench: one copy, then one copy per online CPU (no cap at 16), the whole index.
# - sysctl: full address-space randomisation, the kernel default, in case an earlier
#   experiment turned it off (published runs have it on).
# - vm: transparent huge pages only for programs that ask (madvise): the same setting
#   on every machine, and none of the index tests asks.
# - irq: storage interrupts on the CPUs of the controller's NUMA node (nothing to do on
#   a single node); left alone in virtual machines, whose interrupts are virtual.

[profile]
description = Any Linux machine: quiet services, performance governor, tmpfs workdir, UnixBench's own flags

[services]
stop = irqbalance numad cups* avahi-daemon* gdm gdm3 lightdm sddm upower rhsmcertd
	nfs-server packagekit plymouth-* apt-daily.timer apt-daily-upgrade.timer man-db.timer

[cpu]
governor = performance|schedutil
boost = keep
min-freq = keep

[io]
scheduler = auto
read-ahead-kb = keep

[workdir]
type = tmpfs
path = /var/tmp/ubtune-work
size = 512M

[build]
cc = gcc
cflags = -O3 -ffast-math -march=native -mtune=native

[bench]
copies = 1, all
tests = index
quick = no

[sysctl]
kernel.randomize_va_space = 2

[vm]
transparent-hugepages = madvise

[irq]
storage-affinity = device-node

[irq.guest]
match-virt = guest
storage-affinity = keep
