// Notifications: an alarm that stops a set reaches its people by e-mail and SMS (the development outbox) and
// the company's webhook (signed, checked by a real HTTP receiver) within seconds, and the message centre rings;
// a burst of alarms is one message per set and minute; quiet hours hold all but shutdowns; a receiver that is
// down for five minutes gets the message once it is back, one down for a day is given up after 24 hours; two
// instances send each message once; each person gets the alarms of the level and sets they chose; bad webhook
// addresses are refused with a localised message and nothing is stored.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_HEADERS } from '@genset/protocol';
import { call, createTestApp, freshUser, login, outbox, type TestApp } from './helpers.ts';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import { moduleFor, newSet, RUNNING } from './support/history-data.ts';
import {
  createNotificationEngine,
  recordNoticeEvent,
  retryDelay,
  signWebhook,
} from '../src/modules/notifications/engine.ts';
import { createOutboxSender } from '../src/modules/sms/sender.ts';
import { createOfflineWatch } from '../src/modules/notifications/offline-watch.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver: answers 200; `stop()` takes it off the network (connections refused), `start()` brings it back. */
async function receiver() {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    url: `http://127.0.0.1:${port}/hook`,
    server,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
    start: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
  };
}

/** A notification engine of its own on the test server's database, as another instance runs one, on a given clock. */
const engineOn = (holder: string, now: () => number) =>
  createNotificationEngine({
    db: t.app.database.db,
    log: t.app.log,
    sender: createOutboxSender(t.config.outboxDir, t.app.log),
    email: {
      send: (msg) =>
        createOutboxSender(t.config.outboxDir, t.app.log).send({ channel: 'email', purpose: 'notice', ...msg }),
    },
    bus: t.app.devices.bus,
    postWebhook: t.app.notifications.postWebhook,
    holder,
    now,
  });

/** An alarm raised on a set at a time, told to the set's people and its company's webhooks. */
const alarmRaised = (setId: number, code: string, level: string, title: Record<string, string>, at: number) =>
  recordNoticeEvent(
    t.app.database.db,
    {
      kind: 'alarm.raised',
      companyId: null,
      gensetId: setId,
      audience: { set: true },
      facts: { code, level, title, ts: at },
    },
    at,
  );

const notices = (to: string) => outbox(t).filter((m) => m.purpose === 'notice' && m.to === to);

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function verified(r: Received, secret: string) {
  const ts = String(r.headers[WEBHOOK_HEADERS.timestamp]);
  return r.headers[WEBHOOK_HEADERS.signature] === signWebhook(secret, ts, r.body);
}

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const info = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info;
  managerId = info.userId ?? info.id;
  companyId = info.companyId;
});
afterAll(async () => t.close());

