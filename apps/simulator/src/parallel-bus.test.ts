// Sets in a parallel group: synchronising onto a live bus, sharing its load by rating, leaving it on stop,
// and the bus as the controllers report it over Modbus.
import { afterEach, describe, expect, test } from 'vitest';
import { layoutG, layoutS } from '@genset/protocol';
import { GensetModel, type GensetModelOptions } from './genset-model.ts';
import { ParallelBus, SYNC_LIMITS, type ParallelBusOptions } from './parallel-bus.ts';
import { startGensetSimulator, type RunningGensetSimulator } from './genset-simulator.ts';
import { connectModbus } from './test-modbus-client.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Steps every model together, 100 ms at a time, until the condition holds; returns the seconds it took. */
function runUntil(models: GensetModel[], condition: () => boolean, maxSeconds: number, label: string): number {
  const start = models[0]!.timeMs;
  while (!condition()) {
    if (models[0]!.timeMs - start > maxSeconds * 1000)
      throw new Error(`not ${label} within ${maxSeconds} s (${models.map((m) => m.engineState).join(', ')})`);
    for (const model of models) model.advance(100);
  }
  return (models[0]!.timeMs - start) / 1000;
}

function run(models: GensetModel[], seconds: number): void {
  for (let t = 0; t < seconds * 10; t++) for (const model of models) model.advance(100);
}

function group(ratings: number[], bus: ParallelBusOptions, options: GensetModelOptions = {}) {
  const parallel = new ParallelBus(bus);
  const models = ratings.map(
    (rated_kw, i) =>
      new GensetModel({ seed: 21 + i, mode: 'manual', settings: { rated_kw, warm_up_time_s: 5 }, ...options }),
  );
  for (const model of models) parallel.join(model);
  return { bus: parallel, models };
}

/** How far apart two loads are, as a fraction of the larger. */
const apart = (a: number, b: number) => Math.abs(a - b) / Math.max(a, b);

describe('a parallel group', () => {
  test('the first set closes onto the dead bus; the second synchronises, closes, and both share the load within 5 %', () => {
    const { bus, models } = group([200, 200], { loadKw: 300 });
    const [a, b] = models as [GensetModel, GensetModel];
    expect(a.command('start')).toBe(true);
    runUntil(models, () => a.genBreakerClosed, 90, 'A on the bus');
    // nothing to synchronise with: A went straight on
    expect(bus.live).toBe(true);
    // until B is on, A carries what it can and the rest is shed rather than tripping A on overload
    run(models, 10);
    expect(a.genKw).toBeGreaterThan(190);
    expect(a.genKw).toBeLessThanOrEqual(205);
    expect(a.activeAlarms()).toEqual([]);

    expect(b.command('start')).toBe(true);
    runUntil(models, () => b.synchronising, 90, 'B synchronising');
    expect(b.genBreakerClosed).toBe(false);
    runUntil(models, () => b.genBreakerClosed, 30, 'B on the bus');
    // it closed inside the synchronising window
    expect(Math.abs(b.genFrequency - bus.frequencyHz)).toBeLessThanOrEqual(SYNC_LIMITS.frequencyHz);
    expect(Math.abs(b.genVoltage - bus.voltageV)).toBeLessThanOrEqual(0.05 * 230);

    run(models, 20);
    for (let check = 0; check < 30; check++) {
      run(models, 1);
      expect(apart(a.genKw, b.genKw), `A ${a.genKw.toFixed(1)} kW, B ${b.genKw.toFixed(1)} kW`).toBeLessThan(0.05);
      expect(a.genKw + b.genKw).toBeGreaterThan(285);
      expect(a.genKw + b.genKw).toBeLessThan(315);
    }
    const values = a.values();
    expect(values.bus_live).toBe(1);
    expect(values.bus_freq).toBeCloseTo(50, 0);
    expect(values.bus_voltage).toBeGreaterThan(220);
    expect(values.bus_voltage).toBeLessThan(240);
    expect(values.bus_kw).toBeCloseTo(a.genKw + b.genKw, 3);
    expect(values.bus_kva).toBeCloseTo(a.genKva + b.genKva, 3);
    expect(values.load_share! + b.values().load_share!).toBeCloseTo(100, 3);
    expect(values.gen_on_load).toBe(1);
    expect(values.synchronising).toBe(0);
  });

  test('stop opens the set’s breaker; the others take the load; the last stop leaves the bus dead', () => {
    const { bus, models } = group([200, 200], { loadKw: 260 });
    const [a, b] = models as [GensetModel, GensetModel];
    a.command('start');
    b.command('start');
    runUntil(models, () => a.genBreakerClosed && b.genBreakerClosed, 150, 'both on the bus');
    run(models, 15);

    b.command('stop');
    run(models, 0.2);
    expect(b.genBreakerClosed).toBe(false);
    expect(b.genKw).toBe(0);
    expect(b.values().gen_on_load).toBe(0);
    expect(b.engineState).toBe('cooling');
    run(models, 10);
    expect(a.genKw).toBeGreaterThan(190);
    expect(bus.totalKw).toBeCloseTo(a.genKw, 3);

    a.command('stop');
    run(models, 0.2);
    expect(a.genBreakerClosed).toBe(false);
    expect(bus.live).toBe(false);
    expect(a.values()).toMatchObject({ bus_live: 0, bus_voltage: 0, bus_freq: 0, bus_kw: 0 });
  });

  test('sets of different ratings carry the same fraction of their rating', () => {
    const { models } = group([400, 200], { loadKw: 450 });
    for (const model of models) model.command('start');
    runUntil(models, () => models.every((m) => m.genBreakerClosed), 150, 'both on the bus');
    run(models, 30);
    const [big, small] = models as [GensetModel, GensetModel];
    expect(apart(big.genKw / 400, small.genKw / 200)).toBeLessThan(0.05);
    expect(big.genKw).toBeGreaterThan(1.8 * small.genKw);
  });

  test('with droop sharing the bus frequency falls as the load rises; isochronous holds it', () => {
    const droop = group([200, 200], { loadKw: 60, sharing: 'droop', droopPercent: 4 });
    for (const model of droop.models) model.command('start');
    runUntil(droop.models, () => droop.models.every((m) => m.genBreakerClosed), 150, 'both on the bus');
    run(droop.models, 20);
    const light = droop.bus.frequencyHz;
    droop.bus.setLoad(360);
    run(droop.models, 20);
    const heavy = droop.bus.frequencyHz;
    expect(light - heavy).toBeGreaterThan(0.9);
    expect(light).toBeGreaterThan(50.3);
    expect(heavy).toBeLessThan(49.9);
    expect(apart(droop.models[0]!.genKw, droop.models[1]!.genKw)).toBeLessThan(0.05);

    const iso = group([200, 200], { loadKw: 360 });
    for (const model of iso.models) model.command('start');
    runUntil(iso.models, () => iso.models.every((m) => m.genBreakerClosed), 150, 'both on the bus');
    run(iso.models, 20);
    expect(iso.bus.frequencyHz).toBeCloseTo(50, 0);
    expect(Math.abs(iso.bus.frequencyHz - 50)).toBeLessThan(0.3);
  });

  test('in manual the breaker button opens a set off the bus and closes it again through the synchroniser', () => {
    const { models } = group([200, 200], { loadKw: 200 });
    const [a, b] = models as [GensetModel, GensetModel];
    a.command('start');
    b.command('start');
    runUntil(models, () => a.genBreakerClosed && b.genBreakerClosed, 150, 'both on the bus');
    expect(b.command('gen_breaker')).toBe(true);
    run(models, 20);
    expect(b.genBreakerClosed).toBe(false);
    expect(b.engineState).toBe('running');
    expect(b.synchronising).toBe(false);
    expect(b.command('gen_breaker')).toBe(true);
    runUntil(models, () => b.synchronising, 5, 'synchronising');
    runUntil(models, () => b.genBreakerClosed, 30, 'back on the bus');
  });

  test('a set on its own reports no bus', () => {
    const model = new GensetModel({ seed: 3 });
    expect(model.values()).toMatchObject({
      bus_voltage: null,
      bus_freq: null,
      bus_kw: null,
      bus_kva: null,
      load_share: null,
      bus_live: 0,
      synchronising: 0,
    });
  });
});

