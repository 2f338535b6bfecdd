// A simulated energy-storage station on one Modbus TCP port: the PCS, BMS, grid meter and (optional) PV inverter
// answer on their own unit ids with the layout E register maps. Its clock runs in real time times a speed factor
// or moves only when stepped (to backfill past days fast); the control API acts on the station for tests and demos.
import { LAYOUT_E_DOCUMENTS, type LayoutEDevice, type ProtocolDocument } from '@genset/protocol';
import {
  EssSiteModel,
  type BmsAlarm,
  type EssSiteModelOptions,
  type EssSiteSnapshot,
  type PcsCommand,
  type PcsControlMode,
  type PcsFaultKind,
  type PcsSettingKey,
} from './ess-model.ts';
import { deviceValues, EssModbusDevice, type DeviceValues } from './ess-registers.ts';
import { ModbusTcpHost } from './modbus-host.ts';
import { RealtimeClock } from './realtime-clock.ts';

/** Default unit ids of the station's devices on its port. */
export const ESS_UNIT_IDS: Readonly<Record<LayoutEDevice, number>> = { pcs: 1, bms: 2, meter: 3, pv: 4 };
export const ESS_DEVICES: readonly LayoutEDevice[] = ['pcs', 'bms', 'meter', 'pv'];

export interface EssSiteOptions extends EssSiteModelOptions {
  /** A name for the control endpoint and logs (default "ess-1"). */
  id?: string;
  unitIds?: Partial<Record<LayoutEDevice, number>>;
  /** Simulated time per real time while the clock runs (default 1; 60 runs a minute per second). */
  speed?: number;
  /** true (default): a timer advances the clock; false: time moves only by advance(). */
  realtime?: boolean;
  /** Real-time timer period, ms (default 100). */
  tickIntervalMs?: number;
}

export interface EssSiteState extends EssSiteSnapshot {
  id: string;
  port: number | null;
  unitIds: Partial<Record<LayoutEDevice, number>>;
  speed: number;
  realtime: boolean;
}

export interface AdvanceSampling {
  /** Simulated ms between samples. */
  everyMs: number;
  /** Called after each sample's worth of time, registers already refreshed. */
  onSample: (ts: number) => void;
}

export class EssSiteSimulator {
  readonly id: string;
  readonly model: EssSiteModel;
  /** The devices present (no PV inverter at a site without PV). */
  readonly devices: Partial<Record<LayoutEDevice, EssModbusDevice>> = {};
  readonly unitIds: Partial<Record<LayoutEDevice, number>> = {};
  private speedFactor: number;
  private readonly clock: RealtimeClock;
  private modbusHost: ModbusTcpHost | undefined;
  private ownsHost = false;

  constructor(options: EssSiteOptions = {}) {
    this.id = options.id ?? 'ess-1';
    this.speedFactor = checkSpeed(options.speed ?? 1);
    this.clock = new RealtimeClock(
      options.tickIntervalMs ?? 100,
      () => this.speedFactor,
      (ms) => this.advance(ms),
    );
    this.model = new EssSiteModel(options);
    const ids = { ...ESS_UNIT_IDS, ...options.unitIds };
    if (new Set(Object.values(ids)).size !== Object.keys(ids).length) {
      throw new Error(`the devices need distinct unit ids, got ${JSON.stringify(ids)}`);
    }
    for (const device of ESS_DEVICES) {
      if (device === 'pv' && !this.model.hasPv) continue;
      this.devices[device] = new EssModbusDevice(device, this.model, () => this.refresh());
      this.unitIds[device] = ids[device];
    }
    this.refresh();
    if (options.realtime ?? true) this.startClock();
  }

  // ---- clock --------------------------------------------------------------------------------------------

  /** The simulated clock, epoch ms. */
  now(): number {
    return this.model.now;
  }

  get speed(): number {
    return this.speedFactor;
  }

  get realtime(): boolean {
    return this.clock.running;
  }

  setSpeed(speed: number): void {
    this.speedFactor = checkSpeed(speed);
  }

  /**
   * Advances simulated time by ms without waiting (whether or not the clock also runs) and refreshes the
   * registers; with sampling, stops every `everyMs` to let a recorder read the station.
   */
  advance(ms: number, sampling?: AdvanceSampling): void {
    if (!(ms > 0)) return;
    if (!sampling) {
      this.model.advance(ms);
      this.refresh();
      return;
    }
    if (!(sampling.everyMs > 0)) throw new Error('everyMs must be > 0');
    let left = ms;
    while (left > 0) {
      const dt = Math.min(left, sampling.everyMs);
      left -= dt;
      this.model.advance(dt);
      this.refresh();
      sampling.onSample(this.model.now);
    }
  }

  /** Advances to an instant (no-op if it is not ahead). */
  advanceTo(ts: number, sampling?: AdvanceSampling): void {
    this.advance(ts - this.model.now, sampling);
  }

  startClock(): void {
    this.clock.start();
  }

  stopClock(): void {
    this.clock.stop();
  }

  /**
   * Writes the model's state into the devices' registers. Every control call does it; a caller driving the model
   * directly (a fast backfill, deciding every simulated minute and reading every ten) does it before it reads.
   */
  refresh(): void {
    const snapshot = this.model.snapshot();
    for (const device of Object.values(this.devices)) device.refresh(snapshot);
  }

