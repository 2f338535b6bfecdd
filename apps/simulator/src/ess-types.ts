// What a simulated energy-storage station is described by: the states, commands, faults and settings of its PCS,
// BMS and PV inverter, the options a station is made with, and the snapshot it is read as. Its behaviour is in
// ess-model.ts.
import type { LayoutEBmsAlarm } from '@genset/protocol';

export type PcsState = 'stop' | 'standby' | 'charging' | 'discharging' | 'fault';
export type PcsFaultKind = 'internal' | 'over_temperature' | 'grid_abnormal';
export const PCS_FAULT_KINDS: readonly PcsFaultKind[] = ['internal', 'over_temperature', 'grid_abnormal'];
export type PcsCommand = 'start' | 'stop' | 'fault_reset';
export const PCS_COMMANDS: readonly PcsCommand[] = ['start', 'stop', 'fault_reset'];
export type PcsControlMode = 'remote' | 'local';
export type BmsState = 'open' | 'idle' | 'charging' | 'discharging' | 'fault';
export type BmsAlarm = LayoutEBmsAlarm;
export const BMS_ALARMS: readonly BmsAlarm[] = [
  'cell_over_voltage',
  'cell_under_voltage',
  'over_temperature',
  'under_temperature',
  'insulation',
  'communication',
];
export type PvState = 'waiting' | 'running' | 'derated' | 'fault' | 'shutdown';

/** The PCS settings its configuration parameters hold (same keys as the layout E document). */
export interface PcsSettings {
  /** kW per second the delivered power may change by. */
  ramp_rate: number;
  /** Seconds without a setpoint write before the setpoint falls to 0; 0 disables the watchdog. */
  watchdog_time: number;
  max_charge_power: number;
  max_discharge_power: number;
}
export type PcsSettingKey = keyof PcsSettings;
export const PCS_SETTING_KEYS: readonly PcsSettingKey[] = [
  'ramp_rate',
  'watchdog_time',
  'max_charge_power',
  'max_discharge_power',
];

export interface EssSiteModelOptions {
  seed?: number;
  /** The simulated clock's start (epoch ms); default now. A past instant lets a stepped run backfill days. */
  startTs?: number;
  /** The site's time zone: the load follows its wall clock. Default Asia/Shanghai. */
  timeZone?: string;
  /** The site's position: the sun follows it. Default Shanghai. */
  latitude?: number;
  longitude?: number;
  /** PCS rated power, kW (default 250). */
  pcsRatingKw?: number;
  /** PCS power ramp, kW/s (default 50). */
  rampKwPerS?: number;
  /** PCS efficiency each way (default 0.96): discharging draws P/η from the battery, charging stores P·η. */
  efficiency?: number;
  /** PCS watchdog (default PCS_WATCHDOG_MS, 10 s); 0 disables it. Whole seconds (it is a register in seconds). */
  watchdogMs?: number;
  /** Whether the PCS starts in its running state (standby, ready for setpoints); default true. */
  pcsStarted?: boolean;
  /** Battery rated capacity, kWh (default 500). */
  capacityKwh?: number;
  /** The most the BMS ever allows either way, kW (default: the PCS rating). */
  bmsMaxPowerKw?: number;
  /** State of health, % (default 98): the usable energy is capacity × SOH. */
  soh?: number;
  /** SOC at start, % (default 50). */
  initialSoc?: number;
  /** Cells in series (default 240 LFP cells, about 770 V). */
  cellCount?: number;
  ambientC?: number;
  /** Site load at night (default 80 kW) and at its evening peak (default 300 kW). */
  loadBaseKw?: number;
  loadPeakKw?: number;
  /** Load noise, % of the peak (standard deviation, default 3); 0 makes the load follow the shape exactly. */
  loadNoisePct?: number;
  /** PV array rating, kW (default 0: no PV at the site). */
  pvRatedKw?: number;
  /** The longest integration step, ms (default 1000). */
  maxStepMs?: number;
  /**
   * Whether each day has its own weather and demand (default false: every day clear and alike): a sky from
   * overcast to clear scales the PV, and the load's level follows the season and the day, both drawn from
   * `seed` and the day, so the same seed gives the same days.
   */
  dailyWeather?: boolean;
}

export interface PcsSnapshot {
  state: PcsState;
  controlMode: PcsControlMode;
  /** The run command (start/stop) the PCS holds. */
  started: boolean;
  /** The setpoint register: what was last written, kW. */
  setpointKw: number;
  /** The power it is heading for after its limits, kW. */
  targetKw: number;
  /** AC power delivered, kW (discharge > 0). */
  powerKw: number;
  ratingKw: number;
  settings: PcsSettings;
  /** Sim time of the last setpoint write, or null before the first. */
  lastSetpointWriteTs: number | null;
  watchdogExpired: boolean;
  fault: PcsFaultKind | null;
  /** The cause of an injected fault still present (a reset does not clear the fault while it is). */
  faultCause: PcsFaultKind | null;
  overTemperature: boolean;
  moduleTempC: number;
  dcVoltage: number;
  dcCurrentA: number;
  acVoltage: [number, number, number];
  acCurrentA: [number, number, number];
  frequencyHz: number;
  chargeKwh: number;
  dischargeKwh: number;
}

export interface BmsSnapshot {
  state: BmsState;
  /** % of the usable energy. */
  soc: number;
  soh: number;
  capacityKwh: number;
  /** Energy stored now, kWh. */
  energyKwh: number;
  /** Power at the battery terminals, kW (discharge > 0): the PCS's AC power plus its losses. */
  dcPowerKw: number;
  packVoltage: number;
  packCurrentA: number;
  maxCellMv: number;
  maxCellId: number;
  minCellMv: number;
  minCellId: number;
  maxCellTempC: number;
  maxCellTempId: number;
  minCellTempC: number;
  minCellTempId: number;
  chargeLimitKw: number;
  dischargeLimitKw: number;
  fault: boolean;
  /** Alarm bits raised now: by the cells' state or injected. */
  alarms: BmsAlarm[];
  injected: BmsAlarm[];
}

export interface MeterSnapshot {
  /** Active power at the point of connection, kW (import > 0). */
  gridKw: number;
  reactiveKvar: number;
  powerFactor: number;
  voltage: [number, number, number];
  currentA: [number, number, number];
  frequencyHz: number;
  importKwh: number;
  exportKwh: number;
}

export interface PvSnapshot {
  state: PvState;
  ratedKw: number;
  enabled: boolean;
  /** What the array could deliver now (clear sky), kW. */
  availableKw: number;
  powerKw: number;
  limitPct: number;
  dailyYieldKwh: number;
  totalYieldKwh: number;
}

export interface EssSiteSnapshot {
  ts: number;
  timeZone: string;
  /** The load's own demand, kW (the profile, a fixed value or either plus a step). */
  loadKw: number;
  /** The fixed load replacing the profile, or null. */
  loadOverrideKw: number | null;
  /** kW added on top of the profile or the fixed load. */
  loadStepKw: number;
  /** Energy the load consumed since start, kWh (no device reports it: for checking balances). */
  loadKwh: number;
  pcs: PcsSnapshot;
  bms: BmsSnapshot;
  meter: MeterSnapshot;
  /** Null at a site without PV. */
  pv: PvSnapshot | null;
}
