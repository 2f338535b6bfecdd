// The module's MQTT connection: authenticates as its modem id, leaves a retained 'offline' last will,
// reconnects with jittered back-off, and counts the bytes that really cross the (cellular) link.
//
// Each connection is a fresh mqtt.js client with its own reconnect turned off (reconnectPeriod 0): mqtt.js
// would otherwise replay its in-memory unacknowledged publishes on reconnect, ahead of and on top of the
// outbox's own in-order resend, so the cloud would see data out of order and twice.
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { Backoff } from './backoff.ts';
import { errorText, type GatewayLogger } from './logger.ts';

export interface BrokerConnectionOptions {
  url: string;
  clientId: string;
  username: string;
  password: string;
  will: { topic: string; payload: string };
  keepaliveS: number;
  reconnect: { minMs: number; maxMs: number };
  logger: GatewayLogger;
  /** Called on every (re)connection, before anything else is sent on it. */
  onConnect: () => void;
  onDisconnect: () => void;
  onMessage: (topic: string, payload: Buffer) => void;
  /** Why the module cannot connect now (a firmware that cannot bring its link up), or undefined when it can. */
  cannotConnect?: () => string | undefined;
}

export class BrokerConnection {
  private client: MqttClient | undefined;
  private up = false;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private nextDelayMs: number | undefined;
  private rxDone = 0;
  private txDone = 0;
  private successfulConnections = 0;
  private lastFailure: string | undefined;

  constructor(private readonly options: BrokerConnectionOptions) {
    this.backoff = new Backoff(options.reconnect.minMs, options.reconnect.maxMs);
  }

  get connected(): boolean {
    return this.up && this.client?.connected === true;
  }

  /** How many times a connection was established. */
  get connections(): number {
    return this.successfulConnections;
  }

  start(): void {
    this.connectOnce();
  }

  /** Bytes received and sent on every connection so far, the current one included. */
  traffic(): { rxBytes: number; txBytes: number } {
    const socket = this.currentSocket();
    return { rxBytes: this.rxDone + (socket?.bytesRead ?? 0), txBytes: this.txDone + (socket?.bytesWritten ?? 0) };
  }

  /** QoS 1 publish; resolves on the broker's PUBACK, rejects when there is no connection or it drops first. */
  async publish(topic: string, payload: string, retain = false): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) throw new Error('not connected to the broker');
    await client.publishAsync(topic, payload, { qos: 1, retain });
  }

  async subscribe(topics: string[]): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) throw new Error('not connected to the broker');
    const granted = await client.subscribeAsync(topics, { qos: 1 });
    const refused = granted.filter((grant) => grant.qos === 128).map((grant) => grant.topic);
    if (refused.length > 0) throw new Error(`broker refused subscription to ${refused.join(', ')}`);
  }

  /** Ends the current connection cleanly and connects again at once (after `beforeDrop`, if connected). */
  async reconnectNow(beforeDrop?: () => Promise<void>): Promise<void> {
    const client = this.client;
    if (this.closing) return;
    if (!client) {
      // between attempts: the next one goes at once
      if (this.reconnectTimer) {
        clearTimeout(this.reconnectTimer);
        this.reconnectTimer = undefined;
        this.connectOnce();
      }
      return;
    }
    if (this.connected && beforeDrop) await beforeDrop().catch(() => undefined);
    this.nextDelayMs = 0;
    if (this.up) {
      await endGracefully(client);
    } else if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.connectOnce();
    }
  }

  /** Disconnects for good; a clean DISCONNECT, so the broker does not publish the will. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    if (client) await endGracefully(client);
  }

  private currentSocket(): net.Socket | undefined {
    const stream: unknown = this.client?.stream;
    return stream instanceof net.Socket ? stream : undefined;
  }

  private connectOnce(): void {
    const { url, clientId, username, password, will, keepaliveS, logger } = this.options;
    const refusal = this.options.cannotConnect?.();
    if (refusal) {
      // the module's own firmware cannot bring the link up: it tries again later, as after a failed attempt
      if (refusal !== this.lastFailure) logger.warn(`broker ${url}: ${refusal}`);
      this.lastFailure = refusal;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        if (!this.closing) this.connectOnce();
      }, this.backoff.next());
      return;
    }
    const client = mqtt.connect(url, {
      clientId,
      username,
      password,
      clean: true,
      protocolVersion: 4,
      keepalive: keepaliveS,
      connectTimeout: 15_000,
      reconnectPeriod: 0,
      resubscribe: false,
      will: { topic: will.topic, payload: Buffer.from(will.payload), qos: 1, retain: true },
    });
    this.client = client;
    let ended = false;

    client.on('connect', () => {
      this.up = true;
      this.successfulConnections += 1;
      this.backoff.reset();
      if (this.lastFailure) logger.info(`broker ${url}: connected again`);
      else logger.info(`broker ${url}: connected`);
      this.lastFailure = undefined;
      this.options.onConnect();
    });
    client.on('message', (topic, payload) => this.options.onMessage(topic, payload));
    client.on('error', (error) => {
      const failure = errorText(error);
      if (failure !== this.lastFailure) logger.warn(`broker ${url}: ${failure}`);
      this.lastFailure = failure;
    });
    client.on('close', () => {
      if (ended) return;
      ended = true;
      const socket = this.currentSocket();
      this.rxDone += socket?.bytesRead ?? 0;
      this.txDone += socket?.bytesWritten ?? 0;
      const wasUp = this.up;
      this.up = false;
      this.client = undefined;
      // Forced end with reconnect off fails every publish still waiting for a PUBACK; the outbox resends them.
      client.end(true);
      if (wasUp) {
        logger.warn(`broker ${url}: connection lost`);
        this.options.onDisconnect();
      }
      if (this.closing) return;
      const delay = this.nextDelayMs ?? this.backoff.next();
      this.nextDelayMs = undefined;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        if (!this.closing) this.connectOnce();
      }, delay);
    });
  }
}

/**
 * A clean DISCONNECT (no will) once the publishes in flight are acknowledged; forced after a short grace,
 * since mqtt.js would otherwise wait for PUBACKs from a broker that may be gone.
 */
async function endGracefully(client: MqttClient, graceMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([client.endAsync(false).catch(() => undefined), grace]);
  clearTimeout(timer);
  await client.endAsync(true).catch(() => undefined);
}
