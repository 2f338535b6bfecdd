// Subscriptions against a real server: codes give view or control rights (across companies too), a view
// subscriber cannot command a set (403) while a control subscriber can, the owner lists, changes and removes
// subscribers, a subscriber leaves; wrong codes never say whether a set exists and are rate-limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';

let t: TestApp;
let brokerUrl: string;
let manager: string;
let companyId: number;
let seq = 0;
const uid = () => `${Date.now().toString(36)}${seq++}`;

async function addSet(token: string, extra: Record<string, unknown> = {}) {
  const res = await call(t.app, 'POST', '/genset/add', {
    token,
    body: { name: `Sub set ${uid()}`, protocolKey: layoutS.key, ...extra },
  });
  expect(res.code, res.msg).toBe(200);
  return res.data as { token: string; subscriptionCode: string; controlCode: string; modemSecret: string | null };
}

async function newUser(role = 'viewer', company = companyId) {
  const user = await freshUser(t, { companyId: company, role });
  return { ...user, token: await login(t.app, user.account, user.password) };
}

const subscribe = (token: string, code: string) => call(t.app, 'POST', '/sub/add', { token, body: { code } });

beforeAll(async () => {
  t = await createTestApp({ COMMAND_TIMEOUT_MS: '1500' });
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

describe('subscribing with a code', () => {
  it('a subscription code gives view rights, a control code control rights, in any company', async () => {
    const set = await addSet(manager);
    const elsewhere = await createCompany(t, `Far ${uid()}`);
    const viewer = await newUser('personal', elsewhere);
    const res = await subscribe(viewer.token, ` ${set.subscriptionCode.toLowerCase()} `);
    expect(res).toMatchObject({ code: 200, msg: 'Subscribed.', data: { token: set.token, rights: 'view' } });
    expect(
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: viewer.token, body: { token: set.token } })).data,
    ).toMatchObject({
      rights: 'view',
    });
    // the same rights again is a conflict; a control code raises them
    expect((await subscribe(viewer.token, set.subscriptionCode)).code).toBe(409);
    expect((await subscribe(viewer.token, set.controlCode)).data.rights).toBe('control');
    // and a subscription code never lowers them
    expect((await subscribe(viewer.token, set.subscriptionCode)).code).toBe(409);
    const info = await call(t.app, 'POST', '/genset/info', { token: viewer.token, body: { token: set.token } });
    expect(info.data.rights).toBe('control');
  });

  it('the owner cannot subscribe to their own set', async () => {
    const set = await addSet(manager);
    expect(await subscribe(manager, set.controlCode)).toMatchObject({ code: 409, msg: 'This set is already yours.' });
  });

  it('a wrong code says only that it is wrong, for unknown and deleted sets alike', async () => {
    const user = await newUser();
    const set = await addSet(manager);
    await call(t.app, 'POST', '/genset/del', { token: manager, body: { tokens: [set.token] } });
    const unknown = await subscribe(user.token, 'ABCDEFGHJK');
    const deleted = await subscribe(user.token, set.subscriptionCode);
    expect(unknown).toEqual({ code: 400, msg: 'The code is not valid. Check it and try again.', data: null });
    expect(deleted).toEqual(unknown);
    const zh = await call(t.app, 'POST', '/sub/add', { token: user.token, lang: 'zh-CN', body: { code: 'nothing' } });
    expect(zh.msg).toBe('该码无效，请核对后重试。');
    const empty = await subscribe(user.token, '  ');
    expect(empty.code).toBe(400);
    expect(empty.msg).toBe('Subscription or control code: cannot be empty');
  });
});

