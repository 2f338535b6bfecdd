// Web Push: a person's browser subscribes through the API (https push addresses only, a local stand-in only on a
// server run for tests; another person's device cannot be removed), and an alarm that stops a set reaches it: a
// local push service checks the VAPID token (ES256 over the installation's key, audience its own origin, not
// expired, a subject) and decrypts the aes128gcm payload (RFC 8291/8188) with the browser's private key, written
// here with node:crypto alone, and finds the exact title, text and console page. A push service that says the
// browser is gone (410) removes it for good; one that is down (503) leaves it to be tried again.
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { newSet } from './support/history-data.ts';
import { recordNoticeEvent } from '../src/modules/notifications/engine.ts';
import { createPushRepository } from '../src/modules/push/repository.ts';
import { createPushService, pushSettingsFromEnv } from '../src/modules/push/service.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;
let vapidKey: string;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on this machine: answers each path with the status it was told (201 by default). */
let service: Server;
let serviceOrigin: string;
const received: Received[] = [];
const answers = new Map<string, number>();

/** A browser's side of a subscription: its key pair and authentication secret. */
interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

function browser(path: string): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${serviceOrigin}${path}`;
  return {
    ecdh,
    auth,
    endpoint,
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` as a push service does; answers the JWT's claims. */
function checkVapid(headers: IncomingHttpHeaders): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(headers.authorization));
  expect(m, String(headers.authorization)).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(vapidKey);
  const [h, p, s] = jwt!.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
  const point = Buffer.from(k!, 'base64url');
  expect(point.length).toBe(65);
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  expect(signed, 'the JWT is signed with the VAPID key').toBe(true);
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
}

/** Decrypts an aes128gcm push message (RFC 8188 record, keys by RFC 8291) with the browser's keys. */
function decrypt(b: Browser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const serverKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  expect(record.length).toBeLessThanOrEqual(rs);
  const shared = b.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), b.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, b.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // the last record: data, the delimiter 2, then zero padding
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  expect(plain[end]).toBe(2);
  return plain.subarray(0, end).toString('utf8');
}

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const db = () => t.app.database.db;

async function subscribe(token: string, b: Browser, userAgent = 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0') {
  return call(t.app, 'POST', '/push/subscribe', { token, body: b.json, headers: { 'user-agent': userAgent } });
}

/** Only this browser of the manager's is subscribed. */
async function onlyDevice(b: Browser) {
  await db().deleteFrom('push_subscription').where('user_id', '=', managerId).execute();
  const res = await subscribe(manager, b);
  expect(res.code, res.msg).toBe(200);
  return res.data.id as number;
}

async function shutdownOn(setName: string) {
  const set = await newSet(t, { companyId, name: setName, timeZone: 'Asia/Shanghai' });
  const row = await db()
    .selectFrom('genset')
    .select(['id', 'token'])
    .where('id', '=', set.id)
    .executeTakeFirstOrThrow();
  const at = Date.now();
  await recordNoticeEvent(db(), {
    kind: 'alarm.raised',
    companyId: null,
    gensetId: row.id,
    audience: { set: true },
    facts: {
      code: 'E101',
      level: 'shutdown',
      title: { 'en-US': 'Low oil pressure', 'zh-CN': '油压低' },
      ts: at,
    },
  });
  await t.app.notifications.engine.runOnce();
  return { ...row, at };
}

const deliveriesTo = (subscriptionId: number) =>
  db()
    .selectFrom('notification_delivery')
    .selectAll()
    .where('channel', '=', 'push')
    .where('target', '=', String(subscriptionId))
    .execute();

beforeAll(async () => {
  service = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  serviceOrigin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  t = await createTestApp();
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const info = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info;
  managerId = info.userId ?? info.id;
  companyId = info.companyId;
  const saved = await call(t.app, 'POST', '/user/setMessage', {
    token: manager,
    body: { alarmPush: true, alarmEmail: false, alarmSms: false, alarmLevel: 'all', language: 'en-US' },
  });
  expect(saved.code, saved.msg).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => service.close(() => r()));
});

