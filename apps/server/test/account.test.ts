// The signed-in user's own account: info, menu, password, registration, reset, deletion, and what the
// database keeps of secrets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, lastCode, login, outbox, type TestApp } from './helpers.ts';
import { createUser, ensureCompanyRoles } from '../src/seed/base.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('/user/info and /getRoute', () => {
  it('returns name, permissions and company info with ws and baidukey', async () => {
    const token = await login(t.app, 'manager@example.com', 'Demo#2026');
    const res = await call(t.app, 'GET', '/user/info', { token });
    expect(res.code).toBe(200);
    expect(res.data.info).toMatchObject({
      name: 'Mia Manager',
      account: 'manager@example.com',
      type: 'corporate',
      roleName: 'Company administrator',
    });
    expect(res.data.permissions).toContain('user:manage');
    expect(res.data.companyinfo).toMatchObject({ name: 'Demo Power Co.', ws: '', baidukey: '' });
    const zh = await call(t.app, 'GET', '/user/info', { token, lang: 'zh-CN' });
    expect(zh.data.info.roleName).toBe('公司管理员');
  });

  it('gives the platform administrator *:* and the menu tree with entry types and hidden entries', async () => {
    const token = await login(t.app, 'admin@example.com', 'Admin#2026');
    expect((await call(t.app, 'GET', '/user/info', { token })).data.permissions).toEqual(['*:*']);
    const routes = await call(t.app, 'GET', '/getRoute', { token, lang: 'zh-CN' });
    expect(routes.code).toBe(200);
    const home = routes.data.find((r: { name: string }) => r.name === 'home');
    expect(home).toMatchObject({
      type: 'M',
      url: '/index',
      title: '首页',
      component: 'home/index',
      visible: true,
      ico: 'HomeOutlined',
      children: [],
    });
    const personal = routes.data.find((r: { name: string }) => r.name === 'personal');
    expect(personal.visible).toBe(false);
  });

  it('filters menu entries by the role’s permissions', async () => {
    const db = t.app.database.db;
    await db
      .insertInto('menu')
      .values({
        parent_id: null,
        sort: 99,
        type: 'M',
        url: '/secret',
        name: 'secretTest',
        ico: 'LockOutlined',
        component: 'x/y',
        visible: 1,
        external: 0,
        permission: 'protocol:manage',
      })
      .execute();
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const admin = await login(t.app, 'admin@example.com', 'Admin#2026');
    const names = (r: { data: { name: string }[] }) => r.data.map((e) => e.name);
    expect(names(await call(t.app, 'GET', '/getRoute', { token: viewer }))).not.toContain('secretTest');
    expect(names(await call(t.app, 'GET', '/getRoute', { token: admin }))).toContain('secretTest');
    await db.deleteFrom('menu').where('name', '=', 'secretTest').execute();
  });
});

