// Ingestion benchmark (`npm run bench:ingest`; not a test). Runs the real server program as a child process
// on a fresh SQLite file with its embedded MQTT broker, drives it with raw MQTT clients in the place of
// cloud modules, and prints:
//   1. snapshots and data points stored per second at offered rates, with a check that nothing was lost
//      (rows in `sample` = messages sent, every module acked up to its last seq);
//   2. MQTT-to-WebSocket latency of `monitor` pushes to watchers of some sets;
//   3. the server's resident memory with many connected, mostly idle modules;
//   4. what a bare Aedes broker (no authentication, no ingestion) forwards with the same messages.
// Parameters (environment) are listed in BENCHMARKS.md.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MqttClient } from 'mqtt';
import type { ConnCommand, ConnMessage } from './connections.ts';
import {
  BenchModule,
  closeModules,
  connectClient,
  connectServerModules,
  runPhase,
  type PhaseResult,
} from './lib/modules.ts';
import { decodedValuesPerSnapshot, seqAndTs } from './lib/payload.ts';
import {
  freePort,
  openFileLimit,
  procSample,
  spawnNode,
  waitForPort,
  waitForQuiet,
  watchMachine,
  watchProcess,
  type Child,
} from './lib/proc.ts';
import { summariseProfile } from './lib/profile.ts';
import pg from 'pg';
import {
  ADMIN,
  openPgStore,
  openStore,
  seedModules,
  signIn,
  startClusterInstance,
  startServerChild,
  type SeededModule,
  type ServerChild,
  type Store,
} from './lib/server.ts';
import { MOSQUITTO_BIN, startMosquitto } from './lib/mosquitto.ts';
import { fmt, intEnv, mib, sleep, summary, table, waitUntil } from './lib/stats.ts';
import { openWatchers, type Watchers } from './lib/ws.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

const P = {
  modules: intEnv('BENCH_MODULES', 1000, 1, 5000),
  rates: (process.env.BENCH_RATES || '1000,1500,2500,5000,max').split(',').map((r): number | 'max' => {
    if (r.trim() === 'max') return 'max';
    const n = Number(r);
    if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new Error(`BENCH_RATES: bad rate ${r}`);
    return n;
  }),
  durationS: intEnv('BENCH_DURATION_S', 20, 1, 600),
  connections: intEnv('BENCH_CONNECTIONS', 10_000, 0, 19_000),
  watchers: intEnv('BENCH_WATCHERS', 20, 0, 1000),
  connPeriodS: intEnv('BENCH_CONN_PERIOD_S', 60, 1, 3600),
  connRounds: intEnv('BENCH_CONN_ROUNDS', 2, 1, 100),
  window: intEnv('BENCH_WINDOW', 50, 1, 10_000),
  quietWaitS: intEnv('BENCH_QUIET_WAIT_S', 60, 0, 3600),
  phases: new Set((process.env.BENCH_PHASES || 'ingest,broker,connections').split(',').map((s) => s.trim())),
  cpuProf: process.env.BENCH_CPU_PROF === '1',
  /** `embedded`: one server with its own broker on SQLite; `cluster`: PostgreSQL, Mosquitto, Redis, N instances. */
  setup: process.env.BENCH_SETUP === 'cluster' ? ('cluster' as const) : ('embedded' as const),
  instances: intEnv('BENCH_INSTANCES', 1, 1, 4),
  databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  keep: process.env.BENCH_KEEP_DATA === '1',
};
const ENV_KEYS = [
  'BENCH_MODULES',
  'BENCH_RATES',
  'BENCH_DURATION_S',
  'BENCH_CONNECTIONS',
  'BENCH_WATCHERS',
  'BENCH_CONN_PERIOD_S',
  'BENCH_CONN_ROUNDS',
  'BENCH_WINDOW',
  'BENCH_QUIET_WAIT_S',
  'BENCH_PHASES',
  'BENCH_CPU_PROF',
  'BENCH_KEEP_DATA',
  'BENCH_SETUP',
  'BENCH_INSTANCES',
  'BENCH_DATABASE_URL',
  'BENCH_REDIS_URL',
];
const SECRET = 'bench-secret-2026';
const DRAIN_TIMEOUT_MS = 60_000;
const FINAL_DRAIN_TIMEOUT_MS = 300_000;
const WARMUP = { rate: 500, ms: 3000 };
/** A rate counts as sustained when at least this share of it was offered, and acks kept up. */
const SUSTAINED = { offeredShare: 0.95, maxDrainMs: 1000, maxAckP99Ms: 1000 };

