#!/usr/bin/python3
"""Checks what ubtune said inside one check-vm guest.

    check-guest.py CASE CONSOLE_LOG [SKIPPED-STEP...]
    check-guest.py CASE                 prints the steps CASE runs

The guest's init (tests/vm/init) prints each step's stdout and stderr
between "@@ubtune-vm begin STEP.out|STEP.err" and "@@ubtune-vm end ...
rc=N" on the serial console. CASES lists, per guest and step, what a real
kernel on that QEMU machine must show. Prints one line per failed
expectation; exit 1 when any failed.
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


def unavailable(rec, area, text):
    return any(u.get("area") == area and text in u.get("reason", "") for u in rec.get("unavailable") or [])


def tests_done(rec, ids):
    """Every test of the run finished with a score, in this order."""
    tests = (get(rec, "runs") or [{}])[0].get("tests") or []
    return [t.get("id") for t in tests] == ids and all(
        t.get("complete") and t.get("error") is None and (t.get("result") or 0) > 0 for t in tests)


def finding_ids(rec):
    return [f.get("id") for f in rec.get("findings") or []]


def evidence(rec, source_prefix, means):
    return any(e.get("source", "").startswith(source_prefix) and e.get("means") == means
               for e in get(rec, "virt.evidence") or [])


def kernel_log_read(rec):
    return not unavailable(rec, "kernel-log", "")


# What a static ubtune says in a busybox-only guest, where nothing but
# ubtune and busybox exists.
STATIC_IN_BUSYBOX = [
    ("host.init", "busybox"),
    # the init sets no name: the kernel says "(none)"
    ("host.hostname", None),
    ("the unset hostname is said", lambda r: unavailable(r, "host", "hostname: not set")),
    ("the missing compiler is said", lambda r: unavailable(r, "toolchain", "no C compiler")),
    ("toolchain.libc", None),
    ("the unknown C library is said", lambda r: unavailable(r, "toolchain", "C library:")),
]


# Expectations per step: (KEY, VALUE) the step's JSON holds exactly VALUE at
# KEY, or (WHAT, TEST) a test on it (and, for bench, the step's stderr).
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
] + STATIC_IN_BUSYBOX
def stored_once(history, err, steps):
    """history lists one result: the bench step's."""
    return len(history) == 1 and history[0].get("run_id") == get(steps["bench"], "run_id")


# A bench run of the single static binary: its carried workloads, written out.
BENCH = [
    ("schema", "ubtune.result/1"),
    ("the tests ran and scored", lambda r: tests_done(r, ["dhry2reg", "spawn", "syscall"])),
    ("the workloads carried inside ubtune ran",
     lambda r: "/workloads/embedded-" in (get(r, "engine.path") or "")),
]
# diagnose of the stored quick run, with the published runs the static
# ubtune carries (no data directory in the guest)
DIAGNOSE_EMULATED = [
    ("schema", "ubtune.diagnosis/1"),
    ("the stored run is diagnosed",
     lambda d, err, steps: get(d, "result.run_id") == get(steps["bench"], "run_id")),
    ("the carried published runs were read", lambda d, err: "no published run" not in err),
    ("software emulation named first",
     lambda d: [c.get("id") for c in d.get("causes") or []][:1] == ["diag.software-emulation"]),
]
# qemu -icount shift=1 runs 500 million instructions per second of virtual
# time, the time the guest's clocks keep: the dependent-add loop measures
# that rate. 1 % allows for the timer reads around each chain.
ICOUNT_KHZ = 500000


def measured_at_icount_rate(rec):
    kinds = get(rec, "cpu.kinds") or []
    return bool(kinds) and all(isinstance(k.get("measured_khz"), int)
                               and abs(k["measured_khz"] - ICOUNT_KHZ) <= ICOUNT_KHZ / 100 for k in kinds)


def measured_clock(rec):
    return "measured " + ", ".join(f"{k.get('model')}: {k.get('measured_khz')} kHz" for k in get(rec, "cpu.kinds") or [])


ICOUNT = [
    ("the measured clock is the instruction rate -icount gives (500 MHz)", measured_at_icount_rate),
    ("a guest's measured clock is not flagged",
     lambda r: not {"cpu.clock.slower-than-cpufreq", "cpu.clock.faster-than-cpufreq"} & set(finding_ids(r))),
]

