// Parallel and multi-machine groups through the API: saving (rights, one company, a set on one bus), the
// navigation list and one group's members, the multi-set status of a group; refusals are localised and
// change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutG, layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let manager: string;
let operator: string;
let viewer: string;
let companyId: number;
const sets: Record<string, { token: string; id: number }> = {};

async function addSet(name: string, layout: 'S' | 'G', company: number, owner: number | null) {
  const set = await t.app.devices.fleet.createGenset({
    companyId: company,
    ownerUserId: owner,
    name,
    modemId: null,
    protocolKey: layout === 'S' ? layoutS.key : layoutG.key,
    details: { ratedPowerKw: 400 },
  });
  sets[name] = { token: set.token, id: set.id };
  return set.token;
}

const save = (token: string, body: unknown, lang = 'en-US') =>
  call(t.app, 'POST', '/genset/savedevxml', { token, body, lang });
const groupCount = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('genset_group')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );
const memberCount = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('genset_group_member')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, 'admin@example.com', 'Admin#2026');
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  operator = await login(t.app, 'operator@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const managerId = (await t.app.database.db
    .selectFrom('users')
    .select('id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow())!.id;
  await addSet('Plant A1', 'S', companyId, managerId);
  await addSet('Plant A2', 'G', companyId, managerId);
  await addSet('Plant A3', 'S', companyId, managerId);
  await addSet('Site B1', 'S', companyId, managerId);
  const other = await createCompany(t, 'Other Power Ltd');
  await addSet('Foreign set', 'S', other, null);
});
afterAll(async () => t.close());

