// The home summary and the multi-set grid over the sets a user sees: counts by status, active alarms by
// level, output now, positions from GPS or the set's details, the 30-day energy ranking and the latest
// alarms; status and key values of listed or paged sets; nothing of other companies' sets (404 when named).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { DAY, HOUR, insertAlarm, insertRollups, moduleFor, newSet, RUNNING, stats } from './support/history-data.ts';
import { startOfDay } from '../src/modules/devices/time.ts';
import { grantOf } from '../src/modules/account/service.ts';
import { createDashboardService } from '../src/modules/dashboard/service.ts';

let t: TestApp;
let admin: string;
let adminId: number;
let viewer: string;
let other: string;
const sets: Record<string, Awaited<ReturnType<typeof newSet>>> = {};
const now = Date.now();

async function latest(gensetId: number, status: number, alarmCount: number, values: Record<string, number>) {
  await t.app.database.db
    .insertInto('set_latest')
    .values({
      genset_id: gensetId,
      status,
      alarm_count: alarmCount,
      values: JSON.stringify(values),
      device_ts: now - 60_000,
      updated_at: now,
    })
    .execute();
}

/** The company administrator's session, as the routes build it. */
async function adminContext() {
  const user = await t.app.database.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', adminId)
    .executeTakeFirstOrThrow();
  const role = await t.app.database.db
    .selectFrom('role')
    .selectAll()
    .where('id', '=', user.role_id!)
    .executeTakeFirst();
  return { sessionId: 0, user, grant: grantOf(role) };
}

