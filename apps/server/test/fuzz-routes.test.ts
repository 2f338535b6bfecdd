// Property-based fuzzing of every route of the OpenAPI document. Requests are generated from each route's own
// zod schemas (valid values, values broken in one place, hostile values and raw bodies), signed in as a
// platform administrator, as a company administrator, without a session, with a forged token and with a bad
// signature. Whatever comes: never HTTP 500 nor envelope code 500, the server keeps answering, a refused call
// to a route that writes leaves the database as it was, and SQLite and PostgreSQL answer the same code (when a
// PostgreSQL server is there, every request goes to a second server on the other database). Each route has a
// known-good request in the table below, so the valid path is exercised too; a route of the OpenAPI document
// missing from the table fails the test. FUZZ_SEED and FUZZ_RUNS (a factor) replay or widen a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import sharp from 'sharp';
import type { RouteOptions } from 'fastify';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  layoutS,
} from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, lastCode, login, PG_URL, type TestApp } from './helpers.ts';
import { createUser } from '../src/seed/base.ts';
import { moduleFor, newSet, RUNNING, insertAlarm } from './support/history-data.ts';
import { connectFakeModule } from './support/fake-module.ts';
import { arbitraryOf, keysOf, type Hints } from './support/zod-arbitrary.ts';
import {
  answerRequests,
  assertOptions,
  errorLog,
  fingerprint,
  hostileRawBody,
  hostileValue,
  mutated,
  postgresUrl,
  runs,
  type RawBody,
} from './support/fuzz.ts';

const ENV = {
  // Commands wait for a module at most this long (the module here answers at once; an offline one is refused).
  COMMAND_TIMEOUT_MS: '500',
  // Lockouts after wrong passwords are tested elsewhere; here they would lock the accounts the fuzzing uses.
  AUTH_MAX_FAILURES: '1000000',
  AUTH_IP_MAX_FAILURES: '1000000',
  MQTT_AUTH_TOKEN: 'fuzz-broker-token-0123456789',
  METRICS_TOKEN: 'fuzz-metrics-token-0123456789',
};
const BROKER_TOKEN = ENV.MQTT_AUTH_TOKEN;
const PASSWORDS = { platform: 'Admin#2026', company: 'Demo#2026' } as const;
const RUNS_PER_ROUTE = runs(20);

type Identity = 'platform' | 'company' | 'none' | 'forged' | 'badsign';
/** Codes of a refusal: the call was not carried out, so nothing may have changed. */
const REFUSALS = new Set([400, 101, 403, 404, 409, 429, 50008, 50012, 50014]);

// ---- references: values that differ between the two servers (tokens, ids) are named, resolved per server ----

const REF = '\u0001ref:';
const ref = (name: string) => `${REF}${name}`;

interface World {
  t: TestApp;
  log: ReturnType<typeof errorLog>;
  sessions: Record<'platform' | 'company' | 'viewer', string>;
  refs: Record<string, unknown>;
  /** The document of the layout-S protocol as exported (what /protocol/add and /protocol/import take). */
  document: Record<string, unknown>;
  n: number;
}

function resolve(value: unknown, w: World, identity: Identity): unknown {
  if (typeof value === 'string' && value.startsWith(REF)) {
    const name = value.slice(REF.length);
    if (name === 'password') return identity === 'company' ? PASSWORDS.company : PASSWORDS.platform;
    if (!(name in w.refs)) throw new Error(`unknown reference ${name}`);
    return w.refs[name];
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, w, identity));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolve(v, w, identity);
    return out;
  }
  return value;
}

// ---- hints: values worth trying per property name, beside the generated ones ----

const ITEM_KEYS = layoutS.items.map((i) => i.key);
const COMMAND_KEYS = layoutS.commands.map((c) => c.key);
const SAFE_COMMAND = layoutS.commands.find((c) => !c.risky)!.key;
const CONFIG_KEYS = layoutS.configParams.map((p) => p.key);
const MENU_KEYS = layoutS.configMenus.map((m) => m.key);
const setRefs = fc.constantFrom(ref('set.own'), ref('set.bare'), ref('set.foreign'));

const HINTS: Hints = {
  token: setRefs,
  tokens: fc.array(setRefs, { minLength: 1, maxLength: 3 }),
  items: fc.subarray(ITEM_KEYS, { minLength: 1, maxLength: 6 }),
  action: fc.constantFrom(...COMMAND_KEYS),
  menu: fc.constantFrom(...MENU_KEYS),
  code: fc.constantFrom(ref('code.sub'), ref('code.control')),
  protocolKey: fc.constantFrom(layoutS.key, 'g', 'nope'),
  username: fc.constantFrom('admin@example.com', 'manager@example.com', 'viewer@example.com', '13800000001'),
  hostname: fc.constantFrom('demo.localhost', 'localhost', ''),
  values: fc.dictionary(fc.constantFrom(...CONFIG_KEYS), fc.integer({ min: -5, max: 70_000 }), {
    minKeys: 1,
    maxKeys: 3,
  }),
  start: fc.integer({ min: Date.now() - 400 * 86_400_000, max: Date.now() }),
  end: fc.integer({ min: Date.now() - 300 * 86_400_000, max: Date.now() + 86_400_000 }),
};

const protocolIds = fc.constantFrom(ref('protocol.published'), ref('protocol.draft'), ref('protocol.victim'));

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The last week, whole days: what a report is prefilled over. */
const REPORT_PERIOD = { from: day(-7), to: day(-1) };

/** A camera address nothing answers at. */
const CAMERA_URL = 'http://127.0.0.1:9/stream';
const UNKNOWN_LEASE = 'fuzz-lease-0123456789abcdef';

/** A picture for repair requests (made once). */
let repairPicture: Buffer | undefined;

/** The multipart form of a repair request on the company's own set, with one picture. */
async function repairForm(w: World): Promise<RawBody> {
  repairPicture ??= await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03020' } })
    .jpeg()
    .toBuffer();
  const boundary = 'FuzzRepairBoundary';
  const fields = {
    token: String(w.refs['set.own']),
    contact: 'Fuzz',
    phone: '+1 555 0100',
    address: 'Test Road 1',
    description: 'Starts and stops.',
  };
  const text = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="pictures"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    raw: Buffer.concat([Buffer.from(text + file), repairPicture, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A new repair request on the company's own set, with the name of its picture. */
async function repairRequest(w: World): Promise<{ token: string; name: string }> {
  const form = await repairForm(w);
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/yewu/baoxiu/add',
    headers: { ...signed(w.sessions.company), 'content-type': form.contentType },
    payload: form.raw,
  });
  const token = (res.json() as { data: { token: string } }).data.token;
  const detail = await call(w.t.app, 'GET', '/baoxiu/detail', { token: w.sessions.company, query: { token } });
  return { token, name: detail.data.pictureList[0].name as string };
}

// ---- the table of routes ----

interface Call {
  identity: Identity | { token: string };
  body?: unknown;
  raw?: RawBody;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

interface RouteCase {
  /** Whether the route changes stored data (a refused call is then checked to change nothing). */
  writes: boolean;
  /** A request that must succeed (code 200), prepared on each server. */
  example: (w: World) => Promise<Call>;
  hints?: Hints;
  /** The route ends the caller's session when it succeeds. */
  endsSession?: boolean;
  /** Codes the known-good request may answer (default: success). */
  accept?: (number | string)[];
}

const get =
  (identity: Identity, o: Omit<Call, 'identity'> = {}) =>
  async () => ({ identity, ...o });
const post =
  (identity: Identity, body: unknown = {}) =>
  async (w: World) =>
    ({ identity, body: resolve(body, w, identity) }) as Call;

/** A fresh user of the demo company, signed in: for the calls that end a session or change an account. */
async function throwaway(w: World) {
  const user = await freshUser(w.t, { role: 'operator' });
  return { ...user, token: await login(w.t.app, user.account, user.password) };
}

/** A company as the platform administrator's form sends it. */
const FUZZ_COMPANY = { name: 'Fuzz company', currency: 'EUR', timeZone: 'Europe/Berlin', hosts: [] as string[] };

/** A one-pixel PNG logo as a multipart form. */
function logoForm(): RawBody {
  const boundary = 'FuzzLogoBoundary';
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  return {
    raw: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A department of the demo company, made for the call. */
async function fuzzDepartment(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/dept/add', {
    token: w.sessions.company,
    body: { name: `Fuzz department ${w.n++}` },
  });
  return res.data.id as number;
}

/** A role of the demo company made for one call. */
async function fuzzRole(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/role/save', {
    token: w.sessions.company,
    body: { name: `Fuzz role ${w.n++}`, permissions: ['genset:view'], dataScope: 'department' },
  });
  return res.data.id as number;
}

