// Administration against a real server: the platform administrator's companies (a host name is one company's,
// a logo is judged by its bytes, a company owning sets is kept), a company's department tree (no cycles, no
// deleting a department with people or departments below), its people (add, filter, temporary passwords that
// must be changed before anything else, disabling that ends sessions and realtime connections at once, the last
// administrator kept, another company's people not found) and switching companies with X-Companyid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ResultCode, computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import {
  call,
  createCompany,
  createTestApp,
  freshUser,
  login,
  signInManager,
  type Envelope,
  type TestApp,
} from './helpers.ts';
import { connectWs } from './support/ws-client.ts';
import { translate } from '../src/i18n/messages.ts';
import { ensureCompanyRoles } from '../src/seed/base.ts';
import { saveMembership } from '../src/modules/users/memberships.ts';

let t: TestApp;
let baseUrl: string;
let platform: string;
let manager: string;
let demoCompany: number;
let seq = 0;
/** A call every member makes (their own sets): whether a session is still good. */
const MYLIST = { page: 1, size: 20 };
const uid = () => `${Date.now().toString(36)}${seq++}`;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  platform = await login(t.app, 'admin@example.com', 'Admin#2026');
  ({ token: manager, companyId: demoCompany } = await signInManager(t));
});

afterAll(async () => {
  await t?.close();
});

const BOUNDARY = 'LogoBoundary7MA4YWxkTrZu0gW';
async function uploadLogo(token: string, filename: string, type: string, data: Buffer, lang = 'en-US') {
  const time = String(Math.floor(Date.now() / 1000));
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/company/uploadLogo',
    headers: {
      'x-time': time,
      'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
      'x-token': token,
      'accept-language': lang,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload: body,
  });
  return res.json() as Envelope;
}

const companyBody = (over: Record<string, unknown> = {}) => ({
  name: `Acme ${uid()}`,
  title: 'Acme Console',
  contactPerson: 'Ada Admin',
  contactPhone: '+49 30 1234567',
  contactEmail: 'ada@acme.example',
  hosts: [],
  mapKey: 'k-123',
  currency: 'eur',
  timeZone: 'europe/berlin',
  ...over,
});

