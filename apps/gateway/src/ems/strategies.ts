// The decisions of a station's EMS cycle as pure functions of one snapshot of measurements: what each strategy
// wants, the grid limits that bend any strategy (reverse power, demand limit), and the safety clamp that nothing
// overrides (BMS limits, PCS rating, SOC cut-offs). Signs: setpoint and PCS power > 0 discharge, < 0 charge;
// grid power > 0 import.
import {
  periodAt,
  type EmsDemandResponse,
  type EmsStatus,
  type EmsStrategyParams,
  type EmsTactic,
  type PriceTemplateBody,
} from '@genset/protocol';

/** One cycle's readings, in engineering units; PV is there only when the tactic names its roles. */
export interface EmsMeasurements {
  gridPowerKw: number;
  pcsPowerKw: number;
  pcsRatingKw: number;
  soc: number;
  bmsChargeLimitKw: number;
  bmsDischargeLimitKw: number;
  pvPowerKw?: number | undefined;
  /** The PV inverter's output limit now, % of its rating (present when the tactic can curtail PV). */
  pvLimitPct?: number | undefined;
}

export type EmsLimit = NonNullable<EmsStatus['limitedBy']>;

/**
 * Which directions the SOC cut-offs have stopped. A stopped direction resumes only once the SOC has moved
 * `socMargin` back from its cut-off, so the battery does not start and stop around it on every cycle.
 */
export interface SocLatch {
  chargeStopped: boolean;
  dischargeStopped: boolean;
}

export const SOC_LATCH_OPEN: SocLatch = { chargeStopped: false, dischargeStopped: false };

/** Below this (kW) a setpoint is 0: the PCS's own resolution, and no point in hunting around zero. */
const ZERO_KW = 0.05;
/** A change of the PV limit smaller than this (percentage points) is not written. */
const PV_STEP_PCT = 1;
/** When the PV inverter produces nothing to estimate its rating from, its limit rises by this much per cycle. */
const PV_RELEASE_STEP_PCT = 10;

type CutOffs = Pick<PriceTemplateBody, 'chargeCutoffSoc' | 'dischargeCutoffSoc' | 'socMargin'>;

export function socLatch(previous: SocLatch, soc: number, template: CutOffs): SocLatch {
  const { chargeCutoffSoc, dischargeCutoffSoc, socMargin } = template;
  let { chargeStopped, dischargeStopped } = previous;
  if (soc >= chargeCutoffSoc) chargeStopped = true;
  else if (soc <= chargeCutoffSoc - socMargin) chargeStopped = false;
  if (soc <= dischargeCutoffSoc) dischargeStopped = true;
  else if (soc >= dischargeCutoffSoc + socMargin) dischargeStopped = false;
  return { chargeStopped, dischargeStopped };
}

/** What the site would import with the battery at 0 kW: the load the battery sees (grid + battery output). */
export function siteBaseKw(m: Pick<EmsMeasurements, 'gridPowerKw' | 'pcsPowerKw'>): number {
  return m.gridPowerKw + m.pcsPowerKw;
}

/** Time of use: charge at the template's power in valley (and flat if chargeInFlat), discharge in sharp and peak. */
export function timeOfUseKw(template: PriceTemplateBody, minuteOfDay: number): number {
  const period = periodAt(template.ranges, minuteOfDay);
  if (period === 'sharp' || period === 'peak') return template.powerKw;
  if (period === 'valley' || (period === 'flat' && template.chargeInFlat)) return -template.powerKw;
  return 0;
}

/**
 * Peak shaving: discharge whatever import exceeds the demand limit; below the limit, recharge (at most the
 * template's power) only with what stays `rechargeHeadroomKw` under it, so recharging never lifts import over it.
 */
