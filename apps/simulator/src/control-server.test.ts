import { afterEach, expect, test } from 'vitest';
import { deriveStatus, layoutG, layoutS } from '@genset/protocol';
import { startControlServer } from './control-server.ts';
import { startGensetFleet, type GensetFleet } from './fleet.ts';
import { connectModbus } from './test-modbus-client.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function fleetWithControl(options: Parameters<typeof startGensetFleet>[0]) {
  const fleet: GensetFleet = await startGensetFleet(options);
  cleanups.push(() => fleet.close());
  const control = await startControlServer(fleet.simulators);
  cleanups.push(() => control.close());
  const call = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${control.port}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return { fleet, call };
}

test('a fleet on one shared port: the control endpoint cuts the mains of one set and it starts', async () => {
  const { fleet, call } = await fleetWithControl({ count: 3, sharedPort: true, realtime: false, seed: 4 });
  const ports = new Set(fleet.simulators.map((simulator) => simulator.port));
  expect(ports.size).toBe(1);
  expect(fleet.simulators.map((simulator) => [simulator.layout, simulator.unitId])).toEqual([
    ['S', 1],
    ['G', 2],
    ['S', 3],
  ]);

  const list = await call<{ id: string }[]>('GET', '/simulators');
  expect(list.status).toBe(200);
  expect(list.body.map((entry) => entry.id)).toEqual(['1', '2', '3']);

  expect((await call('POST', '/simulators/2/mains', { available: false })).body).toMatchObject({
    mainsAvailable: false,
  });
  expect((await call('POST', '/simulators/2/tick', { ms: 90_000 })).body).toMatchObject({ engineState: 'on_load' });
  const modbus = await connectModbus([...ports][0]!, 2);
  cleanups.push(() => modbus.close());
  expect(deriveStatus(layoutG, await modbus.readValues(layoutG))).toMatchObject({ phase: 'running', onLoad: true });

  const other = await connectModbus([...ports][0]!, 1);
  cleanups.push(() => other.close());
  expect(deriveStatus(layoutS, await other.readValues(layoutS)).phase).toBe('stopped');
});

test('faults, fuel, position, load and mode through the endpoint; bad input is refused with a reason', async () => {
  const { call } = await fleetWithControl({ count: 1, realtime: false });
  expect((await call('POST', '/simulators/1/faults', { code: 'emergency_stop' })).status).toBe(200);
  const stopped = await call('POST', '/simulators/1/tick', { ms: 500 });
  expect(stopped.body.alarms).toEqual([{ code: 'emergency_stop', level: 'shutdown', latched: true }]);
  expect((await call('DELETE', '/simulators/1/faults/emergency_stop')).status).toBe(200);
  expect((await call('POST', '/simulators/1/commands', { command: 'fault_reset' })).body.alarms).toEqual([]);

  const refuelled = await call<{ values: Record<string, number> }>('POST', '/simulators/1/refuel', { percent: 35 });
  expect(refuelled.body.values.fuel_level).toBeCloseTo(35, 5);
  const moved = await call('POST', '/simulators/1/position', { lat: 39.9, lon: 116.4 });
  expect(moved.body.position).toEqual({ lat: 39.9, lon: 116.4 });
  expect((await call('POST', '/simulators/1/load', { kw: 42 })).body.loadKw).toBe(42);
  expect((await call('POST', '/simulators/1/mode', { mode: 'manual' })).body.mode).toBe('manual');

  const badFault = await call('POST', '/simulators/1/faults', { code: 'flat_tyre' });
  expect(badFault.status).toBe(400);
  expect(badFault.body.error).toMatch(/"code" must be one of/);
  expect((await call('POST', '/simulators/1/load', { kw: 'lots' })).status).toBe(400);
  expect((await call('POST', '/simulators/1/position', { lat: 100, lon: 0 })).status).toBe(400);
  expect((await call('GET', '/simulators/9')).status).toBe(404);
  expect((await call('POST', '/simulators/1/explode', {})).status).toBe(404);
});