describe('the VAPID key', () => {
  it('is made once and kept: the same key for every call and after a restart', async () => {
    const first = await call(t.app, 'GET', '/push/key', { token: manager });
    expect(first.code).toBe(200);
    vapidKey = first.data.publicKey;
    expect(Buffer.from(vapidKey, 'base64url')).toHaveLength(65);
    expect((await call(t.app, 'GET', '/push/key', { token: manager })).data.publicKey).toBe(vapidKey);
    await t.restart();
    manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    expect((await call(t.app, 'GET', '/push/key', { token: manager })).data.publicKey).toBe(vapidKey);
  });

  it('is for signed-in people only', async () => {
    const res = await call(t.app, 'GET', '/push/key');
    expect(res.code).toBe(101);
  });
});

describe('subscribing', () => {
  it('refuses push addresses that are not https, or that the server may not contact', async () => {
    const cases: [string, string][] = [
      ['ftp://push.example.com/x', 'This browser’s push address is not an https:// address of a push service.'],
      ['http://push.example.com/x', 'This browser’s push address is not an https:// address of a push service.'],
      [
        'https://user:pw@push.example.com/x',
        'This browser’s push address is not an https:// address of a push service.',
      ],
      ['https://169.254.169.254/latest', 'This browser’s push service is at an address the server may not contact.'],
    ];
    for (const [endpoint, msg] of cases) {
      const b = browser('/unused');
      const res = await call(t.app, 'POST', '/push/subscribe', {
        token: manager,
        body: { ...b.json, endpoint },
      });
      expect({ endpoint, code: res.code, msg: res.msg }).toEqual({ endpoint, code: 400, msg });
    }
    const rows = await db().selectFrom('push_subscription').select('endpoint').execute();
    expect(rows).toEqual([]);
  });

  it('takes a local stand-in (http to this machine) only on a server run for tests or development', async () => {
    const local = browser('/local');
    expect((await subscribe(manager, local)).code).toBe(200);
    await call(t.app, 'POST', '/push/unsubscribe', { token: manager, body: { endpoint: local.endpoint } });
    for (const NODE_ENV of ['production', undefined]) {
      const settings = pushSettingsFromEnv({ NODE_ENV }, 'Genset Cloud <alerts@example.com>');
      expect(settings).toMatchObject({ allowLocal: false, subject: 'mailto:alerts@example.com' });
      const push = createPushService({ repo: createPushRepository(db()), policy: t.app.outbound, settings });
      await expect(push.subscribe(managerId, local.json, undefined)).rejects.toMatchObject({ key: 'push.endpoint' });
      await expect(
        push.subscribe(managerId, { ...local.json, endpoint: local.endpoint.replace('http:', 'https:') }, undefined),
      ).rejects.toMatchObject({ key: 'push.refused' });
    }
    expect(await db().selectFrom('push_subscription').select('id').execute()).toEqual([]);
  });

  it('lists, keeps one row per browser, and lets only its owner remove a device', async () => {
    const b = browser('/dev/one');
    const first = await subscribe(manager, b);
    expect(first).toMatchObject({ code: 200, msg: 'Saved.', data: { id: expect.any(Number) } });
    // the same browser again (new keys) is the same device
    const again = await subscribe(manager, { ...b, json: { ...b.json, keys: browser('/x').json.keys } });
    expect(again.data.id).toBe(first.data.id);
    const list = await call(t.app, 'GET', '/push/devices', { token: manager });
    expect(list).toMatchObject({
      code: 200,
      data: {
        list: [
          {
            id: first.data.id,
            label: 'Chrome · Android',
            service: new URL(serviceOrigin).host,
            endpoint: b.endpoint,
            lastSuccessAt: null,
            failures: 0,
          },
        ],
      },
    });

    const other = await freshUser(t, { companyId });
    const otherToken = await login(t.app, other.account, other.password);
    expect((await call(t.app, 'GET', '/push/devices', { token: otherToken })).data).toEqual({ list: [] });
    for (const body of [{ id: first.data.id }, { endpoint: b.endpoint }]) {
      const res = await call(t.app, 'POST', '/push/unsubscribe', { token: otherToken, body });
      expect({ code: res.code, msg: res.msg }).toEqual({ code: 404, msg: 'No such device among yours.' });
    }
    expect((await call(t.app, 'GET', '/push/devices', { token: manager })).data.list).toHaveLength(1);

    const removed = await call(t.app, 'POST', '/push/unsubscribe', { token: manager, body: { id: first.data.id } });
    expect(removed).toMatchObject({ code: 200, data: { removed: 1 } });
    expect((await call(t.app, 'GET', '/push/devices', { token: manager })).data).toEqual({ list: [] });
    const gone = await call(t.app, 'POST', '/push/unsubscribe', { token: manager, body: { id: first.data.id } });
    expect(gone.code).toBe(404);
  });
});