describe('/user/password', () => {
  it.each([
    [
      'en-US',
      { password: '', newPassword: 'Next#2026', newPasswords: 'Next#2026' },
      'password',
      'Old password: cannot be empty',
    ],
    ['zh-CN', { password: '', newPassword: 'Next#2026', newPasswords: 'Next#2026' }, 'password', '旧密码：不能为空'],
    ['en-US', { password: 'x', newPassword: '', newPasswords: '' }, 'newPassword', 'New password: cannot be empty'],
    [
      'en-US',
      { password: 'x', newPassword: 'short#1', newPasswords: 'short#1' },
      'newPassword',
      'New password: must be 8 to 20 characters and combine letters, digits and special characters',
    ],
    [
      'zh-CN',
      { password: 'x', newPassword: 'onlyletters', newPasswords: 'onlyletters' },
      'newPassword',
      '新密码：长度为 8 到 20 位，且须同时包含字母、数字和特殊字符',
    ],
    [
      'en-US',
      { password: 'x', newPassword: 'NoSpecial2026', newPasswords: 'NoSpecial2026' },
      'newPassword',
      'New password: must be 8 to 20 characters and combine letters, digits and special characters',
    ],
    [
      'en-US',
      { password: 'x', newPassword: 'Way#Too#Long#Password#2026', newPasswords: 'Way#Too#Long#Password#2026' },
      'newPassword',
      'New password: must be 8 to 20 characters and combine letters, digits and special characters',
    ],
    [
      'en-US',
      { password: 'x', newPassword: 'Next#2026', newPasswords: '' },
      'newPasswords',
      'Repeat password: cannot be empty',
    ],
    [
      'en-US',
      { password: 'x', newPassword: 'Next#2026', newPasswords: 'Next#2027' },
      'newPasswords',
      'Repeat password: the two passwords do not match',
    ],
    [
      'zh-CN',
      { password: 'x', newPassword: 'Next#2026', newPasswords: 'Next#2027' },
      'newPasswords',
      '确认密码：两次输入的密码不一致',
    ],
  ])('in %s refuses %j naming %s', async (lang, body, field, message) => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    const res = await call(t.app, 'POST', '/user/password', { token, lang, body });
    expect(res.code).toBe(400);
    expect(res.data.fields[field]).toBe(message);
    expect(await login(t.app, u.account, u.password)).toHaveLength(43);
  });

  it('refuses a wrong old password and changes nothing', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    const res = await call(t.app, 'POST', '/user/password', {
      token,
      body: { password: 'Wrong#2026', newPassword: 'Next#2026', newPasswords: 'Next#2026' },
    });
    expect(res).toMatchObject({ code: 400, msg: 'The password is wrong.' });
    expect(await login(t.app, u.account, u.password)).toHaveLength(43);
  });

  it('changes the password, keeps this session and signs out the others', async () => {
    const u = await freshUser(t);
    const current = await login(t.app, u.account, u.password);
    const other = await login(t.app, u.account, u.password);
    // both sessions in use (read, and kept for a moment)
    expect((await call(t.app, 'GET', '/user/info', { token: other })).code).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token: current })).code).toBe(200);
    const res = await call(t.app, 'POST', '/user/password', {
      token: current,
      body: { password: u.password, newPassword: 'Next#2026', newPasswords: 'Next#2026' },
    });
    expect(res).toMatchObject({ code: 200, msg: 'Password changed. Your other sessions have been signed out.' });
    expect((await call(t.app, 'GET', '/user/info', { token: current })).code).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token: other })).code).toBe(101);
    expect(
      (await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: u.password } })).code,
    ).toBe(400);
    expect(await login(t.app, u.account, 'Next#2026')).toHaveLength(43);
    // this session knows the new password at once
    const again = await call(t.app, 'POST', '/user/password', {
      token: current,
      body: { password: 'Next#2026', newPassword: 'Third#2026', newPasswords: 'Third#2026' },
    });
    expect(again.code).toBe(200);
  });

  it('needs a session', async () => {
    expect(
      (
        await call(t.app, 'POST', '/user/password', {
          body: { password: 'a', newPassword: 'Next#2026', newPasswords: 'Next#2026' },
        })
      ).code,
    ).toBe(101);
  });
});

