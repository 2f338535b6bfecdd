// HTTP API benchmark (`npm run bench:api`; not a test). Seeds a fresh SQLite file with BENCH_SETS sets (one
// module each, latest values for most of them) and BENCH_SUBSCRIBERS_PER_SET subscribers on every set, runs
// the real server program as a child process, and measures with BENCH_CONNECTIONS keep-alive connections
// (closed loop, as autocannon does): a bare Fastify route (its own child process) for the floor of this
// machine, "my gensets" (page of 20, each status filter, and a deep page), getstatus of a visible set; then
// the time of a three-month history chart of one item over hourly rollups. Prints the figures with the
// command that made them. Parameters (environment) are listed in BENCHMARKS.md.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { computeSign, DEFAULT_SIGN_SECRET, GENSET_STATUS_FILTERS, layoutS } from '@genset/protocol';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { createFleet } from '../apps/server/src/modules/devices/fleet.ts';
import { createUser, ensureCompanyRoles, seedBase } from '../apps/server/src/seed/base.ts';
import { load, type LoadRequest, type LoadResult } from './lib/http-load.ts';
import { freePort, spawnNode, waitForPort, waitForQuiet, watchMachine, watchProcess } from './lib/proc.ts';
import { ADMIN, signIn, startServerChild } from './lib/server.ts';
import { fmt, intEnv, mib, table } from './lib/stats.ts';
import { summariseProfile } from './lib/profile.ts';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

const P = {
  sets: intEnv('BENCH_SETS', 10_000, 10, 200_000),
  subscribersPerSet: intEnv('BENCH_SUBSCRIBERS_PER_SET', 100, 1, 1000),
  users: intEnv('BENCH_USERS', 1000, 1, 100_000),
  signedIn: intEnv('BENCH_SIGNED_IN', 50, 1, 1000),
  connections: intEnv('BENCH_CONNECTIONS', 50, 1, 1000),
  durationS: intEnv('BENCH_DURATION_S', 10, 1, 600),
  warmupS: intEnv('BENCH_WARMUP_S', 3, 0, 60),
  chartRuns: intEnv('BENCH_CHART_RUNS', 30, 1, 1000),
  quietWaitS: intEnv('BENCH_QUIET_WAIT_S', 30, 0, 3600),
  keep: process.env.BENCH_KEEP_DATA === '1',
  cpuProf: process.env.BENCH_CPU_PROF === '1',
};
const ENV_KEYS = [
  'BENCH_SETS',
  'BENCH_SUBSCRIBERS_PER_SET',
  'BENCH_USERS',
  'BENCH_SIGNED_IN',
  'BENCH_CONNECTIONS',
  'BENCH_DURATION_S',
  'BENCH_WARMUP_S',
  'BENCH_CHART_RUNS',
  'BENCH_QUIET_WAIT_S',
  'BENCH_KEEP_DATA',
  'BENCH_CPU_PROF',
];
if (P.users % P.subscribersPerSet !== 0)
  throw new Error('BENCH_USERS must be a multiple of BENCH_SUBSCRIBERS_PER_SET (each set gets distinct subscribers)');
if (P.signedIn > P.users) throw new Error('BENCH_SIGNED_IN cannot exceed BENCH_USERS');

const PASSWORD = 'Bench#2026';
const OWNERS = 100;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const CHART_DAYS = 91;
const TARGETS = { mylistP99Ms: 20, chartMs: 100 };

function commandLine(): string {
  const set = ENV_KEYS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  return [...set, 'npm run bench:api'].join(' ');
}

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** Deterministic spread of 0..99 over the set index. */
const spread = (s: number, salt: number) => (((s + 1) * 2654435761 + salt * 40503) >>> 0) % 100;

/** Latest values of a set as ingestion stores them: every item of layout S. */
function latestValues(s: number): Record<string, number> {
  const out: Record<string, number> = {};
  layoutS.items.forEach((item, i) => {
    out[item.key] = Math.round(((s * 31 + i * 17) % 500) * 10) / 10;
  });
  return out;
}

/** Subscriber user indexes of set s: distinct, and every user subscribes to sets × perSet / users sets. */
function subscribersOf(s: number): number[] {
  const stride = P.users / P.subscribersPerSet;
  return Array.from({ length: P.subscribersPerSet }, (_, j) => (s + stride * j) % P.users);
}

interface Seeded {
  tokens: string[];
  /** Per signed-in user: a few tokens of sets that user sees (for getstatus). */
  visible: string[][];
  chartToken: string;
  accounts: string[];
}

