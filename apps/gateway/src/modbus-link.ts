// One Modbus port of the module (a Modbus TCP connection or an RS-485 line) shared by the controllers on it:
// requests go one at a time, a broken connection is dropped and reopened, failed opens back off.
import net from 'node:net';
import Modbus, { type ModbusRTUClient, type ModbusTCPClient } from 'jsmodbus';
import type { SerialPort } from 'serialport';
import { coilIsOn, type ModemDataBlock, type ModemWrite, type MqttPollBlock } from '@genset/protocol';
import { Backoff } from './backoff.ts';
import { isTcpPort, type PortConfig } from './config.ts';
import { errorText, type GatewayLogger } from './logger.ts';

export interface ModbusLinkOptions {
  timeoutMs: number;
  reconnect: { minMs: number; maxMs: number };
  logger: GatewayLogger;
}

/** A failed Modbus request; `linkFailure` when the port itself is in doubt (no answer, connection gone). */
export class ModbusError extends Error {
  constructor(
    message: string,
    readonly linkFailure: boolean,
  ) {
    super(message);
    this.name = 'ModbusError';
  }
}

type JsModbusClient = ModbusTCPClient | ModbusRTUClient;

interface OpenConnection {
  clients: Map<number, JsModbusClient>;
  close(): void;
}

/** A live path to one controller: reads and writes that say plainly what went wrong. */
export class ControllerChannel {
  constructor(
    private readonly client: JsModbusClient,
    private readonly timeoutMs: number,
    private readonly onLinkFailure: (error: ModbusError) => void,
  ) {}

  async readBlock(block: MqttPollBlock): Promise<ModemDataBlock> {
    const { fc, start, count } = block;
    return this.call(async () => {
      if (fc === 1 || fc === 2) {
        const result =
          fc === 1 ? await this.client.readCoils(start, count) : await this.client.readDiscreteInputs(start, count);
        // The answer is padded to whole bytes; only the requested bits are the controller's.
        const bits = Array.from(result.response.body.valuesAsArray.slice(0, count), (bit) => Boolean(bit));
        return { fc, start, bits };
      }
      const result =
        fc === 3
          ? await this.client.readHoldingRegisters(start, count)
          : await this.client.readInputRegisters(start, count);
      return { fc, start, words: Array.from(result.response.body.valuesAsArray.slice(0, count)) };
    });
  }

  async write(write: ModemWrite): Promise<void> {
    await this.call(async () => {
      switch (write.fc) {
        case 5:
          await this.client.writeSingleCoil(write.address, coilIsOn(write.value));
          return;
        case 6:
          await this.client.writeSingleRegister(write.address, Number(write.value));
          return;
        case 15:
          await this.client.writeMultipleCoils(
            write.address,
            (write.values ?? []).map((value) => coilIsOn(value)),
          );
          return;
        case 16:
          await this.client.writeMultipleRegisters(write.address, (write.values ?? []).map(Number));
          return;
      }
    });
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (raw) {
      const error = describeModbusFailure(raw, this.timeoutMs);
      if (error.linkFailure) this.onLinkFailure(error);
      throw error;
    }
  }
}

/** jsmodbus rejects with plain `{err, message}` objects; turn them into errors a technician can read. */
export function describeModbusFailure(raw: unknown, timeoutMs: number): ModbusError {
  if (raw instanceof ModbusError) return raw;
  const kind = raw && typeof raw === 'object' && 'err' in raw ? String(raw.err) : undefined;
  switch (kind) {
    case 'Timeout':
      return new ModbusError(`no answer from the controller within ${timeoutMs} ms`, true);
    case 'Offline':
      return new ModbusError('connection to the controller closed', true);
    case 'ModbusException':
      return new ModbusError(`controller refused: ${errorText(raw)}`, false);
    case undefined:
      return new ModbusError(errorText(raw), true);
    default:
      return new ModbusError(`${kind}: ${errorText(raw)}`, true);
  }
}

export class ModbusLink {
  private connection: OpenConnection | undefined;
  private opening: Promise<OpenConnection> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly backoff: Backoff;
  private retryAt = 0;
  private lastFailure: string | undefined;
  private closed = false;
  private readonly units: number[];

  constructor(
    readonly name: string,
    private readonly config: PortConfig,
    private readonly options: ModbusLinkOptions,
  ) {
    this.backoff = new Backoff(options.reconnect.minMs, options.reconnect.maxMs);
    this.units = config.controllers.map((controller) => controller.address);
  }

  get description(): string {
    return isTcpPort(this.config) ? `${this.config.host}:${this.config.port}` : this.config.device;
  }

