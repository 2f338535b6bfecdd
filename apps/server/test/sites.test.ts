// Energy-storage stations against a real server (SQLite, or PostgreSQL with TEST_DATABASE_URL): a station's sets
// are layout E controllers on one cloud module that talks through the embedded broker. Price templates are
// refused naming the field (periods that overlap or leave a gap, cut-offs out of range or inverted), saved in
// versions and not deleted while used; stations are added, edited, listed and hidden from other companies; a
// tactic is built from the sets' documents and sent with the password (a station lacking a role is refused and
// nothing is sent; the module's refusal is recorded with its reason); the module's EMS status moves the station
// and a safe stop is an alarm of its PCS; a station token is watchable on /ws. Energy and income come from the
// PCS's counters fed through the real ingestion: a day's income equals the hand calculation from the stored
// period rows and the templates to the cent, a template changed at noon prices from noon only, a resend counts
// once and a counter reset never counts negative.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  LAYOUT_E_PCS_REGISTERS,
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  localClock,
  minutesOf,
  type PriceTemplateBody,
  type ProtocolDocument,
} from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';
import { connectWs } from './support/ws-client.ts';
import { translate } from '../src/i18n/messages.ts';
import { EMS_SAFE_ALARM_CODE } from '../src/modules/sites/ems-status.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;
const modules: FakeModule[] = [];
let n = 0;

const post = (token: string, url: string, body: unknown, lang?: string) =>
  call(t.app, 'POST', url, { token, body, ...(lang ? { lang } : {}) });
const get = (token: string, url: string, query: Record<string, string> = {}, lang?: string) =>
  call(t.app, 'GET', url, { token, query, ...(lang ? { lang } : {}) });

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const PRICES = {
  sharp: { buy: 1.32, sell: 1.25 },
  peak: { buy: 1.05, sell: 0.98 },
  flat: { buy: 0.64, sell: 0.6 },
  valley: { buy: 0.31, sell: 0.28 },
};

function template(over: Partial<PriceTemplateBody> = {}): PriceTemplateBody {
  return {
    ranges: [
      { start: '00:00', end: '08:00', period: 'valley' },
      { start: '08:00', end: '10:00', period: 'flat' },
      { start: '10:00', end: '14:00', period: 'peak' },
      { start: '14:00', end: '17:00', period: 'sharp' },
      { start: '17:00', end: '22:00', period: 'flat' },
      { start: '22:00', end: '24:00', period: 'valley' },
    ],
    prices: PRICES,
    powerKw: 100,
    chargeCutoffSoc: 95,
    dischargeCutoffSoc: 10,
    socMargin: 3,
    chargeInFlat: false,
    reversePower: { enabled: true, marginKw: 5 },
    demandControl: { enabled: true, limitKw: 400 },
    ...over,
  };
}

interface Station {
  modemKey: string;
  modemId: number;
  module: FakeModule;
  sets: Record<'pcs' | 'bms' | 'meter' | 'pv', { token: string; id: number; address: number; doc: ProtocolDocument }>;
  seq: number;
}

