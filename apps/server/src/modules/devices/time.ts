// Calendar arithmetic in a set's own time zone, for day buckets.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Milliseconds the zone is ahead of UTC at `ts`. */
export function zoneOffset(ts: number, tz: string): number {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(ts)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return asUtc - Math.floor(ts / 1000) * 1000;
}

export function startOfHour(ts: number): number {
  return ts - (ts % 3_600_000);
}

/** UTC epoch of local midnight of the day `ts` falls on, in `tz`. */
export function startOfDay(ts: number, tz: string): number {
  const offset = zoneOffset(ts, tz);
  const local = ts + offset;
  const localMidnight = local - (((local % 86_400_000) + 86_400_000) % 86_400_000);
  return localMidnight - zoneOffset(localMidnight - offset, tz);
}
