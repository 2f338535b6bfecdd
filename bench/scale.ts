// Scale (`BENCH_SETUP=cluster npm run bench:scale`; not a test): the several-instance deployment (PostgreSQL,
// Mosquitto with a shared subscription, Redis, BENCH_INSTANCES server instances) with BENCH_SETS sets (a module
// each, latest values) in one company, BENCH_MODULES of the modules connected and reporting at BENCH_REPORT_S,
// and the company's administrator, who sees and follows every set, asking for "my gensets" (a page of 20, several
// status filters) and the home summary with BENCH_CONNECTIONS keep-alive connections spread over the instances.
// Prints the p50/p99 of each call, each instance's resident memory (peak while the modules report and the calls
// run) and the sets each instance's ingestion holds, with the command that made them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { createFleet } from '../apps/server/src/modules/devices/fleet.ts';
import { createUser, ensureCompanyRoles, seedBase } from '../apps/server/src/seed/base.ts';
import { load, type LoadRequest, type LoadResult } from './lib/http-load.ts';
import { BenchModule, closeModules, connectClient } from './lib/modules.ts';
import { startMosquitto } from './lib/mosquitto.ts';
import { procSample, watchProcess } from './lib/proc.ts';
import { ADMIN, insertCompany, signIn, startClusterInstance, type ServerChild } from './lib/server.ts';
import { fmt, intEnv, mib, sleep, table } from './lib/stats.ts';

const P = {
  sets: intEnv('BENCH_SETS', 100_000, 100, 500_000),
  modules: intEnv('BENCH_MODULES', 10_000, 0, 50_000),
  instances: intEnv('BENCH_INSTANCES', 4, 1, 8),
  reportS: intEnv('BENCH_REPORT_S', 60, 1, 3600),
  connections: intEnv('BENCH_CONNECTIONS', 20, 1, 500),
  durationS: intEnv('BENCH_DURATION_S', 15, 1, 600),
  databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
};
const ENV_KEYS = [
  'BENCH_SETUP',
  'BENCH_SETS',
  'BENCH_MODULES',
  'BENCH_INSTANCES',
  'BENCH_REPORT_S',
  'BENCH_CONNECTIONS',
  'BENCH_DURATION_S',
  'BENCH_DATABASE_URL',
  'BENCH_REDIS_URL',
];
const TARGETS = { mylistP99Ms: 50, homeP99Ms: 100, rssMib: 1024 };
const COMPANY_ADMIN = { account: 'scale-admin@example.com', password: 'Scale#2026' };
const SECRET = 'bench-secret-2026';
const METRICS = randomBytes(12).toString('hex');
const STATUS_FILTERS = ['all', 'running', 'offline', 'shutdown'];

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The company, its administrator, the sets with a module each, their latest values and a subscriber each. */
async function seed(dbUrl: string) {
  const database = await openDatabase(dbUrl);
  const db = database.db;
  const t0 = performance.now();
  try {
    await seedBase(db, ADMIN);
    const companyId = await insertCompany(db, 'Scale Power Co.');
    const roles = await ensureCompanyRoles(db, companyId);
    const adminId = await createUser(db, {
      companyId,
      roleId: roles.companyAdmin ?? null,
      account: COMPANY_ADMIN.account,
      password: COMPANY_ADMIN.password,
      nickname: 'Scale administrator',
    });
    // sets and modules through the server's own code (tokens, codes, search text), a thousand per transaction
    const keys: string[] = [];
    for (let from = 0; from < P.sets; from += 1000) {
      await db.transaction().execute(async (trx) => {
        const fleet = createFleet(trx);
        for (let s = from; s < Math.min(P.sets, from + 1000); s++) {
          const key = `scale-${String(s).padStart(6, '0')}`;
          const modem = await fleet.createModem({ companyId, modemKey: key, secret: SECRET });
          await fleet.createGenset({
            companyId,
            ownerUserId: null,
            name: `Set ${String(s).padStart(6, '0')} ${['North', 'South', 'East', 'West'][s % 4]}`,
            modemId: modem.id,
            protocolKey: layoutS.key,
          });
          keys.push(key);
        }
      });
      if ((from / 1000) % 10 === 9) log(`  ${fmt(from + 1000)} sets`);
    }
    await onServer(dbUrl, async (client) => {
      const now = Date.now();
      // every set has been heard from: a quarter each running, stopped, standby and offline, one in 25 alarming
      await client.query(
        `insert into set_latest (genset_id, status, alarm_count, "values", device_ts, updated_at, merged_id)
         select id, id % 4, case when id % 25 = 0 then 1 else 0 end,
                '{"gen_kw":120,"fuel_level":64,"engine_rpm":1500,"battery_voltage":27.1}', $1, $1, 0
           from genset where company_id = $2
         on conflict (genset_id) do nothing`,
        [now - 30_000, companyId],
      );
      // the administrator follows every set (my gensets holds what one owns or follows; the company's whole
      // fleet is genset management's): their my-gensets list is all 100,000
      await client.query(
        `insert into subscription (genset_id, user_id, rights, created_at)
         select id, $1, 'control', $2 from genset where company_id = $3`,
        [adminId, now, companyId],
      );
    });
    log(
      `seeded ${fmt(P.sets)} sets, modules, latest values and subscriptions in ${fmt((performance.now() - t0) / 1000)} s`,
    );
    return keys;
  } finally {
    await database.close();
  }
}

