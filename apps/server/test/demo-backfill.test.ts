// The demo's past: a fresh demo fleet is given its last days through the real decoder and ingestion, so the
// home page's ranking, a set's month of trends and its alarm history are full at once; the live sets carry on
// from where the past ended (seqs, counters), nothing is stored twice, and a restart makes no second past.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKFILL_PERIOD_MS } from '../src/modules/devices/backfill.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

const DAYS = 30;
const DAY = 24 * 60 * 60_000;

let t: TestApp;
let manager: string;
let startedAt: number;

function ok(res: { code: number; msg: string; data: any }) {
  expect(res.code, res.msg).toBe(200);
  return res.data;
}

async function setByName(name: string) {
  const list = await call(t.app, 'POST', '/genset/mylist', { token: manager, body: { search: name } });
  return list.data.list[0] as { token: string; name: string; status: number; id?: number };
}

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  startedAt = Date.now();
  t = await createTestApp({ DEMO_FLEET: '1', DEMO_BACKFILL_DAYS: String(DAYS) });
  await t.app.devices.demoBackfilled;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
}, 180_000);
afterAll(async () => t?.close());

describe('the demo fleet’s past', () => {
  it('stores a reading every ten minutes of the last 30 days for each set, once', async () => {
    const db = t.app.database.db;
    const rows = await db
      .selectFrom('sample as s')
      .innerJoin('genset as g', 'g.id', 's.genset_id')
      .innerJoin('modem as m', 'm.id', 'g.modem_id')
      .select(['m.modem_key', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('s.ts').as('first')])
      .where('s.seq', '<=', DAYS * (DAY / BACKFILL_PERIOD_MS))
      .groupBy('m.modem_key')
      .execute();
    const byKey = new Map(rows.map((r) => [r.modem_key, r]));
    const perDay = DAY / BACKFILL_PERIOD_MS;
    for (const key of ['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004', 'DEMO-0005', 'DEMO-0007', 'DEMO-0008']) {
      expect(Number(byKey.get(key)?.n), key).toBe(DAYS * perDay);
      expect(Number(byKey.get(key)?.first), key).toBeLessThan(startedAt - (DAYS - 1) * DAY);
    }
    // the farm's module went quiet two days ago
    expect(Number(byKey.get('DEMO-0006')?.n)).toBe((DAYS - 2) * perDay);

    const twice = await db
      .selectFrom('sample')
      .select(['modem_id', 'seq', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['modem_id', 'seq'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(twice).toEqual([]);
  });

  it('fills the home page: output ranking over 30 days and the latest alarms', async () => {
    const home = ok(await call(t.app, 'POST', '/home/summary', { token: manager, body: {} }));
    expect(home.ranking.length).toBeGreaterThanOrEqual(4);
    for (const row of home.ranking) expect(row.kwh).toBeGreaterThan(0);
    // the prime-power quarry, on load all month, made the most
    expect(home.ranking[0].name).toBe('Quarry prime power');
    expect(home.latestAlarms.length).toBeGreaterThan(0);
  });

  it('gives a set a month of trends and an alarm history with the story’s events', async () => {
    const quarry = await setByName('Quarry prime power');
    const chart = ok(
      await call(t.app, 'POST', '/history/chart', {
        token: manager,
        body: { token: quarry.token, items: ['gen_kw', 'fuel_level'], range: 'month' },
      }),
    );
    const kw = chart.series.find((s: { key: string }) => s.key === 'gen_kw').points as [number, number | null][];
    const withValue = kw.filter(([, v]) => v !== null);
    expect(withValue.length).toBeGreaterThan(kw.length * 0.9);
    expect(Math.max(...withValue.map(([, v]) => v!))).toBeGreaterThan(100);

    const alarms = ok(
      await call(t.app, 'POST', '/devicedata/getalarmhistory', {
        token: manager,
        body: { token: quarry.token, range: 'month', size: 50 },
      }),
    );
    // a cooling fault on day 12 shut it down, reset three hours later; services fell due and were done
    const overheated = alarms.list.find((a: { code: string }) => a.code === 'high_coolant_temp_shutdown');
    expect(overheated, JSON.stringify(alarms.list)).toBeDefined();
    expect(overheated.end - overheated.start).toBeGreaterThanOrEqual(2 * 60 * 60_000);
    expect(alarms.list.filter((a: { code: string }) => a.code === 'maintenance_due').length).toBeGreaterThanOrEqual(2);

    // the hospital's mains failed on about half the days: it started and stopped many times
    const hospital = await setByName('City Hospital standby');
    const hours = ok(
      await call(t.app, 'POST', '/history/chart', {
        token: manager,
        body: { token: hospital.token, items: ['starts'], range: 'month' },
      }),
    ).series[0].points as [number, number | null][];
    const counts = hours.map(([, v]) => v).filter((v): v is number => v !== null);
    expect(counts.at(-1)! - counts[0]!).toBeGreaterThanOrEqual(5);
  });

  it('the live sets carry on: seqs above their past, counters from where it ended, the farm offline', async () => {
    const db = t.app.database.db;
    await waitFor('a live reading from every live demo set', async () => {
      const live = await db
        .selectFrom('sample as s')
        .innerJoin('genset as g', 'g.id', 's.genset_id')
        .select('g.id')
        .distinct()
        .where('s.seq', '>', DAYS * (DAY / BACKFILL_PERIOD_MS))
        .execute();
      return live.length >= 7;
    });
    const perSet = DAYS * (DAY / BACKFILL_PERIOD_MS);
    const live = await db
      .selectFrom('sample as s')
      .innerJoin('modem as m', 'm.id', 's.modem_id')
      .select(['m.modem_key', 's.seq', 's.ts', 's.values'])
      .where('s.seq', '>', DAYS * (DAY / BACKFILL_PERIOD_MS))
      .where('m.modem_key', '=', 'DEMO-0002')
      .orderBy('s.seq')
      .execute();
    expect(live[0]!.seq).toBe(perSet + 1);
    const past = await db
      .selectFrom('sample as s')
      .innerJoin('modem as m', 'm.id', 's.modem_id')
      .select(['s.values'])
      .where('m.modem_key', '=', 'DEMO-0002')
      .where('s.seq', '=', perSet)
      .executeTakeFirstOrThrow();
    const runHours = (v: unknown) => (JSON.parse(String(v)) as { run_hours: number }).run_hours;
    expect(runHours(live[0]!.values)).toBeGreaterThanOrEqual(runHours(past.values));
    expect(runHours(live[0]!.values)).toBeLessThanOrEqual(runHours(past.values) + 1);

    const farm = await setByName('Farm irrigation pump');
    expect(farm.status).toBe(0);
  });

  it('a restart on the same data makes no second past', async () => {
    const perSet = DAYS * (DAY / BACKFILL_PERIOD_MS);
    const pastRows = () =>
      t.app.database.db
        .selectFrom('sample as s')
        .innerJoin('modem as m', 'm.id', 's.modem_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('s.seq', '<=', perSet)
        // the demo sets' modules (the demo stations' are numbered DEMO-E…)
        .where('m.modem_key', 'like', 'DEMO-0%')
        .executeTakeFirstOrThrow();
    expect(Number((await pastRows()).n)).toBe(7 * perSet + (DAYS - 2) * (DAY / BACKFILL_PERIOD_MS));
    await t.restart();
    await t.app.devices.demoBackfilled;
    expect(Number((await pastRows()).n)).toBe(7 * perSet + (DAYS - 2) * (DAY / BACKFILL_PERIOD_MS));
  });
});
