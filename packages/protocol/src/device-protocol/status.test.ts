import { describe, expect, test } from 'vitest';
import { LAYOUT_G_ALARM_BITS, LAYOUT_G_MODES, layoutG } from './layout-g.ts';
import { LAYOUT_S_MODES, layoutS } from './layout-s.ts';
import { deriveStatus, evaluateAlarms, evaluateCondition, SET_STATUS } from './status.ts';

describe('evaluateCondition', () => {
  test.each([
    [{ op: 'set' as const }, 1, true],
    [{ op: 'set' as const }, 0, false],
    [{ op: 'clear' as const }, 0, true],
    [{ op: 'bit' as const, bit: 3 }, 0b1000, true],
    [{ op: 'bit' as const, bit: 2 }, 0b1000, false],
    [{ op: 'bit' as const, bit: 31 }, 2 ** 31, true],
    [{ op: 'equals' as const, value: 7 }, 7, true],
    [{ op: 'in' as const, values: [1, 2] }, 2, true],
    [{ op: 'notIn' as const, values: [1, 2] }, 3, true],
    [{ op: 'notIn' as const, values: [1, 2] }, 1, false],
  ])('%j on %d → %s', (condition, value, expected) => {
    expect(evaluateCondition(condition, value)).toBe(expected);
  });

  test('a value that is missing or "no data" never meets a condition', () => {
    expect(evaluateCondition({ op: 'clear' }, null)).toBe(false);
    expect(evaluateCondition({ op: 'notIn', values: [1] }, undefined)).toBe(false);
  });
});

describe('evaluateAlarms', () => {
  test('layout G alarm bits are read from the bit-field registers', () => {
    const overSpeed = 1 << LAYOUT_G_ALARM_BITS.over_speed.bit;
    const lowFuel = 1 << LAYOUT_G_ALARM_BITS.low_fuel_warning.bit;
    const alarms = evaluateAlarms(layoutG, { shutdown_alarms: overSpeed, warning_alarms: lowFuel, trip_alarms: 0 });
    expect(alarms.map((alarm) => [alarm.code, alarm.level])).toEqual([
      ['over_speed', 'shutdown'],
      ['low_fuel_warning', 'warning'],
    ]);
    expect(alarms[0]!.title['zh-CN']).toBe('超速停机');
  });

  test('layout S alarm coils', () => {
    const alarms = evaluateAlarms(layoutS, { alarm_overload: 1, alarm_charge_fail: 0 });
    expect(alarms.map((alarm) => [alarm.code, alarm.level])).toEqual([['overload', 'trip']]);
  });
});

describe('deriveStatus', () => {
  test('layout S: on load in AUTO is running; at rest in AUTO or MANUAL is standby; in STOP it is closed', () => {
    const onLoad = deriveStatus(layoutS, { engine_state: 9, mode: LAYOUT_S_MODES.auto, gen_on_load: 1 });
    expect(onLoad).toMatchObject({
      status: SET_STATUS.running,
      phase: 'running',
      mode: 'auto',
      running: true,
      onLoad: true,
    });
    expect(onLoad.alarm).toBe(false);
    expect(deriveStatus(layoutS, { engine_state: 0, mode: LAYOUT_S_MODES.auto, gen_on_load: 0 })).toMatchObject({
      status: SET_STATUS.standby,
      standby: true,
      phase: 'stopped',
    });
    expect(deriveStatus(layoutS, { engine_state: 0, mode: LAYOUT_S_MODES.manual })).toMatchObject({
      status: SET_STATUS.standby,
      standby: true,
      mode: 'manual',
    });
    expect(deriveStatus(layoutS, { engine_state: 0, mode: LAYOUT_S_MODES.stop })).toMatchObject({
      status: SET_STATUS.closed,
      standby: false,
      mode: 'stop',
    });
  });

  test('a latched shutdown keeps a set at rest in AUTO out of standby', () => {
    const status = deriveStatus(layoutS, {
      engine_state: 15,
      mode: LAYOUT_S_MODES.auto,
      alarm_low_oil_pressure_shutdown: 1,
      common_shutdown: 1,
    });
    expect(status).toMatchObject({ status: SET_STATUS.closed, shutdown: true, alarm: true, standby: false });
    expect(status.activeAlarms.map((alarm) => alarm.code)).toEqual(['low_oil_pressure_shutdown']);
  });

  test('layout G: cranking counts as starting (status running), cooling as running', () => {
    expect(deriveStatus(layoutG, { engine_state: 2, mode: LAYOUT_G_MODES.manual })).toMatchObject({
      status: SET_STATUS.running,
      phase: 'starting',
      starting: true,
      running: false,
      mode: 'manual',
    });
    expect(deriveStatus(layoutG, { engine_state: 5, mode: LAYOUT_G_MODES.autoManualRestore })).toMatchObject({
      phase: 'cooling',
      running: true,
      mode: 'auto',
    });
  });

  test('the controller’s summary flags raise the alarm even without a listed alarm', () => {
    const status = deriveStatus(layoutG, { engine_state: 4, mode: LAYOUT_G_MODES.auto, common_warning: 1 });
    expect(status).toMatchObject({ alarm: true, warning: true, shutdown: false });
  });
});