/** An invitation of the demo company made for one call. */
async function fuzzInvite(w: World): Promise<{ id: number; code: string }> {
  const res = await call(w.t.app, 'POST', '/invite/create', {
    token: w.sessions.company,
    body: { expiresAt: Date.now() + 3_600_000, maxUses: 5 },
  });
  return res.data as { id: number; code: string };
}

/** A personal account of the platform company, signed in: someone who may apply through an invitation. */
async function applicant(w: World): Promise<string> {
  const db = w.t.app.database.db;
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('company_id', '=', 1)
    .where('role_key', '=', 'personal')
    .executeTakeFirstOrThrow();
  const account = `fuzz-applicant-${w.n++}@example.com`;
  await createUser(db, { companyId: 1, roleId: role.id, account, password: 'Start#2026', nickname: 'Applicant' });
  return login(w.t.app, account, 'Start#2026');
}

/** A person's application to the demo company, waiting for review. */
async function fuzzApplication(w: World): Promise<number> {
  const invite = await fuzzInvite(w);
  const res = await call(w.t.app, 'POST', '/invite/apply', { token: await applicant(w), body: { code: invite.code } });
  return res.data.id as number;
}

/** The id of a built-in role of the demo company. */
async function companyRole(w: World, key: string): Promise<number> {
  const role = await w.t.app.database.db
    .selectFrom('role')
    .select('id')
    .where('company_id', '=', w.refs['company.own'] as number)
    .where('role_key', '=', key)
    .executeTakeFirstOrThrow();
  return role.id;
}

/** A fresh operator of the demo company, for the calls that change or remove a person. */
function member(w: World) {
  return freshUser(w.t, { companyId: w.refs['company.own'] as number, role: 'operator' });
}

/** A public address given by number (no name to resolve): a webhook the server accepts. */
const WEBHOOK_URL = 'https://93.184.215.14/hook';

/** A webhook of the demo company, made for the call that needs one. */
async function webhook(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/webhook/save', {
    token: w.sessions.company,
    body: { name: `Hook ${Math.random().toString(36).slice(2, 8)}`, url: WEBHOOK_URL, events: ['alarm.raised'] },
  });
  return res.data.id;
}

/** A module firmware image uploaded as a form (multipart), for the model of `otaSet`'s controller protocol. */
function otaForm(version: string): RawBody {
  const boundary = 'FuzzOtaBoundary';
  const fields = { name: 'Fuzz firmware', version, target: 'controller', model: layoutS.key };
  const text = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    raw: Buffer.concat([
      Buffer.from(text + file),
      Buffer.from(`firmware ${version}`),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A firmware file of the company, uploaded as the company administrator. */
async function otaFile(w: World): Promise<number> {
  const form = otaForm(`1.0.${w.n++}`);
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/yewu/ota/file/upload',
    headers: { ...signedHeaders(w.sessions.company), 'content-type': form.contentType },
    payload: form.raw,
  });
  return (res.json() as { data: { id: number } }).data.id;
}

/** A set of the company with a module of its own (away), upgraded with a new file: its queued job. */
async function otaJob(w: World): Promise<{ fileId: number; token: string; jobId: number }> {
  const companyId = w.refs['company.own'] as number;
  const modem = await w.t.app.devices.fleet.createModem({ companyId, modemKey: `FUZZOTA${Date.now()}${w.n++}` });
  const set = await w.t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz upgrade ${w.n++}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  const fileId = await otaFile(w);
  const res = await call(w.t.app, 'POST', '/ota/job/assign', {
    token: w.sessions.company,
    body: { fileId, tokens: [set.token] },
  });
  if (res.code !== 200) throw new Error(`assign: ${res.msg}`);
  const jobs = await call(w.t.app, 'GET', '/ota/job/list', {
    token: w.sessions.company,
    query: { fileId: String(fileId) },
  });
  return { fileId, token: set.token, jobId: jobs.data.list[0].id };
}

function signedHeaders(token: string) {
  const time = String(Math.floor(Date.now() / 1000));
  return { 'x-time': time, 'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET), 'x-token': token };
}

// ---- energy-storage stations ----

const siteRefs = fc.constantFrom(ref('site.own'), ref('site.foreign'), ref('set.own'));

/** A price template body the server takes. */
const SITE_TEMPLATE = {
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '18:00', period: 'peak' },
    { start: '18:00', end: '24:00', period: 'flat' },
  ],
  prices: {
    sharp: { buy: 1.3, sell: 1.2 },
    peak: { buy: 1, sell: 0.9 },
    flat: { buy: 0.6, sell: 0.55 },
    valley: { buy: 0.3, sell: 0.25 },
  },
  powerKw: 100,
  chargeCutoffSoc: 95,
  dischargeCutoffSoc: 10,
  socMargin: 3,
  reversePower: { enabled: true, marginKw: 5 },
  demandControl: { enabled: true, limitKw: 300 },
};

/** A station of the company (fields only), added through its call. */
async function plainStation(w: World, name: string): Promise<string> {
  const res = await call(w.t.app, 'POST', '/site/add', {
    token: w.sessions.company,
    body: { name, timeZone: 'Asia/Shanghai', capacityKwh: 215, ratingKw: 100 },
  });
  if (res.code !== 200) throw new Error(`station: ${res.msg}`);
  return res.data.token as string;
}

/** A template of the company, saved through its call. */
async function siteTemplate(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/ems/template/save', {
    token: w.sessions.company,
    body: { name: `Fuzz tariff ${w.n++}`, ...SITE_TEMPLATE },
  });
  if (res.code !== 200) throw new Error(`template: ${res.msg}`);
  return res.data.id as number;
}

/**
 * A whole station of the company: a module (that answers every request) with a layout E PCS, BMS, grid meter and
 * PV inverter, bound by role, and a template; with `tactic`, one accepted tactic.
 */
async function fullStation(w: World, tactic = false): Promise<{ token: string; templateId: number }> {
  const companyId = w.refs['company.own'] as number;
  const modemKey = `FUZZESS${Date.now()}${w.n++}`;
  const modem = await w.t.app.devices.fleet.createModem({ companyId, modemKey });
  const devices = [];
  for (const [i, [role, doc]] of (
    [
      ['pcs', layoutEPcs],
      ['bms', layoutEBms],
      ['meter', layoutEMeter],
      ['pv', layoutEPv],
    ] as const
  ).entries()) {
    const set = await w.t.app.devices.fleet.createGenset({
      companyId,
      ownerUserId: w.refs['user.manager'] as number,
      name: `Fuzz ${role} ${w.n++}`,
      modemId: modem.id,
      address: i + 1,
      protocolKey: doc.key,
    });
    devices.push({ token: set.token, role });
  }
  w.t.app.devices.ingest.invalidate();
  w.t.app.gensets.directory.invalidate();
  const module = await connectFakeModule(`mqtt://127.0.0.1:${w.t.app.devices.transport.port}`, modemKey, modem.secret);
  answerRequests(module);
  const templateId = await siteTemplate(w);
  const res = await call(w.t.app, 'POST', '/site/add', {
    token: w.sessions.company,
    body: {
      name: `Fuzz station ${w.n++}`,
      timeZone: 'Asia/Shanghai',
      capacityKwh: 215,
      ratingKw: 100,
      modemId: modemKey,
      devices,
      templateId,
    },
  });
  if (res.code !== 200) throw new Error(`station: ${res.msg}`);
  const token = res.data.token as string;
  if (tactic) {
    const sent = await call(w.t.app, 'POST', '/ems/sendTactic', {
      token: w.sessions.company,
      body: { token, strategy: 'timeOfUse', templateId, password: PASSWORDS.company },
    });
    if (sent.code !== 200) throw new Error(`tactic: ${sent.msg}`);
  }
  return { token, templateId };
}

