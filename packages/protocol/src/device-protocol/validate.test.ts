import { describe, expect, test } from 'vitest';
import { layoutG } from './layout-g.ts';
import { layoutS } from './layout-s.ts';
import {
  parseProtocolDocument,
  PROTOCOL_PROBLEM_TEXTS,
  PROTOCOL_RULES,
  ProtocolDocumentError,
  protocolProblem,
  validateProtocolDocument,
} from './validate.ts';

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
      {
        path: `items[${kw}](gen_kw).address`,
        rule: 'protocolDoc.overlaps',
        params: { fc: 3, address: 22, other: `items[${charger}](charger_voltage)` },
        message: `fc 3 address 22 overlaps items[${charger}](charger_voltage)`,
      },
    ]);
  });

  test('a 32-bit value reaching into the next one is an overlap', () => {
    const doc = copyOf(layoutG);
    const latitude = indexOfItem(doc, 'latitude');
    doc.items[latitude]!.address += 1;
    const problems = validateProtocolDocument(doc);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      path: `items[${latitude + 1}](longitude).address`,
      rule: 'protocolDoc.overlaps',
      message: `fc 3 address 2562 overlaps items[${latitude}](latitude)`,
    });
  });

  test('the same bit of one register twice is an overlap', () => {
    const doc = copyOf(layoutG);
    const trip = indexOfItem(doc, 'common_trip');
    doc.items[trip]!.bit = 11;
    expect(validateProtocolDocument(doc)).toMatchObject([
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
      {
        path: `items[${rpm}](engine_rpm).name.tr-TR`,
        rule: 'protocolDoc.missingTranslation',
        params: {},
        message: 'missing translation',
      },
    ]);
    expect(validateProtocolDocument(alarmsDoc)).toMatchObject([
      {
        path: `alarms[2](${layoutG.alarms[2]!.code}).title.zh-TW`,
        rule: 'protocolDoc.missingTranslation',
        message: 'missing translation',
      },
    ]);
  });

  test('names an unknown type', () => {
    const doc = copyOf(layoutS) as unknown as { items: { type: string }[] };
    doc.items[0]!.type = 'u64';
    const [problem] = validateProtocolDocument(doc);
    expect(problem?.path).toBe('items[0](mains_voltage_l1).type');
    expect(problem?.message).toContain('unknown type "u64"');
    expect(problem).toMatchObject({
      rule: 'protocolDoc.unknownType',
      params: { value: '"u64"', allowed: 'bit, u16, s16, u32, s32, float32' },
    });
  });

  test('a configuration read block over the Modbus limit, and parameters it no longer covers', () => {
    const doc = copyOf(layoutS);
    doc.configReadBlocks = [{ fc: 3, start: 4096, count: 130 }];
    expect(validateProtocolDocument(doc)).toEqual([
      {
        path: 'configReadBlocks[0].count',
        rule: 'protocolDoc.readLimit',
        params: { count: 130, limit: 125, fc: 3 },
        message: '130 exceeds the Modbus limit of 125 per read for fc 3',
      },
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

  test('module items: an input is named only for "inputs", each source shown once, sources known', () => {
    const doc = copyOf(layoutS);
    const input = doc.moduleItems.findIndex((entry) => entry.source === 'inputs');
    delete doc.moduleItems[input]!.input;
    doc.moduleItems[0]!.input = 'in9';
    doc.moduleItems[2]!.source = 'signal.rssi';
    const texts = validateProtocolDocument(doc).map((p) => `${p.path}: ${p.message}`);
    expect(texts).toEqual([
      `moduleItems[0](signal_rssi).input: only "inputs" items name an input, not "signal.rssi"`,
      `moduleItems[${input}](input_1).input: an "inputs" item names its input`,
    ]);
    doc.moduleItems[0]!.input = undefined;
    delete doc.moduleItems[0]!.input;
    doc.moduleItems[input]!.input = 'in1';
    expect(validateProtocolDocument(doc)).toEqual([
      {
        path: 'moduleItems[2](sim_iccid).source',
        rule: 'protocolDoc.sourceShown',
        params: { source: 'signal.rssi', other: 'moduleItems[0]' },
        message: '"signal.rssi" is already shown by moduleItems[0]',
      },
    ]);
    const unknown = copyOf(layoutS) as unknown as { moduleItems: { source: string }[] };
    unknown.moduleItems[1]!.source = 'battery';
    const [problem] = validateProtocolDocument(unknown);
    expect(problem?.path).toBe('moduleItems[1](signal_csq).source');
    expect(problem?.message).toContain('unknown source "battery"');
  });

  test('a dropdown coordinate names a known option list and carries its options', () => {
    const doc = copyOf(layoutG);
    const frequency = doc.configParams.findIndex((param) => param.key === 'rated_frequency');
    doc.configParams[frequency]!.options = [doc.optionLists[0]!.options[0]!];
    doc.optionLists[0]!.options.push({ ...doc.optionLists[0]!.options[1]! });
    doc.configParams[0]!.optionList = 'speeds';
    const texts = validateProtocolDocument(doc).map((p) => `${p.path}: ${p.message}`);
    expect(texts).toEqual([
      'optionLists[0](rated_frequency).options[2].value: duplicate value 60',
      'configParams[0](crank_attempts).optionList: unknown option list "speeds"',
      `configParams[${frequency}](rated_frequency).options: must be the options of option list "rated_frequency"`,
    ]);
  });

  test('parameters at bits: different bits of one register are fine, overlapping bits and whole registers are not', () => {
    const doc = copyOf(layoutS);
    const at = (key: string) => doc.configParams.findIndex((param) => param.key === key);
    const [auto, idle, language] = [at('mains_fail_auto_start'), at('idle_start'), at('panel_language')];
    expect(doc.configParams[language]!.bits).toEqual({ start: 4, count: 2 });
    doc.configParams[idle]!.bits = { start: 0, count: 2 };
    doc.configParams[language]!.bits = { start: 5, count: 2 };
    const crank = doc.configParams[0]!;
    doc.configParams.push({ ...crank, key: 'whole_register', address: 4117 });
    const whole = doc.configParams.length - 1;
    const other = `configParams[${auto}](mains_fail_auto_start)`;
    expect(validateProtocolDocument(doc)).toEqual([
      {
        path: `configParams[${idle}](idle_start).address`,
        rule: 'protocolDoc.registerBitsOverlap',
        params: { address: 4117, first: 0, last: 1, other },
        message: `holding register 4117 bits 0…1 overlaps ${other}`,
      },
      {
        path: `configParams[${whole}](whole_register).address`,
        rule: 'protocolDoc.registerOverlaps',
        params: { address: 4117, other },
        message: `holding register 4117 overlaps ${other}`,
      },
    ]);
  });

  test('bits: in range, only on 16-bit integers, options and range fitting the field, one write fc per register', () => {
    const doc = copyOf(layoutS) as unknown as { configParams: Record<string, unknown>[] };
    const at = (key: string) => doc.configParams.findIndex((param) => param.key === key);
    doc.configParams[at('panel_language')]!.bits = { start: 4, count: 17 };
    const [problem] = validateProtocolDocument(doc);
    expect(problem?.path).toBe(`configParams[${at('panel_language')}](panel_language).bits.count`);

    const spoilt = copyOf(layoutS);
    const index = (key: string) => spoilt.configParams.findIndex((param) => param.key === key);
    const [idle, language, kw, auto] = [
      index('idle_start'),
      index('panel_language'),
      index('rated_kw'),
      index('mains_fail_auto_start'),
    ];
    spoilt.configParams[language]!.bits = { start: 14, count: 3 };
    spoilt.configParams[kw]!.type = 'u32';
    spoilt.configParams[kw]!.bits = { start: 0, count: 4 };
    spoilt.configParams[idle]!.bits = { start: 1, count: 1 };
    spoilt.configParams[idle]!.max = 2;
    spoilt.configParams[idle]!.options = [...spoilt.configParams[idle]!.options!, { value: 2, label: layoutS.name }];
    delete spoilt.configParams[idle]!.optionList;
    spoilt.configParams[idle]!.writeFc = 16;
    const texts = validateProtocolDocument(spoilt).map((p) => `${p.path}: ${p.message}`);
    expect(texts).toEqual([
      `configParams[${kw}](rated_kw).bits: bits apply to 16-bit integer parameters (u16, s16) only, not u32`,
      `configParams[${idle}](idle_start).max: max 2 does not fit in bit 1 (raw 0…1)`,
      `configParams[${idle}](idle_start).options[2].value: option 2 does not fit in bit 1 (raw 0…1)`,
      `configParams[${idle}](idle_start).writeFc: bits of register 4117 are written together: use fc 6, as configParams[${auto}](mains_fail_auto_start)`,
      `configParams[${language}](panel_language).bits.count: bits 14…16 run past bit 15 of the 16-bit register`,
    ]);
  });

  test('documents without module items and option lists still validate', () => {
    const doc = copyOf(layoutS) as Partial<typeof layoutS>;
    delete doc.moduleItems;
    delete doc.optionLists;
    for (const param of doc.configParams!) delete param.optionList;
    expect(validateProtocolDocument(doc)).toEqual([]);
    expect(parseProtocolDocument(doc)).toMatchObject({ moduleItems: [], optionLists: [] });
  });

  test('issues of the schema itself get generic rules with their values, and keep their places', () => {
    const doc = copyOf(layoutS) as unknown as Record<string, any>;
    doc.version = 'two';
    doc.layout = ' ';
    doc.items[0].fc = 7;
    doc.items[1].address = 1.5;
    doc.items[2].address = 70000;
    doc.items[3].extra = true;
    delete doc.items[4].group;
    doc.items[5].wordOrder = 'middle';
    doc.items[6].scale = 0;
    doc.items[7].key = 'Bad Key';
    doc.alarms[0].condition = { op: 'between' };
    doc.commands[0].writes = [{ fc: 9 }];
    doc.commands[1].writes = [];
    const problems = validateProtocolDocument(doc).map(({ path, rule, params }) => ({ path, rule, params }));
    expect(problems).toEqual([
      { path: 'version', rule: 'protocolDoc.expectedNumber', params: {} },
      { path: 'layout', rule: 'protocolDoc.emptyText', params: {} },
      {
        path: 'items[0](mains_voltage_l1).fc',
        rule: 'protocolDoc.notOneOf',
        params: { value: '7', allowed: '1, 2, 3, 4' },
      },
      { path: `items[1](${doc.items[1].key}).address`, rule: 'protocolDoc.expectedInteger', params: {} },
      { path: `items[2](${doc.items[2].key}).address`, rule: 'protocolDoc.tooBig', params: { maximum: 65535 } },
      { path: `items[3](${doc.items[3].key})`, rule: 'protocolDoc.unknownFields', params: { keys: 'extra' } },
      { path: `items[4](${doc.items[4].key}).group`, rule: 'protocolDoc.required', params: {} },
      {
        path: `items[5](${doc.items[5].key}).wordOrder`,
        rule: 'protocolDoc.notOneOf',
        params: { value: '"middle"', allowed: 'hi-lo, lo-hi' },
      },
      { path: `items[6](${doc.items[6].key}).scale`, rule: 'protocolDoc.scaleZero', params: {} },
      { path: 'items[7](Bad Key).key', rule: 'protocolDoc.keyFormat', params: {} },
      {
        path: `alarms[0](${doc.alarms[0].code}).condition.op`,
        rule: 'protocolDoc.notOneOf',
        params: { value: '"between"', allowed: 'set, clear, bit, equals, in, notIn' },
      },
      { path: 'commands[0](start).writes[0]', rule: 'protocolDoc.writeShape', params: {} },
      { path: `commands[1](${doc.commands[1].key}).writes`, rule: 'protocolDoc.tooFewEntries', params: { minimum: 1 } },
    ]);
  });

  test('every problem has a known rule, and its message is the English text of that rule filled with its params', () => {
    const doc = copyOf(layoutS) as unknown as Record<string, any>;
    doc.key = 'Not A Key';
    doc.items[0].type = 'u64';
    doc.moduleItems[1].source = 'battery';
    const problems = validateProtocolDocument(doc);
    expect(problems.map((p) => p.rule)).toEqual([
      'protocolDoc.protocolKeyFormat',
      'protocolDoc.unknownType',
      'protocolDoc.unknownSource',
    ]);
    const spoilt = copyOf(layoutS);
    spoilt.items[1]!.address = 0;
    spoilt.configParams[1]!.min = 100;
    spoilt.configReadBlocks = [{ fc: 3, start: 4096, count: 5 }];
    for (const problem of [...problems, ...validateProtocolDocument(spoilt)]) {
      expect(PROTOCOL_RULES).toContain(problem.rule);
      let text: string = PROTOCOL_PROBLEM_TEXTS[problem.rule];
      for (const [name, value] of Object.entries(problem.params)) text = text.replaceAll(`{${name}}`, String(value));
      expect(problem.message).toBe(text);
      expect(problem.message).not.toMatch(/\{\w+\}/);
    }
    expect(
      protocolProblem('items[2](gen_kw).address', 'protocolDoc.overlaps', { fc: 3, address: 40, other: 'x' }),
    ).toEqual({
      path: 'items[2](gen_kw).address',
      rule: 'protocolDoc.overlaps',
      params: { fc: 3, address: 40, other: 'x' },
      message: 'fc 3 address 40 overlaps x',
    });
  });

  test('parseProtocolDocument throws with every problem listed', () => {
    const doc = copyOf(layoutS);
    doc.items[1]!.address = 0;
    expect(() => parseProtocolDocument(doc)).toThrow(ProtocolDocumentError);
    expect(() => parseProtocolDocument(doc)).toThrow(/items\[1\]\(mains_voltage_l2\)\.address/);
  });
});