describe('saving a group', () => {
  it('the manager makes a parallel group; the navigation list and the group show its sets in order', async () => {
    const res = await save(manager, {
      name: 'Plant A bus',
      kind: 'parallel',
      members: [sets['Plant A2']!.token, sets['Plant A1']!.token],
    });
    expect(res.code, res.msg).toBe(200);
    expect(res.msg).toBe('Group saved.');
    expect(res.data.created).toBe(true);
    const token = res.data.token as string;

    const nav = await call(t.app, 'POST', '/genset/getNav', { token: manager, body: {} });
    const entry = nav.data.list.find((g: any) => g.token === token);
    expect(entry).toMatchObject({ name: 'Plant A bus', kind: 'parallel', rights: 'manage' });
    expect(entry.sets.map((s: any) => s.name)).toEqual(['Plant A2', 'Plant A1']);
    expect(entry.sets[0]).toMatchObject({ status: 0, alarmnum: 0, online: false });

    const item = await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token }, lang: 'zh-CN' });
    expect(item.code, item.msg).toBe(200);
    expect(item.data.members.map((m: any) => [m.name, m.position, m.ratedKw])).toEqual([
      ['Plant A2', 1, 400],
      ['Plant A1', 2, 400],
    ]);
    expect(item.data.items.map((i: any) => i.key)).toContain('gen_kw');
    expect(item.data.items.find((i: any) => i.key === 'gen_kw').name).toBe('有功功率');
    expect(item.data.bus).toEqual({
      live: false,
      voltage: null,
      frequency: null,
      kw: 0,
      kva: 0,
      onLoad: 0,
      members: 2,
    });
    expect(item.data.members[0].values).toHaveProperty('bus_kw', null);

    // reordered, renamed, with items of its own
    const changed = await save(manager, {
      token,
      name: 'Plant A main bus',
      kind: 'parallel',
      members: [sets['Plant A1']!.token, sets['Plant A2']!.token, sets['Plant A3']!.token],
      items: ['gen_kw', 'engine_state'],
    });
    expect(changed.code, changed.msg).toBe(200);
    expect(changed.data).toEqual({ token, created: false });
    const again = await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token } });
    expect(again.data.name).toBe('Plant A main bus');
    expect(again.data.members.map((m: any) => m.name)).toEqual(['Plant A1', 'Plant A2', 'Plant A3']);
    expect(again.data.items.map((i: any) => i.key)).toEqual(['gen_kw', 'engine_state']);
    // the engine state is numbered differently in S and G: each member carries its own texts
    expect(again.data.members[0].labels.engine_state['9']).toBe('On load');
    expect(again.data.members[1].labels.engine_state['4']).toBe('Running');

    // the multi-set status of the group: its members in order, with the group's items
    const multi = await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: manager, body: { group: token } });
    expect(multi.code, multi.msg).toBe(200);
    expect(multi.data.list.map((s: any) => s.name)).toEqual(['Plant A1', 'Plant A2', 'Plant A3']);
    expect(multi.data.list[0].values.map((v: any) => v.key)).toEqual(['gen_kw', 'engine_state']);
  });

  it('a viewer sees the group with view rights and may not change it; a set not theirs hides the group', async () => {
    const group = await save(manager, {
      name: 'Two sites',
      kind: 'multi',
      members: [sets['Plant A1']!.token, sets['Site B1']!.token],
    });
    expect(group.code, group.msg).toBe(200);
    const token = group.data.token as string;
    // the viewer holds view subscriptions to both sets
    const viewerId = (await t.app.database.db
      .selectFrom('users')
      .select('id')
      .where('account', '=', 'viewer@example.com')
      .executeTakeFirstOrThrow())!.id;
    for (const name of ['Plant A1', 'Site B1'])
      await t.app.database.db
        .insertInto('subscription')
        .values({ genset_id: sets[name]!.id, user_id: viewerId, rights: 'view', created_at: Date.now() })
        .execute();
    const nav = await call(t.app, 'POST', '/genset/getNav', { token: viewer, body: { kind: 'multi' } });
    expect(nav.data.list.map((g: any) => [g.name, g.rights])).toEqual([['Two sites', 'view']]);
    const refused = await save(viewer, { token, name: 'Mine now', kind: 'multi', members: [sets['Site B1']!.token] });
    expect(refused.code).toBe(403);
    expect(refused.msg).toBe('You need manage rights on every set of this group.');
    const deleteRefused = await call(t.app, 'POST', '/genset/delZu', { token: viewer, body: { token } });
    expect(deleteRefused.code).toBe(403);

    // a user of the company who sees only sets they own sees no group
    const loner = await freshUser(t, { companyId, role: 'personal' });
    const lonerToken = await login(t.app, loner.account, loner.password);
    expect((await call(t.app, 'POST', '/genset/getNav', { token: lonerToken, body: {} })).data.list).toEqual([]);
    const hidden = await call(t.app, 'POST', '/genset/getZuItem', { token: lonerToken, body: { token } });
    expect(hidden.code).toBe(404);

    const deleted = await call(t.app, 'POST', '/genset/delZu', { token: manager, body: { token } });
    expect(deleted).toMatchObject({ code: 200, msg: 'Group deleted.', data: { deleted: 1 } });
    expect((await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token } })).code).toBe(404);
  });
});

