// Two server instances (their own programs) on one PostgreSQL database, an external Mosquitto broker (a shared
// subscription splits the modules' messages between them) and Redis: every sample is stored once, a browser on
// instance A sees the sets that instance B ingests, a command sent through A finds its reply whichever instance
// the broker handed it to, an alarm opens once, and when B is SIGKILLed A takes over its modules without losing
// a sample or counting one twice in the rollups.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger, type Gateway } from '@genset/gateway';
import { layoutS, modemTopic } from '@genset/protocol';
import { openDatabase } from '../src/db/database.ts';
import { createFleet } from '../src/modules/devices/fleet.ts';
import { seedProtocols } from '../src/modules/devices/protocols.ts';
import { ownerOf } from '../src/modules/devices/cluster.ts';
import { PG_URL } from './helpers.ts';
import { MOSQUITTO as MOSQUITTO_PROGRAM, programPath } from '../../../scripts/system-programs.ts';
import { freePort, postTo, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { connectWs, type WsClient } from './support/ws-client.ts';

const MOSQUITTO = programPath(MOSQUITTO_PROGRAM);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { account: 'cluster-admin@example.com', password: 'Cluster#2026' };
const PER_INSTANCE = 3;

interface Module {
  key: string;
  owner: 'A' | 'B';
  modemId: number;
  gensetId: number;
  token: string;
  sim: RunningGensetSimulator;
  gateway: Gateway;
  dataDir: string;
}

const suffix = randomBytes(4).toString('hex');
let dbUrl = '';
let brokerUrl = '';
let mosquitto: ChildProcess | undefined;
let confDir = '';
const instances: Record<'A' | 'B', ServerProcess | undefined> = { A: undefined, B: undefined };
const modules: Module[] = [];
let ws: WsClient | undefined;
let utoken = '';

async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

async function query<T>(sqlText: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query(sqlText, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function startMosquitto(): Promise<string> {
  if (!MOSQUITTO) return 'mqtt://127.0.0.1:1883'; // the machine's own broker
  const port = await freePort();
  confDir = mkdtempSync(join(tmpdir(), 'cluster-mosquitto-'));
  const conf = join(confDir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  mosquitto = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const up = await new Promise<boolean>((resolve) => {
      import('node:net').then(({ connect }) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    });
    if (up) return `mqtt://127.0.0.1:${port}`;
  }
  throw new Error('mosquitto did not start');
}

function instanceEnv(id: 'A' | 'B'): Record<string, string> {
  const dataDir = mkdtempSync(join(tmpdir(), `cluster-${id}-`));
  return {
    DATABASE_URL: dbUrl,
    MQTT_URL: brokerUrl,
    MQTT_SHARE_GROUP: `g${suffix}`,
    REDIS_URL,
    REDIS_NAMESPACE: `t${suffix}`,
    INSTANCE_ID: id,
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    DEMO: '0',
    ONLINE_RATE_MS: '1000',
    OFFLINE_RATE_MS: '1000',
    COMMAND_TIMEOUT_MS: '8000',
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
  };
}

const api = (instance: ServerProcess, path: string, body: object) => postTo(instance, path, body, utoken);

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

describe.runIf(PG_URL)('two instances on PostgreSQL, Mosquitto and Redis', () => {
  beforeAll(async () => {
    const dbName = `cluster_${suffix}`;
    await admin(`create database ${dbName}`);
    const url = new URL(PG_URL!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    brokerUrl = await startMosquitto();

    // Modules chosen so that each instance owns three of them while both are up.
    const database = await openDatabase(dbUrl);
    await seedProtocols(database.db);
    const fleet = createFleet(database.db);
    const registered: Omit<Module, 'sim' | 'gateway' | 'dataDir'>[] = [];
    for (let i = 0; registered.length < 2 * PER_INSTANCE; i++) {
      const key = `CL${suffix}${i}`;
      const owner = ownerOf(['A', 'B'], key) as 'A' | 'B';
      if (registered.filter((m) => m.owner === owner).length >= PER_INSTANCE) continue;
      const modem = await fleet.createModem({ companyId: 1, modemKey: key });
      const set = await fleet.createGenset({
        companyId: 1,
        ownerUserId: null,
        name: `Cluster ${registered.length + 1}`,
        modemId: modem.id,
        protocolKey: layoutS.key,
      });
      registered.push({ key, owner, modemId: modem.id, gensetId: set.id, token: set.token });
      (registered.at(-1) as any).secret = modem.secret;
    }
    await database.close();

    instances.A = await startServerProcess(instanceEnv('A'));
    instances.B = await startServerProcess(instanceEnv('B'));
    utoken = (await api(instances.A, '/user/login', { username: ADMIN.account, password: ADMIN.password })).data.utoken;

    for (const [i, r] of registered.entries()) {
      const sim = await startGensetSimulator({
        layout: 'S',
        port: 0,
        host: '127.0.0.1',
        unitId: 1,
        seed: 70 + i,
        mode: 'manual',
        realtime: true,
      } as Parameters<typeof startGensetSimulator>[0]);
      const dataDir = mkdtempSync(join(tmpdir(), `cluster-module-${i}-`));
      const gateway = await startGateway(
        {
          modemId: r.key,
          secret: (r as any).secret as string,
          brokerUrl,
          dataDir,
          ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
          mqttReconnect: { minMs: 500, maxMs: 3000 },
          ackTimeoutMs: 3000,
        },
        { logger: silentLogger },
      );
      modules.push({ ...r, sim, gateway, dataDir });
    }
  }, 120_000);

  afterAll(async () => {
    ws?.close();
    for (const m of modules) {
      await m.gateway.close().catch(() => undefined);
      await m.sim.close().catch(() => undefined);
      rmSync(m.dataDir, { recursive: true, force: true });
    }
    for (const s of Object.values(instances)) await s?.kill('SIGTERM');
    mosquitto?.kill('SIGTERM');
    if (confDir) rmSync(confDir, { recursive: true, force: true });
    if (dbUrl) await admin(`drop database if exists cluster_${suffix} with (force)`).catch(() => undefined);
  }, 60_000);

  it('splits the modules, shares pushes, replies and alarms, and survives the loss of one instance', async () => {
    const A = instances.A!;
    const B = instances.B!;
    const ofB = modules.filter((m) => m.owner === 'B');
    await waitFor(() => modules.every((m) => m.gateway.stats.ackedUpTo >= 3), 30_000, 'every module acked');

    // Each instance ingested its own modules (while the two learn of each other, in the first second or two,
    // one may briefly take modules of the other and hand them over).
    const taken = (s: ServerProcess) =>
      new Set([...s.output.join('').matchAll(/set (\d+) taken up by this instance/g)].map((x) => Number(x[1])));
    const ids = (owner: 'A' | 'B') => modules.filter((m) => m.owner === owner).map((m) => m.gensetId);
    expect([...taken(B)]).toEqual(expect.arrayContaining(ids('B')));
    expect([...taken(A)]).toEqual(expect.arrayContaining(ids('A')));

    // A browser on A follows every set, B's included.
    ws = await connectWs(A.url, utoken);
    ws.heartbeat(
      '',
      modules.map((m) => m.token),
    );
    const since = ws.messages.length;
    for (const m of ofB) {
      await ws.waitFor((msg) => msg.method === 'monitor' && msg.token === m.token, 10_000, since);
    }

    // A command through A to a set B ingests: the reply comes back whichever instance the broker gave it to.
    const target = ofB[0]!;
    const started = await api(A, '/devicedata/sendaction', {
      token: target.token,
      action: 'start',
      password: ADMIN.password,
    });
    expect(started).toMatchObject({ code: 200, data: { state: 'ok' } });

    // A fault at a set of B: one alarm, pushed to the browser on A.
    const faulty = ofB[1]!;
    faulty.sim.injectFault('emergency_stop');
    await ws.waitFor((msg) => msg.method === 'alarm' && msg.token === faulty.token && msg.alarmnum >= 1, 15_000);
    const openAlarms = () =>
      query<{ n: string }>(`select count(*) as n from alarm where genset_id = $1 and code = 'emergency_stop'`, [
        faulty.gensetId,
      ]).then((r) => Number(r[0]!.n));
    expect(await openAlarms()).toBe(1);

    // A threshold rule saved through A watches B's sets too (B reads the rules again within seconds): one alarm on
    // each set, whichever instance ingests it
    const rule = await api(A, '/alarm/rule/save', {
      name: 'Cluster battery',
      item: 'battery_voltage',
      op: 'above',
      threshold: 1,
      level: 'warning',
    });
    expect(rule.code, rule.msg).toBe(200);
    const ruleAlarms = async () =>
      (
        await query<{ genset_id: number; n: string; open: string }>(
          `select genset_id, count(*) as n, count(*) filter (where end_ts is null) as open from alarm
           where code = $1 group by genset_id order by genset_id`,
          [`rule:${String(rule.data.id)}`],
        )
      ).map((r) => [Number(r.genset_id), Number(r.n), Number(r.open)]);
    const onePerSet = modules.map((m) => [m.gensetId, 1, 1]).sort((a, b) => a[0]! - b[0]!);
    await waitFor(async () => (await ruleAlarms()).length === modules.length, 15_000, 'each set to raise the rule');
    expect(await ruleAlarms()).toEqual(onePerSet);

    // A set renamed through A is listed under its new name by B at once: B's directory is fresh (read just
    // now, so its own reload is seconds away) and learns of the change from the bus.
    const names = async () =>
      (await api(B, '/genset/list', { search: 'Cluster', size: 50 })).data.list.map((r: { name: string }) => r.name);
    expect(await names()).toHaveLength(modules.length);
    await sleep(500);
    await names();
    const renamed = `Cluster renamed ${suffix}`;
    expect((await api(A, '/genset/update', { token: modules[0]!.token, name: renamed })).code).toBe(200);
    await waitFor(async () => (await names()).includes(renamed), 2000, 'B to list the set under its new name');

    // A set watched through both instances stays at the online rate until the last page on either closes.
    const watched = modules[0]!;
    const planClient = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
    let plan: { controllers: { online: boolean }[] } | null = null;
    planClient.on('message', (_topic, payload) => {
      plan = JSON.parse(payload.toString('utf8')) as typeof plan;
    });
    await planClient.subscribeAsync(modemTopic(watched.key, 'plan'));
    const online = () => plan?.controllers[0]?.online === true;
    const pageOnA = await connectWs(A.url, utoken);
    const pageOnB = await connectWs(B.url, utoken);
    pageOnA.heartbeat(watched.token);
    pageOnB.heartbeat(watched.token);
    await waitFor(online, 10_000, 'the module at its online rate');
    await sleep(500); // each instance has heard what the other watches
    pageOnA.close();
    await sleep(2000);
    expect(online(), 'the module stays at its online rate while a page on B watches').toBe(true);
    pageOnB.close();
    await waitFor(() => !online(), 10_000, 'the module back at its offline rate');
    await planClient.endAsync(true);

    // B dies. A notices within the membership timeout and takes B's modules over.
    await B.kill('SIGKILL');
    await waitFor(() => ofB.every((m) => taken(A).has(m.gensetId)), 30_000, 'A to take up the sets of B');
    const afterKill = ws.messages.length;
    for (const m of ofB) {
      await ws.waitFor((msg) => msg.method === 'monitor' && msg.token === m.token, 15_000, afterKill);
    }
    // still one alarm for the fault that is still there, and one of the rule on each set
    await sleep(3000);
    expect(await openAlarms()).toBe(1);
    expect(await ruleAlarms()).toEqual(onePerSet);

    // The modules stop; everything they read is acked by A.
    const last = new Map<string, number>();
    await waitFor(
      () => modules.every((m) => m.gateway.stats.ackedUpTo >= m.gateway.stats.lastSeq),
      60_000,
      'every module to be acked up to its last seq',
    );
    for (const m of modules) {
      await m.gateway.close();
      last.set(m.key, m.gateway.stats.lastSeq);
    }
    await A.kill('SIGTERM'); // writes its rollups on the way out

    for (const m of modules) {
      const rows = await query<{ seq: string }>('select seq from sample where modem_id = $1 order by seq', [m.modemId]);
      const seqs = rows.map((r) => Number(r.seq));
      const expected = Array.from({ length: last.get(m.key)! }, (_, i) => i + 1);
      expect(seqs, `${m.key} (${m.owner})`).toEqual(expected);
      // every stored snapshot counted once in the hour rollups, whichever instance merged it
      const [counts] = await query<{ stored: string; rolled: string }>(
        `select (select count(*) from sample where genset_id = $1 and "values" <> '{}') as stored,
                (select coalesce(sum(samples), 0) from rollup_hour where genset_id = $1) as rolled`,
        [m.gensetId],
      );
      expect(Number(counts!.rolled), `${m.key} rollups`).toBe(Number(counts!.stored));
    }
  }, 240_000);
});
