// The physical and control behaviour of one genset with its controller, in engineering units. It knows no
// register map: each protocol layout encodes the same model, so the same state reads alike through any decoder.
import { SEED_ALARM_LEVELS, type AlarmLevel, type SeedAlarmCode } from '@genset/protocol';
import { SeededRandom } from './random.ts';
import { SYNC_LIMITS, SYNC_SLIP_HZ, type BusMember, type ParallelBus } from './parallel-bus.ts';

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

/** Physical faults behind each alarm code; several alarm codes share one cause (warning, then shutdown). */
type Fault =
  | 'emergency_stop'
  | 'low_oil_pressure'
  | 'cooling_failure'
  | 'fuel_leak'
  | 'governor_runaway'
  | 'governor_sluggish'
  | 'avr_high'
  | 'avr_low'
  | 'governor_fast'
  | 'governor_slow'
  | 'overload'
  | 'weak_battery'
  | 'charge_alternator'
  | 'no_fuel_delivery';

const FAULT_OF_ALARM: Record<AlarmCode, Fault | 'maintenance'> = {
  emergency_stop: 'emergency_stop',
  low_oil_pressure_warning: 'low_oil_pressure',
  low_oil_pressure_shutdown: 'low_oil_pressure',
  high_coolant_temp_warning: 'cooling_failure',
  high_coolant_temp_shutdown: 'cooling_failure',
  low_fuel_warning: 'fuel_leak',
  low_fuel_shutdown: 'fuel_leak',
  over_speed: 'governor_runaway',
  under_speed: 'governor_sluggish',
  gen_over_voltage: 'avr_high',
  gen_under_voltage: 'avr_low',
  gen_over_frequency: 'governor_fast',
  gen_under_frequency: 'governor_slow',
  overload: 'overload',
  battery_low: 'weak_battery',
  charge_fail: 'charge_alternator',
  fail_to_start: 'no_fuel_delivery',
  maintenance_due: 'maintenance',
};

const STATES_AFTER_SAFETY_ON: readonly EngineState[] = ['start_idle', 'warm_up', 'running', 'on_load', 'cooling'];
const STATES_AT_RATED_SPEED: readonly EngineState[] = ['warm_up', 'running', 'on_load', 'cooling'];
const STATES_RUNNING: readonly EngineState[] = ['safety_on', ...STATES_AFTER_SAFETY_ON];

/** A protection: a condition that must hold for a delay before it raises its alarm. */
interface Protection {
  code: AlarmCode;
  delayS: number;
  /** Whether the protection is active in the present state (e.g. oil pressure only after safety-on). */
  armed: (model: GensetModel) => boolean;
  tripped: (model: GensetModel) => boolean;
}

const PROTECTIONS: readonly Protection[] = [
  { code: 'emergency_stop', delayS: 0, armed: () => true, tripped: (m) => m.hasFault('emergency_stop') },
  {
    code: 'over_speed',
    delayS: 0.5,
    armed: () => true,
    tripped: (m) => m.rpm > m.settings.over_speed_shutdown_rpm,
  },
  {
    code: 'under_speed',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.rpm < 0.85 * m.ratedRpm,
  },
  {
    code: 'gen_over_voltage',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genVoltage > 1.15 * m.settings.rated_voltage,
  },
  {
    code: 'gen_under_voltage',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genVoltage < 0.8 * m.settings.rated_voltage,
  },
  {
    code: 'gen_over_frequency',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genFrequency > 1.1 * m.settings.rated_frequency,
  },
  {
    code: 'gen_under_frequency',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genFrequency < 0.9 * m.settings.rated_frequency,
  },
  {
    code: 'overload',
    delayS: 5,
    armed: (m) => m.genBreakerClosed,
    tripped: (m) => m.genKw > 1.1 * m.settings.rated_kw,
  },
  {
    code: 'low_oil_pressure_warning',
    delayS: 2,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('oil_pressure'),
    tripped: (m) => m.oilPressureKpa < m.settings.low_oil_warning_kpa,
  },
  {
    code: 'low_oil_pressure_shutdown',
    delayS: 2,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('oil_pressure'),
    tripped: (m) => m.oilPressureKpa < m.settings.low_oil_shutdown_kpa,
  },
  {
    code: 'high_coolant_temp_warning',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('coolant_temp'),
    tripped: (m) => m.coolantC > m.settings.high_coolant_warning_c,
  },
  {
    code: 'high_coolant_temp_shutdown',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('coolant_temp'),
    tripped: (m) => m.coolantC > m.settings.high_coolant_shutdown_c,
  },
  {
    code: 'low_fuel_warning',
    delayS: 5,
    armed: (m) => !m.isSensorOpen('fuel_level'),
    tripped: (m) => m.fuelPercent < m.settings.low_fuel_warning_pct,
  },
  {
    code: 'low_fuel_shutdown',
    delayS: 5,
    armed: (m) => !m.isSensorOpen('fuel_level'),
    tripped: (m) => m.fuelPercent < m.settings.low_fuel_shutdown_pct,
  },
  {
    code: 'battery_low',
    delayS: 10,
    // The starter pulls the battery down on purpose; only a battery that stays low is a fault.
    armed: (m) => m.engineState !== 'crank',
    tripped: (m) => m.batteryV < m.settings.battery_low_warning_v,
  },
  { code: 'charge_fail', delayS: 5, armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON), tripped: (m) => m.chargerV < 8 },
  { code: 'maintenance_due', delayS: 0, armed: () => true, tripped: (m) => m.maintenanceHoursLeft <= 0 },
];

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

