// Roles, member invitations and the operation log against a real server: role CRUD and its refusals, a disabled
// or deleted role granting nothing at once, the custom scope's sets held to the company; invitations refused once
// expired, used up or revoked, approval giving the chosen role and department, rejection giving nothing; the log
// page's filters and XLSX file; and one log entry for each kind of write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import { createUser } from '../src/seed/base.ts';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';

let t: TestApp;
let companyA: number;
let companyB: number;
let adminA: string;
let adminB: string;
let departmentA: number;
let seq = 0;
const uid = () => `${Date.now().toString(36)}${seq++}`;

/** A self-registered personal account of the platform company (no company role yet). */
async function personal() {
  const db = t.app.database.db;
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('company_id', '=', 1)
    .where('role_key', '=', 'personal')
    .executeTakeFirstOrThrow();
  const account = `person${uid()}@example.com`;
  const id = await createUser(db, {
    companyId: 1,
    roleId: role.id,
    account,
    password: 'Start#2026',
    nickname: `P ${seq}`,
    type: 'personal',
  });
  return { id, account, token: await login(t.app, account, 'Start#2026') };
}

async function addSet(token: string) {
  const res = await call(t.app, 'POST', '/genset/add', {
    token,
    body: { name: `Set ${uid()}`, protocolKey: layoutS.key },
  });
  expect(res.code, res.msg).toBe(200);
  return res.data as { token: string; subscriptionCode: string; controlCode: string };
}

async function saveRole(token: string, body: Record<string, unknown>, lang = 'en-US') {
  return call(t.app, 'POST', '/role/save', {
    token,
    lang,
    body: { name: `Role ${uid()}`, permissions: ['genset:view'], dataScope: 'department', ...body },
  });
}

async function invite(token: string, body: Record<string, unknown> = {}) {
  const res = await call(t.app, 'POST', '/invite/create', {
    token,
    body: { expiresAt: Date.now() + 3_600_000, maxUses: 5, ...body },
  });
  expect(res.code, res.msg).toBe(200);
  return res.data as { id: number; code: string; link: string };
}

