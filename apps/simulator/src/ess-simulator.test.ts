// The simulated storage station over real Modbus TCP, read and written through the layout E documents the way
// the station's module and the server do it.
import { afterEach, describe, expect, test } from 'vitest';
import {
  compileConfigDecoder,
  deriveStatus,
  encodeFieldValue,
  findCommand,
  findConfigParam,
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  PCS_WATCHDOG_MS,
  planCommandWrites,
  planConfigWrite,
  SET_STATUS,
  type DecodedValues,
  type LayoutEDevice,
  type PlannedWrite,
  type ProtocolDocument,
} from '@genset/protocol';
import { ZoneClock } from './ess-profiles.ts';
import { ESS_UNIT_IDS, startEssSite, type RunningEssSite, type StartEssSiteOptions } from './ess-simulator.ts';
import { MODBUS_EXCEPTION } from './register-bank.ts';
import { connectModbus, modbusExceptionOf, type TestModbusClient } from './test-modbus-client.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A Tuesday, local midnight in Shanghai. */
const TUESDAY_MIDNIGHT = Date.parse('2025-06-03T00:00:00+08:00');
const HOUR = 3_600_000;

async function site(options: StartEssSiteOptions = {}): Promise<RunningEssSite> {
  const started = await startEssSite({ realtime: false, seed: 7, startTs: TUESDAY_MIDNIGHT, ...options });
  cleanups.push(() => started.close());
  return started;
}

interface Station {
  sim: RunningEssSite;
  pcs: TestModbusClient;
  bms: TestModbusClient;
  meter: TestModbusClient;
  pv: TestModbusClient | undefined;
  read(device: LayoutEDevice): Promise<DecodedValues>;
}

const DOCS: Record<LayoutEDevice, ProtocolDocument> = {
  pcs: layoutEPcs,
  bms: layoutEBms,
  meter: layoutEMeter,
  pv: layoutEPv,
};

async function station(options: StartEssSiteOptions = {}): Promise<Station> {
  const sim = await site(options);
  const connect = async (device: LayoutEDevice) => {
    const client = await connectModbus(sim.port, ESS_UNIT_IDS[device]);
    cleanups.push(() => client.close());
    return client;
  };
  const clients = {
    pcs: await connect('pcs'),
    bms: await connect('bms'),
    meter: await connect('meter'),
    pv: sim.model.hasPv ? await connect('pv') : undefined,
  };
  return { sim, ...clients, read: (device) => clients[device]!.readValues(DOCS[device]) };
}

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

const setpointItem = layoutEPcs.items.find((item) => item.emsRole === 'pcsSetpointKw')!;

/** Writes the PCS setpoint as the station's module does: the s32 of its role, both registers in one write. */
function writeSetpoint(pcs: TestModbusClient, kw: number): Promise<unknown> {
  return pcs.client.writeMultipleRegisters(setpointItem.address, encodeFieldValue(setpointItem, kw));
}

async function command(modbus: TestModbusClient, doc: ProtocolDocument, key: string): Promise<void> {
  for (const write of planCommandWrites(findCommand(doc, key)!)) await send(modbus, write);
}

/** Half a unit of an item's last digit: what the codec's rounding may take away. */
function tolerance(doc: ProtocolDocument, key: string): number {
  const item = doc.items.find((candidate) => candidate.key === key) ?? doc.configParams.find((p) => p.key === key)!;
  return Math.abs(item.scale) / 2 + 1e-9;
}

