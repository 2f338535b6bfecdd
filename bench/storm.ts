// Reconnect storm (`npm run bench:storm`; not a test). A thousand modules were cut off for a day: each holds
// a day of snapshots at its offline rate and comes back within one minute, sending its backlog in order with
// the cloud module's in-flight window (as apps/gateway does) and going on reading at its offline rate, while
// other modules' sets are watched live at the online rate. The real server program runs as a child process
// (embedded broker, a fresh SQLite file). Prints, with the command that made them:
//   - how long the backlog took to drain (last module back → every module acked up to its last seq);
//   - whether anything was lost or stored twice (rows in `sample` = snapshots sent; the highest seq stored
//     per module = the last one it sent; every module acked up to it);
//   - the MQTT-to-WebSocket push latency of the watched sets during the drain (p50/p99), and the server's
//     CPU and peak memory.
// Parameters (environment): BENCH_STORM_MODULES (1,000), BENCH_STORM_HOURS (24), BENCH_STORM_PERIOD_S (60, the
// offline rate), BENCH_STORM_CONNECT_S (60, the spread of the reconnects), BENCH_STORM_WINDOW (20, the
// module's in-flight window), BENCH_WATCHERS (20 watched sets, each reporting every second),
// BENCH_STORM_TIMEOUT_S (1,200).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { closeModules, connectClient, connectServerModules, type BenchModule } from './lib/modules.ts';
import { blockVariants, dataMessage } from './lib/payload.ts';
import { modemTopic } from '@genset/protocol';
import { watchProcess } from './lib/proc.ts';
import { ADMIN, openStore, seedModules, signIn, startServerChild } from './lib/server.ts';
import { fmt, intEnv, mib, sleep, summary, table, waitUntil } from './lib/stats.ts';
import { openWatchers } from './lib/ws.ts';

const P = {
  modules: intEnv('BENCH_STORM_MODULES', 1000, 1, 5000),
  hours: intEnv('BENCH_STORM_HOURS', 24, 1, 168),
  periodS: intEnv('BENCH_STORM_PERIOD_S', 60, 1, 3600),
  connectS: intEnv('BENCH_STORM_CONNECT_S', 60, 0, 600),
  window: intEnv('BENCH_STORM_WINDOW', 20, 1, 1000),
  watchers: intEnv('BENCH_WATCHERS', 20, 1, 200),
  timeoutS: intEnv('BENCH_STORM_TIMEOUT_S', 1200, 10, 7200),
};
const ENV_KEYS = [
  'BENCH_STORM_MODULES',
  'BENCH_STORM_HOURS',
  'BENCH_STORM_PERIOD_S',
  'BENCH_STORM_CONNECT_S',
  'BENCH_STORM_WINDOW',
  'BENCH_WATCHERS',
  'BENCH_STORM_TIMEOUT_S',
];
const SECRET = 'bench-secret-2026';
/** The drain target and the live push target of the benchmark. */
const TARGET = { drainMs: 10 * 60_000, pushP99Ms: 2000 };

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/**
 * A module back after its outage, as apps/gateway behaves: an outbox of its day of snapshots (one per period,
 * with the time each was read) and of what it reads from now on, sent in seq order with at most `window`
 * unacked; after a lost connection it connects again (backing off from 0.5 to 3 s) and sends again from the
 * last ack, so the server sees some snapshots twice and must store them once.
 */
class ReturningModule {
  readonly backlog: number;
  private readonly start: number;
  private readonly variants: string[];
  /** Read times of the snapshots read since the module came back (seq → ts). */
  private readonly readAt = new Map<number, number>();
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The highest seq read so far, sent so far (on this connection), and acked. */
  last: number;
  private cursor = 0;
  confirmed = 0;
  reconnects = 0;
  doneAt = 0;

  constructor(
    readonly key: string,
    private readonly secret: string,
    index: number,
    private readonly port: number,
    hours: number,
    private readonly periodMs: number,
    private readonly window: number,
  ) {
    this.backlog = Math.floor((hours * 3_600_000) / periodMs);
    this.last = this.backlog;
    this.start = Date.now() - this.backlog * periodMs;
    this.variants = blockVariants(index + 1, 16);
  }