function signedHeaders(token: string): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-token': token,
    'x-time': time,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': 'en-US',
    'x-timezone': 'UTC',
  };
}

/** Runs the calls with the connections spread over the instances (as nginx would), all at once. */
async function measure(instances: ServerChild[], next: (c: number, n: number) => LoadRequest): Promise<LoadResult[]> {
  const per = Math.max(1, Math.round(P.connections / instances.length));
  return Promise.all(instances.map((i) => load(i.url, { connections: per, durationMs: P.durationS * 1000, next })));
}

async function main() {
  if (process.env.BENCH_SETUP !== 'cluster')
    throw new Error('bench:scale measures the several-instance setup: run it with BENCH_SETUP=cluster');
  const command = [
    ...ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`),
    'npm run bench:scale',
  ].join(' ');
  console.log(`Command: ${command}`);
  console.log(
    `Machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, Linux ${release()}, Node ${process.version}`,
  );
  const dbName = `bench_scale_${randomBytes(4).toString('hex')}`;
  const base = new URL(P.databaseUrl);
  const dbUrl = new URL(P.databaseUrl);
  dbUrl.pathname = `/${dbName}`;
  await onServer(base.toString(), (c) => c.query(`create database ${dbName}`));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const instances: ServerChild[] = [];
  let broker: Awaited<ReturnType<typeof startMosquitto>> | null = null;
  const modules: BenchModule[] = [];
  let reportTimer: NodeJS.Timeout | null = null;
  try {
    const keys = await seed(dbUrl.toString());
    broker = await startMosquitto();
    const namespace = `scale${Date.now().toString(36)}`;
    const t0 = performance.now();
    for (let i = 0; i < P.instances; i++) {
      const dir = join(dataDir, `instance-${i + 1}`);
      mkdirSync(dir, { recursive: true });
      instances.push(
        await startClusterInstance(
          dir,
          {
            dbUrl: dbUrl.toString(),
            mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
            redisUrl: P.redisUrl,
            namespace,
            instanceId: `i${i + 1}`,
          },
          broker.port,
          { METRICS_TOKEN: METRICS },
        ),
      );
    }
    log(
      `${P.instances} instances up in ${fmt((performance.now() - t0) / 1000, 1)} s; Mosquitto on port ${broker.port}`,
    );
    const watches = [...instances.map((i) => watchProcess(i.pid, 500))];

    // the modules connect (anonymously to this Mosquitto) and report at their offline rate, spread over it
    const tc = performance.now();
    for (let i = 0; i < P.modules; i += 200) {
      const batch = keys.slice(i, Math.min(P.modules, i + 200));
      const connected = await Promise.all(
        batch.map(async (key, j) => new BenchModule(key, await connectClient(broker!.port, key, SECRET, true), i + j)),
      );
      modules.push(...connected);
    }
    log(`${fmt(modules.length)} modules connected in ${fmt((performance.now() - tc) / 1000, 1)} s`);
    let turn = 0;
    const perTick = Math.max(1, Math.ceil(modules.length / (P.reportS * 10)));
    reportTimer = setInterval(() => {
      for (let k = 0; k < perTick && modules.length; k++) modules[turn++ % modules.length]!.send();
    }, 100);
    // a full report period: every reporting set is held by its instance
    await sleep(Math.min(P.reportS, 90) * 1000);

    const token = await signIn(instances[0]!.url, COMPANY_ADMIN.account, COMPANY_ADMIN.password);
    const rows: string[][] = [];
    const verdicts: boolean[] = [];
    const phase = async (name: string, target: number, next: (c: number, n: number) => LoadRequest) => {
      const results = await measure(instances, next);
      const latencies = results.map((r) => r.latency);
      const p50 = Math.max(...latencies.map((l) => l.p50));
      const p99 = Math.max(...latencies.map((l) => l.p99));
      const requests = results.reduce((n, r) => n + r.requests, 0);
      const errors = results.reduce((n, r) => n + r.errors, 0);
      const first = results.find((r) => r.firstError)?.firstError;
      rows.push([
        name,
        fmt(requests / P.durationS),
        `${fmt(p50, 1)} / ${fmt(p99, 1)} ms`,
        `≤ ${target} ms`,
        String(errors),
      ]);
      verdicts.push(errors === 0 && p99 <= target);
      log(`${name}: p99 ${fmt(p99, 1)} ms, ${errors} errors${first ? ` (${first})` : ''}`);
    };
    for (const status of STATUS_FILTERS) {
      const body = JSON.stringify({ status, page: 1, size: 20 });
      await phase(`mylist ${status}, page 1 of 20`, TARGETS.mylistP99Ms, () => ({
        path: '/yewu/genset/mylist',
        headers: signedHeaders(token),
        body,
      }));
    }
    await phase('home summary', TARGETS.homeP99Ms, () => ({
      path: '/yewu/home/summary',
      headers: signedHeaders(token),
      body: '{}',
    }));

    const peaks = watches.map((w) => w.stop());
    const held = await Promise.all(
      instances.map(async (i) => {
        const res = await fetch(`${i.url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
        const text = await res.text();
        return Number(/^genset_ingest_sets_held (\d+)/m.exec(text)?.[1] ?? NaN);
      }),
    );
    console.log(
      `\n${fmt(P.sets)} sets in one company, ${fmt(modules.length)} modules reporting every ${P.reportS} s through Mosquitto, ` +
        `${P.instances} instances; ${P.connections} connections spread over them, ${P.durationS} s a call\n`,
    );
    console.log(
      table(['call (the company administrator)', 'req/s', 'p50 / p99 (worst instance)', 'target', 'errors'], rows),
    );
    console.log(
      `\n${table(
        ['instance', 'RSS now', 'RSS peak', 'target', 'sets held by ingestion'],
        instances.map((i, k) => [
          `i${k + 1}`,
          mib(procSample(i.pid).rssKb),
          mib(peaks[k]!.peakRssKb),
          `≤ ${fmt(TARGETS.rssMib)} MiB`,
          fmt(held[k]!),
        ]),
      )}\n`,
    );
    const rssOk = peaks.every((p) => p.peakRssKb / 1024 <= TARGETS.rssMib);
    const ok = verdicts.every(Boolean) && rssOk;
    log(`verdict: ${ok ? 'met' : 'NOT met'}  (${command})`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (reportTimer) clearInterval(reportTimer);
    await closeModules(modules);
    for (const i of instances) await i.stop().catch(() => undefined);
    await broker?.stop().catch(() => undefined);
    await onServer(base.toString(), (c) => c.query(`drop database if exists ${dbName} with (force)`)).catch(
      () => undefined,
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