describe('registers', () => {
  test('one port, a unit id per device; every decoded value is the simulator’s own, roles included', async () => {
    const s = await station({ pvRatedKw: 120, loadNoisePct: 0 });
    expect(s.sim.port).toBeGreaterThan(0);
    expect(s.sim.unitIds).toEqual({ pcs: 1, bms: 2, meter: 3, pv: 4 });
    s.sim.advance(12 * HOUR);
    await writeSetpoint(s.pcs, 80);
    s.sim.advance(5000);

    for (const device of ['pcs', 'bms', 'meter', 'pv'] as const) {
      const decoded = await s.read(device);
      const truth = s.sim.values(device);
      const doc = DOCS[device];
      expect(Object.keys(decoded).sort()).toEqual(doc.items.map((item) => item.key).sort());
      for (const item of doc.items) {
        expect(Math.abs(decoded[item.key]! - truth[item.key]!), `${device} ${item.key}`).toBeLessThanOrEqual(
          tolerance(doc, item.key),
        );
      }
    }
    const state = s.sim.state;
    const [pcs, bms, meter, pv] = await Promise.all([s.read('pcs'), s.read('bms'), s.read('meter'), s.read('pv')]);
    expect(pcs.active_power).toBe(80);
    expect(state.pcs.powerKw).toBe(80);
    expect(pcs.power_setpoint).toBe(80);
    expect(pcs.rated_power).toBe(250);
    expect(bms.soc).toBeCloseTo(state.bms.soc, 1);
    expect(bms.charge_power_limit).toBeCloseTo(state.bms.chargeLimitKw, 1);
    expect(meter.grid_power).toBeCloseTo(state.meter.gridKw, 1);
    expect(pv.pv_power).toBeCloseTo(state.pv!.powerKw, 1);
    expect(state.pv!.powerKw).toBeGreaterThan(50);
  });

  test('a site without PV has no unit 4; measurements are read-only', async () => {
    const s = await station();
    expect(s.sim.unitIds).toEqual({ pcs: 1, bms: 2, meter: 3 });
    const pv = await connectModbus(s.sim.port, 4);
    cleanups.push(() => pv.close());
    expect(await modbusExceptionOf(pv.readValues(layoutEPv))).toBe(MODBUS_EXCEPTION.gatewayTargetFailed);
    expect(await modbusExceptionOf(s.meter.client.writeSingleRegister(8, 1))).toBe(MODBUS_EXCEPTION.illegalDataAddress);
    expect(await modbusExceptionOf(s.pcs.client.writeSingleRegister(110, 9))).toBe(MODBUS_EXCEPTION.illegalDataValue);
  });
});

