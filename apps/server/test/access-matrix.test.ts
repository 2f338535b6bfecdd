// The authorisation matrix, derived from the route table: every /yewu route of the OpenAPI document has a row
// here naming what it asks for (public, signed in, or permissions) and the row must agree with the route's own
// declaration (`config.access`). Every route is then called as each kind of caller — no session, a personal user,
// the company's administrator, operator and viewer, another company's administrator and the platform
// administrator — with a request generated from the route's own schema, aimed at the caller's own set and the
// company's station: without a session a route that is not public answers 101; a role without the permission
// answers 403 (worded); a caller the declaration lets through is never answered 101/403 or a session code (a
// request may still fail its schema or find nothing). Cross-tenant: every route that names a set, station, user,
// role, template, department, webhook, camera, subscription or log entry is called by the other company's
// administrator with company A's real targets and answers 403 or 404 with none of A's data; no answer to that
// administrator ever holds a name of company A. One server, calls in parallel with bounded concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { computeSign, DEFAULT_SIGN_SECRET, Permission, type PermissionString } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { newSet } from './support/history-data.ts';
import { arbitraryOf, keysOf, type Hints } from './support/zod-arbitrary.ts';
import accessPlugin, { isDeclaredRoute, permissionsOf, type Access } from '../src/plugins/access.ts';

const ENV = {
  COMMAND_TIMEOUT_MS: '500',
  AUTH_MAX_FAILURES: '1000000',
  AUTH_IP_MAX_FAILURES: '1000000',
};
const CONCURRENCY = 8;
/** Codes that say "who you are may not do this": never the answer to a caller the declaration lets through. */
const DENIED = new Set([101, 403, 50008, 50012, 50014]);
/** Every name of company A's rows holds this, so an answer leaking one is easy to see. */
const MARK = 'Qz7TenantA';
const NO_SUCH_TOKEN = 'NoSuchToken00000';

// ---- the matrix: what each route asks for, and what its target fields name ----

type Expect = 'public' | 'signedIn' | readonly PermissionString[];
/** Rows a target field can name. */
type Kind =
  | 'set'
  | 'sets'
  | 'station'
  | 'stations'
  | 'emsTemplate'
  | 'maintTemplate'
  | 'webhook'
  | 'camera'
  | 'subscription'
  | 'subscriptions'
  | 'user'
  | 'role'
  | 'department'
  | 'protocol'
  | 'company'
  | 'logEntry';

interface Row {
  access: Expect;
  /** What the call's target fields name; by default `token` names a set (a station on station routes), `tokens` sets. */
  targets?: Record<string, Kind>;
  /** Fields given as they are, over the generated ones. */
  fixed?: Record<string, unknown>;
  /** The call ends the caller's session: it is made on a session of its own. */
  ownSession?: boolean;
  /** The call takes away what it names: made after the others. */
  destroys?: boolean;
  /** A list whose target field only filters: aimed at company A it must show none of A's rows (any code). */
  filters?: boolean;
}

/** A tariff template the station calls accept. */
const TEMPLATE = {
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '24:00', period: 'flat' },
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
  reversePower: { enabled: false, marginKw: 0 },
  demandControl: { enabled: false, limitKw: 0 },
};

const DAY = 86_400_000;
const PERIOD = { from: '2026-01-01', to: '2026-01-07' };

const PUBLIC: Row = { access: 'public' };
const SIGNED: Row = { access: 'signedIn' };
const needs = (...p: PermissionString[]): Row => ({ access: p });
const signed = (o: Omit<Row, 'access'>): Row => ({ access: 'signedIn', ...o });
const P = Permission;

