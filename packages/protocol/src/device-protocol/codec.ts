// Turns raw Modbus blocks into engineering values (and back, for simulators and configuration writes).
// A decoder is compiled once per protocol version: lookups are laid out up front, each call only copies and reads.
import type { BitField, DataType, ProtocolDocument, ReadFunctionCode, WordOrder } from './schema.ts';

/** Raw data as read from a controller: registers as 16-bit words (fc 3/4), coils and inputs as bits (fc 1/2). */
export interface RegisterBlock {
  fc: ReadFunctionCode;
  start: number;
  words?: readonly number[];
  bits?: readonly (boolean | number)[];
}

/** Engineering values by item key; null means the controller reported "no data"; absent means not read. */
export type DecodedValues = Record<string, number | null>;
export type ProtocolDecoder = (blocks: readonly RegisterBlock[]) => DecodedValues;

/** What the codec needs to know about one value in the register space. */
export interface RegisterField {
  fc: ReadFunctionCode;
  address: number;
  type: DataType;
  wordOrder?: WordOrder | undefined;
  bit?: number | undefined;
  /** A field of bits inside a 16-bit register (configuration parameters); absent means the whole register. */
  bits?: BitField | undefined;
  scale: number;
  offset: number;
  decimals: number;
  noData: readonly number[];
}

export function isBitFunctionCode(fc: ReadFunctionCode): boolean {
  return fc === 1 || fc === 2;
}

/** Number of addresses (registers, or bits for fc 1/2) a value occupies. */
export function fieldSpan(type: DataType): number {
  return type === 'u32' || type === 's32' || type === 'float32' ? 2 : 1;
}

const scratch = new DataView(new ArrayBuffer(4));

/** The field's value bits, unshifted: `count` ones. */
function bitFieldMask(bits: BitField): number {
  return 2 ** bits.count - 1;
}

/** The raw range a bit field holds: 0…2^count − 1, or for s16 the signed range of `count` bits. */
export function bitFieldRange(type: DataType, bits: BitField): [number, number] {
  if (type === 's16') return [-(2 ** (bits.count - 1)), 2 ** (bits.count - 1) - 1];
  return [0, bitFieldMask(bits)];
}

/** The unsigned bits of a field, read from its register word: (word >> start) & mask. */
export function readBitField(word: number, bits: BitField): number {
  return (word >>> bits.start) & bitFieldMask(bits);
}

/** The register word with the field's bits replaced by `pattern`; every other bit is kept. */
export function placeBitField(word: number, bits: BitField, pattern: number): number {
  const mask = bitFieldMask(bits) << bits.start;
  return ((word & ~mask) | ((pattern << bits.start) & mask)) & 0xffff;
}

/** A bit field's raw value: unsigned, or for s16 signed within its own bits. */
function rawFromBitField(type: DataType, word: number, bits: BitField): number {
  const unsigned = readBitField(word, bits);
  return type === 's16' && unsigned >= 2 ** (bits.count - 1) ? unsigned - 2 ** bits.count : unsigned;
}

/** The integer (or float) held by one or two registers, before scale and offset. */
function rawFromWords(type: DataType, first: number, second: number, wordOrder: WordOrder | undefined): number {
  switch (type) {
    case 'bit':
    case 'u16':
      return first;
    case 's16':
      return (first << 16) >> 16;
    default: {
      const [high, low] = wordOrder === 'lo-hi' ? [second, first] : [first, second];
      if (type === 'u32') return high * 65536 + low;
      if (type === 's32') return (high << 16) | low;
      scratch.setUint16(0, high);
      scratch.setUint16(2, low);
      return scratch.getFloat32(0);
    }
  }
}

/** The unsigned bit pattern of a raw value, so "no data" sentinels may be written either way (−1 or 65535). */
function unsignedPattern(type: DataType, raw: number): number {
  if (type === 's16') return raw & 0xffff;
  if (type === 's32') return raw >>> 0;
  return raw;
}

