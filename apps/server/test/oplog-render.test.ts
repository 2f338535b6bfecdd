// Operation-log entries are rendered when read, in the reader's language and time zone: a command by its title in
// the set's protocol, a setting by its name there with the reader's digits and units, the set by its name (not
// its token), the outcome in words and a moment with its zone named; entries written before keys were recorded
// (an English title or setting name only) read the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let manager: string;
let token: string;
let companyId: number;
const SET_NAME = 'Log reading set';
const command = (key: string) => layoutS.commands.find((c) => c.key === key)!;
const param = (key: string) => layoutS.configParams.find((p) => p.key === key)!;
const LOCKED_UNTIL = Date.UTC(2026, 10, 28, 6, 5);

beforeAll(async () => {
  t = await createTestApp();
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const added = await call(t.app, 'POST', '/genset/add', {
    token: manager,
    body: { name: SET_NAME, protocolKey: layoutS.key },
  });
  expect(added.code, added.msg).toBe(200);
  token = added.data.token;
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const user = await t.app.database.db
    .selectFrom('users')
    .select(['id', 'account', 'nickname'])
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  const entry = (matter: string, feedback: object, at: number, target = token) => ({
    company_id: companyId,
    user_id: user.id,
    account: user.account,
    nickname: user.nickname,
    matter,
    feedback: JSON.stringify(feedback),
    ip: '127.0.0.1',
    target,
    created_at: at,
  });
  const now = Date.now();
  await t.app.database.db
    .insertInto('operation_log')
    .values([
      // as entries were written before: the English title and setting name only
      entry('log.command', { command: 'fault_reset', title: 'Fault reset', outcome: 'ok' }, now - 5000),
      entry(
        'log.configWrite',
        { param: 'crank_time_s', name: 'Crank time', old: 8, new: 12, outcome: 'ok' },
        now - 4000,
      ),
      // as they are written now: keys with every language's text
      entry('log.command', { command: 'start', title: command('start').title, outcome: 'refused' }, now - 3000),
      entry(
        'log.configWrite',
        {
          param: 'battery_low_warning_v',
          name: param('battery_low_warning_v').name,
          old: 22,
          new: 23.4,
          outcome: 'ok',
        },
        now - 2000,
      ),
      entry('log.locked', { account: 'manager@example.com', until: LOCKED_UNTIL }, now - 1000, ''),
      entry('log.siteDemandResponse', { name: 'Harbour storage', kw: 12.5 }, now - 500, ''),
    ])
    .execute();
});
afterAll(async () => t.close());