const SQRT3 = Math.sqrt(3);

/** Short-distance approximation (equirectangular), good to a few metres over a town. */
function distanceMetres(from: Position, to: Position): number {
  const metresPerDegree = 111_320;
  const dLat = (to.lat - from.lat) * metresPerDegree;
  const dLon = (to.lon - from.lon) * metresPerDegree * Math.cos((((from.lat + to.lat) / 2) * Math.PI) / 180);
  return Math.hypot(dLat, dLon);
}

/** Eases a value toward its target with a first-order lag of time constant tauS. */
function lag(value: number, target: number, dtS: number, tauS: number): number {
  return value + (target - value) * (1 - Math.exp(-dtS / tauS));
}

export class GensetModel implements BusMember {
  readonly settings: GensetSettings;
  private readonly random: SeededRandom;
  /** Draws of the parallel-bus behaviour, apart from `random` so a set's own behaviour stays as it was. */
  private readonly busRandom: SeededRandom;
  private readonly stepMs: number;
  private readonly startTime: number;
  private pendingMs = 0;
  timeMs = 0;

  mode: ControllerMode;
  engineState: EngineState = 'at_rest';
  private stateTimerS = 0;
  crankAttempt = 0;
  private engineFired = false;
  private fireAfterS = 0;
  private manualRunRequested = false;

  mainsAvailable = true;
  private mainsFailTimerS = 0;
  private mainsReturnTimerS = 0;
  private autoDemand = false;
  genBreakerClosed = false;
  mainsBreakerClosed = true;

  /** The parallel bus this set feeds through its breaker, if it is in a parallel group. */
  bus: ParallelBus | null = null;
  synchronising = false;
  /** Phase of the set's voltage ahead of the bus's, degrees (−180…180), while synchronising. */
  private syncPhaseDeg = 0;
  /** In MANUAL, a set on a bus goes onto it when started or told to close its breaker, and stays off after an open. */
  private busCloseRequested = false;
  /** The load-share controller's small error, a fraction of the set's share. */
  private shareWalk = 0;

  rpm = 0;
  genKw = 0;
  loadKw: number;
  private loadProfile: LoadProfile | null = null;
  private loadWalk = 0;
  private readonly powerFactorNominal: number;
  private powerFactorWalk = 0;
  coolantC: number;
  oilPressureKpa = 0;
  private readonly tankLitres: number;
  private fuelLitres: number;
  batteryV = 25.4;
  chargerV = 0;
  private readonly ambientC: number;
  private speedWalk = 0;
  private readonly phaseImbalance: [number, number, number];
  private readonly currentImbalance: [number, number, number];
  private phaseNoise: [number, number, number] = [0, 0, 0];
  private mainsNoise: [number, number, number, number] = [0, 0, 0, 0];

  runSeconds: number;
  starts: number;
  kwh: number;
  private serviceAtRunSeconds: number;

  private readonly faults = new Set<Fault>();
  private readonly openSensors = new Set<Sensor>();
  remoteLock = false;
  private readonly latched = new Set<AlarmCode>();
  private readonly warnings = new Set<AlarmCode>();
  private readonly protectionTimers = new Map<AlarmCode, number>();

  position: Position;
  private path: { points: Position[]; speedMps: number; loop: boolean; leg: number; metres: number } | null = null;

  constructor(options: GensetModelOptions = {}) {
    this.random = new SeededRandom(options.seed ?? 1);
    this.busRandom = new SeededRandom(((options.seed ?? 1) * 7919 + 104_729) >>> 0);
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.stepMs = options.stepMs ?? 100;
    this.startTime = options.startTime ?? Date.UTC(2025, 0, 6, 8, 0, 0);
    this.mode = options.mode ?? 'auto';
    this.loadKw = options.loadKw ?? 0.6 * this.settings.rated_kw;
    this.powerFactorNominal = options.powerFactor ?? 0.85;
    this.tankLitres = options.tankLitres ?? 400;
    this.fuelLitres = (this.tankLitres * (options.fuelPercent ?? 80)) / 100;
    this.ambientC = options.ambientC ?? 25;
    this.coolantC = this.ambientC;
    this.runSeconds = Math.round((options.runHours ?? 1234.5) * 3600);
    this.starts = options.starts ?? 812;
    this.kwh = options.kwh ?? 153_420;
    this.serviceAtRunSeconds = this.runSeconds - Math.round((options.hoursSinceService ?? 180) * 3600);
    this.position = options.position ?? { lat: 31.230416, lon: 121.473701 };
    // Each set has its own slight phase imbalance, fixed for its life.
    this.phaseImbalance = [this.random.between(-0.006, 0.006), this.random.between(-0.006, 0.006), 0];
    this.currentImbalance = [this.random.between(-0.02, 0.02), this.random.between(-0.02, 0.02), 0];
    this.mainsBreakerClosed = this.mainsAvailable;
  }

  // ---- derived quantities -------------------------------------------------------------------------------