const rateLabel = (r: number | 'max') => (r === 'max' ? `max (window ${P.window}/module)` : `${fmt(r)}/s`);
const perSecond = (count: number, ms: number) => (ms > 0 ? count / (ms / 1000) : NaN);

function commandLine(): string {
  const set = ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  return [...set, 'npm run bench:ingest'].join(' ');
}

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** Before each measured phase: let the machine settle, and say so when other programs keep it busy. */
async function quietGate(): Promise<number> {
  const q = await waitForQuiet(P.quietWaitS * 1000);
  if (q.cores >= 0.35)
    log(`  machine still busy (${fmt(q.cores, 2)} cores in use by others) after ${fmt(q.waitedMs / 1000)} s`);
  else if (q.waitedMs > 3000) log(`  waited ${fmt(q.waitedMs / 1000)} s for the machine to be idle`);
  return q.cores;
}

interface Measured<T> {
  value: T;
  proc: ReturnType<ReturnType<typeof watchProcess>['stop']>;
  clientCpu: number;
  clientLoopP99: number;
  /** Cores kept busy meanwhile by programs other than the bench and the measured child. */
  otherCores: number;
}

/** Runs one phase while measuring a child of ours (CPU, peak RSS), this process and the whole machine. */
async function measured<T>(pids: number | number[], body: () => Promise<T>): Promise<Measured<T>> {
  const procs = (Array.isArray(pids) ? pids : [pids]).map((pid) => watchProcess(pid));
  const proc = {
    stop() {
      const all = procs.map((w) => w.stop());
      return {
        peakRssKb: all.reduce((sum, a) => sum + a.peakRssKb, 0),
        rssKb: all.reduce((sum, a) => sum + a.rssKb, 0),
        cpuPercent: all.reduce((sum, a) => sum + a.cpuPercent, 0),
      };
    },
  };
  const machine = watchMachine();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const value = await body();
  loop.disable();
  const cpu = process.cpuUsage(cpu0);
  const p = proc.stop();
  const clientCpu = ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100;
  return {
    value,
    proc: p,
    clientCpu,
    clientLoopP99: loop.percentile(99) / 1e6,
    otherCores: Math.max(0, machine.stop() - (p.cpuPercent + clientCpu) / 100),
  };
}

interface IngestRow extends Measured<PhaseResult> {
  /** Rows added to `sample` during the phase (read once every snapshot was acked, or the drain timed out). */
  stored: number;
  /** Every module acked its last seq, and the highest seq stored for it equals it. */
  acksOk: boolean;
  ws: ReturnType<typeof summary>;
}

function verdict(row: IngestRow): string {
  const r = row.value;
  if (!r.drained) return 'behind';
  if (r.sent !== row.stored || !row.acksOk) return 'LOSS';
  if (r.target === 'max') return 'capacity';
  const ack = summary(r.latency);
  const kept =
    perSecond(r.sent, r.durationMs) >= SUSTAINED.offeredShare * r.target &&
    r.drainMs <= SUSTAINED.maxDrainMs &&
    ack.p99 <= SUSTAINED.maxAckP99Ms;
  return kept ? 'sustained' : 'behind';
}

interface Setup {
  /** The instance the watchers use. */
  server: ServerChild;
  /** Every process the figures count (server instances, and the broker when it is separate). */
  pids: number[];
  store: Store;
  stop(): Promise<void>;
  command: string;
  logLines(): string[];
}