async function logCount(where: { userId?: number; matter?: string } = {}) {
  let q = t.app.database.db.selectFrom('operation_log').select((e) => e.fn.countAll<number>().as('n'));
  if (where.userId) q = q.where('user_id', '=', where.userId);
  if (where.matter) q = q.where('matter', '=', where.matter);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await createCompany(t, `Roles A ${uid()}`);
  companyB = await createCompany(t, `Roles B ${uid()}`);
  const a = await freshUser(t, { companyId: companyA, role: 'companyAdmin' });
  const b = await freshUser(t, { companyId: companyB, role: 'companyAdmin' });
  adminA = await login(t.app, a.account, a.password);
  adminB = await login(t.app, b.account, b.password);
  const dep = await t.app.database.db
    .insertInto('department')
    .values({ company_id: companyA, parent_id: null, name: 'Field service', sort: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  departmentA = dep.id;
});

afterAll(async () => {
  await t?.close();
});

describe('roles', () => {
  it('creates, lists, reads and edits a role; one without permissions is refused in the caller’s language', async () => {
    const name = `Dispatch ${uid()}`;
    const saved = await saveRole(adminA, {
      name,
      permissions: ['genset:view', 'alarm:view'],
      menus: ['gensets', 'myGensets'],
    });
    expect(saved.code, saved.msg).toBe(200);
    const id = saved.data.id as number;

    const list = await call(t.app, 'GET', '/role/list', { token: adminA, query: { name: name.slice(0, 10) } });
    expect(list.data.list).toEqual([expect.objectContaining({ id, name, builtIn: false, users: 0, status: 1 })]);
    const all = await call(t.app, 'GET', '/role/list', { token: adminA, lang: 'zh-CN' });
    expect(all.data.list.map((r: { name: string }) => r.name)).toContain('公司管理员');

    const info = await call(t.app, 'GET', `/role/info/${id}`, { token: adminA });
    expect(info.data).toMatchObject({ permissions: ['genset:view', 'alarm:view'], dataScope: 'department' });
    expect(info.data.menus).toEqual(expect.arrayContaining(['gensets', 'myGensets', 'gensetDetail']));

    const updated = await call(t.app, 'POST', '/role/update', {
      token: adminA,
      body: { id, name: `${name} 2`, permissions: ['genset:view'], dataScope: 'company' },
    });
    expect(updated.code, updated.msg).toBe(200);
    expect((await call(t.app, 'GET', `/role/info/${id}`, { token: adminA })).data).toMatchObject({
      name: `${name} 2`,
      dataScope: 'company',
      menus: ['*'],
    });

    const empty = await saveRole(adminA, { permissions: [] });
    expect(empty).toMatchObject({ code: 400, msg: 'Permissions: choose at least one permission' });
    const emptyZh = await saveRole(adminA, { permissions: [] }, 'zh-CN');
    expect(emptyZh.code).toBe(400);
    expect(emptyZh.msg).toContain('请至少选择一项权限');
    const all2 = await saveRole(adminA, { dataScope: 'all' });
    expect(all2.code).toBe(400);
    const taken = await saveRole(adminA, { name: `${name} 2` });
    expect(taken).toMatchObject({ code: 409, msg: `A role named ${name} 2 already exists.` });

    // another company's role is not found, whatever the call
    expect((await call(t.app, 'GET', `/role/info/${id}`, { token: adminB })).code).toBe(404);
    expect((await call(t.app, 'POST', '/role/delete', { token: adminB, body: { id } })).code).toBe(404);
    expect((await call(t.app, 'POST', '/user/roleStatus', { token: adminB, body: { id, status: 0 } })).code).toBe(404);

    // without role:manage
    const op = await freshUser(t, { companyId: companyA, role: 'operator' });
    const opToken = await login(t.app, op.account, op.password);
    expect((await call(t.app, 'GET', '/role/list', { token: opToken })).code).toBe(403);
    expect((await saveRole(opToken, {})).code).toBe(403);
  });

  it('built-in roles cannot be deleted; a role anyone holds cannot be deleted, with the count', async () => {
    const roles = await call(t.app, 'GET', '/role/list', { token: adminA, query: { size: '50' } });
    const viewer = roles.data.list.find((r: { roleKey: string }) => r.roleKey === 'viewer');
    const builtIn = await call(t.app, 'POST', '/role/delete', { token: adminA, body: { id: viewer.id } });
    expect(builtIn).toMatchObject({ code: 403, msg: 'Built-in roles cannot be deleted.' });
    const admin = roles.data.list.find((r: { roleKey: string }) => r.roleKey === 'companyAdmin');
    expect(
      (await call(t.app, 'POST', '/user/roleStatus', { token: adminA, body: { id: admin.id, status: 0 } })).code,
    ).toBe(403);

    const id = (await saveRole(adminA, {})).data.id as number;
    for (let i = 0; i < 2; i++)
      await createUser(t.app.database.db, {
        companyId: companyA,
        roleId: id,
        account: `holder${uid()}@example.com`,
        password: 'Start#2026',
        nickname: 'Holder',
      });
    const inUse = await call(t.app, 'POST', '/role/delete', { token: adminA, body: { id } });
    expect(inUse).toMatchObject({ code: 409, msg: 'This role is held by 2 people; give them another role first.' });
    expect((await call(t.app, 'GET', `/role/info/${id}`, { token: adminA })).data.users).toBe(2);
  });

  it('a custom scope takes the company’s sets only, naming one of another company', async () => {
    const own = await addSet(adminA);
    const foreign = await addSet(adminB);
    const refused = await saveRole(adminA, { dataScope: 'custom', sets: [own.token, foreign.token] });
    expect(refused).toMatchObject({ code: 400, msg: `The set ${foreign.token} is not one of this company’s sets.` });
    const none = await saveRole(adminA, { dataScope: 'custom' });
    expect(none.code).toBe(400);
    const ok = await saveRole(adminA, { dataScope: 'custom', sets: [own.token] });
    expect(ok.code, ok.msg).toBe(200);
    const rows = await t.app.database.db
      .selectFrom('role_target')
      .selectAll()
      .where('role_id', '=', ok.data.id)
      .execute();
    expect(rows).toEqual([expect.objectContaining({ kind: 'set' })]);
    expect((await call(t.app, 'GET', `/role/info/${ok.data.id}`, { token: adminA })).data.sets).toEqual([own.token]);

    const editor = await call(t.app, 'GET', '/role/getDataAuthRole', { token: adminA, lang: 'zh-CN' });
    expect(editor.data.sets.map((s: { token: string }) => s.token)).toContain(own.token);
    expect(editor.data.sets.map((s: { token: string }) => s.token)).not.toContain(foreign.token);
    expect(editor.data.dataScopes.map((s: { value: string }) => s.value)).not.toContain('all');
    const actions = editor.data.tree.find((n: { key: string }) => n.key === 'actions');
    expect(actions.children).toContainEqual({ key: 'perm:genset:view', title: '查看机组', children: [] });
  });

  it('a disabled role grants nothing at once, a deleted role cannot be given', async () => {
    const id = (await saveRole(adminA, { permissions: ['log:view'] })).data.id as number;
    const account = `holder${uid()}@example.com`;
    await createUser(t.app.database.db, {
      companyId: companyA,
      roleId: id,
      account,
      password: 'Start#2026',
      nickname: 'H',
    });
    const token = await login(t.app, account, 'Start#2026');
    expect((await call(t.app, 'GET', '/log/list', { token })).code).toBe(200);

    expect((await call(t.app, 'POST', '/user/roleStatus', { token: adminA, body: { id, status: 0 } })).code).toBe(200);
    expect((await call(t.app, 'GET', '/log/list', { token })).code).toBe(403);
    expect((await call(t.app, 'GET', '/user/info', { token })).data.permissions).toEqual([]);
    expect((await call(t.app, 'POST', '/user/roleStatus', { token: adminA, body: { id, status: 1 } })).code).toBe(200);
    expect((await call(t.app, 'GET', '/log/list', { token })).code).toBe(200);

    // an edit counts at once too
    await call(t.app, 'POST', '/role/update', {
      token: adminA,
      body: { id, name: `Edited ${uid()}`, permissions: ['genset:view'], dataScope: 'self' },
    });
    expect((await call(t.app, 'GET', '/log/list', { token })).code).toBe(403);

    const gone = (await saveRole(adminA, {})).data.id as number;
    expect((await call(t.app, 'POST', '/role/delete', { token: adminA, body: { id: gone } })).code).toBe(200);
    expect((await call(t.app, 'GET', `/role/info/${gone}`, { token: adminA })).code).toBe(404);
    const inv = await call(t.app, 'POST', '/invite/create', {
      token: adminA,
      body: { expiresAt: Date.now() + 60_000, maxUses: 1, roleId: gone },
    });
    expect(inv).toMatchObject({ code: 400, msg: 'Role: is not a role of this company' });
  });

  it('someone who manages people but not roles reads the roles to give one, and cannot change them', async () => {
    const id = (await saveRole(adminA, { permissions: ['user:manage'], dataScope: 'company' })).data.id as number;
    const account = `people${uid()}@example.com`;
    await createUser(t.app.database.db, {
      companyId: companyA,
      roleId: id,
      account,
      password: 'Start#2026',
      nickname: 'U',
    });
    const token = await login(t.app, account, 'Start#2026');
    const list = await call(t.app, 'GET', '/role/list', { token, query: { page: '1', size: '50' } });
    expect(list.code).toBe(200);
    expect(list.data.list.map((r: { id: number }) => r.id)).toContain(id);
    expect((await call(t.app, 'GET', `/role/info/${id}`, { token })).code).toBe(403);
    expect((await saveRole(token, {})).code).toBe(403);
    expect((await call(t.app, 'POST', '/role/delete', { token, body: { id } })).code).toBe(403);
  });
});

describe('invitations and applications', () => {
  it('refuses an expired, used-up or revoked invitation with a clear message', async () => {
    const person = await personal();
    const expired = await invite(adminA);
    await t.app.database.db
      .updateTable('invitation')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expired.id)
      .execute();
    const e = await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: expired.code } });
    expect(e).toMatchObject({ code: 400, msg: 'This invitation has expired. Ask for a new link.' });
    const info = await call(t.app, 'GET', `/invite/info/${expired.code}`, { lang: 'zh-CN' });
    expect(info.data).toMatchObject({ state: 'expired', reason: '该邀请已过期，请索取新的链接。' });

    const once = await invite(adminA, { maxUses: 1 });
    expect((await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: once.code } })).code).toBe(
      200,
    );
    const other = await personal();
    const used = await call(t.app, 'POST', '/invite/apply', { token: other.token, body: { code: once.code } });
    expect(used).toMatchObject({
      code: 400,
      msg: 'This invitation has been used as many times as allowed. Ask for a new link.',
    });

    const revoked = await invite(adminA);
    expect((await call(t.app, 'POST', '/invite/revoke', { token: adminA, body: { id: revoked.id } })).code).toBe(200);
    const r = await call(t.app, 'POST', '/invite/apply', {
      token: other.token,
      body: { code: revoked.code },
      lang: 'ru-RU',
    });
    expect(r).toMatchObject({ code: 400, msg: 'Приглашение отозвано. Попросите новую ссылку.' });
    const unknown = await call(t.app, 'POST', '/invite/apply', { token: other.token, body: { code: 'NOSUCHCODE' } });
    expect(unknown).toMatchObject({ code: 404, msg: 'This invitation link does not exist.' });

    const list = await call(t.app, 'GET', '/invite/list', { token: adminA, query: { size: '50' } });
    const byId = new Map(list.data.list.map((i: { id: number }) => [i.id, i]));
    expect(byId.get(once.id)).toMatchObject({ uses: 1, maxUses: 1, state: 'usedUp', link: `/invite/${once.code}` });
    expect(byId.get(revoked.id)).toMatchObject({ state: 'revoked' });
    expect(byId.get(expired.id)).toMatchObject({ state: 'expired' });
    // another company sees none of them
    const b = await call(t.app, 'GET', '/invite/list', { token: adminB });
    expect(b.data.list.map((i: { id: number }) => i.id)).not.toContain(once.id);
  });

  it('approval gives the chosen role and department; the member then has what the role allows', async () => {
    const role = (await saveRole(adminA, { permissions: ['genset:view', 'log:view'], dataScope: 'department' })).data
      .id as number;
    const inv = await invite(adminA, { roleId: role, departmentId: departmentA });
    const person = await personal();
    const applied = await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: inv.code } });
    expect(applied).toMatchObject({ code: 200, data: { status: 'pending' } });
    const again = await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: inv.code } });
    expect(again.code).toBe(409);
    expect((await call(t.app, 'GET', '/log/list', { token: person.token })).code).toBe(403);

    const pending = await call(t.app, 'GET', '/member/list', { token: adminA, query: { status: 'pending' } });
    const app = pending.data.list.find((a: { userId: number }) => a.userId === person.id);
    expect(app).toMatchObject({
      status: 'pending',
      inviteCode: inv.code,
      account: person.account,
      accountType: 'personal',
      accountKind: 'email',
      departmentName: 'Field service',
      reviewedAt: null,
    });
    // another company cannot review it
    expect(
      (await call(t.app, 'POST', '/member/audit', { token: adminB, body: { id: app.id, action: 'reject' } })).code,
    ).toBe(404);
    const noRole = await call(t.app, 'POST', '/member/audit', {
      token: adminA,
      body: { id: app.id, action: 'approve' },
    });
    expect(noRole.code).toBe(400);

    const ok = await call(t.app, 'POST', '/member/audit', {
      token: adminA,
      body: { id: app.id, action: 'approve', roleId: role, departmentId: departmentA },
    });
    expect(ok).toMatchObject({ code: 200, data: { status: 'approved' } });
    const me = await call(t.app, 'GET', '/user/info', { token: person.token });
    expect(me.data.info).toMatchObject({ companyId: companyA, roleId: role, departmentId: departmentA });
    expect(me.data.permissions).toEqual(['genset:view', 'log:view']);
    expect((await call(t.app, 'GET', '/log/list', { token: person.token })).code).toBe(200);
    // the department's set is within reach, another set of the company is not
    const inside = await addSet(adminA);
    const outside = await addSet(adminA);
    const moved = await call(t.app, 'POST', '/genset/setDepartment', {
      token: adminA,
      body: { tokens: [inside.token], departmentId: departmentA },
    });
    expect(moved.code, moved.msg).toBe(200);
    expect(
      (await call(t.app, 'POST', '/genset/info', { token: person.token, body: { token: inside.token } })).code,
    ).toBe(200);
    expect(
      (await call(t.app, 'POST', '/genset/info', { token: person.token, body: { token: outside.token } })).code,
    ).toBe(404);
    const done = await call(t.app, 'GET', '/member/list', { token: adminA, query: { status: 'approved' } });
    expect(done.data.list.find((a: { id: number }) => a.id === app.id).reviewedAt).toBeGreaterThan(0);
    expect(
      (await call(t.app, 'POST', '/member/audit', { token: adminA, body: { id: app.id, action: 'reject' } })).code,
    ).toBe(409);
    const member = await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: inv.code } });
    expect(member.code).toBe(409);
  });

  it('rejection leaves the person without access to the company', async () => {
    const inv = await invite(adminA);
    const person = await personal();
    const applied = await call(t.app, 'POST', '/invite/apply', { token: person.token, body: { code: inv.code } });
    const res = await call(t.app, 'POST', '/member/audit', {
      token: adminA,
      body: { id: applied.data.id, action: 'reject' },
    });
    expect(res).toMatchObject({ code: 200, data: { status: 'rejected' } });
    const me = await call(t.app, 'GET', '/user/info', { token: person.token });
    expect(me.data.info.companyId).toBe(1);
    const held = await t.app.database.db
      .selectFrom('user_company')
      .selectAll()
      .where('user_id', '=', person.id)
      .where('company_id', '=', companyA)
      .execute();
    expect(held).toEqual([]);
  });
});

