#!/usr/bin/python3
"""Checks that a synthetic fixture root describes one coherent machine: the
same CPUs in cpuinfo, sysfs, /proc/stat and /proc/interrupts, NUMA node lists
that cover the online CPUs, a workdir whose mount leads to a block device that
sysfs knows, IRQ affinities inside the online CPUs, gather records that agree
with the kernel files, and a README that says what a probe must report.
Usage: check-roots.py ROOT...   (prints one line per problem, exits 1 on any)"""
import gzip
import os
import re
import stat
import sys


class Root:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.basename(self.path.rstrip('/'))
        self.errors = []

    def err(self, msg):
        self.errors.append(f'{self.name}: {msg}')

    def p(self, rel):
        return os.path.join(self.path, rel.lstrip('/'))

    def exists(self, rel):
        return os.path.lexists(self.p(rel))

    def read(self, rel, binary=False):
        try:
            with open(self.resolve(rel), 'rb') as f:
                data = f.read()
        except OSError:
            return None
        return data if binary else data.decode(errors='replace')

    def line(self, rel):
        t = self.read(rel)
        return None if t is None else t.split('\n', 1)[0].strip()

    def resolve(self, rel, depth=0):
        """Path on disk for a root-relative path, symlinks resolved inside the root."""
        parts = [c for c in rel.strip('/').split('/') if c and c != '.']
        cur = []
        while parts:
            c = parts.pop(0)
            if c == '..':
                if cur:
                    cur.pop()
                continue
            disk = os.path.join(self.path, *cur, c)
            if os.path.islink(disk):
                if depth > 40:
                    return disk
                t = os.readlink(disk)
                if t.startswith('/'):
                    cur = []
                parts = [x for x in t.split('/') if x and x != '.'] + parts
                depth += 1
                continue
            cur.append(c)
        return os.path.join(self.path, *cur)


def parse_list(s):
    out = set()
    for part in s.replace(' ', ',').split(','):
        if not part:
            continue
        if '-' in part:
            a, b = part.split('-')
            out.update(range(int(a), int(b) + 1))
        else:
            out.add(int(part))
    return out


