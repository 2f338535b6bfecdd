// readModemData accepts and returns exactly what the modemData schema does, message by message.
import { describe, expect, it } from 'vitest';
import { modemData } from './messages.ts';
import { readModemData } from './fast-data.ts';

const valid = {
  seq: 7,
  ts: 1_790_000_000_000,
  port: 'port1',
  address: 1,
  blocks: [
    { fc: 3, start: 0, words: [1, 2, 65535] },
    { fc: 1, start: 10, bits: [true, false] },
  ],
};

// Each case changes one thing of a valid message.
const variants: [string, unknown][] = [
  ['valid', valid],
  ['with error', { ...valid, error: 'controller does not answer' }],
  ['no blocks', { ...valid, blocks: [] }],
  ['unknown key (dropped)', { ...valid, extra: 1 }],
  ['unknown block key (dropped)', { ...valid, blocks: [{ fc: 4, start: 1, words: [3], x: 1 }] }],
  ['seq 0', { ...valid, seq: 0 }],
  ['seq fraction', { ...valid, seq: 1.5 }],
  ['seq string', { ...valid, seq: '7' }],
  ['seq unsafe', { ...valid, seq: 2 ** 60 }],
  ['ts negative', { ...valid, ts: -1 }],
  ['ts missing', { ...valid, ts: undefined }],
  ['ts in the year 9999', { ...valid, ts: 253_402_300_799_999 }],
  ['ts past the year 9999', { ...valid, ts: 253_402_300_800_000 }],
  ['ts past what a date holds', { ...valid, ts: Number.MAX_SAFE_INTEGER }],
  ['port empty', { ...valid, port: '' }],
  ['port with space', { ...valid, port: 'port 1' }],
  ['port too long', { ...valid, port: 'p'.repeat(33) }],
  ['address 256', { ...valid, address: 256 }],
  ['address -1', { ...valid, address: -1 }],
  ['blocks not array', { ...valid, blocks: {} }],
  ['65 blocks', { ...valid, blocks: Array.from({ length: 65 }, () => ({ fc: 3, start: 0, words: [1] })) }],
  ['64 blocks', { ...valid, blocks: Array.from({ length: 64 }, () => ({ fc: 3, start: 0, words: [1] })) }],
  ['fc 5', { ...valid, blocks: [{ fc: 5, start: 0, words: [1] }] }],
  ['fc as string', { ...valid, blocks: [{ fc: '3', start: 0, words: [1] }] }],
  ['words on coils', { ...valid, blocks: [{ fc: 1, start: 0, words: [1] }] }],
  ['bits on registers', { ...valid, blocks: [{ fc: 3, start: 0, bits: [true] }] }],
  ['words and bits', { ...valid, blocks: [{ fc: 3, start: 0, words: [1], bits: [true] }] }],
  ['neither', { ...valid, blocks: [{ fc: 3, start: 0 }] }],
  ['word too big', { ...valid, blocks: [{ fc: 3, start: 0, words: [65536] }] }],
  ['word negative', { ...valid, blocks: [{ fc: 3, start: 0, words: [-1] }] }],
  ['126 words', { ...valid, blocks: [{ fc: 3, start: 0, words: Array(126).fill(0) }] }],
  ['125 words', { ...valid, blocks: [{ fc: 3, start: 0, words: Array(125).fill(0) }] }],
  ['past 65535', { ...valid, blocks: [{ fc: 3, start: 65535, words: [1, 2] }] }],
  ['up to 65535', { ...valid, blocks: [{ fc: 3, start: 65535, words: [1] }] }],
  ['bit not boolean', { ...valid, blocks: [{ fc: 2, start: 0, bits: [1] }] }],
  ['2001 bits', { ...valid, blocks: [{ fc: 2, start: 0, bits: Array(2001).fill(true) }] }],
  ['block null', { ...valid, blocks: [null] }],
  ['error too long', { ...valid, error: 'x'.repeat(501) }],
  ['error not text', { ...valid, error: 5 }],
  ['null', null],
  ['array', [valid]],
  ['text', 'data'],
];

describe('readModemData', () => {
  it.each(variants)('%s: same verdict and same result as the schema', (_name, message) => {
    const schema = modemData.safeParse(message);
    const fast = readModemData(message);
    expect(fast !== null).toBe(schema.success);
    if (schema.success) expect(fast).toEqual(schema.data);
  });
});
