// A permission that guards a menu entry guards the calls behind that entry too: a user whose role lacks it
// gets the envelope's 403 with a message in their language from the call itself, not only a hidden menu;
// a user whose role has it (and nothing else changed) is served. Roles made here differ only in that one
// permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, LANGUAGES, Permission, ResultCode, type Language } from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';
import { createUser, MENU } from '../src/seed/base.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { ONE_PRICE_TEMPLATE } from './support/access-rows.ts';
import { newSet } from './support/history-data.ts';

/** The calls behind each permission-guarded menu entry, as its page makes them. */
type Call = ['GET' | 'POST', string, unknown?]; // a GET's third element is its query
const ROUTES: Record<string, { menu: string; calls: (token: string) => Call[] }> = {
  [Permission.alarmView]: {
    menu: 'alarms',
    calls: (token) => [
      ['POST', '/devicedata/getalarmhistory', { token, range: 'week' }],
      ['POST', '/alarm/chart', { range: 'week' }],
      ['POST', '/alarm/chart', { token, range: 'month' }],
    ],
  },
  [Permission.gensetManage]: {
    menu: 'gensetManage',
    calls: () => [
      ['POST', '/genset/list', { size: 10 }],
      ['POST', '/genset/list', { search: 'permission', status: 'all' }],
    ],
  },
  [Permission.gensetReport]: {
    menu: 'gensetReport',
    calls: (token) => [
      ['POST', '/genset/reportone', { token }],
      ['POST', '/data/dieselGeneratorReport', { token, from: '2026-01-01', to: '2026-01-31' }],
      ['POST', '/baobiao/info', { token, type: 1 }],
      ['GET', '/getWeather', { token }],
    ],
  },
  [Permission.companyManage]: {
    menu: 'webhooks',
    calls: () => [
      ['POST', '/webhook/list', {}],
      ['POST', '/webhook/save', { name: 'Desk', url: 'https://93.184.215.14/hook', events: ['alarm.raised'] }],
    ],
  },
  [Permission.otaManage]: {
    menu: 'upgrades',
    calls: () => [['GET', '/ota/file/list']],
  },
  [Permission.siteView]: {
    menu: 'myStations',
    calls: () => [
      ['GET', '/site/list', { size: '10' }],
      ['POST', '/ems/template/list', {}],
    ],
  },
  [Permission.siteManage]: {
    menu: 'stationAdd',
    calls: () => [['POST', '/ems/template/save', SITE_TEMPLATE]],
  },
  // the platform administrator's company management (its menu entry asks for everything)
  [ALL_PERMISSIONS]: {
    menu: 'companies',
    calls: () => [['GET', '/company/list', { size: '10' }]],
  },
  [Permission.departmentManage]: {
    menu: 'departments',
    calls: () => [['POST', '/dept/add', { name: 'Permission department' }]],
  },
  [Permission.userManage]: {
    menu: 'users',
    calls: () => [['GET', '/user/list', { size: '10' }]],
  },
  [Permission.roleManage]: {
    menu: 'roles',
    // (the list of roles is also served to whoever manages people, who give roles: see roles-members.test.ts)
    calls: () => [['GET', '/role/getDataAuthRole']],
  },
  [Permission.logView]: {
    menu: 'oplog',
    calls: () => [['GET', '/log/list', { size: '10' }]],
  },
  [Permission.protocolManage]: {
    menu: 'protocolList',
    calls: () => [
      ['POST', '/protocol/list', {}],
      ['GET', '/protocol/info/1'],
    ],
  },
};

/** A price template the company's station managers may save. */
const SITE_TEMPLATE = { name: 'Permission tariff', ...ONE_PRICE_TEMPLATE };

/** A call's body, or for a GET its query. */
const args = (method: Call[0], body: unknown) =>
  method === 'GET' ? { query: body as Record<string, string> | undefined } : { body };

/** The names of the menu entries the user is given. */
async function menuNames(token: string): Promise<string[]> {
  const names: string[] = [];
  const walk = (entries: { name: string; children: unknown[] }[]) => {
    for (const e of entries) {
      names.push(e.name);
      walk(e.children as { name: string; children: unknown[] }[]);
    }
  };
  walk((await call(t.app, 'GET', '/getRoute', { token })).data);
  return names;
}

const COMPANY_PERMISSIONS = Object.values(Permission).filter((p) => p !== Permission.protocolManage);

let t: TestApp;
let companyId: number;
let setToken: string;
let counter = 0;

/** Signs in a new user of a new role of the demo company that has exactly `permissions`. */
async function userWith(permissions: string[]): Promise<string> {
  const db = t.app.database.db;
  const n = counter++;
  const role = await db
    .insertInto('role')
    .values({
      company_id: companyId,
      role_key: `test_${n}`,
      name: `Test role ${n}`,
      permissions: JSON.stringify(permissions),
      menus: JSON.stringify(['*']),
      data_scope: 'company',
      status: 1,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const account = `permissions${Date.now()}${n}@example.com`;
  await createUser(db, { companyId, roleId: role.id, account, password: 'Start#2026', nickname: `Tester ${n}` });
  return login(t.app, account, 'Start#2026');
}

beforeAll(async () => {
  t = await createTestApp();
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  setToken = (await newSet(t, { companyId, name: 'Permission set' })).token;
});
afterAll(async () => t.close());

describe('permissions of menu entries are enforced by their calls', () => {
  it('every permission a menu entry names has its calls listed here', () => {
    const guarded = new Set(MENU.flatMap((m) => (m.permission ? [m.permission] : [])));
    expect([...guarded].sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [permission, { menu }] of Object.entries(ROUTES)) {
      expect(MENU.find((m) => m.name === menu)?.permission, menu).toBe(permission);
    }
  });

  for (const [permission, { calls }] of Object.entries(ROUTES)) {
    it(`${permission}: served with it, refused with a localised 403 without it`, async () => {
      // the same role but for this one permission (protocol:manage is the platform's: added only for its own test)
      const others = COMPANY_PERMISSIONS.filter((p) => p !== permission);
      const granted = await userWith([...others, permission]);
      const refused = await userWith(others);

      // the menu shows the entry to the one and not to the other
      expect(await menuNames(granted)).toContain(ROUTES[permission]!.menu);
      expect(await menuNames(refused)).not.toContain(ROUTES[permission]!.menu);

      for (const [method, url, body] of calls(setToken)) {
        const ok = await call(t.app, method, url, { token: granted, ...args(method, body) });
        expect(ok.code, `${url} with ${permission}: ${ok.msg}`).toBe(200);

        for (const lang of LANGUAGES as readonly Language[]) {
          const no = await call(t.app, method, url, { token: refused, lang, ...args(method, body) });
          expect(no.code, `${url} without ${permission}`).toBe(ResultCode.forbidden);
          expect(no.msg, `${url} in ${lang}`).toBe(translate(lang, 'errors.forbidden'));
        }
      }
    });
  }

  it('the demo roles keep the alarm page and its calls', async () => {
    for (const account of ['manager@example.com', 'operator@example.com', 'viewer@example.com', '13800000001']) {
      const token = await login(t.app, account, 'Demo#2026');
      for (const [method, url, body] of ROUTES[Permission.alarmView]!.calls(setToken)) {
        const res = await call(t.app, method, url, { token, body });
        expect(res.code, `${account} ${url}`).not.toBe(ResultCode.forbidden);
      }
    }
  });
});