async function embeddedSetup(dataDir: string, dbFile: string): Promise<Setup> {
  const profDir = join(dataDir, 'profile');
  const server = await startServerChild(dataDir, P.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
  log(`server pid ${server.pid} on ${server.url}, MQTT port ${server.mqttPort}`);
  return {
    server,
    pids: [server.pid],
    store: openStore(dbFile),
    stop: () => server.stop(),
    command: server.command,
    logLines: () => server.logLines(),
  };
}

async function clusterSetup(dataDir: string, dbUrl: string): Promise<Setup> {
  const broker = await startMosquitto();
  const namespace = `bench${Date.now().toString(36)}`;
  const instances: ServerChild[] = [];
  for (let i = 0; i < P.instances; i++) {
    const dir = join(dataDir, `instance-${i + 1}`);
    mkdirSync(dir, { recursive: true });
    const params = {
      dbUrl,
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
      redisUrl: P.redisUrl,
      namespace,
      instanceId: `i${i + 1}`,
    };
    instances.push(await startClusterInstance(dir, params, broker.port));
    log(`instance ${i + 1} pid ${instances[i]!.pid} on ${instances[i]!.url}`);
  }
  log(`Mosquitto pid ${broker.pid} on port ${broker.port}; ${P.instances} instance(s) share its traffic`);
  await sleep(2500); // the instances learn of each other (membership is stamped every second)
  return {
    server: instances[0]!,
    pids: [...instances.map((i) => i.pid), broker.pid],
    store: await openPgStore(dbUrl),
    async stop() {
      for (const i of instances) await i.stop();
      await broker.stop();
    },
    command: [...instances.map((i) => i.command), broker.command].join('\n     '),
    logLines: () => instances.flatMap((i) => i.logLines()),
  };
}

async function ingestPhase(dataDir: string, setup: Setup, seeded: SeededModule[]) {
  const profDir = join(dataDir, 'profile');
  const spawnedAt = performance.now();
  const { server, store } = setup;
  const rows: IngestRow[] = [];
  let modules: BenchModule[] = [];
  let watchers: Watchers | null = null;
  let firstPhaseAt = 0;
  let total!: { sent: number; stored: number; drained: boolean; acksOk: boolean };
  try {
    modules = await connectServerModules(server.mqttPort, seeded);
    log(`${modules.length} modules connected; warming up (${WARMUP.rate}/s for ${WARMUP.ms} ms)`);
    const warm = await runPhase(modules, WARMUP.rate, WARMUP.ms, {
      window: P.window,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    });
    if (!warm.drained || (await store.samples()) !== warm.sent)
      throw new Error(`warm-up lost data: sent ${warm.sent}, stored ${await store.samples()}`);
    const utoken = await signIn(server.url, ADMIN.account, ADMIN.password);
    watchers = await openWatchers(
      server.url,
      utoken,
      seeded.slice(0, P.watchers).map((s) => s.token),
    );
    log(`${P.watchers} WebSocket watchers on the first ${P.watchers} sets (signed in as ${ADMIN.account})`);
    for (const rate of P.rates) {
      await quietGate();
      firstPhaseAt ||= performance.now();
      const before = await store.samples();
      log(`offering ${rateLabel(rate)} for ${P.durationS} s`);
      watchers.startPhase();
      const m = await measured(setup.pids, () =>
        runPhase(modules, rate, P.durationS * 1000, { window: P.window, drainTimeoutMs: DRAIN_TIMEOUT_MS }),
      );
      await sleep(200);
      const latencies = watchers.take();
      const stored = (await store.samples()) - before;
      const lastSeqs = await store.lastSeqs('bench-m-');
      const acksOk = modules.every((mod) => lastSeqs.get(mod.key) === mod.seq && mod.confirmed === mod.seq);
      rows.push({ ...m, stored, acksOk, ws: summary(latencies) });
      const r = m.value;
      log(
        `  sent ${fmt(r.sent)}, stored ${fmt(stored)}, ${fmt(perSecond(r.confirmed, r.spanMs))} snapshots/s, ` +
          `ack p99 ${fmt(summary(r.latency).p99, 1)} ms, drain ${fmt(r.drainMs)} ms${r.drained ? '' : ' (timed out)'}, ` +
          `server CPU ${fmt(m.proc.cpuPercent)} %, others ${fmt(m.otherCores, 2)} cores`,
      );
    }
    // Whatever a phase left unacked must still arrive: everything sent since the start is stored exactly once.
    const drained = await waitUntil(
      () => modules.every((mod) => mod.confirmed === mod.seq),
      FINAL_DRAIN_TIMEOUT_MS,
      50,
    );
    const lastSeqs = await store.lastSeqs('bench-m-');
    total = {
      sent: modules.reduce((sum, mod) => sum + mod.seq, 0),
      stored: await store.samples(),
      drained,
      acksOk: modules.every((mod) => lastSeqs.get(mod.key) === mod.seq && mod.confirmed === mod.seq),
    };
  } finally {
    watchers?.close();
    await closeModules(modules);
    await store.close();
    await setup.stop();
  }
  let profile: ReturnType<typeof summariseProfile> | null = null;
  if (P.cpuProf) {
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) profile = summariseProfile(join(profDir, file), firstPhaseAt - spawnedAt);
  }
  return { rows, total, warnings: setup.logLines(), profile, command: setup.command };
}