  /** Reads on at its period and connects (again, until it is stopped). */
  async begin() {
    this.timer = setInterval(() => {
      this.last += 1;
      this.readAt.set(this.last, Date.now());
      this.pump();
    }, this.periodMs);
    await this.connect();
  }

  private async connect() {
    for (let delay = 500; !this.stopped; delay = Math.min(3000, delay * 2)) {
      try {
        const client = await connectClient(this.port, this.key, this.secret, true);
        const ackTopic = modemTopic(this.key, 'ack');
        client.on('message', (topic, payload) => {
          if (topic === ackTopic) this.confirm((JSON.parse(payload.toString()) as { upTo: number }).upTo);
        });
        client.on('close', () => {
          if (this.client !== client || this.stopped) return;
          this.client = null;
          this.reconnects += 1;
          void this.connect();
        });
        await client.subscribeAsync(ackTopic, { qos: 1 });
        this.client = client;
        this.cursor = this.confirmed; // what was not acked goes again
        this.pump();
        return;
      } catch {
        this.reconnects += 1;
        await sleep(delay);
      }
    }
  }

  private confirm(upTo: number) {
    if (upTo <= this.confirmed) return;
    this.confirmed = upTo;
    for (const seq of this.readAt.keys()) if (seq <= upTo) this.readAt.delete(seq);
    if (!this.doneAt && upTo >= this.backlog) this.doneAt = performance.now();
    this.pump();
  }

  private pump() {
    const client = this.client;
    if (!client) return;
    while (this.cursor < this.last && this.cursor - this.confirmed < this.window) {
      const seq = ++this.cursor;
      const ts = seq <= this.backlog ? this.start + (seq - 1) * this.periodMs : this.readAt.get(seq)!;
      client.publish(this.dataTopic, dataMessage(seq, ts, this.variants[seq % 16]!), { qos: 1 });
    }
  }

  private get dataTopic() {
    return modemTopic(this.key, 'data');
  }

  /** Stops reading; returns once what was read is acked (or `timeoutMs` passed). */
  async finish(timeoutMs: number): Promise<boolean> {
    if (this.timer) clearInterval(this.timer);
    const ok = await waitUntil(() => this.confirmed === this.last, timeoutMs, 50);
    this.stopped = true;
    return ok;
  }

