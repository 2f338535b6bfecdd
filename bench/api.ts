// HTTP API benchmark (`npm run bench:api`; not a test). Seeds a fresh SQLite file with BENCH_SETS sets (one
// module each, latest values for most of them) and BENCH_SUBSCRIBERS_PER_SET subscribers on every set, and
// BENCH_STATIONS energy-storage stations (a module with a PCS, a BMS and a grid meter each, a price template and a
// year of energy per day and tariff period), runs the real server program as a child process, and measures with
// BENCH_CONNECTIONS keep-alive connections (closed loop, as autocannon does): a bare Fastify route (its own child
// process) for the floor of this machine, "my gensets" (page of 20, each status filter, and a deep page),
// getstatus of a visible set; the time of a three-month history chart of one item over hourly rollups and of a
// year of ten items over daily rollups; then, on a fresh server process, "my stations" (page 1 of 20) and a year of
// one station's statistics; last, the year chart on a PostgreSQL copy of the same database (BENCH_DATABASE_URL,
// default the local server; '0' leaves it out). Prints the figures with the command that made them. Parameters (environment) are listed in BENCHMARKS.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  GENSET_STATUS_FILTERS,
  LAYOUT_E_DOCUMENTS,
  layoutS,
  localClock,
  PRICE_PERIODS,
  priceTemplateBody,
  TWO_CYCLE_DAY,
  buyAndSell,
  type PricePeriod,
} from '@genset/protocol';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { createFleet } from '../apps/server/src/modules/devices/fleet.ts';
import { createUser, ensureCompanyRoles, seedBase } from '../apps/server/src/seed/base.ts';
import { load, type LoadRequest, type LoadResult } from './lib/http-load.ts';
import { freePort, spawnNode, waitForPort, waitForQuiet, watchMachine, watchProcess } from './lib/proc.ts';
import { ADMIN, insertCompany, signIn, startServerChild } from './lib/server.ts';
import { fmt, intEnv, mib, table } from './lib/stats.ts';
import { summariseProfile } from './lib/profile.ts';
import { copyToPostgres, measureChart, seedRollups, yearChartBody, YEAR_DAYS, YEAR_ITEMS } from './lib/long-chart.ts';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

const P = {
  sets: intEnv('BENCH_SETS', 10_000, 10, 200_000),
  subscribersPerSet: intEnv('BENCH_SUBSCRIBERS_PER_SET', 100, 1, 1000),
  users: intEnv('BENCH_USERS', 1000, 1, 100_000),
  signedIn: intEnv('BENCH_SIGNED_IN', 50, 1, 1000),
  stations: intEnv('BENCH_STATIONS', 100, 20, 2000),
  connections: intEnv('BENCH_CONNECTIONS', 50, 1, 1000),
  durationS: intEnv('BENCH_DURATION_S', 10, 1, 600),
  warmupS: intEnv('BENCH_WARMUP_S', 3, 0, 60),
  chartRuns: intEnv('BENCH_CHART_RUNS', 30, 1, 1000),
  quietWaitS: intEnv('BENCH_QUIET_WAIT_S', 30, 0, 3600),
  keep: process.env.BENCH_KEEP_DATA === '1',
  /** The PostgreSQL server the year chart is measured on as well ('0': SQLite only). */
  postgres:
    process.env.BENCH_DATABASE_URL === '0'
      ? ''
      : process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  cpuProf: process.env.BENCH_CPU_PROF === '1',
};
const ENV_KEYS = [
  'BENCH_SETS',
  'BENCH_SUBSCRIBERS_PER_SET',
  'BENCH_USERS',
  'BENCH_SIGNED_IN',
  'BENCH_STATIONS',
  'BENCH_CONNECTIONS',
  'BENCH_DURATION_S',
  'BENCH_WARMUP_S',
  'BENCH_CHART_RUNS',
  'BENCH_QUIET_WAIT_S',
  'BENCH_KEEP_DATA',
  'BENCH_DATABASE_URL',
  'BENCH_CPU_PROF',
];
if (P.users % P.subscribersPerSet !== 0)
  throw new Error('BENCH_USERS must be a multiple of BENCH_SUBSCRIBERS_PER_SET (each set gets distinct subscribers)');