describe('PCS', () => {
  test('the power ramps to the setpoint at the ramp rate and is clamped by the rating and the BMS limit', async () => {
    const s = await station({ rampKwPerS: 50, pcsRatingKw: 250, capacityKwh: 1000, loadNoisePct: 0 });
    await writeSetpoint(s.pcs, 200);
    const powers: number[] = [];
    for (let second = 0; second < 5; second++) {
      s.sim.advance(1000);
      powers.push((await s.read('pcs')).active_power!);
    }
    expect(powers).toEqual([50, 100, 150, 200, 200]);
    expect((await s.read('pcs')).pcs_state).toBe(3);

    await writeSetpoint(s.pcs, 400);
    s.sim.advance(5000);
    expect(await s.read('pcs')).toMatchObject({ power_setpoint: 400, active_power: 250 });

    // Near full the BMS halves what it takes: 95 % → (100 − 95) / 10 of its 250 kW.
    s.sim.setSoc(95);
    await writeSetpoint(s.pcs, -250);
    s.sim.advance(9000);
    const bms = await s.read('bms');
    const pcs = await s.read('pcs');
    expect(bms.charge_power_limit).toBeLessThan(250);
    expect(bms.charge_power_limit).toBeGreaterThan(100);
    expect(pcs.active_power).toBeCloseTo(-bms.charge_power_limit!, 0);
    expect(pcs.pcs_state).toBe(2);
    expect(deriveStatus(layoutEPcs, pcs).status).toBe(SET_STATUS.running);

    // A lower configured maximum binds as well.
    const param = findConfigParam(layoutEPcs, 'max_charge_power')!;
    const plan = planConfigWrite(param, 60);
    if (!plan.ok) throw new Error(plan.reason);
    await send(s.pcs, plan.write);
    await writeSetpoint(s.pcs, -250);
    s.sim.advance(2000);
    expect((await s.read('pcs')).active_power).toBe(-60);
  });

  test('SOC integrates the battery side: losses make discharge take more and charge store less', async () => {
    const s = await station({ capacityKwh: 100, soh: 100, initialSoc: 50, rampKwPerS: 1000, efficiency: 0.96 });
    await writeSetpoint(s.pcs, 50);
    // The module writes every second; here every 5 s, inside the watchdog.
    for (let i = 0; i < 360; i++) {
      s.sim.advance(5000);
      await writeSetpoint(s.pcs, 50);
    }
    let pcs = await s.read('pcs');
    let bms = await s.read('bms');
    // 25 kWh delivered took 25 / 0.96 = 26.04 kWh from 100 kWh.
    expect(pcs.discharge_energy).toBeCloseTo(25, 1);
    expect(bms.soc).toBeCloseTo(50 - 25 / 0.96, 1);
    expect(bms.remaining_energy).toBeCloseTo(50 - 25 / 0.96, 1);

    await writeSetpoint(s.pcs, -50);
    for (let i = 0; i < 360; i++) {
      s.sim.advance(5000);
      await writeSetpoint(s.pcs, -50);
    }
    pcs = await s.read('pcs');
    bms = await s.read('bms');
    // 25 kWh taken from the grid stored 25 × 0.96 = 24 kWh.
    expect(pcs.charge_energy).toBeCloseTo(25, 1);
    expect(bms.soc).toBeCloseTo(50 - 25 / 0.96 + 25 * 0.96, 1);
    // Exact but for the SOH the cycle wore off (a few millionths of the capacity).
    expect(s.sim.state.bms.soc).toBeCloseTo(50 - 25 / 0.96 + 25 * 0.96, 2);
  });

  test('the watchdog drops the setpoint to 0 when nothing writes it for 10 s, and raises its alarm', async () => {
    const s = await station({ rampKwPerS: 100 });
    await writeSetpoint(s.pcs, 120);
    s.sim.advance(PCS_WATCHDOG_MS - 1000);
    expect(await s.read('pcs')).toMatchObject({ power_setpoint: 120, active_power: 120, alarm_bits: 0 });

    s.sim.advance(1000);
    const expired = await s.read('pcs');
    expect(expired.power_setpoint).toBe(0);
    expect(deriveStatus(layoutEPcs, expired).activeAlarms.map((alarm) => alarm.code)).toEqual(['watchdog_expired']);
    s.sim.advance(2000);
    expect((await s.read('pcs')).active_power).toBe(0);
    expect(s.sim.state.pcs.watchdogExpired).toBe(true);

    await writeSetpoint(s.pcs, 30);
    s.sim.advance(1000);
    expect(await s.read('pcs')).toMatchObject({ power_setpoint: 30, active_power: 30, alarm_bits: 0 });

    // A watchdog of 0 s (off) never expires.
    const param = findConfigParam(layoutEPcs, 'watchdog_time')!;
    const plan = planConfigWrite(param, 0);
    if (!plan.ok) throw new Error(plan.reason);
    await send(s.pcs, plan.write);
    s.sim.advance(60_000);
    expect((await s.read('pcs')).active_power).toBe(30);
    const config = compileConfigDecoder(layoutEPcs)(await s.pcs.readBlocks(layoutEPcs.configReadBlocks));
    expect(config).toMatchObject({ watchdog_time: 0, ramp_rate: 100, max_charge_power: 250 });
  });

  test('a fault makes the PCS deliver nothing until the cause is gone and the fault reset', async () => {
    const s = await station({ rampKwPerS: 1000 });
    await writeSetpoint(s.pcs, 100);
    s.sim.advance(1000);
    expect((await s.read('pcs')).active_power).toBe(100);

    s.sim.injectPcsFault('grid_abnormal');
    await writeSetpoint(s.pcs, 100);
    s.sim.advance(1000);
    const faulted = await s.read('pcs');
    expect(faulted).toMatchObject({ pcs_state: 4, active_power: 0, pcs_fault: 1, fault_code: 3 });
    const status = deriveStatus(layoutEPcs, faulted);
    expect(status).toMatchObject({ status: SET_STATUS.closed, shutdown: true, trip: true });
    expect(status.activeAlarms.map((alarm) => alarm.code).sort()).toEqual(['grid_abnormal', 'pcs_fault']);
    expect(s.sim.state.meter.gridKw).toBeCloseTo(s.sim.state.loadKw, 9);

    // Start is refused while faulted; a reset is refused while the grid is still abnormal.
    expect(await modbusExceptionOf(command(s.pcs, layoutEPcs, 'start'))).toBe(MODBUS_EXCEPTION.illegalFunction);
    expect(await modbusExceptionOf(command(s.pcs, layoutEPcs, 'fault_reset'))).toBe(MODBUS_EXCEPTION.illegalFunction);
    s.sim.clearPcsFault();
    await writeSetpoint(s.pcs, 100);
    s.sim.advance(1000);
    expect(await s.read('pcs')).toMatchObject({ pcs_state: 3, active_power: 100, pcs_fault: 0, fault_code: 0 });

    // A BMS fault opens the contactors: both limits fall to 0, and so does the PCS.
    s.sim.injectBmsFault('insulation');
    s.sim.advance(1000);
    const bms = await s.read('bms');
    expect(bms).toMatchObject({ bms_state: 4, bms_fault: 1, charge_power_limit: 0, discharge_power_limit: 0 });
    expect(deriveStatus(layoutEBms, bms).activeAlarms.map((alarm) => alarm.code)).toEqual(['bms_fault', 'insulation']);
    expect((await s.read('pcs')).active_power).toBe(0);
    s.sim.clearBmsFault();
    await writeSetpoint(s.pcs, 100);
    s.sim.advance(1000);
    expect((await s.read('pcs')).active_power).toBe(100);
  });

  test('stop, start and local control through the document’s commands', async () => {
    const s = await station({ rampKwPerS: 1000 });
    await writeSetpoint(s.pcs, -80);
    s.sim.advance(1000);
    await command(s.pcs, layoutEPcs, 'stop');
    s.sim.advance(1000);
    const stopped = await s.read('pcs');
    expect(stopped).toMatchObject({ pcs_state: 0, active_power: 0 });
    expect(deriveStatus(layoutEPcs, stopped).status).toBe(SET_STATUS.closed);

    await command(s.pcs, layoutEPcs, 'start');
    await writeSetpoint(s.pcs, 0);
    s.sim.advance(1000);
    const ready = await s.read('pcs');
    expect(ready.pcs_state).toBe(1);
    expect(deriveStatus(layoutEPcs, ready).status).toBe(SET_STATUS.standby);

    await command(s.pcs, layoutEPcs, 'mode_local');
    expect((await s.read('pcs')).control_mode).toBe(1);
    expect(await modbusExceptionOf(writeSetpoint(s.pcs, 50))).toBe(MODBUS_EXCEPTION.illegalFunction);
    expect(await modbusExceptionOf(command(s.pcs, layoutEPcs, 'stop'))).toBe(MODBUS_EXCEPTION.illegalFunction);
    await command(s.pcs, layoutEPcs, 'mode_remote');
    await writeSetpoint(s.pcs, 50);
    s.sim.advance(1000);
    expect(await s.read('pcs')).toMatchObject({ control_mode: 0, active_power: 50 });
  });

  test('a 32-bit setpoint written word by word (fc 6) reads back whole', async () => {
    const s = await station({ rampKwPerS: 1000 });
    const [high, low] = encodeFieldValue(setpointItem, -123.4);
    await s.pcs.client.writeSingleRegister(setpointItem.address, high!);
    await s.pcs.client.writeSingleRegister(setpointItem.address + 1, low!);
    s.sim.advance(1000);
    expect(await s.read('pcs')).toMatchObject({ power_setpoint: -123.4, active_power: -123.4 });
  });
});

