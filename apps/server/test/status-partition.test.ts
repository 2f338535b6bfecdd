// One status partition of sets, the same everywhere: the home counts of the four states add up to the sets the
// user sees, the alarm overlay is counted apart (a set with alarms stays in its state), and each set's state is
// the same in the home summary, My gensets (rows, filters and their counts), the multi-set monitor's data and
// the realtime pushes — for the demo fleet and for a fleet fed random states through its modules. The platform
// administrator's genset management holds the sets their home page counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SET_STATES, setStateOf, type SetState } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { moduleFor, newSet, RUNNING } from './support/history-data.ts';
import { connectWs } from './support/ws-client.ts';
import { FUZZ_SEED } from './support/fuzz.ts';

type Reading = {
  total: number;
  counts: Record<SetState | 'alarm', number>;
  /** Per set token: state and active alarm count, from each source. */
  home: Map<string, { state: SetState; alarms: number }>;
  list: Map<string, { state: SetState; alarms: number }>;
  listCounts: Record<string, number>;
  monitor: Map<string, { state: SetState; alarms: number }>;
  pushed: Map<string, { state: SetState; alarms: number }>;
};

async function read(app: TestApp['app'], token: string, baseUrl: string, scope: 'mylist' | 'list'): Promise<Reading> {
  const home = (await call(app, 'POST', '/home/summary', { token, body: {} })).data;
  const list = (await call(app, 'POST', `/genset/${scope}`, { token, body: { size: 50 } })).data;
  const monitor = (await call(app, 'POST', '/devicedata/getmutilstatus', { token, body: { page: 1, size: 50 } })).data;
  const tokens: string[] = list.list.map((r: { token: string }) => r.token);
  const ws = await connectWs(baseUrl, token);
  try {
    ws.heartbeat('', tokens);
    const pushed = new Map<string, { state: SetState; alarms: number }>();
    for (const t of tokens) {
      const m = await ws.waitFor((x) => x.method === 'monitor' && x.token === t);
      pushed.set(t, { state: setStateOf(m.data.status), alarms: m.data.alarmnum });
    }
    return {
      total: home.counts.total,
      counts: home.counts,
      home: new Map(
        home.positions.map((p: { token: string; status: number; alarmnum: number }) => [
          p.token,
          { state: setStateOf(p.status), alarms: p.alarmnum },
        ]),
      ),
      list: new Map(
        list.list.map((r: { token: string; status: number; alarmCount: number }) => [
          r.token,
          { state: setStateOf(r.status), alarms: r.alarmCount },
        ]),
      ),
      listCounts: list.counts,
      monitor: new Map(
        monitor.list.map((r: { token: string; status: number; alarmnum: number }) => [
          r.token,
          { state: setStateOf(r.status), alarms: r.alarmnum },
        ]),
      ),
      pushed,
    };
  } finally {
    ws.close();
  }
}

/** Every way the reading must agree with itself. */
function check(r: Reading, expectedTotal: number) {
  // the partition adds up, on home and in the list's filter counts; the overlay is apart
  expect(SET_STATES.reduce((sum, s) => sum + r.counts[s], 0)).toBe(r.total);
  expect(r.total).toBe(expectedTotal);
  expect(SET_STATES.reduce((sum, s) => sum + r.listCounts[s]!, 0)).toBe(r.listCounts.all);
  expect(r.listCounts.all).toBe(expectedTotal);
  for (const s of SET_STATES) expect(r.listCounts[s], s).toBe(r.counts[s]);
  expect(r.listCounts.alarm).toBe(r.counts.alarm);
  expect([...r.list.values()].filter((e) => e.alarms > 0)).toHaveLength(r.counts.alarm);
  // each set in the same state, with the same alarms, everywhere
  expect(r.list.size).toBe(expectedTotal);
  expect(r.monitor.size).toBe(expectedTotal);
  for (const [token, e] of r.list) {
    expect(r.monitor.get(token), `monitor ${token}`).toEqual(e);
    expect(r.pushed.get(token), `push ${token}`).toEqual(e);
    if (r.home.has(token)) expect(r.home.get(token), `home ${token}`).toEqual(e);
  }
  for (const s of SET_STATES)
    expect([...r.list.values()].filter((e) => e.state === s).length, `count of ${s}`).toBe(r.counts[s]);
}

