// Remote configuration of a set's controller and the realtime data selection, first against a bare MQTT
// client playing module and controller (exact answers, failures, silence), then end to end with the real
// simulator and gateway: read a menu, refuse a bad value before sending, write, read the controller back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  configParamField,
  encodeFieldValue,
  layoutG,
  layoutS,
  placeBitField,
  type ProtocolDocument,
} from '@genset/protocol';
import { DEFAULT_SETTINGS, startGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger } from '@genset/gateway';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { connectFakeModule } from './support/fake-module.ts';

let t: TestApp;
let brokerUrl: string;
let manager: string;
let companyId: number;
const PASSWORD = 'Demo#2026';
const cleanup: (() => Promise<void>)[] = [];

let n = 0;
async function newSet(doc: ProtocolDocument = layoutS) {
  const modemKey = `CFG${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: `Config set ${n}`,
    modemId: modem.id,
    protocolKey: doc.key,
  });
  t.app.devices.ingest.invalidate();
  return { modemKey, secret: modem.secret, ...set };
}

type Behaviour = 'answer' | 'ignoreWrites' | 'refuse' | 'silentWrites' | 'silent';

/** A module with a controller behind it: holding registers preset with the controller's default settings. */
async function fakeController(set: Awaited<ReturnType<typeof newSet>>, doc: ProtocolDocument = layoutS) {
  const registers = new Map<number, number>();
  for (const param of doc.configParams) {
    const value = DEFAULT_SETTINGS[param.key as keyof typeof DEFAULT_SETTINGS];
    const words = encodeFieldValue(configParamField(param), value);
    if (param.bits) {
      registers.set(param.address, placeBitField(registers.get(param.address) ?? 0, param.bits, words[0]!));
    } else {
      words.forEach((word, i) => registers.set(param.address + i, word));
    }
  }
  const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
  const state = { behaviour: 'answer' as Behaviour, requests: [] as any[] };
  module.client.on('message', (topic, payload) => {
    if (!topic.endsWith('/request')) return;
    const request = JSON.parse(payload.toString());
    state.requests.push(request);
    if (state.behaviour === 'silent') return;
    if (request.kind === 'read') {
      const blocks = request.reads.map((b: any) => ({
        fc: b.fc,
        start: b.start,
        words: Array.from({ length: b.count }, (_, i) => registers.get(b.start + i) ?? 0),
      }));
      void module.publish('reply', { id: request.id, ok: true, data: { ts: Date.now(), blocks } });
      return;
    }
    if (state.behaviour === 'silentWrites') return;
    if (state.behaviour === 'refuse') {
      void module.publish('reply', { id: request.id, ok: false, error: 'write 1 of 1 failed: exception 3' });
      return;
    }
    if (state.behaviour === 'answer') {
      for (const w of request.writes) {
        if (w.fc === 6) registers.set(w.address, w.value);
        else w.values.forEach((v: number, i: number) => registers.set(w.address + i, v));
      }
    }
    void module.publish('reply', { id: request.id, ok: true });
  });
  cleanup.push(() => module.close());
  return { module, registers, state, writes: () => state.requests.filter((r) => r.kind === 'write') };
}

const read = (token: string, body: Record<string, unknown>, lang = 'en-US') =>
  call(t.app, 'POST', '/configdata/readconfignew', { token, lang, body });
const write = (token: string, body: Record<string, unknown>, lang = 'en-US') =>
  call(t.app, 'POST', '/configdata/writeconfignew', { token, lang, body });
/** The operation log's entries about a set, oldest first. */
const logOf = (setToken: string) =>
  t.app.database.db.selectFrom('operation_log').selectAll().where('target', '=', setToken).orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp({ COMMAND_TIMEOUT_MS: '1500', ONLINE_RATE_MS: '250', OFFLINE_RATE_MS: '1000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  manager = await login(t.app, 'manager@example.com', PASSWORD);
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await t.close();
});

describe('sessions', () => {
  it.each([
    '/configdata/readconfignew',
    '/configdata/writeconfignew',
    '/deviceitems/select',
    '/deviceitems/edit',
    '/deviceitems/reset',
    '/devicedata/getmonitorwithselect',
  ])('%s needs a signed-in user (101) and a valid signature (50008)', async (url) => {
    // A valid body: the schema is checked before the session.
    const fitting = url.includes('write')
      ? { token: 'abc', password: 'x', values: { a: 1 } }
      : url.endsWith('edit')
        ? { token: 'abc', items: ['a'] }
        : { token: 'abc' };
    expect((await call(t.app, 'POST', url, { body: fitting })).code).toBe(101);
    expect((await call(t.app, 'POST', url, { token: manager, body: fitting, sign: 'f'.repeat(64) })).code).toBe(50008);
  });
});

describe('/configdata/readconfignew', () => {
  it('reads a menu with its sub-menus: names in the request language, units, ranges, decimals, dropdown labels', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const res = await read(manager, { token: set.token, menu: 'engine' }, 'zh-CN');
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ state: 'ok', menu: 'engine' });
    const keys = res.data.params.map((p: any) => p.key);
    expect(keys).toEqual([
      'crank_attempts',
      'crank_time_s',
      'crank_rest_time_s',
      'preheat_time_s',
      'safety_on_time_s',
      'warm_up_time_s',
      'cooling_time_s',
    ]);
    expect(res.data.params[1]).toEqual({
      key: 'crank_time_s',
      name: '启动马达时间',
      menu: 'engine_start',
      unit: 's',
      decimals: 0,
      min: 3,
      max: 60,
      value: DEFAULT_SETTINGS.crank_time_s,
      label: null,
      options: null,
    });
    expect(res.data.menus.find((m: any) => m.key === 'engine_start')).toEqual({
      key: 'engine_start',
      name: '启动设置',
      parent: 'engine',
    });
    // The read fetched the document's configuration block, once.
    expect(controller.state.requests).toEqual([
      expect.objectContaining({ kind: 'read', port: 'port1', address: 1, reads: [{ fc: 3, start: 4096, count: 22 }] }),
    ]);

    const generator = await read(manager, { token: set.token, menu: 'generator' }, 'ru-RU');
    const frequency = generator.data.params.find((p: any) => p.key === 'rated_frequency');
    expect(frequency).toMatchObject({ value: 50, label: '50 Гц', unit: 'Hz' });
    expect(frequency.options).toEqual([
      { value: 50, label: '50 Гц' },
      { value: 60, label: '60 Гц' },
    ]);
    const battery = (await read(manager, { token: set.token, menu: 'protection' })).data.params.find(
      (p: any) => p.key === 'battery_low_warning_v',
    );
    expect(battery).toMatchObject({ value: 22, decimals: 1, unit: 'V' });
    const all = await read(manager, { token: set.token });
    expect(all.data.menu).toBeNull();
    expect(all.data.params).toHaveLength(layoutS.configParams.length);
  });

  it('refuses an unknown menu, a missing or unknown set, and answers a silent or failing module', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const menu = await read(manager, { token: set.token, menu: 'nope' });
    expect(menu).toMatchObject({ code: 400, msg: 'Menu: is not valid' });
    expect((await read(manager, {})).data.fields.token).toBe('Set: cannot be empty');
    expect((await read(manager, { token: 'nosuchset' })).code).toBe(404);
    expect(controller.state.requests).toHaveLength(0);

    controller.state.behaviour = 'silent';
    const silent = await read(manager, { token: set.token, menu: 'mains' });
    expect(silent).toMatchObject({ code: 504, data: { state: 'error' } });

    await controller.module.close();
    await expect.poll(() => t.app.devices.transport.connected(set.modemKey)).toBe(false);
    const offline = await read(manager, { token: set.token, menu: 'mains' });
    expect(offline).toMatchObject({
      code: 504,
      msg: 'The cloud module of this set is offline, so the command was not sent.',
    });
  });

  it('reports the controller’s refusal of a read', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    cleanup.push(() => module.close());
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) {
        const { id } = JSON.parse(payload.toString());
        void module.publish('reply', { id, ok: false, error: 'exception 2: illegal data address' });
      }
    });
    const res = await read(manager, { token: set.token, menu: 'mains' });
    expect(res).toMatchObject({ code: 502, data: { state: 'error' } });
    expect(res.msg).toBe('The controller refused the settings: exception 2: illegal data address');
  });
});

describe('/configdata/writeconfignew', () => {
  it('checks every value before sending anything, and names the parameter', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const outOfRange = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { crank_attempts: 5, crank_time_s: 100 },
    });
    expect(outOfRange).toMatchObject({
      code: 400,
      msg: 'Nothing was written. Crank time: 100 is outside the range 3…60 s',
    });
    expect(outOfRange.data.fields).toEqual({ crank_time_s: 'Crank time: 100 is outside the range 3…60 s' });

    const zh = await write(manager, { token: set.token, password: PASSWORD, values: { rated_frequency: 55 } }, 'zh-CN');
    expect(zh.msg).toBe('未写入任何参数。额定频率：55 不是可选项之一（50 Hz, 60 Hz）');
    const unknown = await write(manager, { token: set.token, password: PASSWORD, values: { warp_drive: 1 } });
    expect(unknown.data.fields.warp_drive).toBe('warp_drive: this set has no setting “warp_drive”');
    const empty = await write(manager, { token: set.token, password: PASSWORD, values: {} });
    expect(empty.data.fields.values).toBe('Settings: cannot be empty');
    const notNumber = await write(manager, { token: set.token, password: PASSWORD, values: { crank_attempts: '5' } });
    expect(notNumber.code).toBe(400);
    expect(controller.state.requests).toHaveLength(0);
  });

  it('needs control rights (403) and the right password (400), before anything is sent', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const viewerUser = await freshUser(t, { role: 'viewer' });
    const viewer = await login(t.app, viewerUser.account, viewerUser.password);
    await t.app.devices.fleet.subscribe(set.id, viewerUser.id, 'view');
    expect((await read(viewer, { token: set.token, menu: 'mains' })).code).toBe(200);
    const denied = await write(viewer, {
      token: set.token,
      password: viewerUser.password,
      values: { mains_fail_delay_s: 9 },
    });
    expect(denied).toMatchObject({ code: 403, msg: 'You do not have permission for this operation.' });

    const wrong = await write(manager, { token: set.token, password: 'Wrong#2026', values: { mains_fail_delay_s: 9 } });
    expect(wrong).toMatchObject({ code: 400, msg: 'The password is wrong.' });
    const missing = await write(manager, { token: set.token, values: { mains_fail_delay_s: 9 } });
    expect(missing).toMatchObject({ code: 400, msg: 'Password: cannot be empty' });
    expect(controller.writes()).toHaveLength(0);
    const log = await logOf(set.token);
    expect(log).toHaveLength(0);
  });

  it('writes changed values only, reads them back, and logs old and new values', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const res = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { crank_attempts: DEFAULT_SETTINGS.crank_attempts, crank_time_s: 12, battery_low_warning_v: 23.4 },
    });
    expect(res).toMatchObject({ code: 200, msg: 'Operation successful.', data: { state: 'ok' } });
    expect(res.data.results).toEqual([
      {
        key: 'crank_attempts',
        name: 'Crank attempts',
        old: 3,
        value: 3,
        readBack: 3,
        changed: false,
        accepted: true,
      },
      { key: 'crank_time_s', name: 'Crank time', old: 8, value: 12, readBack: 12, changed: true, accepted: true },
      {
        key: 'battery_low_warning_v',
        name: 'Battery under voltage warning',
        old: 22,
        value: 23.4,
        readBack: 23.4,
        changed: true,
        accepted: true,
      },
    ]);
    expect(controller.writes()).toEqual([
      expect.objectContaining({
        kind: 'write',
        writes: [
          { fc: 6, address: 4097, value: 12 },
          { fc: 6, address: 4096 + 16, value: 234 },
        ],
      }),
    ]);
    expect(controller.registers.get(4097)).toBe(12);
    const log = await logOf(set.token);
    expect(log.map((l) => ({ matter: l.matter, account: l.account, ...JSON.parse(l.feedback) }))).toEqual([
      expect.objectContaining({
        matter: 'log.configWrite',
        account: 'manager@example.com',
        param: 'crank_time_s',
        old: 8,
        new: 12,
        readBack: 12,
        outcome: 'ok',
      }),
      expect.objectContaining({ param: 'battery_low_warning_v', old: 22, new: 23.4, outcome: 'ok' }),
    ]);

    // Nothing changed: nothing written.
    const same = await write(manager, { token: set.token, password: PASSWORD, values: { crank_time_s: 12 } });
    expect(same.data.results[0]).toMatchObject({ changed: false, accepted: true });
    expect(controller.writes()).toHaveLength(1);
  });

  it('writes parameters at bits as the register just read with their bits replaced, one word per register', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    const register = layoutS.configParams.find((p) => p.key === 'idle_start')!.address;
    // Bits no parameter describes (here 15) belong to the controller and are written back as they were.
    controller.registers.set(register, 0x8000 | 0b0001_0001);
    const menu = await read(manager, { token: set.token, menu: 'options' }, 'es-ES');
    expect(menu.data.params.map((p: any) => [p.key, p.value, p.label])).toEqual([
      ['mains_fail_auto_start', 1, 'Activado'],
      ['idle_start', 0, 'Desactivado'],
      ['panel_language', 1, 'Chino'],
    ]);
    expect(menu.data.params[2].options).toEqual([
      { value: 0, label: 'Inglés' },
      { value: 1, label: 'Chino' },
      { value: 2, label: 'Ruso' },
      { value: 3, label: 'Español' },
    ]);

    const res = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { idle_start: 1, panel_language: 3, mains_fail_auto_start: 1, crank_time_s: 9 },
    });
    expect(res).toMatchObject({ code: 200, data: { state: 'ok' } });
    expect(controller.writes()).toEqual([
      expect.objectContaining({
        writes: [
          { fc: 6, address: register, value: 0x8000 | 0b0011_0011 },
          { fc: 6, address: 4097, value: 9 },
        ],
      }),
    ]);
    expect(res.data.results.map((r: any) => [r.key, r.old, r.value, r.readBack, r.changed, r.accepted])).toEqual([
      ['idle_start', 0, 1, 1, true, true],
      ['panel_language', 1, 3, 3, true, true],
      ['mains_fail_auto_start', 1, 1, 1, false, true],
      ['crank_time_s', 8, 9, 9, true, true],
    ]);
    const log = await logOf(set.token);
    expect(log.map((l) => JSON.parse(l.feedback))).toEqual([
      expect.objectContaining({ param: 'idle_start', old: 0, new: 1, readBack: 1, outcome: 'ok' }),
      expect.objectContaining({ param: 'panel_language', old: 1, new: 3, readBack: 3, outcome: 'ok' }),
      expect.objectContaining({ param: 'crank_time_s', old: 8, new: 9, outcome: 'ok' }),
    ]);

    // A field value beyond its bits is refused before anything is sent.
    const tooBig = await write(manager, { token: set.token, password: PASSWORD, values: { panel_language: 4 } });
    expect(tooBig).toMatchObject({ code: 400, msg: 'Nothing was written. Panel language: 4 is outside the range 0…3' });
    expect(controller.writes()).toHaveLength(1);
  });

  it('reports a value the controller did not take, a refused write and a silent module — never a false success', async () => {
    const set = await newSet();
    const controller = await fakeController(set);
    controller.state.behaviour = 'ignoreWrites';
    const ignored = await write(manager, { token: set.token, password: PASSWORD, values: { cooling_time_s: 90 } });
    expect(ignored).toMatchObject({ code: 502, msg: 'The controller did not take: Cooling time.' });
    expect(ignored.data.results[0]).toMatchObject({ old: 60, value: 90, readBack: 60, accepted: false });

    controller.state.behaviour = 'refuse';
    const refused = await write(manager, { token: set.token, password: PASSWORD, values: { cooling_time_s: 90 } });
    expect(refused).toMatchObject({ code: 502, data: { state: 'error' } });
    expect(refused.msg).toContain('exception 3');
    expect(refused.data.results[0]).toMatchObject({ accepted: false });

    controller.state.behaviour = 'silentWrites';
    const lost = await write(manager, { token: set.token, password: PASSWORD, values: { cooling_time_s: 90 } });
    expect(lost).toMatchObject({ code: 504, data: { state: 'error' } });
    expect(lost.data.results[0]).toMatchObject({ old: 60, value: 90, readBack: null, accepted: null });

    controller.state.behaviour = 'silent';
    const silent = await write(manager, { token: set.token, password: PASSWORD, values: { cooling_time_s: 90 } });
    expect(silent).toMatchObject({ code: 504, data: { state: 'error' } });

    const outcomes = await logOf(set.token);
    // The silent module was never written to: its read timed out first, so it has no log entry.
    expect(outcomes.map((l) => JSON.parse(l.feedback).outcome)).toEqual(['notTaken', 'notTaken', 'timeout']);
  });
});

describe('realtime data selection', () => {
  it('starts from the protocol’s realtime items, keeps a user’s choice and order per set, and resets', async () => {
    const set = await newSet();
    const realtime = layoutS.items.filter((i) => i.realtime).map((i) => i.key);
    const initial = await call(t.app, 'POST', '/deviceitems/select', { token: manager, body: { token: set.token } });
    expect(initial.data).toMatchObject({ custom: false, max: 40 });
    expect(initial.data.items.map((i: any) => i.key)).toEqual(realtime);
    expect(initial.data.available).toHaveLength(layoutS.items.length);

    const chosen = ['gen_kw', 'engine_rpm', 'fuel_level'];
    const edit = await call(t.app, 'POST', '/deviceitems/edit', {
      token: manager,
      lang: 'es-ES',
      body: { token: set.token, items: chosen },
    });
    expect(edit).toMatchObject({ code: 200, data: { custom: true } });
    expect(edit.data.items).toEqual([
      { key: 'gen_kw', name: 'Potencia activa', group: 'generator', unit: 'kW', decimals: 1 },
      expect.objectContaining({ key: 'engine_rpm', unit: 'r/min' }),
      expect.objectContaining({ key: 'fuel_level' }),
    ]);
    const again = await call(t.app, 'POST', '/deviceitems/select', { token: manager, body: { token: set.token } });
    expect(again.data.items.map((i: any) => i.key)).toEqual(chosen);

    // Another user of the same set still sees the default.
    const other = await freshUser(t, { role: 'viewer' });
    await t.app.devices.fleet.subscribe(set.id, other.id, 'view');
    const otherToken = await login(t.app, other.account, other.password);
    const theirs = await call(t.app, 'POST', '/deviceitems/select', { token: otherToken, body: { token: set.token } });
    expect(theirs.data.custom).toBe(false);

    // Items that left the protocol are dropped from a choice; a choice left empty falls back to the default.
    const managerId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.id;
    await t.app.database.db
      .updateTable('item_selection')
      .set({ items: JSON.stringify(['retired_item', 'gen_kw']) })
      .where('user_id', '=', managerId)
      .where('genset_id', '=', set.id)
      .execute();
    const pruned = await call(t.app, 'POST', '/deviceitems/select', { token: manager, body: { token: set.token } });
    expect(pruned.data.items.map((i: any) => i.key)).toEqual(['gen_kw']);
    await t.app.database.db
      .updateTable('item_selection')
      .set({ items: JSON.stringify(['retired_item']) })
      .where('user_id', '=', managerId)
      .execute();
    const fallback = await call(t.app, 'POST', '/deviceitems/select', { token: manager, body: { token: set.token } });
    expect(fallback.data.custom).toBe(false);
    expect(fallback.data.items.map((i: any) => i.key)).toEqual(realtime);

    const reset = await call(t.app, 'POST', '/deviceitems/reset', { token: manager, body: { token: set.token } });
    expect(reset.data.custom).toBe(false);
    expect(reset.data.items.map((i: any) => i.key)).toEqual(realtime);
    // Both writes are in the operation log, against the set.
    const log = (await logOf(set.token)).filter((l) => l.matter.startsWith('log.items'));
    expect(log.map((l) => [l.matter, JSON.parse(l.feedback)])).toEqual([
      ['log.itemsChosen', { name: expect.stringMatching(/^Config set/), count: chosen.length }],
      ['log.itemsReset', { name: expect.stringMatching(/^Config set/) }],
    ]);
  });

  it('refuses too many, unknown, repeated or no items, naming them', async () => {
    const set = await newSet();
    const edit = (items: unknown, lang = 'en-US') =>
      call(t.app, 'POST', '/deviceitems/edit', { token: manager, lang, body: { token: set.token, items } });
    const many = layoutS.items.slice(0, 41).map((i) => i.key);
    expect(await edit(many)).toMatchObject({ code: 400, msg: 'Data items: cannot select more than 40 items' });
    expect((await edit(many, 'tr-TR')).msg).toBe('Veri öğeleri: en fazla 40 öğe seçilebilir');
    expect((await edit(['gen_kw', 'warp_core'])).msg).toBe('Data items: this set has no data item “warp_core”');
    expect((await edit(['gen_kw', 'gen_kw'])).msg).toBe('Data items: “gen_kw” is chosen twice');
    expect((await edit([])).msg).toBe('Data items: cannot be empty');
    expect((await edit('gen_kw')).code).toBe(400);
    expect(
      (await call(t.app, 'POST', '/deviceitems/edit', { token: manager, body: { token: 'nope', items: ['gen_kw'] } }))
        .code,
    ).toBe(404);
    const stored = await t.app.database.db
      .selectFrom('item_selection')
      .selectAll()
      .where('genset_id', '=', set.id)
      .execute();
    expect(stored).toHaveLength(0);
  });

  it('offers the measurements for history and alarm queries, in the request language, marked when selected', async () => {
    const set = await newSet(layoutG);
    await call(t.app, 'POST', '/deviceitems/edit', { token: manager, body: { token: set.token, items: ['gen_kw'] } });
    const res = await call(t.app, 'POST', '/devicedata/getmonitorwithselect', {
      token: manager,
      lang: 'zh-TW',
      body: { token: set.token },
    });
    expect(res.code).toBe(200);
    const keys = res.data.items.map((i: any) => i.key);
    expect(keys).toContain('coolant_temp');
    expect(keys).toContain('kwh_total');
    // Bits, enumerated states, alarm bit fields and positions are not trends.
    for (const key of ['gen_on_load', 'mode', 'engine_state', 'shutdown_alarms', 'latitude']) {
      expect(keys).not.toContain(key);
    }
    expect(res.data.items.find((i: any) => i.key === 'gen_kw')).toEqual({
      key: 'gen_kw',
      name: '有功功率',
      group: 'generator',
      unit: 'kW',
      decimals: 1,
      selected: true,
    });
    expect(res.data.items.filter((i: any) => i.selected)).toHaveLength(1);
    expect(
      (await call(t.app, 'POST', '/devicedata/getmonitorwithselect', { token: manager, body: { token: 'nope' } })).code,
    ).toBe(404);
  });
});

describe('with the simulator and the gateway', () => {
  async function startSite(layout: 'S' | 'G') {
    const sim = await startGensetSimulator({ layout, port: 0, host: '127.0.0.1', unitId: 1, seed: 3, realtime: false });
    const set = await newSet(layout === 'S' ? layoutS : layoutG);
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const gateway = await startGateway(
      {
        modemId: set.modemKey,
        secret: set.secret,
        brokerUrl,
        dataDir,
        ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port, controllers: [{ address: 1 }] }],
      },
      { logger: silentLogger },
    );
    cleanup.push(async () => {
      await gateway.close();
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await expect.poll(() => t.app.devices.transport.connected(set.modemKey), { timeout: 10_000 }).toBe(true);
    return { sim, set };
  }

  it('reads a menu, refuses an out-of-range change before sending, writes the valid one and reads it back', async () => {
    const { sim, set } = await startSite('S');
    const menu = await read(manager, { token: set.token, menu: 'engine_start' });
    expect(menu.code).toBe(200);
    const values = Object.fromEntries(menu.data.params.map((p: any) => [p.key, p.value]));
    expect(values).toMatchObject({ crank_attempts: 3, crank_time_s: 8, crank_rest_time_s: 10 });

    const both = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { crank_attempts: 5, crank_time_s: 75 },
    });
    expect(both.code).toBe(400);
    expect(both.msg).toContain('Crank time: 75 is outside the range 3…60 s');
    expect(sim.model.settings).toMatchObject({ crank_attempts: 3, crank_time_s: 8 });
    const writesBefore = await t.app.database.db
      .selectFrom('command')
      .select('name')
      .where('genset_id', '=', set.id)
      .where('kind', '=', 'write')
      .execute();
    expect(writesBefore).toHaveLength(0);

    const valid = await write(manager, { token: set.token, password: PASSWORD, values: { crank_attempts: 5 } });
    expect(valid).toMatchObject({ code: 200, data: { state: 'ok' } });
    expect(valid.data.results).toEqual([
      { key: 'crank_attempts', name: 'Crank attempts', old: 3, value: 5, readBack: 5, changed: true, accepted: true },
    ]);
    expect(sim.model.settings.crank_attempts).toBe(5);
    expect(sim.readRegisters(3, 4096, 1)).toEqual([5]);
    const reread = await read(manager, { token: set.token, menu: 'engine_start' });
    expect(reread.data.params.find((p: any) => p.key === 'crank_attempts').value).toBe(5);

    const log = await logOf(set.token);
    expect(log).toHaveLength(1);
    expect(log[0]!.matter).toBe('log.configWrite');
    expect(JSON.parse(log[0]!.feedback)).toMatchObject({ param: 'crank_attempts', old: 3, new: 5, outcome: 'ok' });
  });

  it('changes one bit setting of a register; the other keeps its value in the controller; a bad field value is refused first', async () => {
    const { sim, set } = await startSite('S');
    const register = layoutS.configParams.find((p) => p.key === 'idle_start')!.address;
    const menu = await read(manager, { token: set.token, menu: 'options' });
    expect(Object.fromEntries(menu.data.params.map((p: any) => [p.key, p.value]))).toEqual({
      mains_fail_auto_start: 1,
      idle_start: 0,
      panel_language: 0,
    });

    const tooBig = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { idle_start: 2, mains_fail_auto_start: 0 },
    });
    expect(tooBig).toMatchObject({
      code: 400,
      msg: 'Nothing was written. Start at idle speed: 2 is outside the range 0…1',
    });
    expect(sim.readRegisters(3, register, 1)).toEqual([0b0001]);

    const res = await write(manager, { token: set.token, password: PASSWORD, values: { idle_start: 1 } });
    expect(res).toMatchObject({ code: 200, data: { state: 'ok' } });
    expect(res.data.results).toEqual([
      { key: 'idle_start', name: 'Start at idle speed', old: 0, value: 1, readBack: 1, changed: true, accepted: true },
    ]);
    // Bit 0 (start on mains failure) kept its value in the controller's register.
    expect(sim.readRegisters(3, register, 1)).toEqual([0b0011]);
    expect(sim.model.settings).toMatchObject({ mains_fail_auto_start: 1, idle_start: 1, panel_language: 0 });

    // Two fields of the register in one request: one write of one word.
    const both = await write(manager, {
      token: set.token,
      password: PASSWORD,
      values: { mains_fail_auto_start: 0, panel_language: 2 },
    });
    expect(both).toMatchObject({ code: 200, data: { state: 'ok' } });
    expect(sim.readRegisters(3, register, 1)).toEqual([0b0010_0010]);
    expect(sim.model.settings).toMatchObject({ mains_fail_auto_start: 0, idle_start: 1, panel_language: 2 });

    const commands = await t.app.database.db
      .selectFrom('command')
      .select(['name', 'request'])
      .where('genset_id', '=', set.id)
      .orderBy('id')
      .execute();
    // Each write was preceded by a read of the register (with the rest of the configuration block).
    expect(commands.map((c) => c.name)).toEqual([
      'config-read',
      'config-read',
      'config-write',
      'config-read',
      'config-read',
      'config-write',
      'config-read',
    ]);
    expect(JSON.parse(commands[1]!.request).reads).toEqual([{ fc: 3, start: 4096, count: 22 }]);
    expect(commands.filter((c) => c.name === 'config-write').map((c) => JSON.parse(c.request).writes)).toEqual([
      [{ fc: 6, address: register, value: 0b0011 }],
      [{ fc: 6, address: register, value: 0b0010_0010 }],
    ]);
    const log = await logOf(set.token);
    expect(log.map((l) => JSON.parse(l.feedback))).toEqual([
      expect.objectContaining({ param: 'idle_start', old: 0, new: 1, outcome: 'ok' }),
      expect.objectContaining({ param: 'mains_fail_auto_start', old: 1, new: 0, outcome: 'ok' }),
      expect.objectContaining({ param: 'panel_language', old: 0, new: 2, outcome: 'ok' }),
    ]);
  });

  it('writes a 32-bit scaled setting of layout G with one multi-register write', async () => {
    const { sim, set } = await startSite('G');
    const res = await write(manager, { token: set.token, password: PASSWORD, values: { rated_kw: 250.5 } });
    expect(res).toMatchObject({ code: 200, data: { state: 'ok' } });
    expect(res.data.results[0]).toMatchObject({ old: 200, value: 250.5, readBack: 250.5, accepted: true });
    expect(sim.model.settings.rated_kw).toBe(250.5);
    const request = await t.app.database.db
      .selectFrom('command')
      .select('request')
      .where('genset_id', '=', set.id)
      .where('kind', '=', 'write')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(request.request).writes).toEqual([
      { fc: 16, address: layoutG.configParams.find((p) => p.key === 'rated_kw')!.address, values: [0, 2505] },
    ]);
  });
});

describe('OpenAPI document', () => {
  it('lists the configuration and selection calls with their schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    for (const p of [
      '/yewu/configdata/readconfignew',
      '/yewu/configdata/writeconfignew',
      '/yewu/deviceitems/edit',
      '/yewu/deviceitems/reset',
      '/yewu/deviceitems/select',
      '/yewu/devicedata/getmonitorwithselect',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
      expect(doc.paths[p].post.responses['200'].content['application/json'].schema).toBeTruthy();
    }
    const writeBody = doc.paths['/yewu/configdata/writeconfignew'].post.requestBody.content['application/json'].schema;
    expect(writeBody.required).toEqual(expect.arrayContaining(['token', 'password', 'values']));
  });
});