const ROWS: Record<string, Row> = {
  // account
  'POST /yewu/user/login': PUBLIC,
  'POST /yewu/user/codelogin': PUBLIC,
  'POST /yewu/sendMessage': PUBLIC,
  'POST /yewu/user/register': PUBLIC,
  'POST /yewu/user/forgetPassword': PUBLIC,
  'POST /yewu/logout': signed({ ownSession: true }),
  'GET /yewu/user/info': SIGNED,
  'GET /yewu/getRoute': SIGNED,
  'POST /yewu/user/password': signed({ ownSession: true }),
  'POST /yewu/user/delUser': signed({ ownSession: true }),
  'POST /yewu/user/setMessage': SIGNED,
  'POST /yewu/user/updateProfile': SIGNED,
  // company
  'GET /yewu/company/getName': PUBLIC,
  'GET /yewu/company/getlogo': PUBLIC,
  'GET /yewu/company/getinfo/:id': signed({ targets: { id: 'company' } }),
  'GET /yewu/help/list': SIGNED,
  'GET /yewu/help/info': SIGNED,
  // monitoring
  'POST /yewu/home/summary': SIGNED,
  'POST /yewu/devicedata/getmutilstatus': SIGNED,
  'POST /yewu/devicedata/getstatus': SIGNED,
  'POST /yewu/realTimeData/monitorList': SIGNED,
  'POST /yewu/devicedata/commands': SIGNED,
  'POST /yewu/devicedata/sendaction': SIGNED,
  // the form's `utoken` stands in for the header: left out, the header is what is read
  'POST /yewu/devicedata/restartmodem': signed({ fixed: { utoken: undefined } }),
  'POST /yewu/deviceitems/select': SIGNED,
  'POST /yewu/deviceitems/edit': SIGNED,
  'POST /yewu/deviceitems/reset': SIGNED,
  'POST /yewu/devicedata/getmonitorwithselect': SIGNED,
  'POST /yewu/configdata/readconfignew': SIGNED,
  'POST /yewu/configdata/writeconfignew': SIGNED,
  'POST /yewu/history/chart': SIGNED,
  'POST /yewu/devicedata/gethistory': SIGNED,
  'POST /yewu/devicedata/getalarmhistory': needs(P.alarmView),
  'POST /yewu/alarm/current': SIGNED,
  'POST /yewu/alarm/chart': needs(P.alarmView),
  'POST /yewu/maintain/countdown': SIGNED,
  'POST /yewu/genset/exportruntimedata': SIGNED,
  // sets
  'POST /yewu/genset/add': needs(P.gensetManage),
  'POST /yewu/genset/update': SIGNED,
  'POST /yewu/genset/del': signed({ destroys: true }),
  'POST /yewu/genset/info': SIGNED,
  'POST /yewu/genset/mylist': SIGNED,
  'POST /yewu/genset/list': needs(P.gensetManage),
  // the company list needs genset:manage (the service's own check): the matrix exports one's own list
  'POST /yewu/genset/export': signed({ fixed: { scope: 'mylist' } }),
  'POST /yewu/genset/protocols': SIGNED,
  'POST /yewu/genset/resetcodes': SIGNED,
  'POST /yewu/sub/add': SIGNED,
  'POST /yewu/sub/list': SIGNED,
  'POST /yewu/sub/update': signed({ targets: { id: 'subscription' } }),
  'POST /yewu/sub/del': signed({ targets: { ids: 'subscriptions' }, fixed: { token: undefined }, destroys: true }),
  'POST /yewu/genset/getNav': SIGNED,
  'POST /yewu/genset/getZuItem': SIGNED,
  'POST /yewu/genset/savedevxml': signed({ targets: { tokens: 'sets' } }),
  'POST /yewu/genset/delZu': signed({ destroys: true }),
  'POST /yewu/genset/fence': SIGNED,
  'POST /yewu/genset/updateFence': SIGNED,
  'POST /yewu/genset/guiji': signed({ fixed: { start: Date.now() - DAY, end: Date.now() } }),
  'POST /yewu/iotcard/getinfo': SIGNED,
  'POST /yewu/iotcard/setPlan': SIGNED,
  'POST /yewu/genset/transferdevice': SIGNED,
  'POST /yewu/genset/transfer/list': SIGNED,
  'POST /yewu/genset/transfer/accept': SIGNED,
  'POST /yewu/genset/transfer/reject': SIGNED,
  'POST /yewu/genset/transfer/revoke': SIGNED,
  // maintenance
  'POST /yewu/maintain/plan': SIGNED,
  'POST /yewu/maintain/item/save': SIGNED,
  'POST /yewu/maintain/item/delete': signed({ destroys: true }),
  'POST /yewu/maintain/item/toggle': SIGNED,
  'POST /yewu/maintain/task/done': SIGNED,
  'POST /yewu/maintain/history': SIGNED,
  'POST /yewu/maintain/tasks': SIGNED,
  'POST /yewu/maintain/counts': SIGNED,
  'POST /yewu/maintain/template/list': needs(P.gensetManage),
  'POST /yewu/maintain/template/save': needs(P.gensetManage),
  'POST /yewu/maintain/template/delete': { ...needs(P.gensetManage), targets: { id: 'maintTemplate' }, destroys: true },
  'POST /yewu/maintain/template/apply': { ...needs(P.gensetManage), targets: { id: 'maintTemplate', tokens: 'sets' } },
  'POST /yewu/maintain/mtoken/create': SIGNED,
  'POST /yewu/maintain/mtoken/revoke': signed({ destroys: true }),
  'POST /yewu/maintain/public': PUBLIC,
  // notices and webhooks
  'POST /yewu/notice/list': SIGNED,
  'GET /yewu/notice/unread': SIGNED,
  'POST /yewu/notice/read': SIGNED,
  'POST /yewu/notice/readAll': SIGNED,
  'POST /yewu/webhook/list': needs(P.companyManage),
  'POST /yewu/webhook/save': {
    ...needs(P.companyManage),
    targets: { id: 'webhook' },
    fixed: { url: 'https://93.184.215.14/hook' },
  },
  'POST /yewu/webhook/delete': { ...needs(P.companyManage), targets: { id: 'webhook' }, destroys: true },
  'POST /yewu/webhook/deliveries': { ...needs(P.companyManage), targets: { id: 'webhook' } },
  // firmware
  'POST /yewu/ota/file/upload': needs(P.otaManage),
  'GET /yewu/ota/file/list': needs(P.otaManage),
  'POST /yewu/ota/file/delete': { ...needs(P.otaManage), destroys: true },
  'POST /yewu/ota/job/assign': needs(P.otaManage),
  // without a set it lists a file's jobs, which needs ota:manage (the service's own check): the matrix names a set
  'GET /yewu/ota/job/list': SIGNED,
  'POST /yewu/ota/job/cancel': { ...needs(P.otaManage), destroys: true },
  'GET /yewu/ota/download/:token': PUBLIC,
  // protocols
  'POST /yewu/protocol/list': needs(P.protocolManage),
  'GET /yewu/protocol/info/:id': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/add': needs(P.protocolManage),
  'POST /yewu/protocol/copy': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/save': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/publish': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/del': { ...needs(P.protocolManage), targets: { id: 'protocol' }, destroys: true },
  'GET /yewu/protocol/export/:id': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/import': needs(P.protocolManage),
  // repairs
  'POST /yewu/baoxiu/add': SIGNED,
  'GET /yewu/baoxiu/my': SIGNED,
  'GET /yewu/baoxiu/list': needs(P.repairManage),
  'GET /yewu/baoxiu/detail': SIGNED,
  'POST /yewu/baoxiu/update': needs(P.repairManage),
  'GET /yewu/baoxiu/picture': SIGNED,
  // reports and weather
  'POST /yewu/data/dieselGeneratorReport': { ...needs(P.gensetReport), fixed: PERIOD },
  'POST /yewu/data/airCompressorReport': { ...needs(P.gensetReport), fixed: PERIOD },
  'POST /yewu/baobiao/info': needs(P.gensetReport),
  'POST /yewu/baobiao/add': { ...needs(P.gensetReport), fixed: PERIOD },
  'POST /yewu/genset/reportone': needs(P.gensetReport),
  'POST /yewu/baobiao/export': needs(P.gensetReport),
  'GET /yewu/getWeather': needs(P.gensetReport),
  // stations
  'GET /yewu/site/list': needs(P.siteView),
  'GET /yewu/site/getInfo/:token': needs(P.siteView),
  'POST /yewu/site/add': needs(P.siteManage),
  'POST /yewu/site/edit': {
    ...needs(P.siteManage),
    fixed: { name: 'Edited', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50, devices: [] },
  },
  'POST /yewu/site/del': { ...needs(P.siteManage), destroys: true },
  'GET /yewu/site/devices': needs(P.siteView),
  'GET /yewu/site/log': needs(P.siteView),
  'GET /yewu/site/logInfo': { ...needs(P.siteView), targets: { token: 'station', id: 'logEntry' } },
  'GET /yewu/site/logRunRecord': needs(P.siteView),
  'POST /yewu/ems/template/list': needs(P.siteView),
  'POST /yewu/ems/template/save': {
    ...needs(P.siteManage),
    targets: { id: 'emsTemplate' },
    fixed: { name: 'Tariff', ...TEMPLATE, validFrom: undefined },
  },
  'POST /yewu/ems/template/info': { ...needs(P.siteView), targets: { id: 'emsTemplate' } },
  'POST /yewu/ems/template/delete': { ...needs(P.siteManage), targets: { id: 'emsTemplate' }, destroys: true },
  'POST /yewu/ems/sendTactic': { ...needs(P.siteManage), targets: { token: 'station', templateId: 'emsTemplate' } },
  'POST /yewu/ems/demandResponse': needs(P.siteManage),
  'POST /yewu/ems/stats': { ...needs(P.siteView), fixed: { granularity: 'day', date: '2026-01-01' } },
  'POST /yewu/ems/stats/export': { ...needs(P.siteView), fixed: { granularity: 'day', date: '2026-01-01' } },
  'POST /yewu/ems/alarm/current': needs(P.siteView),
  'POST /yewu/ems/alarm/history': needs(P.siteView),
  // video
  'POST /yewu/video/list': SIGNED,
  'POST /yewu/video/add': signed({ fixed: { url: 'http://127.0.0.1:9/stream' } }),
  'POST /yewu/video/update': signed({ targets: { token: 'set', id: 'camera' } }),
  'POST /yewu/video/del': signed({ targets: { token: 'set', id: 'camera' }, destroys: true }),
  'POST /yewu/video/watch': signed({ targets: { token: 'set', id: 'camera' } }),
  'POST /yewu/video/renew': SIGNED,
  'POST /yewu/video/leave': SIGNED,
  'GET /yewu/video/live/:lease/:file': PUBLIC,
  'POST /yewu/video/live/:lease/leave': PUBLIC,
  // departments of sets and stations
  'POST /yewu/genset/setDepartment': { ...needs(P.gensetManage), targets: { departmentId: 'department' } },
  'POST /yewu/genset/departments': needs(P.gensetManage, P.siteManage),
  'POST /yewu/site/setDepartment': { ...needs(P.siteManage), targets: { departmentId: 'department' } },
  // roles, invitations, members, the operation log
  'GET /yewu/role/list': needs(P.roleManage, P.userManage),
  'GET /yewu/role/info/:id': { ...needs(P.roleManage), targets: { id: 'role' } },
  'POST /yewu/role/save': needs(P.roleManage),
  'POST /yewu/role/update': { ...needs(P.roleManage), targets: { id: 'role' } },
  'POST /yewu/role/delete': { ...needs(P.roleManage), targets: { id: 'role' }, destroys: true },
  'POST /yewu/user/roleStatus': { ...needs(P.roleManage), targets: { id: 'role' }, fixed: { status: 1 } },
  'GET /yewu/role/getDataAuthRole': needs(P.roleManage),
  'POST /yewu/invite/create': {
    ...needs(P.userManage),
    targets: { roleId: 'role', departmentId: 'department' },
    fixed: { expiresAt: Date.now() + 7 * DAY, maxUses: 5 },
  },
  'GET /yewu/invite/list': needs(P.userManage),
  'POST /yewu/invite/revoke': { ...needs(P.userManage), destroys: true },
  'GET /yewu/invite/info/:code': PUBLIC,
  'POST /yewu/invite/apply': SIGNED,
  'GET /yewu/member/list': needs(P.userManage),
  'POST /yewu/member/audit': { ...needs(P.userManage), targets: { roleId: 'role', departmentId: 'department' } },
  'GET /yewu/log/list': { ...needs(P.logView), targets: { companyId: 'company' }, filters: true },
  'POST /yewu/log/export': { ...needs(P.logView), targets: { companyId: 'company' }, filters: true },
  // people and departments
  'GET /yewu/user/list': {
    ...needs(P.userManage),
    targets: { departmentId: 'department', roleId: 'role' },
    filters: true,
  },
  'GET /yewu/user/info/:id': { ...needs(P.userManage), targets: { id: 'user' } },
  'POST /yewu/user/add': {
    ...needs(P.userManage),
    targets: { roleId: 'role', departmentId: 'department' },
    fixed: { account: 'matrix.person@example.com', password: 'Start#2026x', nickname: 'Matrix person' },
  },
  'POST /yewu/user/update': {
    ...needs(P.userManage),
    targets: { userId: 'user', roleId: 'role', departmentId: 'department' },
  },
  'POST /yewu/user/updateUserid': {
    ...needs(P.userManage),
    targets: { userId: 'user', roleId: 'role', departmentId: 'department' },
  },
  'POST /yewu/user/delete': { ...needs(P.userManage), targets: { userId: 'user' }, destroys: true },
  'POST /yewu/user/resetpassword': { ...needs(P.userManage), targets: { userId: 'user' } },
  'POST /yewu/user/userStatus': { ...needs(P.userManage), targets: { userId: 'user' } },
  'GET /yewu/dept/list': SIGNED,
  'POST /yewu/dept/add': { ...needs(P.departmentManage), targets: { parentId: 'department' } },
  'POST /yewu/dept/update': { ...needs(P.departmentManage), targets: { id: 'department', parentId: 'department' } },
  'POST /yewu/dept/delete': { ...needs(P.departmentManage), targets: { id: 'department' }, destroys: true },
  // companies: the platform administrator's (a company's company:manage does not reach them)
  'GET /yewu/company/list': needs(P.companyManage),
  'POST /yewu/company/add': needs(P.companyManage),
  'POST /yewu/company/update': { ...needs(P.companyManage), fixed: { id: 999_999 } },
  'POST /yewu/company/del': { ...needs(P.companyManage), fixed: { id: 999_999 }, destroys: true },
  'POST /yewu/company/uploadLogo': needs(P.companyManage),
  'GET /yewu/company/getIdentifie/:id': signed({ targets: { id: 'company' } }),
  'GET /yewu/company/getUserCompanyList': SIGNED,
};

