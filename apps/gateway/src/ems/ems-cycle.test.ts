// The EMS cycle against a real Modbus TCP server holding a PCS, a BMS, a meter and a PV inverter on four unit
// ids: what it reads (one request per controller's registers), what it writes (fc 16 for a 32-bit setpoint,
// fc 6 for a 16-bit PV limit), and how it holds the battery at 0 kW on a fault, a stale meter or a lost link.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMS_STALE_MS, emsRoleCoordinates, emsTactic, type EmsTactic, type EmsTacticInput } from '@genset/protocol';
import type { ModbusTcpHost } from '@genset/simulator';
import { ModbusLink } from '../modbus-link.ts';
import { silentLogger } from '../logger.ts';
import { sleep, waitFor } from '../test-support.ts';
import { EmsCycle, planRoleReads } from './ems-cycle.ts';
import { EmsStore } from './ems-store.ts';
import { PCS, TEMPLATE, startRoleSite, type RoleUnit } from './test-site.ts';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 10:00 and 03:00 UTC on a day, as the site's clock. */
const PEAK = Date.UTC(2025, 5, 2, 10, 0);
const VALLEY = Date.UTC(2025, 5, 2, 3, 0);

interface Rig {
  pcs: RoleUnit;
  bms: RoleUnit;
  meter: RoleUnit;
  pv: RoleUnit;
  host: ModbusTcpHost;
  links: Map<string, ModbusLink>;
  store: EmsStore;
  dir: string;
  tactic(extra?: Partial<EmsTacticInput>): EmsTactic;
  cycle(options?: { clock?: () => number }): EmsCycle;
}

