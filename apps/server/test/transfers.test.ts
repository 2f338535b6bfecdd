// Handing a set over against a real server: the receiver's accept moves the set, its live data and its future
// history to the receiver's "My gensets" at once and out of the sender's (unless a subscription was kept), with
// the past still readable; reject and revoke leave everything as it was; a record is settled once (a second
// accept, or an accept racing a revoke, is refused); bad input is refused in the caller's language and stores
// nothing; a handover to an account that does not exist answers as one to an account that does; every step is in the operation log and heard by the service's listeners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type Envelope, type TestApp } from './helpers.ts';
import type { TransferEvent } from '../src/modules/transfers/service.ts';
import { insertAlarm, moduleFor, newSet, RUNNING } from './support/history-data.ts';
import { connectWs } from './support/ws-client.ts';

let t: TestApp;
let baseUrl: string;
let manager: string;
let managerId: number;
let companyId: number;
let elsewhere: number;
const events: TransferEvent[] = [];
let seq = 0;
const uid = () => `${Date.now().toString(36)}${seq++}`;

async function addSet(token: string) {
  const res = await call(t.app, 'POST', '/genset/add', {
    token,
    body: { name: `Handover set ${uid()}`, protocolKey: layoutS.key },
  });
  expect(res.code, res.msg).toBe(200);
  return res.data as { token: string; subscriptionCode: string };
}

async function newUser(role = 'personal', company = companyId) {
  const user = await freshUser(t, { companyId: company, role });
  return { ...user, token: await login(t.app, user.account, user.password) };
}

const handOver = (token: string, body: Record<string, unknown>, lang?: string) =>
  call(t.app, 'POST', '/genset/transferdevice', { token, body, ...(lang ? { lang } : {}) });
const act = (token: string, what: 'accept' | 'reject' | 'revoke', id: number, lang?: string) =>
  call(t.app, 'POST', `/genset/transfer/${what}`, { token, body: { id }, ...(lang ? { lang } : {}) });
const box = async (token: string, which: 'pending' | 'done') =>
  (await call(t.app, 'POST', '/genset/transfer/list', { token, body: { box: which, size: 50 } })).data;
const myTokens = async (token: string) =>
  (await call(t.app, 'POST', '/genset/mylist', { token, body: { size: 50 } })).data.list.map(
    (s: { token: string }) => s.token,
  ) as string[];
const ownerOf = async (setToken: string) =>
  t.app.database.db
    .selectFrom('genset')
    .select(['owner_user_id', 'company_id'])
    .where('token', '=', setToken)
    .executeTakeFirstOrThrow();
const transferCount = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('transfer')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const logOf = (setToken: string) =>
  t.app.database.db
    .selectFrom('operation_log')
    .select(['matter', 'company_id', 'user_id'])
    .where('target', '=', setToken)
    .orderBy('id')
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const row = await t.app.database.db
    .selectFrom('users')
    .select('id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  managerId = row.id;
  elsewhere = await createCompany(t, `Buyer ${uid()}`);
  t.app.transfers.listen((event) => void events.push(event));
});
afterAll(async () => t.close());