/** A module with a PCS, a BMS, a grid meter and a PV inverter (layout E) on port1, said hello. */
async function stationHardware(name: string, company = companyId, owner: number | null = managerId): Promise<Station> {
  const modemKey = `ESS${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId: company, modemKey });
  const docs = { pcs: layoutEPcs, bms: layoutEBms, meter: layoutEMeter, pv: layoutEPv } as const;
  const sets = {} as Station['sets'];
  let address = 1;
  for (const [role, doc] of Object.entries(docs) as [keyof typeof docs, ProtocolDocument][]) {
    const set = await t.app.devices.fleet.createGenset({
      companyId: company,
      ownerUserId: owner,
      name: `${name} ${role}`,
      modemId: modem.id,
      port: 'port1',
      address,
      protocolKey: doc.key,
    });
    sets[role] = { token: set.token, id: set.id, address, doc };
    address++;
  }
  t.app.devices.ingest.invalidate();
  const module = await connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, modemKey, modem.secret);
  modules.push(module);
  await module.publish('hello', {
    model: 'GC-4G',
    firmware: '3.1.0',
    imei: '861234567890123',
    iccid: '',
    controllers: [1, 2, 3, 4].map((a) => ({ port: 'port1', address: a })),
  });
  await until('the hello', async () => {
    const m = await t.app.database.db
      .selectFrom('modem')
      .select('online')
      .where('id', '=', modem.id)
      .executeTakeFirst();
    return m?.online === 1;
  });
  return { modemKey, modemId: modem.id, module, sets, seq: 0 };
}

const bindings = (s: Station, roles: ('pcs' | 'bms' | 'meter' | 'pv')[] = ['pcs', 'bms', 'meter', 'pv']) =>
  roles.map((role) => ({ token: s.sets[role].token, role }));

/** One snapshot of a station device, stored through ingestion (acked and flushed). */
async function send(s: Station, role: keyof Station['sets'], values: Record<string, number>, ts: number) {
  const seq = ++s.seq;
  await s.module.publish('data', {
    seq,
    ts,
    port: 'port1',
    address: s.sets[role].address,
    blocks: encodeBlocks(s.sets[role].doc, values),
  });
  await s.module.waitFor('ack', (a: { upTo: number }) => a.upTo >= seq);
  await t.app.devices.ingest.flush();
  return seq;
}

async function saveTemplate(token: string, body: object, lang?: string) {
  return post(token, '/ems/template/save', body, lang);
}

async function addStation(s: Station, over: Record<string, unknown> = {}) {
  const res = await post(manager, '/site/add', {
    name: `Station ${n++}`,
    timeZone: 'Asia/Shanghai',
    capacityKwh: 430,
    ratingKw: 200,
    transformerKw: 630,
    modemId: s.modemKey,
    devices: bindings(s),
    ...over,
  });
  expect(res.code, res.msg).toBe(200);
  return res.data.token as string;
}

beforeAll(async () => {
  t = await createTestApp({ COMMAND_TIMEOUT_MS: '3000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const row = await t.app.database.db
    .selectFrom('users')
    .select(['id', 'company_id'])
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  managerId = row.id;
  companyId = row.company_id;
});
afterAll(async () => {
  for (const m of modules) await m.close().catch(() => undefined);
  await t.close();
});

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

describe('tactics', () => {
  it('are refused naming what the station lacks, with nothing sent', async () => {
    const hw = await stationHardware('Lacking');
    const tpl = await saveTemplate(manager, { name: `Lacking tariff ${n++}`, ...template() });
    const token = await addStation(hw, { devices: bindings(hw, ['pcs', 'pv']) });
    const res = await post(manager, '/ems/sendTactic', {
      token,
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      password: 'Demo#2026',
    });
    expect(res.code).toBe(400);
    expect(res.msg).toBe('Station devices: the station has no BMS');
    // no tactic runs: no demand-response event either
    const now = Date.now();
    const dr = await post(manager, '/ems/demandResponse', { token, start: now, end: now + 60_000, kw: 10 });
    expect(dr.code).toBe(409);
    const zh = await post(
      manager,
      '/ems/sendTactic',
      { token, strategy: 'timeOfUse', templateId: tpl.data.id, password: 'Demo#2026' },
      'zh-CN',
    );
    expect(zh.msg).toBe('电站设备：电站没有BMS');

    const wrong = await post(manager, '/ems/sendTactic', {
      token,
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      password: 'Wrong#2026',
    });
    expect(wrong.code).toBe(400);
    expect(wrong.msg).toBe(translate('en-US', 'errors.wrongPassword'));

    // the BMS bound in the meter's role: the meter's protocol has no grid power for the tactic's ... and so on
    await post(manager, '/site/edit', {
      token,
      name: 'Lacking',
      timeZone: 'Asia/Shanghai',
      capacityKwh: 430,
      ratingKw: 200,
      modemId: hw.modemKey,
      devices: [
        { token: hw.sets.pcs.token, role: 'pcs' },
        { token: hw.sets.bms.token, role: 'bms' },
        { token: hw.sets.pv.token, role: 'meter' },
      ],
    });
    const role = await post(manager, '/ems/sendTactic', {
      token,
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      password: 'Demo#2026',
    });
    expect(role.code).toBe(400);
    expect(role.msg).toBe('Station devices: the protocol of the station’s grid meter has no grid power (gridPowerKw)');

    await new Promise((r) => setTimeout(r, 100));
    expect(hw.module.received.filter((m) => m.channel === 'request')).toEqual([]);
    const rows = await t.app.database.db
      .selectFrom('site_tactic')
      .innerJoin('site', 'site.id', 'site_tactic.site_id')
      .select('site_tactic.id')
      .where('site.token', '=', token)
      .execute();
    expect(rows).toEqual([]);
  });

  it('are built from the sets’ documents, sent, and their outcome recorded; the EMS status follows', async () => {
    const hw = await stationHardware('Works');
    const tpl = await saveTemplate(manager, { name: `Works tariff ${n++}`, ...template() });
    const token = await addStation(hw, { name: 'Works' });
    let answer: 'ok' | 'refuse' = 'ok';
    hw.module.client.on('message', (topic, payload) => {
      if (!topic.endsWith('/request')) return;
      const req = JSON.parse(payload.toString()) as { id: string };
      void hw.module.publish(
        'reply',
        answer === 'ok' ? { id: req.id, ok: true } : { id: req.id, ok: false, error: 'PCS in local mode' },
      );
    });

    const ok = await post(manager, '/ems/sendTactic', {
      token,
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      password: 'Demo#2026',
    });
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data).toEqual({
      version: 1,
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      templateVersion: 1,
      outcome: 'accepted',
    });
    const request = await hw.module.waitFor('request', (r: { kind: string }) => r.kind === 'tactic');
    expect(request.tactic).toMatchObject({ version: 1, strategy: 'timeOfUse', timeZone: 'Asia/Shanghai' });
    expect(request.tactic.template.ranges).toHaveLength(6);
    expect(request.tactic.roles.pcsSetpointKw).toMatchObject({
      port: 'port1',
      address: hw.sets.pcs.address,
      fc: 3,
      register: LAYOUT_E_PCS_REGISTERS.setpoint,
    });
    expect(request.tactic.roles.gridPowerKw).toMatchObject({ address: hw.sets.meter.address });
    expect(request.tactic.roles.soc).toMatchObject({ address: hw.sets.bms.address });
    expect(request.tactic.roles.pvPowerKw).toMatchObject({ address: hw.sets.pv.address });

    // a demand-response event for the tactic in force
    const start = Date.now() + 60_000;
    const dr = await post(manager, '/ems/demandResponse', { token, start, end: start + 1_800_000, kw: 120 });
    expect(dr.code, dr.msg).toBe(200);
    const event = await hw.module.waitFor('request', (r: { kind: string }) => r.kind === 'demandResponse');
    expect(event.event).toEqual({ id: dr.data.id, startTs: start, endTs: start + 1_800_000, kw: 120 });
    const over = await post(manager, '/ems/demandResponse', { token, start: 0, end: 1000, kw: 120 });
    expect(over.code).toBe(400);
    expect(Object.keys(over.data.fields)).toEqual(['end']);

    answer = 'refuse';
    const refused = await post(manager, '/ems/sendTactic', {
      token,
      strategy: 'capacityExpansion',
      templateId: tpl.data.id,
      password: 'Demo#2026',
    });
    expect(refused.code).toBe(502);
    expect(refused.msg).toBe('The station’s module refused the tactic: PCS in local mode');

    const tactics = await t.app.database.db
      .selectFrom('site_tactic')
      .innerJoin('site', 'site.id', 'site_tactic.site_id')
      .select(['site_tactic.version', 'site_tactic.outcome', 'site_tactic.reason', 'site_tactic.strategy'])
      .where('site.token', '=', token)
      .orderBy('site_tactic.version')
      .execute();
    expect(tactics).toEqual([
      { version: 1, outcome: 'accepted', reason: '', strategy: 'timeOfUse' },
      { version: 2, outcome: 'refused', reason: 'PCS in local mode', strategy: 'capacityExpansion' },
    ]);
    const info = await get(manager, `/site/getInfo/${token}`);
    expect(info.data.tactic).toMatchObject({
      sentVersion: 2,
      sentOutcome: 'refused',
      strategy: 'timeOfUse',
      templateId: tpl.data.id,
      templateVersion: 1,
    });

    // the module says what it runs; a safe stop is an alarm of the PCS, cleared by the module's word
    const ts = Date.now() - 10_000;
    await hw.module.publish('event', { ts, ems: { version: 1, strategy: 'timeOfUse', setpointKw: -80, ts } });
    await until(
      'the running version',
      async () => (await get(manager, `/site/getInfo/${token}`)).data.tactic.runningVersion === 1,
    );
    await hw.module.publish('event', {
      ts: ts + 1000,
      ems: { version: 1, strategy: 'timeOfUse', setpointKw: 0, safe: 'bmsFault', ts: ts + 1000 },
    });
    const alarm = await until('the safe-stop alarm', async () =>
      t.app.database.db
        .selectFrom('alarm')
        .selectAll()
        .where('genset_id', '=', hw.sets.pcs.id)
        .where('code', '=', EMS_SAFE_ALARM_CODE)
        .executeTakeFirst(),
    );
    expect(alarm).toMatchObject({ level: 'shutdown', end_ts: null });
    expect(JSON.parse(alarm.title)['ru-RU']).toBe('Безопасный останов EMS: неисправность BMS');
    const current = await post(manager, '/ems/alarm/current', { token });
    expect(current.data.alarmNum).toBe(1);
    expect(current.data.list[0]).toMatchObject({
      code: EMS_SAFE_ALARM_CODE,
      setToken: hw.sets.pcs.token,
      role: 'pcs',
      title: 'EMS safe stop: BMS fault',
    });
    const stopped = await get(manager, `/site/getInfo/${token}`);
    expect(stopped.data.tactic.safe).toBe('bmsFault');

    await hw.module.publish('event', {
      ts: ts + 2000,
      ems: { version: 1, strategy: 'timeOfUse', setpointKw: 50, ts: ts + 2000 },
    });
    await until('the alarm closed', async () => {
      const a = await t.app.database.db
        .selectFrom('alarm')
        .select('end_ts')
        .where('id', '=', alarm.id)
        .executeTakeFirst();
      return a?.end_ts === ts + 2000;
    });
    const history = await post(manager, '/ems/alarm/history', { token, state: 'ended' });
    expect(history.data.list.map((a: { id: number }) => a.id)).toEqual([alarm.id]);

    const records = await get(manager, '/site/logRunRecord', { token, size: '50' });
    expect(records.code).toBe(200);
    // in the order they happened: the module's events carry its own time (ten seconds before the tactics here)
    expect(records.data.list.map((r: { kind: string }) => r.kind).reverse()).toEqual([
      'safeStop',
      'stateChanged',
      'safeCleared',
      'stateChanged',
      'tacticSent',
      'tacticAccepted',
      'demandResponse',
      'tacticSent',
      'tacticRefused',
    ]);
    const safeRecord = records.data.list.find((r: { kind: string }) => r.kind === 'safeStop');
    expect(safeRecord.text).toBe('Safe stop: BMS fault');
    const refusedRecord = records.data.list.find((r: { kind: string }) => r.kind === 'tacticRefused');
    expect(refusedRecord.text).toBe('Tactic 2 refused by the module: PCS in local mode');
    const log = await get(manager, '/site/log', { token });
    expect(log.data.list.slice(0, 3).map((e: { outcome: string }) => e.outcome)).toEqual(['refused', 'ok', 'accepted']);
    expect(log.data.list[1].matter).toBe(`Sent a demand-response event of 120 kW to “Works”`);
  });
});

describe('energy and income', () => {
  it('come from the PCS’s counters: a day equals the hand calculation, a template changed at noon prices from noon', async () => {
    // a station whose local time is between 06:00 and 07:00 now, so its whole day (past and the hours to come,
    // within the day ahead ingestion takes) and its coming noon can be fed
    const hour = new Date().getUTCHours();
    let offset = (6 - hour + 24) % 24;
    if (offset > 14) offset -= 24;
    const timeZone = offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
    const today = localClock(Date.now(), timeZone).day;
    const dayStart = Date.parse(`${today}T00:00:00Z`) - offset * 3_600_000;
    const at = (hhmm: string) => dayStart + minutesOf(hhmm) * 60_000;
    expect(localClock(at('12:00'), timeZone)).toMatchObject({ day: today, minute: 720 });

    const hw = await stationHardware('Counted');
    const tpl = await saveTemplate(manager, { name: `Counted tariff ${n++}`, ...template() });
    const noonPrices = { ...PRICES, peak: { buy: 1.21, sell: 1.13 } };
    const token = await addStation(hw, { name: 'Counted', timeZone, templateId: tpl.data.id, currency: 'EUR' });
    const changed = await saveTemplate(manager, {
      id: tpl.data.id,
      name: `Counted tariff`,
      validFrom: at('12:00'),
      ...template({ prices: noonPrices }),
    });
    expect(changed.code, changed.msg).toBe(200);

    // cumulative counters (kWh, one decimal as the PCS keeps them) at local times
    const readings: [string, number, number][] = [
      ['00:30', 1000.0, 500.0], // where counting starts
      ['03:00', 1150.5, 500.0], // valley charge
      ['06:00', 1240.2, 500.0], // valley charge
      ['09:00', 1240.2, 540.7], // flat discharge
      ['11:30', 1240.2, 612.3], // peak discharge before noon: first prices
      ['12:30', 1240.2, 655.9], // peak discharge after noon: the noon prices
      ['15:00', 1240.2, 760.1], // sharp discharge
      ['23:00', 1301.6, 760.1], // valley charge
    ];
    const pcs = (charge: number, discharge: number) => ({
      pcs_state: 2,
      active_power: 0,
      charge_energy: charge,
      discharge_energy: discharge,
    });
    let previousSeq = 0;
    for (const [time, charge, discharge] of readings)
      previousSeq = await send(hw, 'pcs', pcs(charge, discharge), at(time));
    // a resend of an earlier snapshot counts nothing (same seq, already stored) ...
    await hw.module.publish('data', {
      seq: previousSeq,
      ts: at('23:00'),
      port: 'port1',
      address: hw.sets.pcs.address,
      blocks: encodeBlocks(layoutEPcs, pcs(1301.6, 760.1)),
    });
    // ... nor does a late snapshot of an earlier time with new seq, nor a counter that went back (a reset)
    await send(hw, 'pcs', pcs(1290, 750), at('22:00'));
    await send(hw, 'pcs', pcs(2.5, 1.0), at('23:30'));
    await send(hw, 'pcs', pcs(4.0, 1.0), at('23:45')); // counted again from the reset: 1.5 kWh valley charge

    const expected = { charge: 0, discharge: 0, cost: 0, income: 0 };
    const priceAt = (time: string) => {
      const minute = minutesOf(time);
      const body = template();
      const range = body.ranges.find((r) => minutesOf(r.start) <= minute && minute < minutesOf(r.end))!;
      const prices = minute >= minutesOf('12:00') ? noonPrices : PRICES;
      return prices[range.period];
    };
    const deltas: [string, number, number][] = [];
    for (let i = 1; i < readings.length; i++)
      deltas.push([readings[i]![0], readings[i]![1] - readings[i - 1]![1], readings[i]![2] - readings[i - 1]![2]]);
    deltas.push(['23:45', 1.5, 0]);
    for (const [time, c, d] of deltas) {
      const p = priceAt(time);
      expected.charge += c;
      expected.discharge += d;
      expected.cost += c * p.buy;
      expected.income += d * p.sell;
    }

    const stats = await post(manager, '/ems/stats', { token, granularity: 'day', date: today });
    expect(stats.code, stats.msg).toBe(200);
    expect(stats.data).toMatchObject({ currency: 'EUR', timeZone, granularity: 'day', date: today });
    expect(stats.data.buckets).toHaveLength(1);
    const totals = stats.data.totals;
    expect(totals.chargeKwh).toBeCloseTo(expected.charge, 3);
    expect(totals.dischargeKwh).toBeCloseTo(expected.discharge, 3);
    expect(totals.chargeCost).toBe(Math.round(expected.cost * 100) / 100);
    expect(totals.dischargeIncome).toBe(Math.round(expected.income * 100) / 100);
    expect(totals.income).toBe(Math.round((expected.income - expected.cost) * 100) / 100);

    // the same from the stored period rows and the template versions they name
    const rows = await t.app.database.db
      .selectFrom('site_energy')
      .innerJoin('site', 'site.id', 'site_energy.site_id')
      .innerJoin('price_template_version', 'price_template_version.id', 'site_energy.template_version_id')
      .select([
        'site_energy.period',
        'site_energy.day',
        'site_energy.charge_kwh',
        'site_energy.discharge_kwh',
        'price_template_version.version',
        'price_template_version.body',
      ])
      .where('site.token', '=', token)
      .execute();
    let byHand = 0;
    for (const r of rows) {
      expect(r.day).toBe(today);
      const prices = (JSON.parse(r.body) as PriceTemplateBody).prices[r.period as 'peak'];
      byHand += Number(r.discharge_kwh) * prices.sell - Number(r.charge_kwh) * prices.buy;
    }
    expect(totals.income).toBe(Math.round(byHand * 100) / 100);
    // the peak before noon was priced with version 1, after noon with version 2
    const peak = rows.filter((r) => r.period === 'peak').sort((a, b) => a.version - b.version);
    expect(peak.map((r) => [r.version, Number(r.discharge_kwh).toFixed(1)])).toEqual([
      [1, (612.3 - 540.7).toFixed(1)],
      [2, (655.9 - 612.3).toFixed(1)],
    ]);
    expect(stats.data.periods.peak.dischargeIncome).toBe(
      Math.round(((612.3 - 540.7) * PRICES.peak.sell + (655.9 - 612.3) * noonPrices.peak.sell) * 100) / 100,
    );
    expect(stats.data.periods.valley.chargeKwh).toBeCloseTo(150.5 + 89.7 + 61.4 + 1.5, 3);

    // the month and the year hold the same day; the header's totals and the list's today agree
    const month = await post(manager, '/ems/stats', { token, granularity: 'month', date: today.slice(0, 7) });
    expect(month.data.buckets.find((b: { bucket: string }) => b.bucket === today).income).toBe(totals.income);
    expect(month.data.totals.income).toBe(totals.income);
    const year = await post(manager, '/ems/stats', { token, granularity: 'year', date: today.slice(0, 4) });
    expect(year.data.buckets).toHaveLength(12);
    expect(year.data.totals.income).toBe(totals.income);
    const info = await get(manager, `/site/getInfo/${token}`);
    expect(info.data.site.total_income).toBe(totals.income);
    expect(info.data.overview.todayIncome).toBe(totals.income);
    const list = await get(manager, '/site/list', { name: 'Counted' });
    expect(list.data.list[0]).toMatchObject({ todayIncome: totals.income, totalIncome: totals.income });

    // the answers are kept between changes: a sample stored after they were read shows at once in all of them
    await send(hw, 'pcs', pcs(6.0, 1.0), at('23:50')); // 2 kWh more valley charge
    const moreCost = expected.cost + 2 * priceAt('23:50').buy;
    const incomeNow = Math.round((expected.income - moreCost) * 100) / 100;
    const dayNow = await post(manager, '/ems/stats', { token, granularity: 'day', date: today });
    expect(dayNow.data.totals.chargeKwh).toBeCloseTo(expected.charge + 2, 3);
    expect(dayNow.data.totals.income).toBe(incomeNow);
    const yearNow = await post(manager, '/ems/stats', { token, granularity: 'year', date: today.slice(0, 4) });
    expect(yearNow.data.totals.income).toBe(incomeNow);
    const listNow = await get(manager, '/site/list', { name: 'Counted' });
    expect(listNow.data.list[0]).toMatchObject({ todayIncome: incomeNow, totalIncome: incomeNow });

    const badDate = await post(manager, '/ems/stats', { token, granularity: 'month', date: today });
    expect(badDate.code).toBe(400);
    expect(Object.keys(badDate.data.fields)).toEqual(['date']);

    const file = await t.app.inject({
      method: 'POST',
      url: '/yewu/ems/stats/export',
      headers: signedHeaders(manager),
      payload: { token, granularity: 'day', date: today, format: 'csv' },
    });
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.body).toContain(`Income (EUR)`);
    expect(file.body).toContain(String(incomeNow));
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

/** The export answers with the file itself: signed like every call. */
function signedHeaders(token: string): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-token': token,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': 'en-US',
  };
}
