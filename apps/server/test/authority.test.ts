// The authority rule of administrative writes against a real server: a people manager cannot give themselves or
// anyone a role beyond what they hold, nor reset, disable or edit someone who holds more; a role editor cannot
// widen their own role or any role beyond their reach; registering with a member's invite code or on a company's
// host name only applies to join. Each refusal is a 403 naming what lies beyond reach in the caller's language,
// changes nothing and is in the operation log; each allowed call answers exactly as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, type Language } from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';
import { call, createTestApp, lastCode, login, type TestApp } from './helpers.ts';
import { company, department, PASSWORD, person, role, set } from './support/authority-company.ts';

let t: TestApp;
let co: Awaited<ReturnType<typeof company>>;
const d = { north: 0, service: 0, south: 0 };
const people: Record<string, { id: number; account: string; token: string }> = {};
const roles = { deskOnly: 0, southDesk: 0, roleDesk: 0, viewers: 0, southOps: 0 };
let northSet: { id: number; token: string; name: string };

const db = () => t.app.database.db;
const permission = (lang: Language, p: string) =>
  translate(lang, 'authority.permission', { permission: translate(lang, `permissions.${p}`) });

async function signIn(name: string, roleId: number | null, departmentId: number | null) {
  const p = await person(db(), co.id, roleId, departmentId);
  people[name] = { ...p, token: await login(t.app, p.account, PASSWORD) };
  return people[name];
}

async function roleOf(userId: number) {
  return db()
    .selectFrom('user_company')
    .select(['role_id', 'department_id'])
    .where('user_id', '=', userId)
    .where('company_id', '=', co.id)
    .executeTakeFirstOrThrow();
}

/** The company's refused-attempt entries in the operation log. */
async function refusals() {
  return db()
    .selectFrom('operation_log')
    .select(['user_id', 'feedback', 'target'])
    .where('company_id', '=', co.id)
    .where('matter', '=', 'log.adminRefused')
    .orderBy('id')
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  co = await company(db(), `Authority ${Date.now()}`);
  d.north = await department(db(), co.id, 'North', null);
  d.service = await department(db(), co.id, 'North service', d.north);
  d.south = await department(db(), co.id, 'South', null);
  roles.deskOnly = await role(db(), co.id, 'Desk only', ['user:manage'], 'company');
  roles.southDesk = await role(
    db(),
    co.id,
    'South desk',
    ['user:manage', 'genset:view', 'alarm:view', 'site:view'],
    'department',
  );
  roles.roleDesk = await role(db(), co.id, 'Role desk', ['role:manage', 'genset:view'], 'self');
  roles.viewers = await role(db(), co.id, 'Viewers', ['genset:view'], 'self');
  roles.southOps = await role(db(), co.id, 'Ops', ['genset:view', 'alarm:view'], 'department');
  await signIn('admin', co.builtIn.companyAdmin!, d.north);
  await signIn('desk', roles.deskOnly, null);
  await signIn('south', roles.southDesk, d.south);
  await signIn('roles', roles.roleDesk, null);
  await signIn('viewer', co.builtIn.viewer!, d.north);
  await signIn('southViewer', co.builtIn.viewer!, d.south);
  northSet = await set(db(), co.id, 'North set', d.north);
});

afterAll(async () => {
  await t?.close();
});

