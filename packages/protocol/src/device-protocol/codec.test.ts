import { describe, expect, test } from 'vitest';
import {
  compileDecoder,
  compileFieldDecoder,
  decodeFieldValue,
  encodeFieldValue,
  placeBitField,
  readBitField,
  type RegisterField,
} from './codec.ts';
import { protocolDocumentSchema, type ProtocolDocumentInput } from './schema.ts';
import { protocolText } from './text.ts';

const name = protocolText('x', '甲', '甲', 'икс', 'equis', 'iks');

function doc(items: Partial<ProtocolDocumentInput['items'][number]>[]) {
  return protocolDocumentSchema.parse({
    key: 'codec-test',
    name,
    version: 1,
    layout: 'T',
    items: items.map((item) => ({ name, group: 'engine', fc: 3, type: 'u16', ...item })),
  });
}

const field = (extra: Partial<RegisterField>): RegisterField => ({
  fc: 3,
  address: 0,
  type: 'u16',
  scale: 1,
  offset: 0,
  decimals: 0,
  noData: [],
  ...extra,
});

describe('decodeFieldValue / encodeFieldValue', () => {
  test.each([
    ['u16 scaled', field({ scale: 0.1, decimals: 1 }), 230.4, [2304]],
    ['s16 negative', field({ type: 's16' }), -25, [65511]],
    ['u32 high word first', field({ type: 'u32' }), 123456, [1, 57920]],
    ['u32 low word first', field({ type: 'u32', wordOrder: 'lo-hi' }), 123456, [57920, 1]],
    [
      's32 negative, low word first',
      field({ type: 's32', wordOrder: 'lo-hi', scale: 1e-6, decimals: 6 }),
      -33.868,
      [14112, 65019],
    ],
    ['float32', field({ type: 'float32', decimals: 2 }), 49.98, [16967, 60293]],
    ['offset', field({ type: 's16', offset: -40 }), -12, [28]],
  ])('%s round-trips through its words', (_label, f, value, words) => {
    expect(encodeFieldValue(f, value)).toEqual(words);
    expect(decodeFieldValue(f, words)).toBeCloseTo(value, 6);
  });

  test('no-data sentinels give null, in signed or unsigned spelling', () => {
    expect(decodeFieldValue(field({ type: 's16', noData: [32767] }), [32767])).toBeNull();
    expect(decodeFieldValue(field({ type: 's16', noData: [65535] }), [65535])).toBeNull();
    expect(decodeFieldValue(field({ type: 's16', noData: [-1] }), [65535])).toBeNull();
    expect(decodeFieldValue(field({ type: 's16', noData: [32767] }), [32766])).toBe(32766);
    expect(encodeFieldValue(field({ type: 'u32', noData: [4294967295] }), null)).toEqual([65535, 65535]);
  });

  test('values beyond the type saturate instead of wrapping', () => {
    expect(encodeFieldValue(field({ type: 'u16' }), -5)).toEqual([0]);
    expect(encodeFieldValue(field({ type: 's16' }), 40000)).toEqual([32767]);
  });

  test('decimals round the engineering value', () => {
    expect(decodeFieldValue(field({ scale: 0.001, decimals: 1 }), [12345])).toBe(12.3);
  });
});

describe('compileDecoder', () => {
  const decode = compileDecoder(
    doc([
      { key: 'coil', fc: 1, address: 10, type: 'bit' },
      { key: 'input', fc: 2, address: 3, type: 'bit' },
      { key: 'volts', fc: 3, address: 100, scale: 0.1, decimals: 1 },
      { key: 'energy', fc: 3, address: 101, type: 'u32' },
      { key: 'flag_low', fc: 3, address: 103, type: 'bit', bit: 0 },
      { key: 'flag_high', fc: 3, address: 103, type: 'bit', bit: 15 },
      { key: 'temp', fc: 4, address: 0, type: 's16', noData: [32767] },
      { key: 'far', fc: 3, address: 9000 },
    ]),
  );

  test('decodes every function code and type from raw blocks', () => {
    const values = decode([
      { fc: 1, start: 8, bits: [false, false, true, false] },
      { fc: 2, start: 0, bits: [0, 0, 0, 1] },
      { fc: 3, start: 100, words: [2304, 2, 3, 0x8001] },
      { fc: 4, start: 0, words: [65526] },
    ]);
    expect(values).toEqual({ coil: 1, input: 1, volts: 230.4, energy: 131075, flag_low: 1, flag_high: 1, temp: -10 });
  });

  test('a 32-bit value split across two blocks is still decoded; an unread one is absent', () => {
    const values = decode([
      { fc: 3, start: 100, words: [0, 1] },
      { fc: 3, start: 102, words: [7] },
    ]);
    expect(values.energy).toBe(65543);
    expect('far' in values).toBe(false);
    expect('temp' in values).toBe(false);
  });

  test('a later call does not see the previous call’s registers', () => {
    decode([{ fc: 3, start: 100, words: [1, 2, 3, 4] }]);
    const values = decode([{ fc: 4, start: 0, words: [32767] }]);
    expect(values).toEqual({ temp: null });
  });
});

describe('fields of bits inside a register', () => {
  const language = field({ bits: { start: 4, count: 2 } });
  const idle = field({ bits: { start: 1, count: 1 } });

  test('a field reads (word >> start) & mask, then scale and offset as for a whole register', () => {
    const word = 0b1010_0110; // bits 1, 2, 5 and 7 set
    expect(readBitField(word, { start: 4, count: 2 })).toBe(2);
    expect(decodeFieldValue(language, [word])).toBe(2);
    expect(decodeFieldValue(idle, [word])).toBe(1);
    expect(decodeFieldValue(field({ bits: { start: 8, count: 8 }, scale: 0.5, decimals: 1 }), [0x1f00])).toBe(15.5);
    // s16 fields are signed within their own bits.
    expect(decodeFieldValue(field({ type: 's16', bits: { start: 12, count: 4 } }), [0xe000])).toBe(-2);
    expect(decodeFieldValue(field({ bits: { start: 0, count: 16 } }), [65535])).toBe(65535);
  });

  test('encoding gives the field’s own bits, saturated; placing keeps every other bit', () => {
    expect(encodeFieldValue(language, 3)).toEqual([3]);
    expect(encodeFieldValue(language, 9)).toEqual([3]);
    expect(encodeFieldValue(language, -1)).toEqual([0]);
    expect(encodeFieldValue(field({ type: 's16', bits: { start: 12, count: 4 } }), -2)).toEqual([14]);
    expect(placeBitField(0xffff, { start: 4, count: 2 }, 1)).toBe(0xffdf);
    expect(placeBitField(0b0000_0001, { start: 4, count: 2 }, 3)).toBe(0b0011_0001);
    expect(placeBitField(0x8000, { start: 0, count: 16 }, 5)).toBe(5);
    expect(placeBitField(0x0001, { start: 15, count: 1 }, 1)).toBe(0x8001);
  });

  test('a compiled decoder reads several fields of one register', () => {
    const decode = compileFieldDecoder([
      { key: 'mains_fail_auto_start', field: field({ address: 7, bits: { start: 0, count: 1 } }) },
      { key: 'idle_start', field: { ...idle, address: 7 } },
      { key: 'panel_language', field: { ...language, address: 7 } },
    ]);
    expect(decode([{ fc: 3, start: 6, words: [999, 0b0010_0001] }])).toEqual({
      mains_fail_auto_start: 1,
      idle_start: 0,
      panel_language: 2,
    });
  });
});
