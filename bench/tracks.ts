// Track benchmark (`npm run bench:tracks`; not a test). Seeds a fresh SQLite file with one set whose module
// drove BENCH_TRACK_HOURS a day for 31 days with a stored fix every 5 s (the most ingestion stores of a set on
// the move), runs the real server program as a child process, and times `/genset/guiji` over the last hour, a
// day and the whole 31 days at the zooms a map asks for, plus without a zoom (every fix, capped at 5,000). Prints
// the figures with the command that made them. Parameters (environment) are listed in BENCHMARKS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeSign, DEFAULT_SIGN_SECRET, type TrackResponse } from '@genset/protocol';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { ADMIN, seedModules, signIn, startServerChild } from './lib/server.ts';
import { fmt, intEnv, summary, table } from './lib/stats.ts';

const P = {
  hours: intEnv('BENCH_TRACK_HOURS', 10, 1, 24),
  runs: intEnv('BENCH_TRACK_RUNS', 20, 1, 1000),
};
const ENV_KEYS = ['BENCH_TRACK_HOURS', 'BENCH_TRACK_RUNS'];
const DAY = 86_400_000;
const HOUR = 3_600_000;
const STEP_MS = 5_000;

function commandLine(): string {
  const set = ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  return [...set, 'npm run bench:tracks'].join(' ');
}

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** A road of 31 days: each day out and back along a winding way, 40 km/h. */
async function seedTrack(dbFile: string, gensetId: number, end: number): Promise<number> {
  const database = await openDatabase(dbFile);
  let n = 0;
  try {
    const perDay = (P.hours * HOUR) / STEP_MS;
    for (let day = 31; day >= 1; day--) {
      // the latest day's driving ends now
      const start = end - (day - 1) * DAY - P.hours * HOUR;
      const rows = Array.from({ length: perDay }, (_, i) => {
        const s = i / perDay;
        const along = (s < 0.5 ? s : 1 - s) * 2; // out, then back
        return {
          genset_id: gensetId,
          ts: start + i * STEP_MS,
          lat: 41 + along * 0.5 + Math.sin(i / 40) * 0.002,
          lon: 29 + along * 0.4 + Math.cos(i / 55) * 0.002,
          speed: 40,
          alt: null,
        };
      });
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 1000)
          await trx
            .insertInto('position')
            .values(rows.slice(i, i + 1000))
            .execute();
      });
      n += rows.length;
    }
  } finally {
    await database.close();
  }
  return n;
}

async function guiji(url: string, utoken: string, body: object): Promise<{ ms: number; data: TrackResponse }> {
  const time = String(Math.floor(Date.now() / 1000));
  const t0 = performance.now();
  const res = await fetch(`${url}/yewu/genset/guiji`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-time': time,
      'x-token': utoken,
      'x-sign': computeSign(utoken, time, DEFAULT_SIGN_SECRET),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: TrackResponse };
  const ms = performance.now() - t0;
  if (json.code !== 200) throw new Error(`guiji: ${json.code} ${json.msg}`);
  return { ms, data: json.data };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-tracks-'));
  const dbFile = join(dataDir, 'console.db');
  try {
    log(`seeding ${P.hours} h of driving a day for 31 days, a fix every 5 s`);
    // migrate and seed through the server's own code first
    const first = await startServerChild(dataDir);
    await first.stop();
    const seeded = await seedModules(dbFile, [{ prefix: 'T', count: 1 }], 'bench-secret');
    const set = seeded.T?.[0];
    const end = Date.now();
    const fixes = await seedTrack(dbFile, set!.gensetId, end);
    log(`${fmt(fixes)} fixes stored`);

    const server = await startServerChild(dataDir);
    try {
      const utoken = await signIn(server.url, ADMIN.account, ADMIN.password);
      const cases: { name: string; range: number; zoom?: number }[] = [
        { name: 'last hour, every fix', range: HOUR },
        { name: 'a day, zoom 14', range: DAY, zoom: 14 },
        { name: 'a day, every fix (≤ 5,000)', range: DAY },
        { name: '31 days, zoom 8', range: 31 * DAY, zoom: 8 },
        { name: '31 days, zoom 12', range: 31 * DAY, zoom: 12 },
        { name: '31 days, every fix (≤ 5,000)', range: 31 * DAY },
      ];
      const rows: string[][] = [];
      for (const c of cases) {
        const body = {
          token: set!.token,
          start: end - c.range,
          end,
          ...(c.zoom !== undefined ? { zoom: c.zoom } : {}),
        };
        await guiji(server.url, utoken, body); // warm-up
        const times: number[] = [];
        let last: TrackResponse | undefined;
        for (let i = 0; i < P.runs; i++) {
          const r = await guiji(server.url, utoken, body);
          times.push(r.ms);
          last = r.data;
        }
        const s = summary(times);
        rows.push([c.name, fmt(last!.stored), fmt(last!.points.length), fmt(s.p50, 1), fmt(s.p99, 1), fmt(s.max, 1)]);
      }
      console.log('');
      console.log(`command: ${commandLine()}`);
      console.log(
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; SQLite; ${P.runs} calls each, one at a time`,
      );
      console.log(table(['/genset/guiji', 'fixes in range', 'points answered', 'p50 ms', 'p99 ms', 'max ms'], rows));
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