def mask_to_set(s):
    v = int(s.replace(',', ''), 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def check_tree(r):
    for dirpath, dirs, files in os.walk(r.path):
        for d in dirs:
            full = os.path.join(dirpath, d)
            if not os.path.islink(full) and stat.S_IMODE(os.stat(full).st_mode) != 0o755:
                r.err(f'directory {os.path.relpath(full, r.path)} is not 0755')
        for f in files + [d for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, r.path)
            if os.path.islink(full):
                t = os.readlink(full)
                if rel.startswith('sys/') and t.startswith('/'):
                    r.err(f'sysfs link {rel} -> {t} is absolute')
                if re.match(r'proc/\d+/exe$', rel):
                    continue
                if not os.path.exists(r.resolve(rel)):
                    r.err(f'link {rel} -> {t} does not resolve inside the root')
            elif stat.S_IMODE(os.lstat(full).st_mode) != 0o644:
                r.err(f'file {rel} is not 0644')


def check_readme(r):
    t = r.read('README.md')
    if t is None:
        r.err('no README.md')
        return
    m = re.search(r'^## Expected\b.*?$(.*?)(?=^## |\Z)', t, re.M | re.S)
    if not m or not re.search(r'^\s*[-*] ', m.group(1), re.M):
        r.err('README.md has no "## Expected" section with a list')


def cpuinfo_cpus(r):
    t = r.read('proc/cpuinfo') or ''
    return [int(x) for x in re.findall(r'^processor\s*:\s*(\d+)', t, re.M)], t


def check_gather(r, arch):
    meta = {}
    for l in (r.read('.ubtune/gather') or '').splitlines():
        k, _, v = l.partition('=')
        meta[k] = v
    for k in ('version', 'created', 'hostname', 'arch', 'workdir'):
        if k not in meta:
            r.err(f'.ubtune/gather has no {k}=')
    if meta.get('hostname') != r.line('proc/sys/kernel/hostname'):
        r.err('.ubtune/gather hostname differs from /proc/sys/kernel/hostname')
    if meta.get('arch') != arch:
        r.err(f'.ubtune/gather arch={meta.get("arch")} but cpuinfo says {arch}')
    wd = meta.get('workdir', '')
    if not wd.startswith('/') or not os.path.isdir(r.resolve(wd)):
        r.err(f'workdir {wd} is not a directory in the root')
    tc = r.read('.ubtune/toolchain')
    if tc is None or 'libc=' not in tc:
        r.err('.ubtune/toolchain missing or names no libc')
    return meta


def check_cpus(r, cpus, text, arch):
    n = len(cpus)
    online = parse_list(r.line('sys/devices/system/cpu/online') or '')
    if online != set(cpus):
        r.err(f'cpuinfo has {n} CPUs, sysfs online is {sorted(online)}')
    possible = parse_list(r.line('sys/devices/system/cpu/possible') or '')
    cpudirs = {int(d[3:]) for d in os.listdir(r.p('sys/devices/system/cpu')) if re.fullmatch(r'cpu\d+', d)}
    if cpudirs != possible:
        r.err(f'cpuN directories {sorted(cpudirs)} differ from possible {sorted(possible)}')
    st = (r.read('proc/stat') or '').splitlines()
    statcpus = [l for l in st if re.match(r'cpu\d+ ', l)]
    if len(statcpus) != n:
        r.err(f'/proc/stat has {len(statcpus)} cpuN lines, cpuinfo {n}')
    per = [[int(x) for x in l.split()[1:]] for l in statcpus]
    total = [int(x) for x in st[0].split()[1:]] if st and st[0].startswith('cpu ') else []
    if per and total != [sum(c[i] for c in per) for i in range(len(total))]:
        r.err('/proc/stat cpu line is not the sum of the cpuN lines')
    irq = (r.read('proc/interrupts') or '').splitlines()
    if not irq:
        r.err('no /proc/interrupts')
        return per
    if len(irq[0].split()) != n:
        r.err(f'/proc/interrupts has {len(irq[0].split())} CPU columns, cpuinfo {n}')
    for l in irq[1:]:
        head, _, rest = l.partition(':')
        head = head.strip()
        if head in ('ERR', 'MIS', 'Err'):
            continue
        counts = rest.split()[:n]
        if len(counts) != n or not all(c.isdigit() for c in counts):
            r.err(f'/proc/interrupts row {head} has not {n} counts')
    rows = {l.partition(':')[0].strip() for l in irq[1:]}
    if arch == 'aarch64' and 'IPI0' not in rows:
        r.err('arm64 /proc/interrupts without IPI rows')
    if arch == 'x86_64' and 'LOC' not in rows:
        r.err('x86 /proc/interrupts without LOC row')
    for c in sorted(online):
        for f in ('physical_package_id', 'core_id', 'thread_siblings_list'):
            if r.line(f'sys/devices/system/cpu/cpu{c}/topology/{f}') is None:
                r.err(f'cpu{c} has no topology/{f}')
    if arch == 'aarch64':
        for c in sorted(online):
            midr = r.line(f'sys/devices/system/cpu/cpu{c}/regs/identification/midr_el1')
            if midr is None:
                continue
            v = int(midr, 16)
            block = re.split(r'\n\s*\n', text)[c] if c < len(re.split(r'\n\s*\n', text)) else ''
            imp = re.search(r'CPU implementer\s*:\s*(\S+)', block)
            part = re.search(r'CPU part\s*:\s*(\S+)', block)
            if imp and part and ((v >> 24) != int(imp.group(1), 16) or ((v >> 4) & 0xfff) != int(part.group(1), 16)):
                r.err(f'cpu{c} midr_el1 {midr} differs from cpuinfo')
    return per


def check_time(r, per, meta):
    up = r.line('proc/uptime')
    if not up:
        r.err('no /proc/uptime')
        return
    uptime = float(up.split()[0])
    for i, c in enumerate(per):
        j = sum(c[:8])
        if abs(j - uptime * 100) > uptime * 100 * 0.02 + 100:
            r.err(f'cpu{i} counts {j} jiffies for an uptime of {uptime} s')
    bt = re.search(r'^btime (\d+)', r.read('proc/stat') or '', re.M)
    created = meta.get('created', '')
    m = re.fullmatch(r'(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z', created)
    if bt and m:
        import calendar
        t = calendar.timegm(tuple(int(x) for x in m.groups()) + (0, 0, 0))
        if abs(int(bt.group(1)) + uptime - t) > 5:
            r.err(f'btime + uptime ({int(bt.group(1)) + uptime}) is not the gather time {created}')
    log = r.read('dmesg')
    if log is None:
        r.err('no /dmesg')
        return
    last = 0.0
    for l in log.splitlines():
        m = re.match(r'\[\s*(\d+\.\d{6})\] ', l)
        if not m:
            r.err(f'dmesg line without timestamp: {l[:60]}')
            break
        t = float(m.group(1))
        if t < last:
            r.err(f'dmesg timestamps go back at {l[:60]}')
            break
        last = t
    if last > uptime:
        r.err(f'dmesg ends at {last} s, after the uptime {uptime} s')


def check_numa(r, cpus):
    base = 'sys/devices/system/node'
    if not os.path.isdir(r.p(base)):
        return
    nodes = sorted(int(d[4:]) for d in os.listdir(r.p(base)) if re.fullmatch(r'node\d+', d))
    if parse_list(r.line(f'{base}/online') or '') != set(nodes):
        r.err('node/online differs from the nodeN directories')
    ncpu = len(parse_list(r.line('sys/devices/system/cpu/possible') or ''))
    seen = set()
    total = 0
    for n in nodes:
        cl = parse_list(r.line(f'{base}/node{n}/cpulist') or '')
        if seen & cl:
            r.err(f'node{n} shares CPUs with another node')
        seen |= cl
        if mask_to_set(r.line(f'{base}/node{n}/cpumap') or '0') != cl:
            r.err(f'node{n} cpumap differs from cpulist')
        for c in cl:
            if not os.path.exists(r.resolve(f'{base}/node{n}/cpu{c}')):
                r.err(f'node{n} has no cpu{c} link')
        dist = (r.line(f'{base}/node{n}/distance') or '').split()
        if len(dist) != len(nodes) or dist[nodes.index(n)] != '10':
            r.err(f'node{n} distance row {dist} is not a row of a {len(nodes)}-node matrix')
        mt = re.search(rf'Node {n} MemTotal:\s+(\d+) kB', r.read(f'{base}/node{n}/meminfo') or '')
        if not mt:
            r.err(f'node{n} meminfo has no MemTotal')
        else:
            total += int(mt.group(1))
    rows = [(r.line(f'{base}/node{n}/distance') or '').split() for n in nodes]
    for i in range(len(rows)):
        for j in range(len(rows)):
            if len(rows[i]) == len(rows) and len(rows[j]) == len(rows) and rows[i][j] != rows[j][i]:
                r.err(f'node distance matrix is not symmetric at {i},{j}')
    if seen != set(cpus):
        r.err(f'node cpulists cover {sorted(seen)}, online CPUs are {sorted(cpus)}')
    mem = re.search(r'^MemTotal:\s+(\d+)', r.read('proc/meminfo') or '', re.M)
    if mem and abs(total - int(mem.group(1))) > int(mem.group(1)) * 0.05:
        r.err(f'node MemTotal sum {total} kB is far from /proc/meminfo {mem.group(1)} kB')
    if ncpu and parse_list(r.line(f'{base}/possible') or '') < set(nodes):
        r.err('node/possible lacks online nodes')


def check_storage(r, workdir):
    mi = r.read('proc/self/mountinfo')
    if mi is None:
        r.err('no /proc/self/mountinfo')
        return
    best = None
    for l in mi.splitlines():
        f = l.split()
        target = f[4]
        if workdir == target or workdir.startswith(target.rstrip('/') + '/'):
            if best is None or len(target) > len(best[4]):
                best = f
    if not best:
        r.err(f'no mount covers the workdir {workdir}')
        return
    majmin, target = best[2], best[4]
    sep = best.index('-')
    fstype, source = best[sep + 1], best[sep + 2]
    dev = f'sys/dev/block/{majmin}'
    if not os.path.isdir(r.resolve(dev)):
        r.err(f'workdir mount {majmin} has no {dev}')
        return
    if r.line(f'{dev}/dev') != majmin:
        r.err(f'{dev}/dev does not say {majmin}')
    name = os.path.basename(r.resolve(dev))
    # the kernel calls a root mounted without initramfs /dev/root;
    # device-mapper volumes are mounted by their /dev/mapper name
    dm_name = r.line(f'{dev}/dm/name')
    if source != f'/dev/{name}' and not (source == '/dev/root' and target == '/') and \
            source != f'/dev/mapper/{dm_name}':
        r.err(f'workdir mount source {source} is not /dev/{name}')
    if not os.path.exists(r.resolve(f'sys/class/block/{name}')):
        r.err(f'sys/class/block/{name} is missing')
    disk = r.resolve(dev)
    if os.path.exists(os.path.join(disk, 'partition')):
        disk = os.path.dirname(disk)
    for f in ('queue/scheduler', 'queue/rotational', 'queue/read_ahead_kb'):
        if not os.path.exists(os.path.join(disk, f)):
            r.err(f'{os.path.basename(disk)} has no {f}')
    mounts = r.read('proc/mounts') or ''
    if not re.search(rf'^{re.escape(source)} {re.escape(target)} {re.escape(fstype)} ', mounts, re.M):
        r.err(f'/proc/mounts lacks "{source} {target} {fstype}"')
    for l in mi.splitlines():
        f = l.split()
        if f[f.index('-') + 2].startswith('/dev/') and not f[2].startswith('0:'):
            if r.line(f'sys/dev/block/{f[2]}/dev') != f[2]:
                r.err(f'mount of {f[f.index("-") + 2]} names {f[2]}, which sysfs does not know')


def check_irqs(r, cpus):
    rows = {}
    for l in (r.read('proc/interrupts') or '').splitlines()[1:]:
        head = l.partition(':')[0].strip()
        if head.isdigit():
            rows[int(head)] = l
    if os.path.isdir(r.p('proc/irq')):
        for d in os.listdir(r.p('proc/irq')):
            if not d.isdigit():
                continue
            if int(d) not in rows:
                r.err(f'/proc/irq/{d} has no row in /proc/interrupts')
            aff = parse_list(r.line(f'proc/irq/{d}/smp_affinity_list') or '')
            if mask_to_set(r.line(f'proc/irq/{d}/smp_affinity') or '0') != aff:
                r.err(f'/proc/irq/{d} smp_affinity differs from smp_affinity_list')
            eff = parse_list(r.line(f'proc/irq/{d}/effective_affinity_list') or '')
            if not eff or not eff <= aff or not eff <= set(cpus):
                r.err(f'/proc/irq/{d} effective affinity {sorted(eff)} is not inside {sorted(aff)} and online')
    for dirpath, dirs, files in os.walk(r.p('sys/devices')):
        if os.path.basename(dirpath) == 'msi_irqs':
            for f in files:
                if int(f) not in rows:
                    r.err(f'{os.path.relpath(dirpath, r.path)}/{f} has no row in /proc/interrupts')


def check_procs(r):
    comm1 = r.line('proc/1/comm')
    if comm1 is None:
        r.err('no /proc/1/comm')
    units = r.read('.ubtune/units')
    if comm1 == 'systemd':
        if not units or not units.startswith('default-target='):
            r.err('systemd is PID 1 but .ubtune/units is missing or lacks default-target=')
        else:
            for l in units.splitlines()[1:]:
                if len(l.split()) != 4:
                    r.err(f'.ubtune/units line "{l}" is not UNIT LOAD ACTIVE SUB')
    elif units is not None:
        r.err('.ubtune/units exists although systemd is not PID 1')
    pids = sorted(int(d) for d in os.listdir(r.p('proc')) if d.isdigit())
    for pid in pids:
        s = r.read(f'proc/{pid}/stat') or ''
        m = re.fullmatch(r'(\d+) \((.*)\) (.*)\n?', s, re.S)
        if not m or int(m.group(1)) != pid or len(m.group(3).split()) != 50:
            r.err(f'/proc/{pid}/stat does not have the 52 fields of its pid')
            continue
        if m.group(2) != r.line(f'proc/{pid}/comm'):
            r.err(f'/proc/{pid}/stat comm differs from comm')
        if r.read(f'proc/{pid}/cmdline') is None:
            r.err(f'/proc/{pid} has no cmdline')
    la = (r.line('proc/loadavg') or '').split()
    if len(la) != 5 or int(la[4]) < max(pids or [0]):
        r.err('/proc/loadavg last pid is below the highest pid shown')
    self_pid = os.path.basename(r.resolve('proc/self'))
    if not self_pid.isdigit() or int(self_pid) not in pids:
        r.err('/proc/self does not lead to a process directory')


def check_memory(r):
    mi = dict(re.findall(r'^(\S+):\s+(\d+)', r.read('proc/meminfo') or '', re.M))
    g = lambda k: int(mi.get(k, -1))
    if g('MemTotal') <= 0 or not 0 <= g('MemAvailable') <= g('MemTotal'):
        r.err('meminfo MemAvailable is not within MemTotal')
    if g('SwapFree') > g('SwapTotal'):
        r.err('meminfo SwapFree exceeds SwapTotal')
    if g('Active') != g('Active(anon)') + g('Active(file)') or g('Inactive') != g('Inactive(anon)') + g('Inactive(file)'):
        r.err('meminfo Active/Inactive are not the sums of their anon and file parts')
    if g('Slab') != g('SReclaimable') + g('SUnreclaim'):
        r.err('meminfo Slab is not SReclaimable + SUnreclaim')


def check_cpufreq(r, cpus):
    base = 'sys/devices/system/cpu/cpufreq'
    if not os.path.isdir(r.p(base)):
        return
    covered = set()
    for d in os.listdir(r.p(base)):
        if not d.startswith('policy'):
            continue
        pol = f'{base}/{d}'
        rel = parse_list(r.line(f'{pol}/related_cpus') or '')
        covered |= rel
        lo, hi = int(r.line(f'{pol}/scaling_min_freq')), int(r.line(f'{pol}/scaling_max_freq'))
        cur = int(r.line(f'{pol}/scaling_cur_freq'))
        if not int(r.line(f'{pol}/cpuinfo_min_freq')) <= lo <= cur <= hi <= int(r.line(f'{pol}/cpuinfo_max_freq')):
            r.err(f'{d}: frequencies are not ordered min <= cur <= max')
        if r.line(f'{pol}/scaling_governor') not in (r.line(f'{pol}/scaling_available_governors') or '').split():
            r.err(f'{d}: governor is not among the available ones')
        for c in rel:
            if os.path.realpath(r.resolve(f'sys/devices/system/cpu/cpu{c}/cpufreq')) != os.path.realpath(r.p(pol)):
                r.err(f'cpu{c}/cpufreq does not lead to {d}')
    if covered != set(cpus):
        r.err(f'cpufreq policies cover {sorted(covered)}, not the online CPUs')


def check_sensors(r, arch):
    for cls in ('hwmon', 'thermal', 'power_supply'):
        d = r.p(f'sys/class/{cls}')
        if not os.path.isdir(d):
            continue
        for e in os.listdir(d):
            if not os.path.islink(os.path.join(d, e)):
                r.err(f'sys/class/{cls}/{e} is not a link')
            if cls == 'hwmon' and r.line(f'sys/class/hwmon/{e}/name') is None:
                r.err(f'hwmon {e} has no name')
            if cls == 'thermal' and e.startswith('thermal_zone'):
                if r.line(f'sys/class/thermal/{e}/type') is None or r.line(f'sys/class/thermal/{e}/temp') is None:
                    r.err(f'{e} lacks type or temp')
            if cls == 'power_supply' and r.line(f'sys/class/power_supply/{e}/type') is None:
                r.err(f'power supply {e} has no type')
    cpuid = r.read('.ubtune/cpuid')
    if arch == 'x86_64':
        flags = re.search(r'^flags\s*:(.*)$', r.read('proc/cpuinfo') or '', re.M)
        hv = flags and ' hypervisor' in flags.group(1) + ' '
        if cpuid is None:
            r.err('x86 root without .ubtune/cpuid')
        elif ('hypervisor_bit=1' in cpuid) != bool(hv):
            r.err('.ubtune/cpuid hypervisor_bit disagrees with the cpuinfo hypervisor flag')
    elif cpuid is not None:
        r.err('.ubtune/cpuid in a non-x86 root')


def check_kernel_config(r):
    """The kernel config, where the root has one, agrees with what sysfs shows."""
    text = None
    data = r.read('proc/config.gz', binary=True)
    if data is not None:
        try:
            text = gzip.decompress(data).decode()
        except OSError:
            r.err('proc/config.gz is not gzip')
    release = r.line('proc/sys/kernel/osrelease')
    boot = [f for f in os.listdir(r.p('boot'))] if os.path.isdir(r.p('boot')) else []
    for f in boot:
        if f.startswith('config-') and f != f'config-{release}':
            r.err(f'boot/{f} does not belong to the running kernel {release}')
    if text is None and f'config-{release}' in boot:
        text = r.read(f'boot/config-{release}')
    if text is None:
        return
    nr = re.search(r'^CONFIG_NR_CPUS=(\d+)', text, re.M)
    if nr and r.line('sys/devices/system/cpu/kernel_max') != str(int(nr.group(1)) - 1):
        r.err(f'kernel_max is not CONFIG_NR_CPUS - 1 ({nr.group(1)})')
    if '# CONFIG_NUMA is not set' in text and os.path.isdir(r.p('sys/devices/system/node')):
        r.err('node directory exists although CONFIG_NUMA is not set')
    if '# CONFIG_TRANSPARENT_HUGEPAGE is not set' in text and r.exists('sys/kernel/mm/transparent_hugepage'):
        r.err('THP files exist although CONFIG_TRANSPARENT_HUGEPAGE is not set')
    if r.exists('dev/kvm') and not re.search(r'^CONFIG_KVM=[ym]', text, re.M):
        r.err('/dev/kvm exists but the kernel config has no KVM')


def check(path):
    r = Root(path)
    check_tree(r)
    check_readme(r)
    cpus, text = cpuinfo_cpus(r)
    arch = 'x86_64' if 'vendor_id' in text else 'aarch64'
    meta = check_gather(r, arch)
    per = check_cpus(r, cpus, text, arch)
    check_time(r, per, meta)
    check_numa(r, cpus)
    if meta.get('workdir'):
        check_storage(r, meta['workdir'])
    check_irqs(r, cpus)
    check_procs(r)
    check_memory(r)
    check_cpufreq(r, cpus)
    check_sensors(r, arch)
    check_kernel_config(r)
    return r.errors


def main():
    errors = []
    for p in sys.argv[1:]:
        errors += check(p)
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
