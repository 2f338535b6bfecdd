// Time ranges of history queries: the named ranges end now; which table answers a range (stored samples,
// hourly or daily rollups) and how wide each chart point is so that a series holds at most MAX_CHART_POINTS.
import {
  HOURLY_RANGE_MS,
  MAX_CHART_POINTS,
  RANGE_DAYS,
  RAW_RANGE_MS,
  type HistoryRange,
  type HistoryResolution,
} from '@genset/protocol';
import { startOfDay, zoneOffset } from '../devices/time.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface ResolvedRange {
  start: number;
  end: number;
  resolution: HistoryResolution;
}

export interface RangeInput {
  range: HistoryRange;
  start?: number | undefined;
  end?: number | undefined;
}

/** Start and end (exclusive) in epoch ms; the schema has already checked a custom range. */
export function resolveRange(input: RangeInput, now = Date.now()): ResolvedRange {
  let start: number;
  let end: number;
  if (input.range === 'custom') {
    start = input.start!;
    end = input.end!;
  } else {
    end = now;
    start = now - RANGE_DAYS[input.range] * DAY;
  }
  return { start, end, resolution: resolutionFor(end - start) };
}

export function resolutionFor(span: number): HistoryResolution {
  if (span <= RAW_RANGE_MS) return 'raw';
  if (span <= HOURLY_RANGE_MS) return 'hour';
  return 'day';
}

/**
 * Width of one chart point. Raw samples: the range split in MAX_CHART_POINTS (a sample period longer than
 * that leaves one sample per point); hourly rollups: whole hours; daily rollups: one point per row.
 */
export function chartStep(r: ResolvedRange): number {
  const span = r.end - r.start;
  if (r.resolution === 'raw') return Math.max(1, Math.ceil(span / MAX_CHART_POINTS));
  if (r.resolution === 'hour') return Math.max(1, Math.ceil(span / MAX_CHART_POINTS / HOUR)) * HOUR;
  return 0;
}

/** The table a resolution reads, and its time column. */
export function sourceOf(resolution: HistoryResolution) {
  if (resolution === 'raw') return { table: 'sample', time: 'ts' } as const;
  if (resolution === 'hour') return { table: 'rollup_hour', time: 'bucket' } as const;
  return { table: 'rollup_day', time: 'bucket' } as const;
}

/** The first bucket that overlaps the range: hour rows start on the hour, day rows at a local midnight. */
export function firstBucket(r: ResolvedRange, setTimeZone: string): number {
  if (r.resolution === 'hour') return r.start - (r.start % HOUR);
  if (r.resolution === 'day') return startOfDay(r.start, setTimeZone);
  return r.start;
}

/** YYYY-MM-DD of `ts` in `tz`. */
export function dayLabel(ts: number, tz: string): string {
  return new Date(ts + zoneOffset(ts, tz)).toISOString().slice(0, 10);
}

/** Local midnights (epoch ms) of every day of [start, end) in `tz`, with their labels. */
export function daysOf(start: number, end: number, tz: string): { start: number; label: string }[] {
  const out: { start: number; label: string }[] = [];
  let day = startOfDay(start, tz);
  while (day < end) {
    out.push({ start: day, label: dayLabel(day, tz) });
    // A local day lasts 23 to 25 hours: 36 hours on is inside the next one.
    day = startOfDay(day + 36 * HOUR, tz);
  }
  return out;
}

/** Local wall-clock time of `ts` in `tz` as "YYYY-MM-DD HH:mm:ss". */
export function localTime(ts: number, tz: string): string {
  return new Date(ts + zoneOffset(ts, tz)).toISOString().slice(0, 19).replace('T', ' ');
}
