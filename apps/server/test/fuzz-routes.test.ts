// Property-based fuzzing of every route of the OpenAPI document. Requests are generated from each route's own
// zod schemas (valid values, values broken in one place, hostile values and raw bodies), signed in as a
// platform administrator, as a company administrator, without a session, with a forged token and with a bad
// signature. Whatever comes: never HTTP 500 nor envelope code 500, the server keeps answering, a refused call
// to a route that writes leaves the database as it was, and SQLite and PostgreSQL answer the same code (when a
// PostgreSQL server is there, every request goes to a second server on the other database). Each route has a
// known-good request in the table (support/fuzz-routes/), so the valid path is exercised too; a route of the
// OpenAPI document missing from the table fails the test. FUZZ_SEED and FUZZ_RUNS (a factor) replay or widen a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, PG_URL, type TestApp } from './helpers.ts';
import { moduleFor, newSet, RUNNING, insertAlarm } from './support/history-data.ts';
import { arbitraryOf, keysOf } from './support/zod-arbitrary.ts';
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
} from './support/fuzz.ts';
import { ACCOUNT_ROUTES } from './support/fuzz-routes/accounts.ts';
import { draft, plainStation, siteTemplate } from './support/fuzz-routes/fixtures.ts';
import { OPERATION_ROUTES } from './support/fuzz-routes/operations.ts';
import { SET_ROUTES } from './support/fuzz-routes/sets.ts';
import {
  HINTS,
  PASSWORDS,
  resolve,
  signed,
  type Call,
  type Identity,
  type RouteCase,
  type World,
} from './support/fuzz-routes/world.ts';

const ENV = {
  // Commands wait for a module at most this long (the module here answers at once; an offline one is refused).
  COMMAND_TIMEOUT_MS: '500',
  // Lockouts after wrong passwords are tested elsewhere; here they would lock the accounts the fuzzing uses.
  AUTH_MAX_FAILURES: '1000000',
  AUTH_IP_MAX_FAILURES: '1000000',
  AUTH_ACCOUNT_MAX_FAILURES: '1000000',
  MQTT_AUTH_TOKEN: 'fuzz-broker-token-0123456789',
  METRICS_TOKEN: 'fuzz-metrics-token-0123456789',
};
const BROKER_TOKEN = ENV.MQTT_AUTH_TOKEN;
const RUNS_PER_ROUTE = runs(20);
/** Codes of a refusal: the call was not carried out, so nothing may have changed. */
const REFUSALS = new Set([400, 101, 403, 404, 409, 429, 50008, 50012, 50014]);
// ---- the table of routes: each route's known-good request, and what it may answer ----

const ROUTES: Record<string, RouteCase> = { ...ACCOUNT_ROUTES, ...SET_ROUTES, ...OPERATION_ROUTES };

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