  get ratedRpm(): number {
    return this.settings.rated_frequency * 30; // four-pole alternator
  }

  get genFrequency(): number {
    return (this.rpm / this.ratedRpm) * this.settings.rated_frequency;
  }

  /** Mean phase voltage: what the AVR holds at rated speed, less below it (volts per hertz). */
  get genVoltage(): number {
    if (this.rpm < 0.3 * this.ratedRpm) return 0;
    const excitation = Math.min(1, this.rpm / (0.95 * this.ratedRpm));
    const avr = this.hasFault('avr_high') ? 1.2 : this.hasFault('avr_low') ? 0.75 : 1;
    return this.settings.rated_voltage * excitation * avr;
  }

  get ratedKw(): number {
    return this.settings.rated_kw;
  }

  get ratedFrequency(): number {
    return this.settings.rated_frequency;
  }

  /** The power factor the load draws now (0 without load). */
  private get powerFactor(): number {
    return this.genKw > 0.5 ? Math.min(0.99, this.powerFactorNominal + this.powerFactorWalk) : 0;
  }

  get genKva(): number {
    const pf = this.powerFactor;
    return pf > 0 ? this.genKw / pf : 0;
  }

  get speedWander(): number {
    return this.speedWalk;
  }

  /** Called by the bus on join and leave. */
  attachBus(bus: ParallelBus | null): void {
    this.bus = bus;
    if (!bus) {
      this.synchronising = false;
      this.busCloseRequested = false;
    }
  }

  get fuelPercent(): number {
    return (this.fuelLitres / this.tankLitres) * 100;
  }

  get maintenanceHoursLeft(): number {
    return this.settings.maintenance_interval_h - (this.runSeconds - this.serviceAtRunSeconds) / 3600;
  }

  get mainsHealthy(): boolean {
    return this.mainsAvailable;
  }

  get genAvailable(): boolean {
    const rated = this.settings.rated_voltage;
    return (
      this.isIn(['running', 'on_load', 'cooling']) &&
      Math.abs(this.genVoltage - rated) < 0.1 * rated &&
      Math.abs(this.genFrequency - this.settings.rated_frequency) < 0.1 * this.settings.rated_frequency
    );
  }

  isIn(states: readonly EngineState[]): boolean {
    return states.includes(this.engineState);
  }

  hasFault(fault: Fault): boolean {
    return this.faults.has(fault);
  }

  isSensorOpen(sensor: Sensor): boolean {
    return this.openSensors.has(sensor);
  }

  private hasLatched(level: AlarmLevel): boolean {
    for (const code of this.latched) if (SEED_ALARM_LEVELS[code] === level) return true;
    return false;
  }

  /** A latched shutdown or trip keeps the engine from starting until a fault reset. */
  get blockedByAlarm(): boolean {
    return this.latched.size > 0;
  }

  activeAlarms(): ActiveAlarmState[] {
    return ALARM_CODES.filter((code) => this.latched.has(code) || this.warnings.has(code)).map((code) => ({
      code,
      level: SEED_ALARM_LEVELS[code],
      latched: this.latched.has(code),
    }));
  }

  isAlarmActive(code: string): boolean {
    return this.latched.has(code as AlarmCode) || this.warnings.has(code as AlarmCode);
  }

  // ---- control ------------------------------------------------------------------------------------------

  /** A front-panel button (or its remote equivalent). Returns false when the controller ignores it. */
  command(command: GensetCommand): boolean {
    switch (command) {
      case 'start':
        if (this.mode !== 'manual' && this.mode !== 'test') return false;
        if (this.blockedByAlarm) return false;
        this.manualRunRequested = true;
        this.busCloseRequested = true;
        return true;
      case 'stop':
        // A second stop during cooling stops at once, as on the panel.
        if (this.mode === 'stop' && this.engineState === 'cooling') this.enter('stopping');
        this.mode = 'stop';
        this.manualRunRequested = false;
        this.busCloseRequested = false;
        return true;
      case 'auto':
        this.mode = 'auto';
        this.manualRunRequested = false;
        return true;
      case 'manual':
        // Switching to manual keeps a running set running; the operator decides when it stops.
        this.manualRunRequested = !this.isIn(['at_rest', 'start_delay', 'stopping']);
        this.mode = 'manual';
        return true;
      case 'test':
        this.mode = 'test';
        return true;
      case 'gen_breaker':
        if (this.mode !== 'manual') return false;
        if (this.genBreakerClosed || (this.bus && this.busCloseRequested)) {
          this.busCloseRequested = false;
          this.openGenBreaker();
          return true;
        }
        if (this.engineState !== 'running' || !this.genAvailable || this.blockedByAlarm) return false;
        if (this.bus) {
          // Onto a bus only through the synchroniser (or at once when the bus is dead): see runSequence.
          this.busCloseRequested = true;
          return true;
        }
        this.closeGenBreaker();
        return true;
      case 'mains_breaker':
        if (this.mode !== 'manual') return false;
        if (this.mainsBreakerClosed) {
          this.mainsBreakerClosed = false;
          return true;
        }
        if (!this.mainsHealthy) return false;
        this.openGenBreaker();
        this.mainsBreakerClosed = true;
        return true;
      case 'fault_reset':
        return this.faultReset();
    }
  }

