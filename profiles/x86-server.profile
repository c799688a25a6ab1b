# x86-server.profile: Intel Xeon and AMD EPYC servers on bare metal.
#
# Machine: many cores, often several NUMA nodes, NVMe or SAS storage; cpufreq through
# intel_pstate, amd-pstate or acpi-cpufreq.
# Reasoning:
# - cpu: performance governor (generic) and boost on: published server runs use turbo,
#   and it is the machine's best honest clock. Expect more run-to-run spread with it.
# - io: the probe's recommendation (none for NVMe).
# - workdir: tmpfs, 2G.
# - build: UnixBench's own -march=native -mtune=native (generic).
# - irq: the storage controller's interrupts on its own NUMA node.
# - services: tuned would retune the machine behind ubtune's back.

[profile]
description = Intel Xeon / AMD EPYC servers, bare metal
include = generic

[services]
stop-also = tuned

[cpu]
boost = on

[workdir]
size = 2G
