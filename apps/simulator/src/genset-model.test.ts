import { describe, expect, test } from 'vitest';
import { GensetModel, type EngineState, type GensetModelOptions } from './genset-model.ts';

/** Steps the model until the condition holds; returns the simulated seconds it took. */
function runUntil(model: GensetModel, condition: () => boolean, maxSeconds: number, label: string): number {
  const start = model.timeMs;
  while (!condition()) {
    if (model.timeMs - start > maxSeconds * 1000)
      throw new Error(`not ${label} within ${maxSeconds} s (${model.engineState})`);
    model.advance(100);
  }
  return (model.timeMs - start) / 1000;
}

/** The engine states passed through during the next seconds, without repeats. */
function statesDuring(model: GensetModel, seconds: number): EngineState[] {
  const seen: EngineState[] = [model.engineState];
  for (let t = 0; t < seconds * 10; t++) {
    model.advance(100);
    if (seen[seen.length - 1] !== model.engineState) seen.push(model.engineState);
  }
  return seen;
}

function newModel(options: GensetModelOptions = {}) {
  return new GensetModel({ seed: 42, ...options });
}

describe('start and stop sequence', () => {
  test('a manual start runs preheat, crank, safety-on, idle, warm-up to running, on its timers', () => {
    const model = newModel({ settings: { preheat_time_s: 4, warm_up_time_s: 20 } });
    model.command('manual');
    expect(model.command('start')).toBe(true);
    model.advance(100);
    expect(model.engineState).toBe('preheat');
    expect(runUntil(model, () => model.engineState === 'crank', 10, 'cranking')).toBeCloseTo(4, 0);
    const starts = model.starts;
    expect(statesDuring(model, 60)).toEqual(['crank', 'safety_on', 'start_idle', 'warm_up', 'running']);
    expect(model.starts).toBe(starts + 1);

    const values = model.values();
    expect(values.engine_rpm).toBeGreaterThan(1480);
    expect(values.engine_rpm).toBeLessThan(1520);
    expect(values.gen_freq).toBeCloseTo(50, 0);
    expect(values.gen_voltage_l1).toBeGreaterThan(225);
    expect(values.gen_voltage_l1).toBeLessThan(235);
    expect(values.gen_voltage_l12! / values.gen_voltage_l1!).toBeCloseTo(Math.sqrt(3), 1);
    expect(values.oil_pressure).toBeGreaterThan(380);
    expect(values.gen_on_load).toBe(0);
  });

  test('in manual the breaker command puts it on load; current follows kW, voltage and power factor', () => {
    const model = newModel({ loadKw: 120, powerFactor: 0.8 });
    model.command('manual');
    model.command('start');
    runUntil(model, () => model.engineState === 'running', 80, 'running');
    expect(model.command('gen_breaker')).toBe(true);
    model.advance(10_000);
    const values = model.values();
    expect(model.engineState).toBe('on_load');
    expect(values.gen_on_load).toBe(1);
    expect(values.mains_on_load).toBe(0);
    expect(values.gen_kw).toBeGreaterThan(110);
    expect(values.gen_kw).toBeLessThan(130);
    expect(values.gen_kva).toBeCloseTo(values.gen_kw! / values.power_factor!, 3);
    const expectedAmps = (values.gen_kva! * 1000) / (3 * values.gen_voltage_l1!);
    expect(values.gen_current_l1! / expectedAmps).toBeGreaterThan(0.97);
    expect(values.gen_current_l1! / expectedAmps).toBeLessThan(1.03);
  });

  test('stop takes it off load, cools down for the cooling time, then stops; a second stop cuts cooling short', () => {
    const model = newModel({ settings: { cooling_time_s: 30 } });
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.command('stop');
    model.advance(200);
    expect(model.engineState).toBe('cooling');
    expect(model.genBreakerClosed).toBe(false);
    expect(model.mainsBreakerClosed).toBe(true);
    expect(runUntil(model, () => model.engineState === 'stopping', 40, 'stopping')).toBeCloseTo(30, 0);
    runUntil(model, () => model.engineState === 'at_rest', 30, 'at rest');
    expect(model.rpm).toBe(0);

    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load again');
    model.command('stop');
    model.advance(1000);
    model.command('stop');
    model.advance(200);
    expect(model.engineState).toBe('stopping');
  });
});