  /** Clears latched alarms whose cause is gone; one still present (e-stop held in) stays. */
  private faultReset(): boolean {
    for (const code of [...this.latched]) {
      const protection = PROTECTIONS.find((p) => p.code === code);
      const stillThere = protection ? protection.armed(this) && protection.tripped(this) : false;
      if (!stillThere) {
        this.latched.delete(code);
        this.protectionTimers.delete(code);
      }
    }
    return this.latched.size === 0;
  }

  setMode(mode: ControllerMode): void {
    this.command(mode);
  }

  setSetting(key: SettingKey, value: number): void {
    this.settings[key] = value;
  }

  /** The site load; for a set on a parallel bus, the load of the bus. */
  setLoad(kw: number): void {
    this.loadKw = Math.max(0, kw);
    this.loadProfile = null;
    this.bus?.setLoad(kw);
  }

  setLoadProfile(profile: LoadProfile | null): void {
    this.loadProfile = profile && profile.length > 0 ? [...profile].sort((a, b) => a.hour - b.hour) : null;
  }

  cutMains(): void {
    this.mainsAvailable = false;
    this.mainsBreakerClosed = false; // the contactor drops out with its supply
  }

  restoreMains(): void {
    this.mainsAvailable = true;
  }

  injectFault(code: AlarmCode): void {
    const fault = FAULT_OF_ALARM[code];
    if (fault === 'maintenance') {
      // Service overdue by an hour: the countdown has run out.
      this.serviceAtRunSeconds = this.runSeconds - (this.settings.maintenance_interval_h + 1) * 3600;
    } else {
      this.faults.add(fault);
    }
  }

  /** Removes the cause; a latched alarm still needs a fault reset. For maintenance, records the service done. */
  clearFault(code: AlarmCode): void {
    const fault = FAULT_OF_ALARM[code];
    if (fault === 'maintenance') this.serviceAtRunSeconds = this.runSeconds;
    else this.faults.delete(fault);
  }

  clearAllFaults(): void {
    this.faults.clear();
  }

  refuel(toPercent = 100): void {
    this.fuelLitres = (this.tankLitres * Math.min(100, Math.max(0, toPercent))) / 100;
  }

  setRemoteLock(locked: boolean): void {
    this.remoteLock = locked;
  }

  setSensorOpen(sensor: Sensor, open: boolean): void {
    if (open) this.openSensors.add(sensor);
    else this.openSensors.delete(sensor);
  }

  moveTo(position: Position): void {
    this.position = { ...position };
    this.path = null;
  }

  /** Moves along the points at a steady speed (a trailer-mounted set on the road); loops back to the start. */
  followPath(points: readonly Position[], speedKmh: number, loop = true): void {
    if (points.length === 0) return;
    this.position = { ...points[0]! };
    const length = points.slice(1).reduce((sum, point, i) => sum + distanceMetres(points[i]!, point), 0);
    // A path without length (or a parked trailer) would never advance: treat it as a fixed position.
    this.path =
      length >= 1 && speedKmh > 0
        ? { points: points.map((point) => ({ ...point })), speedMps: speedKmh / 3.6, loop, leg: 0, metres: 0 }
        : null;
  }

  // ---- time ---------------------------------------------------------------------------------------------

  /** Advances simulated time; runs whole fixed steps so the outcome does not depend on how time is sliced. */
  advance(ms: number): void {
    this.pendingMs += ms;
    while (this.pendingMs >= this.stepMs) {
      this.pendingMs -= this.stepMs;
      this.step(this.stepMs / 1000);
      this.timeMs += this.stepMs;
    }
  }

  private enter(state: EngineState): void {
    this.engineState = state;
    this.stateTimerS = 0;
    if (state !== 'running') this.synchronising = false;
  }

  private openGenBreaker(): void {
    this.genBreakerClosed = false;
    if (this.engineState === 'on_load') this.enter('running');
  }

  private closeGenBreaker(): void {
    this.mainsBreakerClosed = false;
    this.genBreakerClosed = true;
    this.synchronising = false;
    this.enter('on_load');
  }

  /**
   * Onto the load: at once for a set on its own or onto a dead bus; onto a live bus only once frequency,
   * voltage and phase match within the synchronising limits.
   */
  private closeWhenSynchronised(): void {
    const bus = this.bus;
    if (!bus || !bus.live) {
      this.closeGenBreaker();
      return;
    }
    if (!this.synchronising) {
      this.synchronising = true;
      this.syncPhaseDeg = this.busRandom.between(-180, 180);
      return;
    }
    const matched =
      Math.abs(this.genFrequency - bus.frequencyHz) <= SYNC_LIMITS.frequencyHz &&
      Math.abs(this.genVoltage - bus.voltageV) <= (SYNC_LIMITS.voltagePercent / 100) * this.settings.rated_voltage &&
      Math.abs(this.syncPhaseDeg) <= SYNC_LIMITS.phaseDegrees;
    if (matched) this.closeGenBreaker();
  }

  private beginStart(): void {
    this.crankAttempt = 1;
    if (this.settings.preheat_time_s > 0) this.enter('preheat');
    else this.beginCrank();
  }