async function brokerPhase(seeded: SeededModule[]) {
  const port = await freePort();
  const broker = spawnNode('bench/plain-broker.ts', { cwd: REPO, env: { BENCH_BROKER_PORT: String(port) } });
  await waitForPort(broker, port, 30_000);
  log(`plain Aedes broker pid ${broker.pid} on port ${port}`);
  const rows: Measured<PhaseResult>[] = [];
  const modules: BenchModule[] = [];
  let subscriber: MqttClient | null = null;
  try {
    for (const [i, s] of seeded.entries())
      modules.push(new BenchModule(s.key, await connectClient(port, s.key, s.secret, true), i));
    const byKey = new Map(modules.map((m) => [m.key, m]));
    subscriber = await connectClient(port, 'bench-subscriber', 'x', false);
    subscriber.on('message', (topic, payload) => {
      const m = byKey.get(topic.split('/')[1] ?? '');
      if (m) m.confirm(seqAndTs(payload).seq);
    });
    await subscriber.subscribeAsync('modem/+/data', { qos: 1 });
    for (const rate of P.rates) {
      await quietGate();
      log(`offering ${rateLabel(rate)} for ${P.durationS} s to the plain broker`);
      const m = await measured(broker.pid, () =>
        runPhase(modules, rate, P.durationS * 1000, { window: P.window, drainTimeoutMs: DRAIN_TIMEOUT_MS }),
      );
      rows.push(m);
      const r = m.value;
      log(
        `  sent ${fmt(r.sent)}, delivered ${fmt(r.confirmed)}, ${fmt(perSecond(r.confirmed, r.spanMs))} messages/s, ` +
          `broker CPU ${fmt(m.proc.cpuPercent)} %, others ${fmt(m.otherCores, 2)} cores`,
      );
    }
  } finally {
    await closeModules(modules);
    await subscriber?.endAsync().catch(() => undefined);
    await broker.stop();
  }
  return { rows, command: broker.command };
}

function nextMessage<T extends ConnMessage['type']>(
  child: Child,
  type: T,
  timeoutMs: number,
  onOther?: (m: ConnMessage) => void,
): Promise<Extract<ConnMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ConnMessage) => {
      if (m.type !== type) return onOther?.(m);
      clearTimeout(timer);
      child.child.off('message', onMessage);
      resolve(m as Extract<ConnMessage, { type: T }>);
    };
    const timer = setTimeout(() => {
      child.child.off('message', onMessage);
      reject(new Error(`no '${type}' from the connection process in ${timeoutMs} ms`));
    }, timeoutMs);
    child.child.on('message', onMessage);
    void child.exited.then(() => reject(new Error(`connection process exited:\n${child.output.join('')}`)));
  });
}