describe('BMS', () => {
  test('cell extremes, their cells and the limits follow SOC, current and temperature', async () => {
    const s = await station({ capacityKwh: 500, rampKwPerS: 1000, cellCount: 240 });
    const read = async (soc: number, kw: number) => {
      s.sim.setSoc(soc);
      await writeSetpoint(s.pcs, kw);
      s.sim.advance(1000);
      return s.read('bms');
    };
    const rest = await read(50, 0);
    const charging = await read(50, -200);
    const discharging = await read(50, 200);
    // Current through the cells' resistance: higher while charging, lower while discharging.
    expect(charging.max_cell_voltage!).toBeGreaterThan(rest.max_cell_voltage! + 10);
    expect(discharging.min_cell_voltage!).toBeLessThan(rest.min_cell_voltage! - 10);
    expect(charging.pack_current).toBeLessThan(0);
    expect(discharging.pack_current).toBeGreaterThan(0);
    expect((discharging.pack_voltage! * discharging.pack_current!) / 1000).toBeCloseTo(200 / 0.96, 0);
    for (const values of [rest, charging, discharging]) {
      expect(values.max_cell_voltage!).toBeGreaterThan(values.min_cell_voltage!);
      expect(values.max_cell_temp!).toBeGreaterThan(values.min_cell_temp!);
      for (const key of ['max_cell_voltage_id', 'min_cell_voltage_id', 'max_cell_temp_id', 'min_cell_temp_id']) {
        expect(values[key]).toBeGreaterThanOrEqual(1);
        expect(values[key]).toBeLessThanOrEqual(240);
      }
    }

    // Near full the cells spread, the weakest leads, and the charge limit shrinks; near empty the same for discharge.
    const full = await read(97, -50);
    expect(full.max_cell_voltage! - full.min_cell_voltage!).toBeGreaterThan(
      charging.max_cell_voltage! - charging.min_cell_voltage!,
    );
    expect(full.charge_power_limit).toBeLessThan(100);
    expect(full.discharge_power_limit).toBe(250);
    const empty = await read(4, 50);
    expect(empty.min_cell_voltage!).toBeLessThan(3150);
    expect(empty.min_cell_voltage_id).toBe(full.max_cell_voltage_id);
    expect(empty.discharge_power_limit).toBeLessThan(125);
    expect(empty.charge_power_limit).toBe(250);

    // Half an hour at full power warms the cells and takes 125 / 0.96 kWh of 490.
    s.sim.setSoc(90);
    for (let i = 0; i < 360; i++) {
      await writeSetpoint(s.pcs, 250);
      s.sim.advance(5000);
    }
    const warm = await s.read('bms');
    expect(warm.max_cell_temp!).toBeGreaterThan(rest.max_cell_temp! + 5);
    expect(warm.soc).toBeCloseTo(90 - (125 / 0.96 / 490) * 100, 0);
  });
});

