// The physics and control behaviour of a simulated energy-storage station, in engineering units: the PCS
// (setpoint, ramp, limits, watchdog, efficiency, faults), the battery behind its BMS (SOC by integration, cell
// extremes, power limits, alarms), the site load, an optional PV array and the grid meter that balances them.
// It knows no register map (ess-registers.ts lays it out by the layout E documents) and no wall-clock time: it
// moves only when advanced, in steps of at most `maxStepMs`, so real-time and stepped runs integrate alike.
// Signs: battery and PCS power > 0 discharge, < 0 charge; grid power > 0 import, < 0 export.
// The states, settings, options and snapshot it is described by are in ess-types.ts (exported here too).
import { PCS_WATCHDOG_MS } from '@genset/protocol';
import { clearSkyPvShare, dayWeather, loadShare, ZoneClock, type DayWeather } from './ess-profiles.ts';
import {
  BMS_ALARMS,
  type BmsAlarm,
  type BmsState,
  type EssSiteModelOptions,
  type EssSiteSnapshot,
  type PcsCommand,
  type PcsControlMode,
  type PcsFaultKind,
  type PcsSettingKey,
  type PcsSettings,
  type PcsState,
  type PvState,
} from './ess-types.ts';
import { SeededRandom } from './random.ts';

export * from './ess-types.ts';

/** LFP open-circuit cell voltage by SOC: flat in the middle, steep at both ends. */
const OCV_CURVE: readonly [soc: number, volts: number][] = [
  [0, 2.9],
  [5, 3.1],
  [10, 3.2],
  [20, 3.25],
  [30, 3.27],
  [40, 3.285],
  [50, 3.29],
  [60, 3.3],
  [70, 3.31],
  [80, 3.33],
  [90, 3.34],
  [95, 3.37],
  [100, 3.45],
];