const ROUTES: Record<string, RouteCase> = {
  'POST /yewu/user/login': {
    writes: true,
    example: post('none', { username: 'operator@example.com', password: 'Demo#2026' }),
    hints: { password: fc.constantFrom('Demo#2026', 'Admin#2026') },
  },
  'POST /yewu/user/codelogin': {
    writes: true,
    example: async (w) => {
      await call(w.t.app, 'POST', '/sendMessage', { body: { username: 'operator@example.com' } });
      return {
        identity: 'none',
        body: { username: 'operator@example.com', code: lastCode(w.t, 'operator@example.com') },
      };
    },
  },
  'POST /yewu/sendMessage': { writes: true, example: post('none', { username: 'viewer@example.com' }) },
  'POST /yewu/logout': {
    writes: true,
    endsSession: true,
    example: async (w) => ({ identity: { token: (await throwaway(w)).token } }),
  },
  'GET /yewu/user/info': { writes: false, example: get('company') },
  'GET /yewu/getRoute': { writes: false, example: get('company') },
  'POST /yewu/user/password': {
    writes: true,
    endsSession: true,
    example: async (w) => {
      const u = await throwaway(w);
      return {
        identity: { token: u.token },
        body: { password: u.password, newPassword: 'Next#2026x', newPasswords: 'Next#2026x' },
      };
    },
  },
  'POST /yewu/user/register': {
    writes: true,
    example: async (w) => {
      const username = `fuzz-register-${w.n++}@example.com`;
      await call(w.t.app, 'POST', '/sendMessage', { body: { username, purpose: 'register' } });
      const code = lastCode(w.t, username);
      return {
        identity: 'none',
        body: { username, code, newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026', nickname: 'Fuzz' },
      };
    },
  },
  'POST /yewu/user/forgetPassword': {
    writes: true,
    example: async (w) => {
      const u = await freshUser(w.t);
      await call(w.t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'reset' } });
      const code = lastCode(w.t, u.account);
      return {
        identity: 'none',
        body: { username: u.account, code, newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026' },
      };
    },
  },
  'POST /yewu/user/delUser': {
    writes: true,
    endsSession: true,
    example: async (w) => {
      const u = await throwaway(w);
      return { identity: { token: u.token }, body: { password: u.password } };
    },
  },
  'POST /yewu/user/setMessage': { writes: true, example: post('company', { alarmSms: true, alarmEmail: false }) },
  'POST /yewu/user/updateProfile': { writes: true, example: post('company', { nickname: 'Mia Manager' }) },
  'GET /yewu/company/getName': { writes: false, example: get('none', { query: { hostname: 'demo.localhost' } }) },
  'GET /yewu/company/getlogo': { writes: false, example: get('none', { query: { hostname: 'demo.localhost' } }) },
  'GET /yewu/company/getinfo/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['company.own']) } }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  // Administration: companies (the platform administrator), the department tree and the company's people.
  'GET /yewu/company/list': { writes: false, example: get('platform', { query: { search: 'demo' } }) },
  'POST /yewu/company/add': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { ...FUZZ_COMPANY, name: `Fuzz company ${w.n++}` } }),
    hints: {
      hosts: fc.constantFrom([], ['demo.localhost'], ['fuzz.example.com']),
      timeZone: fc.constantFrom('UTC', 'Mars/Base'),
    },
  },
  'POST /yewu/company/update': {
    writes: true,
    example: post('platform', { ...FUZZ_COMPANY, id: ref('company.other'), name: 'Fuzz other company' }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'POST /yewu/company/del': {
    writes: true,
    example: async (w) => {
      const added = await call(w.t.app, 'POST', '/company/add', {
        token: w.sessions.platform,
        body: { ...FUZZ_COMPANY, name: `Fuzz doomed ${w.n++}` },
      });
      return { identity: 'platform', body: { id: added.data.id as number } };
    },
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'GET /yewu/company/getIdentifie/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['company.own']) } }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'GET /yewu/company/getUserCompanyList': { writes: false, example: get('company') },
  'POST /yewu/company/uploadLogo': {
    writes: true,
    example: async () => ({ identity: 'platform', raw: logoForm() }),
  },
  'GET /yewu/role/list': { writes: false, example: get('company', { query: { name: 'a', status: '1' } }) },
  'GET /yewu/role/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(await companyRole(w, 'viewer')) } }),
  },
  'POST /yewu/role/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz role ${w.n++}`, permissions: ['genset:view', 'alarm:view'], dataScope: 'company' },
    }),
  },
  'POST /yewu/role/update': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { id: await fuzzRole(w), name: `Fuzz renamed ${w.n++}`, permissions: ['genset:view'], dataScope: 'self' },
    }),
  },
  'POST /yewu/role/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzRole(w) } }),
  },
  'POST /yewu/user/roleStatus': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzRole(w), status: 0 } }),
  },
  'GET /yewu/role/getDataAuthRole': { writes: false, example: get('company') },
  'POST /yewu/invite/create': {
    writes: true,
    example: async () => ({ identity: 'company', body: { expiresAt: Date.now() + 3_600_000, maxUses: 3 } }),
  },
  'GET /yewu/invite/list': { writes: false, example: get('company') },
  'POST /yewu/invite/revoke': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: (await fuzzInvite(w)).id } }),
  },
  'GET /yewu/invite/info/:code': {
    writes: false,
    example: async (w) => ({ identity: 'none', params: { code: (await fuzzInvite(w)).code } }),
  },
  'POST /yewu/invite/apply': {
    writes: true,
    example: async (w) => ({ identity: { token: await applicant(w) }, body: { code: (await fuzzInvite(w)).code } }),
  },
  'GET /yewu/member/list': { writes: false, example: get('company', { query: { status: 'pending' } }) },
  'POST /yewu/member/audit': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzApplication(w), action: 'reject' } }),
  },
  'GET /yewu/log/list': { writes: false, example: get('company', { query: { keyword: 'example' } }) },
  'POST /yewu/log/export': { writes: false, example: post('company', { matter: 'log.signedIn' }) },
  'GET /yewu/dept/list': { writes: false, example: get('company') },
  'POST /yewu/dept/add': { writes: true, example: post('company', { name: 'Fuzz department' }) },
  'POST /yewu/dept/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzDepartment(w), name: 'Fuzz renamed' } }),
  },
  'POST /yewu/dept/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzDepartment(w) } }),
  },
  'GET /yewu/user/list': {
    writes: false,
    example: get('company', { query: { search: 'example', status: 'enabled' } }),
  },
  'GET /yewu/user/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['user.manager']) } }),
  },
  'POST /yewu/user/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { account: `fuzz${w.n++}@example.com`, roleId: await companyRole(w, 'operator'), password: 'Temp#2026x' },
    }),
  },
  'POST /yewu/user/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, nickname: 'Fuzzed' } }),
  },
  'POST /yewu/user/updateUserid': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { userId: (await member(w)).id, roleId: await companyRole(w, 'viewer') },
    }),
  },
  'POST /yewu/user/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id } }),
  },
  'POST /yewu/user/resetpassword': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, password: 'Reset#2026x' } }),
  },
  'POST /yewu/user/userStatus': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, status: 'disabled' } }),
  },
  'GET /yewu/help/list': { writes: false, example: get('company') },
  'GET /yewu/help/info': {
    writes: false,
    example: async (w) => {
      const list = await call(w.t.app, 'GET', '/help/list', { token: w.sessions.company });
      return { identity: 'company', query: { slug: list.data[0].slug as string } };
    },
  },
  'POST /yewu/devicedata/getstatus': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/realTimeData/monitorList': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/commands': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/sendaction': {
    writes: true,
    example: post('company', { token: ref('set.own'), action: SAFE_COMMAND }),
    hints: { password: fc.constantFrom(ref('password'), 'wrong#2026') },
  },
  'POST /yewu/devicedata/restartmodem': {
    writes: true,
    example: post('company', { token: ref('set.own') }),
  },
  'POST /yewu/protocol/list': { writes: false, example: post('platform', {}) },
  'GET /yewu/protocol/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'platform', params: { id: String(w.refs['protocol.published']) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/add': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { document: { ...w.document, key: `fuzz-add-${w.n++}` } } }),
  },
  'POST /yewu/protocol/copy': {
    writes: true,
    example: async (w) => ({
      identity: 'platform',
      body: { id: w.refs['protocol.published'], key: `fuzz-copy-${w.n++}` },
    }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/save': {
    writes: true,
    example: post('platform', { id: ref('protocol.draft'), layout: 'S' }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/publish': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { id: await draft(w) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/del': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { id: await draft(w) } }),
    hints: { id: fc.constantFrom(ref('protocol.published'), ref('protocol.victim')) },
  },
  'GET /yewu/protocol/export/:id': {
    writes: false,
    example: async (w) => ({ identity: 'platform', params: { id: String(w.refs['protocol.published']) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/import': {
    writes: true,
    example: async (w) => ({
      identity: 'platform',
      body: { document: { ...w.document, key: `fuzz-import-${w.n++}` } },
    }),
  },
  'POST /yewu/configdata/readconfignew': {
    writes: false,
    example: post('company', { token: ref('set.own'), menu: MENU_KEYS[0] }),
  },
  'POST /yewu/configdata/writeconfignew': {
    writes: true,
    example: post('company', { token: ref('set.own'), password: ref('password'), values: { [CONFIG_KEYS[0]!]: 1 } }),
    hints: { password: fc.constantFrom(ref('password'), 'wrong#2026') },
  },
  'POST /yewu/deviceitems/select': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/deviceitems/edit': {
    writes: true,
    example: post('company', { token: ref('set.own'), items: ITEM_KEYS.slice(0, 3) }),
  },
  'POST /yewu/deviceitems/reset': { writes: true, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/getmonitorwithselect': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz added ${w.n++}`, protocolKey: layoutS.key, ratedPowerKw: 100, serviceLink: 'tel:+4912345' },
    }),
  },
  'POST /yewu/genset/update': {
    writes: true,
    example: post('company', { token: ref('set.bare'), name: 'Bare set', latitude: 52.5, longitude: 13.4 }),
    hints: { token: fc.constantFrom(ref('set.bare'), ref('set.foreign')) },
  },
  'POST /yewu/genset/del': {
    writes: true,
    example: post('company', { tokens: [ref('set.victim')] }),
    hints: {
      tokens: fc.array(fc.constantFrom(ref('set.victim2'), ref('set.foreign')), { minLength: 1, maxLength: 2 }),
      token: fc.constantFrom(ref('set.victim2'), ref('set.foreign')),
    },
  },
  'POST /yewu/genset/info': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/mylist': { writes: false, example: post('company', { search: 'fuzz' }) },
  'POST /yewu/genset/list': { writes: false, example: post('company', { status: 'all', sort: 'status' }) },
  'POST /yewu/genset/export': { writes: false, example: post('company', { scope: 'list', format: 'csv' }) },
  'POST /yewu/genset/protocols': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/departments': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/setDepartment': {
    writes: true,
    example: post('company', { tokens: [ref('set.bare')], departmentId: null }),
    hints: {
      tokens: fc.array(fc.constantFrom(ref('set.bare'), ref('set.foreign')), { minLength: 1, maxLength: 2 }),
    },
  },
  'POST /yewu/genset/resetcodes': {
    writes: true,
    example: post('company', { token: ref('set.bare') }),
    hints: { token: fc.constantFrom(ref('set.bare'), ref('set.foreign')) },
  },
  'POST /yewu/sub/add': {
    writes: true,
    example: async (w) => ({ identity: { token: w.sessions.viewer }, body: { code: w.refs['code.control'] } }),
  },
  'POST /yewu/sub/list': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/sub/update': {
    writes: true,
    example: post('company', { id: ref('sub.id'), rights: 'control' }),
    hints: { id: fc.constantFrom(ref('sub.id'), ref('sub.victim')) },
  },
  'POST /yewu/sub/del': {
    writes: true,
    example: post('company', { ids: [ref('sub.victim')] }),
    hints: { ids: fc.array(fc.constantFrom(ref('sub.id'), ref('sub.victim')), { minLength: 1, maxLength: 2 }) },
  },
  'POST /yewu/history/chart': {
    writes: false,
    example: post('company', { token: ref('set.own'), items: ['engine_rpm', 'gen_freq'], range: 'week' }),
  },
  'POST /yewu/devicedata/gethistory': {
    writes: false,
    example: post('company', { token: ref('set.own'), items: ['engine_rpm'], range: 'month', size: 10 }),
  },
  'POST /yewu/devicedata/getalarmhistory': {
    writes: false,
    example: post('company', { token: ref('set.own'), range: 'week', state: 'all' }),
  },
  'POST /yewu/alarm/current': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/alarm/chart': { writes: false, example: post('company', { range: 'month' }) },
  'POST /yewu/maintain/countdown': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/exportruntimedata': {
    writes: false,
    example: post('company', { token: ref('set.own'), range: 'week', format: 'csv' }),
  },
  'POST /yewu/home/summary': { writes: false, example: post('company', {}) },
  'POST /yewu/devicedata/getmutilstatus': {
    writes: false,
    example: post('company', { tokens: [ref('set.own')], items: ['engine_rpm'] }),
  },
  'POST /yewu/genset/getNav': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/getZuItem': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: { token: await group(w) } }),
  },
  'POST /yewu/genset/savedevxml': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz group ${w.n++}`, kind: 'parallel', members: [await spareSet(w), await spareSet(w)] },
    }),
    hints: {
      members: fc.array(fc.constantFrom(ref('set.own'), ref('set.bare'), ref('set.foreign')), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  },
  'POST /yewu/genset/delZu': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { token: await group(w) } }),
  },
  'POST /yewu/genset/transferdevice': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await spareSet(w), account: 'operator@example.com', keepSubscription: 'view' },
    }),
    hints: { account: fc.constantFrom('operator@example.com', 'manager@example.com', 'nobody@example.com', '') },
  },
  'POST /yewu/genset/transfer/list': { writes: false, example: post('company', { box: 'done' }) },
  'POST /yewu/genset/transfer/accept': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await incomingTransfer(w) } }),
  },
  'POST /yewu/genset/transfer/reject': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await incomingTransfer(w) } }),
  },
  'POST /yewu/genset/transfer/revoke': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await outgoingTransfer(w) } }),
  },
  'POST /yewu/data/dieselGeneratorReport': {
    writes: false,
    example: post('company', { token: ref('set.own'), ...REPORT_PERIOD }),
  },
  'POST /yewu/data/airCompressorReport': {
    writes: false,
    example: post('company', { token: ref('set.own'), ...REPORT_PERIOD }),
  },
  'POST /yewu/baobiao/add': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: await reportForm(w) }),
  },
  'POST /yewu/baobiao/info': { writes: false, example: post('company', { token: ref('set.own'), type: 1 }) },
  'POST /yewu/genset/reportone': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/baobiao/export': {
    writes: false,
    example: async (w) => {
      await saveReport(w);
      return { identity: 'company', body: { token: w.refs['set.own'], type: 1, format: 'xlsx' } };
    },
    // A PDF embeds its fonts (a second or two each): the generated calls ask for spreadsheets mostly.
    hints: { format: fc.constantFrom('xlsx', 'xlsx', 'pdf', 'doc') },
  },
  'GET /yewu/getWeather': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['set.own']) } }),
  },
  'GET /metrics': {
    writes: false,
    example: get('none', { headers: { authorization: 'Bearer fuzz-metrics-token-0123456789' } }),
  },
  'GET /healthz': { writes: false, example: get('none') },
  'GET /readyz': { writes: false, example: get('none') },
  'POST /yewu/notice/list': { writes: false, example: post('company', { page: 1, size: 20 }) },
  'GET /yewu/notice/unread': { writes: false, example: get('company') },
  'POST /yewu/notice/read': { writes: true, example: post('company', { ids: [1], read: true }) },
  'POST /yewu/notice/readAll': { writes: true, example: post('company') },
  'POST /yewu/webhook/list': { writes: false, example: post('company') },
  'POST /yewu/webhook/save': {
    writes: true,
    example: post('company', { name: 'Desk', url: WEBHOOK_URL, events: ['alarm.raised'] }),
    hints: {
      url: fc.constantFrom(WEBHOOK_URL, 'ftp://93.184.215.14/', 'http://127.0.0.1:1/', 'http://u:p@93.184.215.14/'),
    },
  },
  'POST /yewu/webhook/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await webhook(w) } }),
  },
  'POST /yewu/webhook/deliveries': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: { id: await webhook(w) } }),
  },
  'POST /yewu/baoxiu/add': {
    writes: true,
    example: async (w) => ({ identity: 'company', raw: await repairForm(w) }),
  },
  'GET /yewu/baoxiu/my': { writes: false, example: get('company', { query: { size: '10' } }) },
  'GET /yewu/baoxiu/list': { writes: false, example: get('company', { query: { state: 'submitted' } }) },
  'GET /yewu/baoxiu/detail': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: (await repairRequest(w)).token } }),
  },
  'POST /yewu/baoxiu/update': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: (await repairRequest(w)).token, state: 'accepted', note: 'Monday' },
    }),
  },
  'GET /yewu/baoxiu/picture': {
    writes: false,
    example: async (w) => {
      const r = await repairRequest(w);
      return { identity: 'company', query: { token: r.token, name: r.name, thumb: '1' } };
    },
  },
  'POST /yewu/video/list': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/video/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await spareSet(w), name: 'Gate', url: CAMERA_URL, username: 'viewer', password: 'secret' },
    }),
    hints: { url: fc.constantFrom(CAMERA_URL, 'rtsp://127.0.0.1:9/live;id', 'file:///etc/passwd', 'http://x y') },
  },
  'POST /yewu/video/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { ...(await camera(w)), name: 'Yard' } }),
  },
  'POST /yewu/video/del': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: await camera(w) }),
  },
  // Without a camera to reach here, a watch that gets as far as the camera is answered 502 (or 503 where
  // ffmpeg is missing): what matters is that nothing else comes back.
  'POST /yewu/video/watch': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: await camera(w) }),
    accept: [200, 502, 503, 504],
  },
  'POST /yewu/video/renew': {
    writes: false,
    example: post('company', { lease: UNKNOWN_LEASE }),
    accept: [404],
  },
  'POST /yewu/video/leave': { writes: false, example: post('company', { lease: UNKNOWN_LEASE }), accept: [200, 404] },
  'GET /yewu/video/live/:lease/:file': {
    writes: false,
    example: get('none', { params: { lease: UNKNOWN_LEASE, file: 'index.m3u8' } }),
    accept: [404],
  },
  'POST /yewu/video/live/:lease/leave': {
    writes: false,
    example: get('none', { params: { lease: UNKNOWN_LEASE } }),
    accept: [204],
  },
  'POST /yewu/maintain/plan': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/ota/file/upload': {
    writes: true,
    example: async (w) => ({ identity: 'company', raw: otaForm(`2.0.${w.n++}`) }),
  },
  'GET /yewu/ota/file/list': { writes: false, example: get('company') },
  'POST /yewu/ota/file/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await otaFile(w) } }),
  },
  'POST /yewu/ota/job/assign': {
    writes: true,
    example: async (w) => {
      const job = await otaJob(w);
      await call(w.t.app, 'POST', '/ota/job/cancel', { token: w.sessions.company, body: { id: job.jobId } });
      return { identity: 'company', body: { fileId: job.fileId, tokens: [job.token], concurrency: 2 } };
    },
  },
  'GET /yewu/ota/job/list': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: (await otaJob(w)).token } }),
  },
  'POST /yewu/ota/job/cancel': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: (await otaJob(w)).jobId } }),
  },
  'GET /yewu/ota/download/:token': {
    writes: false,
    example: get('none', { params: { token: 'x'.repeat(32) } }),
    accept: [404],
  },
  'POST /yewu/genset/fence': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/updateFence': {
    writes: true,
    example: post('company', {
      token: ref('set.own'),
      fence: { type: 'circle', center: { lat: 41, lon: 29 }, radiusM: 800 },
    }),
    hints: { token: setRefs },
  },
  'GET /yewu/site/list': {
    writes: false,
    example: get('company', { query: { size: '10', name: 'fuzz' } }),
  },
  'GET /yewu/site/getInfo/:token': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'POST /yewu/site/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz station ${w.n++}`, timeZone: 'Europe/Istanbul', capacityKwh: 100, ratingKw: 50 },
    }),
    hints: { modemId: fc.constantFrom(ref('modem.key'), 'NOPE'), timeZone: fc.constantFrom('UTC', 'Mars/Base') },
  },
  'POST /yewu/site/setDepartment': {
    writes: true,
    example: post('company', { tokens: [ref('site.own')], departmentId: null }),
    hints: { tokens: fc.array(fc.constantFrom(ref('site.own'), ref('site.foreign')), { minLength: 1, maxLength: 2 }) },
  },
  'POST /yewu/site/edit': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: {
        token: w.refs['site.own'],
        name: 'Fuzz own station',
        timeZone: 'Asia/Shanghai',
        capacityKwh: 215,
        ratingKw: 100,
        address: 'Quay 3',
      },
    }),
    hints: { token: fc.constantFrom(ref('site.own'), ref('site.foreign')), modemId: fc.constantFrom('NOPE') },
  },
  'POST /yewu/site/del': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { token: await plainStation(w, `Fuzz gone ${w.n++}`) } }),
    hints: { token: fc.constantFrom(ref('site.victim'), ref('site.foreign')) },
  },
  'GET /yewu/site/devices': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'GET /yewu/site/log': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'GET /yewu/site/logInfo': {
    writes: false,
    example: async (w) => {
      const token = String(w.refs['site.own']);
      const log = await call(w.t.app, 'GET', '/site/log', { token: w.sessions.company, query: { token } });
      return { identity: 'company', query: { token, id: String(log.data.list[0].id) } };
    },
    hints: { token: siteRefs },
  },
  'GET /yewu/site/logRunRecord': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']), size: '10' } }),
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/template/list': { writes: false, example: post('company', { size: 10 }) },
  'POST /yewu/ems/template/save': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { name: `Fuzz tariff ${w.n++}`, ...SITE_TEMPLATE } }),
  },
  'POST /yewu/ems/template/info': { writes: false, example: post('company', { id: ref('template.own') }) },
  'POST /yewu/ems/template/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await siteTemplate(w) } }),
    hints: { id: fc.constantFrom(ref('template.own'), 1, 2) },
  },
  'POST /yewu/ems/sendTactic': {
    writes: true,
    example: async (w) => {
      const station = await fullStation(w);
      return {
        identity: 'company',
        body: {
          token: station.token,
          strategy: 'timeOfUse',
          templateId: station.templateId,
          password: PASSWORDS.company,
        },
      };
    },
    hints: {
      token: siteRefs,
      templateId: fc.constantFrom(ref('template.own'), 1),
      password: fc.constantFrom(ref('password'), 'wrong#2026'),
    },
  },
  'POST /yewu/ems/demandResponse': {
    writes: true,
    example: async (w) => {
      const station = await fullStation(w, true);
      const now = Date.now();
      return { identity: 'company', body: { token: station.token, start: now, end: now + 3_600_000, kw: 50 } };
    },
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/stats': {
    writes: false,
    example: post('company', { token: ref('site.own'), granularity: 'month', date: '2026-01' }),
    hints: { token: siteRefs, date: fc.constantFrom('2026-01-31', '2026-02', '2026', '2026-13', 'x') },
  },
  'POST /yewu/ems/stats/export': {
    writes: false,
    example: post('company', { token: ref('site.own'), granularity: 'year', date: '2026', format: 'xlsx' }),
    hints: { token: siteRefs, date: fc.constantFrom('2026-01-31', '2026-02', '2026') },
  },
  'POST /yewu/ems/alarm/current': {
    writes: false,
    example: post('company', { token: ref('site.own') }),
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/alarm/history': {
    writes: false,
    example: post('company', { token: ref('site.own'), state: 'all' }),
    hints: { token: siteRefs },
  },
  'POST /yewu/genset/guiji': {
    writes: false,
    example: post('company', { token: ref('set.own'), start: 0, end: 86_400_000, zoom: 10 }),
  },
  'POST /yewu/maintain/item/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: w.refs['set.own'], name: `Fuzz item ${w.n++}`, cycleDays: 30, remindDays: 5, cycleHours: 250 },
    }),
    hints: { token: setRefs },
  },
  'POST /yewu/maintain/item/delete': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return { identity: 'company', body: { token: item.token, id: item.id } };
    },
  },
  'POST /yewu/maintain/item/toggle': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return { identity: 'company', body: { token: item.token, id: item.id, enabled: false } };
    },
  },
  'POST /yewu/maintain/task/done': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return {
        identity: 'company',
        body: { token: item.token, id: item.taskId, actualDate: '2026-01-02', runHours: 10, remark: 'Fuzz' },
      };
    },
  },
  'POST /yewu/maintain/history': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/maintain/tasks': { writes: false, example: post('company', { state: 'all' }) },
  'POST /yewu/maintain/counts': { writes: false, example: post('company', {}) },
  'POST /yewu/maintain/template/list': { writes: false, example: post('company', {}) },
  'POST /yewu/maintain/template/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz template ${w.n++}`, model: 'FZ-1', items: [{ name: 'Oil', cycleDays: 90 }] },
    }),
  },
  'POST /yewu/maintain/template/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await maintTemplate(w) } }),
  },
  'POST /yewu/maintain/template/apply': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { id: await maintTemplate(w), tokens: [await spareSet(w)] },
    }),
  },
  'POST /yewu/maintain/mtoken/create': {
    writes: true,
    example: post('company', { token: ref('set.own'), days: 7 }),
  },
  'POST /yewu/maintain/mtoken/revoke': {
    writes: true,
    example: async (w) => {
      const link = await maintLink(w);
      return { identity: 'company', body: { token: link.token, id: link.id } };
    },
  },
  'POST /yewu/iotcard/getinfo': {
    writes: false,
    example: post('company', { token: ref('set.own'), month: '2026-03' }),
  },
  'POST /yewu/iotcard/setPlan': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await simSet(w), sizeMb: 500, startDay: 5, alarmShare: 75 },
    }),
  },
  'POST /yewu/maintain/public': {
    writes: false,
    example: async (w) => ({ identity: 'none', body: { mtoken: (await maintLink(w)).mtoken } }),
  },
  'POST /mqtt/auth': {
    writes: false,
    example: async (w) => ({
      identity: 'platform',
      body: { username: w.refs['modem.key'], password: w.refs['modem.secret'] },
    }),
    hints: {
      username: fc.constantFrom(ref('modem.key'), 'console', 'nobody'),
      password: fc.constantFrom(ref('modem.secret'), 'wrong'),
    },
  },
};