async function connectionsPhase(dataDir: string, dbFile: string, list: SeededModule[]) {
  const server = await startServerChild(dataDir);
  const fileLimit = openFileLimit(server.pid);
  log(`fresh server pid ${server.pid} (open-file limit ${fileLimit})`);
  const store = openStore(dbFile);
  const file = join(dataDir, 'connections.json');
  writeFileSync(file, JSON.stringify(list.map(({ key, secret }) => ({ key, secret }))));
  await quietGate();
  const idle = procSample(server.pid);
  log(`server RSS with no module connected: ${mib(idle.rssKb)}`);
  const conn = spawnNode('bench/connections.ts', {
    cwd: REPO,
    env: {
      BENCH_BROKER_PORT: String(server.mqttPort),
      BENCH_CONN_FILE: file,
      BENCH_CONN_CONCURRENCY: '100',
      BENCH_CONN_PERIOD_S: String(P.connPeriodS),
      BENCH_CONN_ROUNDS: String(P.connRounds),
    },
  });
  const watch = watchProcess(server.pid, 500);
  const machine = watchMachine();
  try {
    const before = await store.samples();
    const connected = await nextMessage(conn, 'connected', 15 * 60_000);
    log(`${fmt(connected.ok)} connected, ${connected.failed} failed in ${fmt(connected.ms / 1000, 1)} s`);
    if (connected.firstError) log(`  first failure: ${connected.firstError}`);
    await sleep(5000);
    const allConnected = procSample(server.pid);
    const clientSide = procSample(conn.pid);
    log(
      `server RSS with ${fmt(connected.ok)} idle modules: ${mib(allConnected.rssKb)}; ` +
        `each now publishes one snapshot every ${P.connPeriodS} s, ${P.connRounds} times`,
    );
    conn.child.send({ type: 'publish' } satisfies ConnCommand);
    const published = await nextMessage(conn, 'published', (P.connPeriodS * P.connRounds + 120) * 1000, (m) => {
      if (m.type === 'progress')
        log(
          `  round ${m.round}: published ${fmt(m.published)}, acked ${fmt(m.acked)}, ` +
            `server RSS ${mib(procSample(server.pid).rssKb)}`,
        );
    });
    await sleep(2000);
    const afterPublish = procSample(server.pid);
    const stored = (await store.samples()) - before;
    log(
      `published ${fmt(published.published)}, acked ${fmt(published.acked)}, stored ${fmt(stored)}; ` +
        `server RSS ${mib(afterPublish.rssKb)}`,
    );
    conn.child.send({ type: 'close' } satisfies ConnCommand);
    await nextMessage(conn, 'closed', 120_000);
    const proc = watch.stop();
    return {
      connected,
      published,
      stored,
      fileLimit,
      idleKb: idle.rssKb,
      connectedKb: allConnected.rssKb,
      afterPublishKb: afterPublish.rssKb,
      peakKb: proc.peakRssKb,
      clientKb: clientSide.rssKb,
      otherCores: Math.max(0, machine.stop() - proc.cpuPercent / 100),
      command: conn.command,
      serverCommand: server.command,
    };
  } finally {
    watch.stop();
    await conn.stop();
    await store.close();
    await server.stop();
  }
}

type IngestOutcome = Awaited<ReturnType<typeof ingestPhase>>;
type BrokerOutcome = Awaited<ReturnType<typeof brokerPhase>>;
type ConnectionsOutcome = Awaited<ReturnType<typeof connectionsPhase>>;