// ---- the callers and their targets ----

type CallerName = 'none' | 'personal' | 'companyAdmin' | 'operator' | 'viewer' | 'otherAdmin' | 'platform';
const CALLERS: readonly CallerName[] = [
  'none',
  'personal',
  'companyAdmin',
  'operator',
  'viewer',
  'otherAdmin',
  'platform',
];

interface Caller {
  name: CallerName;
  account?: string;
  password?: string;
  token?: string;
  permissions: string[];
  /** What the caller's target fields name in the matrix: its own set, its company's rows. */
  targets: Partial<Record<Kind, unknown>>;
}

interface CapturedRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  access: Access | undefined;
}

let t: TestApp;
const captured: CapturedRoute[] = [];
const callers = new Map<CallerName, Caller>();
/** Company A's rows, as the other company's administrator aims at them. */
let tenantA: Record<Kind, unknown>;
/** Texts of company A that no answer to the other company may hold. */
let secretsA: string[] = [];
/** A role company A made itself, granting company:manage, and a person holding it. */
let roleA: { id: number; user: { id: number; account: string; password: string } };

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const routes = () => captured.filter((r) => isDeclaredRoute(r.url));

function expectOf(access: Access): Expect {
  if ('public' in access) return 'public';
  if ('signedIn' in access) return 'signedIn';
  return [...(permissionsOf(access) ?? [])].sort();
}

