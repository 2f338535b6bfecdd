// Alarm analytics over a fleet with alarms of known times: the alarms with most episodes and those that lasted
// longest, the sets with most, the mean time between shutdowns, when in the week they start in the caller's zone,
// and the time to acknowledge (median and 90th percentile); one set alone; a viewer counts only the sets they see, a
// stranger may not name a set; the same as an XLSX workbook in Chinese, with every alarm.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { call, freshUser, login, type TestApp } from './helpers.ts';
import { newSet, serverWithStranger } from './support/history-data.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let companyId: number;
const sets: Record<string, Awaited<ReturnType<typeof newSet>>> = {};
const HOUR = 3_600_000;
const MINUTE = 60_000;
// a Monday at 09:00 in Madrid (07:00 UTC in summer), within the last year whatever the day of the run
const MONDAY_9 = Date.UTC(2026, 5, 1, 7, 0, 0);
const RANGE = { range: 'custom', start: Date.UTC(2026, 4, 1), end: Date.UTC(2026, 6, 1) };

const TITLES = {
  low_fuel_warning: { 'en-US': 'Low fuel level warning', 'zh-CN': '低燃油位警告' },
  emergency_stop: { 'en-US': 'Emergency stop', 'zh-CN': '紧急停机' },
  overspeed_trip: { 'en-US': 'Overspeed', 'zh-CN': '超速' },
};

async function alarm(
  setId: number,
  code: keyof typeof TITLES,
  level: string,
  start: number,
  minutes: number | null,
  extra: { occurrences?: number; ackAfterMin?: number } = {},
) {
  await t.app.database.db
    .insertInto('alarm')
    .values({
      genset_id: setId,
      code,
      level,
      title: JSON.stringify(TITLES[code]),
      start_ts: start,
      end_ts: minutes === null ? null : start + minutes * MINUTE,
      acknowledged: extra.ackAfterMin === undefined ? 0 : 1,
      occurrences: extra.occurrences ?? 1,
      ack_at: extra.ackAfterMin === undefined ? null : start + extra.ackAfterMin * MINUTE,
    })
    .execute();
}

beforeAll(async () => {
  ({ t, manager, companyId, stranger } = await serverWithStranger());
  sets.quarry = await newSet(t, { companyId, name: 'Analytics quarry' });
  sets.farm = await newSet(t, { companyId, name: 'Analytics farm' });
  // the quarry: low fuel on Monday to Thursday at 09:00 (Monday's chattering 6 times), each 30 min, acknowledged after
  // 5, 10, 20 and 60 minutes; an emergency stop on Monday at 11:00 for 2 hours; the farm: an overspeed trip on Saturday
  // at 09:30 for 10 minutes, and low fuel for 5 hours on the Tuesday two weeks before at 09:00
  for (const [i, ack] of [5, 10, 20, 60].entries())
    await alarm(sets.quarry.id, 'low_fuel_warning', 'warning', MONDAY_9 + i * 24 * HOUR, 30, {
      occurrences: i === 0 ? 6 : 1,
      ackAfterMin: ack,
    });
  await alarm(sets.quarry.id, 'emergency_stop', 'shutdown', MONDAY_9 + 2 * HOUR, 120);
  await alarm(sets.farm.id, 'overspeed_trip', 'trip', MONDAY_9 + 5 * 24 * HOUR + 30 * MINUTE, 10);
  await alarm(sets.farm.id, 'low_fuel_warning', 'warning', MONDAY_9 - 13 * 24 * HOUR, 300);
  // outside the range: not counted
  await alarm(sets.farm.id, 'emergency_stop', 'shutdown', Date.UTC(2026, 7, 1), 60);
});
afterAll(async () => t.close());

const MADRID = { 'x-timezone': 'Europe/Madrid' };

