// Writing a controller's firmware over Modbus, block by block: the holding registers a controller offers for it
// (above its data and configuration, at 0xF000) and the image format. The module announces the image (size and
// SHA-256), writes its blocks in order, then commits; the controller checks the hash and that the image is for
// its model, installs it, and reports its new version. Shared by the module (the writer) and the simulator.
import { sha256 } from 'js-sha256';

export const CONTROLLER_FW = {
  /** Write 1 to begin (after size and hash), 2 to commit, 3 to abort. */
  command: 0xf000,
  /** The image's size in bytes, two registers, high word first. */
  size: 0xf001,
  /** The image's SHA-256, 16 registers. */
  sha256: 0xf003,
  /** Read: the transfer's state (CONTROLLER_FW_STATE). */
  state: 0xf013,
  /** Read: why the last transfer failed (CONTROLLER_FW_FAILURE). */
  failure: 0xf014,
  /** Read: bytes received so far, two registers. */
  received: 0xf015,
  /** Read: the running firmware's version, ASCII, 8 registers (16 characters, NUL padded). */
  version: 0xf017,
  /** One block: [block index, byte count, data words …] in one fc 16 write. */
  block: 0xf100,
} as const;

/** Data bytes in one block (the block write stays within a Modbus PDU: 2 + 120 registers). */
export const CONTROLLER_FW_BLOCK_BYTES = 236;
export const CONTROLLER_FW_VERSION_REGISTERS = 8;
/** Images larger than this are refused at begin. */
export const CONTROLLER_FW_MAX_BYTES = 4 * 1024 * 1024;

export const CONTROLLER_FW_COMMAND = { begin: 1, commit: 2, abort: 3 } as const;
export const CONTROLLER_FW_STATE = { idle: 0, receiving: 1, installing: 2, updated: 3, failed: 4 } as const;
export const CONTROLLER_FW_FAILURE = {
  none: 0,
  hashMismatch: 1,
  wrongModel: 2,
  outOfOrder: 3,
  badImage: 4,
  tooLarge: 5,
  incomplete: 6,
} as const;
export type ControllerFwFailure = keyof typeof CONTROLLER_FW_FAILURE;

const MAGIC = 'GENSET-FW';

/** An image: a header line naming the controller model and the version, then the firmware's bytes. */
export function buildControllerImage(model: string, version: string, payload: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(`${MAGIC};model=${model};version=${version}\n`);
  const image = new Uint8Array(header.length + payload.length);
  image.set(header);
  image.set(payload, header.length);
  return image;
}

/** The model and version an image's header names, or null when it has none. */
export function readControllerImage(image: Uint8Array): { model: string; version: string } | null {
  const end = image.subarray(0, 201).indexOf(0x0a);
  if (end < 0) return null;
  const fields = new TextDecoder().decode(image.subarray(0, end)).split(';');
  if (fields[0] !== MAGIC) return null;
  const get = (name: string) => fields.find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1);
  const model = get('model');
  const version = get('version');
  if (!model || !version || version.length > CONTROLLER_FW_VERSION_REGISTERS * 2) return null;
  return { model, version };
}

/** Two bytes to a register, high byte first; an odd last byte padded with 0. */
function toWords(bytes: Uint8Array): number[] {
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) words.push((bytes[i]! << 8) | (bytes[i + 1] ?? 0));
  return words;
}

function toBytes(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(words.length * 2);
  words.forEach((w, i) => {
    bytes[i * 2] = (w >> 8) & 0xff;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
}

export function sha256Words(image: Uint8Array): number[] {
  return toWords(new Uint8Array(sha256.array(image)));
}

export function versionWords(version: string): number[] {
  const bytes = new Uint8Array(CONTROLLER_FW_VERSION_REGISTERS * 2);
  bytes.set(new TextEncoder().encode(version).subarray(0, bytes.length));
  return toWords(bytes);
}

export function wordsVersion(words: readonly number[]): string {
  return new TextDecoder().decode(toBytes(words)).replace(/\0+$/, '');
}

/** A block's data bytes from its registers. */
export function blockBytes(words: readonly number[], count: number): Uint8Array {
  return toBytes(words).subarray(0, count);
}

/** A block's registers: its index, its byte count, then its bytes two to a register (the last padded). */
export function blockWords(index: number, data: Uint8Array): number[] {
  return [index, data.length, ...toWords(data)];
}