describe('operation log', () => {
  it('lists the company’s entries newest first with filters, in the reader’s language, and exports them', async () => {
    const op = await freshUser(t, { companyId: companyA, role: 'operator' });
    await login(t.app, op.account, op.password);
    const mine = await call(t.app, 'GET', '/log/list', { token: adminA, query: { keyword: op.account, size: '50' } });
    expect(mine.code, mine.msg).toBe(200);
    expect(mine.data.list.length).toBeGreaterThan(0);
    for (const e of mine.data.list) expect(e.account).toBe(op.account);
    expect(mine.data.list[0]).toMatchObject({ matterKey: 'log.signedIn', matter: 'Signed in' });

    const zh = await call(t.app, 'GET', '/log/list', {
      token: adminA,
      lang: 'zh-CN',
      query: { matter: 'log.roleCreated' },
    });
    expect(zh.data.total).toBeGreaterThan(0);
    for (const e of zh.data.list) expect(e.matter).toMatch(/^创建角色“/);
    const times = zh.data.list.map((e: { time: number }) => e.time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(zh.data.matters).toContainEqual({ key: 'log.roleCreated', title: '创建角色“…”' });

    const future = await call(t.app, 'GET', '/log/list', {
      token: adminA,
      query: { start: String(Date.now() + 60_000) },
    });
    expect(future.data).toMatchObject({ total: 0, list: [] });
    // company B's log holds none of company A's entries
    const b = await call(t.app, 'GET', '/log/list', { token: adminB, query: { keyword: op.account } });
    expect(b.data.total).toBe(0);
    const viewer = await freshUser(t, { companyId: companyA, role: 'viewer' });
    expect(
      (await call(t.app, 'GET', '/log/list', { token: await login(t.app, viewer.account, viewer.password) })).code,
    ).toBe(403);

    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/log/export',
      payload: { matter: 'log.roleCreated' },
      headers: {
        'x-time': time,
        'x-token': adminA,
        'x-sign': computeSign(adminA, time, DEFAULT_SIGN_SECRET),
        'accept-language': 'es-ES',
        'x-timezone': 'Europe/Madrid',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Hora (Europe/Madrid)', 'Cuenta', 'Apodo', 'Asunto', 'Objeto', 'Dirección IP']);
    expect(rows.length - 1).toBe(zh.data.total);
    expect(String(rows[1]![3])).toMatch(/^Rol «/);
  });

  it('every kind of write leaves exactly one entry', async () => {
    const u = await freshUser(t, { companyId: companyA, role: 'companyAdmin' });
    const count = () => logCount({ userId: u.id });
    const expectOne = async (before: number, matter: string) => {
      expect(await count()).toBe(before + 1);
      const last = await t.app.database.db
        .selectFrom('operation_log')
        .select(['matter', 'company_id'])
        .where('user_id', '=', u.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last).toEqual({ matter, company_id: companyA });
    };

    let before = await count();
    const token = await login(t.app, u.account, u.password);
    await expectOne(before, 'log.signedIn');

    before = await count();
    const set = await addSet(token);
    await expectOne(before, 'log.gensetAdded');

    // the account itself
    before = await count();
    expect((await call(t.app, 'POST', '/user/updateProfile', { token, body: { nickname: 'Renamed' } })).code).toBe(200);
    await expectOne(before, 'log.profileChanged');

    // a group of sets, changed and deleted
    before = await count();
    const group = await call(t.app, 'POST', '/genset/savedevxml', {
      token,
      body: { name: `Group ${uid()}`, kind: 'multi', members: [set.token] },
    });
    expect(group.code, group.msg).toBe(200);
    await expectOne(before, 'log.groupCreated');
    before = await count();
    await call(t.app, 'POST', '/genset/delZu', { token, body: { token: group.data.token } });
    await expectOne(before, 'log.groupDeleted');

    // a subscription: another person of the company subscribes with the set's code
    const sub = await freshUser(t, { companyId: companyA, role: 'viewer' });
    const subToken = await login(t.app, sub.account, sub.password);
    const subBefore = await logCount({ userId: sub.id });
    expect(
      (await call(t.app, 'POST', '/sub/add', { token: subToken, body: { code: set.subscriptionCode } })).code,
    ).toBe(200);
    expect(await logCount({ userId: sub.id })).toBe(subBefore + 1);

    before = await count();
    const role = await saveRole(token, {});
    await expectOne(before, 'log.roleCreated');
    before = await count();
    await call(t.app, 'POST', '/user/roleStatus', { token, body: { id: role.data.id, status: 0 } });
    await expectOne(before, 'log.roleDisabled');
    before = await count();
    await call(t.app, 'POST', '/role/delete', { token, body: { id: role.data.id } });
    await expectOne(before, 'log.roleDeleted');
    before = await count();
    const inv = await invite(token);
    await expectOne(before, 'log.inviteCreated');
    before = await count();
    await call(t.app, 'POST', '/invite/revoke', { token, body: { id: inv.id } });
    await expectOne(before, 'log.inviteRevoked');

    // a refused write leaves nothing
    before = await count();
    await saveRole(token, { permissions: [] });
    expect(await count()).toBe(before);

    before = await count();
    expect((await call(t.app, 'POST', '/logout', { token })).code).toBe(200);
    await expectOne(before, 'log.signedOut');
  });
});
