// History of a set: chart series and the paged table of chosen items, from samples stored by the real
// ingestion path (ranges up to two days) and from hourly and daily rollups (three months, a year);
// at most 2,000 points per series, units and localised names, validation, and 404 for other people's sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS, MAX_CHART_POINTS } from '@genset/protocol';
import { startOfDay } from '../src/modules/devices/time.ts';
import { call, type TestApp } from './helpers.ts';
import {
  DAY,
  HOUR,
  insertRollups,
  moduleFor,
  newSet,
  RUNNING,
  stats,
  serverWithStranger,
} from './support/history-data.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let companyId: number;
const item = (key: string) => layoutS.items.find((i) => i.key === key)!;

beforeAll(async () => ({ t, manager, companyId, stranger } = await serverWithStranger()));
afterAll(async () => t.close());

describe('recent history from stored samples', () => {
  let set: Awaited<ReturnType<typeof newSet>>;
  const now = Date.now();
  const times = [5, 4, 3, 2, 1].map((h) => now - h * HOUR);

  beforeAll(async () => {
    set = await newSet(t, { companyId, name: 'Sample set' });
    const m = await moduleFor(t, set);
    for (const [i, ts] of times.entries()) {
      await m.send({ ...RUNNING, gen_kw: 10 * (i + 1), kwh_total: 1000 + i }, ts);
    }
    await m.close();
  });

  it('charts each sample of the last day as a point with its value, unit and localised name', async () => {
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      lang: 'zh-CN',
      headers: { 'x-timezone': 'Asia/Shanghai' },
      body: { token: set.token, items: ['gen_kw', 'kwh_total'], range: 'custom', start: now - DAY, end: now },
    });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ resolution: 'raw', start: now - DAY, end: now, timeZone: 'Asia/Shanghai' });
    const [kw, kwh] = res.data.series;
    expect(kw).toMatchObject({ key: 'gen_kw', name: item('gen_kw').name['zh-CN'], unit: 'kW', decimals: 1 });
    expect(kw.points).toEqual(times.map((ts, i) => [ts, 10 * (i + 1), 10 * (i + 1), 10 * (i + 1)]));
    expect(kwh).toMatchObject({ key: 'kwh_total', unit: 'kWh' });
    expect(kwh.points.map((p: number[]) => p[1])).toEqual([1000, 1001, 1002, 1003, 1004]);
  });

  it('the week chart of the same set reads hourly rollups, one point per hour with data', async () => {
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: set.token, items: ['gen_kw'], range: 'week' },
    });
    expect(res.data).toMatchObject({ resolution: 'hour', step: HOUR });
    const points = res.data.series[0].points;
    expect(points).toEqual(times.map((ts, i) => [ts - (ts % HOUR), 10 * (i + 1), 10 * (i + 1), 10 * (i + 1)]));
  });

  it('pages the table newest first, with status, and answers an empty page past the end', async () => {
    const body = { token: set.token, items: ['gen_kw', 'fuel_level'], range: 'custom', start: now - DAY, end: now };
    const first = await call(t.app, 'POST', '/devicedata/gethistory', { token: manager, body: { ...body, size: 10 } });
    expect(first.code).toBe(200);
    expect(first.data).toMatchObject({ resolution: 'raw', total: 5, page: 1, size: 10 });
    expect(first.data.columns.map((c: { key: string; unit: string }) => [c.key, c.unit])).toEqual([
      ['gen_kw', 'kW'],
      ['fuel_level', '%'],
    ]);
    expect(first.data.list[0]).toEqual({ ts: times[4], status: 3, values: { gen_kw: 50, fuel_level: 80 } });
    expect(first.data.list.map((r: { ts: number }) => r.ts)).toEqual([...times].reverse());

    const asc = await call(t.app, 'POST', '/devicedata/gethistory', {
      token: manager,
      body: { ...body, size: 10, page: 1, order: 'asc' },
    });
    expect(asc.data.list[0].ts).toBe(times[0]);

    const second = await call(t.app, 'POST', '/devicedata/gethistory', {
      token: manager,
      body: { ...body, size: 10, page: 2 },
    });
    expect(second.data).toMatchObject({ list: [], total: 5, page: 2 });

    const defaults = await call(t.app, 'POST', '/devicedata/gethistory', { token: manager, body });
    expect(defaults.data.size).toBe(20);
  });

  it('gives 404 to a user of another company, and for an unknown set', async () => {
    const body = { token: set.token, items: ['gen_kw'], range: 'week' };
    for (const path of ['/history/chart', '/devicedata/gethistory']) {
      expect((await call(t.app, 'POST', path, { token: stranger, body })).code).toBe(404);
      expect((await call(t.app, 'POST', path, { token: manager, body: { ...body, token: 'nope' } })).code).toBe(404);
    }
  });
});