describe('alarm analytics', () => {
  it('of the fleet: top alarms by episodes and by time, the sets, shutdowns, the week and the time to acknowledge', async () => {
    const res = await call(t.app, 'POST', '/alarm/analytics', { token: manager, body: RANGE, headers: MADRID });
    expect(res.code, res.msg).toBe(200);
    const a = res.data;
    expect(a.timeZone).toBe('Europe/Madrid');
    expect(a.episodes).toBe(7);
    expect(a.occurrences).toBe(12);
    expect(a.shutdowns).toBe(2);
    // the company's sets the manager sees (these two and the demo's others, if any)
    expect(a.sets).toBeGreaterThanOrEqual(2);
    expect(a.mtbsHours).toBeCloseTo(Math.round(((RANGE.end - RANGE.start) / HOUR) * (a.sets / 2) * 10) / 10, 5);
    expect(a.byCount.map((x: { code: string }) => x.code)).toEqual([
      'low_fuel_warning',
      'emergency_stop',
      'overspeed_trip',
    ]);
    expect(a.byCount[0]).toEqual({
      code: 'low_fuel_warning',
      level: 'warning',
      title: 'Low fuel level warning',
      episodes: 5,
      occurrences: 10,
      hours: 7,
    });
    expect(a.byDuration.map((x: { code: string; hours: number }) => [x.code, x.hours])).toEqual([
      ['low_fuel_warning', 7],
      ['emergency_stop', 2],
      ['overspeed_trip', 0.2],
    ]);
    expect(a.bySet).toEqual([
      { token: sets.quarry!.token, name: 'Analytics quarry', episodes: 5, shutdowns: 1 },
      { token: sets.farm!.token, name: 'Analytics farm', episodes: 2, shutdowns: 1 },
    ]);
    // Madrid time: Monday 09:00 and 11:00, Tuesday 09:00 twice, Wednesday and Thursday 09:00, Saturday 09:30
    const heat = a.heat as number[][];
    expect(heat).toHaveLength(7);
    expect(heat.every((row) => row.length === 24)).toBe(true);
    expect(heat.flat().reduce((n, x) => n + x, 0)).toBe(7);
    expect(heat[0]![9]).toBe(1);
    expect(heat[0]![11]).toBe(1);
    expect(heat[1]![9]).toBe(2);
    expect(heat[2]![9]).toBe(1);
    expect(heat[3]![9]).toBe(1);
    expect(heat[5]![9]).toBe(1);
    // acknowledged after 5, 10, 20 and 60 minutes: the median is the second, the 90th percentile the third
    expect(a.ack).toEqual({ acknowledged: 4, medianMinutes: 10, p90Minutes: 20 });
  });

  it('of one set; a viewer counts only what they see; a stranger may not name a set; bad input is refused', async () => {
    const one = await call(t.app, 'POST', '/alarm/analytics', {
      token: manager,
      body: { ...RANGE, token: sets.farm!.token },
    });
    expect(one.code, one.msg).toBe(200);
    expect(one.data).toMatchObject({ sets: 1, episodes: 2, shutdowns: 1, mtbsHours: (RANGE.end - RANGE.start) / HOUR });
    expect(one.data.ack).toEqual({ acknowledged: 0, medianMinutes: null, p90Minutes: null });

    const v = await freshUser(t, { companyId, role: 'viewer' });
    const viewer = await login(t.app, v.account, v.password);
    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: sets.quarry!.token } });
    expect(
      (await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: info.data.subscriptionCode } })).code,
    ).toBe(200);
    const seen = await call(t.app, 'POST', '/alarm/analytics', { token: viewer, body: RANGE });
    expect(seen.code, seen.msg).toBe(200);
    expect(seen.data.bySet.map((s: { name: string }) => s.name)).toEqual(['Analytics quarry']);
    expect(seen.data.episodes).toBe(5);

    const named = await call(t.app, 'POST', '/alarm/analytics', {
      token: stranger,
      body: { ...RANGE, token: sets.farm!.token },
    });
    expect(named.code).toBe(404);
    const mine = await call(t.app, 'POST', '/alarm/analytics', { token: stranger, body: RANGE });
    expect(mine.data.episodes).toBe(0);

    const bad = await call(t.app, 'POST', '/alarm/analytics', {
      token: manager,
      lang: 'ru-RU',
      body: { range: 'custom', start: RANGE.end, end: RANGE.start },
    });
    expect(bad.code).toBe(400);
  });

  it('as an XLSX workbook in Chinese: the figures, every alarm, the sets and the week', async () => {
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/alarm/analytics/export',
      payload: RANGE,
      headers: {
        'x-time': time,
        'x-token': manager,
        'x-sign': computeSign(manager, time, DEFAULT_SIGN_SECRET),
        'accept-language': 'zh-CN',
        'x-timezone': 'Europe/Madrid',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/alarm-analytics-\d{4}-\d{2}-\d{2}\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['概况', '报警', '机组', '每周分布']);
    const rows = (i: number) => {
      const out: unknown[][] = [];
      workbook.worksheets[i]!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    const figures = rows(0);
    expect(figures[0]).toEqual(['指标', '数值']);
    expect(figures).toContainEqual(['报警次数', 7]);
    expect(figures).toContainEqual(['停机次数', 2]);
    expect(figures).toContainEqual(['确认用时中位数（分钟）', 10]);
    expect(rows(1)).toEqual([
      ['报警', '代码', '级别', '报警次数', '出现次数', '持续时间（小时）'],
      ['低燃油位警告', 'low_fuel_warning', '警告', 5, 10, 7],
      // as many episodes: in the order of their titles in Chinese (chāo before jǐn)
      ['超速', 'overspeed_trip', '跳闸', 1, 1, 0.2],
      ['紧急停机', 'emergency_stop', '停机', 1, 1, 2],
    ]);
    expect(rows(2).slice(1)).toEqual([
      ['Analytics quarry', 5, 1],
      ['Analytics farm', 2, 1],
    ]);
    const week = rows(3);
    expect(week[0]![0]).toBe('星期（Europe/Madrid）');
    expect(week[1]![0]).toBe('星期一');
    expect(week[1]![1 + 9]).toBe(1);
  });
});
