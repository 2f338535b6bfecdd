// Simulated controllers over real Modbus TCP, read and decoded the way the cloud does it.
import { afterEach, describe, expect, test } from 'vitest';
import {
  checkCommandPreconditions,
  compileConfigDecoder,
  deriveStatus,
  findCommand,
  findConfigParam,
  layoutG,
  layoutS,
  planCommandWrites,
  planConfigWrite,
  planConfigWrites,
  type DecodedValues,
  type PlannedWrite,
  type ProtocolDocument,
} from '@genset/protocol';
import {
  startGensetSimulator,
  type RunningGensetSimulator,
  type StartGensetSimulatorOptions,
} from './genset-simulator.ts';
import { ModbusTcpHost } from './modbus-host.ts';
import { MODBUS_EXCEPTION } from './register-bank.ts';
import { connectModbus, modbusExceptionOf, type TestModbusClient } from './test-modbus-client.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function simulator(options: StartGensetSimulatorOptions): Promise<RunningGensetSimulator> {
  const started = await startGensetSimulator({ seed: 11, realtime: false, ...options });
  cleanups.push(() => started.close());
  return started;
}

async function client(port: number, unitId = 1): Promise<TestModbusClient> {
  const connected = await connectModbus(port, unitId);
  cleanups.push(() => connected.close());
  return connected;
}

/** Sends a write exactly as planned from the document (what the cloud module executes). */
async function send(modbus: TestModbusClient, write: PlannedWrite): Promise<unknown> {
  switch (write.fc) {
    case 5:
      return modbus.client.writeSingleCoil(write.address, write.value);
    case 6:
      return modbus.client.writeSingleRegister(write.address, write.value);
    case 16:
      return modbus.client.writeMultipleRegisters(write.address, write.values);
  }
}

async function sendCommand(modbus: TestModbusClient, doc: ProtocolDocument, key: string): Promise<void> {
  for (const write of planCommandWrites(findCommand(doc, key)!)) await send(modbus, write);
}

/** Ticks simulated time until the decoded values satisfy the condition. */
async function tickUntil(
  sim: RunningGensetSimulator,
  modbus: TestModbusClient,
  condition: (values: DecodedValues) => boolean,
  maxSeconds: number,
  label: string,
): Promise<DecodedValues> {
  for (let second = 0; second <= maxSeconds; second++) {
    const values = await modbus.readValues(sim.document);
    if (condition(values)) return values;
    sim.tick(1000);
  }
  throw new Error(`not ${label} within ${maxSeconds} s (engine state ${sim.state.engineState})`);
}

const phaseOf = (doc: ProtocolDocument) => (values: DecodedValues) => deriveStatus(doc, values).phase;

