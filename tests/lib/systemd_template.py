'''Extends python3-dbusmock's systemd template with what ubtune talks to.

Loaded on top of the stock `systemd` template (mock-systemd.py does both).
The stock template has GetUnit, StartUnit, StopUnit and units with an
ActiveState; ubtune also needs the default target, ListUnitsByPatterns,
sub-states, job results other than "done", and systemd's error names.

Parameters:
  DefaultTarget        the answer of GetDefaultTarget (multi-user.target)
  ListUnitsByPatterns  False: behave like systemd < 230, which lacks it
'''
import fnmatch

import dbus
from gi.repository import GLib

from dbusmock import MOCK_IFACE, mockobject

BUS_NAME = 'org.freedesktop.systemd1'
MAIN_OBJ = '/org/freedesktop/systemd1'
MAIN_IFACE = 'org.freedesktop.systemd1.Manager'
UNIT_IFACE = 'org.freedesktop.systemd1.Unit'
SYSTEM_BUS = True

# ActiveState/SubState after a job that finished with "done".
STARTED = {'target': 'active', 'timer': 'waiting', 'socket': 'listening', 'path': 'waiting'}
JOB_DELAY_MS = 20


def load(mock, parameters):
    mock.default_target = str(parameters.get('DefaultTarget', 'multi-user.target'))
    mock.list_by_patterns = bool(parameters.get('ListUnitsByPatterns', True))
    mock.job_results = {}


def no_such_unit(name):
    return dbus.exceptions.DBusException(f'Unit {name} not loaded.',
                                         name='org.freedesktop.systemd1.NoSuchUnit')


def unit_object(mock, name):
    path = mock.units.get(str(name))
    if path is None:
        raise no_such_unit(name)
    return mockobject.objects[path]


def unit_row(mock, name):
    path = mock.units[name]
    p = mockobject.objects[path].props[UNIT_IFACE]
    return (name, p.get('Description', name), p['LoadState'], p['ActiveState'], p.get('SubState', 'dead'),
            '', dbus.ObjectPath(path), dbus.UInt32(0), '', dbus.ObjectPath('/'))


def matching_rows(mock, states, patterns):
    rows = []
    for name in sorted(mock.units):
        row = unit_row(mock, name)
        if states and not set(states) & {row[2], row[3], row[4]}:
            continue
        if patterns and not any(fnmatch.fnmatchcase(name, p) for p in patterns):
            continue
        rows.append(row)
    return rows


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='')
def Subscribe(_self):
    pass


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='')
def Unsubscribe(_self):
    pass


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='s')
def GetDefaultTarget(self):
    return self.default_target


@dbus.service.method(MAIN_IFACE, in_signature='sb', out_signature='a(sss)')
def SetDefaultTarget(self, name, _force):
    name = str(name)
    if not name.endswith('.target'):
        raise dbus.exceptions.DBusException(f'{name} is not a target unit',
                                            name='org.freedesktop.DBus.Error.InvalidArgs')
    unit_object(self, name)
    self.default_target = name
    return [('symlink', '/etc/systemd/system/default.target', f'/lib/systemd/system/{name}')]


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='a(ssssssouso)')
def ListUnits(self):
    return matching_rows(self, [], [])


@dbus.service.method(MAIN_IFACE, in_signature='asas', out_signature='a(ssssssouso)')
def ListUnitsByPatterns(self, states, patterns):
    if not self.list_by_patterns:
        raise dbus.exceptions.DBusException('Unknown method ListUnitsByPatterns',
                                            name='org.freedesktop.DBus.Error.UnknownMethod')
    return matching_rows(self, [str(s) for s in states], [str(p) for p in patterns])


@dbus.service.method(MAIN_IFACE, in_signature='s', out_signature='o')
def GetUnit(self, name):
    unit_object(self, name)
    return self.units[str(name)]


def finish_job(mock, job_id, job_path, name, result, state):
    unit = unit_object(mock, name)
    if result == 'done':
        unit.UpdateProperties(UNIT_IFACE, {'ActiveState': state[0], 'SubState': state[1]})
    elif result == 'failed':
        unit.UpdateProperties(UNIT_IFACE, {'ActiveState': 'failed', 'SubState': 'failed'})
    mock.EmitSignal(MAIN_IFACE, 'JobRemoved', 'uoss', [job_id, job_path, name, result])
    return False


def queue_job(mock, name, state):
    name = str(name)
    unit_object(mock, name)
    job_id = mock.next_job_id
    mock.next_job_id += 1
    job_path = f'{MAIN_OBJ}/job/{job_id}'
    mock.EmitSignal(MAIN_IFACE, 'JobNew', 'uos', [job_id, job_path, name])
    result = mock.job_results.get(name, 'done')
    if result != 'hang':
        GLib.timeout_add(JOB_DELAY_MS, finish_job, mock, job_id, job_path, name, result, state)
    return job_path


@dbus.service.method(MAIN_IFACE, in_signature='ss', out_signature='o')
def StartUnit(self, name, _mode):
    kind = str(name).rsplit('.', 1)[-1]
    return queue_job(self, name, ('active', STARTED.get(kind, 'running')))


@dbus.service.method(MAIN_IFACE, in_signature='ss', out_signature='o')
def StopUnit(self, name, _mode):
    return queue_job(self, name, ('inactive', 'dead'))


@dbus.service.method(MOCK_IFACE, in_signature='ssss')
def SetMockUnitState(self, name, load_state, active_state, sub_state):
    '''Sets a unit's LoadState, ActiveState and SubState (the stock unit has no SubState).'''
    unit = unit_object(self, name)
    if 'SubState' not in unit.props[UNIT_IFACE]:
        unit.AddProperty(UNIT_IFACE, 'SubState', sub_state)
    unit.UpdateProperties(UNIT_IFACE, {
        'LoadState': load_state, 'ActiveState': active_state, 'SubState': sub_state})


@dbus.service.method(MOCK_IFACE, in_signature='ss')
def SetMockJobResult(self, name, result):
    '''Result of later jobs of a unit: done, failed, canceled, ... or hang (no JobRemoved).'''
    self.job_results[str(name)] = str(result)
