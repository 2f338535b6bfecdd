// The long chart of `bench:api`: a year of ten items of one set in one request, read from the rollups as the
// server keeps them (hourly and daily, every item of the layout), on the benchmark's SQLite file and on a copy of
// it in PostgreSQL (made with the server's own `migrate-data`).
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { migrateData } from '../../apps/server/src/tools/migrate-data.ts';
import { load, type LoadRequest, type LoadResult } from './http-load.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The chart's span: a year, the longest range the history accepts (366 days) less one. */
export const YEAR_DAYS = 365;
/** How many items the chart shows. */
export const YEAR_ITEMS = 10;

type Stats = Record<string, { min: number; max: number; sum: number; n: number; first: number; last: number }>;

function stats(keys: readonly string[], h: number, n: number): Stats {
  const out: Stats = {};
  keys.forEach((key, i) => {
    const avg = 100 + 50 * Math.sin((h + i) / 12);
    out[key] = { min: avg - 5, max: avg + 5, sum: avg * n, n, first: avg - 1, last: avg + 1 };
  });
  return out;
}

/**
 * `days` of hourly rollups and as many daily ones of every item in `keys` for one set (as ingestion writes them:
 * one sample every 10 s), in the caller's transaction. Returns the rows written.
 */
export function seedRollups(bulk: DatabaseSync, gensetId: number, keys: readonly string[], days: number, now: number) {
  const insertHour = bulk.prepare('insert into rollup_hour (genset_id, bucket, stats, samples) values (?, ?, ?, ?)');
  const insertDay = bulk.prepare('insert into rollup_day (genset_id, bucket, stats, samples) values (?, ?, ?, ?)');
  const firstHour = now - (now % HOUR) - days * DAY;
  let hours = 0;
  for (let bucket = firstHour; bucket < now; bucket += HOUR, hours++) {
    insertHour.run(gensetId, bucket, JSON.stringify(stats(keys, (bucket - firstHour) / HOUR, 360)), 360);
  }
  const firstDay = now - (now % DAY) - days * DAY;
  let dayRows = 0;
  for (let bucket = firstDay; bucket <= now; bucket += DAY, dayRows++) {
    insertDay.run(gensetId, bucket, JSON.stringify(stats(keys, (bucket - firstDay) / HOUR, 8640)), 8640);
  }
  return { hours, days: dayRows };
}

export interface ChartAnswer {
  code: number;
  msg: string;
  data?: { resolution: string; step: number; series: { key: string; points: unknown[] }[] };
}

/** The year chart's request body: `items` of the set over the last YEAR_DAYS days. */
export function yearChartBody(token: string, items: readonly string[], now = Date.now()): string {
  return JSON.stringify({ token, items, range: 'custom', start: now - YEAR_DAYS * DAY, end: now });
}

/** One answer to look at, then `runs` requests one after another (what a user waits for opening the chart). */
export async function measureChart(
  url: string,
  headers: () => Record<string, string>,
  body: string,
  runs: number,
): Promise<{ answer: ChartAnswer; result: LoadResult | null }> {
  const probe = await fetch(`${url}/yewu/history/chart`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers() },
    body,
  });
  const answer = (await probe.json()) as ChartAnswer;
  if (answer.code !== 200) return { answer, result: null };
  const next = (): LoadRequest => ({ path: '/yewu/history/chart', headers: headers(), body });
  const result = await load(url, { connections: 1, durationMs: 120_000, maxRequests: runs, next });
  return { answer, result };
}

/**
 * A database of its own on the PostgreSQL server at `serverUrl`, filled from the SQLite file; dropped by `drop`.
 * Undefined when no PostgreSQL answers there.
 */
export async function copyToPostgres(
  sqliteFile: string,
  serverUrl: string,
  log: (line: string) => void,
): Promise<{ url: string; seconds: number; drop(): Promise<void> } | undefined> {
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  const name = `bench_api_${randomBytes(4).toString('hex')}`;
  try {
    await admin(`create database ${name}`);
  } catch (err) {
    log(`PostgreSQL at ${serverUrl} not reachable (${(err as Error).message}): its figures are left out`);
    return undefined;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const t0 = performance.now();
  await migrateData({ from: sqliteFile, to: url.toString(), log: () => undefined });
  return {
    url: url.toString(),
    seconds: (performance.now() - t0) / 1000,
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
