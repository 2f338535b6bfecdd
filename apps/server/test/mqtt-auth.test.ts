// `npm run mqtt-auth`: the password and ACL files it writes from the database, loaded by a real Mosquitto on a
// free port: a module connects with its secret and publishes its own data, which the server's account gets
// through its shared subscription; it can neither publish under another module nor read another module's
// requests; wrong secrets, unknown names and modules without a broker credential are refused; --rekey gives
// those a new secret that works after a reload. EMQX's HTTP authentication (POST /mqtt/auth) answers from the
// same database with the same topic limits.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { sql } from 'kysely';
import { REPO_ROOT } from '../src/config.ts';
import { verifyModemSecret } from '../src/modules/devices/embedded-broker.ts';
import { verifyBrokerHash } from '../src/modules/devices/broker-credentials.ts';
import { writeMosquittoAuth } from '../src/tools/mqtt-auth.ts';
import { PG_URL, createTestApp, type TestApp } from './helpers.ts';
import { MOSQUITTO as MOSQUITTO_PROGRAM, programForTests } from '../../../scripts/system-programs.ts';

const MOSQUITTO = programForTests(MOSQUITTO_PROGRAM, 'Mosquitto authentication generated from the database');
const SERVER_USER = 'console';
const SERVER_PASSWORD = 'Server#2026-broker';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Mosquitto with the configuration of deploy/mosquitto, its paths moved to `dir` and a free local port. */
async function startMosquitto(dir: string, port: number): Promise<ChildProcess> {
  const shipped = readFileSync(join(REPO_ROOT, 'deploy/mosquitto/mosquitto.conf'), 'utf8');
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    shipped
      .replaceAll('/mosquitto/config/auth/', `${dir}/`)
      .replaceAll('/mosquitto/data/', `${dir}/`)
      .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
      .replace(/^persistence true$/m, 'persistence false') +
      // Run as whoever runs the test (as root Mosquitto would otherwise switch to its own user).
      `\nuser ${userInfo().username}\nlog_type information\n`,
  );
  const child = spawn(MOSQUITTO!, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(' running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`mosquitto exited (${code}): ${log}`)));
  });
  return child;
}

function connect(port: number, username: string, password: string, extra: IClientOptions = {}) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    protocolVersion: 5,
    clientId: `${username}-${Math.random().toString(36).slice(2, 8)}`,
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
  return new Promise<MqttClient>((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (err) => {
      client.end(true);
      reject(err);
    });
  });
}

/** Messages a client receives, and a wait for the first one matching. */
function inbox(client: MqttClient) {
  const got: { topic: string; text: string }[] = [];
  const waiters: { match: (m: { topic: string; text: string }) => boolean; resolve: () => void }[] = [];
  client.on('message', (topic, payload) => {
    const m = { topic, text: payload.toString() };
    got.push(m);
    for (const w of [...waiters]) if (w.match(m)) w.resolve();
  });
  return {
    got,
    waitFor: (match: (m: { topic: string; text: string }) => boolean) =>
      got.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve })),
  };
}