if (P.signedIn > P.users) throw new Error('BENCH_SIGNED_IN cannot exceed BENCH_USERS');

const PASSWORD = 'Bench#2026';
const OWNERS = 100;
const DAY = 86_400_000;
const TARGETS = { mylistP99Ms: 20, chartMs: 100, stationP99Ms: 50, yearChartMs: 300 };
/** Days of energy each station holds (its last 365 local days, today included). */
const STATION_DAYS = 365;
/** The station calls' page: "my stations", page 1 of 20 rows. */
const STATION_PAGE = { page: 1, size: 20 };

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

/** What each station binds on its module: the sets and the unit id each answers on. */
const STATION_DEVICES = [
  { role: 'pcs', unit: 1 },
  { role: 'bms', unit: 2 },
  { role: 'meter', unit: 3 },
] as const;
type StationRole = (typeof STATION_DEVICES)[number]['role'];

/** Where the stations are, by station index: time zone, currency and what a price there is worth. */
const STATION_PLACES = [
  { place: 'Shanghai', timeZone: 'Asia/Shanghai', currency: 'CNY', priceScale: 1 },
  { place: 'Suzhou', timeZone: 'Asia/Shanghai', currency: 'CNY', priceScale: 1 },
  { place: 'Valencia', timeZone: 'Europe/Madrid', currency: 'EUR', priceScale: 0.15 },
  { place: 'Osaka', timeZone: 'Asia/Tokyo', currency: 'JPY', priceScale: 20 },
] as const;
const placeOf = (i: number) => STATION_PLACES[i % STATION_PLACES.length]!;
const stationName = (i: number) => `Station ${String(i).padStart(4, '0')} ${placeOf(i).place}`;

/** A two-cycle time-of-use day (charged in the night valley and the midday flat, emptied in the peaks). */
function stationTariff(priceScale: number) {
  return priceTemplateBody.parse({
    ranges: TWO_CYCLE_DAY.ranges,
    prices: buyAndSell(TWO_CYCLE_DAY.prices, priceScale),
    powerKw: 200,
    chargeCutoffSoc: 95,
    dischargeCutoffSoc: 10,
    socMargin: 5,
    chargeInFlat: true,
    reversePower: { enabled: true, marginKw: 5 },
    demandControl: { enabled: false, limitKw: 400 },
  });
}

/** Share of the capacity charged and discharged in each period of a day. */
const PERIOD_SHARES: Record<PricePeriod, { charge: number; discharge: number }> = {
  sharp: { charge: 0, discharge: 0.25 },
  peak: { charge: 0, discharge: 0.55 },
  flat: { charge: 0.15, discharge: 0.05 },
  valley: { charge: 0.75, discharge: 0 },
};

/** The day `k` days before a YYYY-MM-DD day. */
const daysBefore = (day: string, k: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - k * DAY).toISOString().slice(0, 10);

/** Latest values of a station's set as ingestion stores them: every item of its layout-E document. */
function stationLatest(role: StationRole, i: number, ratingKw: number, capacityKwh: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of LAYOUT_E_DOCUMENTS[role].items) out[item.key] = 0;
  if (role === 'pcs') {
    // a third charging, a third discharging, a third at rest
    const power = [-0.6, 0.6, 0][i % 3]! * ratingKw;
    Object.assign(out, {
      pcs_state: power < 0 ? 2 : power > 0 ? 3 : 1,
      active_power: power,
      ac_frequency: 50,
      rated_power: ratingKw,
      charge_energy: capacityKwh * 330,
      discharge_energy: capacityKwh * 300,
      power_setpoint: power,
    });
  } else if (role === 'bms') {
    Object.assign(out, {
      bms_state: 1,
      soc: 20 + ((i * 7) % 70),
      soh: 98,
      charge_power_limit: ratingKw,
      discharge_power_limit: ratingKw,
      rated_capacity: capacityKwh,
    });
  } else Object.assign(out, { frequency: 50, grid_power: 80 + (i % 50), power_factor: 0.98 });
  return out;
}