  // ---- control API --------------------------------------------------------------------------------------

  /** Adds kW to the site load (negative sheds it). */
  addLoad(kw: number): void {
    this.model.addLoad(kw);
    this.refresh();
  }

  /** Fixes the site load at kW instead of the daily profile; null returns to the profile. */
  setLoad(kw: number | null): void {
    this.model.setLoad(kw);
    this.refresh();
  }

  setPvEnabled(enabled: boolean): void {
    this.requirePv();
    this.model.setPvEnabled(enabled);
    this.refresh();
  }

  setPvLimit(pct: number): void {
    this.requirePv();
    this.model.setPvLimit(pct);
    this.refresh();
  }

  injectBmsFault(alarm?: BmsAlarm): void {
    this.model.injectBmsFault(alarm);
    this.refresh();
  }

  clearBmsFault(alarm?: BmsAlarm): void {
    this.model.clearBmsFault(alarm);
    this.refresh();
  }

  injectPcsFault(kind?: PcsFaultKind): void {
    this.model.injectPcsFault(kind);
    this.refresh();
  }

  clearPcsFault(): void {
    this.model.clearPcsFault();
    this.refresh();
  }

  /** start, stop or fault_reset at the PCS panel; false when refused. */
  pcsCommand(command: PcsCommand): boolean {
    const accepted = this.model.pcsCommand(command);
    this.refresh();
    return accepted;
  }

  setPcsControlMode(mode: PcsControlMode): void {
    this.model.setControlMode(mode);
    this.refresh();
  }

  setPcsSetting(key: PcsSettingKey, value: number): void {
    this.model.setPcsSetting(key, value);
    this.refresh();
  }

  /** Writes the PCS setpoint as the station's module would (refreshing the PCS watchdog). */
  writeSetpoint(kw: number): void {
    this.model.writeSetpoint(kw);
    this.refresh();
  }

  setSoc(soc: number): void {
    this.model.setSoc(soc);
    this.refresh();
  }

  private requirePv(): void {
    if (!this.model.hasPv) throw new Error(`site ${this.id} has no PV (start it with pvRatedKw > 0)`);
  }

  /** The true internal state, in engineering units. */
  get state(): EssSiteState {
    return {
      id: this.id,
      port: this.port,
      unitIds: { ...this.unitIds },
      speed: this.speedFactor,
      realtime: this.realtime,
      ...this.model.snapshot(),
    };
  }

  /** What each device's registers hold, by item key of its document (before the codec's rounding). */
  values(device: LayoutEDevice): DeviceValues {
    return deviceValues(device, this.model.snapshot());
  }

  /** The layout E document of each device present. */
  get documents(): Partial<Record<LayoutEDevice, ProtocolDocument>> {
    const documents: Partial<Record<LayoutEDevice, ProtocolDocument>> = {};
    for (const device of Object.keys(this.devices) as LayoutEDevice[]) documents[device] = LAYOUT_E_DOCUMENTS[device];
    return documents;
  }

  // ---- hosting ------------------------------------------------------------------------------------------

  /** The TCP port it answers on, once attached to a Modbus host. */
  get port(): number | null {
    return this.modbusHost?.port ?? null;
  }

  attachTo(host: ModbusTcpHost, ownsHost = false): void {
    const attached: number[] = [];
    try {
      for (const device of Object.keys(this.devices) as LayoutEDevice[]) {
        host.attach(this.unitIds[device]!, this.devices[device]!);
        attached.push(this.unitIds[device]!);
      }
    } catch (error) {
      for (const unitId of attached) host.detach(unitId);
      throw error;
    }
    this.modbusHost = host;
    this.ownsHost = ownsHost;
  }

  async close(): Promise<void> {
    this.stopClock();
    const host = this.modbusHost;
    this.modbusHost = undefined;
    if (!host) return;
    for (const unitId of Object.values(this.unitIds)) host.detach(unitId);
    if (this.ownsHost) await host.close();
  }
}

function checkSpeed(speed: number): number {
  if (!(Number.isFinite(speed) && speed > 0 && speed <= 100_000)) {
    throw new Error(`speed must be a number in (0, 100000], got ${speed}`);
  }
  return speed;
}

export interface StartEssSiteOptions extends EssSiteOptions {
  /** TCP port; 0 (the default) takes a free one, reported as `port`. */
  port?: number;
  host?: string;
  /** Share an existing server instead of opening a port (its unit ids must be free). */
  modbusHost?: ModbusTcpHost;
}

export type RunningEssSite = EssSiteSimulator & { readonly port: number };

/** Starts a station on its own port (or on a shared host), ready for Modbus clients. */
export async function startEssSite(options: StartEssSiteOptions = {}): Promise<RunningEssSite> {
  const site = new EssSiteSimulator(options);
  try {
    if (options.modbusHost) {
      site.attachTo(options.modbusHost);
    } else {
      const host = await ModbusTcpHost.listen({ port: options.port ?? 0, host: options.host });
      site.attachTo(host, true);
    }
  } catch (error) {
    site.stopClock();
    throw error;
  }
  return site as RunningEssSite;
}
