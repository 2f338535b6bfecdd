// Soak benchmark (`npm run bench:soak`; not a test). The real server program on a fresh SQLite file with its
// embedded broker takes a steady load for a long time (default one hour): SOAK_MODULES raw MQTT modules
// publish SOAK_RATE snapshots/s in total, while SOAK_CONSOLES consoles stay open (each a WebSocket watching a
// set, and each asking for the home page summary every minute, as an open home page does). Every window
// (default one minute) prints the server's resident memory and CPU, the ack and WebSocket push latencies and
// the summary call's latency; the end prints whether memory stayed flat (least-squares slope of RSS over the
// run, and the last ten minutes against the first ten after warm-up) and p99 steady, and checks that every
// snapshot sent was stored exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { closeModules, connectServerModules, runPhase, type BenchModule } from './lib/modules.ts';
import { procSample } from './lib/proc.ts';
import { ADMIN, openStore, seedModules, signIn, startServerChild } from './lib/server.ts';
import { fmt, intEnv, sleep, summary, table } from './lib/stats.ts';
import { openWatchers } from './lib/ws.ts';

const P = {
  durationS: intEnv('SOAK_DURATION_S', 3600, 10, 7 * 24 * 3600),
  windowS: intEnv('SOAK_WINDOW_S', 60, 5, 3600),
  rate: intEnv('SOAK_RATE', 1000, 1, 20_000),
  modules: intEnv('SOAK_MODULES', 1000, 1, 5000),
  consoles: intEnv('SOAK_CONSOLES', 20, 0, 200),
  keep: process.env.SOAK_KEEP_DATA === '1',
};
const ENV_KEYS = ['SOAK_DURATION_S', 'SOAK_WINDOW_S', 'SOAK_RATE', 'SOAK_MODULES', 'SOAK_CONSOLES', 'SOAK_KEEP_DATA'];
const SECRET = 'soak-secret-2026';
/** The first windows (start-up, caches, JIT) are left out of the flatness verdict. */
const WARMUP_WINDOWS = 2;

const mib = (kb: number) => kb / 1024;

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

function commandLine(): string {
  return [...ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`), 'npm run bench:soak'].join(
    ' ',
  );
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The open consoles' home pages: each asks for the summary every minute, spread over the minute. */
function startHomePages(url: string, utoken: string, count: number) {
  let latencies: number[] = [];
  let failures = 0;
  const timers: NodeJS.Timeout[] = [];
  const ask = async () => {
    const time = String(Math.floor(Date.now() / 1000));
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/yewu/home/summary`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'X-Time': time,
          'X-Sign': computeSign(utoken, time, DEFAULT_SIGN_SECRET),
          'X-Token': utoken,
        },
        body: '{}',
      });
      const body = (await res.json()) as { code: number };
      if (body.code !== 200) failures++;
      else latencies.push(performance.now() - t0);
    } catch {
      failures++;
    }
  };
  for (let i = 0; i < count; i++) {
    timers.push(
      setTimeout(
        () => {
          void ask();
          timers.push(setInterval(() => void ask(), 60_000));
        },
        (i * 60_000) / Math.max(1, count),
      ),
    );
  }
  return {
    take() {
      const out = { latencies, failures };
      latencies = [];
      failures = 0;
      return out;
    },
    stop() {
      for (const t of timers) clearInterval(t);
    },
  };
}