describe('reading a controller', () => {
  test('port 0 takes a free port; the decoded registers are the model’s engineering values', async () => {
    const sim = await simulator({ layout: 'S', loadKw: 90 });
    expect(sim.port).toBeGreaterThan(0);
    sim.command('test');
    sim.tick(120_000);
    const modbus = await client(sim.port);
    const values = await modbus.readValues(layoutS);
    const model = sim.model.values();

    expect(values.engine_rpm).toBe(Math.round(model.engine_rpm!));
    expect(values.gen_freq).toBeCloseTo(model.gen_freq!, 2);
    expect(values.gen_current_l1).toBeCloseTo(model.gen_current_l1!, 1);
    expect(values.gen_kw).toBeCloseTo(model.gen_kw!, 1);
    expect(values.power_factor).toBeCloseTo(model.power_factor!, 2);
    expect(values.battery_voltage).toBeCloseTo(model.battery_voltage!, 1);
    expect(values.coolant_temp).toBe(Math.round(model.coolant_temp!));
    expect(values.run_hours).toBe(model.run_hours);
    expect(values.starts).toBe(model.starts);
    expect(values.kwh_total).toBe(Math.round(model.kwh_total!));
    expect(values.latitude).toBeCloseTo(31.230416, 6);
    expect(values.gen_on_load).toBe(1);
    expect(values.alarm_fail_to_start).toBe(0);
    expect(deriveStatus(layoutS, values)).toMatchObject({
      status: 3,
      phase: 'running',
      mode: 'test',
      onLoad: true,
      alarm: false,
    });
  });

  test('layouts S and G decode to the same engineering values for the same simulated state', async () => {
    const options = { seed: 5, loadKw: 140, settings: { mains_fail_delay_s: 3 } };
    const s = await simulator({ layout: 'S', ...options });
    const g = await simulator({ layout: 'G', ...options });
    const [clientS, clientG] = [await client(s.port), await client(g.port)];
    const commonKeys = layoutS.items
      .map((item) => item.key)
      .filter((key) => layoutG.items.some((item) => item.key === key));
    expect(commonKeys.length).toBeGreaterThan(40);

    const step = async (act: (sim: RunningGensetSimulator) => void, ms: number) => {
      for (const sim of [s, g]) {
        act(sim);
        sim.tick(ms);
      }
      const [valuesS, valuesG] = [await clientS.readValues(layoutS), await clientG.readValues(layoutG)];
      for (const key of commonKeys) {
        const [itemS, itemG] = [layoutS.items.find((i) => i.key === key)!, layoutG.items.find((i) => i.key === key)!];
        const [a, b] = [valuesS[key], valuesG[key]];
        if (key === 'mode' || key === 'engine_state') continue; // numbered differently; compared as status below
        if (itemS.scale === itemG.scale && itemS.offset === itemG.offset && itemS.decimals === itemG.decimals) {
          expect(b, key).toBe(a);
        } else {
          // Different resolutions: each layout rounds to its own step, so they agree within half of each.
          const stepOf = (item: typeof itemS) => Math.max(Math.abs(item.scale), 10 ** -item.decimals);
          expect(Math.abs(a! - b!), `${key}: S ${a} vs G ${b}`).toBeLessThanOrEqual(
            (stepOf(itemS) + stepOf(itemG)) / 2 + 1e-9,
          );
        }
      }
      const [statusS, statusG] = [deriveStatus(layoutS, valuesS), deriveStatus(layoutG, valuesG)];
      expect({ ...statusG, activeAlarms: statusG.activeAlarms.map((a) => a.code) }).toEqual({
        ...statusS,
        activeAlarms: statusS.activeAlarms.map((a) => a.code),
      });
      return valuesS;
    };

    expect((await step(() => {}, 2000)).gen_kw).toBe(0);
    await step((sim) => sim.cutMains(), 2000);
    await step(() => {}, 6000); // cranking
    const onLoad = await step(() => {}, 90_000);
    expect(onLoad.gen_kw).toBeGreaterThan(100);
    await step((sim) => sim.injectFault('low_fuel_warning'), 400_000); // warned, then shut down
    await step((sim) => sim.refuel(60), 5000);
  });

  test('each layout carries values in its own units and word order', async () => {
    const options = { seed: 3, loadKw: 123.4 };
    const [s, g] = [await simulator({ layout: 'S', ...options }), await simulator({ layout: 'G', ...options })];
    for (const sim of [s, g]) {
      sim.command('test');
      sim.tick(100_000);
    }
    const model = s.model.values();
    const [clientS, clientG] = [await client(s.port), await client(g.port)];
    // S: Hz × 100 in register 13; kW × 10 in 23; kWh as two words, low word first, at 37.
    const [freqS, kwS, kwhS] = await clientS.readBlocks([
      { fc: 3, start: 13, count: 1 },
      { fc: 3, start: 23, count: 1 },
      { fc: 3, start: 37, count: 2 },
    ]);
    expect(freqS!.words![0]).toBe(Math.round(model.gen_freq! * 100));
    expect(kwS!.words![0]).toBe(Math.round(model.gen_kw! * 10));
    const kwh = Math.round(model.kwh_total!);
    expect(kwhS!.words).toEqual([kwh % 65536, Math.floor(kwh / 65536)]);
    // G: Hz × 10 at page 4 offset 7; watts as two words, high word first, at page 6 offset 0.
    const [freqG, wattsG] = await clientG.readBlocks([
      { fc: 3, start: 4 * 256 + 7, count: 1 },
      { fc: 3, start: 6 * 256, count: 2 },
    ]);
    expect(freqG!.words![0]).toBe(Math.round(model.gen_freq! * 10));
    const watts = Math.round(model.gen_kw! * 1000);
    expect(wattsG!.words).toEqual([Math.floor(watts / 65536), watts % 65536]);
  });

  test('an open sensor reads as the layout’s "no data" sentinel, decoded as null', async () => {
    const sim = await simulator({ layout: 'G' });
    sim.setSensorOpen('oil_pressure', true);
    const modbus = await client(sim.port);
    const [block] = await modbus.readBlocks([{ fc: 3, start: 1024, count: 1 }]);
    expect(block!.words).toEqual([65535]);
    expect((await modbus.readValues(layoutG)).oil_pressure).toBeNull();
  });

  test('reads beyond the map are illegal addresses', async () => {
    const sim = await simulator({ layout: 'S' });
    const modbus = await client(sim.port);
    expect(await modbusExceptionOf(modbus.client.readHoldingRegisters(4118, 1))).toBe(
      MODBUS_EXCEPTION.illegalDataAddress,
    );
    expect(await modbusExceptionOf(modbus.client.readInputRegisters(0, 1))).toBe(MODBUS_EXCEPTION.illegalDataAddress);
  });
});