describe('rights of subscribers on commands', () => {
  let module: FakeModule;
  let set: Awaited<ReturnType<typeof addSet>>;
  beforeAll(async () => {
    const modemId = `CMD-${uid()}`;
    set = await addSet(manager, { modemId });
    module = await connectFakeModule(brokerUrl, modemId, set.modemSecret!);
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) void module.publish('reply', { id: JSON.parse(payload.toString()).id, ok: true });
    });
    await module.publish('hello', { model: 'X1', firmware: '1.0', imei: '', iccid: '', controllers: [] });
    await module.waitFor('plan');
    while (!t.app.devices.transport.connected(modemId)) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => module.close());

  const send = (token: string) =>
    call(t.app, 'POST', '/devicedata/sendaction', { token, body: { token: set.token, action: 'auto' } });

  it('a view subscriber cannot send commands (403); a control subscriber can', async () => {
    const viewer = await newUser('personal');
    await subscribe(viewer.token, set.subscriptionCode);
    expect((await send(viewer.token)).code).toBe(403);
    const controller = await newUser('personal');
    await subscribe(controller.token, set.controlCode);
    expect(await send(controller.token)).toMatchObject({ code: 200, data: { state: 'ok' } });
  });

  it('the owner raises a view subscriber to control, and the subscriber can then command', async () => {
    const user = await newUser('personal');
    await subscribe(user.token, set.subscriptionCode);
    const subs = await call(t.app, 'POST', '/sub/list', { token: manager, body: { token: set.token } });
    const mine = subs.data.list.find((s: { nickname: string }) => s.nickname.startsWith('Tester'));
    expect(mine).toBeDefined();
    const target = subs.data.list.find(
      (s: { account: string }) => s.account === `${user.account.slice(0, 2)}***@example.com`,
    );
    expect(target).toMatchObject({ rights: 'view', token: set.token });
    const res = await call(t.app, 'POST', '/sub/update', {
      token: manager,
      body: { id: target.id, rights: 'control' },
    });
    expect(res.code).toBe(200);
    expect((await send(user.token)).code).toBe(200);
    const rightsInMyList = async () =>
      (await call(t.app, 'POST', '/genset/mylist', { token: user.token, body: {} })).data.list.map(
        (r: { rights: string }) => r.rights,
      );
    expect(await rightsInMyList()).toEqual(['control']);
    // and back to view: refused again, and my gensets says so at once
    await call(t.app, 'POST', '/sub/update', { token: manager, body: { id: target.id, rights: 'view' } });
    expect((await send(user.token)).code).toBe(403);
    expect(await rightsInMyList()).toEqual(['view']);
  });
});