describe('the bus in the register layouts', () => {
  test.each([
    ['S', layoutS],
    ['G', layoutG],
  ] as const)('layout %s carries the breaker, the set’s share and the bus values', async (layout, doc) => {
    const bus = new ParallelBus({ loadKw: 300 });
    const sims: RunningGensetSimulator[] = [];
    for (const seed of [31, 32]) {
      const sim = await startGensetSimulator({
        layout,
        seed,
        realtime: false,
        mode: 'manual',
        settings: { rated_kw: 200, warm_up_time_s: 5 },
      });
      cleanups.push(() => sim.close());
      sim.joinBus(bus);
      sims.push(sim);
    }
    const modbus = await connectModbus(sims[0]!.port);
    cleanups.push(() => modbus.close());

    const alone = await modbus.readValues(doc);
    expect(alone).toMatchObject({ bus_live: 0, bus_kw: 0, gen_on_load: 0 });
    for (const sim of sims) sim.command('start');
    for (let second = 0; second < 150 && !sims.every((sim) => sim.model.genBreakerClosed); second++)
      for (const sim of sims) sim.tick(1000);
    for (let second = 0; second < 20; second++) for (const sim of sims) sim.tick(1000);

    const values = await modbus.readValues(doc);
    const model = sims[0]!.model.values();
    expect(values.gen_on_load).toBe(1);
    expect(values.bus_live).toBe(1);
    expect(values.synchronising).toBe(0);
    expect(values.bus_kw).toBeCloseTo(model.bus_kw!, 0);
    expect(values.bus_kw).toBeGreaterThan(285);
    expect(values.bus_kva).toBeCloseTo(model.bus_kva!, 0);
    expect(values.bus_freq).toBeCloseTo(50, 0);
    expect(values.bus_voltage).toBeGreaterThan(220);
    expect(values.load_share).toBeGreaterThan(47);
    expect(values.load_share).toBeLessThan(53);
  });

  test('a set outside any group reads "no data" for the bus values', async () => {
    const sim = await startGensetSimulator({ layout: 'G', seed: 4, realtime: false });
    cleanups.push(() => sim.close());
    const modbus = await connectModbus(sim.port);
    cleanups.push(() => modbus.close());
    const values = await modbus.readValues(layoutG);
    expect(values).toMatchObject({ bus_voltage: null, bus_freq: null, bus_kw: null, load_share: null, bus_live: 0 });
  });
});