describe('handing a set over and accepting it', () => {
  it('moves the set, its live data and its future history to the receiver at once; the past stays readable', async () => {
    const set = await newSet(t, { companyId, ownerUserId: managerId, name: `Quarry ${uid()}` });
    const module = await moduleFor(t, set);
    try {
      const before = Date.now() - 5_000;
      await module.send(RUNNING, before);
      const start = Date.now() - 3_600_000;
      await insertAlarm(t, set.id, { code: 'low_fuel_warning', level: 'warning', start, end: start + 60_000 });
      const buyer = await newUser('personal', elsewhere);

      const sent = await handOver(manager, { token: set.token, account: ` ${buyer.account.toUpperCase()} ` });
      expect(sent).toMatchObject({ code: 200, msg: 'Handover sent. The set moves once the receiver accepts it.' });
      const id = sent.data.id as number;

      // untreated: both sides see it pending, nothing has moved yet
      const outgoing = (await box(manager, 'pending')).list.find((r: { id: number }) => r.id === id);
      expect(outgoing).toMatchObject({
        token: set.token,
        direction: 'outgoing',
        status: 'untreated',
        keepSubscription: 'none',
        sender: { account: 'manager@example.com' },
        receiver: { account: buyer.account },
        processedAt: null,
      });
      expect(outgoing.createdAt).toBeGreaterThan(before);
      expect((await box(buyer.token, 'pending')).list).toMatchObject([{ id, direction: 'incoming' }]);
      expect(await myTokens(buyer.token)).not.toContain(set.token);
      expect(await myTokens(manager)).toContain(set.token);
      // the sender has the set's page open: its live data reaches them until the accept
      const sendersPage = await connectWs(baseUrl, manager);
      sendersPage.heartbeat(set.token);
      await sendersPage.waitFor((m) => m.method === 'monitor' && m.token === set.token);

      const accepted = await act(buyer.token, 'accept', id);
      expect(accepted).toMatchObject({ code: 200, msg: 'Handover accepted. The set is now yours.' });
      // at once: no waiting for a cache; within a second of the accept both lists say so
      const mine = (await call(t.app, 'POST', '/genset/mylist', { token: buyer.token, body: {} })).data.list;
      expect(mine).toMatchObject([{ token: set.token, rights: 'manage', owned: true, status: 3 }]);
      expect(await myTokens(manager)).not.toContain(set.token);
      // the sender's open page is told at once that the set is no longer theirs, without waiting for its next
      // heartbeat, and the set's live data no longer reaches it
      await sendersPage.waitFor((m) => m.method === 'error' && m.token === set.token && m.code === 404, 5000);
      const afterTold = sendersPage.messages.length;
      const buyersPage = await connectWs(baseUrl, buyer.token);
      buyersPage.heartbeat(set.token);
      await buyersPage.waitFor((m) => m.method === 'monitor' && m.token === set.token);
      const pushedBefore = buyersPage.messages.length;
      await module.send(RUNNING, Date.now());
      await buyersPage.waitFor((m) => m.method === 'monitor' && m.token === set.token, 5000, pushedBefore);
      expect(sendersPage.messages.slice(afterTold).filter((m) => m.token === set.token)).toEqual([]);
      sendersPage.close();
      buyersPage.close();
      expect(await ownerOf(set.token)).toEqual({ owner_user_id: buyer.id, company_id: elsewhere });
      // the set left the sender's company with its module, which served no other set there
      const modem = await t.app.database.db
        .selectFrom('modem')
        .select('company_id')
        .where('id', '=', set.modemId)
        .executeTakeFirstOrThrow();
      expect(modem.company_id).toBe(elsewhere);
      expect((await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: set.token } })).code).toBe(
        404,
      );

      // the past is the receiver's to read, and what the set reports now is theirs
      const alarms = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
        token: buyer.token,
        body: { token: set.token, range: 'week' },
      });
      expect(alarms.data.list).toMatchObject([{ code: 'low_fuel_warning' }]);
      const now = Date.now();
      await module.send({ ...RUNNING, fuel_level: 42 }, now);
      const status = await call(t.app, 'POST', '/devicedata/getstatus', {
        token: buyer.token,
        body: { token: set.token },
      });
      expect(status.data).toMatchObject({ rights: 'manage' });
      expect(status.data.ts).toBe(now);

      // both sides see it done, with handover and processing time
      const done = (await box(buyer.token, 'done')).list.find((r: { id: number }) => r.id === id);
      expect(done).toMatchObject({ status: 'accepted', direction: 'incoming' });
      expect(done.processedAt).toBeGreaterThanOrEqual(done.createdAt);
      expect((await box(manager, 'done')).list.find((r: { id: number }) => r.id === id)).toMatchObject({
        status: 'accepted',
        direction: 'outgoing',
      });
      expect((await box(buyer.token, 'pending')).list).toEqual([]);

      // a second accept is refused, in the caller's language
      expect(await act(buyer.token, 'accept', id)).toEqual({
        code: 409,
        msg: 'This handover has already been processed.',
        data: null,
      });
      expect((await act(buyer.token, 'accept', id, 'zh-CN')).msg).toBe('该移交已被处理。');

      // the operation log: requested in the old company, accepted in both
      const log = await logOf(set.token);
      expect(log.filter((l) => l.matter.startsWith('log.transfer'))).toEqual([
        { matter: 'log.transferRequested', company_id: companyId, user_id: managerId },
        { matter: 'log.transferAccepted', company_id: elsewhere, user_id: buyer.id },
        { matter: 'log.transferAccepted', company_id: companyId, user_id: buyer.id },
      ]);
      // the other side was told of each step
      expect(events.filter((e) => e.transferId === id)).toEqual([
        expect.objectContaining({ kind: 'transfer.requested', actorUserId: managerId, toUserId: buyer.id }),
        expect.objectContaining({ kind: 'transfer.accepted', actorUserId: buyer.id, fromUserId: managerId }),
      ]);
      // the new owner's set page shows the handover in its recent operations, in their language
      const info = await call(t.app, 'POST', '/genset/info', {
        token: buyer.token,
        body: { token: set.token },
      });
      expect(JSON.stringify(info.data)).toContain('Accepted “');
    } finally {
      await module.close();
    }
  });

  it('a kept subscription leaves the set in the sender’s list with the rights kept', async () => {
    for (const keep of ['view', 'control'] as const) {
      const set = await addSet(manager);
      const buyer = await newUser('personal', elsewhere);
      const sent = await handOver(manager, { token: set.token, account: buyer.account, keepSubscription: keep });
      expect(sent.code, sent.msg).toBe(200);
      expect((await act(buyer.token, 'accept', sent.data.id)).code).toBe(200);
      const row = (await call(t.app, 'POST', '/genset/mylist', { token: manager, body: { size: 50 } })).data.list.find(
        (s: { token: string }) => s.token === set.token,
      );
      expect(row).toMatchObject({ rights: keep, owned: false });
      expect(await myTokens(buyer.token)).toEqual([set.token]);
      // the receiver sees the sender as a subscriber of their set
      const subs = await call(t.app, 'POST', '/sub/list', { token: buyer.token, body: { token: set.token } });
      expect(subs.data.list).toMatchObject([{ rights: keep }]);
    }
  });

  it('within one company: the sender’s list loses the set, the receiver’s own subscription gives way to owning it', async () => {
    // a personal user (no company-wide rights) first receives a set, then hands it on
    const first = await newUser('personal');
    const second = await newUser('personal');
    const set = await addSet(manager);
    const a = await handOver(manager, { token: set.token, account: first.account });
    expect((await act(first.token, 'accept', a.data.id)).code).toBe(200);
    expect(await myTokens(first.token)).toEqual([set.token]);
    const codes = await call(t.app, 'POST', '/genset/info', { token: first.token, body: { token: set.token } });
    // the second user already follows the set by its code
    const sub = await call(t.app, 'POST', '/sub/add', {
      token: second.token,
      body: { code: codes.data.subscriptionCode },
    });
    expect(sub.code, sub.msg).toBe(200);
    const b = await handOver(first.token, { token: set.token, account: second.account, remark: 'Yours from Monday' });
    expect(b.code, b.msg).toBe(200);
    expect((await box(second.token, 'pending')).list[0]).toMatchObject({ remark: 'Yours from Monday' });
    expect((await act(second.token, 'accept', b.data.id)).code).toBe(200);
    expect(await myTokens(first.token)).toEqual([]);
    const mine = (await call(t.app, 'POST', '/genset/mylist', { token: second.token, body: {} })).data.list;
    expect(mine).toMatchObject([{ token: set.token, rights: 'manage', owned: true }]);
    const subscriptions = await t.app.database.db
      .selectFrom('subscription')
      .select('user_id')
      .where('genset_id', '=', (await t.app.devices.fleet.byToken(set.token))!.id)
      .execute();
    expect(subscriptions).toEqual([]);
    expect((await ownerOf(set.token)).company_id).toBe(companyId);
  });
});

