// Alarms of a set: current alarms and their end as the real ingestion path records them, alarm history
// by range, level and state with paging bounds and localised titles, the per-day alarm chart in the
// user's time zone (of one set and of every set a user sees), the maintenance countdown, 404 for others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import {
  alarmTitle,
  DAY,
  HOUR,
  insertAlarm,
  moduleFor,
  newSet,
  RUNNING,
  serverWithStranger,
} from './support/history-data.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let strangerCompany: number;
let companyId: number;

beforeAll(async () => ({ t, manager, companyId, strangerCompany, stranger } = await serverWithStranger()));
afterAll(async () => t.close());

describe('alarms recorded by ingestion', () => {
  it('a warning shows as current while active, then in the history with its end; titles localised', async () => {
    const set = await newSet(t, { companyId, name: 'Alarm set' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 10 * 60_000;
    await m.send({ ...RUNNING, fuel_level: 8, alarm_low_fuel_warning: 1, common_warning: 1 }, t0);

    const current = await call(t.app, 'POST', '/alarm/current', {
      token: manager,
      lang: 'es-ES',
      body: { token: set.token },
    });
    expect(current.code).toBe(200);
    expect(current.data).toEqual({
      alarmnum: 1,
      list: [
        {
          id: expect.any(Number),
          code: 'low_fuel_warning',
          level: 'warning',
          title: alarmTitle('low_fuel_warning')['es-ES'],
          start: t0,
          end: null,
          occurrences: 1,
          flapping: false,
          ack: null,
          shelf: null,
        },
      ],
    });

    await m.send({ ...RUNNING, fuel_level: 60 }, t0 + 60_000);
    await m.close();
    expect((await call(t.app, 'POST', '/alarm/current', { token: manager, body: { token: set.token } })).data).toEqual({
      alarmnum: 0,
      list: [],
    });
    const history = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
      token: manager,
      lang: 'ru-RU',
      body: { token: set.token, range: 'week' },
    });
    expect(history.data).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(history.data.list[0]).toMatchObject({
      code: 'low_fuel_warning',
      title: alarmTitle('low_fuel_warning')['ru-RU'],
      start: t0,
      end: t0 + 60_000,
    });
  });

  it('the maintenance countdown reads the controller’s hours and its maintenance-due alarm', async () => {
    const set = await newSet(t, { companyId });
    const m = await moduleFor(t, set);
    await m.send({ ...RUNNING, maintenance_hours: 120, run_hours: 480 }, Date.now() - 60_000);
    const ok = await call(t.app, 'POST', '/maintain/countdown', { token: manager, body: { token: set.token } });
    expect(ok.data).toMatchObject({ hoursLeft: 120, runHours: 480, due: false, unit: 'h' });
    await m.send({ ...RUNNING, maintenance_hours: 0, run_hours: 600, alarm_maintenance_due: 1 }, Date.now() - 1000);
    await m.close();
    const due = await call(t.app, 'POST', '/maintain/countdown', { token: manager, body: { token: set.token } });
    expect(due.data).toMatchObject({ hoursLeft: 0, runHours: 600, due: true });
    expect(
      (await call(t.app, 'POST', '/maintain/countdown', { token: stranger, body: { token: set.token } })).code,
    ).toBe(404);
  });
});

