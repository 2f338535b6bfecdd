import { describe, expect, test } from 'vitest';
import { compileDecoder, decodeFieldValue, encodeFieldValue, type RegisterField } from './codec.ts';
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
