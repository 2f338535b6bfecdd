// Energy-storage stations against a real server (SQLite, or PostgreSQL with TEST_DATABASE_URL): a station's sets
// are layout E controllers on one cloud module that talks through the embedded broker. Price templates are
// refused naming the field (periods that overlap or leave a gap, cut-offs out of range or inverted), saved in
// versions and not deleted while used; stations are added, edited, listed and hidden from other companies; the
// station calls are in the OpenAPI document; a station token is watchable on /ws. Tactics, the module's EMS
// status, and energy and income are in site-ems.test.ts.
import { describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/messages.ts';
import { createCompany, freshUser, login } from './helpers.ts';
import {
  addStation,
  bindings,
  companyId,
  get,
  manager,
  post,
  PRICES,
  saveTemplate,
  send,
  stationHardware,
  t,
  template,
  useStationServer,
} from './support/sites.ts';
import { connectWs } from './support/ws-client.ts';

/** Numbers the names the tests give, so that each is new. */
let n = 0;

useStationServer();

describe('price templates', () => {
  it('refuses periods that overlap or leave a gap, and cut-offs out of range or inverted, naming the field', async () => {
    const overlap = await saveTemplate(manager, {
      name: 'Overlapping',
      ...template({
        ranges: [
          { start: '00:00', end: '12:00', period: 'valley' },
          { start: '11:00', end: '24:00', period: 'peak' },
        ],
      }),
    });
    expect(overlap.code).toBe(400);
    expect(overlap.msg).toBe(`Time periods: ${translate('en-US', 'validation.tariff.overlap')}`);
    expect(Object.keys(overlap.data.fields)).toEqual(['ranges']);

    const gap = await saveTemplate(
      manager,
      {
        name: 'Gap',
        ...template({
          ranges: [
            { start: '00:00', end: '08:00', period: 'valley' },
            { start: '09:00', end: '24:00', period: 'flat' },
          ],
        }),
      },
      'zh-CN',
    );
    expect(gap.code).toBe(400);
    expect(gap.msg).toBe('时段：时段没有覆盖全天');

    const outOfRange = await saveTemplate(manager, { name: 'High', ...template({ chargeCutoffSoc: 120 }) }, 'es-ES');
    expect(outOfRange.code).toBe(400);
    expect(Object.keys(outOfRange.data.fields)).toEqual(['chargeCutoffSoc']);
    expect(outOfRange.msg).toMatch(/^SOC de fin de carga \(%\): /);

    const inverted = await saveTemplate(manager, {
      name: 'Inverted',
      ...template({ chargeCutoffSoc: 40, dischargeCutoffSoc: 60 }),
    });
    expect(inverted.code).toBe(400);
    expect(inverted.msg).toBe('Discharge cut-off SOC (%): must be below the charge cut-off');

    const past = await saveTemplate(manager, { name: 'Past', validFrom: Date.now() - 86_400_000, ...template() });
    expect(past.code).toBe(400);
    expect(Object.keys(past.data.fields)).toEqual(['validFrom']);
    const saved = await t.app.database.db
      .selectFrom('price_template')
      .select('id')
      .where('name', 'in', ['Overlapping', 'Gap', 'High', 'Inverted', 'Past'])
      .execute();
    expect(saved).toEqual([]);
  });

  it('keeps every save as a new version and shows them', async () => {
    const first = await saveTemplate(manager, { name: 'Tariff A', ...template() });
    expect(first.code, first.msg).toBe(200);
    expect(first.data.version).toBe(1);
    const second = await saveTemplate(manager, {
      id: first.data.id,
      name: 'Tariff A (2027)',
      ...template({ prices: { ...PRICES, peak: { buy: 1.1, sell: 1 } } }),
    });
    expect(second.code, second.msg).toBe(200);
    expect(second.data).toMatchObject({ id: first.data.id, version: 2 });

    const info = await post(manager, '/ems/template/info', { id: first.data.id });
    expect(info.code, info.msg).toBe(200);
    expect(info.data).toMatchObject({ name: 'Tariff A (2027)', version: 2, stations: [] });
    expect(info.data.body.prices.peak).toEqual({ buy: 1.1, sell: 1 });
    expect(info.data.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    const old = await post(manager, '/ems/template/info', { id: first.data.id, version: 1 });
    expect(old.data.body.prices.peak).toEqual(PRICES.peak);

    const list = await post(manager, '/ems/template/list', { name: 'tariff a' });
    expect(list.code).toBe(200);
    expect(list.data.list.map((x: { id: number }) => x.id)).toContain(first.data.id);

    // another company sees nothing of it
    const other = await createCompany(t, `Other ${n++}`);
    const stranger = await freshUser(t, { companyId: other, role: 'companyAdmin' });
    const strangerToken = await login(t.app, stranger.account, stranger.password);
    expect((await post(strangerToken, '/ems/template/info', { id: first.data.id })).code).toBe(404);
    expect((await post(strangerToken, '/ems/template/delete', { id: first.data.id })).code).toBe(404);
  });
});

describe('stations', () => {
  it('are added with their module’s sets by role, listed, edited, hidden from other companies and deleted', async () => {
    const hw = await stationHardware('Harbour');
    const tpl = await saveTemplate(manager, { name: `Harbour tariff ${n++}`, ...template() });

    // refusals change nothing
    const twice = await post(manager, '/site/add', {
      name: 'Twice',
      timeZone: 'Asia/Shanghai',
      capacityKwh: 430,
      ratingKw: 200,
      modemId: hw.modemKey,
      devices: [
        { token: hw.sets.pcs.token, role: 'pcs' },
        { token: hw.sets.bms.token, role: 'pcs' },
      ],
    });
    expect(twice.code).toBe(400);
    expect(Object.keys(twice.data.fields)).toEqual(['devices']);
    const elsewhere = await stationHardware('Elsewhere');
    const foreignSet = await post(manager, '/site/add', {
      name: 'Mixed',
      timeZone: 'Asia/Shanghai',
      capacityKwh: 430,
      ratingKw: 200,
      modemId: hw.modemKey,
      devices: [{ token: elsewhere.sets.pcs.token, role: 'pcs' }],
    });
    expect(foreignSet.code).toBe(400);
    expect(foreignSet.msg).toContain('is not on the station’s cloud module');
    const noCapacity = await post(manager, '/site/add', { name: 'Empty', timeZone: 'Asia/Shanghai', ratingKw: 1 });
    expect(noCapacity.code).toBe(400);
    expect(noCapacity.msg).toMatch(/^Battery capacity \(kWh\)/);

    const token = await addStation(hw, { name: 'Harbour', templateId: tpl.data.id, address: 'Pier 4' });
    // a module serves one station
    const again = await post(manager, '/site/add', {
      name: 'Harbour again',
      timeZone: 'Asia/Shanghai',
      capacityKwh: 430,
      ratingKw: 200,
      modemId: hw.modemKey,
    });
    expect(again.code).toBe(409);

    const list = await get(manager, '/site/list', { name: 'harb' });
    expect(list.code, list.msg).toBe(200);
    const row = list.data.list.find((r: { token: string }) => r.token === token);
    expect(row).toMatchObject({ name: 'Harbour', capacityKwh: 430, ratingKw: 200, currency: 'CNY', alarmNum: 0 });
    expect(typeof row.statusname).toBe('string');

    const info = await get(manager, `/site/getInfo/${token}`, {}, 'zh-CN');
    expect(info.code, info.msg).toBe(200);
    expect(info.data.site).toMatchObject({ name: 'Harbour', total_charge: 0, total_discharge: 0, total_income: 0 });
    expect(info.data.site.statusname).toBe(translate('zh-CN', `sites.status.offline`));
    expect(info.data.fields).toMatchObject({ address: 'Pier 4', modemId: hw.modemKey, templateId: tpl.data.id });
    expect(info.data.fields.devices).toHaveLength(4);
    expect(info.data.canManage).toBe(true);

    const devices = await get(manager, '/site/devices', { token });
    expect(devices.code).toBe(200);
    expect(devices.data.list.map((d: { role: string }) => d.role)).toEqual(['pcs', 'bms', 'meter', 'pv']);
    // coded values come with their words in the reader's language; a grid meter has no run state
    const inRussian = await get(manager, '/site/devices', { token }, 'ru-RU');
    type Value = { key: string; options: { value: number; label: string }[] };
    const byRole = new Map(
      inRussian.data.list.map((d: { role: string; runs: boolean; values: Value[] }) => [d.role, d]),
    ) as Map<string, { runs: boolean; values: Value[] }>;
    expect([...byRole].map(([role, d]) => [role, d.runs])).toEqual([
      ['pcs', true],
      ['bms', true],
      ['meter', false],
      ['pv', true],
    ]);
    const pcsState = byRole.get('pcs')!.values.find((v) => v.key === 'pcs_state')!;
    expect(pcsState.options).toContainEqual({ value: 2, label: 'Заряд' });
    expect(pcsState.options).toContainEqual({ value: 0, label: translate('ru-RU', 'gensets.status.shutdown') });
    // the meter's own live page has no run state to show either
    for (const d of inRussian.data.list as { token: string; role: string }[]) {
      const info = await post(manager, '/devicedata/getstatus', { token: d.token });
      expect(info.data.runs, d.role).toBe(d.role !== 'meter');
    }
    for (const d of byRole.values())
      for (const v of d.values)
        if (v.key.endsWith('_state') || v.key === 'control_mode') expect(v.options, v.key).not.toEqual([]);

    const edited = await post(manager, '/site/edit', {
      token,
      name: 'Harbour East',
      timeZone: 'Asia/Shanghai',
      capacityKwh: 860,
      ratingKw: 400,
      modemId: hw.modemKey,
      devices: bindings(hw, ['pcs', 'bms', 'meter']),
      templateId: tpl.data.id,
    });
    expect(edited.code, edited.msg).toBe(200);
    const after = await get(manager, `/site/getInfo/${token}`);
    expect(after.data.fields).toMatchObject({ name: 'Harbour East', capacityKwh: 860 });
    expect(after.data.fields.devices).toHaveLength(3);

    // the template cannot go while the station uses it
    const used = await post(manager, '/ems/template/delete', { id: tpl.data.id });
    expect(used.code).toBe(409);
    expect(used.msg).toContain('Harbour East');

    // another company's administrator, a viewer of the same company (own stations only) and a role without
    // site:manage
    const other = await createCompany(t, `Foreign ${n++}`);
    const stranger = await freshUser(t, { companyId: other, role: 'companyAdmin' });
    const strangerToken = await login(t.app, stranger.account, stranger.password);
    expect((await get(strangerToken, `/site/getInfo/${token}`)).code).toBe(404);
    expect((await get(strangerToken, '/site/log', { token })).code).toBe(404);
    expect((await post(strangerToken, '/site/del', { token })).code).toBe(404);
    const foreignList = await get(strangerToken, '/site/list');
    expect(foreignList.data.list.map((r: { token: string }) => r.token)).not.toContain(token);
    const operator = await freshUser(t, { companyId, role: 'operator' });
    const operatorToken = await login(t.app, operator.account, operator.password);
    const refused = await post(operatorToken, '/site/edit', {
      token,
      name: 'Taken over',
      timeZone: 'UTC',
      capacityKwh: 1,
      ratingKw: 1,
    });
    expect(refused.code).toBe(403);

    const log = await get(manager, '/site/log', { token });
    expect(log.code).toBe(200);
    expect(log.data.list.map((e: { matter: string }) => e.matter)).toEqual([
      'Edited the station “Harbour East”',
      'Added the station “Harbour”',
    ]);
    const entry = await get(manager, '/site/logInfo', { token, id: String(log.data.list[0].id) });
    expect(entry.data.detail).toMatchObject({ name: 'Harbour East', devices: 3 });

    expect((await post(manager, '/site/del', { token })).code).toBe(200);
    expect((await get(manager, `/site/getInfo/${token}`)).code).toBe(404);
    expect((await post(manager, '/ems/template/delete', { id: tpl.data.id })).code).toBe(200);
  });
});

describe('OpenAPI document', () => {
  it('lists the station calls with their schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    for (const p of ['list', 'getInfo/{token}', 'devices', 'log', 'logInfo', 'logRunRecord'])
      expect(doc.paths[`/yewu/site/${p}`]?.get?.responses['200'], p).toBeTruthy();
    for (const p of ['site/add', 'site/edit', 'site/del', 'ems/sendTactic', 'ems/demandResponse', 'ems/stats'])
      expect(doc.paths[`/yewu/${p}`]?.post?.requestBody, p).toBeTruthy();
    for (const p of ['list', 'save', 'info', 'delete'])
      expect(doc.paths[`/yewu/ems/template/${p}`]?.post, p).toBeTruthy();
    for (const p of ['ems/stats/export', 'ems/alarm/current', 'ems/alarm/history'])
      expect(doc.paths[`/yewu/${p}`]?.post, p).toBeTruthy();
    const send = doc.paths['/yewu/ems/sendTactic'].post.requestBody.content['application/json'].schema;
    expect(send.required).toEqual(expect.arrayContaining(['token', 'strategy', 'templateId', 'password']));
    const save = doc.paths['/yewu/ems/template/save'].post.requestBody.content['application/json'].schema;
    expect(save.required).toEqual(expect.arrayContaining(['name', 'ranges', 'prices', 'chargeCutoffSoc']));
  });
});

describe('the realtime channel', () => {
  it('pushes a watched station’s overview and alarm count', async () => {
    const hw = await stationHardware('Live');
    const token = await addStation(hw, { name: 'Live' });
    const address = t.app.server.address() as { port: number };
    const ws = await connectWs(`http://127.0.0.1:${address.port}`, manager);
    try {
      ws.heartbeat(token);
      const first = await ws.waitFor((m) => m.method === 'site' && m.data.token === token);
      expect(first.data).toMatchObject({ token, alarmNum: 0 });
      const since = ws.messages.length;
      await send(hw, 'bms', { bms_state: 1, soc: 64.5 }, Date.now());
      const pushed = await ws.waitFor((m) => m.method === 'site' && m.data.soc === 64.5, 5000, since);
      expect(pushed.data.token).toBe(token);

      // another company's user may not watch it
      const other = await createCompany(t, `Watcher ${n++}`);
      const stranger = await freshUser(t, { companyId: other, role: 'companyAdmin' });
      const strangerWs = await connectWs(
        `http://127.0.0.1:${address.port}`,
        await login(t.app, stranger.account, stranger.password),
      );
      strangerWs.heartbeat(token);
      const refused = await strangerWs.waitFor((m) => m.method === 'error');
      expect(refused.code).toBe(404);
      strangerWs.close();
    } finally {
      ws.close();
    }
  });
});
