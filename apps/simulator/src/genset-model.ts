// The control behaviour of one genset's controller, in engineering units: its modes and front-panel commands,
// the start and stop sequence (preheat, crank, safety-on, warm-up, cooling), the mains and generator breakers and
// the synchroniser onto a parallel bus, the automatic start on a mains failure, the protections (warnings and
// latched shutdowns and trips) and what the controller reports. It extends the set's physics (genset-physics.ts);
// the protections' table is in genset-protections.ts and what a set is described by in genset-types.ts (exported
// here too). It knows no register map: each protocol layout encodes the same model, so the same state reads alike
// through any decoder.
import { SEED_ALARM_LEVELS, type AlarmLevel } from '@genset/protocol';
import { distanceMetres, GensetPhysics } from './genset-physics.ts';
import { FAULT_OF_ALARM, PROTECTIONS } from './genset-protections.ts';
import {
  ALARM_CODES,
  type ActiveAlarmState,
  type AlarmCode,
  type ControllerMode,
  type EngineState,
  type GensetCommand,
  type GensetModelOptions,
  type GensetSnapshot,
  type LoadProfile,
  type Position,
  type Sensor,
  type SettingKey,
} from './genset-types.ts';
import { SYNC_LIMITS, type BusMember, type ParallelBus } from './parallel-bus.ts';

export { ALARM_CODES, DEFAULT_SETTINGS, GENSET_COMMANDS, SETTING_KEYS } from './genset-types.ts';
export type {
  ActiveAlarmState,
  AlarmCode,
  ControllerMode,
  EngineState,
  GensetCommand,
  GensetModelOptions,
  GensetSettings,
  GensetSnapshot,
  LoadProfile,
  Position,
  Sensor,
  SettingKey,
} from './genset-types.ts';

const SQRT3 = Math.sqrt(3);

export class GensetModel extends GensetPhysics implements BusMember {
  private readonly stepMs: number;
  private pendingMs = 0;

  mode: ControllerMode;
  private stateTimerS = 0;
  crankAttempt = 0;
  private fireAfterS = 0;
  private manualRunRequested = false;

  mainsAvailable = true;
  private mainsFailTimerS = 0;
  private mainsReturnTimerS = 0;
  private autoDemand = false;
  mainsBreakerClosed = true;

  /** In MANUAL, a set on a bus goes onto it when started or told to close its breaker, and stays off after an open. */
  private busCloseRequested = false;

  remoteLock = false;
  private readonly latched = new Set<AlarmCode>();
  private readonly warnings = new Set<AlarmCode>();
  private readonly protectionTimers = new Map<AlarmCode, number>();

  constructor(options: GensetModelOptions = {}) {
    super(options);
    this.stepMs = options.stepMs ?? 100;
    this.mode = options.mode ?? 'auto';
    this.mainsBreakerClosed = this.mainsAvailable;
  }

  // ---- the controller's view ----------------------------------------------------------------------------

  /** Called by the bus on join and leave. */
  attachBus(bus: ParallelBus | null): void {
    this.bus = bus;
    if (!bus) {
      this.synchronising = false;
      this.busCloseRequested = false;
    }
  }

  get mainsHealthy(): boolean {
    return this.mainsAvailable;
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
