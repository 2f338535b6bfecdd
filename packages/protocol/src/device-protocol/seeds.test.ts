import { describe, expect, test } from 'vitest';
import { EMS_REQUIRED_ROLES, EMS_ROLES, EMS_WRITTEN_ROLES } from '../ems/roles.ts';
import { LAYOUT_E_DOCUMENTS, layoutEBms, layoutEMeter, layoutEPcs, layoutEPv } from './layout-e.ts';
import { layoutG } from './layout-g.ts';
import { layoutS } from './layout-s.ts';
import type { ProtocolDocument } from './schema.ts';
import { deriveStatus, SET_STATUS } from './status.ts';
import { validateProtocolDocument } from './validate.ts';
import type { ProtocolText } from './text.ts';

/** Measurements and states the server treats alike whatever the controller. */
const COMMON_KEYS = [
  'mains_voltage_l1',
  'mains_voltage_l2',
  'mains_voltage_l3',
  'mains_voltage_l12',
  'mains_voltage_l23',
  'mains_voltage_l31',
  'mains_freq',
  'gen_voltage_l1',
  'gen_voltage_l2',
  'gen_voltage_l3',
  'gen_voltage_l12',
  'gen_voltage_l23',
  'gen_voltage_l31',
  'gen_freq',
  'gen_current_l1',
  'gen_current_l2',
  'gen_current_l3',
  'gen_kw',
  'gen_kvar',
  'gen_kva',
  'power_factor',
  'engine_rpm',
  'coolant_temp',
  'oil_pressure',
  'fuel_level',
  'battery_voltage',
  'charger_voltage',
  'run_hours',
  'run_minutes',
  'starts',
  'kwh_total',
  'maintenance_hours',
  'mode',
  'engine_state',
  'latitude',
  'longitude',
  'gen_on_load',
  'mains_on_load',
  'mains_normal',
  'gen_normal',
  'remote_lock',
  'common_warning',
  'common_shutdown',
  'common_trip',
  'input_emergency_stop',
];

function allTexts(doc: ProtocolDocument): [string, ProtocolText][] {
  return [
    ['name', doc.name],
    ...doc.items.flatMap((item): [string, ProtocolText][] => [
      [`item ${item.key}`, item.name],
      ...(item.enum ?? []).map((option): [string, ProtocolText] => [`${item.key}=${option.value}`, option.label]),
    ]),
    ...doc.alarms.map((alarm): [string, ProtocolText] => [`alarm ${alarm.code}`, alarm.title]),
    ...doc.commands.flatMap((command): [string, ProtocolText][] => [
      [`command ${command.key}`, command.title],
      ...command.preconditions.map((p): [string, ProtocolText] => [`refusal ${command.key}`, p.reason]),
    ]),
    ...doc.configParams.map((param): [string, ProtocolText] => [`config ${param.key}`, param.name]),
    ...doc.configMenus.map((menu): [string, ProtocolText] => [`menu ${menu.key}`, menu.name]),
    ...doc.moduleItems.map((entry): [string, ProtocolText] => [`module ${entry.key}`, entry.name]),
    ...doc.optionLists.map((list): [string, ProtocolText] => [`option list ${list.key}`, list.name]),
  ];
}