  private beginCrank(): void {
    this.enter('crank');
    this.engineFired = false;
    // A healthy diesel catches after one to two and a half seconds on the starter.
    this.fireAfterS = 1 + 1.5 * this.random.next();
  }

  /** Whether the controller wants the engine running now. */
  private wantsToRun(): boolean {
    if (this.blockedByAlarm || this.hasFault('emergency_stop')) return false;
    switch (this.mode) {
      case 'stop':
        return false;
      case 'test':
        return true;
      case 'manual':
        return this.manualRunRequested;
      case 'auto':
        return this.autoDemand;
    }
  }

  /** Whether the generator should take the load once it is up to speed. */
  private wantsLoad(): boolean {
    switch (this.mode) {
      case 'test':
        return true;
      case 'auto':
        return this.autoDemand;
      case 'manual':
        // A set on a parallel bus goes onto it when told to; one on its own transfers on a mains failure.
        if (this.bus) return this.busCloseRequested;
        return !this.mainsHealthy;
      default:
        return false;
    }
  }

  private step(dtS: number): void {
    this.stateTimerS += dtS;
    this.updateMainsDemand(dtS);
    this.runSequence();
    this.updateBreakers();
    this.updatePhysics(dtS);
    this.updateProtections(dtS);
    this.updateCounters(dtS);
    this.updatePosition(dtS);
  }

  /** AUTO starts the set on a mains failure unless the "start on mains failure" switch is off. */
  private get startsOnMainsFailure(): boolean {
    return this.settings.mains_fail_auto_start !== 0;
  }

  private updateMainsDemand(dtS: number): void {
    if (this.mainsHealthy) {
      this.mainsFailTimerS = 0;
      this.mainsReturnTimerS += dtS;
      if (this.autoDemand && this.mainsReturnTimerS >= this.settings.mains_return_delay_s) this.autoDemand = false;
    } else {
      this.mainsReturnTimerS = 0;
      this.mainsFailTimerS += dtS;
      const due = this.mainsFailTimerS >= this.settings.mains_fail_delay_s;
      if (!this.autoDemand && due && this.startsOnMainsFailure) this.autoDemand = true;
    }
  }

  private runSequence(): void {
    const run = this.wantsToRun();
    const s = this.settings;
    switch (this.engineState) {
      case 'at_rest':
        if (run) this.beginStart();
        else if (this.mode === 'auto' && !this.mainsHealthy && !this.blockedByAlarm && this.startsOnMainsFailure)
          this.enter('start_delay');
        break;
      case 'start_delay':
        if (run) this.beginStart();
        else if (this.mode !== 'auto' || this.mainsHealthy || this.blockedByAlarm || !this.startsOnMainsFailure)
          this.enter('at_rest');
        break;
      case 'preheat':
        if (!run) this.enter('at_rest');
        else if (this.stateTimerS >= s.preheat_time_s) this.beginCrank();
        break;
      case 'crank': {
        if (!run) {
          this.enter('stopping');
          break;
        }
        const canFire = this.fuelLitres > 0 && !this.hasFault('no_fuel_delivery');
        if (!this.engineFired && canFire && this.stateTimerS >= this.fireAfterS) this.engineFired = true;
        if (this.rpm >= 0.25 * this.ratedRpm) {
          // Crank disconnect: the engine runs on its own.
          this.starts += 1;
          this.enter('safety_on');
        } else if (this.stateTimerS >= s.crank_time_s) {
          if (this.crankAttempt < s.crank_attempts) {
            this.enter('crank_rest');
          } else {
            this.latch('fail_to_start');
            this.enter('at_rest');
          }
        }
        break;
      }
      case 'crank_rest':
        if (!run) this.enter('at_rest');
        else if (this.stateTimerS >= s.crank_rest_time_s) {
          this.crankAttempt += 1;
          this.beginCrank();
        }
        break;
      case 'safety_on':
        if (!run) this.enter('stopping');
        else if (this.stateTimerS >= s.safety_on_time_s) this.enter('start_idle');
        break;
      case 'start_idle':
        if (!run) this.enter('stopping');
        else if (this.stateTimerS >= 5) this.enter('warm_up');
        break;
      case 'warm_up':
        if (!run) this.enter('cooling');
        else if (this.stateTimerS >= s.warm_up_time_s) this.enter('running');
        break;
      case 'running':
        if (!run) this.enter('cooling');
        else if (this.wantsLoad() && this.genAvailable && !this.blockedByAlarm) this.closeWhenSynchronised();
        else this.synchronising = false;
        break;
      case 'on_load':
        if (!this.genBreakerClosed) this.enter('running');
        else if (!run) {
          this.genBreakerClosed = false;
          this.enter('cooling');
        }
        break;
      case 'cooling':
        if (run) this.enter('running');
        else if (this.stateTimerS >= s.cooling_time_s) this.enter('stopping');
        break;
      case 'stopping':
        if (this.rpm < 1 && this.stateTimerS >= 1) this.enter('at_rest');
        break;
    }
  }

  private updateBreakers(): void {
    // A dead mains drops its contactor; outside manual the controller keeps the load on healthy mains
    // whenever the generator is not carrying it.
    if (!this.mainsHealthy) this.mainsBreakerClosed = false;
    else if (this.mode !== 'manual' && !this.genBreakerClosed) this.mainsBreakerClosed = true;
    if (this.genBreakerClosed && !this.isIn(['on_load'])) this.genBreakerClosed = false;
  }