/** A reading of a fleet that keeps running: taken again until it is one moment's (states change meanwhile). */
async function agreeingReading(read1: () => Promise<Reading>, expectedTotal: number) {
  let last: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = await read1();
    try {
      check(r, expectedTotal);
      return r;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

describe('the demo fleet', () => {
  let demo: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    demo = await createTestApp({ DEMO_FLEET: '1' });
    await demo.app.listen({ port: 0, host: '127.0.0.1' });
    const address = demo.app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => demo?.close());

  it('adds up and agrees for the manager, and the platform administrator manages the sets home counts', async () => {
    const manager = await login(demo.app, 'manager@example.com', 'Demo#2026');
    await agreeingReading(() => read(demo.app, manager, baseUrl, 'mylist'), 8);

    const admin = await login(demo.app, 'admin@example.com', 'Admin#2026');
    const home = (await call(demo.app, 'POST', '/home/summary', { token: admin, body: {} })).data;
    const managed = (await call(demo.app, 'POST', '/genset/list', { token: admin, body: { size: 50 } })).data;
    expect(home.counts.total).toBe(8);
    expect(managed.total).toBe(home.counts.total);
    await agreeingReading(() => read(demo.app, admin, baseUrl, 'list'), 8);
  });
});

describe('a fleet in random states', () => {
  let t: TestApp;
  let baseUrl: string;
  let token: string;
  const modules: { close(): Promise<void> }[] = [];
  const expected = new Map<string, { state: SetState; alarms: number }>();

  /** A small deterministic generator (FUZZ_SEED replays a run). */
  let seed = FUZZ_SEED >>> 0;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const company = await createCompany(t, 'Partition Power');
    const user = await freshUser(t, { companyId: company, role: 'companyAdmin' });
    token = await login(t.app, user.account, user.password);
    const now = Date.now();
    for (let i = 0; i < 12; i++) {
      const state = SET_STATES[Math.floor(random() * SET_STATES.length)]!;
      const alarmed = state !== 'offline' && random() < 0.4;
      const set = await newSet(t, { companyId: company, ownerUserId: user.id, name: `Random ${i}` });
      expected.set(set.token, { state, alarms: alarmed ? 1 : 0 });
      if (state === 'offline') continue; // never heard of
      const values =
        state === 'running'
          ? { ...RUNNING }
          : { mode: state === 'standby' ? 0 : 2, engine_state: 0, engine_rpm: 0, gen_freq: 0, gen_on_load: 0 };
      const m = await moduleFor(t, set);
      modules.push(m);
      await m.send({ ...values, ...(alarmed ? { alarm_high_coolant_temp_warning: 1, common_warning: 1 } : {}) }, now);
    }
  });
  afterAll(async () => {
    for (const m of modules) await m.close();
    await t?.close();
  });

  it('adds up, and every set is in the state it was fed, the same on every page and push', async () => {
    const r = await read(t.app, token, baseUrl, 'mylist');
    check(r, expected.size);
    expect(new Map([...r.list].map(([k, v]) => [k, v]))).toEqual(expected);
    // a filter holds exactly its part; the overlay holds the sets with alarms, whatever their state
    for (const s of [...SET_STATES, 'alarm'] as const) {
      const page = (await call(t.app, 'POST', '/genset/mylist', { token, body: { status: s, size: 50 } })).data;
      const want = [...expected].filter(([, e]) => (s === 'alarm' ? e.alarms > 0 : e.state === s)).map(([k]) => k);
      expect(page.list.map((row: { token: string }) => row.token).sort(), s).toEqual(want.sort());
    }
  });
});