describe('registration and reset', () => {
  it('registers with a code and signs the new user in', async () => {
    const account = `new${Date.now()}@example.com`;
    await call(t.app, 'POST', '/sendMessage', { body: { username: account, purpose: 'register' } });
    const code = lastCode(t, account);
    const res = await call(t.app, 'POST', '/user/register', {
      body: {
        username: account,
        code,
        newPassword: 'Fresh#2026',
        newPasswords: 'Fresh#2026',
        nickname: 'Newcomer',
        type: 'personal',
      },
    });
    expect(res.code).toBe(200);
    const info = await call(t.app, 'GET', '/user/info', { token: res.data.utoken });
    expect(info.data.info).toMatchObject({ account, nickname: 'Newcomer', type: 'personal', companyId: 1 });
    expect(info.data.permissions).toContain('genset:view');
  });

  it('sends an existing account a notice instead of a code, so it cannot be registered twice', async () => {
    await call(t.app, 'POST', '/sendMessage', { body: { username: '13800000001', purpose: 'register' } });
    const notice = outbox(t)
      .filter((m) => m.to === '13800000001')
      .at(-1);
    expect(notice?.code).toBeUndefined();
    expect(notice?.text).toMatch(/already has an account/);
    const res = await call(t.app, 'POST', '/user/register', {
      body: { username: '13800000001', code: '123456', newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026' },
    });
    // No code was sent to an existing account (only a notice), so the code cannot be right.
    expect(res.code).toBe(400);
  });

  it('validates registration fields', async () => {
    const res = await call(t.app, 'POST', '/user/register', {
      lang: 'zh-CN',
      body: { username: 'x@example.com', code: '123456', newPassword: 'weak', newPasswords: 'weak2', type: 'robot' },
    });
    expect(res.code).toBe(400);
    expect(res.data.fields.newPassword).toBe('密码：长度为 8 到 20 位，且须同时包含字母、数字和特殊字符');
    expect(res.data.fields.type).toBe('账号类型：无效');
  });

  it('applies to the inviter’s company with an invitation code (pending, nothing of it given), refuses an unknown one', async () => {
    const inviter = (
      await call(t.app, 'GET', '/user/info', { token: await login(t.app, 'manager@example.com', 'Demo#2026') })
    ).data.info;
    const account = `invited${Date.now()}@example.com`;
    await call(t.app, 'POST', '/sendMessage', { body: { username: account, purpose: 'register' } });
    const code = lastCode(t, account);
    const bad = await call(t.app, 'POST', '/user/register', {
      body: { username: account, code, newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026', inviteCode: 'NOPE0000' },
    });
    expect(bad.data.fields.inviteCode).toBe('Invitation code: The invitation code is not valid.');
    await t.app.database.db.updateTable('sms_code').set({ used_at: null }).where('target', '=', account).execute();
    const ok = await call(t.app, 'POST', '/user/register', {
      body: {
        username: account,
        code,
        newPassword: 'Fresh#2026',
        newPasswords: 'Fresh#2026',
        inviteCode: inviter.inviteCode,
      },
    });
    expect(ok.code).toBe(200);
    // the account starts on its own; the inviter's company has an application waiting for review
    expect(ok.data.companyid).toBe(1);
    expect(ok.msg).toMatch(
      /^Registration complete\. Your application to join .+ is waiting for an administrator’s review\.$/,
    );
    const me = await call(t.app, 'GET', '/user/info', { token: ok.data.utoken });
    expect(me.data.info).toMatchObject({ account, companyId: 1 });
    const pending = await t.app.database.db
      .selectFrom('member_application')
      .select(['company_id', 'status', 'invite_code'])
      .where('user_id', '=', me.data.info.id)
      .execute();
    expect(pending).toEqual([{ company_id: inviter.companyId, status: 'pending', invite_code: inviter.inviteCode }]);
  });

  it('resets a forgotten password with a code and signs out every session', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    await call(t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'reset' } });
    const code = lastCode(t, u.account);
    const mismatch = await call(t.app, 'POST', '/user/forgetPassword', {
      body: { username: u.account, code, newPassword: 'Reset#2026', newPasswords: 'Reset#2027' },
    });
    expect(mismatch.data.fields.newPasswords).toBe('Repeat password: the two passwords do not match');
    const res = await call(t.app, 'POST', '/user/forgetPassword', {
      body: { username: u.account, code, newPassword: 'Reset#2026', newPasswords: 'Reset#2026' },
    });
    expect(res.code).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(101);
    expect(await login(t.app, u.account, 'Reset#2026')).toHaveLength(43);
    const again = await call(t.app, 'POST', '/user/forgetPassword', {
      body: { username: u.account, code, newPassword: 'Other#2026', newPasswords: 'Other#2026' },
    });
    expect(again.code).toBe(400);
  });
});

describe('profile and message settings', () => {
  it('saves nickname and message settings, refusing bad values', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    expect((await call(t.app, 'POST', '/user/updateProfile', { token, body: { nickname: 'Night Shift' } })).code).toBe(
      200,
    );
    expect(
      (await call(t.app, 'POST', '/user/updateProfile', { token, body: { nickname: '  ' } })).data.fields.nickname,
    ).toBe('Nickname: cannot be empty');
    const set = await call(t.app, 'POST', '/user/setMessage', { token, body: { alarmSms: false } });
    expect(set.data).toMatchObject({ alarmSms: false, alarmEmail: true, alarmPush: true, maintenanceReminder: true });
    expect((await call(t.app, 'POST', '/user/setMessage', { token, body: { alarmSms: 'sometimes' } })).code).toBe(400);
    const info = (await call(t.app, 'GET', '/user/info', { token })).data.info;
    expect(info.nickname).toBe('Night Shift');
    expect(info.messages.alarmSms).toBe(false);
  });
});

