// What a simulated genset is described by: its controller's modes, engine states and commands, the alarm codes,
// the controller settings (the configuration parameters of the protocol documents), the options a set is made
// with and the snapshot it is read as. Its behaviour is in genset-model.ts.
import { SEED_ALARM_LEVELS, type AlarmLevel, type SeedAlarmCode } from '@genset/protocol';

export type AlarmCode = SeedAlarmCode;
export type ControllerMode = 'stop' | 'manual' | 'auto' | 'test';
export type EngineState =
  | 'at_rest'
  | 'start_delay'
  | 'preheat'
  | 'crank'
  | 'crank_rest'
  | 'safety_on'
  | 'start_idle'
  | 'warm_up'
  | 'running'
  | 'on_load'
  | 'cooling'
  | 'stopping';
export type GensetCommand =
  'start' | 'stop' | 'test' | 'auto' | 'manual' | 'gen_breaker' | 'mains_breaker' | 'fault_reset';
export const GENSET_COMMANDS: readonly GensetCommand[] = [
  'start',
  'stop',
  'test',
  'auto',
  'manual',
  'gen_breaker',
  'mains_breaker',
  'fault_reset',
];
export const ALARM_CODES = Object.keys(SEED_ALARM_LEVELS) as AlarmCode[];
export type Sensor = 'coolant_temp' | 'oil_pressure' | 'fuel_level';

/** Controller settings; the keys are the configuration parameters of the protocol documents. */
export const DEFAULT_SETTINGS = {
  crank_attempts: 3,
  crank_time_s: 8,
  crank_rest_time_s: 10,
  preheat_time_s: 3,
  safety_on_time_s: 8,
  warm_up_time_s: 10,
  cooling_time_s: 60,
  mains_fail_delay_s: 5,
  mains_return_delay_s: 10,
  low_fuel_warning_pct: 20,
  low_fuel_shutdown_pct: 5,
  high_coolant_warning_c: 95,
  high_coolant_shutdown_c: 100,
  low_oil_warning_kpa: 150,
  low_oil_shutdown_kpa: 100,
  over_speed_shutdown_rpm: 1710,
  battery_low_warning_v: 22,
  rated_kw: 200,
  rated_voltage: 230,
  rated_frequency: 50,
  maintenance_interval_h: 250,
  // The switches register (bits of one register): 1 = enabled; the panel language 0–3.
  mains_fail_auto_start: 1,
  idle_start: 0,
  panel_language: 0,
};
export type GensetSettings = { [K in keyof typeof DEFAULT_SETTINGS]: number };
export type SettingKey = keyof GensetSettings;
export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

export interface Position {
  lat: number;
  lon: number;
}

/** A site-load shape over the day: kW at given hours (0–24), interpolated in between. */
export type LoadProfile = readonly { hour: number; kw: number }[];

export interface GensetModelOptions {
  seed?: number;
  settings?: Partial<GensetSettings>;
  mode?: ControllerMode;
  /** Site load in kW (taken by the generator whenever it is on load). */
  loadKw?: number;
  powerFactor?: number;
  tankLitres?: number;
  fuelPercent?: number;
  runHours?: number;
  starts?: number;
  kwh?: number;
  /** Run hours since the last service. */
  hoursSinceService?: number;
  position?: Position;
  ambientC?: number;
  /** Simulated wall-clock time at start (epoch ms), for the load profile's time of day. */
  startTime?: number;
  /** Length of one simulation step; shorter is smoother, longer is cheaper. */
  stepMs?: number;
}

export interface ActiveAlarmState {
  code: AlarmCode;
  level: AlarmLevel;
  /** Shutdowns and trips stay until a fault reset, even after the cause is gone. */
  latched: boolean;
}

/** A plain copy of the state, for tests, the control endpoint and the demo. */
export interface GensetSnapshot {
  timeMs: number;
  mode: ControllerMode;
  engineState: EngineState;
  crankAttempt: number;
  mainsAvailable: boolean;
  genBreakerClosed: boolean;
  mainsBreakerClosed: boolean;
  remoteLock: boolean;
  loadKw: number;
  /** Matching frequency, voltage and phase to a live bus before closing onto it. */
  synchronising: boolean;
  /** The parallel bus the set belongs to, as its controller measures it; null for a set on its own. */
  bus: { live: boolean; voltageV: number; frequencyHz: number; totalKw: number; totalKva: number } | null;
  alarms: ActiveAlarmState[];
  faults: string[];
  settings: GensetSettings;
  position: Position;
  values: Record<string, number | null>;
}