describe('companies', () => {
  it('adds, lists, edits and searches companies; a host name belongs to one company only', async () => {
    const host = `console-${uid()}.acme.example`;
    const added = await call(t.app, 'POST', '/company/add', { token: platform, body: companyBody({ hosts: [host] }) });
    expect(added.code, added.msg).toBe(200);
    const id = added.data.id as number;

    const list = await call(t.app, 'GET', '/company/list', { token: platform, query: { search: host } });
    expect(list.code, list.msg).toBe(200);
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({
      id,
      hosts: [host],
      currency: 'EUR',
      timeZone: 'Europe/Berlin',
      contactPerson: 'Ada Admin',
      mapKey: 'k-123',
      sets: 0,
    });
    // the host brands the console of that company
    const branded = await call(t.app, 'GET', '/company/getName', { query: { hostname: host } });
    expect(branded.data.id).toBe(id);

    for (const lang of ['en-US', 'zh-CN']) {
      const dup = await call(t.app, 'POST', '/company/add', {
        token: platform,
        lang,
        body: companyBody({ hosts: [host.toUpperCase()] }),
      });
      expect(dup.code).toBe(ResultCode.conflict);
      expect(dup.msg).toBe(translate(lang as 'en-US', 'company.hostTaken', { host }));
    }
    const before = await call(t.app, 'GET', '/company/list', { token: platform, query: { size: '50' } });

    const edited = await call(t.app, 'POST', '/company/update', {
      token: platform,
      body: { id, ...companyBody({ name: 'Acme Renamed', hosts: [host, `two-${host}`], timeZone: 'Asia/Shanghai' }) },
    });
    expect(edited.code, edited.msg).toBe(200);
    const identifie = await call(t.app, 'GET', `/company/getIdentifie/${id}`, { token: platform });
    expect(identifie.data).toEqual({ id, name: 'Acme Renamed', hosts: [host, `two-${host}`].sort() });
    const after = await call(t.app, 'GET', '/company/list', { token: platform, query: { size: '50' } });
    expect(after.data.total).toBe(before.data.total);

    const badZone = await call(t.app, 'POST', '/company/add', {
      token: platform,
      body: companyBody({ timeZone: 'Mars/Olympus' }),
    });
    expect(badZone.code).toBe(ResultCode.invalid);
    expect(badZone.msg).toContain('Time zone');
  });

  it('is for the platform administrator only', async () => {
    expect((await call(t.app, 'GET', '/company/list', { token: manager })).code).toBe(ResultCode.forbidden);
    expect((await call(t.app, 'POST', '/company/add', { token: manager, body: companyBody() })).code).toBe(
      ResultCode.forbidden,
    );
    // another company's identity is not found for a company's own people
    expect((await call(t.app, 'GET', '/company/getIdentifie/1', { token: manager })).code).toBe(ResultCode.notFound);
  });

  it('judges a logo by its bytes: PNG and a clean SVG taken, text named .png, an SVG with script and >1 MB refused', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    const ok = await uploadLogo(platform, 'logo.png', 'image/png', png);
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data.logo).toMatch(/^\/uploads\/logos\/[a-f0-9]{32}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: ok.data.logo });
    expect(served.statusCode).toBe(200);

    const text = await uploadLogo(platform, 'logo.png', 'image/png', Buffer.from('just some text, not a picture'));
    expect(text.code).toBe(ResultCode.invalid);
    expect(text.msg).toBe(translate('en-US', 'company.logoType'));

    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    const clean = await uploadLogo(platform, 'logo.svg', 'image/svg+xml', Buffer.from(svg));
    expect(clean.code, clean.msg).toBe(200);
    expect(clean.data.logo).toMatch(/\.svg$/);
    for (const bad of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>',
    ]) {
      const refused = await uploadLogo(platform, 'logo.svg', 'image/svg+xml', Buffer.from(bad), 'zh-CN');
      expect(refused.code).toBe(ResultCode.invalid);
      expect(refused.msg).toBe(translate('zh-CN', 'company.logoUnsafe'));
    }

    const big = Buffer.concat([png, Buffer.alloc(1024 * 1024 + 10)]);
    const tooBig = await uploadLogo(platform, 'logo.png', 'image/png', big);
    expect(tooBig.code).toBe(ResultCode.invalid);
    expect(tooBig.msg).toBe(translate('en-US', 'company.logoTooLarge', { kb: 1024 }));

    // a saved company keeps the uploaded address; any other address is refused
    const withLogo = await call(t.app, 'POST', '/company/add', {
      token: platform,
      body: companyBody({ logo: ok.data.logo }),
    });
    expect(withLogo.code, withLogo.msg).toBe(200);
    const foreign = await call(t.app, 'POST', '/company/add', {
      token: platform,
      body: companyBody({ logo: 'https://evil.example/logo.png' }),
    });
    expect(foreign.code).toBe(ResultCode.invalid);
    // only the platform administrator uploads
    expect((await uploadLogo(manager, 'logo.png', 'image/png', png)).code).toBe(ResultCode.forbidden);
  });

  it('refuses deleting a company that still owns sets, saying how many; deletes an empty one', async () => {
    const owner = (await call(t.app, 'POST', '/company/add', { token: platform, body: companyBody() })).data
      .id as number;
    const ownerAdmin = await freshUser(t, { companyId: owner, role: 'companyAdmin' });
    const ownerToken = await login(t.app, ownerAdmin.account, ownerAdmin.password);
    for (const name of ['North set', 'South set']) {
      const set = await call(t.app, 'POST', '/genset/add', {
        token: ownerToken,
        body: { name, protocolKey: layoutS.key },
      });
      expect(set.code, set.msg).toBe(200);
    }
    const refused = await call(t.app, 'POST', '/company/del', { token: platform, body: { id: owner } });
    expect(refused.code).toBe(ResultCode.conflict);
    expect(refused.msg).toBe(translate('en-US', 'company.hasSets', { count: 2 }));

    const added = await call(t.app, 'POST', '/company/add', { token: platform, body: companyBody() });
    const member = await freshUser(t, { companyId: added.data.id, role: 'operator' });
    const gone = await call(t.app, 'POST', '/company/del', { token: platform, body: { id: added.data.id } });
    expect(gone.code, gone.msg).toBe(200);
    const list = await call(t.app, 'GET', '/company/list', { token: platform, query: { size: '50' } });
    expect(list.data.list.map((c: { id: number }) => c.id)).not.toContain(added.data.id);
    // its only member can no longer sign in
    const res = await call(t.app, 'POST', '/user/login', {
      body: { username: member.account, password: member.password },
    });
    expect(res.code).not.toBe(200);
  });
});

