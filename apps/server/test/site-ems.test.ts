// Energy-storage stations at work, against a real server (SQLite, or PostgreSQL with TEST_DATABASE_URL): a
// station's sets are layout E controllers on one cloud module that talks through the embedded broker. A tactic is
// built from the sets' documents and sent with the password (a station lacking a role is refused and nothing is
// sent; the module's refusal is recorded with its reason); the module's EMS status moves the station and a safe
// stop is an alarm of its PCS. Energy and income come from the PCS's counters fed through the real ingestion: a
// day's income equals the hand calculation from the stored period rows and the templates to the cent, a template
// changed at noon prices from noon only, a resend counts once and a counter reset never counts negative.
// Templates, stations and the realtime channel are in sites.test.ts.
import { describe, expect, it } from 'vitest';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  LAYOUT_E_PCS_REGISTERS,
  layoutEPcs,
  localClock,
  minutesOf,
  type PriceTemplateBody,
} from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';
import { EMS_SAFE_ALARM_CODE } from '../src/modules/sites/ems-status.ts';
import { encodeBlocks } from './support/encode.ts';
import {
  addStation,
  bindings,
  get,
  manager,
  post,
  PRICES,
  saveTemplate,
  send,
  stationHardware,
  t,
  template,
  until,
  useStationServer,
} from './support/sites.ts';

/** Numbers the names the tests give, so that each is new. */
let n = 0;

/** Sends a station a tactic from a template, with the manager's password unless another is given. */
const sendTactic = (
  token: string,
  templateId: number,
  o: { strategy?: string; password?: string; lang?: string } = {},
) =>
  post(
    manager,
    '/ems/sendTactic',
    { token, strategy: o.strategy ?? 'timeOfUse', templateId, password: o.password ?? 'Demo#2026' },
    o.lang,
  );

useStationServer();

describe('tactics', () => {
  it('are refused naming what the station lacks, with nothing sent', async () => {
    const hw = await stationHardware('Lacking');
    const tpl = await saveTemplate(manager, { name: `Lacking tariff ${n++}`, ...template() });
    const token = await addStation(hw, { devices: bindings(hw, ['pcs', 'pv']) });
    const res = await sendTactic(token, tpl.data.id);
    expect(res.code).toBe(400);
    expect(res.msg).toBe('Station devices: the station has no BMS');
    // no tactic runs: no demand-response event either
    const now = Date.now();
    const dr = await post(manager, '/ems/demandResponse', { token, start: now, end: now + 60_000, kw: 10 });
    expect(dr.code).toBe(409);
    const zh = await sendTactic(token, tpl.data.id, { lang: 'zh-CN' });
    expect(zh.msg).toBe('电站设备：电站没有BMS');

    const wrong = await sendTactic(token, tpl.data.id, { password: 'Wrong#2026' });
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
    const role = await sendTactic(token, tpl.data.id);
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

    const ok = await sendTactic(token, tpl.data.id);
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
    const refused = await sendTactic(token, tpl.data.id, { strategy: 'capacityExpansion' });
    expect(refused.code).toBe(502);
    expect(refused.msg).toBe('The station’s module refused the strategy: PCS in local mode');

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
    expect(refusedRecord.text).toBe('Strategy 2 refused by the module: PCS in local mode');
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