  async close() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.client?.endAsync().catch(() => undefined);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-storm-'));
  const dbFile = join(dataDir, 'console.db');
  const command = [
    ...ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`),
    'npm run bench:storm',
  ].join(' ');
  log(`${command}`);
  log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${fmt(totalmem() / 2 ** 30)} GiB`);
  const seeded = await seedModules(
    dbFile,
    [
      { prefix: 'S', count: P.modules },
      { prefix: 'W', count: P.watchers },
    ],
    SECRET,
  );
  const server = await startServerChild(dataDir);
  log(`server pid ${server.pid} on ${server.url}, MQTT port ${server.mqttPort}`);
  const store = openStore(dbFile);
  const returning: ReturningModule[] = [];
  let live: BenchModule[] = [];
  let liveTimer: NodeJS.Timeout | null = null;
  try {
    // The watched sets report every second, as sets with an open realtime page do.
    live = await connectServerModules(server.mqttPort, seeded.W!);
    const sendLive = () => {
      for (const m of live) m.send();
    };
    sendLive();
    const utoken = await signIn(server.url, ADMIN.account, ADMIN.password);
    const watchers = await openWatchers(
      server.url,
      utoken,
      seeded.W!.map((m) => m.token),
    );
    liveTimer = setInterval(sendLive, 1000);
    await sleep(3000);
    watchers.startPhase();

    const periodMs = P.periodS * 1000;
    const backlogEach = Math.floor((P.hours * 3_600_000) / periodMs);
    log(
      `${fmt(P.modules)} modules come back within ${P.connectS} s, each with ${fmt(backlogEach)} snapshots ` +
        `(${P.hours} h at one per ${P.periodS} s): ${fmt(P.modules * backlogEach)} in all; window ${P.window}`,
    );
    const serverWatch = watchProcess(server.pid);
    const t0 = performance.now();
    const connecting: Promise<void>[] = [];
    for (const [i, s] of seeded.S!.entries()) {
      const at = P.modules > 1 ? (i / (P.modules - 1)) * P.connectS * 1000 : 0;
      const r = new ReturningModule(s.key, SECRET, i, server.mqttPort, P.hours, periodMs, P.window);
      returning.push(r);
      connecting.push(sleep(at).then(() => r.begin()));
    }
    await Promise.all(connecting);
    const allBackAt = performance.now();
    log(`all ${fmt(P.modules)} modules back after ${fmt((allBackAt - t0) / 1000, 1)} s; draining`);
    let lastReport = performance.now();
    const drained = await waitUntil(
      () => {
        if (performance.now() - lastReport > 30_000) {
          lastReport = performance.now();
          const left = returning.reduce((n, r) => n + Math.max(0, r.backlog - r.confirmed), 0);
          log(`  ${fmt(left)} backlog snapshots not yet acked`);
        }
        return returning.every((r) => r.doneAt > 0);
      },
      P.timeoutS * 1000,
      50,
    );
    const drainEnd = Math.max(...returning.map((r) => r.doneAt || performance.now()));
    const pushes = summary(watchers.take());
    const proc = serverWatch.stop();
    if (liveTimer) clearInterval(liveTimer);
    liveTimer = null;
    // the modules stop reading; what they read is acked
    const finished = await Promise.all(returning.map((r) => r.finish(120_000)));
    const settled =
      finished.every(Boolean) && (await waitUntil(() => live.every((m) => m.confirmed === m.seq), 60_000));
    await sleep(500);
    const sent = returning.reduce((n, r) => n + r.last, 0) + live.reduce((n, m) => n + m.seq, 0);
    const stored = await store.samples();
    const lastS = await store.lastSeqs('S');
    const lastW = await store.lastSeqs('W');
    const seqsOk = returning.every((r) => lastS.get(r.key) === r.last) && live.every((m) => lastW.get(m.key) === m.seq);
    const backlogSent = returning.reduce((n, r) => n + r.backlog, 0);
    const reconnects = returning.reduce((n, r) => n + r.reconnects, 0);
    const drainMs = drainEnd - t0;
    const fromLastBackMs = drainEnd - allBackAt;
    watchers.close();

    const rows = [
      ['modules back / window', `${fmt(P.modules)} / ${P.window}`, ''],
      [`backlog snapshots (${P.hours} h each)`, fmt(backlogSent), ''],
      ['drain: first back → all acked', `${fmt(drainMs / 1000, 1)} s`, `≤ ${TARGET.drainMs / 60_000} min`],
      ['drain: last back → all acked', `${fmt(fromLastBackMs / 1000, 1)} s`, ''],
      ['backlog stored per second', fmt(backlogSent / (drainMs / 1000)), ''],
      ['snapshots sent / stored (all modules)', `${fmt(sent)} / ${fmt(stored)}`, 'equal'],
      ['every module acked to its last seq', settled && seqsOk ? 'yes' : 'NO', 'yes'],
      ['connections lost or refused, tried again', fmt(reconnects), ''],
      [
        `WebSocket push p50 / p99 / max, ${P.watchers} watched sets (pushes)`,
        `${fmt(pushes.p50)} / ${fmt(pushes.p99)} / ${fmt(pushes.max)} ms (${fmt(pushes.n)})`,
        `p99 ≤ ${TARGET.pushP99Ms} ms`,
      ],
      ['server CPU / peak RSS', `${fmt(proc.cpuPercent)} % of a core / ${mib(proc.peakRssKb)}`, ''],
    ];
    console.log(`\n${table(['reconnect storm', 'figure', 'target'], rows)}\n`);
    const ok =
      drained &&
      settled &&
      seqsOk &&
      sent === stored &&
      drainMs <= TARGET.drainMs &&
      pushes.n > 0 &&
      pushes.p99 <= TARGET.pushP99Ms;
    log(`verdict: ${ok ? 'met' : 'NOT met'}  (${command})`);
    const warnings = server.logLines().filter((l) => /"level":(50|60)/.test(l));
    if (warnings.length) log(`server errors: ${warnings.length}, first: ${warnings[0]!.slice(0, 300)}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (liveTimer) clearInterval(liveTimer);
    await Promise.all(returning.map((r) => r.close()));
    await closeModules(live);
    await store.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