describe.skipIf(!MOSQUITTO)('Mosquitto authentication generated from the database', () => {
  let t: TestApp;
  let dir: string;
  let port: number;
  let broker: ChildProcess | undefined;
  const clients: MqttClient[] = [];
  const modems: Record<string, { key: string; secret: string }> = {};
  const stamp = Date.now();

  const track = async (p: Promise<MqttClient>) => {
    const c = await p;
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'genset-mosquitto-'));
    for (const name of ['A', 'B']) {
      const key = `MQ${name}-${stamp}`;
      const created = await t.app.devices.fleet.createModem({ companyId: 2, modemKey: key });
      modems[name] = { key, secret: created.secret };
    }
    // A module registered before broker credentials existed: only the embedded broker's hash.
    const legacy = `MQL-${stamp}`;
    const created = await t.app.devices.fleet.createModem({ companyId: 2, modemKey: legacy, secret: 'Legacy#secret' });
    await t.app.database.db.updateTable('modem').set({ broker_hash: null }).where('id', '=', created.id).execute();
    modems.L = { key: legacy, secret: 'Legacy#secret' };
    port = await freePort();
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    broker?.kill('SIGTERM');
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a password file Mosquitto reads and an ACL limiting each module to its own topics', async () => {
    const result = await writeMosquittoAuth({
      db: t.app.database.db,
      out: dir,
      serverUser: SERVER_USER,
      serverPassword: SERVER_PASSWORD,
    });
    expect(result.missing).toEqual([modems.L!.key]);
    expect(result.changed).toBe(true);
    const passwords = readFileSync(result.passwordFile, 'utf8');
    expect(passwords).toMatch(new RegExp(`^${modems.A!.key}:\\$7\\$101\\$`, 'm'));
    expect(passwords).not.toContain(modems.L!.key);
    expect(statSync(result.passwordFile).mode & 0o777).toBe(0o640);
    const acl = readFileSync(result.aclFile, 'utf8');
    expect(acl).toContain(`user ${modems.A!.key}\ntopic write modem/${modems.A!.key}/state`);
    expect(acl).toContain(`topic read modem/${modems.A!.key}/request`);
    expect(acl).toContain('user console\ntopic read modem/+/state');

    // The same database gives the same files: nothing to reload.
    const again = await writeMosquittoAuth({
      db: t.app.database.db,
      out: dir,
      serverUser: SERVER_USER,
      serverPassword: SERVER_PASSWORD,
    });
    expect(again.changed).toBe(false);

    broker = await startMosquitto(dir, port);
  });

  it('lets a module publish its own data to the server, and neither publish nor read as another module', async () => {
    const server = await track(connect(port, SERVER_USER, SERVER_PASSWORD));
    const serverInbox = inbox(server);
    const granted = await server.subscribeAsync(`$share/console/modem/+/data`, { qos: 1 });
    expect(granted[0]!.qos).toBe(1);

    const a = await track(connect(port, modems.A!.key, modems.A!.secret));
    const aInbox = inbox(a);
    const b = await track(connect(port, modems.B!.key, modems.B!.secret));
    const bInbox = inbox(b);
    await a.subscribeAsync([`modem/${modems.A!.key}/request`, `modem/${modems.B!.key}/request`], { qos: 1 });
    await b.subscribeAsync(`modem/${modems.B!.key}/request`, { qos: 1 });

    // Publishing under another module, or on a channel only the server sends, is refused (MQTT 5: "not
    // authorized") and forwarded to nobody: the server gets only the module's own data after it.
    await expect(a.publishAsync(`modem/${modems.B!.key}/data`, 'forged', { qos: 1 })).rejects.toThrow(
      /not authorized/i,
    );
    await expect(a.publishAsync(`modem/${modems.A!.key}/plan`, 'own plan', { qos: 1 })).rejects.toThrow(
      /not authorized/i,
    );
    await a.publishAsync(`modem/${modems.A!.key}/data`, 'mine', { qos: 1 });
    await serverInbox.waitFor((m) => m.text === 'mine');
    expect(serverInbox.got).toEqual([{ topic: `modem/${modems.A!.key}/data`, text: 'mine' }]);

    // The server writes the modules' down-channels; B's request reaches B only, although A subscribed to it
    // (A gets its own request, sent after B's, and nothing before it).
    await server.publishAsync(`modem/${modems.B!.key}/request`, 'for B', { qos: 1 });
    await server.publishAsync(`modem/${modems.A!.key}/request`, 'for A', { qos: 1 });
    await bInbox.waitFor((m) => m.text === 'for B');
    await aInbox.waitFor((m) => m.text === 'for A');
    expect(aInbox.got).toEqual([{ topic: `modem/${modems.A!.key}/request`, text: 'for A' }]);
  });

  it('refuses wrong secrets, unknown names and modules without a broker credential', async () => {
    await expect(connect(port, modems.A!.key, 'wrong-secret')).rejects.toThrow(/not authorized|bad user/i);
    await expect(connect(port, modems.A!.key, modems.B!.secret)).rejects.toThrow(/not authorized|bad user/i);
    await expect(connect(port, 'nobody', 'whatever')).rejects.toThrow(/not authorized|bad user/i);
    await expect(connect(port, modems.L!.key, modems.L!.secret)).rejects.toThrow(/not authorized|bad user/i);
    await expect(connect(port, modems.A!.key, modems.A!.secret, { protocolVersion: 4 })).resolves.toBeDefined();
  });

  it('gives modules without a broker credential a new secret that both brokers accept after a reload', async () => {
    const csv = join(dir, 'new-secrets.csv');
    const result = await writeMosquittoAuth({
      db: t.app.database.db,
      out: dir,
      serverUser: SERVER_USER,
      serverPassword: SERVER_PASSWORD,
      rekey: csv,
    });
    expect(result.rekeyed).toEqual([modems.L!.key]);
    expect(result.missing).toEqual([]);
    expect(result.changed).toBe(true);
    expect(statSync(csv).mode & 0o777).toBe(0o600);
    const [header, line] = readFileSync(csv, 'utf8').trim().split('\n');
    expect(header).toBe('modem_id,secret');
    const [key, secret] = line!.split(',');
    expect(key).toBe(modems.L!.key);
    const row = await t.app.database.db
      .selectFrom('modem')
      .select(['secret_hash', 'broker_hash'])
      .where('modem_key', '=', key!)
      .executeTakeFirstOrThrow();
    expect(verifyModemSecret(row.secret_hash, secret!)).toBe(true);
    expect(verifyBrokerHash(row.broker_hash!, secret!)).toBe(true);
    expect(verifyModemSecret(row.secret_hash, modems.L!.secret)).toBe(false);

    // Mosquitto rereads its files on SIGHUP.
    broker!.kill('SIGHUP');
    let connected: MqttClient | undefined;
    for (let attempt = 0; attempt < 50 && !connected; attempt++) {
      connected = await connect(port, key!, secret!).catch(async () => {
        await new Promise((r) => setTimeout(r, 100));
        return undefined;
      });
    }
    expect(connected).toBeDefined();
    clients.push(connected!);
  });

  it('runs from the command line and says what it did', async () => {
    const schema = PG_URL
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.database.db)).rows[0]!.schema
      : '';
    const out = join(dir, 'cli');
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/tools/mqtt-auth.ts', ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, INIT_CWD: REPO_ROOT, ...env },
      });
    const database = PG_URL ? ['--database', PG_URL, '--schema', schema] : ['--database', t.config.databaseUrl];
    const owner = `${process.getuid!()}:${process.getgid!()}`;
    const marker = join(dir, 'reloaded');
    const ok = run(
      ['--format', 'mosquitto', '--out', out, ...database, '--chown', owner, '--on-change', `touch ${marker}`],
      { MQTT_USERNAME: SERVER_USER, MQTT_PASSWORD: SERVER_PASSWORD },
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('3 modules and the server account "console"');
    expect(readFileSync(join(out, 'passwords'), 'utf8')).toContain(`${modems.L!.key}:$7$`);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    expect(
      run(['--format', 'mosquitto', '--out', out, ...database, '--on-change', `touch ${marker}`], {
        MQTT_USERNAME: SERVER_USER,
        MQTT_PASSWORD: SERVER_PASSWORD,
      }).stdout,
    ).toContain('(unchanged)');
    expect(existsSync(marker)).toBe(false);
    const badOwner = run(['--out', out, ...database, '--chown', 'mosquitto'], {
      MQTT_USERNAME: SERVER_USER,
      MQTT_PASSWORD: SERVER_PASSWORD,
    });
    expect(badOwner.status).toBe(1);
    expect(badOwner.stderr).toContain('--chown takes numeric <uid>:<gid>');

    const noAccount = run(['--format', 'mosquitto', '--out', out, ...database], {
      MQTT_USERNAME: '',
      MQTT_PASSWORD: '',
    });
    expect(noAccount.status).toBe(1);
    expect(noAccount.stderr).toContain("the server's account is needed");
    const emqx = run(['--format', 'emqx', '--out', out]);
    expect(emqx.status).toBe(1);
    expect(emqx.stderr).toContain('deploy/mqtt-auth.md');
  });
});

