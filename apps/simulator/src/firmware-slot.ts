// The controller's firmware slot: the registers at 0xF000 through which a module writes a new firmware block by
// block (see CONTROLLER_FW in the protocol package). The image is announced with its size and SHA-256, its
// blocks must come in order (a block sent again after a lost answer is taken once), and on commit the slot
// checks the hash and that the image is for this controller's model before it installs it: the controller
// then runs the image's version after a short restart.
import { createHash } from 'node:crypto';
import {
  CONTROLLER_FW,
  CONTROLLER_FW_BLOCK_BYTES,
  CONTROLLER_FW_COMMAND,
  CONTROLLER_FW_FAILURE,
  CONTROLLER_FW_MAX_BYTES,
  CONTROLLER_FW_STATE,
  CONTROLLER_FW_VERSION_REGISTERS,
  blockBytes,
  readControllerImage,
  versionWords,
  type ControllerFwFailure,
} from '@genset/protocol';
import { MODBUS_EXCEPTION, ModbusException } from './register-bank.ts';

const FIRST = CONTROLLER_FW.command;
const LAST = CONTROLLER_FW.block + 2 + Math.ceil(CONTROLLER_FW_BLOCK_BYTES / 2) - 1;

export class FirmwareSlot {
  version: string;
  private state: number = CONTROLLER_FW_STATE.idle;
  private failure: number = CONTROLLER_FW_FAILURE.none;
  /** Size (2 words) and hash (16 words) as last written. */
  private header = new Array<number>(18).fill(0);
  private image: Uint8Array | null = null;
  private received = 0;
  private nextBlock = 0;
  private lastBlockBytes = 0;
  private installTimer: NodeJS.Timeout | undefined;
  /** Completed installs, for tests. */
  installs = 0;

  constructor(
    readonly model: string,
    version: string,
    private readonly installMs = 1000,
  ) {
    this.version = version;
  }

  /** True when the address falls in the slot's registers. */
  static covers(start: number, count = 1): boolean {
    return start >= FIRST && start + count - 1 <= LAST;
  }

  read(start: number, count: number): number[] {
    const words = new Map<number, number>();
    this.header.forEach((w, i) => words.set(CONTROLLER_FW.size + i, w));
    words.set(CONTROLLER_FW.state, this.state);
    words.set(CONTROLLER_FW.failure, this.failure);
    words.set(CONTROLLER_FW.received, (this.received >>> 16) & 0xffff);
    words.set(CONTROLLER_FW.received + 1, this.received & 0xffff);
    versionWords(this.version).forEach((w, i) => words.set(CONTROLLER_FW.version + i, w));
    return Array.from({ length: count }, (_, i) => words.get(start + i) ?? 0);
  }

  write(start: number, values: number[]): void {
    if (start === CONTROLLER_FW.block) return this.block(values);
    for (const [i, value] of values.entries()) {
      const address = start + i;
      if (address === CONTROLLER_FW.command) this.command(value);
      else if (address >= CONTROLLER_FW.size && address < CONTROLLER_FW.size + 18)
        this.header[address - CONTROLLER_FW.size] = value & 0xffff;
      else throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
    }
  }

  close(): void {
    clearTimeout(this.installTimer);
  }

  private fail(reason: ControllerFwFailure): void {
    this.state = CONTROLLER_FW_STATE.failed;
    this.failure = CONTROLLER_FW_FAILURE[reason];
    this.image = null;
  }

  private command(value: number): void {
    if (this.state === CONTROLLER_FW_STATE.installing) throw new ModbusException(MODBUS_EXCEPTION.deviceBusy);
    if (value === CONTROLLER_FW_COMMAND.begin) {
      const size = this.header[0]! * 0x10000 + this.header[1]!;
      this.failure = CONTROLLER_FW_FAILURE.none;
      this.received = 0;
      this.nextBlock = 0;
      if (size < 1 || size > CONTROLLER_FW_MAX_BYTES) return this.fail('tooLarge');
      this.image = new Uint8Array(size);
      this.state = CONTROLLER_FW_STATE.receiving;
    } else if (value === CONTROLLER_FW_COMMAND.commit) {
      if (this.state !== CONTROLLER_FW_STATE.receiving || !this.image) return this.fail('outOfOrder');
      if (this.received !== this.image.length) return this.fail('incomplete');
      const digest = createHash('sha256').update(this.image).digest();
      const expected = Buffer.alloc(32);
      this.header.slice(2).forEach((w, i) => expected.writeUInt16BE(w, i * 2));
      if (!digest.equals(expected)) return this.fail('hashMismatch');
      const named = readControllerImage(this.image);
      if (!named) return this.fail('badImage');
      if (named.model !== this.model) return this.fail('wrongModel');
      if (named.version.length > CONTROLLER_FW_VERSION_REGISTERS * 2) return this.fail('badImage');
      this.state = CONTROLLER_FW_STATE.installing;
      this.image = null;
      this.installTimer = setTimeout(() => {
        this.version = named.version;
        this.state = CONTROLLER_FW_STATE.updated;
        this.installs++;
      }, this.installMs);
      this.installTimer.unref();
    } else if (value === CONTROLLER_FW_COMMAND.abort) {
      this.state = CONTROLLER_FW_STATE.idle;
      this.image = null;
    } else throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
  }

  private block(values: number[]): void {
    const [index, count] = [values[0] ?? -1, values[1] ?? -1];
    if (this.state !== CONTROLLER_FW_STATE.receiving || !this.image)
      throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
    // the block before again: its answer was lost on the way, the module sends it once more
    if (index === this.nextBlock - 1 && count === this.lastBlockBytes) return;
    if (
      index !== this.nextBlock ||
      count < 1 ||
      count > CONTROLLER_FW_BLOCK_BYTES ||
      values.length !== 2 + Math.ceil(count / 2) ||
      this.received + count > this.image.length
    ) {
      this.fail('outOfOrder');
      throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
    }
    this.image.set(blockBytes(values.slice(2), count), this.received);
    this.received += count;
    this.lastBlockBytes = count;
    this.nextBlock++;
  }
}