describe('long ranges from rollups', () => {
  let set: Awaited<ReturnType<typeof newSet>>;
  // A fixed hour boundary some time back, so that the expected buckets do not depend on the clock.
  const h0 = Math.floor((Date.now() - 100 * DAY) / HOUR) * HOUR;
  const hours = 91 * 24;
  const kw = (i: number) => (i % 100) * 2;

  beforeAll(async () => {
    set = await newSet(t, { companyId, name: 'Rollup set', timeZone: 'Asia/Shanghai' });
    const rows = [];
    for (let i = 0; i < hours; i++) {
      rows.push({
        bucket: h0 + i * HOUR,
        stats: { gen_kw: stats(kw(i)), kwh_total: stats(5000 + i, { first: 5000 + i - 1, last: 5000 + i }) },
      });
    }
    await insertRollups(t, 'rollup_hour', set.id, rows);
  });

  it('a three-month chart has at most 2,000 points per series: two-hour averages with min and max', async () => {
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: {
        token: set.token,
        items: ['gen_kw', 'kwh_total'],
        range: 'custom',
        start: h0,
        end: h0 + hours * HOUR,
      },
    });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ resolution: 'hour', step: 2 * HOUR });
    const [power, energy] = res.data.series;
    expect(power.points.length).toBe(hours / 2);
    expect(power.points.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    for (const k of [0, 1, 17, 500, hours / 2 - 1]) {
      const a = kw(2 * k);
      const b = kw(2 * k + 1);
      expect(power.points[k]).toEqual([h0 + 2 * k * HOUR, (a + b) / 2, Math.min(a, b) - 1, Math.max(a, b) + 1]);
      // Counters show their last reading, not a mean.
      expect(energy.points[k][1]).toBe(5000 + 2 * k + 1);
    }
  });

  it('the named three-month range also stays within 2,000 points', async () => {
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: set.token, items: ['gen_kw'], range: 'threeMonths' },
    });
    expect(res.data.resolution).toBe('hour');
    expect(res.data.end - res.data.start).toBe(91 * DAY);
    expect(res.data.series[0].points.length).toBeGreaterThan(0);
    expect(res.data.series[0].points.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
  });

  it('the table of a month pages hourly rows with averages', async () => {
    const res = await call(t.app, 'POST', '/devicedata/gethistory', {
      token: manager,
      body: {
        token: set.token,
        items: ['gen_kw'],
        range: 'custom',
        start: h0,
        end: h0 + 30 * DAY,
        size: 50,
        page: 3,
        order: 'asc',
      },
    });
    expect(res.data).toMatchObject({ resolution: 'hour', total: 30 * 24, page: 3, size: 50 });
    expect(res.data.list).toHaveLength(50);
    expect(res.data.list[0]).toEqual({
      ts: h0 + 100 * HOUR,
      status: null,
      values: { gen_kw: kw(100) },
      partial: false,
    });
  });

  it('a year reads daily rollups, one point per day of the set’s time zone', async () => {
    const daySet = await newSet(t, { companyId, name: 'Daily set', timeZone: 'Asia/Shanghai' });
    const first = startOfDay(Date.now() - 300 * DAY, 'Asia/Shanghai');
    const buckets: number[] = [];
    for (let d = first; d < Date.now(); d = startOfDay(d + 36 * HOUR, 'Asia/Shanghai')) buckets.push(d);
    await insertRollups(
      t,
      'rollup_day',
      daySet.id,
      buckets.map((bucket, i) => ({ bucket, stats: { gen_kw: stats(i, { n: 1440 }) } })),
    );
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: daySet.token, items: ['gen_kw'], range: 'custom', start: first, end: Date.now() },
    });
    expect(res.data).toMatchObject({ resolution: 'day', step: 0 });
    const points = res.data.series[0].points;
    expect(points.map((p: number[]) => p[0])).toEqual(buckets);
    // Local midnight in Shanghai is 16:00 UTC.
    expect(new Date(points[0][0]).getUTCHours()).toBe(16);
    expect(points[10]).toEqual([buckets[10], 10, 9, 11]);
  });
});

describe('validation', () => {
  let token: string;
  beforeAll(async () => {
    token = (await newSet(t, { companyId })).token;
  });

  const bad = async (body: Record<string, unknown>, path = '/history/chart', lang = 'en-US') =>
    call(t.app, 'POST', path, { token: manager, lang, body: { token, items: ['gen_kw'], ...body } });

  it('a custom range needs a start before its end, at most a year apart', async () => {
    const missing = await bad({ range: 'custom', end: Date.now() });
    expect(missing.code).toBe(400);
    expect(missing.data.fields.start).toBe('Start time: cannot be empty');

    const reversed = await bad(
      { range: 'custom', start: Date.now(), end: Date.now() - HOUR },
      '/history/chart',
      'zh-CN',
    );
    expect(reversed.code).toBe(400);
    expect(reversed.msg).toBe('结束时间：必须晚于开始时间');

    const long = await bad({ range: 'custom', start: Date.now() - 400 * DAY, end: Date.now() });
    expect(long.code).toBe(400);
    expect(long.msg).toBe('End time: the range cannot be longer than 366 days');
  });

  it('refuses unknown ranges, items, too many items, bad paging and unknown fields', async () => {
    expect((await bad({ range: 'decade' })).data.fields).toHaveProperty('range');
    const unknown = await bad({ items: ['no_such_item'] });
    expect(unknown.code).toBe(400);
    expect(unknown.msg).toContain('no_such_item');
    expect((await bad({ items: [] })).code).toBe(400);
    expect((await bad({ items: Array.from({ length: 21 }, (_, i) => `item_${i}`) })).code).toBe(400);
    expect((await bad({ size: 15 }, '/devicedata/gethistory')).data.fields).toHaveProperty('size');
    expect((await bad({ page: 0 }, '/devicedata/gethistory')).data.fields).toHaveProperty('page');
    expect((await bad({ extra: 1 })).data.fields).toHaveProperty('extra');
  });
});