async function rig(): Promise<Rig> {
  const site = await startRoleSite();
  const { host, pcs, bms, meter, pv } = site;
  cleanups.push(() => host.close());
  const link = new ModbusLink(
    'ess',
    { name: 'ess', host: '127.0.0.1', port: host.port, controllers: [1, 2, 3, 4].map((address) => ({ address })) },
    { timeoutMs: 300, reconnect: { minMs: 50, maxMs: 200 }, logger: silentLogger },
  );
  cleanups.push(() => link.close());
  const links = new Map([['ess', link]]);
  const dir = await mkdtemp(join(tmpdir(), 'ems-cycle-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = new EmsStore(join(dir, 'module.sqlite'));
  cleanups.push(() => store.close());
  const roles = site.roles('ess');
  return {
    pcs,
    bms,
    meter,
    pv,
    host,
    links,
    store,
    dir,
    tactic: (extra = {}) =>
      emsTactic.parse({ version: 1, strategy: 'timeOfUse', template: TEMPLATE, timeZone: 'UTC', roles, ...extra }),
    cycle: (options = {}) => {
      const cycle = new EmsCycle({ links, store, logger: silentLogger, clock: options.clock ?? (() => PEAK) });
      cleanups.push(() => cycle.stop());
      return cycle;
    },
  };
}

/** A cycle whose timer runs once and then only a minute later: the test runs the cycles it wants. */
async function manual(r: Rig, cycle: EmsCycle, tactic = r.tactic()): Promise<EmsCycle> {
  expect(cycle.acceptTactic({ ...tactic, cycleMs: 60_000 })).toEqual({ ok: true, version: tactic.version });
  await waitFor(() => cycle.cycleCount >= 1, 'first cycle');
  await cycle.runOnce();
  return cycle;
}

describe('EMS cycle', () => {
  it('reads each controller in one request per register range and writes the setpoint with fc 16', async () => {
    const r = await rig();
    const cycle = await manual(r, r.cycle());
    for (const unit of [r.pcs, r.bms, r.meter, r.pv]) unit.requests.length = 0;
    await cycle.runOnce();
    // PCS: power, rating and fault (0…10) in one read; the setpoint is only written
    expect(r.pcs.requests).toEqual(['read 4 0+11', 'write 16 100+2']);
    expect(r.bms.requests).toEqual(['read 4 0+13']);
    expect(r.meter.requests).toEqual(['read 4 0+2']);
    expect(r.pv.requests).toEqual(['read 3 100+1', 'read 4 0+1']);
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
    expect(cycle.status).toMatchObject({ version: 1, strategy: 'timeOfUse', setpointKw: 100 });
    expect(cycle.status?.safe).toBeUndefined();
  });

  it('plans reads apart when registers are far apart', () => {
    const reads = planRoleReads({
      ...emsRoleCoordinates(PCS, 'ess', 1),
      soc: { port: 'ess', address: 1, fc: 4, register: 60, type: 'u16', scale: 1, offset: 0 },
    });
    expect(reads).toHaveLength(1);
    expect(reads[0]!.blocks).toEqual([
      { fc: 4, start: 0, count: 11 },
      { fc: 4, start: 60, count: 1 },
    ]);
  });

  it('follows the site clock it is given: charges in valley, discharges in peak', async () => {
    const r = await rig();
    let now = VALLEY;
    const cycle = await manual(r, r.cycle({ clock: () => now }));
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(-100);
    now = PEAK;
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
  });

  it('reduces the discharge as the load drops and curtails PV with fc 6 once the battery is at 0', async () => {
    const r = await rig();
    const cycle = await manual(r, r.cycle());
    r.meter.set('grid_power', 40);
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(35);
    expect(cycle.status?.limitedBy).toBe('reversePower');
    // PV now gives 80 kW and the site exports 30 with the battery at 0
    r.meter.set('grid_power', -30);
    r.pcs.set('pcs_power', 0);
    r.pv.set('pv_power', 80);
    r.pv.requests.length = 0;
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
    expect(r.pv.requests).toContain('write 6 100+1');
    expect(r.pv.get('pv_limit')).toBe(56.3);
    expect(cycle.status?.limitedBy).toBe('pvCurtailed');
  });

  it('holds the battery at 0 kW within one cycle of a BMS fault or a PCS fault, and resumes after', async () => {
    const r = await rig();
    const cycle = await manual(r, r.cycle());
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
    r.bms.set('bms_fault', 1);
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
    expect(cycle.status).toMatchObject({ setpointKw: 0, safe: 'bmsFault' });
    r.bms.set('bms_fault', 0);
    r.pcs.set('pcs_fault', 3);
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
    expect(cycle.status).toMatchObject({ setpointKw: 0, safe: 'pcsFault' });
    r.pcs.set('pcs_fault', 0);
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
    expect(cycle.status?.safe).toBeUndefined();
  });

  it('rides over a missed meter reading on the load it measured last, and stops once the reading is stale', async () => {
    const r = await rig();
    const cycle = await manual(
      r,
      r.cycle(),
      r.tactic({ strategy: 'capacityExpansion', params: { transformerKw: 200 } }),
    );
    await cycle.runOnce();
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
    r.pcs.set('pcs_power', 100);
    r.meter.failing = true;
    const lostAt = Date.now();
    await cycle.runOnce();
    // the site's load was 300 (import 300, battery 0): with 100 from the battery the cover is still 100
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
    expect(cycle.status?.safe).toBeUndefined();
    while (cycle.status?.safe !== 'meterStale') {
      expect(Date.now() - lostAt).toBeLessThan(EMS_STALE_MS + 1000);
      await sleep(100);
      await cycle.runOnce();
    }
    expect(Date.now() - lostAt).toBeGreaterThanOrEqual(EMS_STALE_MS);
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
    // back, measuring the 300 kW site with the battery's 100 kW still flowing
    r.meter.set('grid_power', 200);
    r.meter.failing = false;
    await cycle.runOnce();
    expect(cycle.status?.safe).toBeUndefined();
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
  });

  it('reports a lost link and writes 0 as soon as the controllers answer again', async () => {
    const r = await rig();
    const cycle = await manual(r, r.cycle());
    await cycle.runOnce();
    r.bms.failing = true;
    await cycle.runOnce();
    expect(cycle.status).toMatchObject({ setpointKw: 0, safe: 'linkLost' });
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
    await r.host.close();
    await cycle.runOnce();
    expect(cycle.status).toMatchObject({ setpointKw: 0, safe: 'linkLost' });
  });

  it('runs on its own timer every cycleMs', async () => {
    const r = await rig();
    const cycle = r.cycle();
    cycle.acceptTactic(r.tactic({ cycleMs: 200 }));
    await waitFor(() => cycle.cycleCount >= 5, 'five cycles', 3000);
    expect(r.pcs.get('pcs_setpoint')).toBe(100);
  });
});

describe('EMS tactic handling', () => {
  it('refuses a tactic that lacks a role, names a controller the module does not have, or writes an input register', async () => {
    const r = await rig();
    const cycle = r.cycle();
    const base = r.tactic();
    const { soc: _soc, ...withoutSoc } = base.roles;
    expect(cycle.acceptTactic({ ...base, roles: withoutSoc })).toEqual({ ok: false, error: 'role soc missing' });
    expect(cycle.acceptTactic({ ...base, roles: { ...base.roles, soc: { ...base.roles.soc!, address: 9 } } })).toEqual({
      ok: false,
      error: 'role soc: no controller at port ess address 9',
    });
    expect(
      cycle.acceptTactic({ ...base, roles: { ...base.roles, soc: { ...base.roles.soc!, port: 'rs485' } } }),
    ).toEqual({ ok: false, error: 'role soc: no controller at port rs485 address 2' });
    expect(
      cycle.acceptTactic({ ...base, roles: { ...base.roles, pcsSetpointKw: { ...base.roles.pcsSetpointKw!, fc: 4 } } }),
    ).toEqual({ ok: false, error: 'role pcsSetpointKw is written: it must be a holding register (fc 3), not fc 4' });
    expect(cycle.acceptTactic({ ...base, timeZone: 'Mars/Olympus' })).toEqual({
      ok: false,
      error: 'unknown time zone Mars/Olympus',
    });
    expect(cycle.status).toBeUndefined();
    expect(r.store.tactic()).toBeUndefined();
  });

  it('takes the same version again, refuses an older one, and resumes the stored tactic after a restart', async () => {
    const r = await rig();
    const first = r.cycle();
    expect(first.acceptTactic(r.tactic({ version: 3 }))).toEqual({ ok: true, version: 3 });
    expect(first.acceptTactic(r.tactic({ version: 3 }))).toEqual({ ok: true, version: 3 });
    expect(first.acceptTactic(r.tactic({ version: 2 }))).toEqual({ ok: false, error: 'older than version 3' });
    expect(first.acceptTactic(r.tactic({ version: 4, strategy: 'idle' }))).toEqual({ ok: true, version: 4 });
    expect(first.addDemandResponse({ id: 'dr-1', startTs: Date.now(), endTs: Date.now() + 60_000, kw: 40 })).toEqual({
      ok: true,
      version: 4,
    });
    await first.stop();

    const second = r.cycle();
    second.start();
    expect(second.status).toMatchObject({ version: 4, strategy: 'idle' });
    await second.runOnce();
    expect(second.status).toMatchObject({ setpointKw: 40, demandResponse: 'dr-1' });
    expect(r.pcs.get('pcs_setpoint')).toBe(40);
    // cancelled: the same event ending now
    second.addDemandResponse({ id: 'dr-1', startTs: Date.now() - 1000, endTs: Date.now(), kw: 40 });
    await second.runOnce();
    expect(second.status?.demandResponse).toBeUndefined();
    expect(r.pcs.get('pcs_setpoint')).toBe(0);
  });

  it('refuses a demand-response event without a tactic to run it with', async () => {
    const r = await rig();
    const cycle = r.cycle();
    expect(cycle.addDemandResponse({ id: 'dr-1', startTs: 0, endTs: 1, kw: 10 })).toEqual({
      ok: false,
      error: 'no tactic: a demand-response event needs one to run with',
    });
  });
});