/** The dashboard over the test server's parts, with the options a test sets. */
function dashboardWith(options: Partial<Parameters<typeof createDashboardService>[0]>) {
  return createDashboardService({
    db: t.app.database.db,
    kind: t.app.database.kind,
    protocols: t.app.devices.protocols,
    scope: t.app.devices.fleet.scope,
    lists: t.app.gensets.lists,
    ...options,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const company = await createCompany(t, 'Dashboard Power');
  const a = await freshUser(t, { companyId: company, role: 'companyAdmin' });
  admin = await login(t.app, a.account, a.password);
  adminId = a.id;
  const v = await freshUser(t, { companyId: company, role: 'viewer' });
  viewer = await login(t.app, v.account, v.password);
  const otherCompany = await createCompany(t, 'Elsewhere Power');
  const o = await freshUser(t, { companyId: otherCompany, role: 'companyAdmin' });
  other = await login(t.app, o.account, o.password);

  sets.a = await newSet(t, { companyId: company, name: 'A running (GPS)' });
  sets.b = await newSet(t, {
    companyId: company,
    name: 'B standby (address)',
    details: { latitude: '39.9042', longitude: '116.4074' },
  });
  sets.c = await newSet(t, { companyId: company, name: 'C shutdown' });
  sets.d = await newSet(t, { companyId: company, name: 'D never reported' });
  sets.e = await newSet(t, { companyId: company, name: 'E running with warning' });
  sets.x = await newSet(t, { companyId: otherCompany, name: 'X elsewhere' });

  // Energy of the last days (daily rollups in UTC, the sets' zone; the counter now in the latest values):
  // A 1000 → 1250, E 500 → 1000; E's older day is outside the 30 days.
  const today = startOfDay(now, 'UTC');
  await insertRollups(t, 'rollup_day', sets.a.id, [
    { bucket: today - 3 * DAY, stats: { kwh_total: stats(1050, { first: 1000, last: 1100 }) } },
    { bucket: today - 2 * DAY, stats: { kwh_total: stats(1200, { first: 1100, last: 1250 }) } },
  ]);
  await insertRollups(t, 'rollup_day', sets.e.id, [
    { bucket: today - 40 * DAY, stats: { kwh_total: stats(100, { first: 0, last: 500 }) } },
    { bucket: today - 5 * DAY, stats: { kwh_total: stats(700, { first: 500, last: 1000 }) } },
  ]);
  await insertRollups(t, 'rollup_day', sets.x.id, [
    { bucket: today - 2 * DAY, stats: { kwh_total: stats(1, { first: 0, last: 99_999 }) } },
  ]);

  // A reports through its module: running, 100 kW, a GPS fix.
  const m = await moduleFor(t, sets.a);
  await m.send({ ...RUNNING, gen_kw: 100, kwh_total: 1250, latitude: 31.2304, longitude: 121.4737 }, now - 30_000);
  await m.close();

  await latest(sets.b.id, 2, 0, { gen_kw: 0, fuel_level: 90 });
  await latest(sets.c.id, 1, 1, { gen_kw: 0 });
  await latest(sets.e.id, 3, 1, { gen_kw: 50.5, fuel_level: 40, kwh_total: 1000 });
  await latest(sets.x.id, 3, 1, { gen_kw: 999 });
  await insertAlarm(t, sets.a.id, {
    code: 'battery_low',
    level: 'warning',
    start: now - 5 * HOUR,
    end: now - 4 * HOUR,
  });
  await insertAlarm(t, sets.c.id, { code: 'overload', level: 'trip', start: now - 2 * HOUR, end: null });
  await insertAlarm(t, sets.e.id, { code: 'low_fuel_warning', level: 'warning', start: now - HOUR, end: null });
  await insertAlarm(t, sets.x.id, { code: 'over_speed', level: 'shutdown', start: now - 60_000, end: null });

  await t.app.devices.fleet.subscribe(sets.e.id, v.id, 'view');
});
afterAll(async () => t.close());

describe('home summary', () => {
  it('sums up the company’s sets for its administrator', async () => {
    const res = await call(t.app, 'POST', '/home/summary', { token: admin, lang: 'zh-CN', body: {} });
    expect(res.code).toBe(200);
    const s = res.data;
    expect(s.counts).toEqual({ total: 5, offline: 1, shutdown: 1, standby: 1, running: 2, alarm: 2 });
    expect(s.alarms).toEqual({ total: 2, warning: 1, shutdown: 0, trip: 1 });
    expect(s.totalKw).toBe(150.5);

    expect(s.positions).toHaveLength(2);
    const [a, b] = s.positions;
    expect(a).toMatchObject({ token: sets.a!.token, status: 3, alarmnum: 0, kw: 100 });
    expect(a.lat).toBeCloseTo(31.2304, 5);
    expect(a.lng).toBeCloseTo(121.4737, 5);
    expect(b).toMatchObject({ token: sets.b!.token, status: 2, lat: 39.9042, lng: 116.4074 });

    expect(s.ranking).toEqual([
      { token: sets.e!.token, name: 'E running with warning', kwh: 500 },
      { token: sets.a!.token, name: 'A running (GPS)', kwh: 250 },
    ]);

    expect(s.latestAlarms.map((x: { token: string; level: string }) => [x.token, x.level])).toEqual([
      [sets.e!.token, 'warning'],
      [sets.c!.token, 'trip'],
      [sets.a!.token, 'warning'],
    ]);
    expect(s.latestAlarms[0]).toMatchObject({ setName: 'E running with warning', title: '低燃油位警告', end: null });
  });

  it('reads a large fleet’s alarms out of the platform’s, with the same answer', async () => {
    const ctx = await adminContext();
    const expected = (await call(t.app, 'POST', '/home/summary', { token: admin, lang: 'en-US', body: {} })).data;
    // every fleet counts as large; one alarm a page: the other company's newest alarm is passed over, and with too
    // few pages the sets the user sees are asked for in the database
    for (const latestPages of [5, 2]) {
      const dashboard = dashboardWith({
        alarmReads: { listedSets: 0, latestPage: 1, latestPages },
      });
      const s = await dashboard.summary(ctx, 'en-US');
      expect(s.alarms).toEqual({ total: 2, warning: 1, shutdown: 0, trip: 1 });
      expect(s.latestAlarms.map((a) => [a.token, a.level])).toEqual([
        [sets.e!.token, 'warning'],
        [sets.c!.token, 'trip'],
        [sets.a!.token, 'warning'],
      ]);
      expect(s.latestAlarms).toEqual(expected.latestAlarms);
      expect(s.ranking).toEqual(expected.ranking);
    }
  });

  it('shows a fleet with more positioned sets than the map takes one by one as areas, with the same counts', async () => {
    const ctx = await adminContext();
    const dashboard = dashboardWith({
      mapSets: 1,
    });
    const s = await dashboard.summary(ctx, 'en-US');
    // A in Shanghai running at 100 kW, B in Beijing on standby: a thousand kilometres apart, two areas
    expect(s.positions).toEqual([]);
    expect(s.areas).toHaveLength(2);
    const [first, second] = [...s.areas].sort((x, y) => x.lat - y.lat);
    expect(first).toMatchObject({
      sets: 1,
      states: { offline: 0, shutdown: 0, standby: 0, running: 1 },
      alarm: 0,
      kw: 100,
      bounds: { south: 31.2304, west: 121.4737, north: 31.2304, east: 121.4737 },
    });
    expect(second).toMatchObject({
      lat: 39.9042,
      lng: 116.4074,
      sets: 1,
      states: { offline: 0, shutdown: 0, standby: 1, running: 0 },
      alarm: 0,
      kw: 0,
    });
    // the rest of the summary is what the route answers
    const expected = (await call(t.app, 'POST', '/home/summary', { token: admin, lang: 'en-US', body: {} })).data;
    expect(expected.areas).toEqual([]);
    expect({ ...s, positions: expected.positions, areas: [], ts: expected.ts }).toEqual(expected);
  });

  it('answers a person’s summary again for two seconds while nothing it counts changes, and afresh when a set does', async () => {
    const ctx = await adminContext();
    let changes = 0;
    const dashboard = dashboardWith({
      states: () => changes,
    });
    const first = await dashboard.summary(ctx, 'en-US');
    // the same person at once: the same answer; in another language: its own
    expect(await dashboard.summary(ctx, 'en-US')).toBe(first);
    const other = await dashboard.summary(ctx, 'zh-CN');
    expect(other).not.toBe(first);
    expect(other.counts).toEqual(first.counts);
    // a set changed its status or alarms: made afresh
    changes++;
    const after = await dashboard.summary(ctx, 'en-US');
    expect(after).not.toBe(first);
    expect(after.counts).toEqual(first.counts);
    // two seconds on: made afresh
    vi.useFakeTimers({ now: Date.now() + 2001, toFake: ['Date'] });
    try {
      expect(await dashboard.summary(ctx, 'en-US')).not.toBe(after);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a viewer only the set they subscribed to', async () => {
    const res = await call(t.app, 'POST', '/home/summary', { token: viewer, body: {} });
    expect(res.data.counts).toEqual({ total: 1, offline: 0, shutdown: 0, standby: 0, running: 1, alarm: 1 });
    expect(res.data.totalKw).toBe(50.5);
    expect(res.data.ranking.map((r: { token: string }) => r.token)).toEqual([sets.e!.token]);
    expect(res.data.latestAlarms).toHaveLength(1);
  });

  it('ranks a set whose past is being written within seconds, not after the ranking is kept for minutes', async () => {
    const company = await createCompany(t, 'Fresh Power');
    const a = await freshUser(t, { companyId: company, role: 'companyAdmin' });
    const token = await login(t.app, a.account, a.password);
    const fresh = await newSet(t, { companyId: company, name: 'F backfilling' });
    await latest(fresh.id, 3, 0, { gen_kw: 80, kwh_total: 4000 });
    const summary = async () => (await call(t.app, 'POST', '/home/summary', { token, body: {} })).data;
    expect((await summary()).ranking).toEqual([]);
    // its past arrives (the demo's, a module's outbox)
    await insertRollups(t, 'rollup_day', fresh.id, [
      { bucket: startOfDay(now, 'UTC') - 4 * DAY, stats: { kwh_total: stats(3500, { first: 3000, last: 3600 }) } },
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 11_000);
      const s = await summary();
      expect(s.ranking).toEqual([{ token: fresh.token, name: 'F backfilling', kwh: 1000 }]);
      // a second set begins reporting after the first readings were kept as complete: it is ranked within
      // seconds too (the demo fleet writes its sets' pasts one after the other)
      const second = await newSet(t, { companyId: company, name: 'G backfilling next' });
      await insertRollups(t, 'rollup_day', second.id, [
        { bucket: startOfDay(now, 'UTC') - 5 * DAY, stats: { kwh_total: stats(100, { first: 100, last: 300 }) } },
      ]);
      await latest(second.id, 3, 0, { gen_kw: 20, kwh_total: 400 });
      vi.setSystemTime(Date.now() + 11_000);
      await expect
        .poll(async () => (await summary()).ranking.map((r: { name: string }) => r.name))
        .toEqual(['F backfilling', 'G backfilling next']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses unknown fields', async () => {
    expect((await call(t.app, 'POST', '/home/summary', { token: admin, body: { all: true } })).code).toBe(400);
  });
});

describe('multi-set status', () => {
  it('answers the listed sets in their order with key values, units and module state', async () => {
    const res = await call(t.app, 'POST', '/devicedata/getmutilstatus', {
      token: admin,
      body: { tokens: [sets.e!.token, sets.a!.token] },
    });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ total: 2, page: 1, size: 2 });
    const [e, a] = res.data.list;
    expect(e).toMatchObject({
      token: sets.e!.token,
      name: 'E running with warning',
      status: 3,
      alarmnum: 1,
      online: false,
    });
    expect(e.values.find((v: { key: string }) => v.key === 'gen_kw')).toMatchObject({ value: 50.5, unit: 'kW' });
    expect(a).toMatchObject({ status: 3, online: true });
    expect(a.values.map((v: { key: string }) => v.key)).toEqual([
      'gen_kw',
      'gen_voltage_l1',
      'gen_freq',
      'engine_rpm',
      'coolant_temp',
      'oil_pressure',
      'fuel_level',
      'battery_voltage',
      'run_hours',
    ]);
    expect(a.values.find((v: { key: string }) => v.key === 'engine_rpm')).toMatchObject({ value: 1500, unit: 'r/min' });
  });

  it('shows chosen items only, and pages the user’s sets by name without a list', async () => {
    const chosen = await call(t.app, 'POST', '/devicedata/getmutilstatus', {
      token: admin,
      body: { tokens: [sets.b!.token], items: ['fuel_level'] },
    });
    expect(chosen.data.list[0].values).toEqual([expect.objectContaining({ key: 'fuel_level', value: 90, unit: '%' })]);
    const page = await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: admin, body: { size: 10 } });
    expect(page.data).toMatchObject({ total: 5, page: 1, size: 10 });
    expect(page.data.list.map((s: { name: string }) => s.name[0])).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(page.data.list[3]).toMatchObject({ status: 0, ts: null, online: false });
    const past = await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: admin, body: { size: 10, page: 2 } });
    expect(past.data).toMatchObject({ list: [], total: 5, page: 2 });
    const mine = await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: viewer, body: {} });
    expect(mine.data.list.map((s: { token: string }) => s.token)).toEqual([sets.e!.token]);
  });

  it('gives 404 when a listed set is not the user’s, 400 for more than 100 sets or a bad size', async () => {
    const res = await call(t.app, 'POST', '/devicedata/getmutilstatus', {
      token: other,
      body: { tokens: [sets.x!.token, sets.a!.token] },
    });
    expect(res.code).toBe(404);
    const many = await call(t.app, 'POST', '/devicedata/getmutilstatus', {
      token: admin,
      body: { tokens: Array.from({ length: 101 }, (_, i) => `t${i}`) },
    });
    expect(many.data.fields).toHaveProperty('tokens');
    expect((await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: admin, body: { size: 7 } })).code).toBe(
      400,
    );
  });
});
