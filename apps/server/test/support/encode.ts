// Builds the raw Modbus blocks a module would read for given engineering values, from a protocol
// document: the inverse of the server's decoder, for tests and the ingest benchmark.
import { derivePollBlocks, encodeFieldValue, type ProtocolDocument } from '@genset/protocol';

export interface RawBlock {
  fc: 1 | 2 | 3 | 4;
  start: number;
  words?: number[];
  bits?: boolean[];
}

export function encodeBlocks(doc: ProtocolDocument, values: Record<string, number | null>): RawBlock[] {
  const blocks: RawBlock[] = derivePollBlocks(doc).map((b) =>
    b.fc === 1 || b.fc === 2
      ? { fc: b.fc, start: b.start, bits: new Array<boolean>(b.count).fill(false) }
      : { fc: b.fc, start: b.start, words: new Array<number>(b.count).fill(0) },
  );
  for (const item of doc.items) {
    if (!(item.key in values)) continue;
    const block = blocks.find(
      (b) => b.fc === item.fc && item.address >= b.start && item.address < b.start + (b.words ?? b.bits)!.length,
    );
    if (!block) continue;
    const offset = item.address - block.start;
    const words = encodeFieldValue(item, values[item.key]);
    if (block.bits) block.bits[offset] = words[0] === 1;
    else if (item.type === 'bit' && item.bit !== undefined) {
      const mask = 1 << item.bit;
      block.words![offset] = words[0] ? block.words![offset]! | mask : block.words![offset]! & ~mask;
    } else words.forEach((w, i) => (block.words![offset + i] = w));
  }
  return blocks;
}
