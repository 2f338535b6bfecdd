// The day's tariff periods as the editor handles them: drawn as segments of a 24-hour bar (gaps and overlaps
// shown as such), and repainted a slot at a time, the ranges then rebuilt from the painted day. The server
// checks the result again (tariffRangesProblem of the contract) and its refusal is what counts.
import { DAY_MINUTES, minutesOf, PRICE_PERIODS, type PricePeriod, type TariffRange } from '@genset/protocol';

export type SegmentKind = PricePeriod | 'gap' | 'overlap';

export interface Segment {
  /** Minutes of the day, end exclusive (1440 at most). */
  start: number;
  end: number;
  kind: SegmentKind;
}

const GAP = -1;
const OVERLAP = -2;

/** "HH:MM" of a minute of the day; 1440 is "24:00". */
export function clockOf(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export function isClock(text: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(text);
}

/** Each minute of the day: the index of its period, or gap / overlap. Ranges with a bad time are left out. */
function minuteMap(ranges: readonly Partial<TariffRange>[]): Int8Array {
  const map = new Int8Array(DAY_MINUTES).fill(GAP);
  for (const r of ranges) {
    if (!r.start || !r.end || !r.period || !isClock(r.start) || !isClock(r.end)) continue;
    const start = minutesOf(r.start);
    const length = (minutesOf(r.end) - start + DAY_MINUTES) % DAY_MINUTES;
    const period = PRICE_PERIODS.indexOf(r.period);
    for (let i = 0; i < length; i++) {
      const minute = (start + i) % DAY_MINUTES;
      map[minute] = map[minute] === GAP ? period : OVERLAP;
    }
  }
  return map;
}

function kindOf(code: number): SegmentKind {
  return code === GAP ? 'gap' : code === OVERLAP ? 'overlap' : PRICE_PERIODS[code]!;
}

/** The day from 00:00 to 24:00 as segments of one kind each. */
export function daySegments(ranges: readonly Partial<TariffRange>[]): Segment[] {
  const map = minuteMap(ranges);
  const segments: Segment[] = [];
  let start = 0;
  for (let minute = 1; minute <= DAY_MINUTES; minute++) {
    if (minute === DAY_MINUTES || map[minute] !== map[start]) {
      segments.push({ start, end: minute, kind: kindOf(map[start]!) });
      start = minute;
    }
  }
  return segments;
}

/** Ranges of the painted minutes, in order from midnight (gaps left out, overlaps taken as flat). */
function rangesOf(map: Int8Array): TariffRange[] {
  const ranges: TariffRange[] = [];
  let start = 0;
  for (let minute = 1; minute <= DAY_MINUTES; minute++) {
    if (minute === DAY_MINUTES || map[minute] !== map[start]) {
      const code = map[start]!;
      if (code !== GAP) {
        const period = code === OVERLAP ? 'flat' : PRICE_PERIODS[code]!;
        ranges.push({ start: clockOf(start), end: clockOf(minute), period });
      }
      start = minute;
    }
  }
  return ranges;
}

/** The ranges after giving minutes [from, to) the period; neighbours of the same period merge. */
export function paintRanges(
  ranges: readonly Partial<TariffRange>[],
  from: number,
  to: number,
  period: PricePeriod,
): TariffRange[] {
  const map = minuteMap(ranges);
  const code = PRICE_PERIODS.indexOf(period);
  for (let minute = Math.max(0, from); minute < Math.min(DAY_MINUTES, to); minute++) map[minute] = code;
  return rangesOf(map);
}

/** Hours of the day each period covers (gaps and overlaps apart). */
export function periodHours(ranges: readonly Partial<TariffRange>[]): Record<SegmentKind, number> {
  const hours: Record<SegmentKind, number> = { sharp: 0, peak: 0, flat: 0, valley: 0, gap: 0, overlap: 0 };
  for (const s of daySegments(ranges)) hours[s.kind] += (s.end - s.start) / 60;
  return hours;
}
