// The `data` message checked without the schema library: the server reads thousands of them a second, and
// the zod schema (`modemData`) cost about 7 % of its time there. This accepts exactly what `modemData`
// accepts (the test holds the two side by side) and returns the same plain object; for a message it refuses,
// run `modemData` to learn why.
import type { ModemData, ModemDataBlock } from './messages.ts';
import {
  MQTT_MAX_BITS_PER_BLOCK,
  MQTT_MAX_BLOCKS,
  MQTT_MAX_EPOCH_MS,
  MQTT_MAX_ERROR_LENGTH,
  MQTT_MAX_WORDS_PER_BLOCK,
} from './messages.ts';

const PORT_NAME = /^[A-Za-z0-9_.:-]{1,32}$/;

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;

function block(value: unknown): ModemDataBlock | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const b = value as Record<string, unknown>;
  const { fc, start, words, bits } = b;
  if (fc !== 1 && fc !== 2 && fc !== 3 && fc !== 4) return null;
  if (!isInt(start, 0, 0xffff)) return null;
  const bitBlock = fc === 1 || fc === 2;
  if (words !== undefined) {
    if (bitBlock || !Array.isArray(words) || words.length > MQTT_MAX_WORDS_PER_BLOCK) return null;
    for (const w of words) if (!isInt(w, 0, 0xffff)) return null;
    if (bits !== undefined || start + words.length > 0x10000) return null;
    return { fc, start, words: words as number[] };
  }
  if (bits !== undefined) {
    if (!bitBlock || !Array.isArray(bits) || bits.length > MQTT_MAX_BITS_PER_BLOCK) return null;
    for (const x of bits) if (typeof x !== 'boolean') return null;
    if (start + bits.length > 0x10000) return null;
    return { fc, start, bits: bits as boolean[] };
  }
  return null;
}

/** The `data` message if it is one `modemData` accepts, else null. */
export function readModemData(value: unknown): ModemData | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const m = value as Record<string, unknown>;
  const { seq, ts, port, address, blocks, error } = m;
  if (!isInt(seq, 1, Number.MAX_SAFE_INTEGER) || !isInt(ts, 0, MQTT_MAX_EPOCH_MS)) return null;
  if (typeof port !== 'string' || !PORT_NAME.test(port)) return null;
  if (!isInt(address, 0, 255)) return null;
  if (!Array.isArray(blocks) || blocks.length > MQTT_MAX_BLOCKS) return null;
  const out: ModemDataBlock[] = new Array<ModemDataBlock>(blocks.length);
  for (let i = 0; i < blocks.length; i++) {
    const b = block(blocks[i]);
    if (!b) return null;
    out[i] = b;
  }
  if (error !== undefined && (typeof error !== 'string' || error.length > MQTT_MAX_ERROR_LENGTH)) return null;
  return error === undefined ? { seq, ts, port, address, blocks: out } : { seq, ts, port, address, blocks: out, error };
}