describe('departments', () => {
  const dept = (body: Record<string, unknown>, token = manager, lang = 'en-US') =>
    call(t.app, 'POST', '/dept/add', { token, body, lang });

  it('keeps a tree: add, rename, move; a move into its own branch is refused', async () => {
    const a = (await dept({ name: `Sales ${uid()}` })).data.id as number;
    const b = (await dept({ name: 'North', parentId: a })).data.id as number;
    const c = (await dept({ name: 'Field', parentId: b })).data.id as number;

    for (const lang of ['en-US', 'zh-CN']) {
      const cycle = await call(t.app, 'POST', '/dept/update', { token: manager, lang, body: { id: a, parentId: c } });
      expect(cycle.code).toBe(ResultCode.conflict);
      expect(cycle.msg).toBe(translate(lang as 'en-US', 'departments.cycle'));
    }
    const self = await call(t.app, 'POST', '/dept/update', { token: manager, body: { id: a, parentId: a } });
    expect(self.code).toBe(ResultCode.conflict);

    const moved = await call(t.app, 'POST', '/dept/update', {
      token: manager,
      body: { id: c, parentId: null, name: 'Field service' },
    });
    expect(moved.code, moved.msg).toBe(200);
    const tree = await call(t.app, 'GET', '/dept/list', { token: manager });
    const top = tree.data as { id: number; name: string; children: { id: number }[] }[];
    expect(top.find((n) => n.id === c)?.name).toBe('Field service');
    expect(top.find((n) => n.id === a)?.children.map((n) => n.id)).toEqual([b]);

    // another company's department is not found
    const other = await createCompany(t, `Other ${uid()}`);
    const foreign = await t.app.database.db
      .insertInto('department')
      .values({ company_id: other, parent_id: null, name: 'Theirs', sort: 0, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      (await call(t.app, 'POST', '/dept/update', { token: manager, body: { id: foreign.id, name: 'x' } })).code,
    ).toBe(ResultCode.notFound);
    expect((await dept({ name: 'Under theirs', parentId: foreign.id })).code).toBe(ResultCode.invalid);
  });

  it('refuses deleting a department with departments or people below it, saying how many', async () => {
    const a = (await dept({ name: `Ops ${uid()}` })).data.id as number;
    const b = (await dept({ name: 'Night shift', parentId: a })).data.id as number;
    const refused = await call(t.app, 'POST', '/dept/delete', { token: manager, body: { id: a } });
    expect(refused.code).toBe(ResultCode.conflict);
    expect(refused.msg).toBe(translate('en-US', 'departments.hasChildren', { count: 1 }));

    const roles = await ensureCompanyRoles(t.app.database.db, demoCompany);
    const added = await call(t.app, 'POST', '/user/add', {
      token: manager,
      body: { account: `night${uid()}@example.com`, roleId: roles.operator, departmentId: b, password: 'Temp#2026x' },
    });
    expect(added.code, added.msg).toBe(200);
    const busy = await call(t.app, 'POST', '/dept/delete', { token: manager, lang: 'zh-CN', body: { id: b } });
    expect(busy.code).toBe(ResultCode.conflict);
    expect(busy.msg).toBe(translate('zh-CN', 'departments.hasUsers', { count: 1 }));
    const tree = await call(t.app, 'GET', '/dept/list', { token: manager });
    const node = (tree.data as { id: number; children: { id: number; users: number }[] }[]).find((n) => n.id === a);
    expect(node?.children[0]).toMatchObject({ id: b, users: 1 });

    await call(t.app, 'POST', '/user/delete', { token: manager, body: { userId: added.data.id } });
    expect((await call(t.app, 'POST', '/dept/delete', { token: manager, body: { id: b } })).code).toBe(200);
    expect((await call(t.app, 'POST', '/dept/delete', { token: manager, body: { id: a } })).code).toBe(200);
  });

  it('shows the tree only to those who manage departments or people, and only department managers change it', async () => {
    const operator = await freshUser(t, { companyId: demoCompany, role: 'operator' });
    const token = await login(t.app, operator.account, operator.password);
    expect((await call(t.app, 'GET', '/dept/list', { token })).code).toBe(ResultCode.forbidden);
    expect((await dept({ name: 'Mine' }, token)).code).toBe(ResultCode.forbidden);
  });
});

describe('users', () => {
  let roles: Record<string, number>;
  let department: number;
  beforeAll(async () => {
    roles = await ensureCompanyRoles(t.app.database.db, demoCompany);
    department = (await call(t.app, 'POST', '/dept/add', { token: manager, body: { name: `Service ${uid()}` } })).data
      .id as number;
  });

  async function addUser(over: Record<string, unknown> = {}) {
    const account = `person${uid()}@example.com`;
    const res = await call(t.app, 'POST', '/user/add', {
      token: manager,
      body: {
        account,
        nickname: 'Pat',
        roleId: roles.operator,
        departmentId: department,
        password: 'Temp#2026x',
        ...over,
      },
    });
    expect(res.code, res.msg).toBe(200);
    return { id: res.data.id as number, account, password: 'Temp#2026x' };
  }

  it('adds people and finds them by search and filters', async () => {
    const a = await addUser({ nickname: 'Quinn Searchable' });
    const b = await addUser({ roleId: roles.viewer, type: 'personal' });
    const byDept = await call(t.app, 'GET', '/user/list', {
      token: manager,
      query: { departmentId: String(department) },
    });
    expect(byDept.code, byDept.msg).toBe(200);
    const ids = byDept.data.list.map((u: { id: number }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    const bySearch = await call(t.app, 'GET', '/user/list', { token: manager, query: { search: 'quinn search' } });
    expect(bySearch.data.list.map((u: { id: number }) => u.id)).toEqual([a.id]);
    const byRole = await call(t.app, 'GET', '/user/list', {
      token: manager,
      query: { roleId: String(roles.viewer), departmentId: String(department), type: 'personal' },
    });
    expect(byRole.data.list.map((u: { id: number }) => u.id)).toEqual([b.id]);
    expect(byRole.data.list[0]).toMatchObject({ status: 'enabled', mustChangePassword: true, home: true });
    const dup = await call(t.app, 'POST', '/user/add', {
      token: manager,
      body: { account: a.account, roleId: roles.operator, password: 'Temp#2026x' },
    });
    expect(dup.code).toBe(ResultCode.conflict);
    const weak = await call(t.app, 'POST', '/user/add', {
      token: manager,
      body: { account: `w${uid()}@example.com`, roleId: roles.operator, password: 'short' },
    });
    expect(weak.code).toBe(ResultCode.invalid);
    expect(weak.msg).toContain('Temporary password');
    // an operator manages no people
    const operator = await freshUser(t, { companyId: demoCompany, role: 'operator' });
    const opToken = await login(t.app, operator.account, operator.password);
    expect((await call(t.app, 'GET', '/user/list', { token: opToken })).code).toBe(ResultCode.forbidden);
  });

  it('makes a person with a temporary password change it before anything else', async () => {
    const p = await addUser();
    const signIn = await call(t.app, 'POST', '/user/login', { body: { username: p.account, password: p.password } });
    expect(signIn.code).toBe(200);
    expect(signIn.data.mustChangePassword).toBe(true);
    const token = signIn.data.utoken as string;
    for (const lang of ['en-US', 'zh-CN']) {
      const refused = await call(t.app, 'POST', '/genset/mylist', { token, lang, body: MYLIST });
      expect(refused.code).toBe(ResultCode.passwordChangeRequired);
      expect(refused.msg).toBe(translate(lang as 'en-US', 'errors.passwordChangeRequired'));
    }
    const info = await call(t.app, 'GET', '/user/info', { token });
    expect(info.code).toBe(200);
    expect(info.data.info.mustChangePassword).toBe(true);
    const changed = await call(t.app, 'POST', '/user/password', {
      token,
      body: { password: p.password, newPassword: 'Mine#2026y', newPasswords: 'Mine#2026y' },
    });
    expect(changed.code, changed.msg).toBe(200);
    expect((await call(t.app, 'POST', '/genset/mylist', { token, body: MYLIST })).code).toBe(200);

    // an administrator's reset signs the person out and asks again
    const reset = await call(t.app, 'POST', '/user/resetpassword', {
      token: manager,
      body: { userId: p.id, password: 'Again#2026z' },
    });
    expect(reset.code, reset.msg).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token })).code).not.toBe(200);
    const again = await call(t.app, 'POST', '/user/login', { body: { username: p.account, password: 'Again#2026z' } });
    expect(again.data.mustChangePassword).toBe(true);
  });

  it('ends a disabled person’s sessions and realtime connections at once; enabling lets them in again', async () => {
    const p = await addUser();
    await t.app.database.db.updateTable('users').set({ must_change_password: 0 }).where('id', '=', p.id).execute();
    const token = await login(t.app, p.account, p.password);
    expect((await call(t.app, 'POST', '/genset/mylist', { token, body: MYLIST })).code).toBe(200);
    const ws = await connectWs(baseUrl, token);
    ws.heartbeat('');
    await new Promise((r) => setTimeout(r, 100));
    const off = await call(t.app, 'POST', '/user/userStatus', {
      token: manager,
      body: { userId: p.id, status: 'disabled' },
    });
    expect(off.code, off.msg).toBe(200);
    expect((await call(t.app, 'POST', '/genset/mylist', { token, body: MYLIST })).code).toBe(ResultCode.notSignedIn);
    const closed = await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r('open'), 3000))]);
    expect(closed).toMatchObject({ code: 4001 });
    const refused = await call(t.app, 'POST', '/user/login', { body: { username: p.account, password: p.password } });
    expect(refused.code).toBe(ResultCode.forbidden);
    const list = await call(t.app, 'GET', '/user/list', { token: manager, query: { status: 'disabled' } });
    expect(list.data.list.map((u: { id: number }) => u.id)).toContain(p.id);
    await call(t.app, 'POST', '/user/userStatus', { token: manager, body: { userId: p.id, status: 'enabled' } });
    expect(
      (await call(t.app, 'POST', '/user/login', { body: { username: p.account, password: p.password } })).code,
    ).toBe(200);
  });

  it('never leaves a company without an administrator', async () => {
    const company = await createCompany(t, `Solo ${uid()}`);
    const companyRoles = await ensureCompanyRoles(t.app.database.db, company);
    const admin = await freshUser(t, { companyId: company, role: 'companyAdmin' });
    const adminToken = await login(t.app, admin.account, admin.password);
    const as = { token: platform, headers: { 'x-companyid': String(company) } };
    for (const lang of ['en-US', 'zh-CN']) {
      const disable = await call(t.app, 'POST', '/user/userStatus', {
        ...as,
        lang,
        body: { userId: admin.id, status: 'disabled' },
      });
      expect(disable.code).toBe(ResultCode.conflict);
      expect(disable.msg).toBe(translate(lang as 'en-US', 'users.lastAdministrator'));
    }
    const demote = await call(t.app, 'POST', '/user/updateUserid', {
      ...as,
      body: { userId: admin.id, roleId: companyRoles.operator },
    });
    expect(demote.code).toBe(ResultCode.conflict);
    const remove = await call(t.app, 'POST', '/user/delete', { ...as, body: { userId: admin.id } });
    expect(remove.code).toBe(ResultCode.conflict);
    // the administrator cannot remove or disable themselves either
    expect((await call(t.app, 'POST', '/user/delete', { token: adminToken, body: { userId: admin.id } })).code).toBe(
      ResultCode.conflict,
    );
    // with a second administrator the first may go
    const second = await freshUser(t, { companyId: company, role: 'companyAdmin' });
    const demoted = await call(t.app, 'POST', '/user/updateUserid', {
      token: adminToken,
      body: { userId: second.id, roleId: companyRoles.operator },
    });
    expect(demoted.code, demoted.msg).toBe(200);
    await call(t.app, 'POST', '/user/updateUserid', {
      ...as,
      body: { userId: second.id, roleId: companyRoles.companyAdmin },
    });
    expect((await call(t.app, 'POST', '/user/delete', { ...as, body: { userId: admin.id } })).code).toBe(200);
    // the operation log holds each change
    const logs = await t.app.database.db
      .selectFrom('operation_log')
      .select('matter')
      .where('company_id', '=', company)
      .execute();
    expect(logs.map((l) => l.matter)).toEqual(expect.arrayContaining(['log.userMoved', 'log.userRemoved']));
  });

  it('does not reach another company’s people', async () => {
    const other = await createCompany(t, `Elsewhere ${uid()}`);
    const stranger = await freshUser(t, { companyId: other, role: 'operator' });
    for (const [method, url, body] of [
      ['GET', `/user/info/${stranger.id}`, undefined],
      ['POST', '/user/userStatus', { userId: stranger.id, status: 'disabled' }],
      ['POST', '/user/resetpassword', { userId: stranger.id, password: 'Hijack#2026' }],
      ['POST', '/user/delete', { userId: stranger.id }],
      ['POST', '/user/update', { userId: stranger.id, nickname: 'Mallory' }],
    ] as const) {
      const res = await call(t.app, method, url, { token: manager, ...(body ? { body } : {}) });
      expect(res.code, url).toBe(ResultCode.notFound);
    }
    const list = await call(t.app, 'GET', '/user/list', { token: manager, query: { search: stranger.account } });
    expect(list.data.total).toBe(0);
  });
});