  private siteLoadKw(): number {
    if (!this.loadProfile) return this.loadKw;
    const hour = ((((this.startTime + this.timeMs) / 3_600_000) % 24) + 24) % 24;
    const points = this.loadProfile;
    const after = points.findIndex((point) => point.hour > hour);
    const before =
      after === -1 ? points[points.length - 1]! : after === 0 ? points[points.length - 1]! : points[after - 1]!;
    const next = after === -1 ? points[0]! : points[after]!;
    const span = (next.hour - before.hour + 24) % 24 || 24;
    const into = (hour - before.hour + 24) % 24;
    return before.kw + ((next.kw - before.kw) * into) / span;
  }

  private updatePhysics(dtS: number): void {
    const s = this.settings;
    const rated = this.ratedRpm;
    // Fixed number of draws per step keeps runs with the same seed identical whatever the state.
    this.speedWalk = Math.max(-0.004, Math.min(0.004, this.speedWalk * 0.98 + this.random.gaussian() * 0.0004));
    this.loadWalk = Math.max(-0.06, Math.min(0.06, this.loadWalk * 0.995 + this.random.gaussian() * 0.002));
    this.powerFactorWalk = Math.max(
      -0.02,
      Math.min(0.02, this.powerFactorWalk * 0.99 + this.random.gaussian() * 0.001),
    );
    this.phaseNoise = [this.random.gaussian() * 0.001, this.random.gaussian() * 0.001, this.random.gaussian() * 0.001];
    this.mainsNoise = [
      this.random.gaussian() * 0.002,
      this.random.gaussian() * 0.002,
      this.random.gaussian() * 0.002,
      this.random.gaussian() * 0.0004,
    ];

    // Speed: starter, idle, rated (with governor faults), or running down.
    let targetRpm = 0;
    let tauS = 1.5;
    const fuelled = this.fuelLitres > 0;
    switch (this.engineState) {
      case 'crank':
        targetRpm = this.engineFired ? 0.5 * rated : 180;
        tauS = this.engineFired ? 0.6 : 0.3;
        break;
      case 'safety_on':
      case 'start_idle':
        targetRpm = fuelled ? 0.65 * rated : 0;
        tauS = 0.8;
        break;
      case 'warm_up':
      case 'running':
      case 'on_load':
      case 'cooling': {
        const governor = this.hasFault('governor_runaway')
          ? 1.2
          : this.hasFault('governor_sluggish')
            ? 0.8
            : this.hasFault('governor_fast')
              ? 1.12
              : this.hasFault('governor_slow')
                ? 0.88
                : 1;
        targetRpm = fuelled ? rated * governor * (1 + this.speedWalk) : 0;
        // On a bus the sets turn together at the bus's speed; the synchroniser runs an incoming set slightly
        // faster than the bus so that the phase slides into line.
        if (fuelled && this.bus && this.genBreakerClosed) targetRpm = rated * this.bus.speedFactor();
        else if (fuelled && this.bus && this.synchronising && this.bus.live)
          targetRpm = (rated * (this.bus.frequencyHz + SYNC_SLIP_HZ)) / s.rated_frequency;
        tauS = 0.8;
        break;
      }
    }
    this.rpm = Math.max(0, lag(this.rpm, targetRpm, dtS, tauS));
    // Below a few rpm a diesel stops turning at once rather than creeping.
    if (targetRpm === 0 && this.rpm < 5) this.rpm = 0;

    // On a bus: the set's share of the bus load, with the load-share controller's small error.
    this.shareWalk = Math.max(-0.015, Math.min(0.015, this.shareWalk * 0.99 + this.busRandom.gaussian() * 0.001));
    if (this.synchronising && this.bus) {
      const slipHz = this.genFrequency - this.bus.frequencyHz;
      this.syncPhaseDeg = ((((this.syncPhaseDeg + 360 * slipHz * dtS + 180) % 360) + 360) % 360) - 180;
    }

    // Load: the site demand with some wander (or the share of the bus), carried only with the breaker closed.
    const demandKw = this.bus
      ? this.bus.shareKw(this) * (1 + this.shareWalk)
      : Math.max(0, this.siteLoadKw() * (1 + this.loadWalk));
    const loadTarget = !this.genBreakerClosed
      ? 0
      : this.hasFault('overload')
        ? Math.max(demandKw, 1.25 * s.rated_kw)
        : demandKw;
    // Opening the breaker drops the load at once; on load the governor takes it up over about a second (a set
    // joining a bus is loaded more softly, over a few seconds).
    const rampS = this.bus ? 2 : 1;
    this.genKw =
      this.genBreakerClosed && this.genVoltage > 0 ? Math.max(0, lag(this.genKw, loadTarget, dtS, rampS)) : 0;

    // Coolant warms with running and load, and cools slowly at rest; a failed fan belt overheats it.
    const turning = this.rpm > 300;
    const loadFraction = Math.min(1.3, this.genKw / s.rated_kw);
    let coolantTarget = this.ambientC;
    if (turning) {
      coolantTarget = 78 + 12 * loadFraction - (this.rpm < 0.8 * rated ? 8 : 0);
      if (this.hasFault('cooling_failure')) coolantTarget += 45;
    }
    this.coolantC = lag(this.coolantC, coolantTarget, dtS, turning ? 90 : 900);

    // Oil pressure follows speed closely; cold oil runs a little higher.
    const coldBoost = this.coolantC < 60 ? 1 + (0.1 * (60 - this.coolantC)) / 40 : 1;
    const oilTarget = 430 * Math.pow(this.rpm / rated, 1.2) * coldBoost * (this.hasFault('low_oil_pressure') ? 0.2 : 1);
    this.oilPressureKpa = Math.max(0, lag(this.oilPressureKpa, oilTarget, dtS, 0.5));

    // Fuel burns with speed and load; a leak drains a tenth of the tank per minute.
    const burnLph = turning ? 0.03 * s.rated_kw + 0.24 * this.genKw : 0;
    const leakLpm = this.hasFault('fuel_leak') ? this.tankLitres * 0.1 : 0;
    this.fuelLitres = Math.max(0, this.fuelLitres - (burnLph / 3600 + leakLpm / 60) * dtS);

    // Charging alternator (D+) and battery: sags on the starter, rises while charging.
    const charging = turning && this.rpm > 0.5 * rated && !this.hasFault('charge_alternator');
    this.chargerV = charging ? 28 + this.phaseNoise[0] * 20 : turning ? 2 : 0;
    const weak = this.hasFault('weak_battery');
    const restV = weak ? 21.6 : 25.4;
    let batteryTarget = restV;
    let batteryTau = 600;
    if (this.engineState === 'crank' && !this.engineFired) {
      batteryTarget = restV - 5.5;
      batteryTau = 0.2;
    } else if (charging) {
      batteryTarget = weak ? 21.8 : 27.6;
      batteryTau = 40;
    } else if (this.batteryV < restV) {
      batteryTau = 2; // recovers quickly from the cranking dip
    } else if (weak) {
      batteryTau = 30; // a failing battery cannot hold its surface charge
    }
    this.batteryV = lag(this.batteryV, batteryTarget, dtS, batteryTau);
  }