describe('AUTO', () => {
  test('starts on mains failure after the delay, takes the load, and stops after mains return and cooling', () => {
    const model = newModel({ settings: { mains_fail_delay_s: 5, mains_return_delay_s: 10, cooling_time_s: 20 } });
    expect(model.mode).toBe('auto');
    model.advance(5000);
    expect(model.engineState).toBe('at_rest');
    model.cutMains();
    model.advance(1000);
    expect(model.engineState).toBe('start_delay');
    expect(model.values().mains_voltage_l1).toBe(0);
    expect(runUntil(model, () => model.engineState === 'preheat', 10, 'starting')).toBeCloseTo(4, 0);
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    expect(model.values().gen_kw).toBeGreaterThan(0);

    model.restoreMains();
    model.advance(9000);
    expect(model.engineState).toBe('on_load');
    runUntil(model, () => model.engineState === 'cooling', 3, 'cooling');
    expect(model.mainsBreakerClosed).toBe(true);
    expect(model.values().gen_kw).toBe(0);
    expect(runUntil(model, () => model.engineState === 'stopping', 30, 'stopping')).toBeCloseTo(20, 0);
    runUntil(model, () => model.engineState === 'at_rest', 30, 'at rest');
  });

  test('a mains blip shorter than the delay does not start the set', () => {
    const model = newModel({ settings: { mains_fail_delay_s: 5 } });
    model.cutMains();
    model.advance(3000);
    model.restoreMains();
    model.advance(10_000);
    expect(model.engineState).toBe('at_rest');
    expect(model.starts).toBe(newModel().starts);
  });

  test('with "start on mains failure" switched off, a mains failure does not start the set', () => {
    const model = newModel({ settings: { mains_fail_delay_s: 5, mains_fail_auto_start: 0 } });
    model.cutMains();
    model.advance(30_000);
    expect(model.engineState).toBe('at_rest');
    model.setSetting('mains_fail_auto_start', 1);
    runUntil(model, () => model.engineState !== 'at_rest', 2, 'starting');
  });
});

