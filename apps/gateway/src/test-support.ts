// Real parts for the gateway's tests: an in-process Aedes broker with a recorder playing the cloud, and a plain
// Modbus TCP controller (jsmodbus server over a register buffer), both on free local ports.
import net from 'node:net';
import { Aedes, type AedesPublishPacket } from 'aedes';
import Modbus from 'jsmodbus';
import { modemTopic, parseModemPayload, type ModemChannel, type ModemMessage } from '@genset/protocol';

export interface Received<C extends ModemChannel> {
  message: ModemMessage<C>;
  retain: boolean;
  at: number;
}

/** An Aedes broker on a local port; `secrets` maps modem ids to the password they must present. */
export class TestBroker {
  private constructor(
    readonly broker: Aedes,
    private readonly server: net.Server,
    private readonly sockets: Set<net.Socket>,
  ) {}

  /** `prepare` runs before the broker listens, so recorders miss nothing a quick client sends. */
  static async start(
    secrets: Record<string, string>,
    port = 0,
    prepare?: (broker: TestBroker) => Promise<unknown>,
  ): Promise<TestBroker> {
    const broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) => {
        const expected = username === undefined ? undefined : secrets[username];
        done(null, expected === undefined || password?.toString() === expected);
      },
    });
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // a client cut off (killClient, the broker closing) may reset its socket: that is the test's doing, not an error
      socket.on('error', () => {});
      broker.handle(socket);
    });
    const testBroker = new TestBroker(broker, server, sockets);
    await prepare?.(testBroker);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return testBroker;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  /** Drops the connection of one client the hard way (no DISCONNECT), as a dying module would. */
  killClient(clientId: string): void {
    const client = (this.broker as unknown as { clients: Record<string, { conn: net.Socket }> }).clients[clientId];
    if (!client) throw new Error(`no client ${clientId}`);
    client.conn.destroy();
  }

  /** Records every message of `channel` from `modemId`, as the cloud would receive it. */
  async record<C extends ModemChannel>(modemId: string, channel: C): Promise<Recorder<C>> {
    const recorder = new Recorder<C>(channel);
    await new Promise<void>((resolve) =>
      this.broker.subscribe(modemTopic(modemId, channel), (packet, done) => recorder.take(packet, done), resolve),
    );
    return recorder;
  }

  publish(topic: string, payload: string, retain = false): Promise<void> {
    return new Promise((resolve, reject) =>
      this.broker.publish(
        { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain, dup: false },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }

  /** Stops the broker at once: every connection cut, nothing retained survives. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
  }
}

export class Recorder<C extends ModemChannel> {
  readonly received: Received<C>[] = [];
  /** Why each refused payload was refused; a module must never send one. */
  readonly malformed: string[] = [];
  /** Called for each message; the cloud's reaction (an ack, say). */
  onMessage: ((message: ModemMessage<C>) => void) | undefined;

  constructor(private readonly channel: C) {}

  take(packet: AedesPublishPacket, done: () => void): void {
    const parsed = parseModemPayload(this.channel, packet.payload as Buffer);
    if (!parsed.ok) {
      this.malformed.push(parsed.error);
      return done();
    }
    this.received.push({ message: parsed.message, retain: packet.retain, at: Date.now() });
    this.onMessage?.(parsed.message);
    done();
  }

  get messages(): ModemMessage<C>[] {
    return this.received.map((entry) => entry.message);
  }

  clear(): void {
    this.received.length = 0;
  }
}

/** A Modbus TCP controller with 200 holding registers and 64 coils, answering any unit id. */
export class TestController {
  private constructor(
    private readonly server: net.Server,
    private readonly sockets: Set<net.Socket>,
    readonly holding: Buffer,
    readonly coils: Buffer,
    readonly port: number,
  ) {}

  static async start(port = 0, holding = Buffer.alloc(400), coils = Buffer.alloc(8)): Promise<TestController> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer();
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // a client cut off (killClient, the broker closing) may reset its socket: that is the test's doing, not an error
      socket.on('error', () => {});
    });
    new Modbus.server.TCP(server, { holding, coils });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return new TestController(server, sockets, holding, coils, (server.address() as net.AddressInfo).port);
  }

  setRegister(address: number, value: number): void {
    this.holding.writeUInt16BE(value, address * 2);
  }

  register(address: number): number {
    return this.holding.readUInt16BE(address * 2);
  }

  coil(address: number): boolean {
    return ((this.coils[address >> 3]! >> (address & 7)) & 1) === 1;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A TCP peer that accepts connections and never answers: a controller that has hung. */
export async function startSilentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A local port nobody listens on. */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function waitFor<T>(
  probe: () => T | undefined | false,
  what: string,
  timeoutMs = 5000,
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