describe('reject and revoke', () => {
  it('a rejected handover leaves everything as it was and cannot be accepted afterwards', async () => {
    const set = await addSet(manager);
    const buyer = await newUser('personal', elsewhere);
    const before = await ownerOf(set.token);
    const sent = await handOver(manager, { token: set.token, account: buyer.account, keepSubscription: 'view' });
    const id = sent.data.id as number;
    // only the receiver answers; strangers do not learn the record exists
    expect(await act(manager, 'reject', id)).toMatchObject({
      code: 409,
      msg: 'Only the receiver can accept or reject this handover.',
    });
    expect(await act(manager, 'accept', id)).toMatchObject({ code: 409 });
    const stranger = await newUser('personal');
    expect((await act(stranger.token, 'accept', id)).code).toBe(404);
    expect((await act(stranger.token, 'revoke', id)).code).toBe(404);

    expect(await act(buyer.token, 'reject', id)).toMatchObject({ code: 200, msg: 'Handover rejected.' });
    expect(await ownerOf(set.token)).toEqual(before);
    expect(await myTokens(manager)).toContain(set.token);
    expect(await myTokens(buyer.token)).toEqual([]);
    expect(await act(buyer.token, 'accept', id)).toMatchObject({ code: 409 });
    expect(await act(buyer.token, 'reject', id)).toMatchObject({ code: 409 });
    expect((await box(manager, 'done')).list.find((r: { id: number }) => r.id === id)).toMatchObject({
      status: 'rejected',
    });
    expect((await logOf(set.token)).map((l) => l.matter)).toContain('log.transferRejected');
    expect(events.filter((e) => e.transferId === id).map((e) => e.kind)).toEqual([
      'transfer.requested',
      'transfer.rejected',
    ]);
    // the set may be handed over again
    expect((await handOver(manager, { token: set.token, account: buyer.account })).code).toBe(200);
  });

  it('a revoked handover leaves everything as it was; the receiver can no longer accept it', async () => {
    const set = await addSet(manager);
    const buyer = await newUser('personal', elsewhere);
    const before = await ownerOf(set.token);
    const sent = await handOver(manager, { token: set.token, account: buyer.account });
    const id = sent.data.id as number;
    expect(await act(buyer.token, 'revoke', id)).toMatchObject({
      code: 409,
      msg: 'Only the sender can revoke this handover.',
    });
    expect(await act(manager, 'revoke', id)).toMatchObject({ code: 200, msg: 'Handover revoked.' });
    expect(await act(buyer.token, 'accept', id)).toMatchObject({ code: 409 });
    expect(await act(manager, 'revoke', id)).toMatchObject({ code: 409 });
    expect(await ownerOf(set.token)).toEqual(before);
    expect(await myTokens(buyer.token)).toEqual([]);
    expect((await box(buyer.token, 'done')).list).toMatchObject([{ id, status: 'revoked', direction: 'incoming' }]);
    expect((await logOf(set.token)).map((l) => l.matter)).toContain('log.transferRevoked');
    expect(events.filter((e) => e.transferId === id).map((e) => e.kind)).toEqual([
      'transfer.requested',
      'transfer.revoked',
    ]);
  });

  it('settles a record once: two accepts at once, or an accept racing a revoke, leave one winner', async () => {
    for (const rival of ['accept', 'revoke'] as const) {
      const set = await addSet(manager);
      const buyer = await newUser('personal', elsewhere);
      const id = (await handOver(manager, { token: set.token, account: buyer.account })).data.id as number;
      const results = await Promise.all([
        act(buyer.token, 'accept', id),
        act(rival === 'accept' ? buyer.token : manager, rival, id),
      ]);
      const codes = results.map((r) => r.code).sort();
      expect(codes, JSON.stringify(results)).toEqual([200, 409]);
      const row = await t.app.database.db
        .selectFrom('transfer')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const owner = await ownerOf(set.token);
      if (row.status === 'accepted') expect(owner.owner_user_id).toBe(buyer.id);
      else expect(owner.owner_user_id).toBe(managerId);
    }
  });
});

