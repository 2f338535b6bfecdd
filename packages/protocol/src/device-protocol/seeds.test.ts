import { describe, expect, test } from 'vitest';
import { layoutG } from './layout-g.ts';
import { layoutS } from './layout-s.ts';
import type { ProtocolDocument } from './schema.ts';
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