describe('protections', () => {
  test('fail to start after the set number of crank attempts, latched until reset', () => {
    const model = newModel({
      settings: { crank_attempts: 2, crank_time_s: 5, crank_rest_time_s: 5, preheat_time_s: 0 },
    });
    const starts = model.starts;
    model.injectFault('fail_to_start');
    model.command('manual');
    model.command('start');
    expect(statesDuring(model, 30)).toEqual(['at_rest', 'crank', 'crank_rest', 'crank', 'at_rest']);
    expect(model.crankAttempt).toBe(2);
    expect(model.starts).toBe(starts);
    expect(model.activeAlarms()).toEqual([{ code: 'fail_to_start', level: 'shutdown', latched: true }]);
    expect(model.command('start')).toBe(false);

    model.clearFault('fail_to_start');
    expect(model.command('fault_reset')).toBe(true);
    expect(model.command('start')).toBe(true);
    runUntil(model, () => model.engineState === 'running', 80, 'running after reset');
  });

  test('a shutdown stops at once, without cooling, and latches until the cause is gone and reset', () => {
    const model = newModel();
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.injectFault('emergency_stop');
    model.advance(100);
    expect(model.engineState).toBe('stopping');
    expect(model.genBreakerClosed).toBe(false);
    runUntil(model, () => model.engineState === 'at_rest', 30, 'at rest');
    model.advance(60_000);
    expect(model.engineState).toBe('at_rest');
    expect(model.command('fault_reset')).toBe(false);
    expect(model.isAlarmActive('emergency_stop')).toBe(true);
    model.clearFault('emergency_stop');
    expect(model.command('fault_reset')).toBe(true);
    expect(model.activeAlarms()).toEqual([]);
  });

  test('low fuel warns first, then shuts down; refuelling and a reset clear it', () => {
    const model = newModel({ fuelPercent: 40 });
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.injectFault('low_fuel_warning');
    runUntil(model, () => model.isAlarmActive('low_fuel_warning'), 300, 'warned');
    expect(model.engineState).toBe('on_load');
    expect(model.fuelPercent).toBeLessThan(20);
    runUntil(model, () => model.isAlarmActive('low_fuel_shutdown'), 300, 'shut down');
    expect(model.fuelPercent).toBeLessThan(5);
    model.advance(100);
    expect(model.engineState).toBe('stopping');

    model.clearFault('low_fuel_warning');
    model.refuel(90);
    model.advance(6000);
    expect(model.isAlarmActive('low_fuel_warning')).toBe(false);
    expect(model.isAlarmActive('low_fuel_shutdown')).toBe(true);
    model.command('fault_reset');
    expect(model.activeAlarms()).toEqual([]);
  });

  test.each([
    ['over_speed', (m: GensetModel) => m.rpm > 1710],
    ['gen_over_voltage', (m: GensetModel) => m.genVoltage > 260],
    ['gen_under_frequency', (m: GensetModel) => m.genFrequency < 45],
    ['high_coolant_temp_shutdown', (m: GensetModel) => m.coolantC > 100],
    ['low_oil_pressure_shutdown', (m: GensetModel) => m.oilPressureKpa < 100],
  ] as const)('%s: the measured value goes out of range and the shutdown follows', (code, outOfRange) => {
    const model = newModel();
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.advance(120_000);
    model.injectFault(code);
    runUntil(model, () => outOfRange(model), 120, `out of range for ${code}`);
    runUntil(model, () => model.isAlarmActive(code), 10, code);
    expect(model.engineState).toBe('stopping');
  });

  test('overload trips the breaker, then the set cools down before stopping', () => {
    const model = newModel({ settings: { cooling_time_s: 15 } });
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.injectFault('overload');
    runUntil(model, () => model.isAlarmActive('overload'), 20, 'tripped');
    expect(model.activeAlarms()).toEqual([{ code: 'overload', level: 'trip', latched: true }]);
    expect(model.genBreakerClosed).toBe(false);
    model.advance(200);
    expect(model.engineState).toBe('cooling');
    expect(runUntil(model, () => model.engineState === 'stopping', 20, 'stopping')).toBeCloseTo(15, 0);
  });

  test('warnings follow their condition without a reset: battery low, charge failure, maintenance due', () => {
    const model = newModel();
    model.injectFault('battery_low');
    runUntil(model, () => model.isAlarmActive('battery_low'), 300, 'battery low');
    model.clearFault('battery_low');
    runUntil(model, () => !model.isAlarmActive('battery_low'), 60, 'battery recovered');

    model.injectFault('charge_fail');
    model.command('manual');
    model.command('start');
    runUntil(model, () => model.isAlarmActive('charge_fail'), 60, 'charge fail');
    expect(model.values().charger_voltage).toBeLessThan(8);
    expect(model.engineState).not.toBe('stopping');

    model.injectFault('maintenance_due');
    model.advance(100);
    expect(model.values().maintenance_hours).toBeLessThan(0);
    expect(model.isAlarmActive('maintenance_due')).toBe(true);
    model.clearFault('maintenance_due');
    model.advance(100);
    expect(model.isAlarmActive('maintenance_due')).toBe(false);
    expect(model.values().maintenance_hours).toBeCloseTo(model.settings.maintenance_interval_h, 1);
  });
});

