// Numbers and times as the console shows them: in the interface language, with a unit, and "—" when unknown.
import dayjs from 'dayjs';
import { unitIn } from '@genset/protocol';
import { storedLanguage } from '../i18n/languages.ts';

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(decimals: number): Intl.NumberFormat {
  const key = `${storedLanguage()}:${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(storedLanguage(), { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
    formats.set(key, format);
  }
  return format;
}

export const NONE = '—';

export function formatNumber(value: number | null | undefined, decimals = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? NONE : numberFormat(decimals).format(value);
}

/** A unit symbol as the interface language writes it: "kW" stays "kW", but is "кВт" in Russian. */
export function localUnit(unit: string): string {
  return unit ? unitIn(storedLanguage(), unit) : unit;
}

/** "12.5 kW" ("12,5 кВт" in Russian). */
export function formatValue(value: number | null | undefined, unit: string, decimals = 1): string {
  const text = formatNumber(value, decimals);
  if (text === NONE || !unit) return text;
  // Degrees and percent sit right after the number.
  return unit === '°' || unit === '%' ? `${text}${unit}` : `${text} ${localUnit(unit)}`;
}

/** "Power (kW)": a name with its unit, when it has one. */
export function withUnit(name: string, unit: string | null | undefined): string {
  return unit ? `${name} (${localUnit(unit)})` : name;
}

export function formatDateTime(ts: number | null | undefined, seconds = false): string {
  return ts ? dayjs(ts).format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : NONE;
}

export function formatDate(ts: number | null | undefined): string {
  return ts ? dayjs(ts).format('YYYY-MM-DD') : NONE;
}