describe('operation-log entries rendered for the reader', () => {
  it('the log page names commands, settings, the set and outcomes in Russian, with the reader’s digits and zone', async () => {
    const res = await call(t.app, 'GET', '/log/list', {
      token: manager,
      lang: 'ru-RU',
      headers: { 'x-timezone': 'Asia/Shanghai' },
      query: { size: '50' },
    });
    expect(res.code, res.msg).toBe(200);
    const mine = res.data.list.filter((e: { target: string }) => e.target === token);
    const byMatter = (key: string) => mine.filter((e: { matterKey: string }) => e.matterKey === key);
    const [start, reset] = byMatter('log.command');
    expect(start.matter).toBe(`Команда «${command('start').title['ru-RU']}»`);
    expect(start).toMatchObject({ targetName: SET_NAME, outcome: 'refused', outcomeText: 'Отклонено' });
    expect(reset.matter).toBe(`Команда «${command('fault_reset').title['ru-RU']}»`);
    expect(reset).toMatchObject({ outcome: 'ok', outcomeText: 'Выполнено' });

    const [battery, crank] = byMatter('log.configWrite');
    expect(battery.matter).toContain(param('battery_low_warning_v').name['ru-RU']);
    expect(battery.matter).toContain('23,4 В');
    expect(battery.matter).toContain('22 В');
    expect(crank.matter).toContain(param('crank_time_s').name['ru-RU']);
    for (const e of mine) expect(e.targetName).toBe(SET_NAME);
    for (const e of [start, reset, battery, crank]) expect(e.matter).not.toMatch(/[A-Za-z]/);

    const locked = res.data.list.find((e: { matterKey: string }) => e.matterKey === 'log.locked');
    expect(locked.matter).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:/);
    expect(locked.matter).toContain('14:05');
    expect(locked.matter).toMatch(/GMT\+8|UTC\+8/);
    const demand = res.data.list.find((e: { matterKey: string }) => e.matterKey === 'log.siteDemandResponse');
    expect(demand.matter).toContain('12,5');
  });

  it('names a webhook, a role, a deleted department and an upgrade job by their kind and name, not kind:id', async () => {
    const db = t.app.database.db;
    const user = await db
      .selectFrom('users')
      .select(['id'])
      .where('account', '=', 'manager@example.com')
      .executeTakeFirstOrThrow();
    const hook = await db
      .insertInto('webhook')
      .values({
        company_id: companyId,
        name: 'Ops channel',
        url: 'https://hooks.example.com/x',
        secret: 's',
        events: '[]',
        enabled: 1,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('role').select(['id']).where('name', 'like', 'roles.%').executeTakeFirstOrThrow();
    const at = Date.now() + 60_000;
    const row = (matter: string, target: string, i: number) => ({
      company_id: companyId,
      user_id: user.id,
      account: 'manager@example.com',
      nickname: 'Manager',
      matter,
      feedback: JSON.stringify({ name: 'x' }),
      ip: '127.0.0.1',
      target,
      created_at: at + i,
    });
    await db
      .insertInto('operation_log')
      .values([
        row('log.webhookSaved', `webhook:${hook.id}`, 1),
        row('log.departmentDeleted', 'department:987654', 2),
        row('log.firmwareCancelled', 'upgrade:41', 3),
        row('log.roleCreated', `role:${role.id}`, 4),
      ])
      .execute();
    const read = async (lang: string) => {
      const res = await call(t.app, 'GET', '/log/list', { token: manager, lang, query: { size: '10' } });
      expect(res.code, res.msg).toBe(200);
      return new Map((res.data.list as { target: string; targetName: string }[]).map((e) => [e.target, e.targetName]));
    };
    const ru = await read('ru-RU');
    expect(ru.get(`webhook:${hook.id}`)).toBe('Вебхук «Ops channel»');
    expect(ru.get('department:987654')).toBe('Отдел № 987654 (удалено)');
    expect(ru.get('upgrade:41')).toBe('Обновление № 41');
    const en = await read('en-US');
    expect(en.get(`webhook:${hook.id}`)).toBe('Webhook “Ops channel”');
    expect(en.get(`role:${role.id}`)).toMatch(/^Role “(?!roles\.)[^”]+”$/);
    const zh = await read('zh-CN');
    expect(zh.get('department:987654')).toBe('部门（编号 987654，已删除）');
  });

  it('the set’s recent operations read in Chinese, with outcomes in words', async () => {
    const info = await call(t.app, 'POST', '/genset/info', { token: manager, lang: 'zh-CN', body: { token } });
    expect(info.code, info.msg).toBe(200);
    const ops = info.data.operations as { matter: string; outcome: string | null; outcomeText: string }[];
    expect(ops.map((o) => o.matter)).toEqual(
      expect.arrayContaining([
        `命令“${command('start').title['zh-CN']}”`,
        `命令“${command('fault_reset').title['zh-CN']}”`,
      ]),
    );
    expect(ops.find((o) => o.outcome === 'refused')!.outcomeText).toBe('被拒绝');
    const setting = ops.find((o) => o.matter.includes(param('battery_low_warning_v').name['zh-CN']))!;
    expect(setting.matter).toContain('23.4 V');
    expect(ops.every((o) => !o.matter.includes('Crank time'))).toBe(true);
  });
});
