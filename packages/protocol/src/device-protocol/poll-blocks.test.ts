import { describe, expect, test } from 'vitest';
import { fieldSpan, isBitFunctionCode } from './codec.ts';
import { layoutG } from './layout-g.ts';
import { layoutS } from './layout-s.ts';
import { derivePollBlocks, MODBUS_MAX_READ_BITS, MODBUS_MAX_READ_REGISTERS } from './poll-blocks.ts';
import { protocolDocumentSchema, type PollBlock, type ProtocolDocument } from './schema.ts';
import { protocolText } from './text.ts';

const name = protocolText('x', '甲', '甲', 'икс', 'equis', 'iks');

function docWith(items: { fc: 1 | 2 | 3 | 4; address: number; type?: 'bit' | 'u16' | 'u32' }[]): ProtocolDocument {
  return protocolDocumentSchema.parse({
    key: 'blocks-test',
    name,
    version: 1,
    layout: 'T',
    items: items.map((item, index) => ({
      key: `item_${index}`,
      name,
      group: 'engine',
      type: item.type ?? (item.fc <= 2 ? 'bit' : 'u16'),
      ...item,
    })),
  });
}

function expectCoversEveryItemWithinLimits(doc: ProtocolDocument, blocks: PollBlock[]) {
  for (const block of blocks) {
    expect(block.count).toBeLessThanOrEqual(
      isBitFunctionCode(block.fc) ? MODBUS_MAX_READ_BITS : MODBUS_MAX_READ_REGISTERS,
    );
  }
  for (const item of doc.items) {
    const end = item.address + (isBitFunctionCode(item.fc) ? 1 : fieldSpan(item.type));
    const holders = blocks.filter((b) => b.fc === item.fc && b.start <= item.address && end <= b.start + b.count);
    expect(holders, `${item.key} is read by exactly one block`).toHaveLength(1);
  }
}

describe('derivePollBlocks', () => {
  test.each([
    ['S', layoutS],
    ['G', layoutG],
  ])('layout %s: every item is read, within the Modbus limits', (_layout, doc) => {
    expectCoversEveryItemWithinLimits(doc, derivePollBlocks(doc));
  });

  test('layout S needs one read per function code; layout G one per page', () => {
    expect(derivePollBlocks(layoutS).map((b) => b.fc)).toEqual([1, 2, 3]);
    expect(new Set(derivePollBlocks(layoutG).map((b) => Math.floor(b.start / 256))).size).toBe(
      derivePollBlocks(layoutG).length,
    );
  });

  test('300 contiguous registers are split at 125', () => {
    const doc = docWith(Array.from({ length: 300 }, (_, address) => ({ fc: 3 as const, address })));
    const blocks = derivePollBlocks(doc);
    expect(blocks).toEqual([
      { fc: 3, start: 0, count: 125 },
      { fc: 3, start: 125, count: 125 },
      { fc: 3, start: 250, count: 50 },
    ]);
  });

  test('4500 coils are split at 2000 bits', () => {
    const doc = docWith(Array.from({ length: 4500 }, (_, address) => ({ fc: 1 as const, address })));
    expect(derivePollBlocks(doc).map((b) => b.count)).toEqual([2000, 2000, 500]);
  });

  test('a 32-bit value on the 125-register boundary is never cut in two', () => {
    const doc = docWith([
      { fc: 4, address: 0 },
      { fc: 4, address: 124, type: 'u32' },
    ]);
    const blocks = derivePollBlocks(doc);
    expect(blocks).toEqual([
      { fc: 4, start: 0, count: 1 },
      { fc: 4, start: 124, count: 2 },
    ]);
    expectCoversEveryItemWithinLimits(doc, blocks);
  });

  test('near ranges are merged across a small gap, distant ones are not', () => {
    const doc = docWith([
      { fc: 3, address: 0 },
      { fc: 3, address: 10 },
      { fc: 3, address: 500 },
    ]);
    expect(derivePollBlocks(doc)).toEqual([
      { fc: 3, start: 0, count: 11 },
      { fc: 3, start: 500, count: 1 },
    ]);
    expect(derivePollBlocks(doc, { maxRegisterGap: 0 })).toHaveLength(3);
  });

  test('an item filter polls only what is asked for', () => {
    const blocks = derivePollBlocks(layoutG, { include: (item) => item.realtime });
    const realtimeKeys = layoutG.items.filter((item) => item.realtime);
    expect(blocks.length).toBeGreaterThan(0);
    for (const item of realtimeKeys) {
      expect(blocks.some((b) => b.start <= item.address && item.address < b.start + b.count)).toBe(true);
    }
    expect(blocks.some((b) => b.start === 2048)).toBe(false);
  });
});