describe.each([
  ['S', layoutS],
  ['G', layoutG],
])('seed layout %s', (_layout, doc) => {
  test('exposes the common item keys', () => {
    const keys = new Set(doc.items.map((item) => item.key));
    expect(COMMON_KEYS.filter((key) => !keys.has(key))).toEqual([]);
  });

  test('is translated, not copied from English', () => {
    // Texts that are only units or numbers ("50 Hz") are the same in every language.
    const words = allTexts(doc).filter(([, text]) =>
      /[A-Za-z]{3,}/.test(text['en-US'].replace(/\b(Hz|GenComm|HGM61xx)\b/g, '')),
    );
    expect(words.length).toBeGreaterThan(80);
    for (const [where, text] of words) {
      expect(text['zh-CN'], `${where} zh-CN`).toMatch(/\p{Script=Han}/u);
      expect(text['zh-TW'], `${where} zh-TW`).toMatch(/\p{Script=Han}/u);
      expect(text['ru-RU'], `${where} ru-RU`).toMatch(/\p{Script=Cyrillic}/u);
    }
    // Spanish and Turkish share some words with English ("Manual", "Motor", "Test"), but not most.
    for (const language of ['es-ES', 'tr-TR'] as const) {
      const copies = words.filter(([, text]) => text[language] === text['en-US']);
      expect(copies.length, `${language} copies: ${copies.map(([where]) => where).join(', ')}`).toBeLessThan(
        words.length * 0.05,
      );
    }
  });

  test('simplified and traditional Chinese differ where the characters do', () => {
    const differing = allTexts(doc).filter(([, text]) => text['zh-CN'] !== text['zh-TW']);
    expect(differing.length).toBeGreaterThan(40);
  });

  test('has configuration parameters with menus and a dropdown', () => {
    const keys = doc.configParams.map((param) => param.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'crank_attempts',
        'crank_time_s',
        'cooling_time_s',
        'low_fuel_warning_pct',
        'over_speed_shutdown_rpm',
        'rated_kw',
      ]),
    );
    expect(doc.configParams.some((param) => param.options && param.options.length > 1)).toBe(true);
    expect(doc.configParams.find((param) => param.key === 'rated_frequency')?.optionList).toBe('rated_frequency');
  });

  test('shows the module’s signal, SIM, GPS, inputs and firmware on the module-status screen', () => {
    const sources = doc.moduleItems.map((entry) => entry.source);
    expect(sources).toEqual(
      expect.arrayContaining(['signal.rssi', 'hello.iccid', 'sim.rxBytes', 'gps.lat', 'inputs', 'hello.firmware']),
    );
  });
});

test('both seeds share the alarm codes, command keys and configuration keys', () => {
  const codes = (doc: ProtocolDocument) => doc.alarms.map((a) => `${a.code}:${a.level}`).sort();
  expect(codes(layoutS)).toEqual(codes(layoutG));
  expect(layoutS.configParams.map((p) => p.key)).toEqual(layoutG.configParams.map((p) => p.key));
});

describe.each(Object.entries(LAYOUT_E_DOCUMENTS))('storage station seed layout E: %s', (_device, doc) => {
  test('is a valid layout E document', () => {
    expect(doc.layout).toBe('E');
    expect(doc.key).toMatch(/^layout-e-/);
    expect(validateProtocolDocument(JSON.parse(JSON.stringify(doc)))).toEqual([]);
  });

  test('is translated, not copied from English', () => {
    const words = allTexts(doc).filter(([, text]) =>
      /[A-Za-z]{3,}/.test(text['en-US'].replace(/\b(PCS|BMS|SOC|SOH|MPPT|CSQ|ICCID|SIM|GPS|IMEI)\b/g, '')),
    );
    expect(words.length).toBeGreaterThan(20);
    for (const [where, text] of words) {
      expect(text['zh-CN'], `${where} zh-CN`).toMatch(/\p{Script=Han}/u);
      expect(text['zh-TW'], `${where} zh-TW`).toMatch(/\p{Script=Han}/u);
      expect(text['ru-RU'], `${where} ru-RU`).toMatch(/\p{Script=Cyrillic}/u);
    }
    for (const language of ['es-ES', 'tr-TR'] as const) {
      const copies = words.filter(([, text]) => text[language] === text['en-US']);
      expect(copies.length, `${language} copies: ${copies.map(([where]) => where).join(', ')}`).toBeLessThan(
        words.length * 0.05,
      );
    }
  });

  test('every item belongs to a storage station group, its state or its counters', () => {
    const groups = new Set(doc.items.map((item) => item.group));
    for (const group of groups) expect(['pcs', 'bms', 'meter', 'pv', 'status', 'counters']).toContain(group);
  });
});

