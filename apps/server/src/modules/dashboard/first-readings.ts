// The energy ranking's first readings: each set's energy counter at the start of the ranking's window (the first
// reading of its oldest daily rollup in the window). They are the same for everyone who sees the set, and change
// once a day, so one instance keeps them for its whole fleet:
//   - the server's start, then each new day, reads every set's at once, one query; until it is done the day before's serve;
//   - a set that counts energy and has none yet (its past being written: the demo's, a module's outbox) is looked
//     for again, at most every FILL_EVERY_MS and at most FILL_BATCH sets at a time, round the missing sets in turn,
//     each on the rollups' primary key;
//   - calls that arrive while a read is under way wait for that read instead of starting another.
// A person's ranking takes the readings of the sets they see. Held: one number per set that has one.
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { HistorySql } from '../history/sql.ts';
import type { DirectoryEntry } from '../gensets/directory.ts';

const DAY = 86_400_000;
export const RANKING_DAYS = 30;
/** How often sets that count energy without a first reading are looked for again, and how many at a time. */
const FILL_EVERY_MS = 10_000;
const FILL_BATCH = 2000;

/** The window of the ranking on a day (days counted in UTC): its 30 days before, from midnight. */
const windowStart = (day: number) => (day - RANKING_DAYS) * DAY;

interface Day {
  day: number;
  readings: Map<number, number>;
}

export function createFirstReadings(db: Db, q: HistorySql) {
  let current: Day | null = null;
  let loading: Promise<Day> | null = null;
  let filling: Promise<void> | null = null;
  let lastFill = 0;
  /** Where the last fill stopped among the missing sets, by id: the next takes the ones after it. */
  let cursor = 0;

  /** The first readings of `ids` (every set when undefined) in the window that begins `since`. */
  async function read(since: number, ids?: number[]): Promise<Map<number, number>> {
    let inner = db
      .selectFrom('rollup_day')
      .select(['genset_id', (eb) => eb.fn.min('bucket').as('b')])
      .where('bucket', '>=', since);
    if (ids) inner = inner.where('genset_id', 'in', ids);
    const rows = await db
      .selectFrom('rollup_day as r')
      .innerJoin(inner.groupBy('genset_id').as('m'), (join) =>
        join.onRef('m.genset_id', '=', 'r.genset_id').onRef('m.b', '=', 'r.bucket'),
      )
      .select(['r.genset_id', q.statsObject(q.statsWindow(sql.ref('r.stats'), 'kwh_total')).as('o')])
      .execute();
    const readings = new Map<number, number>();
    for (const f of rows) {
      const first = f.o ? (JSON.parse(f.o) as { first?: number }).first : undefined;
      if (typeof first === 'number') readings.set(f.genset_id, first);
    }
    return readings;
  }

  function loadDay(day: number): Promise<Day> {
    loading ??= read(windowStart(day))
      .then((readings) => {
        const fresh: Day = { day, readings };
        if (!current || current.day <= day) current = fresh;
        lastFill = Date.now();
        return fresh;
      })
      .finally(() => (loading = null));
    return loading;
  }

  /** Looks again for the sets of `fleet` that count energy and have no first reading, a batch at a time. */
  function fill(d: Day, fleet: DirectoryEntry[], now: number): Promise<void> | undefined {
    if (filling) return filling;
    if (now - lastFill < FILL_EVERY_MS) return undefined;
    const missing: number[] = [];
    for (const s of fleet) if (s.live.kwhTotal !== null && !d.readings.has(s.id)) missing.push(s.id);
    if (missing.length === 0) return undefined;
    missing.sort((a, b) => a - b);
    // round the missing sets in turn: those after where the last batch stopped, then from the start
    const from = missing.findIndex((id) => id > cursor);
    const ordered = from <= 0 ? missing : [...missing.slice(from), ...missing.slice(0, from)];
    const batch = ordered.slice(0, FILL_BATCH);
    lastFill = now;
    filling = read(windowStart(d.day), batch)
      .then((found) => {
        for (const [id, first] of found) d.readings.set(id, first);
        cursor = batch.at(-1) ?? 0;
      })
      .finally(() => (filling = null));
    return filling;
  }

  return {
    /** Reads today's first readings before anyone asks (at start: at 100,000 sets the first summary waited for them). */
    async warm(now = Date.now()): Promise<void> {
      if (current) return;
      await loadDay(Math.floor(now / DAY));
      // the sets whose past is written after the start are looked for at the first call, not 10 s later
      lastFill = 0;
    },
    /** The first readings for a ranking at `now` over `fleet` (the sets the caller sees, as the lists show them). */
    async of(fleet: DirectoryEntry[], now: number): Promise<Map<number, number>> {
      const day = Math.floor(now / DAY);
      let d = current;
      if (!d) d = await loadDay(day);
      else if (d.day < day) void loadDay(day).catch(() => undefined);
      await fill(d, fleet, now);
      return d.readings;
    },
  };
}
