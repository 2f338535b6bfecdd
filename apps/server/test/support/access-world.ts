// The world the access matrix is called in (support/access-rows.ts): one server that records every route it
// registers with its declaration, and as callers no session, a personal user, company A's administrator, operator
// and viewer, another company's administrator and the platform administrator, each with a set of their own and
// company A's rows to aim at (its names all hold a mark, so an answer leaking one is easy to see). Requests are
// generated from a route's own schema, their target fields naming the caller's rows; calls run in parallel with
// bounded concurrency.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from '../helpers.ts';
import { newSet } from './history-data.ts';
import { arbitraryOf, keysOf, type Hints } from './zod-arbitrary.ts';
import { isDeclaredRoute, type Access } from '../../src/plugins/access.ts';
import { P, TEMPLATE, type CallerName, type Kind, type Row } from './access-rows.ts';

const ENV = {
  COMMAND_TIMEOUT_MS: '500',
  AUTH_MAX_FAILURES: '1000000',
  AUTH_IP_MAX_FAILURES: '1000000',
  AUTH_ACCOUNT_MAX_FAILURES: '1000000',
};
const CONCURRENCY = 8;
/** Every name of company A's rows holds this, so an answer leaking one is easy to see. */
const MARK = 'Qz7TenantA';
const NO_SUCH_TOKEN = 'NoSuchToken00000';

// ---- the callers and their targets ----

export type { CallerName };
export const CALLERS: readonly CallerName[] = [
  'none',
  'personal',
  'companyAdmin',
  'operator',
  'viewer',
  'otherAdmin',
  'platform',
];

export interface Caller {
  name: CallerName;
  account?: string;
  password?: string;
  token?: string;
  permissions: string[];
  /** What the caller's target fields name in the matrix: its own set, its company's rows. */
  targets: Partial<Record<Kind, unknown>>;
}

export interface CapturedRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  access: Access | undefined;
}

export let t: TestApp;
const captured: CapturedRoute[] = [];
export const callers = new Map<CallerName, Caller>();
/** Company A's rows, as the other company's administrator aims at them. */
export let tenantA: Record<Kind, unknown>;
/** Texts of company A that no answer to the other company may hold. */
export let secretsA: string[] = [];
/** A role company A made itself, granting company:manage, and a person holding it. */
export let roleA: { id: number; user: { id: number; account: string; password: string } };

export const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
/** The seed of a route's generated request: the same request whatever routes come before it. */
export const seedOf = (r: { method: string; url: string }) =>
  createHash('sha256').update(key(r)).digest().readUInt32BE(0);
export const routes = () => captured.filter((r) => isDeclaredRoute(r.url));

// ---- requests ----

export interface Answer {
  code: number;
  msg: string;
  data: unknown;
  text: string;
}

function headers(token: string | undefined): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': 'en-US',
    'x-timezone': 'Europe/Berlin',
    ...(token ? { 'x-token': token } : {}),
  };
}

export interface Request {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
}

export async function send(route: CapturedRoute, token: string | undefined, r: Request): Promise<Answer> {
  let url = route.url;
  for (const [k, v] of Object.entries(r.params ?? {})) url = url.replace(`:${k}`, encodeURIComponent(v));
  const res = await t.app.inject({
    method: route.method as 'GET' | 'POST',
    url,
    headers: headers(token),
    ...(r.query ? { query: r.query } : {}),
    ...(r.body !== undefined ? { payload: r.body as object } : {}),
  });
  if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    const json = JSON.parse(res.body) as { code?: number; msg?: string; data?: unknown };
    return { code: json.code ?? res.statusCode, msg: json.msg ?? '', data: json.data ?? null, text: res.body };
  }
  return { code: res.statusCode, msg: '', data: null, text: res.body.slice(0, 2000) };
}

/** Text no encoding can carry is refused before any gate (as it should be): generated requests hold none. */
const BROKEN = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** How far a value is from what a person types: its characters outside letters, digits and plain punctuation. */
function oddness(value: unknown): number {
  if (typeof value === 'string') {
    if (BROKEN.test(value)) return Infinity;
    return value.replace(/[\w .,:@/+-]/g, '').length + (value.length > 40 ? 5 : 0);
  }
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + oddness(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + oddness(v), 0);
  return 0;
}