describe('EMQX HTTP authentication (POST /mqtt/auth)', () => {
  let t: TestApp;
  const token = 'emqx-token-0123456789';
  const key = `EMQX-${Date.now()}`;
  let secret = '';

  const ask = (payload: Record<string, unknown>, bearer = token) =>
    t.app.inject({
      method: 'POST',
      url: '/mqtt/auth',
      headers: { authorization: `Bearer ${bearer}` },
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp({ MQTT_AUTH_TOKEN: token, MQTT_USERNAME: SERVER_USER, MQTT_PASSWORD: SERVER_PASSWORD });
    secret = (await t.app.devices.fleet.createModem({ companyId: 2, modemKey: key })).secret;
  });
  afterAll(async () => t?.close());

  it('allows a module with its secret, limited to its own topics', async () => {
    const res = await ask({ username: key, password: secret, clientid: key });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ result: 'allow', is_superuser: false });
    expect(answer.acl).toContainEqual({ permission: 'allow', action: 'publish', topic: `modem/${key}/data` });
    expect(answer.acl).toContainEqual({ permission: 'allow', action: 'subscribe', topic: `modem/${key}/request` });
    expect(answer.acl).not.toContainEqual(expect.objectContaining({ topic: `modem/${key}/plan`, action: 'publish' }));
    expect(answer.acl.at(-1)).toEqual({ permission: 'deny', action: 'all', topic: '#' });
  });

  it('allows the server account its shared subscriptions and the modules’ down-channels', async () => {
    const answer = (await ask({ username: SERVER_USER, password: SERVER_PASSWORD })).json();
    expect(answer.result).toBe('allow');
    expect(answer.acl).toContainEqual({
      permission: 'allow',
      action: 'subscribe',
      topic: '$share/console/modem/+/data',
    });
    expect(answer.acl).toContainEqual({ permission: 'allow', action: 'publish', topic: 'modem/+/plan' });
    expect((await ask({ username: SERVER_USER, password: 'wrong' })).json()).toEqual({
      result: 'deny',
      is_superuser: false,
    });
  });

  it('denies wrong secrets, unknown modules, odd names and calls without the token', async () => {
    const denied = { result: 'deny', is_superuser: false };
    expect((await ask({ username: key, password: 'wrong' })).json()).toEqual(denied);
    expect((await ask({ username: 'NOPE-1', password: secret })).json()).toEqual(denied);
    expect((await ask({ username: 'modem/#', password: secret })).json()).toEqual(denied);
    expect((await ask({ username: key })).json()).toEqual(denied);
    const noToken = await ask({ username: key, password: secret }, 'guess-guess-guess');
    expect(noToken.statusCode).toBe(200);
    expect(noToken.json()).toEqual(denied);
  });

  it('is not there unless MQTT_AUTH_TOKEN is set', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/mqtt/auth', payload: { username: key } });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