/** A set of the company in no group yet, to group. */
async function spareSet(w: World): Promise<string> {
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz group member ${w.n++}`,
    modemId: null,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  return set.token;
}

/** A set of the company without an owner, handed to the company's manager by the platform administrator. */
async function incomingTransfer(w: World): Promise<number> {
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: null,
    name: `Fuzz handover ${w.n++}`,
    modemId: null,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  const res = await call(w.t.app, 'POST', '/genset/transferdevice', {
    token: w.sessions.platform,
    body: { token: set.token, account: 'manager@example.com' },
  });
  if (res.code !== 200) throw new Error(`handover not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A spare set the company's manager hands to the operator. */
async function outgoingTransfer(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/genset/transferdevice', {
    token: w.sessions.company,
    body: { token: await spareSet(w), account: 'operator@example.com' },
  });
  if (res.code !== 200) throw new Error(`handover not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A set of the company whose module reported a SIM card, to set a plan for. */
async function simSet(w: World): Promise<string> {
  const modem = await w.t.app.devices.fleet.createModem({
    companyId: w.refs['company.own'] as number,
    modemKey: `FUZZSIM${Date.now()}${w.n++}`,
  });
  await w.t.app.database.db
    .updateTable('modem')
    .set({ iccid: `898600${String(Date.now()).slice(-8)}${String(w.n++).padStart(6, '0')}` })
    .where('id', '=', modem.id)
    .execute();
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz SIM set ${w.n++}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  return set.token;
}

/** A maintenance item of a spare set with its pending task, to change, toggle, delete or mark done. */
async function maintItem(w: World): Promise<{ token: string; id: number; taskId: number }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/maintain/item/save', {
    token: w.sessions.company,
    body: { token, name: `Fuzz item ${w.n++}`, cycleDays: 30, latestDate: '2026-01-01' },
  });
  if (res.code !== 200) throw new Error(`maintenance item not saved: ${res.code} ${res.msg}`);
  const plan = await call(w.t.app, 'POST', '/maintain/plan', { token: w.sessions.company, body: { token } });
  return { token, id: res.data.id as number, taskId: plan.data.items[0].taskId as number };
}

/** A maintenance template of the demo company. */
async function maintTemplate(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/maintain/template/save', {
    token: w.sessions.company,
    body: { name: `Fuzz template ${w.n++}`, model: 'FZ-1', items: [{ name: 'Oil', cycleDays: 90 }] },
  });
  if (res.code !== 200) throw new Error(`template not saved: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A maintenance link of a spare set. */
async function maintLink(w: World): Promise<{ token: string; id: number; mtoken: string }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/maintain/mtoken/create', {
    token: w.sessions.company,
    body: { token, days: 3 },
  });
  if (res.code !== 200) throw new Error(`maintenance link not made: ${res.code} ${res.msg}`);
  return { token, id: res.data.id as number, mtoken: res.data.mtoken as string };
}

