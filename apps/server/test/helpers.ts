// Builds a real server for a test file: a temporary SQLite file, or a fresh PostgreSQL schema when
// TEST_DATABASE_URL is set; calls are signed exactly as the console signs them. A SQLite file starts as a copy of
// one every migration was applied to once per worker (the server then finds nothing to migrate and seeds it as
// usual): migrating each test's file anew was a fifth of a test server's start.
import { copyFileSync, mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { createUser, ensureCompanyRoles } from '../src/seed/base.ts';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /** Closes the server and starts it again on the same data (`app` is the new one). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const PG_URL = process.env.TEST_DATABASE_URL;

export interface TestAppOptions {
  /** A PostgreSQL server to use whatever TEST_DATABASE_URL says, or null for SQLite (default: TEST_DATABASE_URL). */
  databaseUrl?: string | null;
  onRoute?: BuildOptions['onRoute'];
  logger?: BuildOptions['logger'];
  /** Runs before the app is ready: routes of the test's own. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Resolves host names of webhooks and cameras instead of DNS. */
  resolveHost?: BuildOptions['resolveHost'];
}

/** A SQLite file with every migration applied (none of the seed), made once per worker and removed at its exit. */
let migratedFile: Promise<string> | undefined;
function migratedSqlite(): Promise<string> {
  migratedFile ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'genset-migrated-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'console.db');
    const opened = await openDatabase(file);
    await opened.close();
    return file;
  })();
  return migratedFile;
}

export async function createTestApp(env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-test-'));
  const pgUrl = opts.databaseUrl === undefined ? PG_URL : (opts.databaseUrl ?? undefined);
  let schema: string | undefined;
  if (pgUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AUTH_IP_MAX_FAILURES: '1000',
    // Tests call from one address far faster than a person; the rate limits have a test of their own.
    RATE_LIMIT_API: '100000/1m',
    RATE_LIMIT_SIGN_IN: '100000/1m',
    RATE_LIMIT_CODES: '100000/1m',
    RATE_LIMIT_REGISTER: '100000/1m',
    RATE_LIMIT_PASSWORD_RESET: '100000/1m',
    MQTT_PORT: '0',
    DEMO_FLEET: '0',
    // a demo fleet in a test starts with no past unless the test asks for one
    DEMO_BACKFILL_DAYS: '0',
    DEMO_STATION_BACKFILL_DAYS: '0',
    MQTT_HOST: '127.0.0.1',
    WEB_DIST: join(dataDir, 'no-web'),
    // the tests' cameras are local stand-ins (127.0.0.1, a site's 10.x); the address policy has tests of its own
    CAMERA_ALLOW_PRIVATE: '1',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...env,
  });
  // a new SQLite file of the server's own (not one a test named, nor one already there) starts migrated
  const file = config.databaseUrl;
  if (!pgUrl && !env.DATABASE_URL && existsSync(dirname(file)) && !existsSync(file))
    copyFileSync(await migratedSqlite(), file);
  const build = async () => {
    const built = await buildApp({
      config,
      ...(schema ? { dbSchema: schema } : {}),
      ...(opts.onRoute ? { onRoute: opts.onRoute } : {}),
      ...(opts.logger ? { logger: opts.logger } : {}),
      ...(opts.resolveHost ? { resolveHost: opts.resolveHost } : {}),
    });
    await opts.extend?.(built);
    await built.ready();
    return built;
  };
  let app = await build();
  return {
    get app() {
      return app;
    },
    config,
    dataDir,
    async restart() {
      await app.close();
      app = await build();
    },
    async close() {
      await app.close();
      if (schema) {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  token?: string;
  lang?: string;
  body?: unknown;
  query?: Record<string, string>;
  /** Seconds to shift X-Time by (to make a stale request). */
  skew?: number;
  sign?: string | null;
  headers?: Record<string, string>;
}

export interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
}

export async function call<T = any>(app: FastifyInstance, method: 'GET' | 'POST', url: string, o: CallOptions = {}) {
  const time = String(Math.floor(Date.now() / 1000) + (o.skew ?? 0));
  const headers: Record<string, string> = {
    'x-time': time,
    'accept-language': o.lang ?? 'en-US',
    'x-timezone': 'Europe/Berlin',
    ...(o.token ? { 'x-token': o.token } : {}),
    ...o.headers,
  };
  const sign = o.sign === undefined ? computeSign(o.token, time, DEFAULT_SIGN_SECRET) : o.sign;
  if (sign !== null) headers['x-sign'] = sign;
  const res = await app.inject({
    method,
    url: `/yewu${url}`,
    headers,
    ...(o.query ? { query: o.query } : {}),
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
  return res.json() as Envelope<T>;
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await call(app, 'POST', '/user/login', { body: { username, password } });
  if (res.code !== 200) throw new Error(`login failed: ${res.code} ${res.msg}`);
  return res.data.utoken as string;
}

/** Signs the demo company's manager in: the session token, and the manager's id and company. */
export async function signInManager(t: TestApp) {
  const token = await login(t.app, 'manager@example.com', 'Demo#2026');
  const row = await t.app.database.db
    .selectFrom('users')
    .select(['id', 'company_id'])
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  return { token, id: row.id, companyId: row.company_id };
}

let counter = 0;
/** A fresh user of its own in a company, so tests do not step on each other. */
export async function freshUser(t: TestApp, opts: { companyId?: number; role?: string; password?: string } = {}) {
  const companyId = opts.companyId ?? 2;
  const roles = await ensureCompanyRoles(t.app.database.db, companyId);
  const account = `user${Date.now()}${counter++}@example.com`;
  const password = opts.password ?? 'Start#2026';
  const id = await createUser(t.app.database.db, {
    companyId,
    roleId: roles[opts.role ?? 'operator'] ?? null,
    account,
    password,
    nickname: `Tester ${counter}`,
  });
  return { id, account, password };
}

export async function createCompany(t: TestApp, name: string): Promise<number> {
  return insertCompany(t.app.database.db, name);
}

/** A company row of its own (no roles yet), straight in the database. */
export async function insertCompany(db: Db, name: string): Promise<number> {
  const r = await db
    .insertInto('company')
    .values({
      name,
      title: name,
      logo: null,
      baidu_key: '',
      index_template: 'default',
      created_at: Date.now(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function outbox(
  t: TestApp,
): { channel: string; to: string; purpose: string; code?: string; subject?: string; text: string }[] {
  const file = join(t.config.outboxDir, 'messages.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export function lastCode(t: TestApp, to: string): string {
  const m = outbox(t)
    .filter((x) => x.to === to && x.code)
    .at(-1);
  if (!m?.code) throw new Error(`no code sent to ${to}`);
  return m.code;
}