export function roundToDecimals(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Decodes one value from its register words (one word for 16-bit and bit fields, two for 32-bit). */
export function decodeFieldValue(field: RegisterField, words: readonly number[]): number | null {
  const first = words[0] ?? 0;
  if (field.type === 'bit') {
    return isBitFunctionCode(field.fc) ? (first ? 1 : 0) : (first >> (field.bit ?? 0)) & 1;
  }
  const raw = field.bits
    ? rawFromBitField(field.type, first, field.bits)
    : rawFromWords(field.type, first, words[1] ?? 0, field.wordOrder);
  if (Number.isNaN(raw)) return null;
  if (field.noData.length > 0) {
    const pattern = field.bits ? raw & bitFieldMask(field.bits) : unsignedPattern(field.type, raw);
    if (field.noData.some((sentinel) => sentinel === raw || sentinel === pattern)) return null;
  }
  return roundToDecimals(raw * field.scale + field.offset, field.decimals);
}

function integerRange(type: DataType): [number, number] {
  switch (type) {
    case 's16':
      return [-32768, 32767];
    case 'u32':
      return [0, 4294967295];
    case 's32':
      return [-2147483648, 2147483647];
    default:
      return [0, 65535];
  }
}

function wordsFromRaw(type: DataType, raw: number, wordOrder: WordOrder | undefined): number[] {
  if (fieldSpan(type) === 1) return [raw & 0xffff];
  let high: number;
  let low: number;
  if (type === 'float32') {
    scratch.setFloat32(0, raw);
    high = scratch.getUint16(0);
    low = scratch.getUint16(2);
  } else {
    const unsigned = raw >>> 0;
    high = Math.floor(unsigned / 65536);
    low = unsigned % 65536;
  }
  return wordOrder === 'lo-hi' ? [low, high] : [high, low];
}

/**
 * Encodes an engineering value into register words (inverse of decodeFieldValue). Values beyond the type's
 * range saturate, as a controller's own display would; null writes the first "no data" sentinel.
 * For bit items the result is [0] or [1]; the caller places the bit. For a field of bits (`bits`) the result is
 * the field's own bits, unshifted (saturated to the field's range); the caller places them with placeBitField.
 */
export function encodeFieldValue(field: RegisterField, value: number | null | undefined): number[] {
  if (field.type === 'bit') return [value ? 1 : 0];
  if (field.bits) {
    const mask = bitFieldMask(field.bits);
    if (value === null || value === undefined || !Number.isFinite(value)) return [(field.noData[0] ?? 0) & mask];
    const [min, max] = bitFieldRange(field.type, field.bits);
    return [Math.min(max, Math.max(min, Math.round((value - field.offset) / field.scale))) & mask];
  }
  if (value === null || value === undefined || !Number.isFinite(value)) {
    const sentinel = field.noData[0];
    if (sentinel === undefined) return fieldSpan(field.type) === 2 ? [0, 0] : [0];
    return wordsFromRaw(field.type, sentinel, field.wordOrder);
  }
  const scaled = (value - field.offset) / field.scale;
  if (field.type === 'float32') return wordsFromRaw('float32', scaled, field.wordOrder);
  const [min, max] = integerRange(field.type);
  return wordsFromRaw(field.type, Math.min(max, Math.max(min, Math.round(scaled))), field.wordOrder);
}

/** A reusable image of one function code's address range, stamped per call so nothing needs clearing. */
interface Plane {
  base: number;
  size: number;
  values: Uint16Array;
  stamps: Uint32Array;
}

/** Compiles a decoder for any list of named fields (data items, configuration parameters). */
export function compileFieldDecoder(entries: readonly { key: string; field: RegisterField }[]): ProtocolDecoder {
  const planes = new Map<ReadFunctionCode, Plane>();
  for (const { field } of entries) {
    const end = field.address + fieldSpan(field.type);
    const plane = planes.get(field.fc);
    if (!plane) {
      planes.set(field.fc, {
        base: field.address,
        size: end - field.address,
        values: new Uint16Array(),
        stamps: new Uint32Array(),
      });
    } else {
      const planeEnd = Math.max(plane.base + plane.size, end);
      plane.base = Math.min(plane.base, field.address);
      plane.size = planeEnd - plane.base;
    }
  }
  for (const plane of planes.values()) {
    plane.values = new Uint16Array(plane.size);
    plane.stamps = new Uint32Array(plane.size);
  }

  let generation = 0;
  const readers = entries.map(({ key, field }) => {
    const plane = planes.get(field.fc)!;
    const index = field.address - plane.base;
    const span = fieldSpan(field.type);
    const words = [0, 0];
    return (out: DecodedValues): void => {
      if (plane.stamps[index] !== generation || (span === 2 && plane.stamps[index + 1] !== generation)) return;
      words[0] = plane.values[index]!;
      words[1] = span === 2 ? plane.values[index + 1]! : 0;
      out[key] = decodeFieldValue(field, words);
    };
  });

  return (blocks) => {
    generation = (generation + 1) >>> 0;
    if (generation === 0) {
      for (const plane of planes.values()) plane.stamps.fill(0);
      generation = 1;
    }
    for (const block of blocks) {
      const plane = planes.get(block.fc);
      if (!plane) continue;
      const data = isBitFunctionCode(block.fc) ? block.bits : block.words;
      if (!data) continue;
      const from = Math.max(block.start, plane.base);
      const to = Math.min(block.start + data.length, plane.base + plane.size);
      for (let address = from; address < to; address++) {
        const datum = data[address - block.start];
        plane.values[address - plane.base] = typeof datum === 'boolean' ? (datum ? 1 : 0) : Number(datum) & 0xffff;
        plane.stamps[address - plane.base] = generation;
      }
    }
    const out: DecodedValues = {};
    for (const read of readers) read(out);
    return out;
  };
}

/** Decoder for a document's data items: blocks in, engineering values by item key out. */
export function compileDecoder(doc: ProtocolDocument): ProtocolDecoder {
  return compileFieldDecoder(doc.items.map((item) => ({ key: item.key, field: item })));
}

export function configParamField(param: ProtocolDocument['configParams'][number]): RegisterField {
  return { ...param, fc: 3, bit: undefined, noData: [] };
}

/** Decoder for a document's configuration parameters (holding registers fetched by a configuration read). */
export function compileConfigDecoder(doc: ProtocolDocument): ProtocolDecoder {
  return compileFieldDecoder(doc.configParams.map((param) => ({ key: param.key, field: configParamField(param) })));
}
