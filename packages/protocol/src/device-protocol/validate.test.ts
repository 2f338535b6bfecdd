import { describe, expect, test } from 'vitest';
import { layoutG } from './layout-g.ts';
import { layoutS } from './layout-s.ts';
import { parseProtocolDocument, ProtocolDocumentError, validateProtocolDocument } from './validate.ts';

/** A deep copy to spoil, leaving the seed itself alone. */
function copyOf<T>(value: T): T {
  return structuredClone(value);
}

function indexOfItem(doc: { items: { key: string }[] }, key: string): number {
  return doc.items.findIndex((item) => item.key === key);
}

describe('validateProtocolDocument', () => {
  test('the seed documents are clean', () => {
    expect(validateProtocolDocument(layoutS)).toEqual([]);
    expect(validateProtocolDocument(layoutG)).toEqual([]);
  });

  test('names an overlapping address with both items', () => {
    const doc = copyOf(layoutS);
    const kw = indexOfItem(doc, 'gen_kw');
    const charger = indexOfItem(doc, 'charger_voltage');
    doc.items[kw]!.address = 22;
    expect(validateProtocolDocument(doc)).toEqual([
      { path: `items[${kw}](gen_kw).address`, message: `fc 3 address 22 overlaps items[${charger}](charger_voltage)` },
    ]);
  });

  test('a 32-bit value reaching into the next one is an overlap', () => {
    const doc = copyOf(layoutG);
    const latitude = indexOfItem(doc, 'latitude');
    doc.items[latitude]!.address += 1;
    const problems = validateProtocolDocument(doc);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toEqual({
      path: `items[${latitude + 1}](longitude).address`,
      message: `fc 3 address 2562 overlaps items[${latitude}](latitude)`,
    });
  });

  test('the same bit of one register twice is an overlap', () => {
    const doc = copyOf(layoutG);
    const trip = indexOfItem(doc, 'common_trip');
    doc.items[trip]!.bit = 11;
    expect(validateProtocolDocument(doc)).toEqual([
      {
        path: `items[${trip}](common_trip).address`,
        message: `fc 3 address 774 overlaps items[${indexOfItem(doc, 'common_warning')}](common_warning)`,
      },
    ]);
  });

  test('names a missing translation down to the language', () => {
    const doc = copyOf(layoutS) as unknown as { items: { key: string; name: Record<string, string> }[] };
    const rpm = indexOfItem(doc, 'engine_rpm');
    delete doc.items[rpm]!.name['tr-TR'];
    const alarmsDoc = copyOf(layoutG);
    alarmsDoc.alarms[2]!.title['zh-TW'] = '  ';
    expect(validateProtocolDocument(doc)).toEqual([
      { path: `items[${rpm}](engine_rpm).name.tr-TR`, message: 'missing translation' },
    ]);
    expect(validateProtocolDocument(alarmsDoc)).toEqual([
      { path: `alarms[2](${layoutG.alarms[2]!.code}).title.zh-TW`, message: 'missing translation' },
    ]);
  });

  test('names an unknown type', () => {
    const doc = copyOf(layoutS) as unknown as { items: { type: string }[] };
    doc.items[0]!.type = 'u64';
    const [problem] = validateProtocolDocument(doc);
    expect(problem?.path).toBe('items[0](mains_voltage_l1).type');
    expect(problem?.message).toContain('unknown type "u64"');
  });

  test('a configuration read block over the Modbus limit, and parameters it no longer covers', () => {
    const doc = copyOf(layoutS);
    doc.configReadBlocks = [{ fc: 3, start: 4096, count: 130 }];
    expect(validateProtocolDocument(doc)).toEqual([
      { path: 'configReadBlocks[0].count', message: '130 exceeds the Modbus limit of 125 per read for fc 3' },
    ]);
    doc.configReadBlocks = [{ fc: 3, start: 4096, count: 5 }];
    const problems = validateProtocolDocument(doc);
    expect(problems.map((p) => p.path)).toContain('configParams[5](warm_up_time_s).address');
  });

  test('references, duplicates, bit rules and menus', () => {
    const doc = copyOf(layoutS);
    doc.alarms[0]!.item = 'no_such_item';
    doc.commands[1]!.key = doc.commands[0]!.key;
    doc.configParams[0]!.menu = 'nowhere';
    doc.configParams[1]!.min = 100;
    doc.configMenus[0]!.parent = 'engine_start';
    const bitItem = indexOfItem(doc, 'mains_normal');
    (doc.items[bitItem] as { fc: number }).fc = 3;
    const texts = validateProtocolDocument(doc).map((p) => `${p.path}: ${p.message}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        `alarms[0](emergency_stop).item: unknown item "no_such_item"`,
        `commands[1](start).key: duplicate key "start", also commands[0]`,
        `configParams[0](crank_attempts).menu: unknown menu "nowhere"`,
        `configParams[1](crank_time_s).min: min 100 is above max 60`,
        `configMenus[0](engine).parent: menu parents form a cycle through "engine"`,
        `items[${bitItem}](mains_normal).bit: a bit inside register 5 needs its bit index (0–15)`,
      ]),
    );
  });

  test('parseProtocolDocument throws with every problem listed', () => {
    const doc = copyOf(layoutS);
    doc.items[1]!.address = 0;
    expect(() => parseProtocolDocument(doc)).toThrow(ProtocolDocumentError);
    expect(() => parseProtocolDocument(doc)).toThrow(/items\[1\]\(mains_voltage_l2\)\.address/);
  });
});