describe('refused saves change nothing', () => {
  it('sets of two companies', async () => {
    const [groups, members] = [await groupCount(), await memberCount()];
    const body = {
      name: 'Across companies',
      kind: 'multi',
      members: [sets['Site B1']!.token, sets['Foreign set']!.token],
    };
    const res = await save(admin, body);
    expect(res.code).toBe(400);
    expect(res.msg).toBe('The sets of a group must all belong to the same company.');
    expect((await save(admin, body, 'ru-RU')).msg).toBe('Все установки группы должны принадлежать одной компании.');
    expect((await save(admin, body, 'zh-TW')).msg).toBe('同一群組的機組必須屬於同一家公司。');
    // nor may an existing group take a set of another company
    const existing = await save(admin, { name: 'Admin multi', kind: 'multi', members: [sets['Site B1']!.token] });
    expect(existing.code, existing.msg).toBe(200);
    const [groupsNow, membersNow] = [await groupCount(), await memberCount()];
    const moved = await save(admin, {
      token: existing.data.token,
      name: 'Admin multi',
      kind: 'multi',
      members: [sets['Foreign set']!.token],
    });
    expect(moved.code).toBe(400);
    expect([await groupCount(), await memberCount()]).toEqual([groupsNow, membersNow]);
    expect(groupsNow).toBe(groups + 1);
    expect(membersNow).toBe(members + 1);
    await call(t.app, 'POST', '/genset/delZu', { token: admin, body: { token: existing.data.token } });
  });

  it('an unknown set, a set not the caller’s, an empty group, a parallel group of one, a set on two buses', async () => {
    const before = [await groupCount(), await memberCount()];

    const unknown = await save(manager, { name: 'Ghosts', kind: 'multi', members: ['NO-SUCH-SET'] });
    expect(unknown).toMatchObject({ code: 404, msg: 'Set NO-SUCH-SET was not found among the sets you can see.' });
    const unknownEs = await save(manager, { name: 'Ghosts', kind: 'multi', members: ['NO-SUCH-SET'] }, 'es-ES');
    expect(unknownEs.msg).toBe('No se encontró el grupo electrógeno NO-SUCH-SET entre los que puede ver.');
    // a set of another company is as unknown to the manager as one that does not exist
    const foreign = await save(manager, { name: 'Ghosts', kind: 'multi', members: [sets['Foreign set']!.token] });
    expect(foreign.code).toBe(404);

    const empty = await save(manager, { name: 'Nothing', kind: 'parallel', members: [] });
    expect(empty.code).toBe(400);
    expect(empty.msg).toBe('Sets: cannot be empty');
    expect(empty.data.fields).toHaveProperty('members');
    expect((await save(manager, { name: 'Nothing', kind: 'parallel', members: [] }, 'zh-CN')).msg).toBe(
      '机组：不能为空',
    );

    const single = await save(manager, { name: 'Lonely', kind: 'parallel', members: [sets['Site B1']!.token] });
    expect(single).toMatchObject({ code: 400, msg: 'A parallel group needs at least two sets.' });

    const twice = await save(manager, {
      name: 'Twice',
      kind: 'multi',
      members: [sets['Site B1']!.token, sets['Site B1']!.token],
    });
    expect(twice).toMatchObject({ code: 400, msg: 'A set is listed twice in the group.' });

    const badKind = await save(manager, { name: 'Odd', kind: 'serial', members: [sets['Site B1']!.token] });
    expect(badKind.code).toBe(400);
    expect(badKind.msg).toBe('Group type: is not valid');

    const badItem = await save(manager, {
      name: 'Odd items',
      kind: 'multi',
      members: [sets['Site B1']!.token],
      items: ['no_such_item'],
    });
    expect(badItem).toMatchObject({ code: 400, msg: 'No set of this group measures the data item no_such_item.' });

    // Plant A1 already feeds the "Plant A main bus"
    const secondBus = await save(manager, {
      name: 'Second bus',
      kind: 'parallel',
      members: [sets['Site B1']!.token, sets['Plant A1']!.token],
    });
    expect(secondBus).toMatchObject({
      code: 409,
      msg: 'Plant A1 already feeds the bus of the parallel group Plant A main bus.',
    });
    const sameName = await save(manager, {
      name: 'Plant A main bus',
      kind: 'multi',
      members: [sets['Site B1']!.token],
    });
    expect(sameName).toMatchObject({ code: 409, msg: 'A group named Plant A main bus already exists.' });

    // the operator controls the sets but does not manage them
    const notManager = await save(operator, {
      name: 'Operator group',
      kind: 'multi',
      members: [sets['Site B1']!.token],
    });
    expect(notManager).toMatchObject({ code: 403, msg: 'You need manage rights on Site B1 to put it in a group.' });

    expect([await groupCount(), await memberCount()]).toEqual(before);
  });
});

describe('the API document', () => {
  it('describes the group calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/yewu/docs/json' });
    const paths = Object.keys(res.json().paths);
    for (const path of ['/genset/getNav', '/genset/getZuItem', '/genset/savedevxml', '/genset/delZu'])
      expect(paths).toContain(`/yewu${path}`);
  });
});