describe('/user/delUser', () => {
  it('refuses a wrong password, then erases the person and keeps the audit rows without them', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    await call(t.app, 'POST', '/user/password', {
      token,
      body: { password: u.password, newPassword: 'Next#2026', newPasswords: 'Next#2026' },
    });
    expect(await call(t.app, 'POST', '/user/delUser', { token, body: { password: 'Wrong#2026' } })).toMatchObject({
      code: 400,
      msg: 'The password is wrong.',
    });
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(200);

    const res = await call(t.app, 'POST', '/user/delUser', { token, body: { password: 'Next#2026' } });
    expect(res.code).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(101);
    expect(
      (await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: 'Next#2026' } })).code,
    ).toBe(400);

    const db = t.app.database.db;
    const row = await db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account: null, nickname: '', password_hash: null, status: 'deleted' });
    const logs = await db.selectFrom('operation_log').selectAll().where('user_id', '=', u.id).execute();
    expect(logs.map((l) => l.matter)).toEqual(expect.arrayContaining(['log.passwordChanged', 'log.accountDeleted']));
    for (const l of logs) expect([l.account, l.nickname, l.ip]).toEqual([null, null, null]);
  });
});

describe("/user/delUser with sets of one's own", () => {
  it('refuses while the person owns a set, in their language, and changes nothing; goes once it is handed over', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    const fleet = t.app.devices.fleet;
    const modem = await fleet.createModem({ companyId: 2, modemKey: `OWN${Date.now()}` });
    const set = await fleet.createGenset({
      companyId: 2,
      ownerUserId: u.id,
      name: 'Farm standby',
      modemId: modem.id,
      protocolKey: layoutS.key,
    });

    expect(await call(t.app, 'POST', '/user/delUser', { token, body: { password: u.password } })).toMatchObject({
      code: 400,
      msg: 'You still own 1 sets or stations: hand them over before deleting your account.',
    });
    expect(
      (await call(t.app, 'POST', '/user/delUser', { token, lang: 'ru-RU', body: { password: u.password } })).msg,
    ).toBe('У вас ещё есть установки или станции (1): передайте их, прежде чем удалять учётную запись.');
    const db = t.app.database.db;
    expect(
      await db.selectFrom('users').select(['account', 'status']).where('id', '=', u.id).executeTakeFirst(),
    ).toEqual({
      account: u.account,
      status: 'active',
    });
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(200);

    // handed over to someone else: the account may go
    const other = await freshUser(t);
    await db.updateTable('genset').set({ owner_user_id: other.id }).where('id', '=', set.id).execute();
    expect((await call(t.app, 'POST', '/user/delUser', { token, body: { password: u.password } })).code).toBe(200);
    expect(
      await db.selectFrom('genset').select('owner_user_id').where('id', '=', set.id).executeTakeFirstOrThrow(),
    ).toEqual({ owner_user_id: other.id });
  });
});

