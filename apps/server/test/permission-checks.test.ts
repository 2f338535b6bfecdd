// Calls that show operators, addresses and alarms ask for the permission that guards them: a station's operation
// log needs log:view, alarms (a set's current ones, a station's, the home page's latest) alarm:view; the department
// tree needs department:manage or user:manage and shows as far as the data scope reaches; the operation log of a
// department-scoped reader holds only what that scope reaches.
import { describe, expect, it } from 'vitest';
import { layoutS, Permission as P, type DataScope } from '@genset/protocol';
import { createUser } from '../src/seed/base.ts';
import { writeOperationLog } from '../src/lib/operation-log.ts';
import { login } from './helpers.ts';
import { insertAlarm } from './support/history-data.ts';
import { addStation, companyId, get, manager, post, stationHardware, t, useStationServer } from './support/sites.ts';

useStationServer();

const REFUSED = { code: 403, msg: 'You do not have permission for this operation.', data: null };
let n = 0;

async function role(permissions: string[], dataScope: DataScope) {
  const row = await t.app.database.db
    .insertInto('role')
    .values({
      company_id: companyId,
      role_key: `checks${n}`,
      name: `Checks ${n++}`,
      permissions: JSON.stringify(permissions),
      menus: JSON.stringify(['*']),
      data_scope: dataScope,
      status: 1,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function person(permissions: string[], dataScope: DataScope = 'company', departmentId: number | null = null) {
  const account = `checks${Date.now()}${n++}@example.com`;
  const id = await createUser(t.app.database.db, {
    companyId,
    roleId: await role(permissions, dataScope),
    account,
    password: 'Start#2026',
    nickname: `Checker ${n}`,
    ...(departmentId !== null ? { departmentId } : {}),
  });
  return { id, token: await login(t.app, account, 'Start#2026') };
}

async function department(name: string, parentId: number | null = null) {
  const row = await t.app.database.db
    .insertInto('department')
    .values({ company_id: companyId, parent_id: parentId, name, sort: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('stations: operation log and alarms', () => {
  it('need log:view and alarm:view besides site:view', async () => {
    const hw = await stationHardware('Checks');
    const token = await addStation(hw);
    const viewer = await person([P.siteView, P.gensetView]);
    const reader = await person([P.siteView, P.gensetView, P.logView, P.alarmView]);
    const logOnly = await person([P.logView, P.alarmView]);
    const entry = (await get(manager, '/site/log', { token })).data.list[0];
    expect(entry).toBeDefined();
    for (const who of [viewer, logOnly]) {
      expect(await get(who.token, '/site/log', { token })).toEqual(REFUSED);
      expect(await get(who.token, '/site/logInfo', { token, id: String(entry.id) })).toEqual(REFUSED);
      expect(await post(who.token, '/ems/alarm/current', { token })).toEqual(REFUSED);
      expect(await post(who.token, '/ems/alarm/history', { token })).toEqual(REFUSED);
    }
    expect(await post(viewer.token, '/alarm/current', { token: hw.sets.pcs.token })).toEqual(REFUSED);
    const log = await get(reader.token, '/site/log', { token });
    expect(log.code).toBe(200);
    expect(log.data.list[0]).toEqual(entry);
    expect((await get(reader.token, '/site/logInfo', { token, id: String(entry.id) })).code).toBe(200);
    expect((await post(reader.token, '/ems/alarm/current', { token })).code).toBe(200);
    expect((await post(reader.token, '/alarm/current', { token: hw.sets.pcs.token })).code).toBe(200);
  });

  it('the home page lists the latest alarms only with alarm:view', async () => {
    const hw = await stationHardware('Home alarms');
    await insertAlarm(t, hw.sets.pcs.id, { code: 'low_fuel_warning', level: 'warning', start: Date.now(), end: null });
    const viewer = await person([P.gensetView]);
    const reader = await person([P.gensetView, P.alarmView]);
    const without = await post(viewer.token, '/home/summary', {});
    expect(without.code).toBe(200);
    expect(without.data.latestAlarms).toEqual([]);
    const withIt = await post(reader.token, '/home/summary', {});
    expect(withIt.data.latestAlarms.length).toBeGreaterThan(0);
  });
});

describe('the department tree', () => {
  it('needs department:manage or user:manage and shows as far as the data scope reaches', async () => {
    const top = await department(`Top ${n++}`);
    const below = await department(`Below ${n++}`, top);
    const beside = await department(`Beside ${n++}`);
    const plain = await person([P.gensetView, P.alarmView, P.logView]);
    expect(await get(plain.token, '/dept/list')).toEqual(REFUSED);

    const own = await person([P.userManage], 'department', top);
    const onlyTop = await get(own.token, '/dept/list');
    expect(onlyTop.code).toBe(200);
    expect(onlyTop.data).toHaveLength(1);
    expect(onlyTop.data[0]).toMatchObject({ id: top, users: 1, children: [] });

    const tree = await person([P.userManage], 'departmentTree', top);
    const branch = await get(tree.token, '/dept/list');
    expect(branch.data).toHaveLength(1);
    expect(branch.data[0]).toMatchObject({ id: top, users: 2 });
    expect(branch.data[0].children.map((d: { id: number }) => d.id)).toEqual([below]);

    const all = await get(manager, '/dept/list');
    const ids = (nodes: { id: number; children: unknown[] }[]): number[] =>
      nodes.flatMap((d) => [d.id, ...ids(d.children as never)]);
    expect(ids(all.data)).toEqual(expect.arrayContaining([top, below, beside]));
  });
});

describe('the operation log', () => {
  it('shows a department-scoped reader only their department’s people, sets and stations', async () => {
    const mine = await department(`Mine ${n++}`);
    const other = await department(`Other ${n++}`);
    const reader = await person([P.logView], 'department', mine);
    const colleague = await person([P.gensetView], 'company', mine);
    const stranger = await person([P.gensetView], 'company', other);
    const db = t.app.database.db;
    const fleet = t.app.devices.fleet;
    const modem = await fleet.createModem({ companyId, modemKey: `LOGS${Date.now()}${n++}` });
    const ourSet = await fleet.createGenset({
      companyId,
      ownerUserId: null,
      name: 'Ours',
      modemId: modem.id,
      protocolKey: layoutS.key,
      departmentId: mine,
    });
    const theirSet = await fleet.createGenset({
      companyId,
      ownerUserId: null,
      name: 'Theirs',
      modemId: null,
      protocolKey: layoutS.key,
      departmentId: other,
    });
    const ctxOf = async (id: number) => ({
      sessionId: 0,
      user: (await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as never,
      grant: { permissions: [], menus: [], dataScope: 'self', roleName: null, roleId: null },
    });
    const matter = `log.scopeCheck${n++}`;
    const write = async (who: number, target: string, ip: string) =>
      writeOperationLog(db, { ctx: await ctxOf(who), companyId, ip, matter, feedback: {}, target });
    await write(colleague.id, 'nothing', '10.0.0.1');
    await write(stranger.id, ourSet.token, '10.0.0.2');
    await write(stranger.id, theirSet.token, '10.0.0.3');
    await write(stranger.id, 'nothing', '10.0.0.4');
    const seen = await get(reader.token, '/log/list', { matter, size: '50' });
    expect(seen.code).toBe(200);
    expect(seen.data.list.map((e: { ip: string }) => e.ip).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(seen.data.total).toBe(2);
    // the company's administrator sees all four
    expect((await get(manager, '/log/list', { matter, size: '50' })).data.total).toBe(4);
  });
});
