// The demo's past is one story: the counters each set reports agree with its rating, its maintenance plan
// agrees with its controller's service countdown and with the "Maintenance due" alarms in its history (each a
// service done), some of the fleet is due and some overdue, and the firmware the modules run came with an
// upgrade that finished; the next image is there to be assigned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SETS } from '../src/modules/devices/demo-fleet.ts';
import { DEMO_SERVICE_HOURS } from '../src/modules/maintenance/demo.ts';
import { DEMO_FIRMWARE_NEXT, DEMO_FIRMWARE_RUNNING } from '../src/modules/ota/demo.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

const DAYS = 4;
let t: TestApp;
let manager: string;

function ok<T = any>(res: { code: number; msg: string; data: T }) {
  expect(res.code, res.msg).toBe(200);
  return res.data;
}

beforeAll(async () => {
  t = await createTestApp({ DEMO_FLEET: '1', DEMO_BACKFILL_DAYS: String(DAYS), DEMO_STATION_BACKFILL_DAYS: '0' });
  await t.app.devices.demoBackfilled;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
}, 180_000);
afterAll(async () => t?.close());

async function demoSets() {
  const db = t.app.database.db;
  return db
    .selectFrom('genset as g')
    .innerJoin('modem as m', 'm.id', 'g.modem_id')
    .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
    .select(['g.id', 'g.token', 'g.name', 'g.time_zone', 'm.modem_key', 'l.values'])
    .where('m.modem_key', 'like', 'DEMO-000%')
    .execute();
}

describe('the demo’s past records', () => {
  it('report counters that agree with each set’s rating (kWh ≈ hours × rated kW × 40–70 %)', async () => {
    for (const set of await demoSets()) {
      const demo = DEMO_SETS.find((d) => d.modemKey === set.modem_key)!;
      const v = JSON.parse(set.values!) as Record<string, number>;
      const factor = v.kwh_total! / (v.run_hours! * demo.ratedKw);
      expect(factor, set.name).toBeGreaterThanOrEqual(0.4);
      expect(factor, set.name).toBeLessThanOrEqual(0.7);
    }
  });

  it('give every set a maintenance plan that agrees with its controller and its alarm history', async () => {
    const db = t.app.database.db;
    let services = 0;
    for (const set of await demoSets()) {
      const plan = ok(await call(t.app, 'POST', '/maintain/plan', { token: manager, body: { token: set.token } }));
      expect(plan.items.length, set.name).toBeGreaterThanOrEqual(3);
      const engine = plan.items.find((i: { cycleHours: number | null }) => i.cycleHours === DEMO_SERVICE_HOURS);
      expect(engine, set.name).toBeDefined();
      // the item's hours left are the controller's own service countdown
      const v = JSON.parse(set.values!) as Record<string, number>;
      expect(engine.dueHours - v.run_hours!, set.name).toBeCloseTo(v.maintenance_hours!, -0.5);
      // every "Maintenance due" alarm that cleared is a service in the plan's history, on the day it cleared
      const alarms = await db
        .selectFrom('alarm')
        .select('end_ts')
        .where('genset_id', '=', set.id)
        .where('code', '=', 'maintenance_due')
        .where('end_ts', 'is not', null)
        .execute();
      const history = ok(
        await call(t.app, 'POST', '/maintain/history', {
          token: manager,
          body: { token: set.token, page: 1, size: 50 },
        }),
      );
      const days = history.list.map((task: { actualDate: string }) => task.actualDate).sort();
      const cleared = alarms
        .map((a) => new Intl.DateTimeFormat('en-CA', { timeZone: set.time_zone }).format(Number(a.end_ts)))
        .sort();
      expect(days, set.name).toEqual(cleared);
      services += cleared.length;
    }
    // the past has services in it, and the fleet has work due and overdue now
    expect(services).toBeGreaterThan(0);
    const counts = ok(await call(t.app, 'POST', '/maintain/counts', { token: manager, body: {} }));
    expect(counts.overdue).toBeGreaterThan(0);
    expect(counts.due).toBeGreaterThan(0);
  });

  it('hold the firmware the modules run, its finished upgrade, and the next image', async () => {
    const files = ok(await call(t.app, 'GET', '/ota/file/list', { token: manager })).list as {
      id: number;
      version: string;
      model: string;
    }[];
    expect(files.map((f) => f.version).sort()).toEqual([DEMO_FIRMWARE_RUNNING, DEMO_FIRMWARE_NEXT].sort());
    const running = files.find((f) => f.version === DEMO_FIRMWARE_RUNNING)!;
    const jobs = ok(
      await call(t.app, 'GET', '/ota/job/list', { token: manager, query: { fileId: String(running.id) } }),
    ).list as { state: string; fromVersion?: string }[];
    expect(jobs).toHaveLength(DEMO_SETS.length);
    expect(jobs.every((j) => j.state === 'updated')).toBe(true);
    // the images are on disk, whole
    for (const f of files) {
      const row = await t.app.database.db
        .selectFrom('ota_file')
        .select(['stored_name', 'size'])
        .where('id', '=', f.id)
        .executeTakeFirstOrThrow();
      const { statSync } = await import('node:fs');
      expect(statSync(`${t.dataDir}/firmware/${row.stored_name}`).size).toBe(Number(row.size));
    }
  });
});