describe('managing subscribers', () => {
  it('lists a set’s subscribers for its manager only, with accounts masked, and my own subscriptions', async () => {
    const set = await addSet(manager);
    const a = await newUser();
    const b = await newUser();
    await subscribe(a.token, set.subscriptionCode);
    await subscribe(b.token, set.controlCode);
    const list = await call(t.app, 'POST', '/sub/list', { token: manager, body: { token: set.token, size: 10 } });
    expect(list.data).toMatchObject({ total: 2, page: 1, size: 10 });
    expect(list.data.list.map((s: { rights: string }) => s.rights).sort()).toEqual(['control', 'view']);
    for (const s of list.data.list) expect(s.account).toMatch(/^us\*\*\*@example\.com$/);
    expect((await call(t.app, 'POST', '/sub/list', { token: a.token, body: { token: set.token } })).code).toBe(403);
    const own = await call(t.app, 'POST', '/sub/list', { token: a.token, body: {} });
    expect(own.data.list).toHaveLength(1);
    expect(own.data.list[0]).toMatchObject({ token: set.token, account: a.account, rights: 'view' });
    expect((await call(t.app, 'POST', '/sub/list', { token: a.token, body: { size: 15 } })).code).toBe(400);
  });

  it('only a manager changes rights; not their own, not on a set they cannot see', async () => {
    const set = await addSet(manager);
    const a = await newUser();
    await subscribe(a.token, set.controlCode);
    const id = (await call(t.app, 'POST', '/sub/list', { token: a.token, body: {} })).data.list[0].id;
    expect((await call(t.app, 'POST', '/sub/update', { token: a.token, body: { id, rights: 'manage' } })).code).toBe(
      403,
    );
    const outsider = await newUser('companyAdmin', await createCompany(t, `Out ${uid()}`));
    expect(
      (await call(t.app, 'POST', '/sub/update', { token: outsider.token, body: { id, rights: 'view' } })).code,
    ).toBe(404);
    expect(
      (await call(t.app, 'POST', '/sub/update', { token: manager, body: { id: 99999999, rights: 'view' } })).code,
    ).toBe(404);
    expect((await call(t.app, 'POST', '/sub/update', { token: manager, body: { id, rights: 'owner' } })).code).toBe(
      400,
    );
    // a subscriber raised to manage may manage the others but not raise themself
    await call(t.app, 'POST', '/sub/update', { token: manager, body: { id, rights: 'manage' } });
    expect((await call(t.app, 'POST', '/sub/update', { token: a.token, body: { id, rights: 'view' } })).code).toBe(403);
  });

  it('a subscriber leaves; the owner removes subscribers, at most 20 at once', async () => {
    const set = await addSet(manager);
    const a = await newUser();
    const b = await newUser();
    await subscribe(a.token, set.subscriptionCode);
    await subscribe(b.token, set.subscriptionCode);
    const mylist = (token: string) => call(t.app, 'POST', '/genset/mylist', { token, body: {} });
    expect((await mylist(a.token)).data.total).toBe(1);
    const left = await call(t.app, 'POST', '/sub/del', { token: a.token, body: { token: set.token } });
    expect(left).toMatchObject({ code: 200, data: { deleted: 1 } });
    expect((await mylist(a.token)).data.total).toBe(0);
    expect((await call(t.app, 'POST', '/genset/info', { token: a.token, body: { token: set.token } })).code).toBe(404);
    expect((await call(t.app, 'POST', '/sub/del', { token: a.token, body: { token: set.token } })).code).toBe(404);

    const ids = (await call(t.app, 'POST', '/sub/list', { token: manager, body: { token: set.token } })).data.list.map(
      (s: { id: number }) => s.id,
    );
    expect((await call(t.app, 'POST', '/sub/del', { token: b.token, body: { ids } })).code).toBe(403);
    const tooMany = Array.from({ length: 21 }, (_, i) => i + 1);
    const refused = await call(t.app, 'POST', '/sub/del', { token: manager, lang: 'es-ES', body: { ids: tooMany } });
    expect(refused.code).toBe(400);
    expect(refused.msg).toContain('20');
    expect((await call(t.app, 'POST', '/sub/del', { token: manager, body: {} })).code).toBe(400);
    expect((await call(t.app, 'POST', '/sub/del', { token: manager, body: { ids } })).data.deleted).toBe(1);
    expect((await mylist(b.token)).data.total).toBe(0);
  });
});

describe('subscriptions written in bulk', () => {
  it('a person’s list follows subscriptions added, changed and removed by single statements', async () => {
    // (as a data copy or a hand-made change writes them: the lists learn of them from the per-person counter the
    // database keeps, once a statement on PostgreSQL, read with the session: within the session cache's second)
    const soon = { timeout: 5000 };
    const db = t.app.database.db;
    const follower = await newUser('personal');
    const tokens: string[] = [];
    for (let i = 0; i < 12; i++) tokens.push((await addSet(manager)).token);
    const mylist = async () =>
      (await call(t.app, 'POST', '/genset/mylist', { token: follower.token, body: { size: 20 } })).data;
    expect((await mylist()).total).toBe(0);
    const version = async () =>
      (
        await db
          .selectFrom('users')
          .select('subscriptions_version')
          .where('id', '=', follower.id)
          .executeTakeFirstOrThrow()
      ).subscriptions_version;
    const before = await version();
    const at = Date.now();
    await db
      .insertInto('subscription')
      .columns(['genset_id', 'user_id', 'rights', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('genset')
          .select(['id', eb.val(follower.id).as('user_id'), eb.val('view').as('rights'), eb.val(at).as('created_at')])
          .where('token', 'in', tokens),
      )
      .execute();
    // PostgreSQL moves the counter once for the statement (a row trigger rewrote the person's row for each
    // subscription: minutes for a fleet of 100,000); SQLite, which updates in place, once a row
    expect((await version()) - before).toBe(t.app.database.kind === 'postgres' ? 1 : tokens.length);
    await expect.poll(async () => (await mylist()).total, soon).toBe(tokens.length);
    // their rights raised on every set at once: a command needs control
    await db.updateTable('subscription').set({ rights: 'control' }).where('user_id', '=', follower.id).execute();
    const rights = async () =>
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: follower.token, body: { token: tokens[0] } })).data
        .rights;
    await expect.poll(rights, soon).toBe('control');
    // removed at once: the list is empty again
    await db.deleteFrom('subscription').where('user_id', '=', follower.id).execute();
    await expect.poll(async () => (await mylist()).total, soon).toBe(0);
  });
});