async function seed(dbFile: string): Promise<Seeded> {
  const database = await openDatabase(dbFile);
  const db = database.db;
  const tokens: string[] = [];
  const accounts: string[] = [];
  let companyId = 0;
  try {
    await seedBase(db, ADMIN);
    const company = await db
      .insertInto('company')
      .values({
        name: 'Bench Power Co.',
        title: 'Bench Power Co.',
        logo: null,
        baidu_key: '',
        index_template: 'default',
        created_at: Date.now(),
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    companyId = company.id;
    await ensureCompanyRoles(db, companyId);
    // One account made by the server's code gives the password hash the others share (hashing 1,100 passwords
    // with Argon2id would take minutes and measures nothing here).
    await createUser(db, {
      companyId,
      roleId: null,
      account: 'bench-template@example.com',
      password: PASSWORD,
      nickname: 'Template',
    });
  } finally {
    await database.close();
  }

  const sqlite = new DatabaseSync(dbFile);
  const roles = sqlite.prepare('select id, role_key from role where company_id = ?').all(companyId) as {
    id: number;
    role_key: string;
  }[];
  const roleId = (key: string) => roles.find((r) => r.role_key === key)!.id;
  const template = sqlite
    .prepare('select password_hash, message_settings from users where account = ?')
    .get('bench-template@example.com') as { password_hash: string; message_settings: string };
  const insertUser = sqlite.prepare(
    `insert into users (company_id, department_id, role_id, account, account_kind, nickname, type, password_hash,
       invite_code, status, message_settings, created_at, updated_at, deleted_at)
     values (?, null, ?, ?, 'email', ?, 'corporate', ?, ?, 'active', ?, ?, ?, null) returning id`,
  );
  const ownerIds: number[] = [];
  const userIds: number[] = [];
  const now = Date.now();
  sqlite.exec('begin');
  for (let i = 0; i < OWNERS; i++) {
    const row = insertUser.get(
      companyId,
      roleId('companyAdmin'),
      `bench-owner-${i}@example.com`,
      `Owner ${i}`,
      template.password_hash,
      `BO${String(i).padStart(6, '0')}`,
      template.message_settings,
      now,
      now,
    ) as { id: number };
    ownerIds.push(row.id);
  }
  for (let i = 0; i < P.users; i++) {
    const account = `bench-user-${i}@example.com`;
    const row = insertUser.get(
      companyId,
      roleId('viewer'),
      account,
      `User ${i}`,
      template.password_hash,
      `BU${String(i).padStart(8, '0')}`,
      template.message_settings,
      now,
      now,
    ) as { id: number };
    userIds.push(row.id);
    accounts.push(account);
  }
  sqlite.exec('commit');
  sqlite.close();

  // Sets and their modules through the server's own code (tokens, codes, search text).
  const again = await openDatabase(dbFile);
  const gensetIds: number[] = [];
  try {
    await again.db.transaction().execute(async (trx) => {
      const fleet = createFleet(trx);
      for (let s = 0; s < P.sets; s++) {
        const key = `bench-${String(s).padStart(6, '0')}`;
        const modem = await fleet.createModem({ companyId, modemKey: key, secret: 'bench-secret' });
        const set = await fleet.createGenset({
          companyId,
          ownerUserId: ownerIds[s % OWNERS]!,
          name: `Set ${String(s).padStart(6, '0')} ${['North', 'South', 'East', 'West'][s % 4]}`,
          number: `BN-${s}`,
          modemId: modem.id,
          protocolKey: layoutS.key,
          details: {
            ratedPowerKw: 50 + (s % 20) * 25,
            controllerModel: 'HGM6120',
            latitude: 30 + (s % 100) / 10,
            longitude: 120,
          },
        });
        tokens.push(set.token);
        gensetIds.push(set.id);
      }
    });
  } finally {
    await again.close();
  }

  const bulk = new DatabaseSync(dbFile);
  bulk.exec('begin');
  const insertSub = bulk.prepare(
    'insert into subscription (genset_id, user_id, rights, created_at) values (?, ?, ?, ?)',
  );
  const insertLatest = bulk.prepare(
    'insert into set_latest (genset_id, status, alarm_count, "values", device_ts, updated_at) values (?, ?, ?, ?, ?, ?)',
  );
  for (let s = 0; s < P.sets; s++) {
    subscribersOf(s).forEach((u, j) =>
      insertSub.run(gensetIds[s]!, userIds[u]!, (s + j) % 5 === 0 ? 'control' : 'view', now),
    );
    // one set in ten has never sent anything; the others spread over the statuses, 8 % with alarms
    if (s % 10 === 9) continue;
    const r = spread(s, 1);
    const status = r < 10 ? 0 : r < 35 ? 1 : r < 70 ? 2 : 3;
    const alarms = spread(s, 2) < 8 ? 1 + (s % 3) : 0;
    insertLatest.run(gensetIds[s]!, status, alarms, JSON.stringify(latestValues(s)), now - (s % 600) * 1000, now);
  }
  // Three months of hourly rollups (every item of layout S, as ingestion writes them) for the chart's set.
  const chartSet = 0;
  const insertRollup = bulk.prepare('insert into rollup_hour (genset_id, bucket, stats, samples) values (?, ?, ?, ?)');
  const firstHour = now - (now % HOUR) - CHART_DAYS * DAY;
  for (let bucket = firstHour; bucket < now; bucket += HOUR) {
    const stats: Record<string, { min: number; max: number; sum: number; n: number; first: number; last: number }> = {};
    const h = (bucket - firstHour) / HOUR;
    layoutS.items.forEach((item, i) => {
      const avg = 100 + 50 * Math.sin((h + i) / 12);
      stats[item.key] = { min: avg - 5, max: avg + 5, sum: avg * 360, n: 360, first: avg - 1, last: avg + 1 };
    });
    insertRollup.run(gensetIds[chartSet]!, bucket, JSON.stringify(stats), 360);
  }
  bulk.exec('commit');
  bulk.exec('analyze');
  bulk.close();

  const visible = Array.from({ length: P.signedIn }, (_, u) =>
    tokens.filter((_, s) => subscribersOf(s).includes(u)).slice(0, 50),
  );
  // the chart's set must be visible to the first signed-in user
  if (!subscribersOf(chartSet).includes(0)) throw new Error('chart set not visible to user 0');
  return { tokens, visible, chartToken: tokens[chartSet]!, accounts };
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

interface Row {
  name: string;
  result: LoadResult;
  serverCpu: number;
  benchCpu: number;
  others: number;
  connections: number;
}

async function measure(
  name: string,
  pid: number,
  url: string,
  next: (c: number, n: number) => LoadRequest,
  opts: { rawOk?: boolean; connections?: number } = {},
): Promise<Row> {
  const connections = opts.connections ?? P.connections;
  const rawOk = opts.rawOk ?? false;
  const q = await waitForQuiet(P.quietWaitS * 1000);
  if (q.cores >= 0.35) log(`  machine still busy (${fmt(q.cores, 2)} cores in use by others)`);
  if (P.warmupS > 0) await load(url, { connections, durationMs: P.warmupS * 1000, next, rawOk });
  const proc = watchProcess(pid);
  const machine = watchMachine();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await load(url, { connections, durationMs: P.durationS * 1000, next, rawOk });
  const p = proc.stop();
  const cpu = process.cpuUsage(cpu0);
  const benchCores = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
  const others = Math.max(0, machine.stop() - p.cpuPercent / 100 - benchCores);
  log(
    `${name}: ${fmt(result.perSecond)} req/s, p50 ${fmt(result.latency.p50, 1)} ms, p99 ${fmt(result.latency.p99, 1)} ms, ` +
      `${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
  );
  return { name, result, serverCpu: p.cpuPercent, benchCpu: benchCores * 100, others, connections };
}

async function main() {
  const started = Date.now();
  const machine =
    `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, ` +
    `Linux ${release()}, Node ${process.version}`;
  const perUser = (P.sets * P.subscribersPerSet) / P.users;
  console.log(`Command: ${commandLine()}`);
  console.log(`Machine: ${machine}`);
  console.log(
    `Parameters: ${fmt(P.sets)} sets, ${P.subscribersPerSet} subscribers each (${fmt(P.sets * P.subscribersPerSet)} subscriptions), ` +
      `${fmt(P.users)} subscriber accounts with ${fmt(perUser)} sets each, ${P.signedIn} of them signed in, ` +
      `${P.connections} connections, ${P.durationS} s per phase after ${P.warmupS} s warm-up\n`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-bench-api-'));
  const dbFile = join(dataDir, 'console.db');
  const bare = { port: await freePort() };
  let server: Awaited<ReturnType<typeof startServerChild>> | null = null;
  let bareChild: ReturnType<typeof spawnNode> | null = null;
  // Interrupted: stop the child processes and remove the data directory before leaving.
  const interrupted = () => {
    log('interrupted: stopping the servers');
    void Promise.allSettled([bareChild?.stop(), server?.stop()]).then(() => {
      if (!P.keep) rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const t0 = performance.now();
    const seeded = await seed(dbFile);
    log(`seeded in ${fmt((performance.now() - t0) / 1000, 1)} s (${dbFile})`);

    bareChild = spawnNode('bare-fastify.ts', { cwd: BENCH_DIR, env: { PORT: String(bare.port) } });
    await waitForPort(bareChild, bare.port, 30_000);
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    const rows: Row[] = [];
    rows.push(
      await measure(
        'bare Fastify route',
        bareChild.pid,
        bareUrl,
        () => ({ path: '/yewu/bare', headers: {}, body: '{}' }),
        { rawOk: true },
      ),
    );
    await bareChild.stop();
    bareChild = null;

    const profDir = join(dataDir, 'profile');
    server = await startServerChild(dataDir, P.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
    const serverStartedAt = Date.now();
    log(`server pid ${server.pid} on ${server.url}`);
    const utokens: string[] = [];
    for (let u = 0; u < P.signedIn; u++) utokens.push(await signIn(server.url, seeded.accounts[u]!, PASSWORD));
    log(`${utokens.length} subscribers signed in`);
    const userOf = (c: number) => c % utokens.length;

    const mylistBodies: [string, Record<string, unknown>][] = [
      ...GENSET_STATUS_FILTERS.map((status): [string, Record<string, unknown>] => [
        `mylist ${status}, page 1 of 20`,
        { status, page: 1, size: 20 },
      ]),
      ['mylist all, page 20 of 20', { status: 'all', page: 20, size: 20 }],
      ['mylist search "north", page 1', { status: 'all', search: 'north', page: 1, size: 20 }],
    ];
    const totals = new Map<string, number>();
    const firstPhaseAt = Date.now();
    for (const [name, body] of mylistBodies) {
      const text = JSON.stringify(body);
      const row = await measure(name, server.pid, server.url, (c) => ({
        path: '/yewu/genset/mylist',
        headers: signedHeaders(utokens[userOf(c)]!),
        body: text,
      }));
      rows.push(row);
      // what the page held, for the table
      const probe = await fetch(`${server.url}/yewu/genset/mylist`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(utokens[0]!) },
        body: text,
      });
      const data = ((await probe.json()) as { data: { total: number; list: unknown[] } }).data;
      totals.set(name, data.total);
      totals.set(`${name}#rows`, data.list.length);
    }
    rows.push(
      await measure('getstatus', server.pid, server.url, (c, n) => {
        const u = userOf(c);
        const list = seeded.visible[u]!;
        return {
          path: '/yewu/devicedata/getstatus',
          headers: signedHeaders(utokens[u]!),
          body: JSON.stringify({ token: list[n % list.length] }),
        };
      }),
    );

    // The same calls from one connection: what a single user waits for when the server is not loaded.
    const single: Row[] = [];
    const mylistAll = JSON.stringify({ status: 'all', page: 1, size: 20 });
    single.push(
      await measure(
        'mylist all, page 1 (1 connection)',
        server.pid,
        server.url,
        () => ({ path: '/yewu/genset/mylist', headers: signedHeaders(utokens[0]!), body: mylistAll }),
        { connections: 1 },
      ),
    );
    single.push(
      await measure(
        'getstatus (1 connection)',
        server.pid,
        server.url,
        (_c, n) => ({
          path: '/yewu/devicedata/getstatus',
          headers: signedHeaders(utokens[0]!),
          body: JSON.stringify({ token: seeded.visible[0]![n % seeded.visible[0]!.length] }),
        }),
        { connections: 1 },
      ),
    );

    // Three-month chart of one item, one request at a time (what a user waits for when opening it).
    await waitForQuiet(P.quietWaitS * 1000);
    const chartBody = JSON.stringify({ token: seeded.chartToken, items: ['gen_kw'], range: 'threeMonths' });
    const chartCheck = await fetch(`${server.url}/yewu/history/chart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(utokens[0]!) },
      body: chartBody,
    });
    const chartAnswer = (await chartCheck.json()) as {
      code: number;
      msg: string;
      data?: { resolution: string; step: number; series: { points: unknown[] }[] };
    };
    let chart: LoadResult | null = null;
    if (chartAnswer.code !== 200) log(`history chart not available: ${chartAnswer.code} ${chartAnswer.msg}`);
    else {
      chart = await load(server.url, {
        connections: 1,
        durationMs: 120_000,
        maxRequests: P.chartRuns,
        next: () => ({ path: '/yewu/history/chart', headers: signedHeaders(utokens[0]!), body: chartBody }),
      });
      log(`three-month chart: p50 ${fmt(chart.latency.p50, 1)} ms, p99 ${fmt(chart.latency.p99, 1)} ms`);
    }
    const warnings = server.logLines();
    const rss = watchProcess(server.pid).stop().rssKb;

    console.log(`\n=== Results of: ${commandLine()} ===`);
    console.log(`Machine: ${machine}`);
    console.log(`Server: ${server.command}\n`);
    console.log(
      `1. Keep-alive connections (conns), closed loop, ${P.durationS} s each after ${P.warmupS} s warm-up; latency = request written to body read\n`,
    );
    const bareRate = rows[0]!.result.perSecond;
    console.log(
      table(
        [
          'call',
          'conns',
          'rows (total)',
          'req/s',
          'of bare',
          'p50 ms',
          'p99 ms',
          'max ms',
          'bytes',
          'errors',
          'server CPU %',
          'bench CPU %',
          'others (cores)',
        ],
        [...rows, ...single].map((r) => [
          r.name,
          String(r.connections),
          totals.has(r.name) ? `${totals.get(`${r.name}#rows`)} (${fmt(totals.get(r.name)!)})` : '',
          fmt(r.result.perSecond),
          `${fmt((r.result.perSecond / bareRate) * 100, 1)} %`,
          fmt(r.result.latency.p50, 1),
          fmt(r.result.latency.p99, 1),
          fmt(r.result.latency.max, 1),
          fmt(r.result.bytesPerAnswer),
          fmt(r.result.errors),
          fmt(r.serverCpu),
          fmt(r.benchCpu),
          fmt(r.others, 2),
        ]),
      ),
    );
    const worstMylist = Math.max(...rows.filter((r) => r.name.startsWith('mylist')).map((r) => r.result.latency.p99));
    console.log(
      `\nmylist p99, worst of the filters: ${fmt(worstMylist, 1)} ms (target ≤ ${TARGETS.mylistP99Ms} ms: ${worstMylist <= TARGETS.mylistP99Ms ? 'met' : 'NOT MET'})`,
    );
    if (chart && chartAnswer.data) {
      const points = chartAnswer.data.series[0]?.points.length ?? 0;
      console.log(
        `\n2. Three-month history chart of one item (gen_kw; ${fmt(CHART_DAYS * 24)} hourly rollups of ${layoutS.items.length} items each; ` +
          `answer: ${points} points, resolution ${chartAnswer.data.resolution}, step ${fmt(chartAnswer.data.step / 60000)} min), ` +
          `${chart.requests} requests one after another:`,
      );
      console.log(
        `   p50 ${fmt(chart.latency.p50, 1)} ms, p99 ${fmt(chart.latency.p99, 1)} ms, max ${fmt(chart.latency.max, 1)} ms, ` +
          `${fmt(chart.bytesPerAnswer)} bytes (target ≤ ${TARGETS.chartMs} ms: ${chart.latency.p99 <= TARGETS.chartMs ? 'met' : 'NOT MET'})`,
      );
    } else console.log('\n2. Three-month history chart: not measured (the call answered an error, see above)');
    console.log(`\nServer RSS at the end: ${mib(rss)}`);
    if (warnings.length) {
      console.log(`Server warnings/errors (${warnings.length} lines), first 10:`);
      for (const l of warnings.slice(0, 10)) console.log(`  ${l.slice(0, 300)}`);
    } else console.log('Server wrote no warning or error.');
    if (P.cpuProf) {
      await server.stop();
      server = null;
      const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) {
        const profile = summariseProfile(join(profDir, file), firstPhaseAt - serverStartedAt, 30);
        console.log(
          `\nServer CPU profile from the first mylist phase on (${fmt(profile.total)} ms sampled), self time by area:`,
        );
        console.log(table(['area', 'share', 'time'], profile.byArea));
        console.log('\nTop functions by self time:');
        console.log(table(['function', 'share', 'time'], profile.byFunction));
      }
    }
    console.log(`Total time ${fmt((Date.now() - started) / 1000)} s`);
  } finally {
    await bareChild?.stop();
    await server?.stop();
    if (P.keep) console.log(`Data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
