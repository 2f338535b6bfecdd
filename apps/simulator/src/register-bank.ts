// The register image of one simulated controller, laid out by its protocol document: engineering values are
// encoded into coils, inputs and registers with the same field codec the server decodes with.
import {
  configParamField,
  encodeFieldValue,
  fieldSpan,
  isBitFunctionCode,
  placeBitField,
  type ProtocolDocument,
  type ReadFunctionCode,
  type RegisterField,
} from '@genset/protocol';

/** Modbus exception codes the simulator answers with. */
export const MODBUS_EXCEPTION = {
  illegalFunction: 1,
  illegalDataAddress: 2,
  illegalDataValue: 3,
  deviceFailure: 4,
  deviceBusy: 6,
  gatewayTargetFailed: 11,
} as const;
export type ModbusExceptionCode = (typeof MODBUS_EXCEPTION)[keyof typeof MODBUS_EXCEPTION];

export class ModbusException extends Error {
  constructor(readonly code: ModbusExceptionCode) {
    super(`Modbus exception ${code}`);
  }
}

type Writer = (values: Readonly<Record<string, number | null | undefined>>) => void;

export class RegisterBank {
  private readonly bits = new Map<1 | 2, Uint8Array>();
  private readonly words = new Map<3 | 4, Uint16Array>();
  private readonly writers: Writer[] = [];

  constructor(doc: ProtocolDocument) {
    // Each table spans up to the last address the document uses; reads beyond it are illegal addresses,
    // reads of gaps inside it return zeros (as a real map's reserved registers do).
    const ends = new Map<ReadFunctionCode, number>();
    const reach = (fc: ReadFunctionCode, end: number) => ends.set(fc, Math.max(ends.get(fc) ?? 0, end));
    for (const item of doc.items)
      reach(item.fc, item.address + (isBitFunctionCode(item.fc) ? 1 : fieldSpan(item.type)));
    for (const param of doc.configParams) reach(3, param.address + fieldSpan(param.type));
    for (const command of doc.commands) {
      for (const write of command.writes) {
        if (write.fc === 5) reach(1, write.address + 1);
        else reach(3, write.address + (write.fc === 6 ? 1 : 'key' in write ? 2 : write.values.length));
      }
    }
    for (const [fc, end] of ends) {
      if (fc === 1 || fc === 2) this.bits.set(fc, new Uint8Array(end));
      else this.words.set(fc, new Uint16Array(end));
    }

    for (const item of doc.items) this.writers.push(this.writerFor(item.key, item));
    for (const param of doc.configParams) this.writers.push(this.writerFor(param.key, configParamField(param)));
  }

  private writerFor(key: string, field: RegisterField): Writer {
    if (isBitFunctionCode(field.fc)) {
      const table = this.bits.get(field.fc as 1 | 2)!;
      return (values) => {
        table[field.address] = values[key] ? 1 : 0;
      };
    }
    const table = this.words.get(field.fc as 3 | 4)!;
    if (field.type === 'bit') {
      const mask = 1 << (field.bit ?? 0);
      return (values) => {
        table[field.address] = values[key] ? table[field.address]! | mask : table[field.address]! & ~mask;
      };
    }
    const { bits } = field;
    if (bits) {
      // A parameter at bits of a register shares the word with others: only its own bits change.
      return (values) => {
        const [pattern] = encodeFieldValue(field, values[key]);
        table[field.address] = placeBitField(table[field.address]!, bits, pattern!);
      };
    }
    return (values) => {
      const encoded = encodeFieldValue(field, values[key]);
      table.set(encoded, field.address);
    };
  }

  /** Writes every item and configuration parameter from engineering values. */
  encode(values: Readonly<Record<string, number | null | undefined>>): void {
    for (const write of this.writers) write(values);
  }

  readBits(fc: 1 | 2, start: number, count: number): boolean[] {
    const table = this.bits.get(fc);
    if (!table || count < 1 || start + count > table.length)
      throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
    return Array.from(table.subarray(start, start + count), (bit) => bit === 1);
  }

  readWords(fc: 3 | 4, start: number, count: number): number[] {
    const table = this.words.get(fc);
    if (!table || count < 1 || start + count > table.length)
      throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
    return Array.from(table.subarray(start, start + count));
  }

  /** The holding registers as they would be after a write, without changing them (to check before accepting). */
  holdingWith(start: number, values: readonly number[], from: number, count: number): number[] {
    const current = this.readWords(3, from, count);
    values.forEach((value, i) => {
      const at = start + i - from;
      if (at >= 0 && at < count) current[at] = value;
    });
    return current;
  }

  hasHolding(address: number, count: number): boolean {
    const table = this.words.get(3);
    return !!table && address + count <= table.length;
  }
}
