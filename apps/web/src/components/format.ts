// Numbers and times as the console shows them: in the interface language, with a unit, and "—" when unknown.
import dayjs from 'dayjs';
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

/** "12.5 kW"; units are symbols and stay as they are in every language. */
export function formatValue(value: number | null | undefined, unit: string, decimals = 1): string {
  const text = formatNumber(value, decimals);
  if (text === NONE || !unit) return text;
  // Degrees and percent sit right after the number.
  return unit === '°' || unit === '%' ? `${text}${unit}` : `${text} ${unit}`;
}

export function formatDateTime(ts: number | null | undefined, seconds = false): string {
  return ts ? dayjs(ts).format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : NONE;
}

export function formatDate(ts: number | null | undefined): string {
  return ts ? dayjs(ts).format('YYYY-MM-DD') : NONE;
}
