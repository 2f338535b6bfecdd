// Derives the reads a cloud module performs for one controller: the items' addresses merged into as few
// Modbus requests as the protocol limits allow, because each request costs a round trip on a slow serial line.
import { fieldSpan, isBitFunctionCode } from './codec.ts';
import type { DataItem, PollBlock, ProtocolDocument, ReadFunctionCode } from './schema.ts';

/** Modbus application-protocol limits for one read request. */
export const MODBUS_MAX_READ_REGISTERS = 125;
export const MODBUS_MAX_READ_BITS = 2000;

export function maxReadCount(fc: ReadFunctionCode): number {
  return isBitFunctionCode(fc) ? MODBUS_MAX_READ_BITS : MODBUS_MAX_READ_REGISTERS;
}

export interface PollBlockOptions {
  /** Unused registers that may be read across to join two ranges (reading a few spare words beats a round trip). */
  maxRegisterGap?: number;
  /** The same for coils and discrete inputs. */
  maxBitGap?: number;
  /** Poll only some items, e.g. the realtime ones. */
  include?: (item: DataItem) => boolean;
}

export function derivePollBlocks(doc: ProtocolDocument, options: PollBlockOptions = {}): PollBlock[] {
  const { maxRegisterGap = 16, maxBitGap = 64, include } = options;
  const spans = doc.items
    .filter((item) => !include || include(item))
    .map((item) => ({
      fc: item.fc,
      start: item.address,
      end: item.address + (isBitFunctionCode(item.fc) ? 1 : fieldSpan(item.type)),
    }))
    .sort((a, b) => a.fc - b.fc || a.start - b.start);

  const blocks: PollBlock[] = [];
  let current: { fc: ReadFunctionCode; start: number; end: number } | undefined;
  for (const span of spans) {
    const gap = isBitFunctionCode(span.fc) ? maxBitGap : maxRegisterGap;
    if (
      current &&
      current.fc === span.fc &&
      span.start <= current.end + gap &&
      Math.max(current.end, span.end) - current.start <= maxReadCount(span.fc)
    ) {
      current.end = Math.max(current.end, span.end);
      continue;
    }
    if (current) blocks.push({ fc: current.fc, start: current.start, count: current.end - current.start });
    current = { ...span };
  }
  if (current) blocks.push({ fc: current.fc, start: current.start, count: current.end - current.start });
  return blocks;
}
