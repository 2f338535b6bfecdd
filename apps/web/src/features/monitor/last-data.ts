// When a set's last data was taken and how long ago, for the notice of an offline set: the time in the set's
// own time zone (named, with the date when it is not that day in the set's zone), the elapsed time in whole
// units, both in the reader's language through Intl.

export interface LastData {
  /** "10:11 AM GMT", or "Nov 26, 10:41 AM GMT" when not the set's today. */
  time: string;
  /** "2 days ago", "30 minutes ago". */
  ago: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A valid IANA zone, else undefined (the reader's own zone). */
function zoneOrLocal(timeZone: string | null | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** "2026-11-28": the calendar day of a moment in a zone. */
function dayOf(ts: number, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ts);
}

/** How long ago, in the largest whole unit (seconds under a minute, days from one day on). */
export function formatElapsed(ms: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
  const elapsed = Math.max(0, ms);
  if (elapsed >= DAY) return format.format(-Math.floor(elapsed / DAY), 'day');
  if (elapsed >= HOUR) return format.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed >= MINUTE) return format.format(-Math.floor(elapsed / MINUTE), 'minute');
  return format.format(-Math.floor(elapsed / 1000), 'second');
}

export function formatLastData(
  ts: number,
  now: number,
  { language, timeZone }: { language: string; timeZone?: string | null },
): LastData {
  const zone = zoneOrLocal(timeZone);
  const day = dayOf(ts, zone);
  const today = dayOf(now, zone);
  const date =
    day === today
      ? {}
      : { month: 'short', day: 'numeric', ...(day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' }) };
  const time = new Intl.DateTimeFormat(language, {
    timeZone: zone,
    ...(date as Intl.DateTimeFormatOptions),
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(ts);
  return { time, ago: formatElapsed(now - ts, language) };
}
