// A Modbus TCP server (jsmodbus over net.Server) that hosts one or many simulated controllers, told apart by
// unit id, as a serial-to-Ethernet gateway in front of an RS-485 bus would.
import { createServer, type Server, type Socket } from 'node:net';
import * as Modbus from 'jsmodbus';
import { MODBUS_EXCEPTION, ModbusException, type ModbusExceptionCode } from './register-bank.ts';

/** What a hosted controller answers; failures are thrown as ModbusException. */
export interface ModbusUnit {
  readBits(fc: 1 | 2, start: number, count: number): boolean[];
  readRegisters(fc: 3 | 4, start: number, count: number): number[];
  /** fc 5 (one value) and fc 15. */
  writeCoils(start: number, values: boolean[]): void;
  /** fc 6 (one value) and fc 16. */
  writeRegisters(start: number, values: number[], fc: 6 | 16): void;
}

export interface ModbusHostOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  host?: string;
}

type Request = Modbus.ModbusTCPRequest;
type Reply = (payload: Buffer) => void;

function exceptionPdu(fc: number, code: ModbusExceptionCode): Buffer {
  return Buffer.from([(fc | 0x80) & 0xff, code]);
}

function bitsPdu(fc: number, bits: readonly boolean[]): Buffer {
  const byteCount = Math.ceil(bits.length / 8);
  const pdu = Buffer.alloc(2 + byteCount);
  pdu[0] = fc;
  pdu[1] = byteCount;
  bits.forEach((bit, i) => {
    if (bit) pdu[2 + (i >> 3)]! |= 1 << (i & 7);
  });
  return pdu;
}

function wordsPdu(fc: number, words: readonly number[]): Buffer {
  const pdu = Buffer.alloc(2 + words.length * 2);
  pdu[0] = fc;
  pdu[1] = words.length * 2;
  words.forEach((word, i) => pdu.writeUInt16BE(word & 0xffff, 2 + i * 2));
  return pdu;
}

function echoPdu(fc: number, address: number, value: number): Buffer {
  const pdu = Buffer.alloc(5);
  pdu[0] = fc;
  pdu.writeUInt16BE(address, 1);
  pdu.writeUInt16BE(value, 3);
  return pdu;
}

function checkCount(count: number, max: number): void {
  if (count < 1 || count > max) throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
}

export class ModbusTcpHost {
  private readonly units = new Map<number, ModbusUnit>();
  private readonly sockets = new Set<Socket>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {}

  static async listen(options: ModbusHostOptions = {}): Promise<ModbusTcpHost> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
    const modbusHost = new ModbusTcpHost(server, host, port);
    modbusHost.serve();
    return modbusHost;
  }

  attach(unitId: number, unit: ModbusUnit): void {
    if (!Number.isInteger(unitId) || unitId < 1 || unitId > 247) throw new Error(`unit id ${unitId} is not 1…247`);
    if (this.units.has(unitId)) throw new Error(`unit id ${unitId} is already taken on port ${this.port}`);
    this.units.set(unitId, unit);
  }

  detach(unitId: number): void {
    this.units.delete(unitId);
  }

  get unitIds(): number[] {
    return [...this.units.keys()].sort((a, b) => a - b);
  }

  /** Unit 0 and 255 mean "whoever is there" to many TCP clients; honour that when there is only one. */
  private route(unitId: number): ModbusUnit | undefined {
    const unit = this.units.get(unitId);
    if (unit) return unit;
    if ((unitId === 0 || unitId === 255) && this.units.size === 1) return this.units.values().next().value;
    return undefined;
  }

  private serve(): void {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      // jsmodbus does not listen for socket errors; a client resetting the connection must not crash us.
      socket.on('error', () => socket.destroy());
      socket.on('close', () => this.sockets.delete(socket));
    });
    // Without buffers jsmodbus hands every request to these events, so each unit id can have its own image.
    const modbus = new Modbus.server.TCP(this.server, {
      coils: undefined,
      discrete: undefined,
      holding: undefined,
      input: undefined,
    });
    const { requests } = Modbus;
    const on = (event: string, fc: number, answer: (unit: ModbusUnit, request: Request) => Buffer) => {
      modbus.on(event as 'readCoils', (request, reply: Reply) => this.answer(request as Request, fc, reply, answer));
    };

    on('readCoils', 1, (unit, { body }) => {
      if (!requests.isReadCoilsRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      checkCount(body.count, 2000);
      return bitsPdu(1, unit.readBits(1, body.start, body.count));
    });
    on('readDiscreteInputs', 2, (unit, { body }) => {
      if (!requests.isReadDiscreteInputsRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      checkCount(body.count, 2000);
      return bitsPdu(2, unit.readBits(2, body.start, body.count));
    });
    on('readHoldingRegisters', 3, (unit, { body }) => {
      if (!requests.isReadHoldingRegistersRequestBody(body))
        throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      checkCount(body.count, 125);
      return wordsPdu(3, unit.readRegisters(3, body.start, body.count));
    });
    on('readInputRegisters', 4, (unit, { body }) => {
      if (!requests.isReadInputRegistersRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      checkCount(body.count, 125);
      return wordsPdu(4, unit.readRegisters(4, body.start, body.count));
    });
    on('writeSingleCoil', 5, (unit, { body }) => {
      if (!requests.isWriteSingleCoilRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      // jsmodbus parses the value as a boolean although its type says 0 | 0xFF00.
      const pressed = Boolean(body.value);
      unit.writeCoils(body.address, [pressed]);
      return echoPdu(5, body.address, pressed ? 0xff00 : 0);
    });
    on('writeMultipleCoils', 15, (unit, { body }) => {
      if (!requests.isWriteMultipleCoilsRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      const values = body.valuesAsArray.slice(0, body.quantity).map(Boolean);
      unit.writeCoils(body.address, values);
      return echoPdu(15, body.address, values.length);
    });
    on('writeSingleRegister', 6, (unit, { body }) => {
      if (!requests.isWriteSingleRegisterRequestBody(body)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      unit.writeRegisters(body.address, [body.value], 6);
      return echoPdu(6, body.address, body.value);
    });
    on('writeMultipleRegisters', 16, (unit, { body }) => {
      if (!requests.isWriteMultipleRegistersRequestBody(body))
        throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      const values = [...body.valuesAsArray];
      checkCount(values.length, 123);
      unit.writeRegisters(body.address, values, 16);
      return echoPdu(16, body.address, values.length);
    });
  }

  private answer(request: Request, fc: number, reply: Reply, handler: (unit: ModbusUnit, request: Request) => Buffer) {
    let pdu: Buffer;
    const unit = this.route(request.unitId);
    if (!unit) {
      pdu = exceptionPdu(fc, MODBUS_EXCEPTION.gatewayTargetFailed);
    } else {
      try {
        pdu = handler(unit, request);
      } catch (error) {
        pdu = exceptionPdu(fc, error instanceof ModbusException ? error.code : MODBUS_EXCEPTION.deviceFailure);
      }
    }
    const frame = Buffer.alloc(7 + pdu.length);
    frame.writeUInt16BE(request.id, 0);
    frame.writeUInt16BE(0, 2);
    frame.writeUInt16BE(pdu.length + 1, 4);
    frame.writeUInt8(request.unitId, 6);
    pdu.copy(frame, 7);
    reply(frame);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closing;
  }
}