describe('a shutdown alarm reaches its people', () => {
  let hook: Awaited<ReturnType<typeof receiver>>;
  let secret: string;
  let set: Awaited<ReturnType<typeof newSet>>;
  let m: Awaited<ReturnType<typeof moduleFor>>;

  beforeAll(async () => {
    hook = await receiver();
    const saved = await call(t.app, 'POST', '/user/setMessage', {
      token: manager,
      body: { alarmEmail: true, alarmSms: true, alarmPush: true, phone: '13900000077', alarmLevel: 'all' },
    });
    expect(saved.code).toBe(200);
    const res = await call(t.app, 'POST', '/webhook/save', {
      token: manager,
      body: { name: 'Dispatch desk', url: hook.url, events: ['alarm.raised'] },
    });
    expect(res.code).toBe(200);
    const list = await call(t.app, 'POST', '/webhook/list', { token: manager });
    secret = list.data.list[0].secret;
    set = await newSet(t, { companyId, name: 'Hospital standby' });
    m = await moduleFor(t, set);
  });
  afterAll(async () => {
    await m.close();
    hook.server.close();
  });

  it('one e-mail, one SMS and one signed webhook POST within 10 s; the bell counts it', async () => {
    const before = (await call(t.app, 'GET', '/notice/unread', { token: manager })).data.unread;
    const t0 = Date.now();
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 }, Date.now());
    const mail = await until(
      () => notices('manager@example.com').filter((n) => n.channel === 'email'),
      (l) => l.length >= 1,
    );
    const sms = await until(
      () => notices('13900000077'),
      (l) => l.length >= 1,
    );
    const posts = await until(
      () => hook.got,
      (l) => l.length >= 1,
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
    // one of each, also after the sender has had another round
    await t.app.notifications.engine.runOnce();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Hospital standby');
    expect(notices('manager@example.com').filter((n) => n.channel === 'email')).toHaveLength(1);
    expect(notices('13900000077')).toHaveLength(1);
    expect(sms).toHaveLength(1);
    expect(posts).toHaveLength(1);
    expect(hook.got).toHaveLength(1);
    expect(verified(posts[0]!, secret)).toBe(true);
    expect(verified({ ...posts[0]!, body: posts[0]!.body.replace('Hospital', 'Hostile') }, secret)).toBe(false);
    const body = JSON.parse(posts[0]!.body);
    expect(body).toMatchObject({ event: 'alarm.raised', set: { token: set.token, name: 'Hospital standby' } });
    expect(body.data.code).toBe('emergency_stop');

    const list = await call(t.app, 'POST', '/notice/list', {
      token: manager,
      lang: 'ru-RU',
      body: { page: 1, size: 5 },
    });
    expect(list.data.unread).toBe(before + 1);
    expect(list.data.list[0]).toMatchObject({ kind: 'alarm.raised', level: 'alarm', token: set.token, readAt: null });
    expect(list.data.list[0].text).toContain('Авария');
    const read = await call(t.app, 'POST', '/notice/read', { token: manager, body: { ids: [list.data.list[0].id] } });
    expect(read.data.unread).toBe(before);
  });

  it('a burst of alarms on the set is one more message at the end of the minute, not one each', async () => {
    const mails = () => notices('manager@example.com').filter((n) => n.channel === 'email');
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1, alarm_over_speed: 1 }, Date.now());
    await m.send(
      { ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1, alarm_over_speed: 1, alarm_under_speed: 1 },
      Date.now(),
    );
    const pending = await until(
      () =>
        t.app.database.db
          .selectFrom('notification_delivery')
          .selectAll()
          .where('channel', '=', 'email')
          .where('target', '=', 'manager@example.com')
          .where('status', '=', 'pending')
          .execute(),
      (rows) => rows.length >= 2,
    );
    expect(pending).toHaveLength(2);
    const sent = await t.app.database.db
      .selectFrom('notification_delivery')
      .select('sent_at')
      .where('channel', '=', 'email')
      .where('target', '=', 'manager@example.com')
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    // both wait for the same moment: a minute after the first message
    expect(new Set(pending.map((p) => Number(p.not_before)))).toEqual(new Set([Number(sent.sent_at) + 60_000]));
    expect(mails()).toHaveLength(1);
  });
});

