// "Nothing is lost", shown with real parts on free ports: five simulated controllers (Modbus TCP servers)
// and five cloud modules run in this process and publish every second; the server runs as its own program
// (src/main.ts) so that it can be SIGKILLed. The server is killed and restarted 10 s later, the broker is
// restarted, and one module loses its connection for 30 s; afterwards every seq of every module is
// stored exactly once, in order, with the time the module read it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger, type Gateway } from '@genset/gateway';
import { layoutG, layoutS } from '@genset/protocol';
import { openDatabase } from '../src/db/database.ts';
import { createFleet } from '../src/modules/devices/fleet.ts';
import { seedProtocols } from '../src/modules/devices/protocols.ts';
import { PG_URL } from './helpers.ts';
import { freePort, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

/**
 * How long the one module stays cut off: 30 s (30 readings) unless overridden (e.g. 300000 for five). Its outbox,
 * the resend and the server’s dedup do the same for 30 held readings as for 300; `npm run bench:soak` runs for hours.
 */
const OUTAGE_MS = Number(process.env.RESILIENCE_OUTAGE_MS ?? 30_000);
const RATE_MS = 1000;
const LAYOUTS = ['S', 'G', 'S', 'G', 'S'] as const;
/** The module that loses its connection. */
const CUT = 2;

interface Module {
  key: string;
  layout: 'S' | 'G';
  modemId: number;
  gensetId: number;
  secret: string;
  dataDir: string;
  sim: RunningGensetSimulator;
  gateway: Gateway;
  proxy?: TcpProxy;
  closed: boolean;
  /** Final seq, read after the module is stopped. */
  lastSeq: number;
}

interface SampleRow {
  id: number;
  seq: number;
  ts: number;
  genset_id: number;
}

let serverDir: string;
let mqttPort: number;
let server: ServerProcess | undefined;
const servers: ServerProcess[] = [];
const modules: Module[] = [];
let modulesStarted = false;
/** Before the first module starts: the modules' clock is this process's, so every device time is later. */
let startedAt = 0;

const dbFile = () => join(serverDir, 'console.db');

function serverEnv(): Record<string, string> {
  return {
    DATA_DIR: serverDir,
    DEMO: '0',
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    ONLINE_RATE_MS: String(RATE_MS),
    OFFLINE_RATE_MS: String(RATE_MS),
    WEB_DIST: join(serverDir, 'no-web'),
    // info, not warn: startServerProcess knows the server is up from its "console listening" line, and the
    // broker's "listening on port N" line shows which port it took after each restart.
    LOG_LEVEL: 'info',
  };
}

async function startServer(): Promise<ServerProcess> {
  const started = await startServerProcess(serverEnv());
  servers.push(started);
  server = started;
  // Same port after every restart: the modules (and the proxy) know only this one.
  await waitFor(
    () => started.output.join('').includes(`embedded MQTT broker listening on port ${mqttPort}`),
    10_000,
    `the broker of the restarted server to listen on port ${mqttPort}`,
  );
  return started;
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** seq → ts of every message a module still holds in its outbox (the time it read the controller). */
function outboxTimes(m: Module): Map<number, number> {
  const db = new DatabaseSync(join(m.dataDir, `${m.key}.outbox.sqlite`), { readOnly: true });
  try {
    const rows = db.prepare('SELECT seq, payload FROM outbox ORDER BY seq').all() as {
      seq: number;
      payload: string;
    }[];
    return new Map(rows.map((r) => [Number(r.seq), (JSON.parse(r.payload) as { ts: number }).ts]));
  } finally {
    db.close();
  }
}

function samplesOf(db: DatabaseSync, m: Module): SampleRow[] {
  return (
    db.prepare('SELECT id, seq, ts, genset_id FROM sample WHERE modem_id = ? ORDER BY seq').all(m.modemId) as {
      id: number;
      seq: number;
      ts: number;
      genset_id: number;
    }[]
  ).map((r) => ({ id: Number(r.id), seq: Number(r.seq), ts: Number(r.ts), genset_id: Number(r.genset_id) }));
}

function storedCounts(): Map<number, number> {
  const db = new DatabaseSync(dbFile(), { readOnly: true });
  try {
    const rows = db.prepare('SELECT modem_id, COUNT(*) AS n FROM sample GROUP BY modem_id').all() as {
      modem_id: number;
      n: number;
    }[];
    return new Map(rows.map((r) => [Number(r.modem_id), Number(r.n)]));
  } finally {
    db.close();
  }
}

const acked = (m: Module) => m.gateway.stats.ackedUpTo;
const seqOf = (m: Module) => m.gateway.stats.lastSeq;

/** Every module in `list` has had everything up to the seq it held when called acked by the server. */
async function caughtUp(list: Module[], timeoutMs: number, what: string): Promise<void> {
  const targets = list.map((m) => [m, seqOf(m)] as const);
  await waitFor(() => targets.every(([m, seq]) => acked(m) >= seq), timeoutMs, what);
}

describe.skipIf(PG_URL)(
  'resilience (SQLite only: the server child program cannot be pointed at a per-test PostgreSQL schema)',
  () => {
    beforeAll(async () => {
      serverDir = mkdtempSync(join(tmpdir(), 'resilience-server-'));
      mqttPort = await freePort();

      // The modules and their sets exist before the server starts, in the database it will open.
      const database = await openDatabase(dbFile());
      const fleet = createFleet(database.db);
      await seedProtocols(database.db);
      const registered: { key: string; modemId: number; gensetId: number; secret: string }[] = [];
      for (const [i, layout] of LAYOUTS.entries()) {
        const key = `RES${Date.now()}-${i}`;
        const modem = await fleet.createModem({ companyId: 1, modemKey: key });
        const set = await fleet.createGenset({
          companyId: 1,
          ownerUserId: null,
          name: `Resilience ${i + 1} (${layout})`,
          modemId: modem.id,
          protocolKey: layout === 'S' ? layoutS.key : layoutG.key,
        });
        registered.push({ key, modemId: modem.id, gensetId: set.id, secret: modem.secret });
      }
      await database.close();

      await startServer();

      startedAt = Date.now();
      for (const [i, layout] of LAYOUTS.entries()) {
        const sim = await startGensetSimulator({
          layout,
          port: 0,
          host: '127.0.0.1',
          unitId: 1,
          seed: 40 + i,
          realtime: true,
        });
        // The module that will be cut off reaches the broker through a proxy the test can take away.
        const proxy = i === CUT ? await startTcpProxy({ host: '127.0.0.1', port: mqttPort }) : undefined;
        const dataDir = mkdtempSync(join(tmpdir(), `resilience-module-${i}-`));
        const { key, modemId, gensetId, secret } = registered[i]!;
        const gateway = await startGateway(
          {
            modemId: key,
            secret,
            brokerUrl: `mqtt://127.0.0.1:${proxy ? proxy.port : mqttPort}`,
            dataDir,
            ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
            // Retry quickly so the test does not wait out a long back-off after each outage.
            mqttReconnect: { minMs: 500, maxMs: 5000 },
          },
          { logger: silentLogger },
        );
        modules.push({
          key,
          layout,
          modemId,
          gensetId,
          secret,
          dataDir,
          sim,
          gateway,
          ...(proxy ? { proxy } : {}),
          closed: false,
          lastSeq: 0,
        });
      }
      modulesStarted = true;
    });

    afterAll(async () => {
      for (const m of modules) {
        if (!m.closed) await m.gateway.close().catch(() => undefined);
        await m.sim.close().catch(() => undefined);
        await m.proxy?.close();
        rmSync(m.dataDir, { recursive: true, force: true });
      }
      for (const s of servers) await s.kill('SIGTERM');
      if (serverDir) rmSync(serverDir, { recursive: true, force: true });
    });

    it(
      'server SIGKILL + restart after 10 s, broker restart, one module cut off for the outage: every seq stored once, in order, with device time',
      async () => {
        expect(modulesStarted).toBe(true);
        const cut = modules[CUT]!;
        const others = modules.filter((m) => m !== cut);

        // Phase 1: everything runs; the server (with its embedded broker) is SIGKILLed and comes back 10 s later.
        // a wait, not a measure: on a busy machine the server child program and five modules share its cores
        await waitFor(() => modules.every((m) => m.gateway.stats.mqttConnected), 60_000, 'every module to connect');
        await sleep(5_000);
        expect(modules.every((m) => acked(m) >= 2)).toBe(true);

        const killedAt = Date.now();
        await server!.kill('SIGKILL');
        expect(server!.child.signalCode).toBe('SIGKILL');
        await waitFor(
          () => modules.every((m) => !m.gateway.stats.mqttConnected),
          5_000,
          'every module to notice the broker is gone',
        );
        const ackedAtKill = modules.map(acked);
        await sleep(10_000 - (Date.now() - killedAt));
        // What each module read while the server was dead is in its outbox, with the time it was read.
        const heldOverKill = modules.map(outboxTimes);
        const restartedAt = Date.now();
        for (const [i, m] of modules.entries()) {
          expect(acked(m)).toBe(ackedAtKill[i]);
          expect(
            [...heldOverKill[i]!.values()].filter((ts) => ts > killedAt).length,
            `${m.key} polled on while the server was down`,
          ).toBeGreaterThanOrEqual(8);
        }
        // Starting the server again on the same data directory and MQTT port also restarts the embedded broker:
        // this is the first broker restart (after a crash, with nothing persisted by the broker).
        await startServer();
        await caughtUp(modules, 60_000, 'every module to be acked after the server restart');

        // Phase 2: one module loses its connection for the outage; the others carry on.
        // (the outage begins once the link is cut: a reading sent and acknowledged just before is not of it)
        await cut.proxy!.cut();
        const cutAt = Date.now();
        await waitFor(() => !cut.gateway.stats.mqttConnected, 5_000, 'the cut-off module to lose its connection');
        const seqAtCut = seqOf(cut);

        // Half-way through, a second, clean broker restart (SIGTERM: the server flushes its ingestion queue,
        // closes the broker and exits), with the four connected modules publishing throughout.
        await sleep(Math.max(0, cutAt + OUTAGE_MS / 2 - Date.now()));
        const exiting = server!;
        await exiting.kill('SIGTERM');
        expect(exiting.child.exitCode).toBe(0);
        await startServer();
        await caughtUp(
          others,
          Math.max(60_000, cutAt + OUTAGE_MS - Date.now()),
          'the connected modules to be acked after the broker restart',
        );
        expect(cut.gateway.stats.mqttConnected).toBe(false);

        await sleep(Math.max(0, cutAt + OUTAGE_MS - Date.now()));
        expect(cut.gateway.stats.mqttConnected).toBe(false);
        expect(acked(cut)).toBeLessThanOrEqual(seqAtCut);
        // Everything the cut-off module read during the outage waits in its outbox with the time it was read.
        const heldOverOutage = outboxTimes(cut);
        const restoredAt = Date.now();
        await cut.proxy!.restore();
        const readDuringOutage = [...heldOverOutage.entries()].filter(([, ts]) => ts >= cutAt && ts < restoredAt);
        // None of these had reached the server: they can only be stored from now on, long after they were read.
        expect(readDuringOutage.every(([seq]) => seq > acked(cut))).toBe(true);
        // A reading every period; the poller's timer may slip a few ms per period, hence 95 %.
        expect(readDuringOutage.length).toBeGreaterThanOrEqual(Math.floor((0.95 * (restoredAt - cutAt)) / RATE_MS));

        // Drain: every module catches up, then stops; the server must then hold each module's every seq.
        await caughtUp(modules, 60_000, 'every module to be acked after the outage');
        for (const m of modules) {
          await m.gateway.close();
          m.closed = true;
          m.lastSeq = m.gateway.stats.lastSeq;
        }
        const finishedAt = Date.now();
        await waitFor(
          () => {
            const counts = storedCounts();
            return modules.every((m) => counts.get(m.modemId) === m.lastSeq);
          },
          20_000,
          'the server to store the last messages of every module',
        );
        const last = server!;
        await last.kill('SIGTERM');
        expect(last.child.exitCode).toBe(0);

        const db = new DatabaseSync(dbFile(), { readOnly: true });
        try {
          for (const [i, m] of modules.entries()) {
            const rows = samplesOf(db, m);
            const label = `${m.key} (layout ${m.layout})`;
            // Exactly 1..N, N = the module's last seq: no gap, no duplicate (also a unique constraint).
            expect(rows.length, label).toBe(m.lastSeq);
            expect(rows[0]?.seq, label).toBe(1);
            expect(rows.at(-1)?.seq, label).toBe(m.lastSeq);
            expect(rows.every((r, k) => r.seq === k + 1)).toBe(true);
            expect(new Set(rows.map((r) => r.genset_id)), label).toEqual(new Set([m.gensetId]));
            // In order: stored in seq order (row ids grow with seq) and device times never go backwards.
            const outOfOrder = rows.filter((r, k) => k > 0 && r.id <= rows[k - 1]!.id);
            expect(
              outOfOrder.map((r) => r.seq),
              `${label}: stored before an earlier seq`,
            ).toEqual([]);
            const backwards = rows.filter((r, k) => k > 0 && r.ts < rows[k - 1]!.ts);
            expect(
              backwards.map((r) => r.seq),
              `${label}: ts going backwards`,
            ).toEqual([]);
            // Device time: inside the test's window, a reading every period throughout (no hole where a
            // restart or the outage was), and exactly the time the module gave the reading.
            expect(rows[0]!.ts, label).toBeGreaterThanOrEqual(startedAt);
            expect(rows.at(-1)!.ts, label).toBeLessThanOrEqual(finishedAt);
            const gaps = rows.slice(1).map((r, k) => r.ts - rows[k]!.ts);
            expect(Math.max(...gaps), `${label}: longest time between readings`).toBeLessThan(3 * RATE_MS);
            const byseq = new Map(rows.map((r) => [r.seq, r.ts]));
            const killWindow = [...heldOverKill[i]!.entries()].filter(([, ts]) => ts > killedAt);
            for (const [seq, ts] of heldOverKill[i]!) expect(byseq.get(seq), `${label} seq ${seq}`).toBe(ts);
            // Read while the server was dead, stored after it came back, with the time of reading.
            expect(killWindow.every(([, ts]) => ts < restartedAt)).toBe(true);
          }

          // The cut-off module: a reading for every period of the outage, each stored (after the link came
          // back, so at least `restoredAt`) with the time it was read, inside the outage.
          const rows = samplesOf(db, cut);
          const inOutage = rows.filter((r) => r.ts >= cutAt && r.ts < restoredAt);
          expect(inOutage.length).toBeGreaterThanOrEqual(Math.floor((0.95 * OUTAGE_MS) / RATE_MS));
          expect(inOutage.length).toBe(readDuringOutage.length);
          const byseq = new Map(rows.map((r) => [r.seq, r.ts]));
          for (const [seq, ts] of heldOverOutage) expect(byseq.get(seq), `cut-off module seq ${seq}`).toBe(ts);
          console.info(
            `resilience: seqs stored per module ${modules.map((m) => m.lastSeq).join(', ')}; ` +
              `${inOutage.length} readings of the cut-off module from its ${Math.round((restoredAt - cutAt) / 1000)} s ` +
              `outage stored with their device time`,
          );
        } finally {
          db.close();
        }

        // Each module really went through the restarts: initial connection, after the SIGKILL, after the
        // SIGTERM (the cut-off module was away then) and, for the cut-off module, after the outage.
        for (const m of others) expect(m.gateway.stats.mqttConnections, m.key).toBeGreaterThanOrEqual(3);
        expect(cut.gateway.stats.mqttConnections).toBeGreaterThanOrEqual(3);
        expect(cut.proxy!.accepted).toBeGreaterThanOrEqual(3);

        // The server's own log across its three runs: nothing at error level or above, no unexpected warning.
        const lines = servers.flatMap((s) => s.output.join('').split('\n')).filter((l) => l.trim());
        const records = lines.map((line) => {
          try {
            return JSON.parse(line) as { level: number; msg: string };
          } catch {
            return { level: 0, msg: line };
          }
        });
        const unparsed = records.filter((r) => r.level === 0 && !/ExperimentalWarning|--trace-warnings/.test(r.msg));
        expect(
          unparsed.map((r) => r.msg),
          `lines of the server's output that are not its log:\n${unparsed.map((r) => r.msg).join('\n')}`,
        ).toEqual([]);
        // The one expected warning: WEB_DIST points at an empty directory, so there is no console to serve.
        const problems = records.filter((r) => r.level >= 40 && !r.msg.startsWith('console not built'));
        expect(problems.map((r) => r.msg)).toEqual([]);
        // Started, restarted after the SIGKILL, restarted after the SIGTERM.
        expect(servers).toHaveLength(3);
      },
      OUTAGE_MS + 120_000,
    );
  },
);
