#!/usr/bin/python3
'''A mock systemd manager on a private D-Bus, for tests.

Starts its own dbus-daemon (socket in a private temp directory), puts
python3-dbusmock's systemd template plus tests/lib/systemd_template.py on
it, adds the units asked for, and then either

  - runs CMD with DBUS_SYSTEM_BUS_ADDRESS pointing at the bus and exits
    with CMD's status (`mock-systemd.py [OPTIONS] -- CMD ARG...`), or
  - prints the bus address on stdout and serves until its stdin reaches
    end of file or it gets SIGTERM/SIGINT (so a test that dies takes the
    mock down with it).

Either way the mock and the bus are stopped and the temp directory is
removed. Exits 77 (skip) when dbus-daemon or python3-dbusmock is missing.

  --unit NAME[=ACTIVE[/SUB[/LOAD]]]   a unit (default inactive/dead/loaded)
  --job-result NAME=RESULT            how the unit's jobs end: done (default),
                                      failed, canceled, timeout, ... or hang
  --default-target NAME               answer of GetDefaultTarget
  --no-list-by-patterns               behave like systemd < 230
'''
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, 'systemd_template.py')
BUS_NAME = 'org.freedesktop.systemd1'
MAIN_OBJ = '/org/freedesktop/systemd1'
MOCK_IFACE = 'org.freedesktop.DBus.Mock'
SKIP = 77

BUS_CONFIG = '''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
'''


class Stop(Exception):
    pass


def parse_args():
    p = argparse.ArgumentParser(description='mock systemd on a private D-Bus')
    p.add_argument('--unit', action='append', default=[], metavar='NAME[=ACTIVE[/SUB[/LOAD]]]')
    p.add_argument('--job-result', action='append', default=[], metavar='NAME=RESULT')
    p.add_argument('--default-target', default='multi-user.target')
    p.add_argument('--no-list-by-patterns', action='store_true')
    p.add_argument('cmd', nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.cmd and args.cmd[0] == '--':
        args.cmd = args.cmd[1:]
    return args


def unit_spec(spec):
    name, _, state = spec.partition('=')
    parts = state.split('/') if state else []
    active = parts[0] if len(parts) > 0 else 'inactive'
    sub = parts[1] if len(parts) > 1 else {'active': 'running', 'inactive': 'dead'}.get(active, active)
    load = parts[2] if len(parts) > 2 else 'loaded'
    return name, load, active, sub


def wait_for_name(bus, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not bus.name_has_owner(BUS_NAME):
        if time.monotonic() > deadline:
            raise RuntimeError('the mock did not appear on the bus')
        time.sleep(0.02)


def populate(dbus, address, args):
    bus = dbus.bus.BusConnection(address)
    try:
        wait_for_name(bus)
        mock = dbus.Interface(bus.get_object(BUS_NAME, MAIN_OBJ), MOCK_IFACE)
        mock.AddTemplate(TEMPLATE, dbus.Dictionary({
            'DefaultTarget': args.default_target,
            'ListUnitsByPatterns': dbus.Boolean(not args.no_list_by_patterns),
        }, signature='sv'))
        for spec in args.unit:
            name, load, active, sub = unit_spec(spec)
            mock.AddMockUnit(name)
            mock.SetMockUnitState(name, load, active, sub)
        for spec in args.job_result:
            name, _, result = spec.partition('=')
            mock.SetMockJobResult(name, result)
    finally:
        bus.close()


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def serve_until_eof():
    def on_signal(_sig, _frame):
        raise Stop()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        while os.read(0, 4096):
            pass
    except Stop:
        pass


def main():
    args = parse_args()
    try:
        import dbus
        import dbus.bus
        import dbusmock  # noqa: F401  (the mock process imports it)
    except ImportError:
        print('mock-systemd: python3-dbusmock is not installed', file=sys.stderr)
        return SKIP
    if not shutil.which('dbus-daemon'):
        print('mock-systemd: dbus-daemon is not installed', file=sys.stderr)
        return SKIP

    tmp = tempfile.mkdtemp(prefix='ubtune-mock-systemd-')
    procs = []
    try:
        conf = os.path.join(tmp, 'bus.conf')
        with open(conf, 'w', encoding='utf-8') as f:
            f.write(BUS_CONFIG.format(socket=os.path.join(tmp, 'bus')))
        daemon = subprocess.Popen(['dbus-daemon', '--nofork', '--nopidfile', '--config-file=' + conf,
                                   '--print-address=1'], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, text=True)
        procs.append(daemon)
        address = daemon.stdout.readline().strip()
        if not address:
            raise RuntimeError('dbus-daemon did not start')
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        procs.append(subprocess.Popen([sys.executable, '-m', 'dbusmock', '--system', '--template', 'systemd'],
                                      env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL))
        populate(dbus, address, args)

        if args.cmd:
            return subprocess.call(args.cmd, env=env)
        print(address, flush=True)
        serve_until_eof()
        return 0
    finally:
        for p in reversed(procs):
            stop(p)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