describe('hand-overs tell the other side', () => {
  it('the receiver is told of the request, in their language, and the sender of the answer', async () => {
    const receiver = await freshUser(t, { companyId, role: 'personal' });
    const receiverToken = await login(t.app, receiver.account, receiver.password);
    const added = await call(t.app, 'POST', '/genset/add', {
      token: manager,
      body: { name: 'Rental trailer 7', protocolKey: layoutS.key },
    });
    expect(added.code, added.msg).toBe(200);
    const sent = await call(t.app, 'POST', '/genset/transferdevice', {
      token: manager,
      body: { token: added.data.token, account: receiver.account, keepSubscription: 'none' },
    });
    expect(sent.code, sent.msg).toBe(200);
    const inbox = await until(
      async () =>
        (await call(t.app, 'POST', '/notice/list', { token: receiverToken, lang: 'es-ES', body: { page: 1, size: 5 } }))
          .data,
      (d) => d.list.length > 0,
    );
    expect(inbox.unread).toBe(1);
    expect(inbox.list[0]).toMatchObject({ kind: 'transfer.requested', link: '/genset/transfers' });
    expect(inbox.list[0].title).toBe('Le traspasan Rental trailer 7');
    const pending = (
      await call(t.app, 'POST', '/genset/transfer/list', { token: receiverToken, body: { box: 'pending', size: 10 } })
    ).data.list;
    const accepted = await call(t.app, 'POST', '/genset/transfer/accept', {
      token: receiverToken,
      body: { id: pending[0].id },
    });
    expect(accepted.code, accepted.msg).toBe(200);
    const answer = await until(
      async () => (await call(t.app, 'POST', '/notice/list', { token: manager, body: { page: 1, size: 5 } })).data.list,
      (l) => l.some((n: { kind: string }) => n.kind === 'transfer.accepted'),
    );
    expect(answer.find((n: { kind: string }) => n.kind === 'transfer.accepted').title).toBe(
      'Rental trailer 7: hand-over accepted',
    );
  });
});

describe('repair requests tell the service desk and the requester', () => {
  it('a new request reaches those with repair:manage; its requester follows each step', async () => {
    const requester = await freshUser(t, { companyId, role: 'personal' });
    const requesterToken = await login(t.app, requester.account, requester.password);
    const set = await newSet(t, { companyId, name: 'Pier 3 set' });
    await t.app.devices.fleet.subscribe(set.id, requester.id, 'view');
    const boundary = 'NoticeFormBoundary';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const fields = {
      token: set.token,
      contact: 'Robin',
      phone: '13900000042',
      address: 'Pier 3',
      description: 'Will not start after the storm.',
    };
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/baoxiu/add',
      headers: {
        'x-time': time,
        'x-sign': computeSign(requesterToken, time, DEFAULT_SIGN_SECRET),
        'x-token': requesterToken,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload:
        Object.entries(fields)
          .map(([k, v]) => part(k, v))
          .join('') + `--${boundary}--\r\n`,
    });
    const added = res.json() as { code: number; msg: string; data: { token: string } };
    expect(added.code, added.msg).toBe(200);
    const desk = await until(
      async () =>
        (await call(t.app, 'POST', '/notice/list', { token: manager, lang: 'zh-CN', body: { page: 1, size: 10 } })).data
          .list,
      (l) => l.some((n: { kind: string }) => n.kind === 'repair.submitted'),
    );
    const submitted = desk.find((n: { kind: string }) => n.kind === 'repair.submitted');
    expect(submitted.title).toBe('Pier 3 set：新的报修');
    expect(submitted.link).toBe(`/baoxiu/detail/${added.data.token}`);
    const step = await call(t.app, 'POST', '/baoxiu/update', {
      token: manager,
      body: { token: added.data.token, state: 'accepted', note: 'On our way' },
    });
    expect(step.code, step.msg).toBe(200);
    const mine = await until(
      async () =>
        (await call(t.app, 'POST', '/notice/list', { token: requesterToken, body: { page: 1, size: 10 } })).data.list,
      (l) => l.some((n: { kind: string }) => n.kind === 'repair.state'),
    );
    expect(mine.find((n: { kind: string }) => n.kind === 'repair.state').title).toBe(
      'Pier 3 set: repair request accepted',
    );
  });
});

