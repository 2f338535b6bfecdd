// Many connected modules at once, in a process of their own (started by bench/ingest.ts over IPC):
// connects every module listed in $BENCH_CONN_FILE to the broker on $BENCH_BROKER_PORT (authenticated,
// with a last will, subscribed to its `ack`), then on request has each publish one snapshot at a random
// moment within each of $BENCH_CONN_ROUNDS periods of $BENCH_CONN_PERIOD_S seconds (modules on a slow
// timer), then disconnects all on request.
import { readFileSync } from 'node:fs';
import type { MqttClient } from 'mqtt';
import { modemTopic } from '@genset/protocol';
import { connectClient } from './lib/modules.ts';
import { blockVariants, dataMessage } from './lib/payload.ts';
import { summary } from './lib/stats.ts';

export type ConnMessage =
  | { type: 'connected'; ok: number; failed: number; ms: number; firstError: string | null }
  | { type: 'progress'; published: number; acked: number; round: number }
  | { type: 'published'; published: number; acked: number; ackP50: number; ackP99: number; ms: number }
  | { type: 'closed' };
export type ConnCommand = { type: 'publish' } | { type: 'close' };

const port = Number(process.env.BENCH_BROKER_PORT);
const list = JSON.parse(readFileSync(process.env.BENCH_CONN_FILE ?? '', 'utf8')) as { key: string; secret: string }[];
const concurrency = Number(process.env.BENCH_CONN_CONCURRENCY ?? 100);
const periodMs = Number(process.env.BENCH_CONN_PERIOD_S ?? 60) * 1000;
const rounds = Number(process.env.BENCH_CONN_ROUNDS ?? 1);
const variants = blockVariants(4242, 16);

const send = (m: ConnMessage) => process.send?.(m);
const clients: { key: string; client: MqttClient }[] = [];
let failed = 0;
let firstError: string | null = null;
let acked = 0;
const publishedAt = new Map<string, number>();
const ackLatency: number[] = [];

async function connectAll() {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const m = list[next++]!;
      try {
        const client = await connectClient(port, m.key, m.secret, true);
        const ackTopic = modemTopic(m.key, 'ack');
        client.on('message', (topic) => {
          if (topic !== ackTopic) return;
          const at = publishedAt.get(m.key);
          if (at === undefined) return;
          publishedAt.delete(m.key);
          ackLatency.push(performance.now() - at);
          acked++;
        });
        await client.subscribeAsync(ackTopic, { qos: 1 });
        clients.push({ key: m.key, client });
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  send({ type: 'connected', ok: clients.length, failed, ms: performance.now() - t0, firstError });
}

/** Each module publishes once per period, at its own random moment, for `rounds` periods. */
async function publishRounds() {
  const t0 = performance.now();
  let published = 0;
  let round = 0;
  const progress = setInterval(() => send({ type: 'progress', published, acked, round }), 5000);
  for (round = 1; round <= rounds; round++) {
    const start = performance.now();
    await new Promise<void>((resolve) => {
      let pending = clients.length;
      if (pending === 0) resolve();
      for (const [i, { key, client }] of clients.entries()) {
        const seq = round;
        setTimeout(() => {
          publishedAt.set(key, performance.now());
          const payload = dataMessage(seq, Date.now(), variants[(i + seq) % variants.length]!);
          client.publish(modemTopic(key, 'data'), payload, { qos: 1 });
          published++;
          if (--pending === 0) resolve();
        }, Math.random() * periodMs);
      }
    });
    // The next period starts when this one ends (each module keeps its own rhythm).
    const rest = periodMs - (performance.now() - start);
    if (rest > 0 && round < rounds) await new Promise((r) => setTimeout(r, rest));
  }
  // Every ack should follow within a moment; give up after 60 s.
  const deadline = Date.now() + 60_000;
  while (acked < published && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clearInterval(progress);
  const s = summary(ackLatency);
  send({ type: 'published', published, acked, ackP50: s.p50, ackP99: s.p99, ms: performance.now() - t0 });
}

async function closeAll() {
  for (let i = 0; i < clients.length; i += 500) {
    await Promise.all(clients.slice(i, i + 500).map(({ client }) => client.endAsync().catch(() => undefined)));
  }
  send({ type: 'closed' });
  setTimeout(() => process.exit(0), 100);
}

process.on('message', (m: ConnCommand) => {
  if (m.type === 'publish') void publishRounds();
  if (m.type === 'close') void closeAll();
});
process.on('disconnect', () => process.exit(0));
void connectAll();
