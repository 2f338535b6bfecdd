// The physics of one genset, in engineering units: engine speed (on the starter, at idle, at rated speed under
// its governor and the governor's faults, or running down), the alternator's voltage and frequency, the load it
// carries (alone, or its share of a parallel bus), coolant, oil pressure, fuel, the starter battery and the
// charging alternator, the run counters and where the set is on the road. The controller (genset-model.ts, which
// extends this class) takes the engine through its start and stop sequence and works the breakers; each step,
// the physics follows where it is.
import { SYNC_SLIP_HZ, type BusMember, type ParallelBus } from './parallel-bus.ts';
import { SeededRandom } from './random.ts';
import { STATES_RUNNING, type Fault } from './genset-protections.ts';
import {
  DEFAULT_SETTINGS,
  type EngineState,
  type GensetModelOptions,
  type GensetSettings,
  type LoadProfile,
  type Position,
  type Sensor,
} from './genset-types.ts';

/** Short-distance approximation (equirectangular), good to a few metres over a town. */
export function distanceMetres(from: Position, to: Position): number {
  const metresPerDegree = 111_320;
  const dLat = (to.lat - from.lat) * metresPerDegree;
  const dLon = (to.lon - from.lon) * metresPerDegree * Math.cos((((from.lat + to.lat) / 2) * Math.PI) / 180);
  return Math.hypot(dLat, dLon);
}

/** Eases a value toward its target with a first-order lag of time constant tauS. */
function lag(value: number, target: number, dtS: number, tauS: number): number {
  return value + (target - value) * (1 - Math.exp(-dtS / tauS));
}

export abstract class GensetPhysics implements BusMember {
  readonly settings: GensetSettings;
  protected readonly random: SeededRandom;
  /** Draws of the parallel-bus behaviour, apart from `random` so a set's own behaviour stays as it was. */
  protected readonly busRandom: SeededRandom;
  private readonly startTime: number;
  timeMs = 0;

  /** Where the controller's start and stop sequence is (genset-model.ts moves it on). */
  engineState: EngineState = 'at_rest';
  protected engineFired = false;

  genBreakerClosed = false;

  /** The parallel bus this set feeds through its breaker, if it is in a parallel group. */
  bus: ParallelBus | null = null;
  synchronising = false;
  /** Phase of the set's voltage ahead of the bus's, degrees (−180…180), while synchronising. */
  protected syncPhaseDeg = 0;
  /** The load-share controller's small error, a fraction of the set's share. */
  private shareWalk = 0;

  rpm = 0;
  genKw = 0;
  loadKw: number;
  protected loadProfile: LoadProfile | null = null;
  private loadWalk = 0;
  private readonly powerFactorNominal: number;
  private powerFactorWalk = 0;
  coolantC: number;
  oilPressureKpa = 0;
  protected readonly tankLitres: number;
  protected fuelLitres: number;
  batteryV = 25.4;
  chargerV = 0;
  private readonly ambientC: number;
  private speedWalk = 0;
  protected readonly phaseImbalance: [number, number, number];
  protected readonly currentImbalance: [number, number, number];
  protected phaseNoise: [number, number, number] = [0, 0, 0];
  protected mainsNoise: [number, number, number, number] = [0, 0, 0, 0];

  runSeconds: number;
  starts: number;
  kwh: number;
  protected serviceAtRunSeconds: number;

  protected readonly faults = new Set<Fault>();
  protected readonly openSensors = new Set<Sensor>();

  position: Position;
  protected path: { points: Position[]; speedMps: number; loop: boolean; leg: number; metres: number } | null = null;

  constructor(options: GensetModelOptions) {
    this.random = new SeededRandom(options.seed ?? 1);
    this.busRandom = new SeededRandom(((options.seed ?? 1) * 7919 + 104_729) >>> 0);
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.startTime = options.startTime ?? Date.UTC(2025, 0, 6, 8, 0, 0);
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
  protected get powerFactor(): number {
    return this.genKw > 0.5 ? Math.min(0.99, this.powerFactorNominal + this.powerFactorWalk) : 0;
  }

  get genKva(): number {
    const pf = this.powerFactor;
    return pf > 0 ? this.genKw / pf : 0;
  }

  get speedWander(): number {
    return this.speedWalk;
  }

  get fuelPercent(): number {
    return (this.fuelLitres / this.tankLitres) * 100;
  }

  get maintenanceHoursLeft(): number {
    return this.settings.maintenance_interval_h - (this.runSeconds - this.serviceAtRunSeconds) / 3600;
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

  /** Called by the bus on join and leave; the controller (genset-model.ts) also drops what it was doing on it. */
  abstract attachBus(bus: ParallelBus | null): void;

  // ---- time ---------------------------------------------------------------------------------------------

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

  protected updatePhysics(dtS: number): void {
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

  protected updateCounters(dtS: number): void {
    if (this.isIn(STATES_RUNNING) && this.rpm > 300) this.runSeconds += dtS;
    this.kwh += (this.genKw * dtS) / 3600;
  }

  protected updatePosition(dtS: number): void {
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
}