/** A camera of a spare set, to change, delete or watch. */
async function camera(w: World): Promise<{ token: string; id: number }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/video/add', {
    token: w.sessions.company,
    body: { token, name: `Fuzz camera ${w.n++}`, url: CAMERA_URL },
  });
  if (res.code !== 200) throw new Error(`camera not added: ${res.code} ${res.msg}`);
  return { token, id: res.data.id as number };
}

/** A new parallel group of two spare sets, to read or delete. */
async function group(w: World): Promise<string> {
  const res = await call(w.t.app, 'POST', '/genset/savedevxml', {
    token: w.sessions.company,
    body: { name: `Fuzz group ${w.n++}`, kind: 'parallel', members: [await spareSet(w), await spareSet(w)] },
  });
  if (res.code !== 200) throw new Error(`group not made: ${res.code} ${res.msg}`);
  return res.data.token as string;
}

/** A diesel generator report of the own set as its prefill makes it, ready to save. */
async function reportForm(w: World) {
  const res = await call(w.t.app, 'POST', '/data/dieselGeneratorReport', {
    token: w.sessions.company,
    body: { token: w.refs['set.own'], ...REPORT_PERIOD },
  });
  if (res.code !== 200) throw new Error(`report not prefilled: ${res.code} ${res.msg}`);
  return { token: w.refs['set.own'], type: 1, ...REPORT_PERIOD, form: res.data.form };
}

