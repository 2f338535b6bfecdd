// The demo's storage stations: on a fresh start each lives its last days through the real decoder and ingestion,
// run by the module's own strategies, so its statistics are full at once and its income is what its periods'
// energy costs and earns; then its live module is sent its tactic and runs it. The stations' devices stay out of
// the genset lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricePeriod } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

const DAYS = 3;

let t: TestApp;
let manager: string;

function ok(res: { code: number; msg: string; data: any }) {
  expect(res.code, res.msg).toBe(200);
  return res.data;
}

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const stations = async () =>
  ok(await call(t.app, 'GET', '/site/list?page=1&size=20', { token: manager })).list as {
    token: string;
    name: string;
    timeZone: string;
    totalIncome: number;
  }[];

/** When the stations' pasts began: DAYS before the server started, between these two times. */
const began = { from: 0, to: 0 };

beforeAll(async () => {
  began.from = Date.now() - DAYS * 86_400_000;
  t = await createTestApp({ DEMO_FLEET: '1', DEMO_BACKFILL_DAYS: '0', DEMO_STATION_BACKFILL_DAYS: String(DAYS) });
  began.to = Date.now() - DAYS * 86_400_000;
  await t.app.sites.demo!.ready;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
}, 180_000);
afterAll(async () => t?.close());

describe('the demo stations', () => {
  it('are two, each with its days of past, priced by its template to the cent', async () => {
    const list = await stations();
    expect(list.map((s) => s.name).sort()).toEqual(['Industrial park storage', 'Solar logistics hub storage']);
    const db = t.app.database.db;
    for (const station of list) {
      const site = await db.selectFrom('site').selectAll().where('token', '=', station.token).executeTakeFirstOrThrow();
      const rows = await db.selectFrom('site_energy').selectAll().where('site_id', '=', site.id).execute();
      const days = new Set(rows.map((r) => r.day));
      expect(days.size, station.name).toBeGreaterThanOrEqual(DAYS);
      // the income is what the stored energy of each period costs and earns at that period's prices
      const versions = await t.app.sites.service.templateVersions([site.template_id!]);
      const prices = versions.get(site.template_id!)!.at(-1)!.body.prices;
      let income = 0;
      for (const r of rows) {
        const price = prices[r.period as PricePeriod];
        expect(r.charge_cost).toBeCloseTo(r.charge_kwh * price.buy, 6);
        expect(r.discharge_income).toBeCloseTo(r.discharge_kwh * price.sell, 6);
        income += r.discharge_income - r.charge_cost;
      }
      // to the cent: the answer is the sum rounded
      expect(Math.abs(station.totalIncome - income)).toBeLessThanOrEqual(0.005 + 1e-9);
    }
  });

  it('have days of their own: no two whole days of a station store the same energy and income', async () => {
    const db = t.app.database.db;
    for (const station of await stations()) {
      const site = await db.selectFrom('site').selectAll().where('token', '=', station.token).executeTakeFirstOrThrow();
      const rows = await db.selectFrom('site_energy').selectAll().where('site_id', '=', site.id).execute();
      const byDay = new Map<string, { charge: number; discharge: number; income: number }>();
      for (const r of rows) {
        const d = byDay.get(r.day) ?? { charge: 0, discharge: 0, income: 0 };
        d.charge += r.charge_kwh;
        d.discharge += r.discharge_kwh;
        d.income += r.discharge_income - r.charge_cost;
        byDay.set(r.day, d);
      }
      // the whole days, on the station's calendar: not the one its past began in part way (which may have no row at
      // all when it began late in the evening), nor today (which has none yet in its first minutes)
      const dayOf = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: station.timeZone }).format(ms);
      const partial = new Set([dayOf(began.from), dayOf(began.to), dayOf(Date.now())]);
      const days = [...byDay.keys()].filter((day) => !partial.has(day) && day > dayOf(began.from)).sort();
      expect(days.length, station.name).toBeGreaterThanOrEqual(DAYS + 1 - partial.size);
      const seen = days.map((day) => {
        const d = byDay.get(day)!;
        return `${d.charge.toFixed(0)}/${d.discharge.toFixed(0)}/${d.income.toFixed(0)}`;
      });
      expect(new Set(seen).size, `${station.name}: ${seen.join(' ')}`).toBe(seen.length);
    }
  });

  it('shift energy by their strategies: the park charges in the valley and discharges in the peaks', async () => {
    const park = (await stations()).find((s) => s.name === 'Industrial park storage')!;
    // a whole past day, on the station's own calendar
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: park.timeZone }).format(Date.now() - 86_400_000);
    const stats = ok(
      await call(t.app, 'POST', '/ems/stats', {
        token: manager,
        body: { token: park.token, granularity: 'day', date: day },
      }),
    );
    const of = (period: string) => stats.periods[period];
    expect(of('valley').chargeKwh).toBeGreaterThan(100);
    expect(of('valley').dischargeKwh).toBe(0);
    expect(of('peak').dischargeKwh + of('sharp').dischargeKwh).toBeGreaterThan(100);
    expect(stats.totals.income).toBeGreaterThan(0);
  });

  it('run their tactic live, and their devices are not listed as gensets', async () => {
    for (const station of await stations()) {
      await waitFor(`${station.name} running its tactic`, async () => {
        const info = ok(await call(t.app, 'GET', `/site/getInfo/${station.token}`, { token: manager }));
        return info.tactic.runningVersion === 1 && info.tactic.sentOutcome === 'accepted';
      });
    }
    const sets = ok(await call(t.app, 'POST', '/genset/mylist', { token: manager, body: { size: 50 } }));
    expect(sets.total).toBe(8);
    expect(sets.list.map((s: { name: string }) => s.name).join()).not.toMatch(/PCS|BMS|meter/);
    // nor counted on the home page, nor tiled on the multi-set monitor
    const home = ok(await call(t.app, 'POST', '/home/summary', { token: manager, body: {} }));
    expect(home.counts.total).toBe(8);
    const tiles = ok(await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: manager, body: { size: 50 } }));
    expect(tiles.total).toBe(8);
  });
});
