// Readings and times of the live pages, through the console's one formatter: the protocol's decimals, the
// interface language's digits, "—" when the controller has no reading.
import { formatFixed, formatMoment, NONE, withUnitText } from '../../components/format.ts';

export const NO_READING = NONE;

export function formatReading(value: number | null | undefined, decimals: number): string {
  return formatFixed(value, decimals);
}

/** "1,500 r/min" ("1 500 об/мин" in Russian). */
export function formatWithUnit(value: number | null | undefined, decimals: number, unit: string): string {
  return withUnitText(formatReading(value, decimals), unit);
}

/** Date and time with seconds; in a set's zone (named) when one is given. */
export function formatTime(ts: number | null | undefined, timeZone?: string | null): string {
  return formatMoment(ts, { seconds: true, timeZone });
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