describe('physics and counters', () => {
  test('coolant and oil pressure lag behind speed; the battery dips on the starter and rises while charging', () => {
    const model = newModel({ settings: { preheat_time_s: 0 } });
    const restBattery = model.batteryV;
    model.command('manual');
    model.command('start');
    model.advance(500);
    expect(model.engineState).toBe('crank');
    expect(model.batteryV).toBeLessThan(restBattery - 3);
    runUntil(model, () => model.engineState === 'running', 80, 'running');
    const coolantAtRunning = model.coolantC;
    expect(coolantAtRunning).toBeLessThan(50);
    model.advance(300_000);
    expect(model.coolantC).toBeGreaterThan(70);
    expect(model.batteryV).toBeGreaterThan(27);
    model.command('stop');
    model.advance(200);
    model.command('stop');
    runUntil(model, () => model.engineState === 'at_rest', 30, 'at rest');
    expect(model.oilPressureKpa).toBeLessThan(1);
    expect(model.coolantC).toBeGreaterThan(60);
  });

  test('run hours, starts and kWh only increase; fuel drops with load; maintenance counts down with run hours', () => {
    const model = newModel({ loadKw: 150 });
    const before = model.values();
    model.command('test');
    let previous = model.values();
    for (let minute = 0; minute < 90; minute++) {
      model.advance(60_000);
      const now = model.values();
      for (const key of ['run_hours', 'starts', 'kwh_total'] as const)
        expect(now[key]).toBeGreaterThanOrEqual(previous[key]!);
      previous = now;
    }
    const after = model.values();
    expect(
      after.run_hours! * 60 + after.run_minutes! - (before.run_hours! * 60 + before.run_minutes!),
    ).toBeGreaterThanOrEqual(88);
    expect(after.kwh_total! - before.kwh_total!).toBeGreaterThan(150 * 1.4);
    expect(after.kwh_total! - before.kwh_total!).toBeLessThan(150 * 1.6);
    // About 0.24 l/kWh plus idle consumption out of a 400 l tank.
    const litresBurnt = ((before.fuel_level! - after.fuel_level!) / 100) * 400;
    expect(litresBurnt).toBeGreaterThan(50);
    expect(litresBurnt).toBeLessThan(80);
    expect(before.maintenance_hours! - after.maintenance_hours!).toBeCloseTo(1.5, 1);
  });

  test('on load, kW follows the site-load profile over the day, with some wander', () => {
    const model = newModel({ startTime: Date.UTC(2025, 0, 6, 6, 0, 0) });
    model.setLoadProfile([
      { hour: 0, kw: 40 },
      { hour: 12, kw: 160 },
    ]);
    model.command('test');
    runUntil(model, () => model.engineState === 'on_load', 90, 'on load');
    model.advance(60_000);
    expect(model.genKw / 101).toBeGreaterThan(0.93);
    expect(model.genKw / 101).toBeLessThan(1.07);
    model.advance(3 * 3_600_000);
    expect(model.genKw / 131).toBeGreaterThan(0.93);
    expect(model.genKw / 131).toBeLessThan(1.07);
    const samples = Array.from({ length: 20 }, () => (model.advance(30_000), model.genKw));
    expect(new Set(samples.map((kw) => kw.toFixed(2))).size).toBeGreaterThan(10);
  });

  test('the same seed gives the same run, however time is sliced; another seed differs', () => {
    const run = (seed: number, slices: number[]) => {
      const model = new GensetModel({ seed });
      model.command('test');
      for (const ms of slices) model.advance(ms);
      return model.values();
    };
    const oneGo = run(7, [120_000]);
    expect(
      run(
        7,
        Array.from({ length: 400 }, () => 300),
      ),
    ).toEqual(oneGo);
    expect(run(8, [120_000]).gen_kw).not.toBe(oneGo.gen_kw);
  });

  test('the position follows a path at the given speed and loops', () => {
    const model = newModel();
    const start = { lat: 31.0, lon: 121.0 };
    const oneKmNorth = { lat: 31.0 + 1000 / 111_320, lon: 121.0 };
    model.followPath([start, oneKmNorth], 36); // 10 m/s
    model.advance(50_000);
    expect(model.position.lat).toBeCloseTo(31.0 + 500 / 111_320, 5);
    model.advance(100_000);
    expect(model.position.lat).toBeCloseTo(31.0 + 500 / 111_320, 5);
    model.moveTo({ lat: 30, lon: 120 });
    model.advance(10_000);
    expect(model.values()).toMatchObject({ latitude: 30, longitude: 120 });
  });

  test('an open sender reads as no data', () => {
    const model = newModel();
    model.setSensorOpen('coolant_temp', true);
    expect(model.values().coolant_temp).toBeNull();
    model.setSensorOpen('coolant_temp', false);
    expect(model.values().coolant_temp).toBeCloseTo(25, 0);
  });
});
