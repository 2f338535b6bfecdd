// A report's period cut into its six rows: whole days of the set's time zone when the period has six days or
// more (the first rows take a day more when they do not divide evenly), whole hours otherwise.
import { REPORT_ROWS } from '@genset/protocol';
import { startOfDay, zoneOffset } from '../devices/time.ts';
import { daysOf, localTime } from '../history/range.ts';

const HOUR = 3_600_000;

export interface ReportPart {
  start: number;
  /** Exclusive. */
  end: number;
  /** How the row's period reads in the report (the set's local time). */
  label: string;
}

/** Local midnight (epoch ms) that starts the day YYYY-MM-DD in `tz`. */
export function dayStart(date: string, tz: string): number {
  const noonUtc = Date.parse(`${date}T12:00:00Z`);
  return startOfDay(noonUtc - zoneOffset(noonUtc, tz), tz);
}

/** [start, end) of the days `from` to `to` (both included) in `tz`. */
export function periodBounds(from: string, to: string, tz: string): { start: number; end: number } {
  const start = dayStart(from, tz);
  const last = dayStart(to, tz);
  // A local day lasts 23 to 25 hours: 36 hours on is inside the next one.
  return { start, end: startOfDay(last + 36 * HOUR, tz) };
}

/** Sizes of six parts of `total` units, the remainder going to the first parts. */
function shares(total: number): number[] {
  const base = Math.floor(total / REPORT_ROWS);
  const extra = total % REPORT_ROWS;
  return Array.from({ length: REPORT_ROWS }, (_, i) => base + (i < extra ? 1 : 0));
}

function hourLabel(start: number, end: number, tz: string): string {
  const a = localTime(start, tz).slice(0, 16);
  const b = localTime(end, tz).slice(0, 16);
  if (a.slice(0, 10) === b.slice(0, 10)) return `${a} – ${b.slice(11)}`;
  // A part ending at midnight ends with its own day: 24:00 rather than the next day's 00:00.
  if (b.slice(11) === '00:00' && end - start <= 24 * HOUR && localTime(end - 1, tz).slice(0, 10) === a.slice(0, 10))
    return `${a} – 24:00`;
  return `${a.slice(5)} – ${b.slice(5)}`;
}

export function reportParts(from: string, to: string, tz: string): ReportPart[] {
  const { start, end } = periodBounds(from, to, tz);
  const days = daysOf(start, end, tz);
  const parts: ReportPart[] = [];
  if (days.length >= REPORT_ROWS) {
    let index = 0;
    for (const size of shares(days.length)) {
      const first = days[index]!;
      const next = days[index + size];
      const last = days[index + size - 1]!;
      parts.push({
        start: first.start,
        end: next ? next.start : end,
        label: size === 1 ? first.label : `${first.label} – ${last.label}`,
      });
      index += size;
    }
    return parts;
  }
  let at = start;
  for (const size of shares(Math.round((end - start) / HOUR))) {
    const partEnd = at + size * HOUR;
    parts.push({ start: at, end: partEnd, label: hourLabel(at, partEnd, tz) });
    at = partEnd;
  }
  // A day of 25 hours leaves its last hour to the last part.
  parts[parts.length - 1]!.end = end;
  return parts;
}