function printIngest(ingest: IngestOutcome, perSnapshot: number) {
  console.log(
    `1+2. Ingestion by ${
      P.setup === 'cluster'
        ? `${P.instances} server instance(s) (PostgreSQL, Mosquitto with a shared subscription, Redis; CPU and RSS summed over the instances and Mosquitto)`
        : 'the server (embedded broker, SQLite)'
    }, ${P.modules} modules, ${P.durationS} s per rate`,
  );
  console.log(`     server: ${ingest.command}\n`);
  const verdicts = ingest.rows.map(verdict);
  console.log(
    table(
      [
        'offered',
        'sent/s',
        'stored snapshots/s',
        'while offered',
        'data points/s',
        'ack p50/p99 ms',
        'drain ms',
        'not stored',
        'WS p50/p99 ms (pushes)',
        'server CPU %',
        'server RSS peak',
        'bench CPU % / loop p99 ms',
        'others (cores)',
        'verdict',
      ],
      ingest.rows.map((row, i) => {
        const r = row.value;
        const rate = perSecond(r.confirmed, r.spanMs);
        const ack = summary(r.latency);
        return [
          rateLabel(r.target),
          fmt(perSecond(r.sent, r.durationMs)),
          fmt(rate),
          fmt(perSecond(r.confirmedWhileOffered, r.durationMs)),
          fmt(rate * perSnapshot),
          `${fmt(ack.p50, 1)} / ${fmt(ack.p99, 1)}`,
          `${fmt(r.drainMs)}${r.drained ? '' : '+'}`,
          `${fmt(r.sent - row.stored)}${row.acksOk ? '' : ' (acks missing)'}`,
          `${fmt(row.ws.p50, 1)} / ${fmt(row.ws.p99, 1)} (${fmt(row.ws.n)})`,
          fmt(row.proc.cpuPercent),
          mib(row.proc.peakRssKb),
          `${fmt(row.clientCpu)} / ${fmt(row.clientLoopP99, 1)}`,
          fmt(row.otherCores, 2),
          verdicts[i]!,
        ];
      }),
    ),
  );
  const sustained = ingest.rows.filter((_, i) => verdicts[i] === 'sustained').map((r) => r.value.target as number);
  const best = sustained.length ? Math.max(...sustained) : 0;
  console.log(
    `\nHighest offered rate sustained with zero loss: ${best ? `${fmt(best)} snapshots/s = ${fmt(best * perSnapshot)} data points/s` : 'none'}` +
      ` (sustained: ≥ ${SUSTAINED.offeredShare * 100} % offered, ack p99 ≤ ${SUSTAINED.maxAckP99Ms} ms, backlog cleared ≤ ${SUSTAINED.maxDrainMs} ms after the last publish)`,
  );
  const t = ingest.total;
  console.log(
    `Whole run incl. warm-up: ${fmt(t.sent)} snapshots sent, ${fmt(t.stored)} rows in \`sample\`, ` +
      `every module acked its last seq: ${t.acksOk ? 'yes' : 'NO'} → ${t.drained && t.acksOk && t.sent === t.stored ? 'nothing lost' : 'LOSS OR BACKLOG'}`,
  );
  if (ingest.warnings.length) {
    console.log(`Server warnings/errors (${ingest.warnings.length} lines), first 20:`);
    for (const l of ingest.warnings.slice(0, 20)) console.log(`  ${l.slice(0, 300)}`);
  } else console.log('Server wrote no warning or error.');
  if (ingest.profile) {
    console.log(
      `\nServer CPU profile of the measured phases (${fmt(ingest.profile.total)} ms sampled), self time by area:`,
    );
    console.log(table(['area', 'share', 'time'], ingest.profile.byArea));
    console.log('\nTop functions by self time:');
    console.log(table(['function', 'share', 'time'], ingest.profile.byFunction));
  }
}

function printBroker(broker: BrokerOutcome, ingest: IngestOutcome | null) {
  console.log(
    `4. The same messages through a bare Aedes broker (no auth, no ingestion), one QoS 1 subscriber on modem/+/data`,
  );
  console.log(`   broker: ${broker.command}\n`);
  console.log(
    table(
      [
        'offered',
        'sent/s',
        'forwarded msgs/s',
        'server stored/s, same offer',
        'delivery p50/p99 ms',
        'not delivered',
        'broker CPU %',
        'broker RSS peak',
        'bench CPU %',
        'others (cores)',
      ],
      broker.rows.map((row, i) => {
        const r = row.value;
        const s = ingest?.rows[i]?.value;
        const lat = summary(r.latency);
        return [
          rateLabel(r.target),
          fmt(perSecond(r.sent, r.durationMs)),
          fmt(perSecond(r.confirmed, r.spanMs)),
          s && s.target === r.target ? fmt(perSecond(s.confirmed, s.spanMs)) : '–',
          `${fmt(lat.p50, 1)} / ${fmt(lat.p99, 1)}`,
          fmt(r.sent - r.confirmed),
          fmt(row.proc.cpuPercent),
          mib(row.proc.peakRssKb),
          fmt(row.clientCpu),
          fmt(row.otherCores, 2),
        ];
      }),
    ),
  );
}

function printConnections(c: ConnectionsOutcome) {
  console.log(`3. Many connected modules (authenticated, last will, subscribed to ack), fresh server process`);
  console.log(`   server: ${c.serverCommand}\n   clients: ${c.command}\n`);
  console.log(
    table(
      ['measure', 'value'],
      [
        ['modules connected / failed', `${fmt(c.connected.ok)} / ${fmt(c.connected.failed)}`],
        ['time to connect all (100 at a time)', `${fmt(c.connected.ms / 1000, 1)} s`],
        ['server RSS, none connected', mib(c.idleKb)],
        ['server RSS, all connected and idle', mib(c.connectedKb)],
        [
          `server RSS, after each published ${P.connRounds} snapshot(s), one every ${P.connPeriodS} s`,
          mib(c.afterPublishKb),
        ],
        ['server RSS, peak during the phase', mib(c.peakKb)],
        [
          'snapshots published / acked / stored',
          `${fmt(c.published.published)} / ${fmt(c.published.acked)} / ${fmt(c.stored)}`,
        ],
        ['ack latency p50 / p99', `${fmt(c.published.ackP50, 1)} / ${fmt(c.published.ackP99, 1)} ms`],
        ['client process RSS (all connections)', mib(c.clientKb)],
        ['server open-file limit', fmt(c.fileLimit)],
        ['other programs meanwhile (cores)', fmt(c.otherCores, 2)],
      ],
    ),
  );
}