describe.each([
  ['S', layoutS],
  ['G', layoutG],
] as const)('commands over Modbus, layout %s', (layout, doc) => {
  test('manual + start runs the start sequence; the breaker puts it on load; stop brings it back to rest', async () => {
    const sim = await simulator({ layout, settings: { cooling_time_s: 20 } });
    const modbus = await client(sim.port);
    await sendCommand(modbus, doc, 'manual');
    await sendCommand(modbus, doc, 'start');
    const seen = new Set<string | null>();
    await tickUntil(sim, modbus, (v) => (seen.add(phaseOf(doc)(v)), phaseOf(doc)(v) === 'running'), 90, 'running');
    expect([...seen]).toEqual(['stopped', 'starting', 'running']);
    expect(sim.state.engineState).toBe('running');

    await sendCommand(modbus, doc, 'gen_breaker');
    const onLoad = await tickUntil(sim, modbus, (v) => v.gen_kw! > 50, 10, 'on load');
    expect(deriveStatus(doc, onLoad)).toMatchObject({ onLoad: true, status: 3 });

    await sendCommand(modbus, doc, 'stop');
    const cooling = await tickUntil(sim, modbus, (v) => phaseOf(doc)(v) === 'cooling', 3, 'cooling');
    expect(cooling.gen_kw).toBe(0);
    const atRest = await tickUntil(sim, modbus, (v) => phaseOf(doc)(v) === 'stopped', 40, 'stopped');
    expect(deriveStatus(doc, atRest)).toMatchObject({ status: 1, mode: 'stop', running: false });
  });

  test('in AUTO a mains cut starts it and mains return stops it after cooling', async () => {
    const sim = await simulator({
      layout,
      settings: { mains_fail_delay_s: 3, mains_return_delay_s: 5, cooling_time_s: 30 },
    });
    const modbus = await client(sim.port);
    await sendCommand(modbus, doc, 'auto');
    const standby = await modbus.readValues(doc);
    expect(deriveStatus(doc, standby)).toMatchObject({ status: 2, standby: true, mode: 'auto' });
    expect(standby.mains_on_load).toBe(1);

    sim.cutMains();
    const onLoad = await tickUntil(sim, modbus, (v) => v.gen_on_load === 1, 90, 'on load');
    expect(onLoad.mains_on_load).toBe(0);
    expect(onLoad.mains_voltage_l1).toBe(0);

    sim.restoreMains();
    const cooling = await tickUntil(sim, modbus, (v) => phaseOf(doc)(v) === 'cooling', 10, 'cooling');
    expect(cooling).toMatchObject({ gen_on_load: 0, mains_on_load: 1 });
    sim.tick(25_000);
    expect(phaseOf(doc)(await modbus.readValues(doc))).toBe('cooling');
    const rest = await tickUntil(sim, modbus, (v) => phaseOf(doc)(v) === 'stopped', 30, 'stopped');
    expect(deriveStatus(doc, rest).status).toBe(2);
  });

  test('an injected shutdown fault stops the engine and stays latched until a fault reset', async () => {
    const sim = await simulator({ layout });
    const modbus = await client(sim.port);
    await sendCommand(modbus, doc, 'test');
    await tickUntil(sim, modbus, (v) => v.gen_on_load === 1, 90, 'on load');

    sim.injectFault('high_coolant_temp_shutdown');
    const tripped = await tickUntil(sim, modbus, (v) => deriveStatus(doc, v).shutdown, 300, 'shut down');
    expect(deriveStatus(doc, tripped).activeAlarms.map((a) => a.code)).toContain('high_coolant_temp_shutdown');
    expect(tripped.common_shutdown).toBe(1);
    await tickUntil(sim, modbus, (v) => phaseOf(doc)(v) === 'stopped', 30, 'stopped');

    sim.clearFault('high_coolant_temp_shutdown');
    sim.tick(120_000);
    const stillLatched = deriveStatus(doc, await modbus.readValues(doc));
    expect(stillLatched).toMatchObject({ shutdown: true, phase: 'stopped', status: 1 });

    await sendCommand(modbus, doc, 'fault_reset');
    sim.tick(1000);
    const reset = deriveStatus(doc, await modbus.readValues(doc));
    expect(reset.shutdown).toBe(false);
    expect(reset.activeAlarms).toEqual([]);
    // Still in test mode: with the alarm gone it starts again.
    expect(reset.phase).toBe('starting');
  });

  test('remote lock: the document refuses the command and the controller would too', async () => {
    const sim = await simulator({ layout });
    const modbus = await client(sim.port);
    sim.setRemoteLock(true);
    const values = await modbus.readValues(doc);
    expect(values.remote_lock).toBe(1);
    expect(checkCommandPreconditions(findCommand(doc, 'test')!, values)).not.toBeNull();
    const [write] = planCommandWrites(findCommand(doc, 'test')!);
    expect(await modbusExceptionOf(send(modbus, write!))).toBe(MODBUS_EXCEPTION.illegalFunction);
    expect(sim.state.mode).toBe('auto');
  });

  test('configuration writes act on the controller and read back; out-of-range values are refused', async () => {
    const sim = await simulator({ layout });
    const modbus = await client(sim.port);
    const readConfig = async () => compileConfigDecoder(doc)(await modbus.readBlocks(doc.configReadBlocks));
    expect(await readConfig()).toMatchObject({ crank_attempts: 3, rated_kw: 200, rated_frequency: 50 });

    for (const [key, value] of [
      ['cooling_time_s', 45],
      ['rated_kw', 350],
      ['low_fuel_warning_pct', 25],
    ] as const) {
      const plan = planConfigWrite(findConfigParam(doc, key)!, value);
      if (!plan.ok) throw new Error(plan.reason);
      await send(modbus, plan.write);
    }
    expect(await readConfig()).toMatchObject({ cooling_time_s: 45, rated_kw: 350, low_fuel_warning_pct: 25 });
    expect(sim.state.settings).toMatchObject({ cooling_time_s: 45, rated_kw: 350, low_fuel_warning_pct: 25 });

    const attempts = findConfigParam(doc, 'crank_attempts')!;
    const tooMany =
      doc === layoutS
        ? modbus.client.writeSingleRegister(attempts.address, 11)
        : modbus.client.writeMultipleRegisters(attempts.address, [11]);
    expect(await modbusExceptionOf(tooMany)).toBe(MODBUS_EXCEPTION.illegalDataValue);
    expect((await readConfig()).crank_attempts).toBe(3);

    const rpmRegister = doc.items.find((item) => item.key === 'engine_rpm')!.address;
    expect(await modbusExceptionOf(modbus.client.writeSingleRegister(rpmRegister, 3000))).toBe(
      MODBUS_EXCEPTION.illegalDataAddress,
    );
  });

  test('settings at bits of one register: a write changes its own field, the others keep theirs', async () => {
    const sim = await simulator({ layout, settings: { panel_language: 2 } });
    const modbus = await client(sim.port);
    const readConfig = async () => compileConfigDecoder(doc)(await modbus.readBlocks(doc.configReadBlocks));
    const idle = findConfigParam(doc, 'idle_start')!;
    expect(await readConfig()).toMatchObject({ mains_fail_auto_start: 1, idle_start: 0, panel_language: 2 });
    const [word] = sim.readRegisters(3, idle.address, 1);
    expect(word).toBe(0b0010_0001);

    const plan = planConfigWrites([{ param: idle, value: 1 }], () => word);
    if (!plan.ok) throw new Error(plan.reason);
    for (const write of plan.writes) await send(modbus, write);
    expect(sim.readRegisters(3, idle.address, 1)).toEqual([0b0010_0011]);
    expect(sim.state.settings).toMatchObject({ mains_fail_auto_start: 1, idle_start: 1, panel_language: 2 });

    const after = await readConfig();
    expect(after).toMatchObject({ mains_fail_auto_start: 1, idle_start: 1, panel_language: 2, crank_attempts: 3 });
  });
});