interface SeededStations {
  /** Station tokens, by station index. */
  tokens: string[];
  /** Accounts that see every station: the company administrators who own them. */
  accounts: string[];
  /** The calendar year holding most of the stations' year, and how many of its days hold energy rows. */
  statsYear: string;
  statsDays: number;
  energyRows: number;
}

interface Seeded {
  tokens: string[];
  /** Per signed-in user: a few tokens of sets that user sees (for getstatus). */
  visible: string[][];
  chartToken: string;
  rollups: { hours: number; days: number };
  accounts: string[];
  stations: SeededStations;
}

async function seed(dbFile: string): Promise<Seeded> {
  const database = await openDatabase(dbFile);
  const db = database.db;
  const tokens: string[] = [];
  const accounts: string[] = [];
  let companyId = 0;
  try {
    await seedBase(db, ADMIN);
    companyId = await insertCompany(db, 'Bench Power Co.');
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
  const stationModules: { modemId: number; sets: Record<StationRole, number> }[] = [];
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
      // Each station's module and the sets on it (PCS, BMS, grid meter), owned like the station.
      for (let i = 0; i < P.stations; i++) {
        const modem = await fleet.createModem({
          companyId,
          modemKey: `bench-ess-${String(i).padStart(4, '0')}`,
          secret: 'bench-secret',
        });
        const sets = {} as Record<StationRole, number>;
        for (const { role, unit } of STATION_DEVICES) {
          const set = await fleet.createGenset({
            companyId,
            ownerUserId: ownerIds[i % OWNERS]!,
            name: `${stationName(i)} · ${role.toUpperCase()}`,
            modemId: modem.id,
            port: 'port1',
            address: unit,
            protocolKey: LAYOUT_E_DOCUMENTS[role].key,
            timeZone: placeOf(i).timeZone,
          });
          sets[role] = set.id;
        }
        stationModules.push({ modemId: modem.id, sets });
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
  // A year of hourly and daily rollups (every item of layout S, as ingestion writes them) for the chart's set.
  const chartSet = 0;
  const rollups = seedRollups(
    bulk,
    gensetIds[chartSet]!,
    layoutS.items.map((i) => i.key),
    YEAR_DAYS,
    now,
  );
  const stations = seedStations(bulk, companyId, ownerIds, stationModules, now, insertLatest);
  bulk.exec('commit');
  bulk.exec('analyze');
  bulk.close();

  const visible = Array.from({ length: P.signedIn }, (_, u) =>
    tokens.filter((_, s) => subscribersOf(s).includes(u)).slice(0, 50),
  );
  // the chart's set must be visible to the first signed-in user
  if (!subscribersOf(chartSet).includes(0)) throw new Error('chart set not visible to user 0');
  return { tokens, visible, chartToken: tokens[chartSet]!, accounts, stations, rollups };
}

/**
 * The stations, in the open transaction of `bulk`: per station a price template with one version (in force since
 * before its year), the station on its module (owned by one of the company administrators, who see every station of
 * the company), its PCS, BMS and meter bound, their latest values, and its last 365 local days of energy per tariff
 * period (charge and discharge kWh, cost and income at the version's prices), as ingestion counts them.
 */
function seedStations(
  bulk: DatabaseSync,
  companyId: number,
  ownerIds: number[],
  modules: { modemId: number; sets: Record<StationRole, number> }[],
  now: number,
  insertLatest: ReturnType<DatabaseSync['prepare']>,
): SeededStations {
  const insertTemplate = bulk.prepare(
    `insert into price_template (company_id, name, created_by, created_at, updated_at, deleted_at)
     values (?, ?, null, ?, ?, null) returning id`,
  );
  const insertVersion = bulk.prepare(
    `insert into price_template_version (template_id, version, body, valid_from, created_by, created_by_name, created_at)
     values (?, 1, ?, ?, null, 'Bench', ?) returning id`,
  );
  const insertSite = bulk.prepare(
    `insert into site (token, company_id, owner_user_id, name, address, lat, lon, time_zone, currency, capacity_kwh,
       rating_kw, transformer_kw, build_date, modem_id, template_id, created_at, updated_at, deleted_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null) returning id`,
  );
  const insertDevice = bulk.prepare('insert into site_device (site_id, genset_id, role, sort) values (?, ?, ?, ?)');
  const insertEnergy = bulk.prepare(
    `insert into site_energy (site_id, day, period, template_version_id, charge_kwh, discharge_kwh, charge_cost,
       discharge_income) values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const validFrom = now - (STATION_DAYS + 30) * DAY;
  const tokens: string[] = [];
  const daysPerYear = new Map<string, number>();
  let energyRows = 0;
  const stations: {
    siteId: number;
    versionId: number;
    tariff: ReturnType<typeof stationTariff>;
    capacityKwh: number;
    today: string;
  }[] = [];
  modules.forEach(({ modemId, sets }, i) => {
    const place = placeOf(i);
    const tariff = stationTariff(place.priceScale);
    const capacityKwh = 500 + (i % 4) * 250;
    const ratingKw = capacityKwh / 2;
    const template = insertTemplate.get(companyId, `Tariff of ${stationName(i)}`, now, now) as { id: number };
    const version = insertVersion.get(template.id, JSON.stringify(tariff), validFrom, now) as { id: number };
    const token = randomBytes(12).toString('base64url');
    const today = localClock(now, place.timeZone).day;
    const site = insertSite.get(
      token,
      companyId,
      ownerIds[i % OWNERS]!,
      stationName(i),
      `${place.place} industrial park, unit ${i}`,
      30 + (i % 10) / 10,
      120 + (i % 7) / 10,
      place.timeZone,
      place.currency,
      capacityKwh,
      ratingKw,
      ratingKw * 1.6,
      daysBefore(today, STATION_DAYS + 30),
      modemId,
      template.id,
      now,
      now,
    ) as { id: number };
    tokens.push(token);
    STATION_DEVICES.forEach(({ role }, sort) => {
      insertDevice.run(site.id, sets[role], role, sort);
      const values = stationLatest(role, i, ratingKw, capacityKwh);
      insertLatest.run(sets[role], 3, 0, JSON.stringify(values), now - (i % 60) * 1000, now);
    });
    stations.push({
      siteId: site.id,
      versionId: version.id,
      tariff,
      capacityKwh,
      today,
    });
  });
  // Energy day by day, oldest first, every station's day before the next day (the order ingestion writes it in, so
  // a station's rows lie spread over the table as they would after a year of service).
  for (let d = STATION_DAYS - 1; d >= 0; d--) {
    stations.forEach((station, i) => {
      const day = daysBefore(station.today, d);
      if (i === 0) daysPerYear.set(day.slice(0, 4), (daysPerYear.get(day.slice(0, 4)) ?? 0) + 1);
      // each day a little different: 80–100 % of a full cycle
      const f = 0.8 + 0.2 * (spread(i * 1000 + d, 3) / 100);
      for (const period of PRICE_PERIODS) {
        const charge = Math.round(station.capacityKwh * PERIOD_SHARES[period].charge * f * 1000) / 1000;
        const discharge = Math.round(station.capacityKwh * PERIOD_SHARES[period].discharge * f * 0.92 * 1000) / 1000;
        const price = station.tariff.prices[period];
        insertEnergy.run(
          station.siteId,
          day,
          period,
          station.versionId,
          charge,
          discharge,
          charge * price.buy,
          discharge * price.sell,
        );
        energyRows++;
      }
    });
  }
  // each station's totals since it was built, as counting keeps them
  bulk.exec(`update site set
    total_charge_kwh = (select sum(e.charge_kwh) from site_energy e where e.site_id = site.id),
    total_discharge_kwh = (select sum(e.discharge_kwh) from site_energy e where e.site_id = site.id),
    total_charge_cost = (select sum(e.charge_cost) from site_energy e where e.site_id = site.id),
    total_discharge_income = (select sum(e.discharge_income) from site_energy e where e.site_id = site.id)
    where exists (select 1 from site_energy e where e.site_id = site.id)`);
  const [statsYear, statsDays] = [...daysPerYear.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const owners = Math.min(P.signedIn, OWNERS);
  return {
    tokens,
    accounts: Array.from({ length: owners }, (_, i) => `bench-owner-${i}@example.com`),
    statsYear,
    statsDays,
    energyRows,
  };
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
  opts: { rawOk?: boolean; connections?: number; method?: 'GET' | 'POST' } = {},
): Promise<Row> {
  const connections = opts.connections ?? P.connections;
  const rawOk = opts.rawOk ?? false;
  const q = await waitForQuiet(P.quietWaitS * 1000);
  if (q.cores >= 0.35) log(`  machine still busy (${fmt(q.cores, 2)} cores in use by others)`);
  const method = opts.method ?? 'POST';
  const nextOf = (c: number, n: number): LoadRequest => ({ ...next(c, n), method });
  if (P.warmupS > 0) await load(url, { connections, durationMs: P.warmupS * 1000, next: nextOf, rawOk });
  const proc = watchProcess(pid);
  const machine = watchMachine();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await load(url, { connections, durationMs: P.durationS * 1000, next: nextOf, rawOk });
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
      `${fmt(P.stations)} stations with ${STATION_DAYS} days of energy each, ` +
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
    // the profile's clock starts with the process: phases are placed in it from the time of the spawn
    const serverStartedAt = Date.now();
    server = await startServerChild(dataDir, P.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
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
    // A year of ten items of the same set in one request (daily rollups), one request at a time.
    const yearItems = layoutS.items.slice(0, YEAR_ITEMS).map((i) => i.key);
    const yearBody = yearChartBody(seeded.chartToken, yearItems);
    const yearSqlite = await measureChart(server.url, () => signedHeaders(utokens[0]!), yearBody, P.chartRuns);
    if (yearSqlite.result) log(`year chart (SQLite): p99 ${fmt(yearSqlite.result.latency.p99, 1)} ms`);
    else log(`year chart not available: ${yearSqlite.answer.code} ${yearSqlite.answer.msg}`);
    const warnings = server.logLines();
    const rss = watchProcess(server.pid).stop().rssKb;
    const serverCommand = server.command;
    await server.stop();
    server = null;

    // Stations, on a fresh server process of the same database (its CPU profile is then the station calls' alone).
    // The callers are company administrators: their role has site:view with the company's data scope, so each
    // sees every station of the company (the subscribers' viewer role sees only stations they own).
    const stationProfDir = join(dataDir, 'profile-stations');
    const stationServerStartedAt = Date.now();
    server = await startServerChild(dataDir, P.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${stationProfDir}`] : []);
    log(`station server pid ${server.pid} on ${server.url}`);
    const st = seeded.stations;
    const otokens: string[] = [];
    for (const account of st.accounts) otokens.push(await signIn(server.url, account, PASSWORD));
    log(`${otokens.length} company administrators signed in`);
    const ownerOf = (c: number) => c % otokens.length;
    const listPath = `/yewu/site/list?page=${STATION_PAGE.page}&size=${STATION_PAGE.size}`;
    const listProbe = (await (
      await fetch(`${server.url}${listPath}`, { headers: signedHeaders(otokens[0]!) })
    ).json()) as {
      code: number;
      msg: string;
      data?: { total: number; list: { name: string; status: number; totalIncome: number }[] };
    };
    if (listProbe.code !== 200 || !listProbe.data) throw new Error(`station list: ${listProbe.code} ${listProbe.msg}`);
    if (listProbe.data.total !== P.stations)
      throw new Error(`station list: ${listProbe.data.total} stations seen, ${P.stations} seeded`);
    const statsBody = (n: number) =>
      JSON.stringify({ token: st.tokens[n % st.tokens.length], granularity: 'year', date: st.statsYear });
    const statsProbe = (await (
      await fetch(`${server.url}/yewu/ems/stats`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(otokens[0]!) },
        body: statsBody(0),
      })
    ).json()) as {
      code: number;
      msg: string;
      data?: { buckets: unknown[]; totals: { chargeKwh: number; dischargeKwh: number; income: number } };
    };
    if (statsProbe.code !== 200 || !statsProbe.data)
      throw new Error(`station stats: ${statsProbe.code} ${statsProbe.msg}`);
    const statsName = `station stats, year ${st.statsYear} by month`;
    const firstStationPhaseAt = Date.now();
    const stationRows: Row[] = [];
    stationRows.push(
      await measure(
        'station list, page 1 of 20',
        server.pid,
        server.url,
        (c) => ({ path: listPath, headers: signedHeaders(otokens[ownerOf(c)]!), body: '' }),
        { method: 'GET' },
      ),
    );
    // Each request asks for another station's year (the connections go round all of them).
    stationRows.push(
      await measure(statsName, server.pid, server.url, (c, n) => ({
        path: '/yewu/ems/stats',
        headers: signedHeaders(otokens[ownerOf(c)]!),
        body: statsBody(c * 7 + n),
      })),
    );
    stationRows.push(
      await measure(
        'station list, page 1 (1 connection)',
        server.pid,
        server.url,
        () => ({ path: listPath, headers: signedHeaders(otokens[0]!), body: '' }),
        { method: 'GET', connections: 1 },
      ),
    );
    stationRows.push(
      await measure(
        `${statsName} (1 connection)`,
        server.pid,
        server.url,
        (_c, n) => ({ path: '/yewu/ems/stats', headers: signedHeaders(otokens[0]!), body: statsBody(n) }),
        { connections: 1 },
      ),
    );
    const stationWarnings = server.logLines();
    const stationRss = watchProcess(server.pid).stop().rssKb;
    await server.stop();
    server = null;

    // The year chart again on PostgreSQL: the same data copied by migrate-data, a server process on it.
    let yearPostgres: Awaited<ReturnType<typeof measureChart>> | null = null;
    let copySeconds = 0;
    const copy = P.postgres ? await copyToPostgres(dbFile, P.postgres, log) : undefined;
    if (copy) {
      try {
        copySeconds = copy.seconds;
        log(`copied to PostgreSQL in ${fmt(copySeconds, 1)} s`);
        server = await startServerChild(dataDir, [], { DATABASE_URL: copy.url });
        const ptoken = await signIn(server.url, seeded.accounts[0]!, PASSWORD);
        yearPostgres = await measureChart(server.url, () => signedHeaders(ptoken), yearBody, P.chartRuns);
        if (yearPostgres.result) log(`year chart (PostgreSQL): p99 ${fmt(yearPostgres.result.latency.p99, 1)} ms`);
        await server.stop();
        server = null;
      } finally {
        await copy.drop();
      }
    }

    console.log(`\n=== Results of: ${commandLine()} ===`);
    console.log(`Machine: ${machine}`);
    console.log(`Server: ${serverCommand}\n`);
    console.log(
      `1. Keep-alive connections (conns), closed loop, ${P.durationS} s each after ${P.warmupS} s warm-up; latency = request written to body read\n`,
    );
    const bareRate = rows[0]!.result.perSecond;
    const header = [
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
    ];
    const cells = (r: Row) => [
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
    ];
    console.log(table(header, [...rows, ...single].map(cells)));
    const worstMylist = Math.max(...rows.filter((r) => r.name.startsWith('mylist')).map((r) => r.result.latency.p99));
    console.log(
      `\nmylist p99, worst of the filters: ${fmt(worstMylist, 1)} ms (target ≤ ${TARGETS.mylistP99Ms} ms: ${worstMylist <= TARGETS.mylistP99Ms ? 'met' : 'NOT MET'})`,
    );
    if (chart && chartAnswer.data) {
      const points = chartAnswer.data.series[0]?.points.length ?? 0;
      console.log(
        `\n2. Three-month history chart of one item (gen_kw; ${fmt(91 * 24)} hourly rollups of ${layoutS.items.length} items each; ` +
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

    const year = statsProbe.data.totals;
    console.log(
      `\n3. Stations, on a fresh server process (same command, same database): ${fmt(P.stations)} stations of the company, ` +
        `each a module with a PCS, a BMS and a grid meter (latest values), its own price template (one version) and ` +
        `${STATION_DAYS} local days × 4 periods of energy (${fmt(st.energyRows)} rows in all); ${otokens.length} company ` +
        `administrators signed in (site:view, company scope: each sees all ${fmt(listProbe.data.total)}). ` +
        `List: GET ${listPath}. Statistics: POST /ems/stats {granularity: 'year', date: '${st.statsYear}'} of another ` +
        `station each request: 12 month buckets from ${fmt(st.statsDays)} days × 4 periods of rows ` +
        `(station 0: ${fmt(year.chargeKwh)} kWh charged, ${fmt(year.dischargeKwh)} kWh discharged, income ${fmt(year.income)})\n`,
    );
    console.log(table(header, [rows[0]!, ...stationRows].map(cells)));
    for (const r of stationRows.filter((r) => r.connections === P.connections))
      console.log(
        `${r.name} p99: ${fmt(r.result.latency.p99, 1)} ms at ${r.connections} connections ` +
          `(target ≤ ${TARGETS.stationP99Ms} ms: ${r.result.latency.p99 <= TARGETS.stationP99Ms ? 'met' : 'NOT MET'})`,
      );
    console.log(`Station server RSS at the end: ${mib(stationRss)}`);
    if (stationWarnings.length) {
      console.log(`Station server warnings/errors (${stationWarnings.length} lines), first 10:`);
      for (const l of stationWarnings.slice(0, 10)) console.log(`  ${l.slice(0, 300)}`);
    } else console.log('Station server wrote no warning or error.');

    console.log(
      `\n4. A year of ${YEAR_ITEMS} items of one set in one chart request (${yearItems.join(', ')}; custom range of ` +
        `${YEAR_DAYS} days, read from ${fmt(seeded.rollups.days)} daily rollups; the set also has ${fmt(seeded.rollups.hours)} ` +
        `hourly ones), ${P.chartRuns} requests one after another:`,
    );
    const yearRows: [string, Awaited<ReturnType<typeof measureChart>> | null][] = [
      ['SQLite', yearSqlite],
      [P.postgres ? `PostgreSQL (copied by migrate-data in ${fmt(copySeconds, 1)} s)` : 'PostgreSQL', yearPostgres],
    ];
    for (const [db, m] of yearRows) {
      if (!m?.result || !m.answer.data) {
        console.log(`   ${db}: not measured${m ? ` (${m.answer.code} ${m.answer.msg})` : ''}`);
        continue;
      }
      const points = m.answer.data.series.reduce((n, s) => n + s.points.length, 0);
      const p99 = m.result.latency.p99;
      console.log(
        `   ${db}: p50 ${fmt(m.result.latency.p50, 1)} ms, p99 ${fmt(p99, 1)} ms, max ${fmt(m.result.latency.max, 1)} ms; ` +
          `${m.answer.data.series.length} series, ${fmt(points)} points, resolution ${m.answer.data.resolution}, ` +
          `${fmt(m.result.bytesPerAnswer)} bytes (target ≤ ${TARGETS.yearChartMs} ms: ${p99 <= TARGETS.yearChartMs ? 'met' : 'NOT MET'})`,
      );
    }

    if (P.cpuProf) {
      const profiles: [string, string, number][] = [
        [profDir, 'from the first mylist phase on', firstPhaseAt - serverStartedAt],
        [stationProfDir, 'of the station phases (station server)', firstStationPhaseAt - stationServerStartedAt],
      ];
      for (const [dir, what, skipMs] of profiles) {
        const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
        if (!file) continue;
        const profile = summariseProfile(join(dir, file), skipMs, 30);
        console.log(`\nServer CPU profile ${what} (${fmt(profile.total)} ms sampled), self time by area:`);
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
