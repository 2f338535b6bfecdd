import { afterEach, expect, test } from 'vitest';
import { deriveStatus, layoutEMeter, layoutEPcs } from '@genset/protocol';
import { startEssControlServer } from './ess-control-server.ts';
import { ESS_UNIT_IDS, startEssSite } from './ess-simulator.ts';
import { connectModbus } from './test-modbus-client.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function controlled(options: Parameters<typeof startEssSite>[0] = {}) {
  const site = await startEssSite({
    id: 'plant',
    realtime: false,
    startTs: Date.parse('2025-06-03T12:00:00+08:00'),
    rampKwPerS: 1000,
    ...options,
  });
  cleanups.push(() => site.close());
  const control = await startEssControlServer([site]);
  cleanups.push(() => control.close());
  const call = async <T = Record<string, any>>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${control.port}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return { site, call };
}

test('the endpoint steps the load, writes a setpoint and moves the clock; the meter over Modbus agrees', async () => {
  const { site, call } = await controlled({ pvRatedKw: 80 });
  const list = await call<{ id: string; port: number; unitIds: Record<string, number> }[]>('GET', '/sites');
  expect(list.body).toMatchObject([{ id: 'plant', port: site.port, unitIds: { pcs: 1, bms: 2, meter: 3, pv: 4 } }]);

  expect((await call('POST', '/sites/plant/load', { kw: 150 })).body.loadKw).toBe(150);
  expect((await call('POST', '/sites/plant/load', { addKw: 50 })).body).toMatchObject({ loadKw: 200, loadStepKw: 50 });
  await call('POST', '/sites/plant/pv', { enabled: false });
  await call('POST', '/sites/plant/setpoint', { kw: 60 });
  const advanced = await call('POST', '/sites/plant/advance', { ms: 2000 });
  expect(advanced.body.ts).toBe(Date.parse('2025-06-03T12:00:02+08:00'));
  expect(advanced.body.meter.gridKw).toBeCloseTo(140, 6);

  const meter = await connectModbus(site.port, ESS_UNIT_IDS.meter);
  cleanups.push(() => meter.close());
  expect((await meter.readValues(layoutEMeter)).grid_power).toBe(140);
  const values = await call('GET', '/sites/plant/values');
  expect(values.body.meter.grid_power).toBeCloseTo(140, 6);
  expect(values.body.pv.pv_state).toBe(4);

  expect((await call('POST', '/sites/plant/soc', { soc: 12.5 })).body.bms.soc).toBeCloseTo(12.5, 6);
  expect((await call('POST', '/sites/plant/clock', { speed: 30 })).body).toMatchObject({ speed: 30, realtime: false });
});

test('faults and the PCS panel through the endpoint; bad input is refused with a reason', async () => {
  const { site, call } = await controlled();
  expect((await call('POST', '/sites/plant/pcs-fault', { kind: 'internal' })).body.pcs).toMatchObject({
    state: 'fault',
    fault: 'internal',
  });
  const pcs = await connectModbus(site.port, ESS_UNIT_IDS.pcs);
  cleanups.push(() => pcs.close());
  expect(deriveStatus(layoutEPcs, await pcs.readValues(layoutEPcs)).activeAlarms.map((a) => a.code)).toEqual([
    'pcs_fault',
  ]);
  expect((await call('POST', '/sites/plant/pcs-command', { command: 'fault_reset' })).body.accepted).toBe(false);
  expect((await call('DELETE', '/sites/plant/pcs-fault')).body.pcs.state).toBe('standby');
  expect((await call('POST', '/sites/plant/pcs-command', { command: 'stop' })).body.state.pcs.state).toBe('stop');

  expect((await call('POST', '/sites/plant/bms-fault', { alarm: 'communication' })).body.bms).toMatchObject({
    state: 'fault',
    injected: ['communication'],
    chargeLimitKw: 0,
  });
  expect((await call('DELETE', '/sites/plant/bms-fault')).body.bms.fault).toBe(false);

  const badFault = await call('POST', '/sites/plant/bms-fault', { alarm: 'flat_battery' });
  expect(badFault.status).toBe(400);
  expect(badFault.body.error).toMatch(/"alarm" must be one of/);
  expect((await call('POST', '/sites/plant/pv', { enabled: true })).status).toBe(400);
  expect((await call('POST', '/sites/plant/load', { kw: -5 })).status).toBe(400);
  expect((await call('POST', '/sites/plant/clock', { speed: 0 })).status).toBe(400);
  expect((await call('POST', '/sites/plant/advance', { ms: 'soon' })).status).toBe(400);
  expect((await call('GET', '/sites/elsewhere')).status).toBe(404);
  expect((await call('POST', '/sites/plant/explode', {})).status).toBe(404);
  // the list and the views only read
  expect((await call('POST', '/sites/plant/values', {})).status).toBe(405);
  expect((await call('POST', '/sites', {})).status).toBe(405);
});