describe('several server instances', () => {
  // Another instance's change reaches this one through the database: the subscriptions version (kept by
  // triggers) is read with the session, which this instance reads again after SESSION_CACHE_MS (1 s).
  it('a subscription written by another instance shows in my gensets within a second, and so do its move and removal', async () => {
    const set = await addSet(manager);
    const user = await newUser();
    const mylist = async () => (await call(t.app, 'POST', '/genset/mylist', { token: user.token, body: {} })).data;
    const tokens = async () => (await mylist()).list.map((s: { token: string; rights: string }) => [s.token, s.rights]);
    const soon = { timeout: 3000, interval: 100 };
    expect((await mylist()).total).toBe(0);
    const db = t.app.database.db;
    const id = (await db.selectFrom('genset').select('id').where('token', '=', set.token).executeTakeFirstOrThrow()).id;
    await db
      .insertInto('subscription')
      .values({ genset_id: id, user_id: user.id, rights: 'control', created_at: Date.now() })
      .execute();
    await expect.poll(tokens, soon).toEqual([[set.token, 'control']]);
    // moved to another set
    const other = await addSet(manager);
    const otherId = (
      await db.selectFrom('genset').select('id').where('token', '=', other.token).executeTakeFirstOrThrow()
    ).id;
    await db
      .updateTable('subscription')
      .set({ genset_id: otherId })
      .where('genset_id', '=', id)
      .where('user_id', '=', user.id)
      .execute();
    await expect.poll(tokens, soon).toEqual([[other.token, 'control']]);
    await db.deleteFrom('subscription').where('genset_id', '=', otherId).where('user_id', '=', user.id).execute();
    await expect.poll(tokens, soon).toEqual([]);
  });
});

describe('wrong codes are rate-limited', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp();
  });
  afterAll(async () => limited.close());

  it('locks an account after five wrong codes and an address after twenty, with retry-after', async () => {
    const owner = await login(limited.app, 'manager@example.com', 'Demo#2026');
    const set = (
      await call(limited.app, 'POST', '/genset/add', {
        token: owner,
        body: { name: 'Target', protocolKey: layoutS.key },
      })
    ).data;
    const userToken = async () => {
      const u = await freshUser(limited, { companyId, role: 'viewer' });
      return login(limited.app, u.account, u.password);
    };
    const sub = (token: string, code: string) => call(limited.app, 'POST', '/sub/add', { token, body: { code } });

    const first = await userToken();
    for (let i = 0; i < 5; i++) expect((await sub(first, `WRONG${i}XXXXX`)).code).toBe(400);
    const locked = await sub(first, 'WRONG5XXXXX');
    expect(locked.code).toBe(429);
    expect(locked.data.retryAfter).toBeGreaterThan(0);
    expect(locked.msg).toBe('Too many wrong codes. Try again in 15 min.');
    // even the right code waits out the lock
    expect((await sub(first, set.subscriptionCode)).code).toBe(429);

    // other accounts from the same address: 20 wrong codes in all lock the address
    let failures = 6;
    let answer = 400;
    while (answer !== 429) {
      const next = await userToken();
      for (let i = 0; i < 4 && answer !== 429; i++) {
        answer = (await sub(next, `MISS${failures++}YYYYY`)).code;
      }
    }
    // the 21st wrong code from the address is the one refused
    expect(failures).toBe(21);
    const fresh = await userToken();
    const blocked = await sub(fresh, set.subscriptionCode);
    expect(blocked.code).toBe(429);
    expect(blocked.msg).toContain('network address');
  });
});
