// Electricity-price templates of energy-storage stations: the day cut into sharp / peak / flat / valley periods
// (time ranges that cover 24 h without gaps or overlaps), a buy and a sell price per period, and the operating
// figures the edge strategies read (power, SOC cut-offs and margin, reverse-power protection, demand limit).
// Shared by the server (validation, income), the console (editor) and the cloud module (which period it is).
import { z } from 'zod';
import { V } from '../api/checks.ts';

export const PRICE_PERIODS = ['sharp', 'peak', 'flat', 'valley'] as const;
export type PricePeriod = (typeof PRICE_PERIODS)[number];

/** Minutes in a day; a range's end may be 24:00. */
export const DAY_MINUTES = 1440;
/** Largest price per kWh one can enter (any currency). */
export const PRICE_MAX = 100;
/** Largest power of a template or a station, kW. */
export const EMS_POWER_MAX_KW = 1_000_000;
/** Most ranges a day may be cut into. */
export const TARIFF_MAX_RANGES = 48;

/** "HH:MM", 00:00 to 24:00, minutes in steps of 1. */
export const clockTime = () =>
  z.string({ error: V.required }).regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: V.invalid });

/** "HH:MM" as minutes of the day (24:00 is 1440). */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}

export const tariffRange = z.strictObject({
  start: clockTime(),
  end: clockTime(),
  period: z.enum(PRICE_PERIODS, { error: V.invalid }),
});
export type TariffRange = z.infer<typeof tariffRange>;

/**
 * Why a day's ranges do not cover 24 h exactly once, as the index of the offending range and the issue, or
 * null when they do. Ranges may be given in any order; a range that wraps midnight (22:00–06:00) is allowed.
 */
export function tariffRangesProblem(
  ranges: readonly { start: string; end: string }[],
): { index: number; issue: 'empty' | 'overlap' | 'gap' } | null {
  const covered = new Int16Array(DAY_MINUTES).fill(-1);
  for (const [index, r] of ranges.entries()) {
    const start = minutesOf(r.start);
    const end = minutesOf(r.end);
    if (start === end) return { index, issue: 'empty' };
    // 00:00–24:00 is the whole day; a range that wraps midnight runs on into the next day
    const length = end > start ? end - start : end + DAY_MINUTES - start;
    for (let i = 0; i < length; i++) {
      const minute = (start + i) % DAY_MINUTES;
      if (covered[minute] !== -1) return { index, issue: 'overlap' };
      covered[minute] = index;
    }
  }
  const gap = covered.indexOf(-1);
  return gap === -1 ? null : { index: ranges.length, issue: 'gap' };
}

/** The period a minute of the day falls in (the ranges must cover the day: see tariffRangesProblem). */
export function periodAt(ranges: readonly TariffRange[], minuteOfDay: number): PricePeriod {
  for (const r of ranges) {
    const start = minutesOf(r.start);
    const end = minutesOf(r.end);
    const inside = start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
    if (inside) return r.period;
  }
  return 'flat';
}

/** Formatters by time zone: making one costs far more than formatting with it. */
const clockFormats = new Map<string, Intl.DateTimeFormat>();

function clockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clockFormats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of an instant in a time zone: its day (YYYY-MM-DD) and minute of the day (0–1439). */
export function localClock(ts: number, timeZone: string): { day: string; minute: number; second: number } {
  const parts = clockFormat(timeZone).formatToParts(ts);
  let year = '';
  let month = '';
  let day = '';
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const p of parts) {
    if (p.type === 'year') year = p.value;
    else if (p.type === 'month') month = p.value;
    else if (p.type === 'day') day = p.value;
    else if (p.type === 'hour') hour = Number(p.value);
    else if (p.type === 'minute') minute = Number(p.value);
    else if (p.type === 'second') second = Number(p.value);
  }
  return { day: `${year}-${month}-${day}`, minute: hour * 60 + minute, second };
}