interface Row {
  minute: number;
  sent: number;
  stored: number;
  rssKb: number;
  cpuPercent: number;
  ackP50: number;
  ackP99: number;
  wsP99: number;
  wsPushes: number;
  homeP99: number;
  homeFailures: number;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-soak-'));
  const dbFile = join(dataDir, 'console.db');
  log(`data directory ${dataDir}`);
  const { ['soak-m-']: seeded = [] } = await seedModules(dbFile, [{ prefix: 'soak-m-', count: P.modules }], SECRET);
  const server = await startServerChild(dataDir);
  log(`server pid ${server.pid} on ${server.url}, MQTT port ${server.mqttPort}`);
  const store = openStore(dbFile);
  let modules: BenchModule[] = [];
  const rows: Row[] = [];
  let ok = true;
  try {
    modules = await connectServerModules(server.mqttPort, seeded);
    const utoken = await signIn(server.url, ADMIN.account, ADMIN.password);
    const watchers = await openWatchers(
      server.url,
      utoken,
      seeded.slice(0, P.consoles).map((s) => s.token),
    );
    const homes = startHomePages(server.url, utoken, P.consoles);
    log(
      `${modules.length} modules offering ${fmt(P.rate)} snapshots/s for ${fmt(P.durationS)} s; ` +
        `${P.consoles} open consoles (WebSocket + home summary every minute)`,
    );
    const windows = Math.ceil(P.durationS / P.windowS);
    let lastCpu = procSample(server.pid).cpuMs;
    let lastAt = performance.now();
    for (let w = 0; w < windows; w++) {
      const before = await store.samples();
      watchers.startPhase();
      const phase = await runPhase(modules, P.rate, P.windowS * 1000, { window: 50, drainTimeoutMs: 60_000 });
      const stored = (await store.samples()) - before;
      const proc = procSample(server.pid);
      const now = performance.now();
      const ack = summary(phase.latency);
      const ws = watchers.take();
      const home = homes.take();
      const row: Row = {
        minute: ((w + 1) * P.windowS) / 60,
        sent: phase.sent,
        stored,
        rssKb: proc.rssKb,
        cpuPercent: ((proc.cpuMs - lastCpu) / (now - lastAt)) * 100,
        ackP50: ack.p50,
        ackP99: ack.p99,
        wsP99: summary(ws).p99,
        wsPushes: ws.length,
        homeP99: summary(home.latencies).p99,
        homeFailures: home.failures,
      };
      lastCpu = proc.cpuMs;
      lastAt = now;
      rows.push(row);
      if (!phase.drained) ok = false;
      log(
        `window ${w + 1}/${windows}: sent ${fmt(row.sent)}, stored ${fmt(row.stored)}, RSS ${fmt(mib(row.rssKb))} MiB, ` +
          `CPU ${fmt(row.cpuPercent)} %, ack p50/p99 ${fmt(row.ackP50, 1)}/${fmt(row.ackP99, 1)} ms, ` +
          `WS p99 ${fmt(row.wsP99, 1)} ms (${fmt(row.wsPushes)} pushes), home p99 ${fmt(row.homeP99, 1)} ms` +
          (row.homeFailures ? `, ${row.homeFailures} home calls failed` : ''),
      );
    }
    homes.stop();
    watchers.close();

    // Nothing lost, nothing twice: the samples are exactly what was sent, each module's last seq is stored.
    const sent = modules.reduce((s, m) => s + m.seq, 0);
    await sleep(500);
    const storedTotal = await store.samples();
    const lastSeqs = await store.lastSeqs('soak-m-');
    const acksOk = modules.every((m) => lastSeqs.get(m.key) === m.seq && m.confirmed === m.seq);
    if (storedTotal !== sent || !acksOk) ok = false;

    const measured = rows.slice(Math.min(WARMUP_WINDOWS, Math.max(0, rows.length - 2)));
    const minutes = measured.map((r) => r.minute);
    const rssMib = measured.map((r) => mib(r.rssKb));
    const slopePerHour = slope(minutes, rssMib) * 60;
    const tenth = Math.max(1, Math.round(10 / (P.windowS / 60)));
    const early = summary(rssMib.slice(0, tenth)).p50;
    const late = summary(rssMib.slice(-tenth)).p50;
    const p99s = measured.map((r) => r.ackP99);
    const wsP99s = measured.map((r) => r.wsP99).filter(Number.isFinite);

    console.log('\nPer window:');
    console.log(
      table(
        ['min', 'sent', 'stored', 'RSS MiB', 'CPU %', 'ack p50 ms', 'ack p99 ms', 'WS p99 ms', 'home p99 ms'],
        rows.map((r) => [
          fmt(r.minute, 1),
          fmt(r.sent),
          fmt(r.stored),
          fmt(mib(r.rssKb)),
          fmt(r.cpuPercent),
          fmt(r.ackP50, 1),
          fmt(r.ackP99, 1),
          fmt(r.wsP99, 1),
          fmt(r.homeP99, 1),
        ]),
      ),
    );
    console.log('\nSummary:');
    console.log(
      table(
        ['figure', 'value'],
        [
          ['snapshots sent / stored', `${fmt(sent)} / ${fmt(storedTotal)}${acksOk ? '' : ' (acks incomplete)'}`],
          ['RSS slope after warm-up', `${fmt(slopePerHour, 1)} MiB/hour`],
          ['RSS median, first / last 10 min after warm-up', `${fmt(early)} / ${fmt(late)} MiB`],
          [
            'ack p99 per window: min / median / max',
            `${fmt(Math.min(...p99s), 1)} / ${fmt(summary(p99s).p50, 1)} / ${fmt(Math.max(...p99s), 1)} ms`,
          ],
          [
            'WS p99 per window: min / median / max',
            `${fmt(Math.min(...wsP99s), 1)} / ${fmt(summary(wsP99s).p50, 1)} / ${fmt(Math.max(...wsP99s), 1)} ms`,
          ],
          ['home calls failed', fmt(rows.reduce((s, r) => s + r.homeFailures, 0))],
        ],
      ),
    );
    console.log(
      `\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Linux ${release()}, Node ${process.version}`,
    );
    console.log(`Command: ${commandLine()}`);
    console.log(`Server: ${server.command}`);
    const warnings = server.logLines();
    if (warnings.length) console.log(`Server warnings (${warnings.length}), first: ${warnings[0]}`);
  } finally {
    await closeModules(modules);
    await store.close();
    await server.stop();
    if (!P.keep) rmSync(dataDir, { recursive: true, force: true });
  }
  if (!ok) {
    console.error('soak: something was lost, left unacked or not drained (see above)');
    process.exitCode = 1;
  }
}

await main();