  hasController(address: number): boolean {
    return this.units.includes(address);
  }

  /**
   * Runs `job` against controller `address` once every earlier job on this port is done (a Modbus line
   * carries one request at a time). Fails at once, without touching the line, while a reopen is backing off.
   */
  run<T>(address: number, job: (channel: ControllerChannel) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      if (this.closed) throw new ModbusError(`port ${this.name} is closed`, true);
      const connection = await this.open();
      const client = connection.clients.get(address);
      if (!client) throw new ModbusError(`no controller at address ${address} on port ${this.name}`, false);
      return job(new ControllerChannel(client, this.options.timeoutMs, (error) => this.drop(connection, error)));
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Closes the current connection; the next job reopens it straight away. */
  reset(): void {
    if (this.connection) this.connection.close();
    this.connection = undefined;
    this.retryAt = 0;
    this.backoff.reset();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reset();
    await this.queue;
  }

  private drop(connection: OpenConnection, error: ModbusError): void {
    if (this.connection !== connection) return;
    // A late answer after a timeout would be taken for the next request's, so start over on a fresh connection.
    this.options.logger.warn(`modbus ${this.name} (${this.description}): ${error.message}; reconnecting`);
    connection.close();
    this.connection = undefined;
  }

  private async open(): Promise<OpenConnection> {
    if (this.connection) return this.connection;
    if (Date.now() < this.retryAt) {
      const seconds = Math.ceil((this.retryAt - Date.now()) / 1000);
      throw new ModbusError(`${this.lastFailure}; next attempt in ${seconds} s`, true);
    }
    this.opening ??= (isTcpPort(this.config) ? this.openTcp() : this.openSerial()).finally(() => {
      this.opening = undefined;
    });
    try {
      const connection = await this.opening;
      if (this.lastFailure) this.options.logger.info(`modbus ${this.name} (${this.description}): connected again`);
      this.connection = connection;
      this.lastFailure = undefined;
      this.backoff.reset();
      return connection;
    } catch (raw) {
      const failure = describeOpenFailure(raw, this.description);
      if (failure !== this.lastFailure) this.options.logger.warn(`modbus ${this.name}: ${failure}`);
      this.lastFailure = failure;
      this.retryAt = Date.now() + this.backoff.next();
      throw new ModbusError(failure, true);
    }
  }

  private openTcp(): Promise<OpenConnection> {
    if (!isTcpPort(this.config)) throw new Error('not a TCP port');
    const { host, port } = this.config;
    const socket = new net.Socket();
    // The clients must exist before 'connect': jsmodbus marks them online only on that event.
    const clients = new Map<number, JsModbusClient>(
      this.units.map((unit) => [unit, new Modbus.client.TCP(socket, unit, this.options.timeoutMs)]),
    );
    const connection: OpenConnection = { clients, close: () => socket.destroy() };
    socket.on('error', () => {}); // reported through 'close' and the failing requests
    socket.on('close', () => {
      if (this.connection === connection) this.connection = undefined;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.setNoDelay(true);
        socket.setKeepAlive(true, 10_000);
        resolve(connection);
      });
      socket.connect({ host, port });
    });
  }

  private async openSerial(): Promise<OpenConnection> {
    if (isTcpPort(this.config)) throw new Error('not a serial port');
    // Loaded only when a serial port is configured: it brings a native binding a TCP-only module never needs.
    const { SerialPort: SerialPortClass } = await import('serialport');
    const { device, baudRate, parity, dataBits, stopBits } = this.config;
    const serial: SerialPort = new SerialPortClass({
      path: device,
      baudRate,
      parity,
      dataBits,
      stopBits,
      autoOpen: false,
    });
    await new Promise<void>((resolve, reject) => serial.open((error) => (error ? reject(error) : resolve())));
    const clients = new Map<number, JsModbusClient>(
      this.units.map((unit) => [unit, new Modbus.client.RTU(serial, unit, this.options.timeoutMs)]),
    );
    // Every client on the line sees every frame; only the one with a request outstanding takes it, which is
    // why jobs on a port never overlap.
    const connection: OpenConnection = { clients, close: () => serial.isOpen && serial.close() };
    serial.on('error', () => {});
    serial.on('close', () => {
      if (this.connection === connection) this.connection = undefined;
    });
    return connection;
  }
}

function describeOpenFailure(raw: unknown, where: string): string {
  const code = raw && typeof raw === 'object' && 'code' in raw ? String(raw.code) : '';
  if (code === 'ECONNREFUSED') return `connection refused by ${where}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${where} unreachable`;
  if (code === 'ENOENT') return `${where} not found`;
  return `cannot open ${where}: ${errorText(raw)}`;
}