async function pgAdmin(sqlText: string) {
  const client = new pg.Client({ connectionString: P.databaseUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

async function main() {
  const started = Date.now();
  const machine =
    `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, ` +
    `Linux ${release()}, Node ${process.version}`;
  const perSnapshot = decodedValuesPerSnapshot();
  console.log(`Command: ${commandLine()}`);
  console.log(`Machine: ${machine}`);
  console.log(
    `Parameters: ${P.modules} modules, rates ${P.rates.join(', ')}, ${P.durationS} s per rate, ` +
      `${P.watchers} WebSocket watchers, ${P.connections} connections publishing every ${P.connPeriodS} s ` +
      `(${P.connRounds} times), ` +
      `window ${P.window}, phases ${[...P.phases].join(',')}`,
  );
  console.log(
    `Snapshot: layout S, ${perSnapshot.values} decoded values (data points), ${perSnapshot.bytes} bytes of JSON\n`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'genset-bench-'));
  const cluster = P.setup === 'cluster';
  if (cluster && !existsSync(MOSQUITTO_BIN)) throw new Error(`BENCH_SETUP=cluster needs ${MOSQUITTO_BIN}`);
  // The several-instance setup runs on a database of its own, made here and dropped at the end.
  const pgDatabase = `bench_${Date.now().toString(36)}`;
  const dbUrl = cluster ? Object.assign(new URL(P.databaseUrl), { pathname: `/${pgDatabase}` }).toString() : '';
  const dbFile = cluster ? dbUrl : join(dataDir, 'console.db');
  if (cluster) await pgAdmin(`create database ${pgDatabase}`);
  try {
    const t0 = performance.now();
    const withConnections = P.phases.has('connections') && P.connections > 0 && P.setup !== 'cluster';
    const seeded = await seedModules(
      dbFile,
      [
        { prefix: 'bench-m-', count: P.modules },
        ...(withConnections ? [{ prefix: 'bench-c-', count: P.connections }] : []),
      ],
      SECRET,
    );
    log(
      `seeded ${fmt(P.modules)} + ${fmt(seeded['bench-c-']?.length ?? 0)} modules with one set each ` +
        `in ${fmt((performance.now() - t0) / 1000, 1)} s (${dbFile})`,
    );
    const mods = seeded['bench-m-']!;
    const ingest = P.phases.has('ingest')
      ? await ingestPhase(
          dataDir,
          cluster ? await clusterSetup(dataDir, dbUrl) : await embeddedSetup(dataDir, dbFile),
          mods,
        )
      : null;
    // The bare-broker comparison and the many-connections phase are about the embedded broker.
    const broker = P.phases.has('broker') && !cluster ? await brokerPhase(mods) : null;
    const connections =
      withConnections && !cluster ? await connectionsPhase(dataDir, dbFile, seeded['bench-c-']!) : null;

    console.log(`\n=== Results of: ${commandLine()} ===`);
    console.log(`Machine: ${machine}`);
    console.log(`Snapshot: layout S, ${perSnapshot.values} data points, ${perSnapshot.bytes} bytes\n`);
    if (ingest) printIngest(ingest, perSnapshot.values);
    if (broker) {
      console.log('');
      printBroker(broker, ingest);
    }
    if (connections) {
      console.log('');
      printConnections(connections);
    }
    console.log(`\nTotal time ${fmt((Date.now() - started) / 1000)} s`);
  } finally {
    if (P.keep) console.log(`Data kept in ${dataDir}${cluster ? ` and database ${pgDatabase}` : ''}`);
    else {
      rmSync(dataDir, { recursive: true, force: true });
      if (cluster) await pgAdmin(`drop database if exists ${pgDatabase} with (force)`);
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