describe('what each person chose', () => {
  it('alarms that stop the set only, alarms of one’s own sets only, cleared alarms only when asked', async () => {
    const db = t.app.database.db;
    const owner = await freshUser(t, { companyId, role: 'personal' });
    const admin = await freshUser(t, { companyId, role: 'companyAdmin' });
    const watcher = await freshUser(t, { companyId, role: 'companyAdmin' });
    const choose = async (user: { account: string; password: string }, body: Record<string, unknown>) => {
      const token = await login(t.app, user.account, user.password);
      const saved = await call(t.app, 'POST', '/user/setMessage', { token, body });
      expect(saved.code, saved.msg).toBe(200);
    };
    await choose(owner, { alarmLevel: 'shutdown', alarmScope: 'mine', alarmCleared: false });
    // sees every set of the company, but asked for its own sets only: this one is not
    await choose(admin, { alarmLevel: 'all', alarmScope: 'mine', alarmCleared: true });
    await choose(watcher, { alarmLevel: 'all', alarmScope: 'all', alarmCleared: true });
    const set = await newSet(t, { companyId, ownerUserId: owner.id, name: 'Chosen set' });
    const alarm = (kind: 'alarm.raised' | 'alarm.cleared', code: string, level: string) =>
      recordNoticeEvent(db, {
        kind,
        companyId: null,
        gensetId: set.id,
        audience: { set: true },
        facts: { code, level, title: { 'en-US': code }, ts: Date.now() },
      });
    await alarm('alarm.raised', 'low_fuel_warning', 'warning');
    await alarm('alarm.raised', 'emergency_stop', 'shutdown');
    await alarm('alarm.cleared', 'low_fuel_warning', 'warning');
    await t.app.notifications.engine.runOnce();

    const told = async (userId: number) => {
      const rows = await db
        .selectFrom('notification')
        .select(['kind', 'payload'])
        .where('user_id', '=', userId)
        .where('genset_id', '=', set.id)
        .execute();
      return rows.map((r) => `${r.kind} ${JSON.parse(r.payload).code}`).sort();
    };
    const mailed = async (userId: number) =>
      (
        await db
          .selectFrom('notification_delivery')
          .select('id')
          .where('user_id', '=', userId)
          .where('channel', '=', 'email')
          .where('event_id', 'in', db.selectFrom('notification_event').select('id').where('genset_id', '=', set.id))
          .execute()
      ).length;
    expect(await told(owner.id)).toEqual(['alarm.raised emergency_stop']);
    expect(await mailed(owner.id)).toBe(1);
    expect(await told(admin.id)).toEqual([]);
    expect(await mailed(admin.id)).toBe(0);
    expect(await told(watcher.id)).toEqual([
      'alarm.cleared low_fuel_warning',
      'alarm.raised emergency_stop',
      'alarm.raised low_fuel_warning',
    ]);
  });
});