async function saveReport(w: World) {
  const res = await call(w.t.app, 'POST', '/baobiao/add', { token: w.sessions.company, body: await reportForm(w) });
  if (res.code !== 200) throw new Error(`report not saved: ${res.code} ${res.msg}`);
}

/** A new draft version (a copy of layout S under a new key), to publish or delete. */
async function draft(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/protocol/copy', {
    token: w.sessions.platform,
    body: { id: w.refs['protocol.published'], key: `fuzz-draft-${w.n++}` },
  });
  if (res.code !== 200) throw new Error(`draft not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

// ---- the servers ----

interface CapturedRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
}

const captured: CapturedRoute[] = [];
const worlds: World[] = [];
const counts = new Map<string, { requests: number; refused: number; ok: number }>();
let started = 0;

async function buildWorld(t: TestApp, log: ReturnType<typeof errorLog>): Promise<World> {
  const app = t.app;
  const platform = await login(app, 'admin@example.com', PASSWORDS.platform);
  const company = await login(app, 'manager@example.com', PASSWORDS.company);
  const viewer = await login(app, 'viewer@example.com', 'Demo#2026');
  const info = await call(app, 'GET', '/user/info', { token: company });
  const companyId = info.data.info.companyId as number;
  const managerId = info.data.info.id as number;
  const other = await createCompany(t, 'Other Power Co.');

  const own = await newSet(t, { companyId, ownerUserId: managerId, name: 'Fuzz own set' });
  const data = await moduleFor(t, own);
  answerRequests(data.module);
  await data.send(RUNNING, Date.now() - 60_000);
  await data.send({ ...RUNNING, engine_rpm: 1490 }, Date.now() - 30_000);
  await insertAlarm(t, own.id, {
    code: layoutS.alarms[0]!.code,
    level: 'warning',
    start: Date.now() - 3_600_000,
    end: null,
  });
  const bare = await app.devices.fleet.createGenset({
    companyId,
    ownerUserId: managerId,
    name: 'Bare set',
    modemId: null,
    protocolKey: layoutS.key,
  });
  const foreign = await newSet(t, { companyId: other, name: 'Foreign set' });
  const victim = await newSet(t, { companyId, ownerUserId: managerId, name: 'Victim set' });
  const victim2 = await newSet(t, { companyId, ownerUserId: managerId, name: 'Second victim set' });
  const viewerInfo = await call(app, 'GET', '/user/info', { token: viewer });
  await app.devices.fleet.subscribe(own.id, viewerInfo.data.info.id as number, 'view');
  const extra = await freshUser(t, { companyId: other });
  await app.devices.fleet.subscribe(own.id, extra.id, 'view');
  const subs = await app.database.db
    .selectFrom('subscription')
    .select(['id', 'user_id'])
    .where('genset_id', '=', own.id)
    .orderBy('id')
    .execute();
  app.gensets.directory.invalidate();

  const published = await app.database.db
    .selectFrom('protocol')
    .select('id')
    .where('protocol_key', '=', layoutS.key)
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow();
  const exported = await app.inject({
    method: 'GET',
    url: `/yewu/protocol/export/${published.id}`,
    headers: signed(platform),
  });
  const w: World = {
    t,
    log,
    sessions: { platform, company, viewer },
    refs: {
      'set.own': own.token,
      'set.bare': bare.token,
      'set.foreign': foreign.token,
      'set.victim': victim.token,
      'set.victim2': victim2.token,
      'code.sub': own.subscriptionCode,
      'code.control': own.controlCode,
      'company.own': companyId,
      'company.other': other,
      'user.manager': managerId,
      'protocol.published': published.id,
      'sub.id': subs[0]!.id,
      'sub.victim': subs[1]!.id,
      'modem.key': own.modemKey,
      'modem.secret': own.secret,
    },
    document: JSON.parse(exported.body) as Record<string, unknown>,
    n: 0,
  };
  w.refs['protocol.draft'] = await draft(w);
  w.refs['protocol.victim'] = await draft(w);
  w.refs['site.own'] = await plainStation(w, 'Fuzz own station');
  w.refs['site.victim'] = await plainStation(w, 'Fuzz victim station');
  w.refs['template.own'] = await siteTemplate(w);
  const strangerAdmin = await freshUser(t, { companyId: other, role: 'companyAdmin' });
  const stranger = await login(app, strangerAdmin.account, strangerAdmin.password);
  const foreignStation = await call(app, 'POST', '/site/add', {
    token: stranger,
    body: { name: 'Foreign station', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50 },
  });
  w.refs['site.foreign'] = foreignStation.data.token;
  return w;
}

function signed(token: string | undefined, o: { badSign?: boolean } = {}): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  const sign = o.badSign ? 'f'.repeat(64) : computeSign(token, time, DEFAULT_SIGN_SECRET);
  return { 'x-time': time, 'x-sign': sign, ...(token ? { 'x-token': token } : {}) };
}

interface Answer {
  status: number;
  /** The envelope's code, the broker answer's result, or the HTTP status of a file. */
  code: number | string;
  text: string;
}

async function send(w: World, route: CapturedRoute, c: Call): Promise<Answer> {
  const identity = typeof c.identity === 'string' ? c.identity : 'company';
  const token =
    typeof c.identity === 'object'
      ? c.identity.token
      : c.identity === 'platform' || c.identity === 'company'
        ? w.sessions[c.identity]
        : c.identity === 'forged'
          ? 'forged-token-0000000000000000'
          : c.identity === 'badsign'
            ? w.sessions.platform
            : undefined;
  const headers: Record<string, string> = {
    'accept-language': 'en-US',
    'x-timezone': 'Europe/Berlin',
    ...(route.url.startsWith('/yewu')
      ? signed(token, { badSign: c.identity === 'badsign' })
      : {
          authorization: c.identity === 'platform' || c.identity === 'company' ? `Bearer ${BROKER_TOKEN}` : 'Bearer x',
        }),
    ...c.headers,
  };
  let url = route.url;
  for (const [k, v] of Object.entries((resolve(c.params, w, identity) as Record<string, unknown>) ?? {})) {
    url = url.replace(`:${k}`, percentEncoded(String(v)));
  }
  const body = resolve(c.body, w, identity);
  let payload: string | Buffer | undefined;
  if (c.raw) {
    payload = c.raw.raw;
    headers['content-type'] = c.raw.contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await w.t.app.inject({
    method: route.method as 'GET' | 'POST',
    url,
    headers,
    ...(c.query ? { query: resolve(c.query, w, identity) as Record<string, string> } : {}),
    ...(payload !== undefined ? { payload } : {}),
  });
  let code: number | string = res.statusCode;
  if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    const json = JSON.parse(res.body) as { code?: unknown; result?: unknown };
    if (typeof json.code === 'number') code = json.code;
    else if (typeof json.result === 'string') code = json.result;
  }
  return { status: res.statusCode, code, text: res.body.slice(0, 300) };
}

/** Percent-encoding that also writes unpaired surrogates (as their three bytes), which encodeURIComponent refuses. */
function percentEncoded(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (c) => {
    const unit = c.charCodeAt(0);
    if (c.length === 2 || unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(c);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((b) => `%${b.toString(16).toUpperCase()}`)
      .join('');
  });
}

/** Sessions a successful call ended are opened again, so the next calls are signed in as intended. */
async function reopenSessions(w: World) {
  for (const who of ['platform', 'company'] as const) {
    const res = await call(w.t.app, 'GET', '/user/info', { token: w.sessions[who] });
    if (res.code !== 200) {
      w.sessions[who] = await login(
        w.t.app,
        who === 'platform' ? 'admin@example.com' : 'manager@example.com',
        PASSWORDS[who],
      );
    }
  }
}

async function healthy(w: World) {
  const res = await call(w.t.app, 'GET', '/company/getName', { query: { hostname: 'demo.localhost' } });
  expect(res.code, 'the server answers after the fuzzing').toBe(200);
  await reopenSessions(w);
}

// ---- generated requests ----

const stringly = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined ? '' : typeof v === 'number' ? String(v) : JSON.stringify(v);

const hostileText = fc.oneof(
  hostileValue.map(stringly),
  fc.constantFrom('-1', '0', '1e308', '2147483648', '99999999999999999999', 'abc', ' 1', '0x10', '1.5', 'NaN'),
);

function recordOfStrings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = stringly(v);
  }
  return out;
}

const hostileHeaders = fc.record(
  {
    'x-companyid': fc.constantFrom('1', '2', '3', '999999', '2147483648', '-1', 'abc', '1e3', '9007199254740993'),
    'accept-language': fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('zh-CN;q=abc', '*', 'zh-Hant', 'ru')),
    'x-timezone': fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('Asia/Shanghai', 'Etc/GMT+14', 'America/Nope'),
    ),
    'user-agent': fc.string({ maxLength: 200 }),
  },
  { requiredKeys: [] },
);

function callArbitrary(route: CapturedRoute, rc: RouteCase): fc.Arbitrary<Call> {
  const hints = { ...HINTS, ...rc.hints };
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const identity = fc.constantFrom<Identity>(
    ...(['platform', 'platform', 'platform', 'company', 'company', 'company', 'none', 'forged', 'badsign'] as const),
  );

  const keys = schema.body ? keysOf(schema.body) : ['username', 'password'];
  const valid = schema.body ? arbitraryOf(schema.body, hints) : fc.constant({});
  const body: fc.Arbitrary<Pick<Call, 'body' | 'raw'>> =
    route.method === 'GET'
      ? fc.constant({})
      : fc.oneof(
          { weight: 9, arbitrary: valid.map((v) => ({ body: v })) },
          { weight: 3, arbitrary: mutated(valid, keys).map((v) => ({ body: v })) },
          { weight: 1, arbitrary: hostileValue.map((v) => ({ body: v })) },
          { weight: 1, arbitrary: hostileRawBody(keys).map((raw) => ({ raw })) },
          { weight: 1, arbitrary: fc.constant({}) },
        );

  const query: fc.Arbitrary<Record<string, string> | undefined> = schema.querystring
    ? fc.oneof(
        { weight: 5, arbitrary: arbitraryOf(schema.querystring, hints).map(recordOfStrings) },
        {
          weight: 2,
          arbitrary: mutated(arbitraryOf(schema.querystring, hints), keysOf(schema.querystring)).map(recordOfStrings),
        },
        { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...keysOf(schema.querystring), 'x'), hostileText) },
      )
    : fc.option(fc.dictionary(fc.constantFrom('x', 'token', '__proto__'), hostileText), { freq: 5, nil: undefined });

  const paramKeys = schema.params ? keysOf(schema.params) : [];
  const params: fc.Arbitrary<Record<string, string> | undefined> = paramKeys.length
    ? fc.oneof(
        { weight: 4, arbitrary: arbitraryOf(schema.params, hints).map(recordOfStrings) },
        { weight: 1, arbitrary: fc.record(Object.fromEntries(paramKeys.map((k) => [k, hostileText]))) },
      )
    : fc.constant(undefined);

  return fc
    .record({
      identity,
      body,
      query,
      params,
      headers: fc.option(hostileHeaders, { freq: 5, nil: undefined }),
    })
    .map(({ body: b, query: q, params: p, headers: h, identity: i }) => ({
      identity: i,
      ...b,
      ...(q ? { query: q } : {}),
      ...(p ? { params: p } : {}),
      ...(h
        ? { headers: Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '')])) }
        : {}),
    }));
}

function describeCall(c: Call): string {
  const short = (v: unknown) => {
    const s = JSON.stringify(v, (_k, x: unknown) => (Buffer.isBuffer(x) ? `<${x.length} bytes>` : x)) ?? 'undefined';
    return s.length > 400 ? `${s.slice(0, 400)}… (${s.length} chars)` : s;
  };
  return short({ ...c, raw: c.raw ? { contentType: c.raw.contentType, raw: short(c.raw.raw) } : undefined });
}

// ---- the tests ----

beforeAll(async () => {
  started = Date.now();
  const primaryLog = errorLog();
  const primary = await createTestApp(ENV, {
    onRoute: (r) => {
      for (const method of [r.method].flat()) {
        if (method === 'GET' || method === 'POST') captured.push({ method, url: r.url, schema: r.schema });
      }
    },
    logger: primaryLog.logger,
  });
  worlds.push(await buildWorld(primary, primaryLog));
  // The same requests go to a server on the other database: SQLite when this run is on PostgreSQL.
  const pg = await postgresUrl();
  if (pg) {
    const twinLog = errorLog();
    const twin = await createTestApp(ENV, { databaseUrl: PG_URL ? null : pg, logger: twinLog.logger });
    worlds.push(await buildWorld(twin, twinLog));
  }
}, 120_000);

afterAll(async () => {
  const lines = [...counts].map(
    ([route, c]) =>
      `  ${route.padEnd(46)} ${String(c.requests).padStart(4)} requests, ${c.ok} ok, ${c.refused} refused`,
  );
  const total = [...counts.values()].reduce((s, c) => s + c.requests, 0);
  console.log(
    `Route fuzzing (seed ${assertOptions(0, 0).seed}, ${worlds.length === 2 ? 'SQLite and PostgreSQL compared' : 'one database'}): ` +
      `${total} requests per server over ${counts.size} routes in ${((Date.now() - started) / 1000).toFixed(1)} s\n${lines.join('\n')}`,
  );
  for (const w of worlds) await w.t.close();
});

describe('route fuzzing', () => {
  it('has every route of the OpenAPI document in its table, and no other', () => {
    const doc = worlds[0]!.t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.length).toBeGreaterThan(50);
    expect(
      documented.filter((r) => !ROUTES[r]),
      'routes to add to the fuzz table',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((r) => !documented.includes(r)),
      'routes no longer there',
    ).toEqual([]);
  });

  for (const [key, rc] of Object.entries(ROUTES)) {
    it(`${key}: survives generated requests`, async () => {
      const [method, url] = key.split(' ') as [string, string];
      const route = captured.find((r) => r.method === method && r.url === url);
      expect(route, `${key} is registered`).toBeDefined();
      const stats = { requests: 0, refused: 0, ok: 0 };
      counts.set(key, stats);

      // The known-good request succeeds on every server.
      for (const w of worlds) {
        const example = await rc.example(w);
        w.log.lines.length = 0;
        const answer = await send(w, route!, example);
        stats.requests += w === worlds[0] ? 1 : 0;
        expect(answer.code, `${key} known-good request: ${answer.text} ${JSON.stringify(w.log.lines)}`).toSatisfy(
          (c: number | string) => (rc.accept ?? [200, 'allow']).includes(c),
        );
        if (rc.endsSession) await reopenSessions(w);
      }

      const salt = [...key].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
      await fc.assert(
        fc.asyncProperty(callArbitrary(route!, rc), async (c) => {
          stats.requests++;
          const before = rc.writes ? await fingerprint(worlds[0]!.t.app.database.db) : null;
          for (const w of worlds) w.log.lines.length = 0;
          const answers = await Promise.all(worlds.map((w) => send(w, route!, c)));
          const [first] = answers as [Answer, ...Answer[]];
          const what = `${key} ${describeCall(c)} → ${first.status} ${first.text}`;
          if (first.code === 200 || first.code === 'allow') stats.ok++;
          for (const [i, a] of answers.entries()) {
            expect(a.status, `HTTP status (server ${i}) of ${what}`).toBeLessThan(500);
            expect(a.code, `envelope code (server ${i}) of ${what}`).not.toBe(500);
            expect(worlds[i]!.log.lines, `errors logged (server ${i}) by ${what}`).toEqual([]);
          }
          if (answers.length === 2) {
            expect(answers[1]!.code, `SQLite and PostgreSQL answer ${what} alike: ${answers[1]!.text}`).toBe(
              first.code,
            );
          }
          if (typeof first.code === 'number' && REFUSALS.has(first.code)) {
            stats.refused++;
            if (before !== null) {
              expect(await fingerprint(worlds[0]!.t.app.database.db), `refused ${what} changed stored data`).toBe(
                before,
              );
            }
          }
          if (rc.endsSession && typeof c.identity === 'string') for (const w of worlds) await reopenSessions(w);
        }),
        assertOptions(salt, RUNS_PER_ROUTE),
      );
      for (const w of worlds) await healthy(w);
    });
  }
});
