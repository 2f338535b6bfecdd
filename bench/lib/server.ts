// The server under test: a fresh SQLite file seeded with the benchmark's modules and sets through the
// server's own code, then the real server program (apps/server/src/main.ts) as a child process.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { createFleet } from '../../apps/server/src/modules/devices/fleet.ts';
import { freePort, spawnNode, waitForPort, type Child } from './proc.ts';

export const SERVER_DIR = fileURLToPath(new URL('../../apps/server', import.meta.url));
export const ADMIN = { account: 'bench-admin@example.com', password: 'Bench#2026' };
/** The platform company exists in every installation (id 1); the benchmark's sets belong to it. */
const COMPANY_ID = 1;

export interface SeededModule {
  key: string;
  secret: string;
  gensetId: number;
  token: string;
}

/** Creates the modules (modems) and one layout-S set behind each, in one transaction. */
export async function seedModules(dbFile: string, groups: { prefix: string; count: number }[], secret: string) {
  const database = await openDatabase(dbFile);
  const out: Record<string, SeededModule[]> = {};
  try {
    await database.db.transaction().execute(async (trx) => {
      const fleet = createFleet(trx);
      for (const { prefix, count } of groups) {
        const list: SeededModule[] = [];
        const width = String(count).length;
        for (let i = 1; i <= count; i++) {
          const key = `${prefix}${String(i).padStart(width, '0')}`;
          const modem = await fleet.createModem({ companyId: COMPANY_ID, modemKey: key, secret });
          const set = await fleet.createGenset({
            companyId: COMPANY_ID,
            ownerUserId: null,
            name: `Bench ${key}`,
            modemId: modem.id,
            protocolKey: layoutS.key,
          });
          list.push({ key, secret, gensetId: set.id, token: set.token });
        }
        out[prefix] = list;
      }
    });
  } finally {
    await database.close();
  }
  return out;
}

export interface ServerChild extends Child {
  url: string;
  httpPort: number;
  mqttPort: number;
  /** Lines the server wrote (it runs at LOG_LEVEL=warn: warnings and errors only). */
  logLines(): string[];
}

/** What every server under load is started with: no console, the benchmark's administrator, limits far away. */
function loadEnv(dataDir: string) {
  return {
    WEB_DIST: join(dataDir, 'no-web'),
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    // The load comes from one address; the limits stay on (their cost is part of the figures) but far away.
    RATE_LIMIT_API: '100000000/1m',
    RATE_LIMIT_SIGN_IN: '100000/1m',
  };
}

function serverChild(child: Child, httpPort: number, mqttPort: number): ServerChild {
  return {
    ...child,
    url: `http://127.0.0.1:${httpPort}`,
    httpPort,
    mqttPort,
    logLines: () =>
      child.output
        .join('')
        .split('\n')
        .filter((l) => l.trim() && !l.includes('console not built')),
  };
}

/** A company row of its own (its roles not yet made), straight in the database; its id. */
export async function insertCompany(db: Db, name: string): Promise<number> {
  const company = await db
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
  return company.id;
}

export async function startServerChild(
  dataDir: string,
  nodeArgs: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<ServerChild> {
  const httpPort = await freePort();
  const mqttPort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    DEMO: '0',
    PORT: String(httpPort),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...loadEnv(dataDir),
    ...extraEnv,
  };
  const child = spawnNode('src/main.ts', { cwd: SERVER_DIR, env, nodeArgs });
  await waitForPort(child, httpPort, 60_000);
  return serverChild(child, httpPort, mqttPort);
}

/** Signs in through the HTTP API, as the console does; returns the user token. */
export async function signIn(url: string, account: string, password: string): Promise<string> {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${url}/yewu/user/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-time': time,
      'x-sign': computeSign(undefined, time, DEFAULT_SIGN_SECRET),
    },
    body: JSON.stringify({ username: account, password }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { utoken?: string } };
  if (body.code !== 200 || !body.data.utoken) throw new Error(`sign-in failed: ${body.code} ${body.msg}`);
  return body.data.utoken;
}

export interface ClusterParams {
  dbUrl: string;
  mqttUrl: string;
  redisUrl: string;
  namespace: string;
  instanceId: string;
}

/** One instance of the several-instance setup: PostgreSQL, an external broker, Redis. */
export async function startClusterInstance(
  dataDir: string,
  c: ClusterParams,
  mqttPort: number,
  extraEnv: Record<string, string> = {},
): Promise<ServerChild> {
  const httpPort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: c.dbUrl,
    MQTT_URL: c.mqttUrl,
    MQTT_SHARE_GROUP: c.namespace,
    REDIS_URL: c.redisUrl,
    REDIS_NAMESPACE: c.namespace,
    INSTANCE_ID: c.instanceId,
    DEMO: '0',
    PORT: String(httpPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...loadEnv(dataDir),
    ...extraEnv,
  };
  // BENCH_SERVER_NODE_ARGS: Node options for each instance (`--cpu-prof --cpu-prof-dir=/tmp/prof` profiles them)
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnNode('src/main.ts', { cwd: SERVER_DIR, env, nodeArgs });
  await waitForPort(child, httpPort, 120_000);
  return serverChild(child, httpPort, mqttPort);
}

export interface Store {
  samples(): Promise<number>;
  lastSeqs(prefix: string): Promise<Map<string, number>>;
  close(): Promise<void>;
}

const LAST_SEQS =
  'select m.modem_key as k, (select max(seq) from sample s where s.modem_id = m.id) as s from modem m where m.modem_key like $1';

/** The same counts from PostgreSQL. */
export async function openPgStore(url: string): Promise<Store> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    samples: async () => Number((await client.query('select count(*) as n from sample')).rows[0].n),
    async lastSeqs(prefix) {
      const rows = (await client.query(LAST_SEQS, [`${prefix}%`])).rows as { k: string; s: string | null }[];
      return new Map(rows.map((r) => [r.k, Number(r.s ?? 0)]));
    },
    close: () => client.end(),
  };
}

/** Read-only view of the server's SQLite file, to count what was stored. */
export function openStore(dbFile: string): Store {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  const count = db.prepare('select count(*) as n from sample');
  // The highest seq stored per module, from the samples themselves (`modem.last_seq` is written every few
  // seconds with the other counters, so it may trail what is already committed).
  const lastSeqs = db.prepare(
    'select m.modem_key as k, (select max(seq) from sample s where s.modem_id = m.id) as s from modem m where m.modem_key like ?',
  );
  return {
    samples: async () => Number((count.get() as { n: number }).n),
    async lastSeqs(prefix: string) {
      const rows = lastSeqs.all(`${prefix}%`) as { k: string; s: number }[];
      return new Map(rows.map((r) => [r.k, Number(r.s)]));
    },
    close: async () => db.close(),
  };
}
