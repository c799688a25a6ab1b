#!/usr/bin/python3
"""Checks an environment record against the contract in docs/probe-json.md:
every key is present (null allowed where the contract allows it) with the
right JSON type. Usage: check-contract.py RECORD.json"""
import json
import sys

S, N, B, L, O = str, (int, float), bool, list, dict
# key: (type, may be null)
CONTRACT = {
    "schema": (S, False), "generated_at": (S, False), "root": (S, False), "unavailable": (L, False),
    "host.hostname": (S, True), "host.kernel_release": (S, True), "host.kernel_version": (S, True),
    "host.arch": (S, True), "host.os": (S, True), "host.uptime_s": (N, True), "host.load_avg": (L, True),
    "host.locale": (S, True), "host.init": (S, True),
    "cpu.arch": (S, True), "cpu.vendor": (S, True), "cpu.model": (S, True), "cpu.midr": (O, True),
    "cpu.sockets": (N, True), "cpu.cores": (N, True), "cpu.threads": (N, True),
    "cpu.online": (S, True), "cpu.possible": (S, True), "cpu.bogomips": (N, True),
    "cpu.bogomips_per_cpu": (L, True), "cpu.freq": (O, False),
    "cpu.freq.driver": (S, True), "cpu.freq.governor": (S, True), "cpu.freq.cur_khz": (N, True),
    "cpu.freq.min_khz": (N, True), "cpu.freq.max_khz": (N, True), "cpu.freq.boost": (B, True),
    "cpu.isolated": (S, True), "cpu.nohz_full": (S, True), "cpu.vulnerabilities": (O, True),
    "memory.total_kib": (N, True), "memory.available_kib": (N, True), "memory.swap_total_kib": (N, True),
    "memory.swap_used_kib": (N, True), "memory.thp": (S, True),
    "virt.role": (S, False), "virt.hypervisor": (S, True), "virt.container": (S, True), "virt.cloud": (S, True),
    "virt.kvm_dev": (B, True), "virt.boot_el": (S, True), "virt.kvm_initialized": (B, True),
    "virt.config_virtualization": (S, True), "virt.steal_pct": (N, True),
    "virt.config_kvm": (S, True), "virt.cpuid": (O, True), "virt.evidence": (L, False),
    "power.throttle": (O, True), "power.supplies": (L, False),
    "power.undervoltage_now": (B, True), "power.undervoltage_events": (N, True),
    "power.hwmon": (L, False), "power.thermal": (L, False), "power.on_battery": (B, True),
    "storage.workdir": (S, False), "storage.mount": (O, True), "storage.device": (O, True),
    "numa.nodes": (L, True), "numa.storage_irqs": (L, True), "numa.irqbalance": (B, True),
    "services.available": (B, False), "services.default_target": (S, True), "services.noisy": (L, True),
    "processes.top": (L, True),
    "services.manager": (S, True), "processes.running": (N, True), "processes.blocked": (N, True),
    "processes.total": (N, True),
    "services.init_scripts": (L, True),
    "toolchain.cc": (S, True), "toolchain.cc_version": (S, True), "toolchain.libc": (S, True),
    "toolchain.libc_version": (S, True),
    "cgroup.version": (N, True), "cgroup.path": (S, True), "cgroup.cpuset": (S, True),
    "cgroup.affinity": (S, True), "cgroup.cpu_quota_us": (N, True), "cgroup.cpu_period_us": (N, True),
    "cgroup.cpu_quota_cpus": (N, True), "cgroup.throttling": (O, True), "cgroup.cpu_weight": (N, True),
    "cgroup.cpus": (N, True),
    "findings": (L, False),
}
MOUNT = ["target", "source", "fstype", "options"]
DEVICE = ["name", "kind", "rotational", "model", "scheduler", "schedulers", "recommended_scheduler", "numa_node"]
KIND = ["model", "vendor", "midr", "cpus", "measured_cpu", "measured_khz", "cur_khz", "max_khz"]
FINDING = ["id", "severity", "area", "message", "evidence", "fix"]
MISSING = object()


def get(d, path):
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return MISSING
        d = d[k]
    return d


def contract_errors(rec):
    """Every way the record breaks the contract, one line each."""
    errors = []
    for key, (typ, nullable) in CONTRACT.items():
        v = get(rec, key)
        if v is MISSING:
            errors.append(f"missing key {key}")
        elif v is None:
            if not nullable:
                errors.append(f"{key} is null")
        elif typ is N and isinstance(v, bool) or not isinstance(v, typ):
            errors.append(f"{key} has type {type(v).__name__}")
    if rec.get("schema") != "ubtune.probe/1":
        errors.append("schema is not ubtune.probe/1")
    for sub, keys in (("storage.mount", MOUNT), ("storage.device", DEVICE)):
        v = get(rec, sub)
        if isinstance(v, dict):
            errors += [f"missing key {sub}.{k}" for k in keys if k not in v]
    for k in get(rec, "cpu.kinds") if isinstance(get(rec, "cpu.kinds"), list) else []:
        errors += [f"missing key cpu.kinds[].{key}" for key in KIND if key not in k]
        v = k.get("measured_khz")
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0):
            errors.append(f"cpu.kinds[].measured_khz is {v!r}, not a number of kHz")
    for f in rec.get("findings", []):
        errors += [f"finding {f.get('id')} lacks {k}" for k in FINDING if k not in f]
        if f.get("severity") not in ("info", "warn", "crit"):
            errors.append(f"finding {f.get('id')} has severity {f.get('severity')}")
    for u in rec.get("unavailable", []):
        if not isinstance(u.get("area"), str) or not isinstance(u.get("reason"), str):
            errors.append(f"bad unavailable entry {u}")
    return errors


def main():
    errors = contract_errors(json.load(open(sys.argv[1])))
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