export function peakShavingKw(
  m: Pick<EmsMeasurements, 'gridPowerKw' | 'pcsPowerKw'>,
  template: PriceTemplateBody,
  params: EmsStrategyParams,
): number {
  const base = siteBaseKw(m);
  const limit = template.demandControl.limitKw;
  if (base > limit) return base - limit;
  const room = limit - (params.rechargeHeadroomKw ?? 0) - base;
  return room > 0 ? -Math.min(template.powerKw, room) : 0;
}

/** Capacity expansion: the battery covers what the site would import above the transformer's capacity. */
export function capacityExpansionKw(
  m: Pick<EmsMeasurements, 'gridPowerKw' | 'pcsPowerKw'>,
  params: EmsStrategyParams,
): number {
  if (params.transformerKw === undefined) return 0;
  return Math.max(0, siteBaseKw(m) - params.transformerKw);
}

/** The strategy's wish, before any limit. */
export function strategyKw(
  m: EmsMeasurements,
  tactic: Pick<EmsTactic, 'strategy' | 'params' | 'template'>,
  minuteOfDay: number,
): number {
  switch (tactic.strategy) {
    case 'timeOfUse':
      return timeOfUseKw(tactic.template, minuteOfDay);
    case 'peakShaving':
      return peakShavingKw(m, tactic.template, tactic.params);
    case 'capacityExpansion':
      return capacityExpansionKw(m, tactic.params);
    case 'idle':
      return 0;
  }
}

export interface Limited {
  kw: number;
  limitedBy?: EmsLimit | undefined;
}

/**
 * The grid limits of the template, from the import expected once the setpoint applies (grid − (new − PCS now)):
 * the demand limit (never charge above it, discharge to hold it) and reverse-power protection (import stays
 * ≥ marginKw: discharge shrinks, down to 0; PV curtailment does the rest). Reverse power is applied last.
 */
export function gridLimits(kw: number, m: EmsMeasurements, template: PriceTemplateBody): Limited {
  const base = siteBaseKw(m);
  let limitedBy: EmsLimit | undefined;
  if (template.demandControl.enabled) {
    const least = base - template.demandControl.limitKw;
    if (kw < least) {
      kw = least;
      limitedBy = 'demandLimit';
    }
  }
  if (template.reversePower.enabled && kw > 0) {
    const most = Math.max(0, base - template.reversePower.marginKw);
    if (kw > most) {
      kw = most;
      limitedBy = 'reversePower';
    }
  }
  return { kw, limitedBy };
}

/** The safety clamp: BMS charge and discharge limits, PCS rating, and the SOC cut-offs (with their latch). */
export function safetyClamp(kw: number, m: EmsMeasurements, latch: SocLatch): Limited {
  const rating = nonNegative(m.pcsRatingKw);
  const bmsDischarge = nonNegative(m.bmsDischargeLimitKw);
  const bmsCharge = nonNegative(m.bmsChargeLimitKw);
  if (kw > 0) {
    if (latch.dischargeStopped) return { kw: 0, limitedBy: 'soc' };
    const most = Math.min(rating, bmsDischarge);
    if (kw > most) return { kw: most, limitedBy: bmsDischarge <= rating ? 'bms' : 'rating' };
  } else if (kw < 0) {
    if (latch.chargeStopped) return { kw: 0, limitedBy: 'soc' };
    const most = Math.min(rating, bmsCharge);
    if (-kw > most) return { kw: -most, limitedBy: bmsCharge <= rating ? 'bms' : 'rating' };
  }
  return { kw };
}

/**
 * The PV limit (%) that keeps import ≥ the reverse-power margin once `setpointKw` applies, or undefined when the
 * present limit may stay. Curtails only while the battery is not discharging (a discharging battery gives way
 * first); releases towards 100 % as far as the margin allows. The inverter's rating is estimated from its output
 * at its present limit, which can only underestimate it: a curtailment then falls short and goes further on the
 * next cycle, never deeper than needed.
 */
