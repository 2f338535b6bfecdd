// Data scope, applied the same way everywhere: a user of each scope (company, department tree, department,
// self, custom) sees exactly the sets their role reaches — and always what they own or subscribed to — in the
// set lists, the home page, history, an export and the realtime channel, and exactly the stations it reaches in
// the station list. A set (or station) belongs to its own department, else its owner's; moving one to another
// department shows in the lists and on open pages within a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, Permission, type Language } from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';
import { createUser } from '../src/seed/base.ts';
import { call, createCompany, createTestApp, login, type TestApp } from './helpers.ts';
import { moduleFor, newSet, RUNNING } from './support/history-data.ts';
import { connectWs } from './support/ws-client.ts';

let t: TestApp;
let baseUrl: string;
let companyId: number;
let otherCompany: number;
const dept: Record<'hq' | 'north' | 'service' | 'south', number> = { hq: 0, north: 0, service: 0, south: 0 };
let otherDept: number;
const users: Record<'company' | 'tree' | 'department' | 'self' | 'custom', { id: number; token: string }> = {} as never;
const sets: Record<string, { id: number; token: string; modemKey: string; secret: string }> = {};
const sites: Record<string, string> = {};
let n = 0;

const PERMISSIONS = [
  Permission.gensetView,
  Permission.gensetManage,
  Permission.gensetControl,
  Permission.alarmView,
  Permission.siteView,
  Permission.siteManage,
];