/** The plainest of the generated values the schema accepts (refinements may refuse them all: the plainest then). */
function sample(schema: unknown, hints: Hints, seed: number): unknown {
  const values = fc.sample(arbitraryOf(schema, hints), { numRuns: 60, seed });
  const parse = (schema as { safeParse: (v: unknown) => { success: boolean } }).safeParse.bind(schema);
  const accepted = values.filter((v) => parse(v).success);
  const pool = accepted.length ? accepted : values;
  return pool.reduce((best, v) => (oddness(v) < oddness(best) ? v : best), pool[0] ?? {});
}

const stringly = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v));
const strings = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((v as Record<string, unknown>) ?? {}).map(([k, x]) => [k, stringly(x)]));

/** Which kind of row each target field of the route names. */
export function targetsOf(route: CapturedRoute, row: Row): Record<string, Kind> {
  const scope = route.access && 'scope' in route.access ? route.access.scope : undefined;
  const site = scope === 'site';
  return { token: site ? 'station' : 'set', tokens: site ? 'stations' : 'sets', ...row.targets };
}

/** A value naming no row of the kind. */
const missing = (kind: Kind) =>
  kind === 'sets' || kind === 'stations' ? [NO_SUCH_TOKEN] : kind.endsWith('s') ? [999_999] : 999_999;

/** The request with the given target fields naming no row. */
export function withoutRows(route: CapturedRoute, row: Row, r: Request, fields: string[]): Request {
  const kinds = targetsOf(route, row);
  const swap = (part: Record<string, unknown> | undefined, text: boolean) => {
    if (!part) return part;
    const out = { ...part };
    for (const f of fields) {
      if (!(f in out) || !kinds[f]) continue;
      const v = f === 'token' ? NO_SUCH_TOKEN : missing(kinds[f]!);
      out[f] = text ? stringly(v) : v;
    }
    return out;
  };
  return {
    ...(r.body !== undefined ? { body: swap(r.body as Record<string, unknown>, false) } : {}),
    ...(r.query ? { query: swap(r.query, true) as Record<string, string> } : {}),
    ...(r.params ? { params: swap(r.params, true) as Record<string, string> } : {}),
  };
}

const samples = new WeakMap<object, Map<number, unknown>>();

/** A request for the route whose target fields name the given rows (rows not given: nothing that exists). */
export function requestFor(
  route: CapturedRoute,
  row: Row,
  targets: Partial<Record<Kind, unknown>>,
  seed: number,
): Request {
  const values: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(targetsOf(route, row))) {
    const value = targets[kind] ?? missing(kind);
    values[field] = field === 'token' && typeof value === 'number' ? NO_SUCH_TOKEN : value;
  }
  // Generated once per schema and seed, with the target fields naming nothing (they are replaced below): every
  // caller of a route gets the same request but for its targets, and the generating is done once, not per caller.
  const hints: Hints = Object.fromEntries(
    Object.entries(targetsOf(route, row)).map(([field, kind]) => [
      field,
      fc.constant(field === 'token' ? NO_SUCH_TOKEN : missing(kind)),
    ]),
  );
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const generated = (s: unknown) => {
    const bySeed = samples.get(s as object) ?? new Map<number, unknown>();
    samples.set(s as object, bySeed);
    if (!bySeed.has(seed)) bySeed.set(seed, sample(s, hints, seed));
    return bySeed.get(seed) as Record<string, unknown>;
  };
  const part = (s: unknown) => {
    const out = row.only ? {} : { ...generated(s) };
    for (const field of keysOf(s)) if (field in values) out[field] = values[field];
    return { ...out, ...row.fixed };
  };
  const r: Request = {};
  if (schema.body) r.body = part(schema.body);
  if (schema.querystring) r.query = strings(part(schema.querystring));
  if (schema.params) r.params = strings(part(schema.params));
  return r;
}

/** Runs the tasks with at most CONCURRENCY at once. */
export async function bounded<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

/**
 * A fingerprint of every table but those written by a call whatever it asks (the operation log, sessions touched,
 * sign-in and rate counters) and by the server's own timers (leases of background jobs): equal before and after
 * calls that must change nothing.
 */