test('layout G refuses a control key without its complement', async () => {
  const sim = await simulator({ layout: 'G' });
  const modbus = await client(sim.port);
  const [write] = planCommandWrites(findCommand(layoutG, 'manual')!);
  if (write?.fc !== 16) throw new Error('expected a key write');
  expect(await modbusExceptionOf(modbus.client.writeMultipleRegisters(write.address, [write.values[0]!, 0]))).toBe(
    MODBUS_EXCEPTION.illegalDataValue,
  );
  expect(sim.state.mode).toBe('auto');
  await send(modbus, write);
  expect(sim.state.mode).toBe('manual');
});

test('several controllers share one port by unit id; an absent unit id gets a gateway exception', async () => {
  const host = await ModbusTcpHost.listen({ port: 0 });
  cleanups.push(() => host.close());
  const s = await simulator({ layout: 'S', unitId: 1, modbusHost: host, seed: 1 });
  const g = await simulator({ layout: 'G', unitId: 2, modbusHost: host, seed: 2 });
  expect(s.port).toBe(host.port);
  expect(g.port).toBe(host.port);
  expect(host.unitIds).toEqual([1, 2]);
  g.cutMains();
  g.tick(90_000);

  const [unit1, unit2, unit3] = [await client(host.port, 1), await client(host.port, 2), await client(host.port, 3)];
  expect(deriveStatus(layoutS, await unit1.readValues(layoutS))).toMatchObject({ phase: 'stopped', standby: true });
  expect(deriveStatus(layoutG, await unit2.readValues(layoutG))).toMatchObject({ phase: 'running', onLoad: true });
  expect(await modbusExceptionOf(unit3.client.readHoldingRegisters(0, 1))).toBe(MODBUS_EXCEPTION.gatewayTargetFailed);
});

test('real-time mode advances the clock by the time scale', async () => {
  const sim = await simulator({ layout: 'S', realtime: true, timeScale: 50, tickIntervalMs: 20 });
  const before = sim.state.timeMs;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const simulatedMs = sim.state.timeMs - before;
  expect(simulatedMs).toBeGreaterThan(50 * 150);
  expect(simulatedMs).toBeLessThan(50 * 1500);
});