  private latch(code: AlarmCode): void {
    this.latched.add(code);
    this.manualRunRequested = false;
    if (SEED_ALARM_LEVELS[code] === 'trip') {
      // Electrical trip: off load at once, then cool down before stopping.
      this.openGenBreaker();
      if (this.isIn(['running', 'warm_up'])) this.enter('cooling');
    } else {
      // Shutdown: off load and stop now, no cooling.
      this.genBreakerClosed = false;
      if (!this.isIn(['at_rest', 'stopping'])) this.enter('stopping');
    }
  }

  private updateProtections(dtS: number): void {
    for (const protection of PROTECTIONS) {
      const active = protection.armed(this) && protection.tripped(this);
      const timer = active ? (this.protectionTimers.get(protection.code) ?? 0) + dtS : 0;
      this.protectionTimers.set(protection.code, timer);
      const level = SEED_ALARM_LEVELS[protection.code];
      if (level === 'warning') {
        // Warnings follow their condition; they need no reset.
        if (active && timer >= protection.delayS) this.warnings.add(protection.code);
        else if (!active) this.warnings.delete(protection.code);
      } else if (active && timer >= protection.delayS && !this.latched.has(protection.code)) {
        this.latch(protection.code);
      }
    }
  }

  private updateCounters(dtS: number): void {
    if (this.isIn(STATES_RUNNING) && this.rpm > 300) this.runSeconds += dtS;
    this.kwh += (this.genKw * dtS) / 3600;
  }

  private updatePosition(dtS: number): void {
    const path = this.path;
    if (!path) return;
    let remaining = path.speedMps * dtS;
    while (remaining > 0) {
      const from = path.points[path.leg]!;
      const to = path.points[path.leg + 1];
      if (!to) {
        if (!path.loop) {
          this.path = null;
          return;
        }
        path.leg = 0;
        path.metres = 0;
        continue;
      }
      const legMetres = distanceMetres(from, to);
      const step = Math.min(remaining, legMetres - path.metres);
      path.metres += step;
      remaining -= step;
      const fraction = legMetres > 0 ? path.metres / legMetres : 1;
      this.position = {
        lat: from.lat + (to.lat - from.lat) * fraction,
        lon: from.lon + (to.lon - from.lon) * fraction,
      };
      if (path.metres >= legMetres) {
        path.leg += 1;
        path.metres = 0;
      }
    }
  }

  // ---- reading ------------------------------------------------------------------------------------------