describe('delivery with a clock of its own', () => {
  it('quiet hours hold a warning but not a shutdown; a receiver down for 5 minutes gets the message once back; two senders send once', async () => {
    // the server's own sender steps aside: these engines run on the same database with a clock of their own
    await t.app.notifications.engine.close();
    const db = t.app.database.db;
    const hook = await receiver();
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    let clock = Date.now();
    await call(t.app, 'POST', '/user/setMessage', {
      token: manager,
      body: { quietFrom: hhmm(clock - 3_600_000), quietTo: hhmm(clock + 3_600_000), timeZone: 'UTC', alarmEmail: true },
    });
    await call(t.app, 'POST', '/webhook/save', {
      token: manager,
      body: { name: 'Night desk', url: hook.url, events: ['alarm.raised'] },
    });
    const night = (await call(t.app, 'POST', '/webhook/list', { token: manager })).data.list.find(
      (w: { name: string }) => w.name === 'Night desk',
    );
    const secret = night.secret;
    const set = await newSet(t, { companyId, name: 'Quarry set' });
    const engine = (holder: string) => engineOn(holder, () => clock);
    const a = engine('instance-a');
    const b = engine('instance-b');
    const title = { 'en-US': 'Low fuel' };
    // the receiver is down: nothing listens at its address
    await hook.stop();
    const lastEvent = Number(
      (
        await db
          .selectFrom('notification_event')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );
    await alarmRaised(set.id, 'low_fuel_warning', 'warning', title, clock);
    await alarmRaised(set.id, 'emergency_stop', 'shutdown', { 'en-US': 'Emergency stop' }, clock);
    await Promise.all([a.runOnce(), b.runOnce()]);

    // quiet hours: the shutdown went at once, the warning waits for the end of them
    const managerMail = await db
      .selectFrom('notification_delivery')
      .selectAll()
      .where('target', '=', 'manager@example.com')
      .where('event_id', '>', lastEvent)
      .where('channel', '=', 'email')
      .orderBy('id')
      .execute();
    expect(managerMail.map((d) => d.status)).toEqual(['pending', 'sent']);
    expect(Number(managerMail[0]!.not_before)).toBeGreaterThan(clock + 3_500_000);
    // each message once, whichever of the two instances sent it
    expect(notices('manager@example.com').filter((n) => n.subject?.includes('Quarry set'))).toHaveLength(1);

    // the receiver is down for five minutes: tried again and again with growing pauses
    const started = clock;
    while (clock < started + 5 * 60_000) {
      clock += 15_000;
      await Promise.all([a.runOnce(), b.runOnce()]);
    }
    const tries = await db
      .selectFrom('notification_delivery')
      .select(['attempts', 'status', 'not_before'])
      .where('webhook_id', '=', night.id)
      .where('status', '=', 'pending')
      .execute();
    expect(tries).toHaveLength(2);
    expect(tries[0]!.attempts).toBeGreaterThanOrEqual(4);
    expect(hook.got).toHaveLength(0);
    // back: the next try delivers, once, signed
    await hook.start();
    const back = clock;
    while (hook.got.length < 2 && clock < back + retryDelay(10)) {
      clock += 15_000;
      await Promise.all([a.runOnce(), b.runOnce()]);
    }
    expect(hook.got).toHaveLength(2);
    expect(hook.got.every((r) => verified(r, secret))).toBe(true);
    clock += 3_600_000;
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(hook.got).toHaveLength(2);
    const log = await call(t.app, 'POST', '/webhook/deliveries', {
      token: manager,
      body: { id: night.id },
    });
    expect(
      log.data.list.every((d: { status: string; attempts: number }) => d.status === 'sent' && d.attempts >= 4),
    ).toBe(true);
    await a.close();
    await b.close();
    hook.server.close();
  });

  it('a receiver that stays down is tried for 24 hours, then given up and logged as failed', async () => {
    await t.app.notifications.engine.close();
    const db = t.app.database.db;
    const hook = await receiver();
    await hook.stop();
    const saved = await call(t.app, 'POST', '/webhook/save', {
      token: manager,
      body: { name: 'Gone desk', url: hook.url, events: ['alarm.raised'] },
    });
    expect(saved.code, saved.msg).toBe(200);
    const gone = (await call(t.app, 'POST', '/webhook/list', { token: manager })).data.list.find(
      (w: { name: string }) => w.name === 'Gone desk',
    );
    const set = await newSet(t, { companyId, name: 'Far set' });
    let clock = Date.now();
    const engine = engineOn('instance-c', () => clock);
    await alarmRaised(set.id, 'emergency_stop', 'shutdown', { 'en-US': 'Emergency stop' }, clock);
    const delivery = () =>
      db
        .selectFrom('notification_delivery')
        .select(['status', 'attempts', 'last_error'])
        .where('webhook_id', '=', gone.id)
        .executeTakeFirstOrThrow();
    const started = clock;
    await engine.runOnce();
    while (clock < started + 23 * 3_600_000) {
      clock += 30 * 60_000;
      await engine.runOnce();
    }
    expect((await delivery()).status).toBe('pending');
    while (clock < started + 26 * 3_600_000) {
      clock += 30 * 60_000;
      await engine.runOnce();
    }
    const last = await delivery();
    expect(last.status).toBe('failed');
    expect(last.last_error).not.toBe('');
    // no more tries once given up
    clock += 3_600_000;
    await engine.runOnce();
    expect((await delivery()).attempts).toBe(last.attempts);
    const log = await call(t.app, 'POST', '/webhook/deliveries', { token: manager, body: { id: gone.id } });
    expect(log.data.list).toMatchObject([{ status: 'failed', attempts: last.attempts }]);
    await engine.close();
    hook.server.close();
  });
});

describe('a set offline for longer than a person asked', () => {
  it('is told once per outage, after their minutes and not before; the outage counts from the server’s start at the earliest', async () => {
    const db = t.app.database.db;
    const set = await newSet(t, { companyId, name: 'Remote mast' });
    const lastSeen = Date.now() - 3_600_000;
    await db.updateTable('modem').set({ online: 0, last_seen_at: lastSeen }).where('id', '=', set.modemId).execute();
    await call(t.app, 'POST', '/user/setMessage', { token: manager, body: { offlineMinutes: 30, alarmScope: 'all' } });
    let clock = lastSeen + 29 * 60_000;
    const watch = createOfflineWatch({
      db,
      holder: t.app.notifications.engine.holder,
      startedAt: lastSeen - 60_000,
      now: () => clock,
    });
    const told = () =>
      db
        .selectFrom('notification_event')
        .select(['payload'])
        .where('kind', '=', 'set.offline')
        .where('genset_id', '=', set.id)
        .execute();
    await watch();
    expect(await told()).toHaveLength(0);
    clock = lastSeen + 31 * 60_000;
    await watch();
    await watch();
    const events = await told();
    const forManager = events.filter((e) => JSON.parse(e.payload).audience.users[0] === managerId);
    expect(forManager).toHaveLength(1);
    expect(JSON.parse(forManager[0]!.payload).facts).toMatchObject({ minutes: 30, ts: lastSeen });
    // a server that started after the module went away counts from its own start
    const late = createOfflineWatch({
      db,
      holder: t.app.notifications.engine.holder,
      startedAt: clock - 60_000,
      now: () => clock,
    });
    await db
      .deleteFrom('notification_event')
      .where('kind', '=', 'set.offline')
      .where('genset_id', '=', set.id)
      .execute();
    await late();
    expect(await told()).toHaveLength(0);
  });
});

describe('webhook addresses', () => {
  it('refuses what is not http(s), carries credentials or points at this server, in the caller’s language; stores nothing', async () => {
    const before = (await call(t.app, 'POST', '/webhook/list', { token: manager })).data.list.length;
    const port = (t.app.server.address() as AddressInfo).port;
    const bad = [
      ['ftp://example.com/x', 'Webhook 地址必须以 http:// 或 https:// 开头。'],
      ['http://user:pw@example.com/x', 'Webhook 地址中不能包含用户名或密码。'],
      [`http://127.0.0.1:${port}/yewu/notice/list`, 'Webhook 不能指向本服务器。'],
      [`http://localhost:${port}/`, 'Webhook 不能指向本服务器。'],
    ] as const;
    for (const [url, msg] of bad) {
      const res = await call(t.app, 'POST', '/webhook/save', {
        token: manager,
        lang: 'zh-CN',
        body: { name: 'x', url, events: ['alarm.raised'] },
      });
      expect(res.code, url).toBe(400);
      expect(res.data.fields.url).toContain(msg);
    }
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const denied = await call(t.app, 'POST', '/webhook/save', {
      token: viewer,
      body: { name: 'x', url: 'https://example.com/hook', events: ['alarm.raised'] },
    });
    expect(denied.code).toBe(403);
    expect((await call(t.app, 'POST', '/webhook/list', { token: manager })).data.list.length).toBe(before);
    void managerId;
  });

  it('refuses private addresses unless the deployment allows them', async () => {
    const strict = await createTestApp();
    try {
      const token = await login(strict.app, 'manager@example.com', 'Demo#2026');
      const res = await call(strict.app, 'POST', '/webhook/save', {
        token,
        body: { name: 'x', url: 'http://10.1.2.3/hook', events: ['alarm.raised'] },
      });
      expect(res.code).toBe(400);
      expect(res.data.fields.url).toContain('private');
    } finally {
      await strict.close();
    }
  });
});