describe('an alarm that stops a set is pushed to the subscribed browser', () => {
  it('signed with the VAPID key, encrypted for the browser alone, with the exact words and page', async () => {
    const b = browser('/push/ok');
    const id = await onlyDevice(b);
    const sent = await shutdownOn('Hospital standby');
    const got = await until(
      () => received.find((r) => r.path === '/push/ok'),
      (r) => r !== undefined,
    );
    expect(got).toBeDefined();
    const claims = checkVapid(got!.headers);
    expect(claims.aud).toBe(serviceOrigin);
    const nowS = Math.floor(Date.now() / 1000);
    expect(claims.exp).toBeGreaterThan(nowS);
    expect(claims.exp).toBeLessThanOrEqual(nowS + 24 * 3600);
    expect(claims.sub).toMatch(/^(mailto:|https:).+/);
    expect(got!.headers['content-encoding']).toBe('aes128gcm');
    expect(got!.headers.urgency).toBe('high');
    expect(Number(got!.headers.ttl)).toBeGreaterThan(0);

    const time = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Shanghai',
      timeZoneName: 'short',
    }).format(sent.at);
    expect(JSON.parse(decrypt(b, got!.body))).toEqual({
      title: 'Hospital standby: Low oil pressure',
      body: `Alarm (shutdown) on Hospital standby at ${time}: Low oil pressure.`,
      url: `/top/baojing?token=${encodeURIComponent(sent.token)}`,
      tag: `set:${sent.token}`,
    });

    const rows = await until(
      () => deliveriesTo(id),
      (r) => r[0]?.status === 'sent',
    );
    expect(rows.map((r) => ({ status: r.status, response: r.response_status }))).toEqual([
      { status: 'sent', response: 201 },
    ]);
    const device = await db().selectFrom('push_subscription').selectAll().where('id', '=', id).executeTakeFirst();
    expect(device?.last_success_at).toBeGreaterThan(0);
  });

  it('a browser the push service says is gone (410) is removed, and the message not tried again', async () => {
    answers.set('/push/gone', 410);
    const b = browser('/push/gone');
    const id = await onlyDevice(b);
    await shutdownOn('Data centre A');
    const rows = await until(
      () => deliveriesTo(id),
      (r) => r[0]?.status === 'failed',
    );
    expect(rows.map((r) => ({ status: r.status, attempts: r.attempts, response: r.response_status }))).toEqual([
      { status: 'failed', attempts: 1, response: 410 },
    ]);
    expect(received.filter((r) => r.path === '/push/gone')).toHaveLength(1);
    const left = await db().selectFrom('push_subscription').select('id').where('id', '=', id).execute();
    expect(left).toEqual([]);
    expect((await call(t.app, 'GET', '/push/devices', { token: manager })).data).toEqual({ list: [] });
  });

  it('a push service that is down (503) keeps the browser, and the message waits to be tried again', async () => {
    answers.set('/push/busy', 503);
    const b = browser('/push/busy');
    const id = await onlyDevice(b);
    const before = Date.now();
    await shutdownOn('Data centre B');
    const rows = await until(
      () => deliveriesTo(id),
      (r) => r[0]?.attempts === 1,
    );
    expect(rows.map((r) => ({ status: r.status, attempts: r.attempts, response: r.response_status }))).toEqual([
      { status: 'pending', attempts: 1, response: 503 },
    ]);
    expect(Number(rows[0]!.not_before)).toBeGreaterThanOrEqual(before + 15_000);
    const device = await db().selectFrom('push_subscription').selectAll().where('id', '=', id).executeTakeFirst();
    expect(device).toMatchObject({ id, failures: 1, last_success_at: null });
  });
});
