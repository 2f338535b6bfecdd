// The hourly history table: each hour names the status the set was in longest (from its stored status changes),
// the hour still under way is marked partial, and readings that exist only while a set runs (frequency, the
// generator's voltage) are averaged over the samples it ran in; a stopped set's 0 Hz is not averaged in, while
// its 0 kW is (that is its true output).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { HOUR, moduleFor, newSet, RUNNING } from './support/history-data.ts';

let t: TestApp;
let manager: string;
let companyId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

describe('hourly rows of the history table', () => {
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const running = { ...RUNNING, gen_voltage_l1: 230, gen_kw: 40 };
  const stopped = { mode: RUNNING.mode, engine_state: 0, gen_freq: 0, gen_voltage_l1: 0, gen_kw: 0, fuel_level: 80 };
  let set: Awaited<ReturnType<typeof newSet>>;
  let stoppedStatus: number;

  beforeAll(async () => {
    set = await newSet(t, { companyId, name: 'Partial hour set' });
    const m = await moduleFor(t, set);
    await m.send(running, hour - HOUR + 1);
    await m.send(stopped, hour + 1);
    await m.send(running, hour + 2);
    await m.send(running, hour + 3);
    await m.close();
    const raw = await call(t.app, 'POST', '/devicedata/gethistory', {
      token: manager,
      body: { token: set.token, items: ['gen_freq'], range: 'custom', start: hour, end: hour + 2, size: 10 },
    });
    expect(raw.code, raw.msg).toBe(200);
    stoppedStatus = raw.data.list[0].status;
  });

  it('a status per hour, the hour under way marked partial, frequency and voltage averaged while running', async () => {
    expect(stoppedStatus).not.toBe(3);
    const res = await call(t.app, 'POST', '/devicedata/gethistory', {
      token: manager,
      body: {
        token: set.token,
        items: ['gen_freq', 'gen_voltage_l1', 'gen_kw'],
        range: 'week',
        order: 'desc',
        size: 10,
      },
    });
    expect(res.code, res.msg).toBe(200);
    expect(res.data.resolution).toBe('hour');
    const [now, before] = res.data.list;
    expect(now).toMatchObject({ ts: hour, status: 3, partial: true });
    expect(now.values.gen_freq).toBe(50);
    expect(now.values.gen_voltage_l1).toBe(230);
    expect(now.values.gen_kw).toBeCloseTo(80 / 3, 2);
    expect(before).toMatchObject({ ts: hour - HOUR, status: 3, partial: false, values: { gen_freq: 50, gen_kw: 40 } });
  });

  it('the week chart marks where the hour under way begins, its frequency that of the running samples', async () => {
    const res = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: set.token, items: ['gen_freq'], range: 'week' },
    });
    expect(res.code, res.msg).toBe(200);
    expect(res.data).toMatchObject({ resolution: 'hour', step: HOUR, partialFrom: hour });
    expect(res.data.series[0].points.at(-1)).toEqual([hour, 50, 50, 50]);
    const past = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: set.token, items: ['gen_freq'], range: 'custom', start: hour - 3 * 86_400_000, end: hour },
    });
    expect(past.data.partialFrom).toBeNull();
  });
});
