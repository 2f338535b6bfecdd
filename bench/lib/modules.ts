// Raw MQTT clients in the place of cloud modules: each publishes pre-encoded `data` snapshots (QoS 1) with
// its own rising `seq` and the publish time as `ts`, and records when each seq was confirmed: by the
// server's `ack {upTo}` (after commit), or, against a plain broker, by its delivery to a subscriber.
import mqtt, { type MqttClient } from 'mqtt';
import { modemTopic } from '@genset/protocol';
import { blockVariants, dataMessage } from './payload.ts';
import { sleep, waitUntil } from './stats.ts';

const VARIANTS = 16;

export class BenchModule {
  readonly dataTopic: string;
  seq = 0;
  confirmed = 0;
  private readonly variants: string[];
  private pendSeq: number[] = [];
  private pendAt: number[] = [];
  private head = 0;
  /** Publish-to-confirmation times (ms) of the running phase. */
  latencies: number[] = [];
  lastConfirmAt = 0;
  onConfirm: (() => void) | null = null;

  constructor(
    readonly key: string,
    readonly client: MqttClient,
    index: number,
  ) {
    this.dataTopic = modemTopic(key, 'data');
    this.variants = blockVariants(index + 1, VARIANTS);
  }

  get inFlight() {
    return this.seq - this.confirmed;
  }

  /** Publishes the next seq; `ts` is when it was read (now, or a moment of the module's backlog). */
  send(ts = Date.now()) {
    const seq = ++this.seq;
    this.pendSeq.push(seq);
    this.pendAt.push(performance.now());
    this.client.publish(this.dataTopic, dataMessage(seq, ts, this.variants[seq % VARIANTS]!), { qos: 1 });
  }

  confirm(upTo: number) {
    if (upTo <= this.confirmed) return;
    this.confirmed = upTo;
    const now = performance.now();
    this.lastConfirmAt = now;
    while (this.head < this.pendSeq.length && this.pendSeq[this.head]! <= upTo) {
      this.latencies.push(now - this.pendAt[this.head]!);
      this.head++;
    }
    if (this.head > 4096) {
      this.pendSeq = this.pendSeq.slice(this.head);
      this.pendAt = this.pendAt.slice(this.head);
      this.head = 0;
    }
    this.onConfirm?.();
  }
}

export async function connectClient(port: number, key: string, secret: string, will: boolean): Promise<MqttClient> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    clientId: key,
    username: key,
    password: secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 30_000,
    keepalive: 60,
    ...(will
      ? { will: { topic: modemTopic(key, 'state'), payload: Buffer.from('offline'), qos: 1, retain: true } }
      : {}),
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
    client.once('close', () => reject(new Error(`${key}: connection closed before CONNACK`)));
  });
  client.on('error', () => undefined);
  return client;
}

/** Connects the modules to the server's broker; each listens to its own `ack`. */
export async function connectServerModules(port: number, list: { key: string; secret: string }[]) {
  const modules: BenchModule[] = [];
  for (const [i, m] of list.entries()) {
    const client = await connectClient(port, m.key, m.secret, true);
    const module = new BenchModule(m.key, client, i);
    const ackTopic = modemTopic(m.key, 'ack');
    client.on('message', (topic, payload) => {
      if (topic !== ackTopic) return;
      const upTo = (JSON.parse(payload.toString()) as { upTo: number }).upTo;
      module.confirm(upTo);
    });
    await client.subscribeAsync(ackTopic, { qos: 1 });
    modules.push(module);
  }
  return modules;
}

export interface PhaseResult {
  target: number | 'max';
  durationMs: number;
  sent: number;
  confirmed: number;
  /** Confirmed while snapshots were still being offered (the rate kept up under load). */
  confirmedWhileOffered: number;
  /** From the first publish to the last confirmation. */
  spanMs: number;
  /** From the last publish to the last confirmation (how long the backlog took to clear). */
  drainMs: number;
  drained: boolean;
  latency: number[];
}

/**
 * Offers snapshots for `durationMs`: at `rate` per second spread round-robin over the modules (open loop,
 * as modules on a timer do), or with `rate = 'max'` as fast as confirmations allow, each module keeping at
 * most `window` snapshots unconfirmed (closed loop, as a module emptying its outbox does). Then waits up to
 * `drainTimeoutMs` for every snapshot to be confirmed.
 */
export async function runPhase(
  modules: BenchModule[],
  rate: number | 'max',
  durationMs: number,
  opts: { window: number; drainTimeoutMs: number },
): Promise<PhaseResult> {
  const seqAtStart = modules.map((m) => m.seq);
  const confirmedAtStart = modules.map((m) => m.confirmed);
  for (const m of modules) m.latencies = [];
  const start = performance.now();
  let sending = true;
  if (rate === 'max') {
    for (const m of modules) {
      m.onConfirm = () => {
        while (sending && m.inFlight < opts.window) m.send();
      };
      m.onConfirm();
    }
    await sleep(durationMs);
    sending = false;
  } else {
    const total = Math.floor((rate * durationMs) / 1000);
    let sent = 0;
    let next = 0;
    while (sent < total) {
      const elapsed = performance.now() - start;
      if (elapsed > durationMs + 1000) break;
      const due = Math.min(total, Math.floor((rate * elapsed) / 1000)) - sent;
      for (let i = 0; i < due; i++) {
        modules[next]!.send();
        next = (next + 1) % modules.length;
      }
      sent += due;
      await sleep(1);
    }
  }
  const sendEnd = performance.now();
  const confirmedWhileOffered = modules.reduce((sum, m, i) => sum + m.confirmed - confirmedAtStart[i]!, 0);
  for (const m of modules) m.onConfirm = null;
  const drained = await waitUntil(() => modules.every((m) => m.confirmed === m.seq), opts.drainTimeoutMs, 5);
  const sent = modules.reduce((sum, m, i) => sum + m.seq - seqAtStart[i]!, 0);
  const confirmed = modules.reduce((sum, m, i) => sum + m.confirmed - confirmedAtStart[i]!, 0);
  const lastConfirm = Math.max(...modules.map((m) => m.lastConfirmAt));
  return {
    target: rate,
    durationMs: sendEnd - start,
    sent,
    confirmed,
    confirmedWhileOffered,
    spanMs: lastConfirm - start,
    drainMs: Math.max(0, lastConfirm - sendEnd),
    drained,
    latency: modules.flatMap((m) => m.latencies),
  };
}

export async function closeModules(modules: BenchModule[]) {
  await Promise.all(modules.map((m) => m.client.endAsync().catch(() => undefined)));
}