describe('people managers give no more than they hold (finding 1)', () => {
  it('refuses a user:manage-only role making itself company administrator, in zh-CN, changing nothing', async () => {
    const before = await refusals();
    const res = await call(t.app, 'POST', '/user/updateUserid', {
      token: people.desk!.token,
      lang: 'zh-CN',
      body: { userId: people.desk!.id, roleId: co.builtIn.companyAdmin },
    });
    expect(res).toEqual({ code: ResultCode.forbidden, msg: translate('zh-CN', 'authority.ownRole'), data: null });
    expect(res.msg).toBe('不允许：任何人都不能修改自己的角色或其权限。');
    expect(await roleOf(people.desk!.id)).toEqual({ role_id: roles.deskOnly, department_id: null });
    const info = await call(t.app, 'GET', '/user/info', { token: people.desk!.token });
    expect(info.data.permissions).toEqual(['user:manage']);
    const after = await refusals();
    expect(after.slice(before.length)).toEqual([
      {
        user_id: people.desk!.id,
        feedback: JSON.stringify({ attempt: '/user/updateUserid', reason: 'own role' }),
        target: `user:${people.desk!.id}`,
      },
    ]);
  });

  it('refuses giving someone else the administrator role, naming the first permission beyond reach', async () => {
    for (const lang of ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'] as const) {
      const res = await call(t.app, 'POST', '/user/updateUserid', {
        token: people.desk!.token,
        lang,
        body: { userId: people.viewer!.id, roleId: co.builtIn.companyAdmin },
      });
      expect(res).toEqual({ code: ResultCode.forbidden, msg: permission(lang, 'genset:view'), data: null });
    }
    expect(permission('en-US', 'genset:view')).toBe('Not allowed: the permission “View sets” is beyond what you hold.');
    expect(await roleOf(people.viewer!.id)).toEqual({ role_id: co.builtIn.viewer, department_id: d.north });
  });

  it('refuses resetting the company administrator’s password (ru-RU); the old password still signs in', async () => {
    const before = (await refusals()).length;
    const res = await call(t.app, 'POST', '/user/resetpassword', {
      token: people.desk!.token,
      lang: 'ru-RU',
      body: { userId: people.admin!.id, password: 'Taken#2026x' },
    });
    expect(res).toEqual({ code: ResultCode.forbidden, msg: permission('ru-RU', 'genset:view'), data: null });
    expect(await login(t.app, people.admin!.account, PASSWORD)).toHaveLength(43);
    expect(
      (await call(t.app, 'POST', '/user/login', { body: { username: people.admin!.account, password: 'Taken#2026x' } }))
        .code,
    ).toBe(400);
    // the administrator's session was not ended
    expect((await call(t.app, 'GET', '/user/info', { token: people.admin!.token })).code).toBe(200);
    expect((await refusals()).slice(before)).toEqual([
      {
        user_id: people.desk!.id,
        feedback: JSON.stringify({ attempt: '/user/resetpassword', reason: 'genset:view' }),
        target: `user:${people.admin!.id}`,
      },
    ]);
  });

  it('refuses disabling and editing someone who holds more; refuses add, update, invitations and approval beyond reach', async () => {
    const desk = people.desk!.token;
    const off = await call(t.app, 'POST', '/user/userStatus', {
      token: desk,
      body: { userId: people.admin!.id, status: 'disabled' },
    });
    expect(off).toEqual({ code: 403, msg: permission('en-US', 'genset:view'), data: null });
    const account = `added${Date.now()}@example.com`;
    const add = await call(t.app, 'POST', '/user/add', {
      token: desk,
      lang: 'es-ES',
      body: { account, roleId: co.builtIn.operator, password: 'Temp#2026x' },
    });
    expect(add).toEqual({ code: 403, msg: permission('es-ES', 'genset:view'), data: null });
    expect(
      await db().selectFrom('users').select('id').where('account', '=', account).executeTakeFirst(),
    ).toBeUndefined();
    const update = await call(t.app, 'POST', '/user/update', {
      token: people.south!.token,
      lang: 'tr-TR',
      body: { userId: people.southViewer!.id, roleId: co.builtIn.operator },
    });
    // the operator role controls sets; the South desk only views them
    expect(update).toEqual({ code: 403, msg: permission('tr-TR', 'genset:control'), data: null });
    expect(await roleOf(people.southViewer!.id)).toEqual({ role_id: co.builtIn.viewer, department_id: d.south });

    const invitations = async () =>
      (await db().selectFrom('invitation').select('id').where('company_id', '=', co.id).execute()).length;
    const before = await invitations();
    const inv = await call(t.app, 'POST', '/invite/create', {
      token: desk,
      body: { expiresAt: Date.now() + 86_400_000, maxUses: 5, roleId: co.builtIn.companyAdmin },
    });
    expect(inv).toEqual({ code: 403, msg: permission('en-US', 'genset:view'), data: null });
    expect(await invitations()).toBe(before);

    // an application approved with a role beyond reach stays pending
    const applicant = await person(db(), 1, null, null);
    const { id: applicationId } = await db()
      .insertInto('member_application')
      .values({
        company_id: co.id,
        invitation_id: null,
        invite_code: 'HANDCODE',
        user_id: applicant.id,
        status: 'pending',
        applied_at: Date.now(),
        reviewed_at: null,
        reviewed_by: null,
        role_id: null,
        department_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const approve = await call(t.app, 'POST', '/member/audit', {
      token: desk,
      lang: 'zh-TW',
      body: { id: applicationId, action: 'approve', roleId: co.builtIn.companyAdmin },
    });
    expect(approve).toEqual({ code: 403, msg: permission('zh-TW', 'genset:view'), data: null });
    const row = await db()
      .selectFrom('member_application')
      .select(['status', 'role_id'])
      .where('id', '=', applicationId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', role_id: null });
    expect(
      await db().selectFrom('user_company').select('company_id').where('user_id', '=', applicant.id).execute(),
    ).toEqual([{ company_id: 1 }]);
  });

  it('keeps a department scope to its department: the South desk places nobody in the North', async () => {
    const res = await call(t.app, 'POST', '/user/updateUserid', {
      token: people.south!.token,
      body: { userId: people.southViewer!.id, roleId: roles.southOps, departmentId: d.north },
    });
    expect(res).toEqual({
      code: 403,
      msg: 'Not allowed: the department “North” is beyond your reach.',
      data: null,
    });
    expect(await roleOf(people.southViewer!.id)).toEqual({ role_id: co.builtIn.viewer, department_id: d.south });
    // within the South it may
    const ok = await call(t.app, 'POST', '/user/updateUserid', {
      token: people.south!.token,
      body: { userId: people.southViewer!.id, roleId: roles.southOps, departmentId: d.south },
    });
    expect(ok).toEqual({ code: 200, msg: 'Saved.', data: null });
    expect(await roleOf(people.southViewer!.id)).toEqual({ role_id: roles.southOps, department_id: d.south });
  });

  it('allows what lies within: a role of no more, added and reset; the company administrator keeps full power', async () => {
    const account = `within${Date.now()}@example.com`;
    const add = await call(t.app, 'POST', '/user/add', {
      token: people.south!.token,
      body: { account, roleId: roles.viewers, departmentId: d.south, password: 'Temp#2026x' },
    });
    expect(add).toEqual({ code: 200, msg: translate('en-US', 'users.added'), data: { id: expect.any(Number) } });
    const reset = await call(t.app, 'POST', '/user/resetpassword', {
      token: people.south!.token,
      body: { userId: add.data.id, password: 'Again#2026x' },
    });
    expect(reset).toEqual({ code: 200, msg: translate('en-US', 'users.passwordSet'), data: null });
    const promote = await call(t.app, 'POST', '/user/updateUserid', {
      token: people.admin!.token,
      body: { userId: people.viewer!.id, roleId: co.builtIn.companyAdmin },
    });
    expect(promote).toEqual({ code: 200, msg: 'Saved.', data: null });
    const resetDesk = await call(t.app, 'POST', '/user/resetpassword', {
      token: people.admin!.token,
      body: { userId: people.desk!.id, password: 'Desk#2026xx' },
    });
    expect(resetDesk.code).toBe(200);
    people.desk!.token = await (async () => {
      await db().updateTable('users').set({ must_change_password: 0 }).where('id', '=', people.desk!.id).execute();
      return login(t.app, people.desk!.account, 'Desk#2026xx');
    })();
  });

  it('lists which roles the caller may give', async () => {
    const list = await call(t.app, 'GET', '/role/list', { token: people.south!.token, query: { size: '50' } });
    const byId = new Map((list.data.list as { id: number; assignable: boolean }[]).map((r) => [r.id, r.assignable]));
    expect(byId.get(co.builtIn.companyAdmin!)).toBe(false);
    expect(byId.get(co.builtIn.operator!)).toBe(false);
    expect(byId.get(roles.viewers)).toBe(true);
    expect(byId.get(roles.southOps)).toBe(true);
    expect(byId.get(roles.southDesk)).toBe(true);
    const admin = await call(t.app, 'GET', '/role/list', { token: people.admin!.token, query: { size: '50' } });
    expect((admin.data.list as { assignable: boolean }[]).every((r) => r.assignable)).toBe(true);
  });
});

describe('role editors widen no role beyond their reach (finding 2)', () => {
  const body = (id: number, dataScope: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: id === roles.roleDesk ? 'Role desk' : 'Viewers',
    permissions: id === roles.roleDesk ? ['role:manage', 'genset:view'] : ['genset:view'],
    dataScope,
    ...extra,
  });

  it('refuses an own-sets role editor setting its own role’s scope to the whole company', async () => {
    const res = await call(t.app, 'POST', '/role/update', {
      token: people.roles!.token,
      lang: 'es-ES',
      body: body(roles.roleDesk, 'company'),
    });
    expect(res).toEqual({ code: 403, msg: translate('es-ES', 'authority.ownRole'), data: null });
    const row = await db()
      .selectFrom('role')
      .select('data_scope')
      .where('id', '=', roles.roleDesk)
      .executeTakeFirstOrThrow();
    expect(row.data_scope).toBe('self');
  });

  it('refuses widening another role’s scope, naming the scope in the caller’s language', async () => {
    const before = (await refusals()).length;
    for (const lang of ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'] as const) {
      const res = await call(t.app, 'POST', '/role/update', {
        token: people.roles!.token,
        lang,
        body: body(roles.viewers, 'company'),
      });
      expect(res).toEqual({
        code: 403,
        msg: translate(lang, 'authority.scope', { scope: translate(lang, 'roles.scope.company') }),
        data: null,
      });
    }
    expect(translate('en-US', 'authority.scope', { scope: translate('en-US', 'roles.scope.company') })).toBe(
      'Not allowed: the data scope “The whole company” is beyond your reach.',
    );
    const row = await db()
      .selectFrom('role')
      .select('data_scope')
      .where('id', '=', roles.viewers)
      .executeTakeFirstOrThrow();
    expect(row.data_scope).toBe('self');
    const logged = (await refusals()).slice(before);
    expect(logged).toHaveLength(6);
    expect(logged[0]).toEqual({
      user_id: people.roles!.id,
      feedback: JSON.stringify({ attempt: '/role/update', reason: 'scope:company' }),
      target: `role:${roles.viewers}`,
    });
  });

  it('refuses creating a wider role, editing a role that holds more, and choosing a set beyond reach', async () => {
    const token = people.roles!.token;
    const count = async () =>
      (await db().selectFrom('role').select('id').where('company_id', '=', co.id).execute()).length;
    const before = await count();
    const wide = await call(t.app, 'POST', '/role/save', {
      token,
      body: { name: 'Wide', permissions: ['genset:view'], dataScope: 'departmentTree' },
    });
    expect(wide).toEqual({
      code: 403,
      msg: translate('en-US', 'authority.scope', { scope: translate('en-US', 'roles.scope.departmentTree') }),
      data: null,
    });
    const chosen = await call(t.app, 'POST', '/role/save', {
      token,
      body: { name: 'Chosen', permissions: ['genset:view'], dataScope: 'custom', sets: [northSet.token] },
    });
    expect(chosen).toEqual({ code: 403, msg: 'Not allowed: the set “North set” is beyond your reach.', data: null });
    const more = await call(t.app, 'POST', '/role/save', {
      token,
      body: { name: 'More', permissions: ['genset:view', 'genset:control'], dataScope: 'self' },
    });
    expect(more).toEqual({ code: 403, msg: permission('en-US', 'genset:control'), data: null });
    expect(await count()).toBe(before);
    // the operator role controls sets: out of this editor's reach, even to disable it
    const off = await call(t.app, 'POST', '/user/roleStatus', {
      token,
      body: { id: co.builtIn.operator, status: 0 },
    });
    expect(off).toEqual({ code: 403, msg: permission('en-US', 'genset:control'), data: null });
    const op = await db()
      .selectFrom('role')
      .select('status')
      .where('id', '=', co.builtIn.operator!)
      .executeTakeFirstOrThrow();
    expect(op.status).toBe(1);
  });

  it('allows editing a role within reach, and offers only the scopes within reach', async () => {
    const ok = await call(t.app, 'POST', '/role/update', {
      token: people.roles!.token,
      body: { ...body(roles.viewers, 'self'), name: 'Viewers of own sets' },
    });
    expect(ok).toEqual({ code: 200, msg: 'Role saved.', data: { id: roles.viewers } });
    const offered = await call(t.app, 'GET', '/role/getDataAuthRole', { token: people.roles!.token });
    expect(offered.data.dataScopes.map((s: { value: string }) => s.value)).toEqual(['self', 'custom']);
    expect(offered.data.sets).toEqual([]);
    const admin = await call(t.app, 'GET', '/role/getDataAuthRole', { token: people.admin!.token });
    expect(admin.data.dataScopes.map((s: { value: string }) => s.value)).toEqual([
      'company',
      'departmentTree',
      'department',
      'self',
      'custom',
    ]);
  });
});

describe('joining a company goes through its members’ review (finding 3)', () => {
  async function register(body: Record<string, unknown>, lang = 'en-US') {
    const account = `joiner${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`;
    await call(t.app, 'POST', '/sendMessage', { body: { username: account, purpose: 'register' } });
    const res = await call(t.app, 'POST', '/user/register', {
      lang,
      body: {
        username: account,
        code: lastCode(t, account),
        newPassword: 'Fresh#2026',
        newPasswords: 'Fresh#2026',
        ...body,
      },
    });
    return { account, res };
  }

  async function seesNothing(token: string) {
    const as = { token, headers: { 'x-companyid': String(co.id) } };
    const info = await call(t.app, 'GET', '/user/info', as);
    expect(info.data.info.companyId).toBe(1);
    expect(info.data.permissions).toEqual(['genset:view', 'genset:control', 'alarm:view']);
    const tree = await call(t.app, 'GET', '/dept/list', as);
    const ids = JSON.stringify(tree.data ?? []);
    for (const id of Object.values(d)) expect(ids).not.toContain(`"id":${id},`);
    const sets = await call(t.app, 'POST', '/genset/mylist', { ...as, body: { size: 50 } });
    expect(sets.code).toBe(200);
    expect(sets.data.list).toEqual([]);
    expect((await call(t.app, 'GET', '/user/list', as)).code).toBe(403);
  }

  it('a member’s personal invite code makes a pending application; nothing of the company until approved', async () => {
    const inviter = await call(t.app, 'GET', '/user/info', { token: people.southViewer!.token });
    const code = inviter.data.info.inviteCode as string;
    const { account, res } = await register({ inviteCode: code }, 'zh-CN');
    expect(res.code).toBe(200);
    expect(res.msg).toBe(translate('zh-CN', 'success.registeredPending', { company: co.id ? await title() : '' }));
    expect(res.data.companyid).toBe(1);
    const token = res.data.utoken as string;
    await seesNothing(token);

    const pending = await call(t.app, 'GET', '/member/list', {
      token: people.admin!.token,
      query: { status: 'pending' },
    });
    const application = (
      pending.data.list as { id: number; account: string; inviteCode: string; status: string }[]
    ).find((a) => a.account === account);
    expect(application).toMatchObject({ status: 'pending', inviteCode: code, roleId: null, departmentId: null });
    const applied = await db()
      .selectFrom('operation_log')
      .select(['matter', 'account'])
      .where('company_id', '=', co.id)
      .where('matter', '=', 'log.memberApplied')
      .where('account', '=', account)
      .execute();
    expect(applied).toEqual([{ matter: 'log.memberApplied', account }]);

    const ok = await call(t.app, 'POST', '/member/audit', {
      token: people.admin!.token,
      body: { id: application!.id, action: 'approve', roleId: roles.viewers, departmentId: d.south },
    });
    expect(ok).toEqual({ code: 200, msg: 'Application approved.', data: { status: 'approved' } });
    const me = await call(t.app, 'GET', '/user/info', { token });
    expect(me.data.info).toMatchObject({ companyId: co.id, roleId: roles.viewers, departmentId: d.south });
  });

  it('the company’s host name at registration makes a pending application too', async () => {
    const host = `authority${Date.now()}.example.org`;
    await db().insertInto('company_host').values({ host, company_id: co.id }).execute();
    const { account, res } = await register({ hostname: host });
    expect(res.code).toBe(200);
    expect(res.msg).toBe(
      `Registration complete. Your application to join ${await title()} is waiting for an administrator’s review.`,
    );
    await seesNothing(res.data.utoken);
    const rows = await db()
      .selectFrom('member_application as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.company_id', 'a.status', 'a.invite_code'])
      .where('u.account', '=', account)
      .execute();
    expect(rows).toEqual([{ company_id: co.id, status: 'pending', invite_code: host }]);
  });

  it('a plain registration applies nowhere', async () => {
    const { account, res } = await register({});
    expect(res).toMatchObject({ code: 200, msg: 'Registration complete. Welcome!', data: { companyid: 1 } });
    const rows = await db()
      .selectFrom('member_application as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('a.id')
      .where('u.account', '=', account)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('department moves stay within reach', () => {
  const tree = { southA: 0, southB: 0 };
  let deptDesk: { id: number; token: string };
  const parentOf = async (id: number) =>
    (await db().selectFrom('department').select('parent_id').where('id', '=', id).executeTakeFirstOrThrow()).parent_id;
  const departmentRefused = (lang: Language, name: string) => translate(lang, 'authority.department', { name });

  beforeAll(async () => {
    tree.southA = await department(db(), co.id, 'South A', d.south);
    tree.southB = await department(db(), co.id, 'South B', d.south);
    const desk = await role(db(), co.id, 'Department desk', ['department:manage'], 'departmentTree');
    deptDesk = await signIn('deptDesk', desk, d.south);
  });

  it('refuses moving another branch under one’s own, in each language, changing nothing and logging it', async () => {
    const before = (await refusals()).length;
    for (const lang of ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'] as const) {
      const res = await call(t.app, 'POST', '/dept/update', {
        token: deptDesk.token,
        lang,
        body: { id: d.north, parentId: d.south, name: 'Taken north' },
      });
      expect(res).toEqual({ code: ResultCode.forbidden, msg: departmentRefused(lang, 'North'), data: null });
    }
    expect(departmentRefused('en-US', 'North')).toBe('Not allowed: the department “North” is beyond your reach.');
    const north = await db()
      .selectFrom('department')
      .select(['name', 'parent_id'])
      .where('id', '=', d.north)
      .executeTakeFirstOrThrow();
    expect(north).toEqual({ name: 'North', parent_id: null });
    expect((await refusals()).slice(before)).toEqual(
      Array.from({ length: 6 }, () => ({
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/update', reason: 'department:North' }),
        target: `department:${d.north}`,
      })),
    );
  });

  it('refuses a department below another branch, and moving one’s own out of reach (to that branch or the top)', async () => {
    const attempts: [number, number | null, string][] = [
      [d.service, d.south, departmentRefused('en-US', 'North service')],
      [tree.southA, d.north, departmentRefused('en-US', 'North')],
      [tree.southA, null, translate('en-US', 'authority.scope', { scope: translate('en-US', 'roles.scope.company') })],
    ];
    for (const [id, parentId, msg] of attempts) {
      const res = await call(t.app, 'POST', '/dept/update', { token: deptDesk.token, body: { id, parentId } });
      expect(res).toEqual({ code: ResultCode.forbidden, msg, data: null });
    }
    expect(await parentOf(d.service)).toBe(d.north);
    expect(await parentOf(tree.southA)).toBe(d.south);
  });

  it('refuses adding, renaming or deleting a department outside one’s scope, changing nothing and logging it', async () => {
    const before = (await refusals()).length;
    const leaf = await department(db(), co.id, 'North depot', d.north);
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('department')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', co.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const departments = await count();
    const company = translate('en-US', 'authority.scope', { scope: translate('en-US', 'roles.scope.company') });
    const attempts: [string, object, string][] = [
      ['/dept/add', { name: 'Outpost', parentId: d.north }, departmentRefused('en-US', 'North')],
      ['/dept/add', { name: 'Outpost' }, company],
      ['/dept/update', { id: d.north, name: 'Renamed north' }, departmentRefused('en-US', 'North')],
      ['/dept/update', { id: leaf, name: 'Renamed depot' }, departmentRefused('en-US', 'North depot')],
      ['/dept/delete', { id: leaf }, departmentRefused('en-US', 'North depot')],
    ];
    for (const [url, body, msg] of attempts) {
      const res = await call(t.app, 'POST', url, { token: deptDesk.token, body });
      expect(res, url).toEqual({ code: ResultCode.forbidden, msg, data: null });
    }
    // in the caller's language
    const ru = await call(t.app, 'POST', '/dept/delete', { token: deptDesk.token, lang: 'ru-RU', body: { id: leaf } });
    expect(ru).toEqual({ code: ResultCode.forbidden, msg: departmentRefused('ru-RU', 'North depot'), data: null });
    expect(await count()).toBe(departments);
    const names = await db()
      .selectFrom('department')
      .select(['id', 'name'])
      .where('id', 'in', [d.north, leaf])
      .orderBy('id')
      .execute();
    expect(names).toEqual([
      { id: d.north, name: 'North' },
      { id: leaf, name: 'North depot' },
    ]);
    expect((await refusals()).slice(before)).toEqual([
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/add', reason: 'department:North' }),
        target: 'department:new',
      },
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/add', reason: 'scope:company' }),
        target: 'department:new',
      },
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/update', reason: 'department:North' }),
        target: `department:${d.north}`,
      },
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/update', reason: 'department:North depot' }),
        target: `department:${leaf}`,
      },
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/delete', reason: 'department:North depot' }),
        target: `department:${leaf}`,
      },
      {
        user_id: deptDesk.id,
        feedback: JSON.stringify({ attempt: '/dept/delete', reason: 'department:North depot' }),
        target: `department:${leaf}`,
      },
    ]);
  });

  it('adds, renames and deletes a department within one’s scope', async () => {
    const added = await call(t.app, 'POST', '/dept/add', {
      token: deptDesk.token,
      body: { name: 'South C', parentId: tree.southA },
    });
    expect(added.code).toBe(200);
    const id = added.data.id as number;
    const renamed = await call(t.app, 'POST', '/dept/update', {
      token: deptDesk.token,
      body: { id, name: 'South C renamed' },
    });
    expect(renamed).toEqual({ code: 200, msg: 'Saved.', data: null });
    const own = await call(t.app, 'POST', '/dept/update', {
      token: deptDesk.token,
      body: { id: d.south, name: 'South' },
    });
    expect(own.code).toBe(200);
    const deleted = await call(t.app, 'POST', '/dept/delete', { token: deptDesk.token, body: { id } });
    expect(deleted.code).toBe(200);
    expect(await db().selectFrom('department').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('moves a department within reach, and the company administrator moves anywhere', async () => {
    const mine = await call(t.app, 'POST', '/dept/update', {
      token: deptDesk.token,
      body: { id: tree.southB, parentId: tree.southA },
    });
    expect(mine).toEqual({ code: 200, msg: 'Saved.', data: null });
    expect(await parentOf(tree.southB)).toBe(tree.southA);
    const admin = await call(t.app, 'POST', '/dept/update', {
      token: people.admin!.token,
      body: { id: tree.southB, parentId: d.north },
    });
    expect(admin.code).toBe(200);
    expect(await parentOf(tree.southB)).toBe(d.north);
  });
});

async function title() {
  const r = await db().selectFrom('company').select('title').where('id', '=', co.id).executeTakeFirstOrThrow();
  return r.title;
}