describe('alarm history and chart', () => {
  let set: Awaited<ReturnType<typeof newSet>>;
  const now = Date.now();
  const levels = ['warning', 'shutdown', 'trip'] as const;
  const codes = { warning: 'battery_low', shutdown: 'over_speed', trip: 'overload' };
  // 45 alarms over the last nine days: 15 of each level; the five newest are still active.
  const alarms = Array.from({ length: 45 }, (_, i) => ({
    level: levels[i % 3]!,
    start: now - (i + 1) * 4 * HOUR,
    end: i < 5 ? null : now - (i + 1) * 4 * HOUR + 600_000,
  }));

  beforeAll(async () => {
    set = await newSet(t, { companyId, name: 'Busy set' });
    for (const a of alarms) await insertAlarm(t, set.id, { code: codes[a.level], ...a });
    // Older than a month: outside the month range.
    await insertAlarm(t, set.id, { code: 'battery_low', level: 'warning', start: now - 40 * DAY, end: now - 40 * DAY });
  });

  const history = (body: Record<string, unknown>, token = manager, lang = 'en-US') =>
    call(t.app, 'POST', '/devicedata/getalarmhistory', { token, lang, body: { token: set.token, ...body } });

  it('pages newest first with the sizes 10, 20, 30 and 50, and answers an empty page past the end', async () => {
    const first = await history({ range: 'month' });
    expect(first.data).toMatchObject({ total: 45, page: 1, size: 20 });
    expect(first.data.list.map((a: { start: number }) => a.start)).toEqual(alarms.slice(0, 20).map((a) => a.start));
    const last = await history({ range: 'month', size: 10, page: 5 });
    expect(last.data.list).toHaveLength(5);
    expect(last.data.list[4].start).toBe(alarms[44]!.start);
    expect((await history({ range: 'month', size: 50 })).data.list).toHaveLength(45);
    expect((await history({ range: 'month', size: 30, page: 2 })).data.list).toHaveLength(15);
    expect((await history({ range: 'month', size: 10, page: 6 })).data).toMatchObject({ list: [], total: 45 });
    expect((await history({ range: 'threeMonths' })).data.total).toBe(46);
  });

  it('filters by level, state and a custom range', async () => {
    const trips = await history({ range: 'month', level: 'trip', size: 50 });
    expect(trips.data.total).toBe(15);
    expect(trips.data.list.every((a: { level: string }) => a.level === 'trip')).toBe(true);
    expect((await history({ range: 'month', state: 'active' })).data.total).toBe(5);
    expect((await history({ range: 'month', state: 'ended' })).data.total).toBe(40);
    const window = await history({ range: 'custom', start: now - 24 * HOUR, end: now });
    // Alarms every four hours: 4 h … 24 h ago; the one exactly 24 h ago is at the start (included).
    expect(window.data.total).toBe(6);
  });

  it('searches the title in the reader’s language and the code; % and _ are matched as themselves', async () => {
    const search = (words: string, lang = 'en-US') =>
      history({ range: 'month', size: 50, search: words }, manager, lang);
    const ru = alarmTitle('over_speed')['ru-RU']!;
    const inRussian = await search(ru, 'ru-RU');
    expect(inRussian.data.total).toBe(15);
    expect(
      inRussian.data.list.every((a: { code: string; title: string }) => a.code === 'over_speed' && a.title === ru),
    ).toBe(true);
    // the Russian words find nothing for a reader in English; case is ignored; the code finds them in any language
    expect((await search(ru)).data.total).toBe(0);
    expect((await search(alarmTitle('battery_low')['en-US']!.toUpperCase())).data.total).toBe(15);
    expect((await search('OVER_SPEED', 'zh-CN')).data.total).toBe(15);
    // battery_low and over_speed have an underscore, overload none; no title holds a percent sign
    expect((await search('_')).data.total).toBe(30);
    expect((await search('%')).data.total).toBe(0);
    expect((await search('x'.repeat(61))).data.fields).toHaveProperty('search');
  });

  it('refuses bad levels, states, sizes, pages and ranges with the field named', async () => {
    expect((await history({ level: 'fatal' })).data.fields).toHaveProperty('level');
    expect((await history({ state: 'gone' })).data.fields).toHaveProperty('state');
    expect((await history({ size: 100 })).data.fields).toHaveProperty('size');
    expect((await history({ page: -1 })).data.fields).toHaveProperty('page');
    const reversed = await history({ range: 'custom', start: now, end: now - DAY }, manager, 'tr-TR');
    expect(reversed.code).toBe(400);
    expect(reversed.msg).toBe('Bitiş: başlangıçtan sonra olmalıdır');
  });

  it('counts alarms per day and level over the range', async () => {
    const res = await call(t.app, 'POST', '/alarm/chart', {
      token: manager,
      headers: { 'x-timezone': 'UTC' },
      body: { token: set.token, range: 'custom', start: now - 10 * DAY, end: now },
    });
    expect(res.code).toBe(200);
    expect(res.data.timeZone).toBe('UTC');
    expect(res.data.days).toHaveLength(11);
    expect(res.data.totals).toEqual({ warning: 15, shutdown: 15, trip: 15 });
    for (const level of levels) {
      const expected = res.data.days.map(
        (day: string) =>
          alarms.filter((a) => a.level === level && new Date(a.start).toISOString().slice(0, 10) === day).length,
      );
      expect(res.data.levels[level]).toEqual(expected);
    }
  });

  it('puts each alarm on the day of the user’s time zone', async () => {
    const zoned = await newSet(t, { companyId });
    // 23:30 UTC is already the next morning in Shanghai (UTC+8).
    const day = Date.UTC(2026, 2, 10);
    await insertAlarm(t, zoned.id, { code: 'overload', level: 'trip', start: day + 23.5 * HOUR, end: null });
    const chart = (tz: string) =>
      call(t.app, 'POST', '/alarm/chart', {
        token: manager,
        headers: { 'x-timezone': tz },
        body: { token: zoned.token, range: 'custom', start: day - 2 * DAY, end: day + 3 * DAY },
      });
    const utc = await chart('UTC');
    expect(utc.data.levels.trip[utc.data.days.indexOf('2026-03-10')]).toBe(1);
    const shanghai = await chart('Asia/Shanghai');
    expect(shanghai.data.levels.trip[shanghai.data.days.indexOf('2026-03-11')]).toBe(1);
    expect(shanghai.data.totals.trip).toBe(1);
  });

  it('without a token, counts the alarms of every set the user sees, and only those', async () => {
    const own = await newSet(t, { companyId: strangerCompany });
    await insertAlarm(t, own.id, { code: 'overload', level: 'trip', start: now - HOUR, end: null });
    const res = await call(t.app, 'POST', '/alarm/chart', { token: stranger, body: { range: 'week' } });
    expect(res.data.totals).toEqual({ warning: 0, shutdown: 0, trip: 1 });
    const mine = await call(t.app, 'POST', '/alarm/chart', { token: manager, body: { range: 'week' } });
    // 13 or 14 trips of the busy set fall in the last seven days, depending on the instant the week starts.
    expect(mine.data.totals.trip).toBeGreaterThanOrEqual(13);
  });

  it('without a token, lists the alarms of every set the user sees, newest first, each with its set', async () => {
    const other = await newSet(t, { companyId: strangerCompany, name: 'Stranger set' });
    await insertAlarm(t, other.id, { code: 'overload', level: 'trip', start: now - 30 * 60_000, end: null });
    const fleet = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
      token: manager,
      body: { range: 'week', size: 50 },
    });
    expect(fleet.code).toBe(200);
    const names = new Set(fleet.data.list.map((a: { setName: string }) => a.setName));
    expect(names.has('Busy set')).toBe(true);
    expect(names.has('Stranger set')).toBe(false);
    expect(fleet.data.list[0]).toMatchObject({ setToken: expect.any(String), setName: expect.any(String) });
    const starts = fleet.data.list.map((a: { start: number }) => a.start);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    const theirs = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
      token: stranger,
      body: { range: 'week', state: 'active' },
    });
    expect(theirs.data.list.map((a: { setName: string }) => a.setName)).toContain('Stranger set');
    expect(theirs.data.list.every((a: { setName: string }) => a.setName !== 'Busy set')).toBe(true);
  });

  it('gives 404 for a set of another company, and for an unknown set', async () => {
    expect((await history({ range: 'week' }, stranger)).code).toBe(404);
    for (const path of ['/alarm/current', '/alarm/chart', '/maintain/countdown']) {
      expect((await call(t.app, 'POST', path, { token: stranger, body: { token: set.token } })).code).toBe(404);
      expect((await call(t.app, 'POST', path, { token: manager, body: { token: 'unknown' } })).code).toBe(404);
    }
  });
});
