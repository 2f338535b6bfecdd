// The daily shapes a simulated storage station lives by: the site's wall clock in its time zone, the load of a
// commercial site over the day, and the clear-sky output of a PV array at the site's latitude and longitude.

const DAY_MS = 86_400_000;
/** Time-zone offsets change at most at quarter hours (UTC); one lookup per quarter hour is enough. */
const OFFSET_BUCKET_MS = 900_000;

export interface LocalTime {
  /** Days since 1970-01-01 on the site's wall clock: changes at local midnight. */
  dayNumber: number;
  /** Minutes since local midnight, with fractions (0 ≤ m < 1440). */
  minuteOfDay: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

/** The wall clock of a time zone, fast enough to ask every simulated second of a backfilled month. */
export class ZoneClock {
  private readonly format: Intl.DateTimeFormat;
  private bucket = Number.NaN;
  private offset = 0;

  /** Throws a RangeError for a time zone the runtime does not know. */
  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Local time minus UTC at an instant, ms. */
  offsetMs(ts: number): number {
    const bucket = Math.floor(ts / OFFSET_BUCKET_MS);
    if (bucket !== this.bucket) {
      const at = bucket * OFFSET_BUCKET_MS;
      const parts: Record<string, number> = {};
      for (const part of this.format.formatToParts(at)) parts[part.type] = Number(part.value);
      const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
      this.bucket = bucket;
      this.offset = local - at;
    }
    return this.offset;
  }

  local(ts: number): LocalTime {
    const localMs = ts + this.offsetMs(ts);
    const dayNumber = Math.floor(localMs / DAY_MS);
    // 1970-01-01 was a Thursday.
    return {
      dayNumber,
      minuteOfDay: (localMs - dayNumber * DAY_MS) / 60_000,
      weekday: (((dayNumber + 4) % 7) + 7) % 7,
    };
  }
}

/**
 * A commercial site's load over a weekday, as the share (0–1) of the way from its night base to its peak, by hour:
 * a flat night, a morning ramp as the day starts, a late-morning/midday peak, an afternoon plateau and an
 * evening peak that falls off towards midnight.
 */
const LOAD_SHAPE: readonly [hour: number, share: number][] = [
  [0, 0.05],
  [5, 0],
  [6, 0.1],
  [8, 0.6],
  [10, 0.85],
  [12, 0.95],
  [13, 0.8],
  [15, 0.75],
  [17, 0.8],
  [19, 1],
  [21, 0.7],
  [23, 0.2],
  [24, 0.05],
];
/** Weekends run at this share of a weekday's swing above the base. */
const WEEKEND_SHARE = 0.6;

/** The load shape's share at a local time (linear between the hours above). */
export function loadShare(local: LocalTime): number {
  const hour = local.minuteOfDay / 60;
  let share = 0;
  for (let i = 1; i < LOAD_SHAPE.length; i++) {
    const [h1, s1] = LOAD_SHAPE[i]!;
    if (hour <= h1) {
      const [h0, s0] = LOAD_SHAPE[i - 1]!;
      share = s0 + ((s1 - s0) * (hour - h0)) / (h1 - h0);
      break;
    }
  }
  return local.weekday === 0 || local.weekday === 6 ? share * WEEKEND_SHARE : share;
}

const RAD = Math.PI / 180;

/** The sine of the sun's elevation at an instant and place (declination and equation-of-time approximations). */
export function sunElevationSine(ts: number, latitude: number, longitude: number): number {
  const date = new Date(ts);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((ts - yearStart) / DAY_MS) + 1;
  const declination = 23.44 * RAD * Math.sin((2 * Math.PI * (284 + dayOfYear)) / 365);
  const b = (2 * Math.PI * (dayOfYear - 81)) / 364;
  const equationOfTimeMin = 9.87 * Math.sin(2 * b) - 7.53 * Math.cos(b) - 1.5 * Math.sin(b);
  const utcHours = (ts - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())) / 3_600_000;
  const solarHours = utcHours + longitude / 15 + equationOfTimeMin / 60;
  const hourAngle = 15 * RAD * (solarHours - 12);
  const phi = latitude * RAD;
  return Math.sin(phi) * Math.sin(declination) + Math.cos(phi) * Math.cos(declination) * Math.cos(hourAngle);
}

/** Share of the array's rating a clean array would deliver under a clear sky now. */
const PERFORMANCE_RATIO = 0.85;

/**
 * Clear-sky PV output as a share (0–1) of the array's rating: global horizontal irradiance by the Haurwitz
 * model (1098 · cos z · e^(−0.057 / cos z) W/m²) over 1000 W/m², times a performance ratio; 0 at night.
 */
export function clearSkyPvShare(ts: number, latitude: number, longitude: number): number {
  const cosZenith = sunElevationSine(ts, latitude, longitude);
  if (cosZenith <= 0.01) return 0;
  const irradiance = 1098 * cosZenith * Math.exp(-0.057 / cosZenith);
  return Math.min(1, (irradiance / 1000) * PERFORMANCE_RATIO);
}

/** A number in [0, 1) drawn from a seed and a day: the same pair always gives the same number. */
function dayDraw(seed: number, dayNumber: number, salt: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(dayNumber + salt * 7919, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** One day's weather and demand at a site. */
export interface DayWeather {
  /** Share of clear-sky PV the day's sky lets through: overcast 0.2–0.5 (about a day in four), else 0.7–1. */
  sky: number;
  /** The day's load level against the shape's: the season (more in summer and in winter) and the day's own. */
  load: number;
  /** The day's mean air temperature, °C: the season at the site's latitude and the day's own. */
  ambientC: number;
}

export function dayWeather(seed: number, local: LocalTime, latitude: number): DayWeather {
  const cloudy = dayDraw(seed, local.dayNumber, 1) < 0.25;
  const clearness = dayDraw(seed, local.dayNumber, 2);
  const sky = cloudy ? 0.2 + 0.3 * clearness : 0.7 + 0.3 * clearness;
  // day of the year from the local day number (1970-01-01 is day 0); peaks of demand in midsummer and midwinter
  const dayOfYear = (((local.dayNumber % 365.25) + 365.25) % 365.25) / 365.25;
  const summerPhase = latitude >= 0 ? 0.54 : 0.04;
  const season = 0.06 * Math.cos(4 * Math.PI * (dayOfYear - summerPhase));
  const own = 0.16 * (dayDraw(seed, local.dayNumber, 3) - 0.5);
  const meanC = 27 - 0.3 * Math.abs(latitude);
  const swingC = 10 * Math.cos(2 * Math.PI * (dayOfYear - summerPhase));
  const ambientC = meanC + swingC + 6 * (dayDraw(seed, local.dayNumber, 4) - 0.5) - (cloudy ? 2 : 0);
  return { sky, load: 1 + season + own, ambientC };
}