describe('secrets at rest', () => {
  it('holds no password, token or code in clear after sign-in, code sign-in and password change', async () => {
    const u = await freshUser(t);
    const token = await login(t.app, u.account, u.password);
    await call(t.app, 'POST', '/user/password', {
      token,
      body: { password: u.password, newPassword: 'Clear#Text9', newPasswords: 'Clear#Text9' },
    });
    await call(t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'login' } });
    const code = lastCode(t, u.account);
    const second = (await call(t.app, 'POST', '/user/codelogin', { body: { username: u.account, code } })).data
      .utoken as string;
    const secrets = [u.password, 'Clear#Text9', token, second, code];

    const db = t.app.database.db;
    const dump: string[] = [];
    for (const table of [
      'company',
      'company_host',
      'department',
      'role',
      'users',
      'session',
      'sms_code',
      'auth_throttle',
      'menu',
      'operation_log',
    ] as const) {
      const rows = await db.selectFrom(table).selectAll().execute();
      expect(rows.length).toBeGreaterThanOrEqual(0);
      dump.push(JSON.stringify(rows));
    }
    const all = dump.join('\n');
    for (const s of secrets) expect(all).not.toContain(s);
    const user = await db.selectFrom('users').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('tenants', () => {
  it('a second company sees only itself', async () => {
    const other = await createCompany(t, 'Rival Rentals');
    const roles = await ensureCompanyRoles(t.app.database.db, other);
    await createUser(t.app.database.db, {
      companyId: other,
      roleId: roles.companyAdmin ?? null,
      account: 'boss@rival.example.com',
      password: 'Rival#2026',
      nickname: 'Rival Boss',
    });
    const rival = await login(t.app, 'boss@rival.example.com', 'Rival#2026');
    const demo = await login(t.app, 'manager@example.com', 'Demo#2026');
    const demoCompany = (await call(t.app, 'GET', '/user/info', { token: demo })).data.info.companyId as number;

    expect((await call(t.app, 'GET', `/company/getinfo/${other}`, { token: rival })).data.name).toBe('Rival Rentals');
    expect(await call(t.app, 'GET', `/company/getinfo/${demoCompany}`, { token: rival })).toMatchObject({
      code: 404,
      data: null,
    });
    // A forged company header does not widen what a company user sees.
    const forged = await call(t.app, 'GET', '/user/info', {
      token: rival,
      headers: { 'x-companyid': String(demoCompany) },
    });
    expect(forged.data.companyinfo.name).toBe('Rival Rentals');
    expect(await call(t.app, 'GET', `/company/getinfo/${other}`, { token: demo })).toMatchObject({ code: 404 });
    // The platform administrator may read any company.
    const admin = await login(t.app, 'admin@example.com', 'Admin#2026');
    expect((await call(t.app, 'GET', `/company/getinfo/${other}`, { token: admin })).code).toBe(200);
  });

  it('validates the company id', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await call(t.app, 'GET', '/company/getinfo/abc', { token })).data.fields.id).toBe('ID: is not valid');
    expect((await call(t.app, 'GET', '/company/getinfo/1')).code).toBe(101);
  });
});

describe('company branding by host name', () => {
  it('names the company bound to the host, else the platform', async () => {
    const demo = await call(t.app, 'GET', '/company/getName', { query: { hostname: 'demo.localhost' } });
    expect(demo.data).toMatchObject({ name: 'Demo Power Co.', title: 'Demo Power Fleet', logo: null });
    const other = await call(t.app, 'GET', '/company/getlogo', { query: { hostname: 'elsewhere.example.org' } });
    expect(other.data).toMatchObject({ id: 1, name: 'Genset Cloud' });
    expect((await call(t.app, 'GET', '/company/getName', { query: { hostname: 'x', extra: '1' } })).code).toBe(400);
  });

  it('admits only the bound company’s users on a bound host', async () => {
    const u = await freshUser(t, { companyId: await createCompany(t, 'Elsewhere Ltd') });
    // the host is the request's own: what the body says of it is not believed
    const onDemo = { host: 'demo.localhost' };
    const res = await call(t.app, 'POST', '/user/login', {
      headers: onDemo,
      body: { username: u.account, password: u.password, hostname: 'elsewhere.example.org' },
    });
    expect(res).toEqual({
      code: 403,
      msg: 'This account cannot sign in at this address. Use your company’s console address.',
      data: null,
    });
    // a refused host is no failed password: no failure is counted
    const throttles = await t.app.database.db
      .selectFrom('auth_throttle')
      .select('throttle_key')
      .where('throttle_key', 'like', `%${u.account}%`)
      .execute();
    expect(throttles).toEqual([]);
    // a wrong password there is still the usual answer
    expect(
      await call(t.app, 'POST', '/user/login', {
        headers: onDemo,
        body: { username: u.account, password: 'Wrong#2026' },
      }),
    ).toMatchObject({ code: 400, msg: 'Wrong account or password.' });
    expect(
      (
        await call(t.app, 'POST', '/user/login', {
          headers: onDemo,
          body: { username: 'viewer@example.com', password: 'Demo#2026' },
        })
      ).code,
    ).toBe(200);
  });
});

describe('user manual', () => {
  it('serves the manual pages in the user’s language', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const en = await call(t.app, 'GET', '/help/list', { token });
    expect(en.data.length).toBeGreaterThanOrEqual(4);
    const slug = en.data[0].slug;
    const zh = await call(t.app, 'GET', '/help/info', { token, lang: 'zh-CN', query: { slug } });
    expect(zh.data.markdown).toMatch(/[\u4e00-\u9fff]/);
    expect((await call(t.app, 'GET', '/help/info', { token, query: { slug: 'no-such-page' } })).code).toBe(404);
    expect((await call(t.app, 'GET', '/help/info', { token, query: { slug: '../secrets' } })).code).toBe(400);
  });
});
