// Readings and times of the live pages: the protocol's decimals, the interface language's digits, "—"
// when the controller has no reading.
import dayjs from 'dayjs';
import { storedLanguage } from '../../i18n/languages.ts';
import { localUnit } from '../../components/format.ts';

export const NO_READING = '—';

const formats = new Map<string, Intl.NumberFormat>();

export function formatReading(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_READING;
  const key = `${storedLanguage()}:${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(storedLanguage(), {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formats.set(key, format);
  }
  return format.format(value);
}

/** "1,500 r/min" ("1 500 об/мин" in Russian). */
export function formatWithUnit(value: number | null | undefined, decimals: number, unit: string): string {
  const text = formatReading(value, decimals);
  return text === NO_READING || !unit ? text : `${text} ${localUnit(unit)}`;
}

export function formatTime(ts: number | null | undefined): string {
  return ts ? dayjs(ts).format('YYYY-MM-DD HH:mm:ss') : NO_READING;
}

/** "3 h 12 min", "45 s": how long an alarm has lasted. */
export function durationParts(ms: number): { d: number; h: number; m: number; s: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return {
    d: Math.floor(total / 86_400),
    h: Math.floor((total % 86_400) / 3600),
    m: Math.floor((total % 3600) / 60),
    s: total % 60,
  };
}