describe('switching companies', () => {
  it('lets a member of two companies act for either with what they hold there; any other company is ignored', async () => {
    const home = await createCompany(t, `Home ${uid()}`);
    const p = await freshUser(t, { companyId: home, role: 'operator' });
    const demoRoles = await ensureCompanyRoles(t.app.database.db, demoCompany);
    await saveMembership(t.app.database.db, p.id, {
      companyId: demoCompany,
      roleId: demoRoles.companyAdmin!,
      departmentId: null,
    });
    const token = await login(t.app, p.account, p.password);

    const companies = await call(t.app, 'GET', '/company/getUserCompanyList', { token });
    expect(companies.code, companies.msg).toBe(200);
    expect(companies.data.map((c: { id: number }) => c.id).sort()).toEqual([home, demoCompany].sort());
    expect(companies.data.find((c: { id: number }) => c.id === home)).toMatchObject({ home: true, current: true });

    const atHome = await call(t.app, 'GET', '/user/info', { token });
    expect(atHome.data.info.companyId).toBe(home);
    expect((await call(t.app, 'GET', '/user/list', { token })).code).toBe(ResultCode.forbidden);

    const switched = { token, headers: { 'x-companyid': String(demoCompany) } };
    const there = await call(t.app, 'GET', '/user/info', switched);
    expect(there.data.info.companyId).toBe(demoCompany);
    expect(there.data.info.roleId).toBe(demoRoles.companyAdmin);
    const people = await call(t.app, 'GET', '/user/list', { ...switched, query: { search: 'manager@example.com' } });
    expect(people.code, people.msg).toBe(200);
    expect(people.data.total).toBe(1);
    const current = await call(t.app, 'GET', '/company/getUserCompanyList', switched);
    expect(current.data.find((c: { id: number }) => c.id === demoCompany)).toMatchObject({
      current: true,
      home: false,
    });

    // signing in on the host name of a company of theirs starts there; a stranger is not let in on it
    const onHost = await call(t.app, 'POST', '/user/login', {
      headers: { host: 'demo.localhost' },
      body: { username: p.account, password: p.password },
    });
    expect(onHost.code, onHost.msg).toBe(200);
    expect(onHost.data.companyid).toBe(demoCompany);
    const outsider = await freshUser(t, { companyId: home, role: 'operator' });
    const refusedHost = await call(t.app, 'POST', '/user/login', {
      headers: { host: 'demo.localhost' },
      body: { username: outsider.account, password: outsider.password },
    });
    expect(refusedHost.code).toBe(ResultCode.forbidden);

    // a company they do not belong to is ignored: the call acts for their home company
    const stranger = await createCompany(t, `Stranger ${uid()}`);
    const ignored = await call(t.app, 'GET', '/user/info', { token, headers: { 'x-companyid': String(stranger) } });
    expect(ignored.code).toBe(200);
    expect(ignored.data.info.companyId).toBe(home);

    // removed from the demo company, the switch stops at once
    const removed = await call(t.app, 'POST', '/user/delete', { token: manager, body: { userId: p.id } });
    expect(removed.code, removed.msg).toBe(200);
    const after = await call(t.app, 'GET', '/user/info', switched);
    expect(after.data.info.companyId).toBe(home);
  });
});