  /**
   * What the controller measures and reports, in engineering units, keyed like the protocol documents' items.
   * Mode and engine state are given by name; each layout numbers them its own way.
   */
  values(): Record<string, number | null> {
    const s = this.settings;
    const genV = this.genVoltage;
    const running = genV > 0;
    const phase = [0, 1, 2].map((i) => (running ? genV * (1 + this.phaseImbalance[i]! + this.phaseNoise[i]!) : 0));
    const mainsV = [0, 1, 2].map((i) =>
      this.mainsAvailable ? s.rated_voltage * (1.01 + this.phaseImbalance[i]! / 2 + this.mainsNoise[i]!) : 0,
    );
    const pf = this.powerFactor;
    const kva = this.genKva;
    const kvar = pf > 0 ? Math.sqrt(Math.max(0, kva * kva - this.genKw * this.genKw)) : 0;
    const current = phase.map((v, i) => (v > 1 ? ((kva * 1000) / (3 * v)) * (1 + this.currentImbalance[i]!) : 0));
    const line = (a: number, b: number) => ((a + b) / 2) * SQRT3;
    const latchedLevels = { shutdown: this.hasLatched('shutdown'), trip: this.hasLatched('trip') };
    const anyWarning = this.warnings.size > 0;
    const bit = (value: boolean) => (value ? 1 : 0);
    return {
      mains_voltage_l1: mainsV[0]!,
      mains_voltage_l2: mainsV[1]!,
      mains_voltage_l3: mainsV[2]!,
      mains_voltage_l12: line(mainsV[0]!, mainsV[1]!),
      mains_voltage_l23: line(mainsV[1]!, mainsV[2]!),
      mains_voltage_l31: line(mainsV[2]!, mainsV[0]!),
      mains_freq: this.mainsAvailable ? s.rated_frequency * (1 + this.mainsNoise[3]!) : 0,
      gen_voltage_l1: phase[0]!,
      gen_voltage_l2: phase[1]!,
      gen_voltage_l3: phase[2]!,
      gen_voltage_l12: line(phase[0]!, phase[1]!),
      gen_voltage_l23: line(phase[1]!, phase[2]!),
      gen_voltage_l31: line(phase[2]!, phase[0]!),
      gen_freq: this.genFrequency,
      gen_current_l1: current[0]!,
      gen_current_l2: current[1]!,
      gen_current_l3: current[2]!,
      gen_kw: this.genKw,
      gen_kvar: kvar,
      gen_kva: kva,
      power_factor: pf,
      engine_rpm: this.rpm,
      coolant_temp: this.isSensorOpen('coolant_temp') ? null : this.coolantC,
      oil_pressure: this.isSensorOpen('oil_pressure') ? null : this.oilPressureKpa,
      fuel_level: this.isSensorOpen('fuel_level') ? null : this.fuelPercent,
      battery_voltage: this.batteryV,
      charger_voltage: this.chargerV,
      // Counters tick in whole units, as the controller's own counters do.
      run_hours: Math.floor(this.runSeconds / 3600),
      run_minutes: Math.floor((this.runSeconds % 3600) / 60),
      starts: this.starts,
      kwh_total: Math.floor(this.kwh * 10) / 10,
      maintenance_hours: this.maintenanceHoursLeft,
      latitude: this.position.lat,
      longitude: this.position.lon,
      mains_normal: bit(this.mainsHealthy),
      gen_normal: bit(this.genAvailable),
      mains_on_load: bit(this.mainsBreakerClosed),
      gen_on_load: bit(this.genBreakerClosed),
      remote_lock: bit(this.remoteLock),
      input_remote_lock: bit(this.remoteLock),
      input_emergency_stop: bit(this.hasFault('emergency_stop')),
      mode_auto: bit(this.mode === 'auto'),
      mode_manual: bit(this.mode === 'manual'),
      mode_stop: bit(this.mode === 'stop'),
      mode_test: bit(this.mode === 'test'),
      common_alarm: bit(anyWarning || this.latched.size > 0),
      common_warning: bit(anyWarning),
      common_shutdown: bit(latchedLevels.shutdown),
      common_trip: bit(latchedLevels.trip),
      // What a paralleling controller measures of its bus; nothing for a set on its own.
      ...this.busValues(),
    };
  }

  private busValues(): Record<string, number | null> {
    const bus = this.bus;
    if (!bus) {
      return {
        bus_voltage: null,
        bus_freq: null,
        bus_kw: null,
        bus_kva: null,
        load_share: null,
        bus_live: 0,
        synchronising: 0,
      };
    }
    const totalKw = bus.totalKw;
    return {
      bus_voltage: bus.voltageV,
      bus_freq: bus.frequencyHz,
      bus_kw: totalKw,
      bus_kva: bus.totalKva,
      load_share: totalKw > 0.5 && this.genBreakerClosed ? (100 * this.genKw) / totalKw : 0,
      bus_live: bus.live ? 1 : 0,
      synchronising: this.synchronising ? 1 : 0,
    };
  }

  snapshot(): GensetSnapshot {
    return {
      timeMs: this.timeMs,
      mode: this.mode,
      engineState: this.engineState,
      crankAttempt: this.crankAttempt,
      mainsAvailable: this.mainsAvailable,
      genBreakerClosed: this.genBreakerClosed,
      mainsBreakerClosed: this.mainsBreakerClosed,
      remoteLock: this.remoteLock,
      loadKw: this.bus ? this.bus.loadKw : this.loadKw,
      synchronising: this.synchronising,
      bus: this.bus
        ? {
            live: this.bus.live,
            voltageV: this.bus.voltageV,
            frequencyHz: this.bus.frequencyHz,
            totalKw: this.bus.totalKw,
            totalKva: this.bus.totalKva,
          }
        : null,
      alarms: this.activeAlarms(),
      faults: [...this.faults, ...[...this.openSensors].map((sensor) => `sensor_open:${sensor}`)],
      settings: { ...this.settings },
      position: { ...this.position },
      values: this.values(),
    };
  }
}