describe('layout E roles', () => {
  const docs = Object.values(LAYOUT_E_DOCUMENTS);
  const roled = docs.flatMap((doc) => doc.items.filter((item) => item.emsRole).map((item) => ({ doc, item })));

  test('each EMS role is carried by exactly one item of the station, the required ones included', () => {
    expect(roled.map(({ item }) => item.emsRole).sort()).toEqual([...EMS_ROLES].sort());
    for (const role of EMS_REQUIRED_ROLES) expect(roled.some(({ item }) => item.emsRole === role)).toBe(true);
  });

  test('written roles are holding registers; read roles are whole registers', () => {
    for (const { doc, item } of roled) {
      const where = `${doc.key} ${item.key}`;
      expect(item.type, where).not.toBe('bit');
      expect([3, 4], where).toContain(item.fc);
      if ((EMS_WRITTEN_ROLES as readonly string[]).includes(item.emsRole!)) expect(item.fc, where).toBe(3);
    }
  });

  test('roles sit where the signs and units say', () => {
    const byRole = new Map(roled.map(({ doc, item }) => [item.emsRole, { doc, item }]));
    expect(byRole.get('gridPowerKw')).toMatchObject({ doc: layoutEMeter, item: { key: 'grid_power', type: 's32' } });
    expect(byRole.get('pcsPowerKw')).toMatchObject({ doc: layoutEPcs, item: { key: 'active_power', type: 's32' } });
    expect(byRole.get('pcsSetpointKw')).toMatchObject({
      doc: layoutEPcs,
      item: { key: 'power_setpoint', type: 's32', fc: 3 },
    });
    expect(byRole.get('soc')).toMatchObject({ doc: layoutEBms, item: { key: 'soc', unit: '%' } });
    expect(byRole.get('pvLimitPct')).toMatchObject({ doc: layoutEPv, item: { key: 'power_limit', fc: 3 } });
    for (const role of ['gridPowerKw', 'pcsPowerKw', 'pcsSetpointKw', 'pcsRatingKw', 'bmsChargeLimitKw', 'pvPowerKw']) {
      expect(byRole.get(role as never)?.item.unit, role).toBe('kW');
    }
  });
});

describe('layout E set status', () => {
  const status = (doc: ProtocolDocument, values: Record<string, number>) => deriveStatus(doc, values);

  test('a PCS charging or discharging runs, in standby stands by, stopped or faulted is closed', () => {
    expect(status(layoutEPcs, { pcs_state: 2, pcs_fault: 0 }).status).toBe(SET_STATUS.running);
    expect(status(layoutEPcs, { pcs_state: 3, pcs_fault: 0 }).status).toBe(SET_STATUS.running);
    expect(status(layoutEPcs, { pcs_state: 1, pcs_fault: 0 }).status).toBe(SET_STATUS.standby);
    expect(status(layoutEPcs, { pcs_state: 0, pcs_fault: 0 }).status).toBe(SET_STATUS.closed);
    const faulted = status(layoutEPcs, { pcs_state: 4, pcs_fault: 1, fault_code: 1, alarm_bits: 1 });
    expect(faulted).toMatchObject({ status: SET_STATUS.closed, shutdown: true, alarm: true });
    expect(faulted.activeAlarms.map((alarm) => alarm.code)).toEqual(['pcs_fault']);
    expect(status(layoutEPcs, { pcs_state: 1, pcs_fault: 0, alarm_bits: 8 }).activeAlarms[0]?.code).toBe(
      'watchdog_expired',
    );
  });

  test('a BMS idle stands by, charging runs, faulted is closed with its alarms', () => {
    expect(status(layoutEBms, { bms_state: 1, bms_fault: 0 }).status).toBe(SET_STATUS.standby);
    expect(status(layoutEBms, { bms_state: 2, bms_fault: 0 }).status).toBe(SET_STATUS.running);
    const faulted = status(layoutEBms, { bms_state: 4, bms_fault: 1, alarm_bits: 16 });
    expect(faulted.status).toBe(SET_STATUS.closed);
    expect(faulted.activeAlarms.map((alarm) => [alarm.code, alarm.level])).toEqual([
      ['bms_fault', 'shutdown'],
      ['insulation', 'shutdown'],
    ]);
  });

  test('a PV inverter waiting for the sun stands by, generating runs, shut down is closed; a meter has no state', () => {
    expect(status(layoutEPv, { pv_state: 0 }).status).toBe(SET_STATUS.standby);
    expect(status(layoutEPv, { pv_state: 2 }).status).toBe(SET_STATUS.running);
    expect(status(layoutEPv, { pv_state: 4 }).status).toBe(SET_STATUS.closed);
    expect(status(layoutEPv, { pv_state: 3 }).activeAlarms.map((alarm) => alarm.code)).toEqual(['pv_fault']);
    expect(layoutEMeter.statusRules).toBeUndefined();
  });
});