describe('bad input', () => {
  it('oneself, a set one only views: refused in the caller’s language, nothing stored', async () => {
    const set = await addSet(manager);
    const stored = await transferCount();
    const self = await handOver(manager, { token: set.token, account: ' Manager@Example.com ' });
    expect(self.code).toBe(400);
    const ru = await handOver(manager, { token: set.token, account: 'manager@example.com' }, 'ru-RU');
    expect(ru.code).toBe(400);
    expect(ru.msg).toContain('нельзя передать агрегат самому себе');
    const empty = await handOver(manager, { token: set.token, account: '  ' });
    expect(empty).toMatchObject({ code: 400, msg: 'Receiving account: cannot be empty' });
    const keep = await handOver(manager, { token: set.token, account: 'viewer@example.com', keepSubscription: 'all' });
    expect(keep.code).toBe(400);

    // a subscriber with view rights sees the set, but may not hand it over
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const sub = await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: set.subscriptionCode } });
    expect(sub.code, sub.msg).toBe(200);
    const viewOnly = await handOver(viewer, { token: set.token, account: 'operator@example.com' });
    expect(viewOnly).toEqual({ code: 403, msg: 'Only someone who manages this set can hand it over.', data: null });
    const es = await handOver(viewer, { token: set.token, account: 'operator@example.com' }, 'es-ES');
    expect(es.msg).toBe('Solo quien gestiona este grupo puede traspasarlo.');
    // a set one does not see at all is not found
    const outsider = await newUser('personal', elsewhere);
    expect((await handOver(outsider.token, { token: set.token, account: 'operator@example.com' })).code).toBe(404);
    expect(await transferCount()).toBe(stored);
    expect((await logOf(set.token)).map((l) => l.matter)).not.toContain('log.transferRequested');
  });

  it('answers a handover to an account that does not exist exactly as to one that does', async () => {
    const known = await newUser('personal', elsewhere);
    const ghost = `ghost-${uid()}@example.com`;
    const [toKnown, toGhost] = [await addSet(manager), await addSet(manager)];
    const before = events.length;
    const answers: [Envelope<{ id: number }>, Envelope<{ id: number }>][] = [];
    for (const lang of ['en-US', 'zh-CN', 'tr-TR']) {
      const a = await handOver(manager, { token: toKnown.token, account: known.account }, lang);
      const b = await handOver(manager, { token: toGhost.token, account: ghost }, lang);
      answers.push([a, b]);
      if (lang !== 'tr-TR') {
        expect((await act(manager, 'revoke', a.data.id, lang)).code).toBe(200);
        expect((await act(manager, 'revoke', b.data.id, lang)).code).toBe(200);
      }
    }
    for (const [a, b] of answers) {
      expect(a.data.id).not.toBe(b.data.id);
      expect({ ...b, data: { ...b.data, id: a.data.id } }).toEqual(a);
      expect(Object.keys(b.data)).toEqual(['id']);
    }
    expect(answers[0]![0]).toEqual({
      code: 200,
      msg: 'Handover sent. The set moves once the receiver accepts it.',
      data: { id: expect.any(Number) },
    });
    const [a, b] = answers[2]!;

    // the sender's pending list shows both alike: the name as given, no receiver's nickname
    const pending = (await box(manager, 'pending')).list;
    const mine = (id: number) => pending.find((r: { id: number }) => r.id === id);
    const alike = (r: Record<string, unknown>) => ({
      ...r,
      id: 0,
      token: '',
      gensetName: '',
      createdAt: 0,
      receiver: 0,
    });
    expect(alike(mine(b.data.id))).toEqual(alike(mine(a.data.id)));
    expect(mine(a.data.id).receiver).toEqual({ account: known.account, nickname: '' });
    expect(mine(b.data.id).receiver).toEqual({ account: ghost, nickname: '' });
    // so does a second handover of either set, the operation log, and the revoke
    const again = [
      await handOver(manager, { token: toKnown.token, account: 'viewer@example.com' }),
      await handOver(manager, { token: toGhost.token, account: 'viewer@example.com' }),
    ];
    expect(again[1]).toEqual(again[0]);
    expect(again[0]).toMatchObject({ code: 409 });
    const requested = (setToken: string) =>
      t.app.database.db
        .selectFrom('operation_log')
        .select('feedback')
        .where('target', '=', setToken)
        .where('matter', '=', 'log.transferRequested')
        .execute();
    expect((await requested(toGhost.token)).map((r) => JSON.parse(r.feedback).to)).toEqual([ghost, ghost, ghost]);
    expect((await requested(toKnown.token)).map((r) => JSON.parse(r.feedback).to)).toEqual([
      known.account,
      known.account,
      known.account,
    ]);
    const revoked = [await act(manager, 'revoke', a.data.id), await act(manager, 'revoke', b.data.id)];
    expect(revoked[1]).toEqual({ ...revoked[0], data: { ...revoked[0]!.data, id: b.data.id } });
    expect(revoked[0]).toMatchObject({ code: 200, msg: 'Handover revoked.' });

    // the known receiver was told; about the name nobody holds, nobody is
    const ghostIds = answers.map(([, g]) => g.data.id as number);
    expect(events.slice(before).filter((e) => ghostIds.includes(e.transferId))).toEqual([]);
    expect(events.slice(before).filter((e) => e.kind === 'transfer.requested')).toHaveLength(3);
  });

  it('a set has one untreated handover at a time', async () => {
    const set = await addSet(manager);
    const first = await handOver(manager, { token: set.token, account: 'operator@example.com' });
    expect(first.code, first.msg).toBe(200);
    const stored = await transferCount();
    expect(await handOver(manager, { token: set.token, account: 'viewer@example.com' })).toMatchObject({
      code: 409,
      msg: 'This set already has a handover waiting for an answer.',
    });
    expect(await transferCount()).toBe(stored);
    expect((await act(manager, 'revoke', first.data.id)).code).toBe(200);
    expect((await handOver(manager, { token: set.token, account: 'viewer@example.com' })).code).toBe(200);
  });

  it('the lists page and check their input', async () => {
    const bad = await call(t.app, 'POST', '/genset/transfer/list', { token: manager, body: { box: 'elsewhere' } });
    expect(bad.code).toBe(400);
    const missing = await call(t.app, 'POST', '/genset/transfer/accept', { token: manager, body: {} });
    expect(missing.code).toBe(400);
    const page = await call(t.app, 'POST', '/genset/transfer/list', {
      token: manager,
      body: { box: 'pending', page: 1, size: 10 },
    });
    expect(page.data).toMatchObject({ page: 1, size: 10 });
    expect(page.data.list.length).toBeLessThanOrEqual(10);
  });
});