describe('site', () => {
  test('the meter balances load, PV and battery; battery discharge lowers import, energy included', async () => {
    const s = await station({ pvRatedKw: 100, rampKwPerS: 1000 });
    s.sim.advance(11 * HOUR);
    s.sim.setLoad(200);
    await writeSetpoint(s.pcs, 150);
    s.sim.advance(1000);
    let state = s.sim.state;
    let meter = await s.read('meter');
    expect(state.meter.gridKw).toBeCloseTo(200 - state.pv!.powerKw - 150, 9);
    expect(meter.grid_power).toBeCloseTo(200 - state.pv!.powerKw - 150, 1);
    // PV and battery together exceed the load: the site exports, with a negative power factor.
    expect(meter.grid_power).toBeLessThan(0);
    expect(meter.power_factor).toBeLessThan(0);

    s.sim.setLoad(null);
    s.sim.addLoad(40);
    for (let i = 0; i < 12; i++) {
      await writeSetpoint(s.pcs, i % 2 === 0 ? -100 : 100);
      s.sim.advance(5000);
      state = s.sim.state;
      meter = await s.read('meter');
      const pv = await s.read('pv');
      const pcs = await s.read('pcs');
      expect(state.meter.gridKw).toBeCloseTo(state.loadKw - state.pv!.powerKw - state.pcs.powerKw, 9);
      expect(meter.grid_power).toBeCloseTo(state.loadKw - pv.pv_power! - pcs.active_power!, 0);
    }
    // Energy balances too: import − export = consumed − PV − discharged + charged.
    expect(state.meter.importKwh - state.meter.exportKwh).toBeCloseTo(
      state.loadKwh - state.pv!.totalYieldKwh - state.pcs.dischargeKwh + state.pcs.chargeKwh,
      6,
    );
  });

  test('counters only increase over a day of charging and discharging', async () => {
    // A small load under a large array: the site exports around noon and while the battery discharges.
    const s = await station({ pvRatedKw: 150, capacityKwh: 400, loadBaseKw: 40, loadPeakKw: 120 });
    const keys: [LayoutEDevice, string][] = [
      ['pcs', 'charge_energy'],
      ['pcs', 'discharge_energy'],
      ['meter', 'import_energy'],
      ['meter', 'export_energy'],
      ['pv', 'total_yield'],
    ];
    const last = new Map<string, number>();
    for (let slot = 0; slot < 96; slot++) {
      // Charge in the small hours and late morning, discharge in the evening.
      const hour = slot / 4;
      const kw = hour < 6 ? -120 : hour >= 9 && hour < 11 ? -80 : hour >= 17 && hour < 22 ? 150 : 0;
      for (let second = 0; second < 900; second += 5) {
        s.sim.writeSetpoint(kw);
        s.sim.advance(5000);
      }
      for (const [device, key] of keys) {
        const value = (await s.read(device))[key]!;
        expect(value, `${device} ${key} at ${hour} h`).toBeGreaterThanOrEqual(last.get(key) ?? 0);
        last.set(key, value);
      }
    }
    for (const [, key] of keys) expect(last.get(key), key).toBeGreaterThan(0);
    // The day's yield starts again at local midnight; the total keeps it.
    expect(s.sim.state.pv!.dailyYieldKwh).toBe(0);
    expect(s.sim.state.pv!.totalYieldKwh).toBeGreaterThan(300);
  });

  test('a stepped day has a plausible load and PV shape in the site’s time zone', async () => {
    const sample = async (timeZone: string, startTs: number) => {
      const sim = await site({ pvRatedKw: 100, loadBaseKw: 80, loadPeakKw: 300, timeZone, startTs });
      const zone = new ZoneClock(timeZone);
      const points: { hour: number; load: number; pv: number }[] = [];
      sim.advance(24 * HOUR, {
        everyMs: 15 * 60_000,
        onSample: (ts) => {
          const state = sim.state;
          points.push({ hour: zone.local(ts).minuteOfDay / 60, load: state.loadKw, pv: state.pv!.powerKw });
        },
      });
      expect(points).toHaveLength(96);
      return points;
    };
    const shanghai = await sample('Asia/Shanghai', TUESDAY_MIDNIGHT);
    const peak = shanghai.reduce((best, point) => (point.load > best.load ? point : best));
    expect(peak.hour).toBeGreaterThanOrEqual(18);
    expect(peak.hour).toBeLessThanOrEqual(20);
    expect(peak.load).toBeGreaterThan(270);
    expect(peak.load).toBeLessThan(330);
    const at = (hour: number) => shanghai.find((point) => Math.abs(point.hour - hour) < 0.01)!;
    expect(at(3).load).toBeLessThan(110);
    expect(at(9).load).toBeGreaterThan(at(5).load + 100);
    expect(at(12).load).toBeGreaterThan(at(15).load);
    // No sun at night; most of it around midday.
    for (const point of shanghai) if (point.hour < 4.5 || point.hour > 19.5) expect(point.pv, `${point.hour}`).toBe(0);
    const sunniest = shanghai.reduce((best, point) => (point.pv > best.pv ? point : best));
    expect(sunniest.hour).toBeGreaterThan(11);
    expect(sunniest.hour).toBeLessThan(13);
    expect(sunniest.pv).toBeGreaterThan(60);
    expect(sunniest.pv).toBeLessThan(95);

    // The same instants in Istanbul: the load follows Istanbul's wall clock, not Shanghai's.
    const istanbul = await sample('Europe/Istanbul', Date.parse('2025-06-03T00:00:00+03:00'));
    const istanbulPeak = istanbul.reduce((best, point) => (point.load > best.load ? point : best));
    expect(istanbulPeak.hour).toBeGreaterThanOrEqual(18);
    expect(istanbulPeak.hour).toBeLessThanOrEqual(20);
  });

  test('the PV inverter takes its output limit and its on/off commands', async () => {
    const s = await station({ pvRatedKw: 100 });
    s.sim.advance(12 * HOUR);
    expect((await s.read('pv')).pv_state).toBe(1);
    const limit = layoutEPv.items.find((item) => item.emsRole === 'pvLimitPct')!;
    await s.pv!.client.writeSingleRegister(limit.address, encodeFieldValue(limit, 30)[0]!);
    s.sim.advance(1000);
    const limited = await s.read('pv');
    expect(limited).toMatchObject({ pv_state: 2, power_limit: 30, pv_power: 30 });
    expect(deriveStatus(layoutEPv, limited).status).toBe(SET_STATUS.running);
    expect(await modbusExceptionOf(s.pv!.client.writeSingleRegister(limit.address, 1001))).toBe(
      MODBUS_EXCEPTION.illegalDataValue,
    );

    await command(s.pv!, layoutEPv, 'power_off');
    s.sim.advance(1000);
    const off = await s.read('pv');
    expect(off).toMatchObject({ pv_state: 4, pv_power: 0 });
    expect(deriveStatus(layoutEPv, off).status).toBe(SET_STATUS.closed);
    s.sim.setPvEnabled(true);
    s.sim.advance(10 * HOUR);
    expect((await s.read('pv')).pv_state).toBe(0);
  });

  test('the real-time clock runs at its speed factor', async () => {
    const sim = await site({ realtime: true, speed: 600, tickIntervalMs: 20 });
    const start = sim.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const elapsed = sim.now() - start;
    // 300 ms × 600 = 180 s, give or take the timer's jitter.
    expect(elapsed).toBeGreaterThan(100_000);
    expect(elapsed).toBeLessThan(400_000);
    sim.stopClock();
    const stopped = sim.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sim.now()).toBe(stopped);
  });
});