function openCircuitVolts(soc: number): number {
  for (let i = 1; i < OCV_CURVE.length; i++) {
    const [s1, v1] = OCV_CURVE[i]!;
    if (soc <= s1) {
      const [s0, v0] = OCV_CURVE[i - 1]!;
      return v0 + ((v1 - v0) * (soc - s0)) / (s1 - s0);
    }
  }
  return OCV_CURVE.at(-1)![1];
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Below this, power counts as none (display resolution of 0.1 kW). */
const IDLE_KW = 0.05;
/** Load power factor (lagging): the site's reactive power follows its load. */
const LOAD_TAN_PHI = Math.tan(Math.acos(0.95));
const PHASE_VOLTS = 230;
const LINE_VOLTS = 400;
/** PCS module temperatures: warning, derating from, derated to (share) at, trip. */
const PCS_TEMP = { warning: 70, derateFrom: 75, derateTo: 85, trip: 90, resetBelow: 80 } as const;
/** Cell protection thresholds. */
const CELL = { overVolts: 3.6, underVolts: 2.8, overTempC: 50, underTempC: 0 } as const;
/** SOH lost over the battery's life: 20 % over 6000 full cycles. */
const SOH_LOSS_PER_CYCLE = 20 / 6000;
/** How often the cells at the extremes may change when nothing forces them, s. */
const CELL_SHUFFLE_S = 600;

/**
 * A first-order lag towards a target over dt with time constant tau, exact for any step size, so that a stepped
 * run and a real-time run reach the same values.
 */
function lag(value: number, target: number, dtS: number, tauS: number): number {
  return target + (value - target) * Math.exp(-dtS / tauS);
}

/** Noise with memory (Ornstein–Uhlenbeck): exact for any step, standard deviation sigma, correlation time tau. */
function wander(random: SeededRandom, value: number, dtS: number, tauS: number, sigma: number): number {
  const decay = Math.exp(-dtS / tauS);
  return value * decay + sigma * Math.sqrt(1 - decay * decay) * random.gaussian();
}

export class EssSiteModel {
  readonly zone: ZoneClock;
  readonly latitude: number;
  readonly longitude: number;
  readonly maxStepMs: number;
  private readonly random: SeededRandom;
  private ts: number;

  // site load
  private readonly loadBaseKw: number;
  private readonly loadPeakKw: number;
  private readonly loadNoiseKw: number;
  private loadNoise = 0;
  private readonly weatherSeed: number | null;
  private weather: DayWeather = { sky: 1, load: 1, ambientC: 25 };
  private weatherDay = Number.NaN;
  private loadOverrideKw: number | null = null;
  private loadStepKw = 0;
  private loadKw = 0;
  private loadKwh = 0;

  // PCS
  private readonly pcsRatingKw: number;
  private readonly efficiency: number;
  private readonly settings: PcsSettings;
  private started: boolean;
  private controlMode: PcsControlMode = 'remote';
  private setpointKw = 0;
  private targetKw = 0;
  private pcsPowerKw = 0;
  private lastSetpointWriteTs: number | null = null;
  private watchdogExpired = false;
  private pcsFault: PcsFaultKind | null = null;
  private pcsFaultCause: PcsFaultKind | null = null;
  private moduleTempC: number;
  private chargeKwh = 0;
  private dischargeKwh = 0;
  private acVoltageNoise = [0, 0, 0];
  private frequencyNoise = 0;

  // battery and BMS
  private readonly capacityKwh: number;
  private readonly bmsMaxPowerKw: number;
  private readonly cellCount: number;
  /** Cell internal resistance, Ω: about 40 mV of drop at the BMS's largest power. */
  private readonly cellOhms: number;
  private ambientC: number;
  private soh: number;
  private energyKwh: number;
  private dcPowerKw = 0;
  private cellTempC: number;
  private readonly injectedBmsAlarms = new Set<BmsAlarm>();
  /** The cell that reaches both voltage ends first (lowest capacity). */
  private readonly weakCell: number;
  private readonly cellPools: { high: number[]; low: number[]; hot: number[]; cold: number[] };
  private cellPick = { high: 0, low: 0, hot: 0, cold: 0 };
  private cellShuffleInS = CELL_SHUFFLE_S;
  private chargeLimitKw = 0;
  private dischargeLimitKw = 0;

  // PV
  private readonly pvRatedKw: number;
  private pvEnabled = true;
  private pvLimitPct = 100;
  private pvAvailableKw = 0;
  private pvPowerKw = 0;
  private pvDailyKwh = 0;
  private pvTotalKwh = 0;
  private pvDay: number;

  // meter
  private importKwh = 0;
  private exportKwh = 0;
  private meterVoltageNoise = [0, 0, 0];

  constructor(options: EssSiteModelOptions = {}) {
    this.random = new SeededRandom(options.seed ?? 1);
    this.weatherSeed = options.dailyWeather ? (options.seed ?? 1) : null;
    this.ts = options.startTs ?? Date.now();
    this.zone = new ZoneClock(options.timeZone ?? 'Asia/Shanghai');
    this.latitude = options.latitude ?? 31.2304;
    this.longitude = options.longitude ?? 121.4737;
    this.maxStepMs = Math.max(1, options.maxStepMs ?? 1000);

    this.loadBaseKw = Math.max(0, options.loadBaseKw ?? 80);
    this.loadPeakKw = Math.max(this.loadBaseKw, options.loadPeakKw ?? 300);
    this.loadNoiseKw = (Math.max(0, options.loadNoisePct ?? 3) / 100) * this.loadPeakKw;

    this.pcsRatingKw = positive(options.pcsRatingKw ?? 250, 'pcsRatingKw');
    this.efficiency = clamp(options.efficiency ?? 0.96, 0.5, 1);
    const watchdogMs = options.watchdogMs ?? PCS_WATCHDOG_MS;
    this.settings = {
      ramp_rate: positive(options.rampKwPerS ?? 50, 'rampKwPerS'),
      watchdog_time: Math.max(0, Math.round(watchdogMs / 1000)),
      max_charge_power: this.pcsRatingKw,
      max_discharge_power: this.pcsRatingKw,
    };
    this.started = options.pcsStarted ?? true;

    this.capacityKwh = positive(options.capacityKwh ?? 500, 'capacityKwh');
    this.bmsMaxPowerKw = positive(options.bmsMaxPowerKw ?? this.pcsRatingKw, 'bmsMaxPowerKw');
    this.cellCount = Math.max(2, Math.round(options.cellCount ?? 240));
    const nominalPackVolts = this.cellCount * 3.2;
    this.cellOhms = 0.04 / ((this.bmsMaxPowerKw * 1000) / nominalPackVolts);
    this.ambientC = options.ambientC ?? 25;
    this.moduleTempC = this.ambientC;
    this.cellTempC = this.ambientC;
    this.soh = clamp(options.soh ?? 98, 1, 100);
    this.energyKwh = (clamp(options.initialSoc ?? 50, 0, 100) / 100) * this.usableKwh;

    const cell = () => 1 + Math.floor(this.random.next() * this.cellCount);
    this.weakCell = cell();
    this.cellPools = {
      high: [cell(), cell(), cell()],
      low: [cell(), cell(), cell()],
      // The middle of a rack runs warmest, its ends coolest.
      hot: [0.45, 0.5, 0.55].map((share) => Math.round(share * this.cellCount)),
      cold: [1, this.cellCount, Math.round(this.cellCount / 4)],
    };

    this.pvRatedKw = Math.max(0, options.pvRatedKw ?? 0);
    this.pvDay = this.zone.local(this.ts).dayNumber;
    // The first step sets every derived value from the initial state without moving time.
    this.step(0);
  }

  private get usableKwh(): number {
    return (this.capacityKwh * this.soh) / 100;
  }

  get now(): number {
    return this.ts;
  }

  get hasPv(): boolean {
    return this.pvRatedKw > 0;
  }

  /** Advances simulated time by ms, in steps of at most maxStepMs. */
  advance(ms: number): void {
    if (!(ms > 0)) return;
    let left = ms;
    while (left > 0) {
      const dt = Math.min(left, this.maxStepMs);
      left -= dt;
      this.ts += dt;
      this.step(dt / 1000);
    }
  }

  private step(dtS: number): void {
    this.stepLoadAndPv(dtS);
    this.stepBmsLimits();
    this.stepPcs(dtS);
    this.stepBattery(dtS);
    this.stepMeter(dtS);
  }

  private stepLoadAndPv(dtS: number): void {
    const local = this.zone.local(this.ts);
    if (this.loadNoiseKw > 0 && dtS > 0)
      this.loadNoise = wander(this.random, this.loadNoise, dtS, 120, this.loadNoiseKw);
    if (this.weatherSeed !== null && local.dayNumber !== this.weatherDay) {
      this.weatherDay = local.dayNumber;
      this.weather = dayWeather(this.weatherSeed, local, this.latitude);
      this.ambientC = this.weather.ambientC;
    }
    const profile =
      (this.loadBaseKw + (this.loadPeakKw - this.loadBaseKw) * loadShare(local)) * this.weather.load + this.loadNoise;
    this.loadKw = Math.max(0, (this.loadOverrideKw ?? profile) + this.loadStepKw);
    this.loadKwh += (this.loadKw * dtS) / 3600;

    if (local.dayNumber !== this.pvDay) {
      this.pvDay = local.dayNumber;
      this.pvDailyKwh = 0;
    }
    if (!this.hasPv) return;
    this.pvAvailableKw = this.pvRatedKw * clearSkyPvShare(this.ts, this.latitude, this.longitude) * this.weather.sky;
    this.pvPowerKw = this.pvEnabled ? Math.min(this.pvAvailableKw, (this.pvLimitPct / 100) * this.pvRatedKw) : 0;
    const energy = (this.pvPowerKw * dtS) / 3600;
    this.pvDailyKwh += energy;
    this.pvTotalKwh += energy;
  }

  /** The largest charge and discharge power the BMS allows now, from SOC, temperatures, cell voltages, faults. */
  private stepBmsLimits(): void {
    if (this.bmsFault) {
      this.chargeLimitKw = 0;
      this.dischargeLimitKw = 0;
      return;
    }
    const soc = this.soc;
    const cells = this.cellExtremes();
    const chargeTaper = soc >= 100 ? 0 : soc > 90 ? (100 - soc) / 10 : 1;
    const dischargeTaper = soc <= 0 ? 0 : soc < 10 ? soc / 10 : 1;
    const chargeTemp =
      cells.minTempC < 0 ? 0 : cells.maxTempC > 55 ? 0 : cells.minTempC < 10 || cells.maxTempC > 45 ? 0.5 : 1;
    const dischargeTemp = cells.minTempC < -10 || cells.maxTempC > 60 ? 0 : cells.maxTempC > 50 ? 0.5 : 1;
    const chargeVolts = cells.maxVolts >= CELL.overVolts ? 0 : 1;
    const dischargeVolts = cells.minVolts <= CELL.underVolts ? 0 : 1;
    this.chargeLimitKw = this.bmsMaxPowerKw * chargeTaper * chargeTemp * chargeVolts;
    this.dischargeLimitKw = this.bmsMaxPowerKw * dischargeTaper * dischargeTemp * dischargeVolts;
  }

  private stepPcs(dtS: number): void {
    const watchdogMs = this.settings.watchdog_time * 1000;
    if (
      watchdogMs > 0 &&
      this.lastSetpointWriteTs !== null &&
      !this.watchdogExpired &&
      this.ts - this.lastSetpointWriteTs >= watchdogMs
    ) {
      // Communication lost: the PCS stops taking the last order and holds 0 kW until written again.
      this.watchdogExpired = true;
      this.setpointKw = 0;
    }
    if (!this.pcsFault && this.moduleTempC >= PCS_TEMP.trip) this.latchPcsFault('over_temperature');

    const derate =
      this.moduleTempC <= PCS_TEMP.derateFrom
        ? 1
        : Math.max(
            0.3,
            1 - (0.7 * (this.moduleTempC - PCS_TEMP.derateFrom)) / (PCS_TEMP.derateTo - PCS_TEMP.derateFrom),
          );
    const maxDischarge = Math.min(this.pcsRatingKw, this.settings.max_discharge_power, this.dischargeLimitKw) * derate;
    const maxCharge = Math.min(this.pcsRatingKw, this.settings.max_charge_power, this.chargeLimitKw) * derate;

    if (this.pcsFault || !this.started) {
      // A trip or a stop opens the AC breaker: the power is gone at once, not ramped.
      this.targetKw = 0;
      this.pcsPowerKw = 0;
    } else {
      // Under local control the PCS takes no remote setpoint and runs at 0 kW.
      const wanted = this.controlMode === 'remote' ? this.setpointKw : 0;
      this.targetKw = clamp(wanted, -maxCharge, maxDischarge);
      // Limits that fall below the present power cut it at once; otherwise the power ramps.
      const power = clamp(this.pcsPowerKw, -maxCharge, maxDischarge);
      const step = this.settings.ramp_rate * dtS;
      this.pcsPowerKw = power + clamp(this.targetKw - power, -step, step);
    }
    const p = this.pcsPowerKw;
    // the conversion loses a little more away from 25 °C (only with the days' own weather: else it is the rated one)
    const efficiency =
      this.weatherSeed === null ? this.efficiency : this.efficiency - 0.001 * Math.abs(this.ambientC - 25);
    this.dcPowerKw = p > 0 ? p / efficiency : p * efficiency;
    if (p > 0) this.dischargeKwh += (p * dtS) / 3600;
    else this.chargeKwh += (-p * dtS) / 3600;

    const load = Math.abs(p) / this.pcsRatingKw;
    const coolingTarget = this.ambientC + 35 * load;
    if (dtS > 0) this.moduleTempC = lag(this.moduleTempC, coolingTarget, dtS, 300);
    if (dtS > 0) {
      this.frequencyNoise = wander(this.random, this.frequencyNoise, dtS, 30, 0.01);
      this.acVoltageNoise = this.acVoltageNoise.map((value) => wander(this.random, value, dtS, 60, 1.5));
    }
  }

  private stepBattery(dtS: number): void {
    const delta = (this.dcPowerKw * dtS) / 3600;
    this.energyKwh = clamp(this.energyKwh - delta, 0, this.usableKwh);
    this.soh = Math.max(1, this.soh - (SOH_LOSS_PER_CYCLE * Math.abs(delta)) / (2 * this.capacityKwh));
    this.energyKwh = Math.min(this.energyKwh, this.usableKwh);

    const currentShare = Math.abs(this.dcPowerKw) / this.bmsMaxPowerKw;
    if (dtS > 0) this.cellTempC = lag(this.cellTempC, this.ambientC + 12 * currentShare ** 2, dtS, 3600);
    this.cellShuffleInS -= dtS;
    if (this.cellShuffleInS <= 0) {
      this.cellShuffleInS = CELL_SHUFFLE_S;
      const pick = () => Math.floor(this.random.next() * 3);
      this.cellPick = { high: pick(), low: pick(), hot: pick(), cold: pick() };
    }
  }

  private stepMeter(dtS: number): void {
    const grid = this.gridKw;
    if (grid > 0) this.importKwh += (grid * dtS) / 3600;
    else this.exportKwh += (-grid * dtS) / 3600;
    if (dtS > 0) this.meterVoltageNoise = this.meterVoltageNoise.map((value) => wander(this.random, value, dtS, 60, 1));
  }

  // ---- derived values ---------------------------------------------------------------------------------------

  get soc(): number {
    return (this.energyKwh / this.usableKwh) * 100;
  }

  /** Grid power at the point of connection: the load less what PV and the battery supply. */
  get gridKw(): number {
    return this.loadKw - this.pvPowerKw - this.pcsPowerKw;
  }

  get bmsFault(): boolean {
    return this.injectedBmsAlarms.size > 0;
  }

  get pcsState(): PcsState {
    if (this.pcsFault) return 'fault';
    if (!this.started) return 'stop';
    if (this.pcsPowerKw > IDLE_KW) return 'discharging';
    if (this.pcsPowerKw < -IDLE_KW) return 'charging';
    return 'standby';
  }

  private get packVolts(): number {
    return this.cellCount * this.cellVolts;
  }

  /** Mean cell terminal voltage: open-circuit voltage less the drop across the cell's resistance. */
  private get cellVolts(): number {
    const ocv = openCircuitVolts(this.soc);
    const packCurrent = (this.dcPowerKw * 1000) / (this.cellCount * ocv);
    return ocv - packCurrent * this.cellOhms;
  }

  /**
   * The highest and lowest cell voltages and temperatures with their cells. The spread widens near full and
   * empty and with current; there the weak cell leads (highest while charging high, lowest when low).
   */
  private cellExtremes() {
    const soc = this.soc;
    const mean = this.cellVolts;
    const currentShare = Math.abs(this.dcPowerKw) / this.bmsMaxPowerKw;
    const edge = Math.max(0, (soc - 92) / 8, (8 - soc) / 8);
    const spread = 0.008 + 0.06 * edge ** 2 + 0.01 * currentShare;
    const nearFull = soc > 92 || (soc > 80 && this.dcPowerKw < -IDLE_KW);
    const nearEmpty = soc < 8 || (soc < 20 && this.dcPowerKw > IDLE_KW);
    const tempRise = 1.5 + 2 * currentShare;
    return {
      maxVolts: mean + spread * 0.6,
      maxId: nearFull ? this.weakCell : this.cellPools.high[this.cellPick.high]!,
      minVolts: mean - spread * 0.4,
      minId: nearEmpty ? this.weakCell : this.cellPools.low[this.cellPick.low]!,
      maxTempC: this.cellTempC + tempRise,
      maxTempId: this.cellPools.hot[this.cellPick.hot]!,
      minTempC: this.cellTempC - 1 - 0.5 * currentShare,
      minTempId: this.cellPools.cold[this.cellPick.cold]!,
    };
  }

  private bmsAlarms(): BmsAlarm[] {
    const cells = this.cellExtremes();
    const raised = new Set(this.injectedBmsAlarms);
    if (cells.maxVolts >= CELL.overVolts) raised.add('cell_over_voltage');
    if (cells.minVolts <= CELL.underVolts) raised.add('cell_under_voltage');
    if (cells.maxTempC >= CELL.overTempC) raised.add('over_temperature');
    if (cells.minTempC <= CELL.underTempC) raised.add('under_temperature');
    return BMS_ALARMS.filter((alarm) => raised.has(alarm));
  }

  private get bmsState(): BmsState {
    if (this.bmsFault) return 'fault';
    if (this.dcPowerKw > IDLE_KW) return 'discharging';
    if (this.dcPowerKw < -IDLE_KW) return 'charging';
    return 'idle';
  }

  private get pvState(): PvState {
    if (!this.pvEnabled) return 'shutdown';
    if (this.pvAvailableKw < 0.002 * this.pvRatedKw) return 'waiting';
    if (this.pvPowerKw < this.pvAvailableKw - IDLE_KW) return 'derated';
    return 'running';
  }

  // ---- control ----------------------------------------------------------------------------------------------

  /** A setpoint write (over Modbus or the control API): refreshes the watchdog. */
  writeSetpoint(kw: number): void {
    if (!Number.isFinite(kw)) throw new Error('setpoint must be a number');
    this.setpointKw = kw;
    this.lastSetpointWriteTs = this.ts;
    this.watchdogExpired = false;
    this.settle();
  }

  /** start, stop or fault_reset; false when refused (start while faulted, reset while the cause remains). */
  pcsCommand(command: PcsCommand): boolean {
    switch (command) {
      case 'start':
        if (this.pcsFault) return false;
        this.started = true;
        break;
      case 'stop':
        this.started = false;
        break;
      case 'fault_reset':
        if (!this.pcsFault) return true;
        if (this.pcsFaultCause || (this.pcsFault === 'over_temperature' && this.moduleTempC >= PCS_TEMP.resetBelow))
          return false;
        this.pcsFault = null;
        break;
    }
    this.settle();
    return true;
  }

  setControlMode(mode: PcsControlMode): void {
    this.controlMode = mode;
    this.settle();
  }

  get pcsControlMode(): PcsControlMode {
    return this.controlMode;
  }

  setPcsSetting(key: PcsSettingKey, value: number): void {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${key} must be a number ≥ 0`);
    this.settings[key] = key === 'watchdog_time' ? Math.round(value) : value;
    this.settle();
  }

  /** Trips the PCS: it delivers nothing until the cause is cleared and the fault reset. */
  injectPcsFault(kind: PcsFaultKind = 'internal'): void {
    this.pcsFaultCause = kind;
    // An over-temperature trip is what an overheated module does: let it be hot.
    if (kind === 'over_temperature') this.moduleTempC = Math.max(this.moduleTempC, PCS_TEMP.trip + 2);
    this.latchPcsFault(kind);
    this.settle();
  }

  /** Removes the cause and resets the PCS, as a technician on site would; it resumes if it was started. */
  clearPcsFault(): void {
    this.pcsFaultCause = null;
    if (this.pcsFault === 'over_temperature') this.moduleTempC = Math.min(this.moduleTempC, PCS_TEMP.warning - 5);
    this.pcsFault = null;
    this.settle();
  }

  private latchPcsFault(kind: PcsFaultKind): void {
    this.pcsFault = kind;
    this.pcsPowerKw = 0;
  }

  /** Raises a BMS alarm as a fault: the contactors open and both limits fall to 0. */
  injectBmsFault(alarm: BmsAlarm = 'insulation'): void {
    this.injectedBmsAlarms.add(alarm);
    this.settle();
  }

  /** Clears one injected BMS alarm, or all of them. */
  clearBmsFault(alarm?: BmsAlarm): void {
    if (alarm) this.injectedBmsAlarms.delete(alarm);
    else this.injectedBmsAlarms.clear();
    this.settle();
  }

  setSoc(soc: number): void {
    if (!Number.isFinite(soc)) throw new Error('soc must be a number');
    this.energyKwh = (clamp(soc, 0, 100) / 100) * this.usableKwh;
    this.settle();
  }

  /** Adds kW to the load (a step; negative sheds load). */
  addLoad(kw: number): void {
    if (!Number.isFinite(kw)) throw new Error('kw must be a number');
    this.loadStepKw += kw;
    this.settle();
  }

  /** A fixed load replacing the daily profile; null returns to the profile. Clears any step. */
  setLoad(kw: number | null): void {
    if (kw !== null && !(Number.isFinite(kw) && kw >= 0)) throw new Error('kw must be a number ≥ 0 or null');
    this.loadOverrideKw = kw;
    this.loadStepKw = 0;
    this.settle();
  }

  setPvEnabled(enabled: boolean): void {
    this.pvEnabled = enabled;
    this.settle();
  }

  setPvLimit(pct: number): void {
    if (!Number.isFinite(pct)) throw new Error('limit must be a number');
    this.pvLimitPct = clamp(pct, 0, 100);
    this.settle();
  }

  /**
   * Recomputes what follows from a change made between steps (limits, balance) without moving time, so that
   * registers read right after an action already show it.
   */
  private settle(): void {
    this.step(0);
  }

  // ---- reading ----------------------------------------------------------------------------------------------

  snapshot(): EssSiteSnapshot {
    const cells = this.cellExtremes();
    const packVolts = this.packVolts;
    const alarms = this.bmsAlarms();
    const lineCurrent = (kw: number, kvar: number, volts: number) => (Math.hypot(kw, kvar) * 1000) / (3 * volts);
    const pcsAcVoltage = this.acVoltageNoise.map((noise) => LINE_VOLTS + noise) as [number, number, number];
    const pcsCurrent = lineCurrent(this.pcsPowerKw, 0, LINE_VOLTS / Math.sqrt(3));
    const grid = this.gridKw;
    const reactive = this.loadKw * LOAD_TAN_PHI;
    const meterVoltage = this.meterVoltageNoise.map((noise) => PHASE_VOLTS + noise) as [number, number, number];
    const apparent = Math.hypot(grid, reactive);
    return {
      ts: this.ts,
      timeZone: this.zone.timeZone,
      loadKw: this.loadKw,
      loadOverrideKw: this.loadOverrideKw,
      loadStepKw: this.loadStepKw,
      loadKwh: this.loadKwh,
      pcs: {
        state: this.pcsState,
        controlMode: this.controlMode,
        started: this.started,
        setpointKw: this.setpointKw,
        targetKw: this.targetKw,
        powerKw: this.pcsPowerKw,
        ratingKw: this.pcsRatingKw,
        settings: { ...this.settings },
        lastSetpointWriteTs: this.lastSetpointWriteTs,
        watchdogExpired: this.watchdogExpired,
        fault: this.pcsFault,
        faultCause: this.pcsFaultCause,
        overTemperature: this.moduleTempC >= PCS_TEMP.warning,
        moduleTempC: this.moduleTempC,
        dcVoltage: packVolts,
        dcCurrentA: (this.dcPowerKw * 1000) / packVolts,
        acVoltage: pcsAcVoltage,
        acCurrentA: [pcsCurrent, pcsCurrent, pcsCurrent],
        frequencyHz: 50 + this.frequencyNoise,
        chargeKwh: this.chargeKwh,
        dischargeKwh: this.dischargeKwh,
      },
      bms: {
        state: this.bmsState,
        soc: this.soc,
        soh: this.soh,
        capacityKwh: this.capacityKwh,
        energyKwh: this.energyKwh,
        dcPowerKw: this.dcPowerKw,
        packVoltage: packVolts,
        packCurrentA: (this.dcPowerKw * 1000) / packVolts,
        maxCellMv: cells.maxVolts * 1000,
        maxCellId: cells.maxId,
        minCellMv: cells.minVolts * 1000,
        minCellId: cells.minId,
        maxCellTempC: cells.maxTempC,
        maxCellTempId: cells.maxTempId,
        minCellTempC: cells.minTempC,
        minCellTempId: cells.minTempId,
        chargeLimitKw: this.chargeLimitKw,
        dischargeLimitKw: this.dischargeLimitKw,
        fault: this.bmsFault,
        alarms,
        injected: BMS_ALARMS.filter((alarm) => this.injectedBmsAlarms.has(alarm)),
      },
      meter: {
        gridKw: grid,
        reactiveKvar: reactive,
        powerFactor: apparent < 1e-6 ? 1 : grid / apparent,
        voltage: meterVoltage,
        currentA: meterVoltage.map((volts) => lineCurrent(grid, reactive, volts)) as [number, number, number],
        frequencyHz: 50 + this.frequencyNoise,
        importKwh: this.importKwh,
        exportKwh: this.exportKwh,
      },
      pv: this.hasPv
        ? {
            state: this.pvState,
            ratedKw: this.pvRatedKw,
            enabled: this.pvEnabled,
            availableKw: this.pvAvailableKw,
            powerKw: this.pvPowerKw,
            limitPct: this.pvLimitPct,
            dailyYieldKwh: this.pvDailyKwh,
            totalYieldKwh: this.pvTotalKwh,
          }
        : null,
    };
  }
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) throw new Error(`${name} must be a number > 0, got ${value}`);
  return value;
}
