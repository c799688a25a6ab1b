#!/usr/bin/python3
"""Checks what ubtune said inside one check-vm guest.

    check-guest.py CASE CONSOLE_LOG

The guest's init (tests/vm/init) prints each step's output between
"@@ubtune-vm begin NAME" and "@@ubtune-vm end NAME rc=N" on the serial
console. Each case below lists what a real kernel on that QEMU machine
must show. Prints one line per failed expectation; exit 1 when any failed.
"""
import importlib.util
import json
import os
import sys

# the record contract and its key lookup, shared with the end-to-end tests
_spec = importlib.util.spec_from_file_location(
    "check_contract", os.path.join(os.path.dirname(__file__), "..", "e2e", "check-contract.py"))
contract = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(contract)
get = contract.get


def sections(lines):
    """{name: (text, rc)} of the marked sections of the console log."""
    out, name, buf = {}, None, []
    for line in lines:
        if line.startswith("@@ubtune-vm begin "):
            name, buf = line.split(" ", 2)[2], []
        elif line.startswith("@@ubtune-vm end ") and name:
            rc = line.rsplit("rc=", 1)[1]
            out[name] = ("\n".join(buf), int(rc) if rc.isdigit() else -1)
            name = None
        elif name:
            buf.append(line)
    return out


def finding_ids(rec):
    return [f.get("id") for f in rec.get("findings") or []]


def evidence(rec, source_prefix, means):
    return any(e.get("source", "").startswith(source_prefix) and e.get("means") == means
               for e in get(rec, "virt.evidence") or [])


def kernel_log_read(rec):
    return not any(u.get("area") == "kernel-log" for u in rec.get("unavailable") or [])


# Expectations: (KEY, VALUE) the record holds exactly VALUE at KEY, or
# (WHAT, TEST) a test on the record.
ARM64_GUEST = [
    ("cpu.arch", "aarch64"),
    ("cpu.model", "Cortex-A72"),
    # the 62.5 MHz generic timer of QEMU's virt machine, times 2
    ("cpu.bogomips", 125.0),
    ("virt.role", "guest"),
    ("virt.hypervisor", "qemu"),
    ("the device tree shows QEMU", lambda r: evidence(r, "/proc/device-tree", "qemu")),
    ("the kernel log was read", kernel_log_read),
    # read from /boot/config-RELEASE, as Debian installs it
    ("virt.config_kvm", "y"),
]
CASES = {
    "arm64-el1": ARM64_GUEST + [
        ("virt.boot_el", "EL1"),
        ("virt.kvm_initialized", False),
        ("virt.kvm_dev", False),
        ("finding virt.el1 (this kernel cannot host KVM guests)", lambda r: "virt.el1" in finding_ids(r)),
    ],
    "arm64-el2": ARM64_GUEST + [
        ("virt.boot_el", "EL2"),
        ("virt.kvm_initialized", True),
        ("virt.kvm_dev", True),
        ("no finding that KVM cannot be hosted",
         lambda r: not {"virt.el1", "virt.kvm-unavailable"} & set(finding_ids(r))),
    ],
    "x86-tcg": [
        ("cpu.arch", "x86_64"),
        ("virt.role", "guest"),
        ("virt.hypervisor", "qemu-tcg"),
        ("virt.cpuid.vendor", "TCGTCGTCGTCG"),
        ("the hypervisor is known from CPUID", lambda r: evidence(r, "cpuid", "qemu-tcg")),
        ("the kernel log was read", kernel_log_read),
        ("virt.config_kvm", "m"),
        ("finding virt.emulated first", lambda r: finding_ids(r)[:1] == ["virt.emulated"]),
    ],
}


def check(rec, expectations):
    """The failed expectations, each as one line."""
    failed = []
    for what, want in expectations:
        if callable(want):
            if not want(rec):
                failed.append(what)
            continue
        got = get(rec, what)
        # 125 and 125.0 are the same number; True is not 1
        if type(got) is not type(want) and not {type(got), type(want)} <= {int, float} or got != want:
            failed.append(f"{what} is {'missing' if got is contract.MISSING else json.dumps(got)}, "
                          f"expected {json.dumps(want)}")
    return failed


def main():
    case, log = sys.argv[1], sys.argv[2]
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]
    failed = []
    if "@@ubtune-vm done" not in lines:
        failed.append("the guest did not finish its steps")
    secs = sections(lines)
    text, rc = secs.get("probe", (None, None))
    if text is None:
        failed.append("no probe output")
    elif rc != 0:
        failed.append(f"probe exited {rc}: {secs.get('probe.stderr', ('', 0))[0][:400]}")
    else:
        try:
            rec = json.loads(text)
        except ValueError as e:
            rec = None
            failed.append(f"probe output is not JSON: {e}")
        if rec:
            failed += contract.contract_errors(rec) + check(rec, CASES[case])
    for f in failed:
        print(f"  {case}: {f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