async function department(company: number, name: string, parent: number | null) {
  const r = await t.app.database.db
    .insertInto('department')
    .values({ company_id: company, parent_id: parent, name, sort: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

async function userWith(scope: string, departmentId: number | null, extra: string[] = []) {
  const db = t.app.database.db;
  const role = await db
    .insertInto('role')
    .values({
      company_id: companyId,
      role_key: `scope_${scope}_${n++}`,
      name: `Scope ${scope}`,
      permissions: JSON.stringify([...PERMISSIONS, ...extra]),
      menus: JSON.stringify(['*']),
      data_scope: scope,
      status: 1,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const account = `scope${Date.now()}${n++}@example.com`;
  const id = await createUser(db, {
    companyId,
    roleId: role.id,
    departmentId,
    account,
    password: 'Start#2026',
    nickname: `Scope ${scope}`,
  });
  return { id, roleId: role.id, token: await login(t.app, account, 'Start#2026') };
}

const names = (list: { name: string }[]) => list.map((r) => r.name).sort();
const companyList = async (token: string) =>
  names((await call(t.app, 'POST', '/genset/list', { token, body: { size: 50 } })).data.list);
const myList = async (token: string) =>
  names((await call(t.app, 'POST', '/genset/mylist', { token, body: { size: 50 } })).data.list);
const siteList = async (token: string) =>
  names((await call(t.app, 'GET', '/site/list', { token, query: { size: '50' } })).data.list);
const move = (token: string, tokens: string[], departmentId: number | null, lang?: string) =>
  call(t.app, 'POST', '/genset/setDepartment', { token, body: { tokens, departmentId }, ...(lang ? { lang } : {}) });

/** What each scope reaches of the sets below (and the sets the user owns or subscribed to). */
const EXPECTED = {
  company: ['HQ set', 'North set', 'Service set', 'North owner’s set', 'South set', 'Loose set', 'Self’s set'],
  tree: ['North set', 'Service set', 'North owner’s set'],
  department: ['North set', 'North owner’s set'],
  // the company list holds the sets they own; everything else adds their subscriptions
  self: ['Self’s set'],
  custom: ['HQ set'],
} as const;
const SUBSCRIBED = 'South set';

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const db = t.app.database.db;
  companyId = await createCompany(t, `Scope Co ${Date.now()}`);
  otherCompany = await createCompany(t, `Elsewhere ${Date.now()}`);
  dept.hq = await department(companyId, 'HQ', null);
  dept.north = await department(companyId, 'North region', dept.hq);
  dept.service = await department(companyId, 'Service team', dept.north);
  dept.south = await department(companyId, 'South region', dept.hq);
  otherDept = await department(otherCompany, 'Elsewhere HQ', null);

  users.company = await userWith('company', dept.hq);
  users.tree = await userWith('departmentTree', dept.north);
  users.department = await userWith('department', dept.north);
  users.self = await userWith('self', dept.south);
  const custom = await userWith('custom', dept.south);
  users.custom = custom;
  const northOwner = await createUser(db, {
    companyId,
    roleId: null,
    departmentId: dept.north,
    account: `owner${Date.now()}@example.com`,
    password: 'Start#2026',
    nickname: 'North owner',
  });

  const add = async (name: string, o: { departmentId?: number; owner?: number; company?: number } = {}) => {
    const set = await newSet(t, { companyId: o.company ?? companyId, ownerUserId: o.owner ?? null, name });
    if (o.departmentId)
      await db.updateTable('genset').set({ department_id: o.departmentId }).where('id', '=', set.id).execute();
    sets[name] = set;
  };
  await add('HQ set', { departmentId: dept.hq });
  await add('North set', { departmentId: dept.north });
  await add('Service set', { departmentId: dept.service });
  await add('North owner’s set', { owner: northOwner });
  await add('South set', { departmentId: dept.south });
  await add('Loose set');
  await add('Self’s set', { owner: users.self.id });
  await add('Elsewhere set', { company: otherCompany, departmentId: otherDept });
  await t.app.devices.fleet.subscribe(sets[SUBSCRIBED]!.id, users.self.id, 'view');

  const station = async (name: string, o: { departmentId?: number; owner?: number } = {}) => {
    const r = await t.app.sites.service.createStation({
      companyId,
      ownerUserId: o.owner ?? null,
      name,
      timeZone: 'UTC',
      capacityKwh: 100,
      ratingKw: 50,
      modemId: null,
      devices: [],
      departmentId: o.departmentId ?? null,
    });
    sites[name] = r.token;
  };
  await station('HQ station', { departmentId: dept.hq });
  await station('North station', { departmentId: dept.north });
  await station('Service station', { departmentId: dept.service });
  await station('South station', { departmentId: dept.south });
  await station('Self’s station', { owner: users.self.id });

  // the custom role lists one set and one station
  const hqStation = await db
    .selectFrom('site')
    .select('id')
    .where('token', '=', sites['HQ station']!)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('role_target')
    .values([
      { role_id: custom.roleId, kind: 'set', target_id: sets['HQ set']!.id },
      { role_id: custom.roleId, kind: 'site', target_id: hqStation.id },
    ])
    .execute();
  // departments and role lists written straight to the database: what roles reach is resolved again
  t.app.devices.fleet.scope.invalidate(companyId);
});
afterAll(async () => t.close());

describe('each data scope reaches exactly its sets', () => {
  it('in the company list (genset management) and in my gensets', async () => {
    for (const [who, expected] of Object.entries(EXPECTED)) {
      expect(await companyList(users[who as keyof typeof users].token), who).toEqual([...expected].sort());
    }
    // my gensets: owned or subscribed, and what a department or chosen scope hands one; a company-wide role's
    // fleet stays in genset management
    expect(await myList(users.self.token)).toEqual(['Self’s set', SUBSCRIBED].sort());
    expect(await myList(users.tree.token)).toEqual([...EXPECTED.tree].sort());
    expect(await myList(users.department.token)).toEqual([...EXPECTED.department].sort());
    expect(await myList(users.custom.token)).toEqual([...EXPECTED.custom].sort());
    expect(await myList(users.company.token)).toEqual([]);
  });

  it('on the home page, in history and in the export', async () => {
    for (const [who, expected] of Object.entries(EXPECTED)) {
      const user = users[who as keyof typeof users];
      const seen = who === 'self' ? [...expected, SUBSCRIBED] : [...expected];
      const home = await call(t.app, 'POST', '/home/summary', { token: user.token, body: {} });
      expect(home.code, who).toBe(200);
      expect(home.data.counts.total, who).toBe(seen.length);

      for (const name of Object.keys(sets)) {
        const chart = await call(t.app, 'POST', '/history/chart', {
          token: user.token,
          body: { token: sets[name]!.token, items: ['gen_kw'], range: 'week' },
        });
        expect(chart.code, `${who} charts ${name}`).toBe(seen.includes(name) ? 200 : 404);
      }

      const exported = await t.app.inject({
        method: 'POST',
        url: '/yewu/genset/export',
        headers: await signed(user.token),
        payload: { scope: 'list', format: 'csv' },
      });
      expect(exported.statusCode, who).toBe(200);
      const text = exported.body;
      for (const name of Object.keys(sets)) {
        expect(text.includes(name), `${who} exports ${name}`).toBe((expected as readonly string[]).includes(name));
      }
    }
  });

  it('on the realtime channel: a set out of reach is refused', async () => {
    const page = await connectWs(baseUrl, users.department.token);
    try {
      page.heartbeat(sets['Service set']!.token);
      await page.waitFor((m) => m.method === 'error' && m.code === 404 && m.token === sets['Service set']!.token);
      const tree = await connectWs(baseUrl, users.tree.token);
      tree.heartbeat(sets['Service set']!.token);
      // the department tree reaches it: no refusal (a refusal would come at once)
      await new Promise((r) => setTimeout(r, 300));
      expect(tree.messages.filter((m) => m.method === 'error')).toEqual([]);
      tree.close();
    } finally {
      page.close();
    }
  });

  it('stations likewise in the station list', async () => {
    const stations = {
      company: ['HQ station', 'North station', 'Service station', 'South station', 'Self’s station'],
      tree: ['North station', 'Service station'],
      department: ['North station'],
      self: ['Self’s station'],
      custom: ['HQ station'],
    };
    for (const [who, expected] of Object.entries(stations)) {
      expect(await siteList(users[who as keyof typeof users].token), who).toEqual(expected.sort());
    }
  });
});

describe('moving a set or a station to another department', () => {
  it('takes it out of reach of the old department’s open pages within a second, and into the new one’s lists', async () => {
    const set = sets['North set']!;
    const module = await moduleFor(t, set);
    const page = await connectWs(baseUrl, users.department.token);
    try {
      page.heartbeat(set.token);
      await module.send(RUNNING, Date.now() - 2000);
      await page.waitFor((m) => m.method === 'monitor' && m.token === set.token);

      const moved = await move(users.company.token, [set.token], dept.south);
      expect(moved).toMatchObject({ code: 200, data: { moved: 1 } });
      const at = Date.now();
      await page.waitFor((m) => m.method === 'error' && m.code === 404 && m.token === set.token, 1000);
      expect(Date.now() - at).toBeLessThan(1000);
      const told = page.messages.length;
      await module.send(RUNNING, Date.now() - 1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(page.messages.slice(told).filter((m) => m.token === set.token)).toEqual([]);
      await expect
        .poll(() => companyList(users.department.token), { timeout: 1000, interval: 50 })
        .not.toContain('North set');

      // back into the department: it appears in its lists within a second
      expect((await move(users.company.token, [set.token], dept.north)).code).toBe(200);
      await expect
        .poll(() => companyList(users.department.token), { timeout: 1000, interval: 50 })
        .toContain('North set');
      const info = await call(t.app, 'POST', '/genset/info', {
        token: users.company.token,
        body: { token: set.token },
      });
      expect(info.data).toMatchObject({
        departmentId: dept.north,
        departmentName: 'North region',
        ownDepartment: true,
      });
    } finally {
      page.close();
      await module.close();
    }
  });

  it('a set with no department of its own follows its owner’s, and moving one in makes it appear within a second', async () => {
    const loose = sets['Loose set']!;
    expect(await companyList(users.tree.token)).not.toContain('Loose set');
    expect((await move(users.company.token, [loose.token], dept.service)).code).toBe(200);
    await expect.poll(() => companyList(users.tree.token), { timeout: 1000, interval: 50 }).toContain('Loose set');
    expect(await companyList(users.department.token)).not.toContain('Loose set');
    // back to none of its own: out of the tree again
    expect((await move(users.company.token, [loose.token], null)).code).toBe(200);
    await expect.poll(() => companyList(users.tree.token), { timeout: 1000, interval: 50 }).not.toContain('Loose set');
  });

  it('writes the operation log and refuses a department of another company in every language, changing nothing', async () => {
    const set = sets['South set']!;
    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'feedback'])
      .where('target', '=', sets['North set']!.token)
      .orderBy('id')
      .execute();
    expect(log.map((l) => l.matter)).toEqual(['log.gensetDepartment', 'log.gensetDepartment']);
    expect(JSON.parse(log[0]!.feedback)).toMatchObject({ name: 'North set', department: 'South region' });
    for (const lang of LANGUAGES as readonly Language[]) {
      const refused = await move(users.company.token, [set.token], otherDept, lang);
      expect(refused.code, lang).toBe(400);
      expect(refused.msg, lang).toContain(translate(lang, 'fields.departmentId'));
    }
    const row = await t.app.database.db
      .selectFrom('genset')
      .select('department_id')
      .where('id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(row.department_id).toBe(dept.south);
    // without genset:manage, or on a set out of reach: refused
    expect((await move(users.department.token, [sets['HQ set']!.token], dept.north)).code).toBe(404);
  });

  it('a station moved out of a department leaves its list within a second', async () => {
    expect(await siteList(users.department.token)).toEqual(['North station']);
    const moved = await call(t.app, 'POST', '/site/setDepartment', {
      token: users.company.token,
      body: { tokens: [sites['North station']!], departmentId: dept.south },
    });
    expect(moved).toMatchObject({ code: 200, data: { moved: 1 } });
    await expect.poll(() => siteList(users.department.token), { timeout: 1000, interval: 50 }).toEqual([]);
    const back = await call(t.app, 'POST', '/site/setDepartment', {
      token: users.company.token,
      body: { tokens: [sites['North station']!], departmentId: dept.north },
    });
    expect(back.code).toBe(200);
    await expect
      .poll(() => siteList(users.department.token), { timeout: 1000, interval: 50 })
      .toEqual(['North station']);
    const info = await call(t.app, 'GET', `/site/getInfo/${sites['North station']!}`, { token: users.company.token });
    expect(info.data.fields).toMatchObject({ departmentId: dept.north, departmentName: 'North region' });
  });

  it('a department added below one reaches its tree once departments are told to change', async () => {
    const below = await department(companyId, 'Field crew', dept.service);
    const set = await newSet(t, { companyId, name: 'Field crew set' });
    await t.app.database.db.updateTable('genset').set({ department_id: below }).where('id', '=', set.id).execute();
    t.app.devices.fleet.scope.invalidate(companyId);
    await expect.poll(() => companyList(users.tree.token), { timeout: 1000, interval: 50 }).toContain('Field crew set');
    expect(await companyList(users.department.token)).not.toContain('Field crew set');
  });
});

describe('departments changed through the administration calls', () => {
  it('a new department below one, a set moved into it, then the department moved away: the tree follows within a second', async () => {
    // an administrator of the company's departments
    const admin = await userWith('company', dept.hq, [Permission.departmentManage]);
    const added = await call(t.app, 'POST', '/dept/add', {
      token: admin.token,
      body: { name: 'Night shift', parentId: dept.service },
    });
    expect(added.code, added.msg).toBe(200);
    const id = (
      await t.app.database.db
        .selectFrom('department')
        .select('id')
        .where('company_id', '=', companyId)
        .where('name', '=', 'Night shift')
        .executeTakeFirstOrThrow()
    ).id;
    const set = await newSet(t, { companyId, name: 'Night shift set' });
    expect((await move(users.company.token, [set.token], id)).code).toBe(200);
    await expect
      .poll(() => companyList(users.tree.token), { timeout: 1000, interval: 50 })
      .toContain('Night shift set');
    // moved to the top of the tree: out of the north region's branch
    const moved = await call(t.app, 'POST', '/dept/update', {
      token: admin.token,
      body: { id, parentId: null },
    });
    expect(moved.code, moved.msg).toBe(200);
    await expect
      .poll(() => companyList(users.tree.token), { timeout: 1000, interval: 50 })
      .not.toContain('Night shift set');
  });
});

describe('the demo company', () => {
  it('has a department tree, its operator keeps the department scope in the north region', async () => {
    const operator = await login(t.app, 'operator@example.com', 'Demo#2026');
    const info = (await call(t.app, 'GET', '/user/info', { token: operator })).data.info;
    expect(info.departmentName).toBe('North region');
    const role = await t.app.database.db
      .selectFrom('role')
      .select('data_scope')
      .where('id', '=', info.roleId)
      .executeTakeFirstOrThrow();
    expect(role.data_scope).toBe('department');
    const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    const tree = await call(t.app, 'POST', '/genset/departments', { token: manager, body: {} });
    expect(tree.data.list).toEqual([
      { id: expect.any(Number), name: 'Headquarters', parentId: null, depth: 0 },
      { id: expect.any(Number), name: 'North region', parentId: expect.any(Number), depth: 1 },
      { id: expect.any(Number), name: 'Service team', parentId: expect.any(Number), depth: 2 },
    ]);
  });
});

/** The headers of a signed call (for a call whose answer is a file). */
async function signed(token: string) {
  const { computeSign, DEFAULT_SIGN_SECRET } = await import('@genset/protocol');
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-token': token,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': 'en-US',
    'x-timezone': 'UTC',
  };
}