CASES = {
    "arm64-el1": {
        "probe": ARM64_GUEST + [
            ("virt.boot_el", "EL1"),
            ("virt.kvm_initialized", False),
            ("virt.kvm_dev", False),
            ("finding virt.el1 (this kernel cannot host KVM guests)", lambda r: "virt.el1" in finding_ids(r)),
        ],
        "bench": BENCH + [
            ("environment.before.cpu.arch", "aarch64"),
            ("the result was stored", lambda r, err: "result 1 stored" in err),
        ],
        "history": [("one stored result, the run's", stored_once)],
        # the probe cannot tell TCG from KVM here: the scores against the
        # published Cortex-A72 runs (Raspberry Pi 4 KVM guests) show it
        "diagnose": DIAGNOSE_EMULATED + [
            ("compared with the published Cortex-A72 runs",
             lambda d: any(r.get("id", "").startswith("rpi4-")
                           for g in d.get("references") or [] for r in g.get("runs") or [])),
        ],
    },
    "arm64-el2": {
        "probe": ARM64_GUEST + [
            ("virt.boot_el", "EL2"),
            ("virt.kvm_initialized", True),
            ("virt.kvm_dev", True),
            ("no finding that KVM cannot be hosted",
             lambda r: not {"virt.el1", "virt.kvm-unavailable"} & set(finding_ids(r))),
        ],
    },
    "arm64-icount": {"probe": [("cpu.arch", "aarch64"), ("cpu.model", "Cortex-A72")] + ICOUNT},
    "x86-icount": {"probe": [("cpu.arch", "x86_64")] + ICOUNT},
    "x86-tcg": {
        "probe": [
            ("cpu.arch", "x86_64"),
            ("virt.role", "guest"),
            ("virt.hypervisor", "qemu-tcg"),
            ("virt.cpuid.vendor", "TCGTCGTCGTCG"),
            ("the hypervisor is known from CPUID", lambda r: evidence(r, "cpuid", "qemu-tcg")),
            ("the kernel log was read", kernel_log_read),
            ("virt.config_kvm", "m"),
        ] + STATIC_IN_BUSYBOX + [
            ("finding virt.emulated first", lambda r: finding_ids(r)[:1] == ["virt.emulated"]),
        ],
        "bench": BENCH + [
            ("environment.before.virt.hypervisor", "qemu-tcg"),
            ("the result was stored", lambda r, err: "result 1 stored" in err),
        ],
        "history": [("one stored result, the run's", stored_once)],
        "diagnose": DIAGNOSE_EMULATED,
    },
}


def check(rec, expectations, err, steps):
    """The failed expectations, each as one line."""
    failed = []
    for what, want in expectations:
        if callable(want):
            nargs = want.__code__.co_argcount
            if not want(*(rec, err, steps)[:nargs]):
                failed.append(what)
            continue
        got = get(rec, what)
        # 125 and 125.0 are the same number; True is not 1
        if type(got) is not type(want) and not {type(got), type(want)} <= {int, float} or got != want:
            failed.append(f"{what} is {'missing' if got is contract.MISSING else json.dumps(got)}, "
                          f"expected {json.dumps(want)}")
    return failed


def check_guest(case, lines, skipped):
    failed = []
    if "@@ubtune-vm done" not in lines:
        failed.append("the guest did not finish its steps")
    secs = sections(lines)
    steps = {}
    for step, expectations in CASES[case].items():
        if step in skipped:
            continue
        text, rc = secs.get(f"{step}.out", (None, None))
        err = secs.get(f"{step}.err", ("", 0))[0]
        if text is None:
            failed.append(f"no {step} output")
            continue
        if rc != 0:
            failed.append(f"{step} exited {rc}: {err[-400:]}")
            continue
        try:
            steps[step] = json.loads(text)
        except ValueError as e:
            failed.append(f"{step} output is not JSON: {e}")
            continue
        if step == "probe":
            failed += contract.contract_errors(steps[step])
            print(f"  {case}: {measured_clock(steps[step])}", file=sys.stderr)
        failed += [f"{step}: {f}" for f in check(steps[step], expectations, err, steps)]
    return failed


def main():
    case = sys.argv[1]
    if len(sys.argv) == 2:
        print(",".join(CASES[case]))
        return 0
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]
    failed = check_guest(case, lines, sys.argv[3:])
    for f in failed:
        print(f"  {case}: {f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