const UNTOUCHED_BY_CALLS = new Set(['operation_log', 'session', 'auth_throttle', 'job_lease']);
export async function digest(): Promise<Record<string, string>> {
  const db = t.app.database.db;
  // on PostgreSQL the tables of this test's own schema (other tests' schemas are in the same database)
  const own =
    t.app.database.kind === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  const tables = [
    ...new Set(
      (await db.introspection.getTables()).filter((x) => own === undefined || x.schema === own).map((x) => x.name),
    ),
  ].sort();
  const out: Record<string, string> = {};
  for (const table of tables) {
    if (UNTOUCHED_BY_CALLS.has(table) || table.startsWith('kysely_') || table.startsWith('sqlite_')) continue;
    const rows = await db
      .selectFrom(table as 'genset')
      .selectAll()
      .execute();
    const text = rows
      .map((r) => JSON.stringify(r))
      .sort()
      .join('\n');
    out[table] = `${rows.length} ${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  }
  return out;
}

// ---- the world ----

export async function sessionOf(account: string, password: string) {
  return login(t.app, account, password);
}

export async function permissionsOfToken(token: string): Promise<string[]> {
  const info = await call(t.app, 'GET', '/user/info', { token });
  return info.data.permissions as string[];
}

async function ok<T = any>(method: 'GET' | 'POST', url: string, token: string, body?: unknown): Promise<T> {
  const res = await call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });
  if (res.code !== 200) throw new Error(`${url}: ${res.code} ${res.msg}`);
  return res.data as T;
}

async function buildWorld() {
  const db = t.app.database.db;
  const manager = await sessionOf('manager@example.com', 'Demo#2026');
  const managerInfo = await call(t.app, 'GET', '/user/info', { token: manager });
  const companyA = managerInfo.data.companyinfo.id as number;
  const companyB = await createCompany(t, 'Matrix other company');

  const make = async (name: CallerName, companyId: number, role: string): Promise<Caller> => {
    const u = await freshUser(t, { companyId, role });
    const token = await sessionOf(u.account, u.password);
    const set = await newSet(t, { companyId, ownerUserId: u.id, name: `${name} own set` });
    // someone else's subscription to it (a manager changes others' rights, not their own)
    const follower = await freshUser(t, { companyId, role: 'viewer' });
    await t.app.devices.fleet.subscribe(set.id, follower.id, 'view');
    const sub = await t.app.database.db
      .selectFrom('subscription')
      .select('id')
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    const camera = await ok('POST', '/video/add', token, {
      token: set.token,
      name: `${name} camera`,
      url: 'http://127.0.0.1:9/stream',
    });
    return {
      name,
      account: u.account,
      password: u.password,
      token,
      permissions: await permissionsOfToken(token),
      targets: {
        set: set.token,
        camera: camera.id,
        sets: [set.token],
        company: companyId,
        subscription: sub.id,
        subscriptions: [sub.id],
        newAccount: `matrix.${name.toLowerCase()}@example.com`,
      },
    };
  };
  callers.set('none', { name: 'none', permissions: [], targets: {} });
  callers.set('personal', await make('personal', 1, 'personal'));
  for (const role of ['companyAdmin', 'operator', 'viewer'] as const)
    callers.set(role, await make(role, companyA, role));
  callers.set('otherAdmin', await make('otherAdmin', companyB, 'companyAdmin'));
  const platformToken = await sessionOf('admin@example.com', 'Admin#2026');
  const platformSet = await newSet(t, { companyId: companyA, name: 'platform set' });
  const platformCamera = await ok('POST', '/video/add', platformToken, {
    token: platformSet.token,
    name: 'platform camera',
    url: 'http://127.0.0.1:9/stream',
  });
  callers.set('platform', {
    name: 'platform',
    account: 'admin@example.com',
    password: 'Admin#2026',
    token: platformToken,
    permissions: await permissionsOfToken(platformToken),
    targets: {
      set: platformSet.token,
      sets: [platformSet.token],
      camera: platformCamera.id,
      company: companyA,
      newAccount: 'matrix.platform@example.com',
    },
  });

  // Company A's rows, named with the mark.
  const adminA = callers.get('companyAdmin')!;
  const viewerA = callers.get('viewer')!;
  const set = await newSet(t, { companyId: companyA, name: `${MARK} set` });
  const station = await ok('POST', '/site/add', adminA.token!, {
    name: `${MARK} station`,
    timeZone: 'UTC',
    capacityKwh: 100,
    ratingKw: 50,
  });
  const emsTemplate = await ok('POST', '/ems/template/save', adminA.token!, { name: `${MARK} tariff`, ...TEMPLATE });
  const maintTemplate = await ok('POST', '/maintain/template/save', adminA.token!, {
    name: `${MARK} plan`,
    model: 'QZ-1',
    items: [{ name: `${MARK} oil`, cycleDays: 90 }],
  });
  const webhook = await ok('POST', '/webhook/save', adminA.token!, {
    name: `${MARK} hook`,
    url: 'https://93.184.215.14/hook',
    events: ['alarm.raised'],
  });
  const alarmRule = await ok('POST', '/alarm/rule/save', adminA.token!, {
    name: `${MARK} rule`,
    item: 'fuel_level',
    op: 'below',
    threshold: 10,
    level: 'warning',
  });
  const camera = await ok('POST', '/video/add', adminA.token!, {
    token: set.token,
    name: `${MARK} gate`,
    url: 'http://127.0.0.1:9/stream',
    username: 'viewer',
    password: 'secret',
  });
  const viewerId = (await call(t.app, 'GET', '/user/info', { token: viewerA.token })).data.info.id as number;
  await t.app.devices.fleet.subscribe(set.id, viewerId, 'view');
  const subscription = await db
    .selectFrom('subscription')
    .select('id')
    .where('genset_id', '=', set.id)
    .executeTakeFirstOrThrow();
  // a role and a person of A that no caller holds or is (the matrix's own calls may change them)
  const role = await ok('POST', '/role/save', adminA.token!, {
    name: `${MARK} role`,
    permissions: [P.gensetView, P.companyManage],
    dataScope: 'company',
  });
  const victim = await freshUser(t, { companyId: companyA, role: 'viewer' });
  await db
    .updateTable('users')
    .set({ nickname: `${MARK} person` })
    .where('id', '=', victim.id)
    .execute();
  const department = await db
    .insertInto('department')
    .values({ company_id: companyA, parent_id: null, name: `${MARK} department`, sort: 9, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const logEntry = await db
    .selectFrom('operation_log')
    .select('id')
    .where('company_id', '=', companyA)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const published = await db
    .selectFrom('protocol')
    .select('id')
    .where('status', '=', 'published')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  tenantA = {
    set: set.token,
    sets: [set.token],
    station: station.token,
    stations: [station.token],
    emsTemplate: emsTemplate.id,
    maintTemplate: maintTemplate.id,
    webhook: webhook.id,
    alarmRule: alarmRule.id,
    camera: camera.id,
    subscription: subscription.id,
    subscriptions: [subscription.id],
    user: victim.id,
    role: role.id,
    department: department.id,
    protocol: published.id,
    company: companyA,
    logEntry: logEntry.id,
    newAccount: 'matrix.tenant@example.com',
  };
  secretsA = [MARK, set.token, station.token as string, viewerA.account!, victim.account];
  roleA = { id: role.id, user: await freshUser(t, { companyId: companyA }) };
  await db.updateTable('users').set({ role_id: role.id }).where('id', '=', roleA.user.id).execute();
  await db
    .updateTable('user_company')
    .set({ role_id: role.id })
    .where('user_id', '=', roleA.user.id)
    .where('company_id', '=', companyA)
    .execute();
  // What company A's own people and the platform aim at: A's rows (their own set, where they have one).
  for (const name of ['companyAdmin', 'operator', 'viewer', 'platform'] as const) {
    const c = callers.get(name)!;
    c.targets = { ...tenantA, ...c.targets };
  }
  const otherStation = await ok('POST', '/site/add', callers.get('otherAdmin')!.token!, {
    name: 'Other station',
    timeZone: 'UTC',
    capacityKwh: 100,
    ratingKw: 50,
  });
  callers.get('otherAdmin')!.targets.station = otherStation.token;
  callers.get('otherAdmin')!.targets.stations = [otherStation.token];
}

/** Starts the server and builds the world before the file's tests; closes the server after them. */
export function useAccessWorld() {
  beforeAll(async () => {
    t = await createTestApp(ENV, {
      onRoute: (r) => {
        for (const method of [r.method].flat()) {
          if (method === 'GET' || method === 'POST')
            captured.push({ method, url: r.url, schema: r.schema, access: r.config?.access });
        }
      },
    });
    await buildWorld();
  }, 120_000);
  afterAll(async () => t?.close());
}