const sameExpect = (a: Expect, b: Expect) =>
  JSON.stringify(typeof a === 'string' ? a : [...a].sort()) ===
  JSON.stringify(typeof b === 'string' ? b : [...b].sort());

// ---- requests ----

interface Answer {
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

interface Request {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
}

async function send(route: CapturedRoute, token: string | undefined, r: Request): Promise<Answer> {
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
function targetsOf(route: CapturedRoute, row: Row): Record<string, Kind> {
  const scope = route.access && 'scope' in route.access ? route.access.scope : undefined;
  const site = scope === 'site';
  return { token: site ? 'station' : 'set', tokens: site ? 'stations' : 'sets', ...row.targets };
}

/** A value naming no row of the kind. */
const missing = (kind: Kind) =>
  kind === 'sets' || kind === 'stations' ? [NO_SUCH_TOKEN] : kind.endsWith('s') ? [999_999] : 999_999;

/** The request with the given target fields naming no row. */
function withoutRows(route: CapturedRoute, row: Row, r: Request, fields: string[]): Request {
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

/** A request for the route whose target fields name the given rows (rows not given: nothing that exists). */
function requestFor(route: CapturedRoute, row: Row, targets: Partial<Record<Kind, unknown>>, seed: number): Request {
  const values: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(targetsOf(route, row))) {
    const value = targets[kind] ?? missing(kind);
    values[field] = field === 'token' && typeof value === 'number' ? NO_SUCH_TOKEN : value;
  }
  const hints: Hints = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fc.constant(v)]));
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const part = (s: unknown) => {
    const out = { ...(sample(s, hints, seed) as Record<string, unknown>) };
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
async function bounded<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
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

// ---- the world ----

async function sessionOf(account: string, password: string) {
  return login(t.app, account, password);
}

async function permissionsOfToken(token: string): Promise<string[]> {
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
    return {
      name,
      account: u.account,
      password: u.password,
      token,
      permissions: await permissionsOfToken(token),
      targets: {
        set: set.token,
        sets: [set.token],
        company: companyId,
        subscription: sub.id,
        subscriptions: [sub.id],
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
  callers.set('platform', {
    name: 'platform',
    account: 'admin@example.com',
    password: 'Admin#2026',
    token: platformToken,
    permissions: await permissionsOfToken(platformToken),
    targets: { set: platformSet.token, sets: [platformSet.token], company: companyA },
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
    camera: camera.id,
    subscription: subscription.id,
    subscriptions: [subscription.id],
    user: victim.id,
    role: role.id,
    department: department.id,
    protocol: published.id,
    company: companyA,
    logEntry: logEntry.id,
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

// ---- the tests ----

describe('platform routes', () => {
  it('a role a company made with company:manage reaches no other company, and none is made with protocol:manage', async () => {
    const token = await login(t.app, roleA.user.account, roleA.user.password);
    expect(await permissionsOfToken(token)).toContain(P.companyManage);
    for (const [method, url, body] of [
      ['GET', '/company/list', undefined],
      ['POST', '/company/update', { id: tenantA.company, name: 'Taken over' }],
    ] as const) {
      const res = await call(t.app, method, url, { token, ...(body ? { body } : {}) });
      expect(res.code, `${url}: ${res.msg}`).toBe(403);
      expect(res.data).toBeNull();
    }
    // The platform-wide protocols every company's sets run on: a company's administrator cannot hand out the
    // permission to edit them (nor anything else their own role lacks), and changes nothing trying.
    const admin = callers.get('companyAdmin')!;
    const before = await call(t.app, 'GET', '/role/list', { token: admin.token, query: { page: '1', size: '50' } });
    const refused = await call(t.app, 'POST', '/role/save', {
      token: admin.token,
      body: { name: 'Protocol editors', permissions: [P.gensetView, P.protocolManage], dataScope: 'self' },
    });
    expect(refused.code, refused.msg).toBe(400);
    expect(Object.keys(refused.data.fields)).toEqual(['permissions']);
    const after = await call(t.app, 'GET', '/role/list', { token: admin.token, query: { page: '1', size: '50' } });
    expect(after.data.total).toBe(before.data.total);
    const offered = await call(t.app, 'GET', '/role/getDataAuthRole', { token: admin.token });
    expect(JSON.stringify(offered.data)).not.toContain(P.protocolManage);
    const platformOffer = await call(t.app, 'GET', '/role/getDataAuthRole', { token: callers.get('platform')!.token });
    expect(JSON.stringify(platformOffer.data)).toContain(P.protocolManage);
  });
});

describe('cross-tenant', () => {
  it("another company's administrator reaches none of company A's targets and reads none of its data", async () => {
    const other = callers.get('otherAdmin')!;
    const problems: string[] = [];
    const aimed: string[] = [];
    const plan = routes().filter((r) => {
      const row = ROWS[key(r)];
      if (!row || !r.access || !('scope' in r.access)) return false;
      if (!['set', 'site', 'company'].includes(r.access.scope ?? '')) return false;
      const schema = (r.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
      const fields = [schema.body, schema.querystring, schema.params].flatMap((s) => (s ? keysOf(s) : []));
      return Object.keys(targetsOf(r, row)).some((f) => fields.includes(f));
    });
    // Made before anything is taken away, each on A's real rows.
    await bounded(
      plan.map((route, i) => async () => {
        const row = ROWS[key(route)]!;
        const request = requestFor(route, row, { ...other.targets, ...tenantA }, 2000 + i);
        const a = await send(route, other.token, request);
        aimed.push(key(route));
        const what = `${key(route)} ${JSON.stringify(request).slice(0, 300)} → ${a.code} ${a.text.slice(0, 200)}`;
        if (secretsA.some((s) => a.text.includes(s))) problems.push(`answer holds company A's data: ${what}`);
        if (row.filters) return;
        if (a.code === 400) {
          // A form refusing the field that names A's row is a denial too, when it reads exactly as for a row that
          // does not exist (nothing tells A's rows from none).
          const fields = Object.keys((a.data as { fields?: object } | null)?.fields ?? {});
          const none = await send(route, other.token, withoutRows(route, row, request, fields));
          if (!fields.some((f) => f in targetsOf(route, row)) || none.code !== 400 || none.msg !== a.msg)
            problems.push(`refused otherwise than for a row that does not exist: ${what} / ${none.code} ${none.msg}`);
          return;
        }
        if (a.code !== 403 && a.code !== 404) problems.push(`not refused: ${what}`);
        if (a.data !== null && a.data !== undefined) problems.push(`answer carries data: ${what}`);
      }),
    );
    if (problems.length) console.log(problems.join('\n'));
    expect(problems).toEqual([]);
    expect(aimed.length).toBeGreaterThan(40);
  }, 120_000);
});

describe('access matrix', () => {
  it('has a row for every route of the OpenAPI document, agreeing with its declaration, and no other', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => isDeclaredRoute(path))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(documented.length).toBeGreaterThan(100);
    const byKey = new Map(routes().map((r) => [key(r), r]));
    expect(
      documented.filter((k) => !byKey.get(k)?.access),
      'routes without a declaration',
    ).toEqual([]);
    expect(
      documented.filter((k) => !ROWS[k]),
      'routes to add to the matrix',
    ).toEqual([]);
    expect(
      Object.keys(ROWS).filter((k) => !documented.includes(k)),
      'rows of routes no longer there',
    ).toEqual([]);
    const disagree = documented
      .filter((k) => ROWS[k] && byKey.get(k)?.access && !sameExpect(ROWS[k].access, expectOf(byKey.get(k)!.access!)))
      .map(
        (k) =>
          `${k}: declared ${JSON.stringify(expectOf(byKey.get(k)!.access!))}, matrix ${JSON.stringify(ROWS[k]!.access)}`,
      );
    expect(disagree, 'declarations that differ from the matrix').toEqual([]);
  });

  it('a route without a declaration, or with a malformed one, stops the server from starting, naming it', async () => {
    // The plugin as the server registers it, beside stand-ins of the plugins it follows.
    const start = async (add: (app: FastifyInstance) => void) => {
      const app = Fastify();
      await app.register(fp(async () => {}, { name: 'api-conventions' }));
      await app.register(fp(async () => {}, { name: 'auth' }));
      await app.register(accessPlugin);
      add(app);
      try {
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await expect(start((app) => app.post('/yewu/matrix/undeclared', async () => ({})))).rejects.toThrow(
      'POST /yewu/matrix/undeclared does not declare who may call it',
    );
    const malformed = { permission: [], scope: 'company' } as unknown as Access;
    await expect(
      start((app) => app.get('/yewu/matrix/empty', { config: { access: malformed } }, async () => ({}))),
    ).rejects.toThrow('GET /yewu/matrix/empty declares its access wrongly');
    // Routes outside the API need none.
    await expect(start((app) => app.get('/elsewhere', async () => ({})))).resolves.toBeUndefined();
  });

  it('calls every route as every caller: 101 without a session, 403 without the permission, never refused otherwise', async () => {
    const problems: string[] = [];
    const seen = new Map<string, number>();
    const plan = routes()
      .filter((r) => ROWS[key(r)] && r.access)
      .sort((a, b) => Number(!!ROWS[key(a)]!.destroys) - Number(!!ROWS[key(b)]!.destroys));
    const task = (route: CapturedRoute, name: CallerName, seed: number) => async () => {
      const row = ROWS[key(route)]!;
      const access = route.access!;
      const caller = callers.get(name)!;
      let token = caller.token;
      if (row.ownSession && caller.account) token = await sessionOf(caller.account, caller.password!);
      const request = requestFor(route, row, caller.targets, seed);
      const a = await send(route, token, request);
      seen.set(key(route), (seen.get(key(route)) ?? 0) + 1);
      const required = permissionsOf(access);
      const platform = 'scope' in access && access.scope === 'platform';
      const isPlatform = caller.permissions.includes('*:*');
      const what = `${key(route)} as ${name} ${JSON.stringify(request).slice(0, 300)} → ${a.code} ${a.text.slice(0, 200)}`;
      if ('public' in access) {
        if (a.code === 101) problems.push(`public route asked for a session: ${what}`);
      } else if (name === 'none') {
        if (a.code !== 101) problems.push(`no session, not 101: ${what}`);
      } else if (!isPlatform && (platform || (required && !required.some((p) => caller.permissions.includes(p))))) {
        if (a.code !== 403 || !a.msg || a.msg.startsWith('errors.') || a.data !== null)
          problems.push(`lacks ${platform ? 'the platform' : required!.join('|')}, not a worded 403: ${what}`);
      } else if (DENIED.has(a.code)) {
        problems.push(`let through by its declaration, yet refused: ${what}`);
      }
      if (name === 'otherAdmin' && secretsA.some((s) => a.text.includes(s)))
        problems.push(`another company's answer holds company A's data: ${what}`);
    };
    const batch = (destroying: boolean) =>
      plan
        .filter((r) => !!ROWS[key(r)]!.destroys === destroying)
        .flatMap((r, i) => CALLERS.map((name) => task(r, name, 1000 + i)));
    await bounded(batch(false));
    await bounded(batch(true));
    if (problems.length) console.log(problems.join('\n'));
    expect(problems).toEqual([]);
    expect(seen.size).toBe(plan.length);
  }, 300_000);
});