export function pvLimitFor(setpointKw: number, m: EmsMeasurements, template: PriceTemplateBody): number | undefined {
  const pct = m.pvLimitPct;
  if (pct === undefined || m.pvPowerKw === undefined || !template.reversePower.enabled) return undefined;
  const pv = Math.max(0, m.pvPowerKw);
  const expectedImport = siteBaseKw(m) - setpointKw;
  const shortfall = template.reversePower.marginKw - expectedImport;
  const ratingEstimate = pct > 0 && pv > 0 ? pv / (pct / 100) : undefined;
  let next = pct;
  if (shortfall > 0) {
    if (setpointKw > ZERO_KW || !ratingEstimate) return undefined;
    next = ((pv - shortfall) / ratingEstimate) * 100;
  } else if (pct < 100) {
    next = ratingEstimate ? ((pv - shortfall) / ratingEstimate) * 100 : pct + PV_RELEASE_STEP_PCT;
  }
  next = Math.min(100, Math.max(0, next));
  if (Math.abs(next - pct) < PV_STEP_PCT && !(next === 100 && pct < 100) && !(next === 0 && pct > 0)) {
    return undefined;
  }
  return Math.round(next * 10) / 10;
}

export interface EmsDecisionInput {
  measurements: EmsMeasurements;
  tactic: Pick<EmsTactic, 'strategy' | 'params' | 'template'>;
  /** Minute of the day on the station's wall clock (tariff periods). */
  minuteOfDay: number;
  /** The demand-response event in force now, if any. */
  demandResponse?: EmsDemandResponse | undefined;
  /** The SOC latch the previous cycle left. */
  latch: SocLatch;
}

export interface EmsDecision {
  setpointKw: number;
  limitedBy?: EmsLimit | undefined;
  /** A new PV output limit to write, when PV must be curtailed or may be released. */
  pvLimitPct?: number | undefined;
  /** The demand-response event delivered. */
  demandResponse?: string | undefined;
  latch: SocLatch;
}

/**
 * One cycle's decision: the strategy's wish (or an active demand-response event's kW, which overrides the
 * strategy and the grid limits), bent by the grid limits, then clamped for safety, then the PV limit.
 */
export function decide(input: EmsDecisionInput): EmsDecision {
  const { measurements: m, tactic } = input;
  const latch = socLatch(input.latch, m.soc, tactic.template);
  const event = input.demandResponse;
  let wish: Limited;
  if (event) {
    wish = { kw: event.kw };
  } else {
    wish = gridLimits(strategyKw(m, tactic, input.minuteOfDay), m, tactic.template);
  }
  const safe = safetyClamp(wish.kw, m, latch);
  const setpointKw = Math.abs(safe.kw) < ZERO_KW ? 0 : roundKw(safe.kw);
  const pvLimitPct = event ? undefined : pvLimitFor(setpointKw, m, tactic.template);
  const pvLimitInForce = pvLimitPct ?? m.pvLimitPct;
  const curtailed =
    !event && tactic.template.reversePower.enabled && pvLimitInForce !== undefined && pvLimitInForce < 100;
  const limitedBy = safe.limitedBy ?? (curtailed ? 'pvCurtailed' : wish.limitedBy);
  return {
    setpointKw,
    ...(limitedBy ? { limitedBy } : {}),
    ...(pvLimitPct !== undefined ? { pvLimitPct } : {}),
    ...(event ? { demandResponse: event.id } : {}),
    latch,
  };
}

/** The demand-response event in force at `ts`, the latest-starting one if several overlap. */
export function activeDemandResponse(events: Iterable<EmsDemandResponse>, ts: number): EmsDemandResponse | undefined {
  let active: EmsDemandResponse | undefined;
  for (const event of events) {
    if (event.startTs <= ts && ts < event.endTs && (!active || event.startTs >= active.startTs)) active = event;
  }
  return active;
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function roundKw(kw: number): number {
  return Math.round(kw * 1000) / 1000;
}
