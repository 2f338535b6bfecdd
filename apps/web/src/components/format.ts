// The console's one formatter of numbers, units, sizes, dates and times: all in the interface language through
// Intl ("12,5 кВт", "28.11.2026, 14:05"), units written the language's way, "—" when unknown. A time in a set's
// own time zone always names that zone ("14:05 GMT+8"), so it is never mistaken for the reader's.
import { unitIn } from '@genset/protocol';
import { storedLanguage } from '../i18n/languages.ts';

export const NONE = '—';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

const known = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

/** Up to `decimals` decimals, trailing zeros left out: "12.5", "12,5", "1 500". */
export function formatNumber(value: number | null | undefined, decimals = 1): string {
  if (!known(value)) return NONE;
  const lang = storedLanguage();
  return cached(
    `n:${lang}:${decimals}`,
    () => new Intl.NumberFormat(lang, { maximumFractionDigits: decimals, minimumFractionDigits: 0 }),
  ).format(value);
}

/** Exactly `decimals` decimals, as a controller shows a reading or a setting: "23.40", "23,40". */
export function formatFixed(value: number | null | undefined, decimals: number): string {
  if (!known(value)) return NONE;
  const lang = storedLanguage();
  return cached(
    `f:${lang}:${decimals}`,
    () => new Intl.NumberFormat(lang, { maximumFractionDigits: decimals, minimumFractionDigits: decimals }),
  ).format(value);
}

/** The interface language's decimal sign ("." or ","), for inputs that take numbers as it writes them. */
export function decimalSeparator(): string {
  const lang = storedLanguage();
  return (
    cached(`sep:${lang}`, () => new Intl.NumberFormat(lang))
      .formatToParts(1.5)
      .find((p) => p.type === 'decimal')?.value ?? '.'
  );
}

/** A unit symbol as the interface language writes it: "kW" stays "kW", but is "кВт" in Russian. */
export function localUnit(unit: string): string {
  return unit ? unitIn(storedLanguage(), unit) : unit;
}

/**
 * Free text that writes numbers with their units, as on a rating plate ("3500 × 1500 × 2000 mm"): each unit
 * symbol right after a number is written the interface language's way ("3500 × 1500 × 2000 мм" in Russian);
 * everything else, and symbols the table does not know, stay as typed.
 */
export function localUnitsInText(text: string): string {
  const lang = storedLanguage();
  return text.replace(/(\d\s?)([A-Za-zΩ][A-Za-zΩ/·²³]*)(?![\p{L}\d])/gu, (_, number: string, unit: string) => {
    return `${number}${unitIn(lang, unit)}`;
  });
}

/** A number written with its unit: degrees and percent sit right after it, other units after a space. */
export function withUnitText(text: string, unit: string | null | undefined): string {
  if (text === NONE || !unit) return text;
  return unit === '°' || unit === '%' ? `${text}${unit}` : `${text} ${localUnit(unit)}`;
}

/** "12.5 kW" ("12,5 кВт" in Russian). */
export function formatValue(value: number | null | undefined, unit: string, decimals = 1): string {
  return withUnitText(formatNumber(value, decimals), unit);
}

/** "Power (kW)": a name with its unit, when it has one. */
export function withUnit(name: string, unit: string | null | undefined): string {
  return unit ? `${name} (${localUnit(unit)})` : name;
}

/** A dial's scale mark: whole thousands and more in the language's short form ("1,5 тыс.", "1.5K"). */
export function formatTick(value: number): string {
  const lang = storedLanguage();
  if (Math.abs(value) < 1000) return formatNumber(value, 1);
  return cached(
    `c:${lang}`,
    () => new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }),
  ).format(value);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A file's size in the largest unit it fills, in the language's words: "1.5 MB", "1,5 МБ". */
export function formatBytes(bytes: number | null | undefined): string {
  if (!known(bytes)) return NONE;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const lang = storedLanguage();
  return cached(
    `b:${lang}:${unit}`,
    () =>
      new Intl.NumberFormat(lang, {
        style: 'unit',
        unit: BYTE_UNITS[unit],
        unitDisplay: 'short',
        maximumFractionDigits: unit === 0 ? 0 : 1,
      }),
  ).format(value);
}

/** A valid IANA zone, else undefined (the reader's own). */
function validZone(timeZone: string | null | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

interface MomentOptions {
  /** Show the seconds. */
  seconds?: boolean;
  /** Show the date (default) or the time of day only. */
  date?: boolean;
  /** A set's or station's zone: the moment is shown there, with the zone named. Absent: the reader's zone. */
  timeZone?: string | null | undefined;
}

/** A moment in the interface language: "11/28/2026, 14:05", "28.11.2026, 14:05", "2026/11/28 14:05". */
export function formatMoment(ts: number | null | undefined, options: MomentOptions = {}): string {
  if (!ts) return NONE;
  const lang = storedLanguage();
  const zone = validZone(options.timeZone);
  const named = options.timeZone !== undefined && options.timeZone !== null;
  const withDate = options.date !== false;
  const key = `d:${lang}:${zone ?? ''}:${named}:${withDate}:${options.seconds === true}`;
  return cached(
    key,
    () =>
      new Intl.DateTimeFormat(lang, {
        ...(withDate ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
        hour: 'numeric',
        minute: '2-digit',
        ...(options.seconds ? { second: '2-digit' } : {}),
        ...(zone ? { timeZone: zone } : {}),
        ...(named ? { timeZoneName: 'short' } : {}),
      }),
  ).format(ts);
}

/** The reader's own zone (IANA), for clocks that name the zone they show. */
export function readerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Date and time in the reader's zone (or the zone given, named). */
export function formatDateTime(
  ts: number | null | undefined,
  seconds = false,
  timeZone?: string | null | undefined,
): string {
  return formatMoment(ts, { seconds, timeZone });
}

/** The calendar day in the interface language: "11/28/2026", "28.11.2026". */
export function formatDate(ts: number | null | undefined): string {
  if (!ts) return NONE;
  const lang = storedLanguage();
  return cached(
    `day:${lang}`,
    () => new Intl.DateTimeFormat(lang, { year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(ts);
}