const price = () => z.number({ error: V.required }).min(0, { error: V.invalid }).max(PRICE_MAX, { error: V.invalid });
const soc = () => z.number({ error: V.required }).min(0, { error: V.invalid }).max(100, { error: V.invalid });
const kw = () =>
  z.number({ error: V.required }).min(0, { error: V.invalid }).max(EMS_POWER_MAX_KW, { error: V.invalid });

export const periodPrice = z.strictObject({ buy: price(), sell: price() });

/**
 * The body of a price template (one version of it). `ranges`: the day's periods; `prices`: per period, what a
 * kWh bought from the grid costs and what a kWh discharged earns (sold, or saved by not buying it).
 */
export const priceTemplateBody = z
  .strictObject({
    ranges: z
      .array(tariffRange, { error: V.required })
      .min(1, { error: V.required })
      .max(TARIFF_MAX_RANGES, { error: V.invalid }),
    prices: z.strictObject({
      sharp: periodPrice,
      peak: periodPrice,
      flat: periodPrice,
      valley: periodPrice,
    }),
    /** Power the battery charges and discharges with under time of use, kW. */
    powerKw: kw().refine((v) => v > 0, { error: V.invalid }),
    /** Charging stops at this SOC (%). */
    chargeCutoffSoc: soc(),
    /** Discharging stops at this SOC (%). */
    dischargeCutoffSoc: soc(),
    /** SOC band (%) below a cut-off before a stopped direction resumes, so the battery does not hunt. */
    socMargin: z.number({ error: V.required }).min(0, { error: V.invalid }).max(20, { error: V.invalid }),
    /** Also charge in flat periods (not only valley). */
    chargeInFlat: z.boolean().default(false),
    /** Never export to the grid: grid import stays ≥ marginKw. */
    reversePower: z.strictObject({ enabled: z.boolean(), marginKw: kw() }),
    /** Grid import stays ≤ limitKw. */
    demandControl: z.strictObject({ enabled: z.boolean(), limitKw: kw() }),
  })
  .superRefine((t, ctx) => {
    const problem = tariffRangesProblem(t.ranges);
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        path: ['ranges', Math.min(problem.index, t.ranges.length - 1)],
        message: `validation.tariff.${problem.issue}`,
      });
    }
    if (t.dischargeCutoffSoc >= t.chargeCutoffSoc) {
      ctx.addIssue({ code: 'custom', path: ['dischargeCutoffSoc'], message: 'validation.tariff.cutoffsInverted' });
    }
  });
export type PriceTemplateBody = z.infer<typeof priceTemplateBody>;
export type PriceTemplateBodyInput = z.input<typeof priceTemplateBody>;

/**
 * A two-cycle time-of-use day (Shanghai's industrial tariff): charged in the night valley and the midday flat,
 * emptied in the morning and evening peaks. Prices per kWh in the currency of the station.
 */
export const TWO_CYCLE_DAY: { ranges: TariffRange[]; prices: Record<PricePeriod, number> } = {
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '10:00', period: 'flat' },
    { start: '10:00', end: '12:00', period: 'peak' },
    { start: '12:00', end: '14:00', period: 'flat' },
    { start: '14:00', end: '17:00', period: 'peak' },
    { start: '17:00', end: '19:00', period: 'sharp' },
    { start: '19:00', end: '21:00', period: 'peak' },
    { start: '21:00', end: '22:00', period: 'flat' },
    { start: '22:00', end: '24:00', period: 'valley' },
  ],
  prices: { sharp: 1.36, peak: 1.12, flat: 0.67, valley: 0.31 },
};

/** The same price to buy and to sell in each period, scaled (rounded to the cent). */
export function buyAndSell(
  prices: Record<PricePeriod, number>,
  scale = 1,
): Record<PricePeriod, { buy: number; sell: number }> {
  const at = (p: PricePeriod) => Math.round(prices[p] * scale * 100) / 100;
  return {
    sharp: { buy: at('sharp'), sell: at('sharp') },
    peak: { buy: at('peak'), sell: at('peak') },
    flat: { buy: at('flat'), sell: at('flat') },
    valley: { buy: at('valley'), sell: at('valley') },
  };
}
