// Rollups: each stored sample goes into its set's hour and day buckets (min, max, sum, count, first and last
// of every value), once its batch is committed. The buckets, the sets' latest values and the modules' acked
// seqs (acks.ts) are held in memory and written every `persistMs` (and on flush/close), in slices between
// batches. Writing them per batch made every batch rewrite two 7 KB rollup rows per set, which limited a
// fleet of 1,000 modules to 1,500 snapshots/s.
//
// They are all derived from the samples, so nothing is lost if the server dies in between: at start, and
// after a failed batch, the samples newer than the persisted rollups' watermark (`ingest_state.
// rollup_sample_id`) are merged in again. With several instances, each set is brought up to date from its
// own persisted sample id (`set_latest.merged_id`) when an instance takes it.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { Acks } from './acks.ts';
import type { Sets } from './sets.ts';
import { startOfDay, startOfHour } from '../time.ts';
import type { IngestStats, SetState, StoredSample, Values } from './types.ts';
import { BucketStats, ItemIndex, type ItemStats } from './bucket-stats.ts';

interface Bucket {
  table: 'rollup_hour' | 'rollup_day';
  gensetId: number;
  bucket: number;
  stats: BucketStats;
  samples: number;
  persisted: boolean;
}

/** Sets written per transaction when what is held in memory is written. */
const PERSIST_SLICE = 50;
const WATERMARK = 'rollup_sample_id';
/** Samples read at once when merging them into the rollups again after a restart. */
const RECOVERY_PAGE = 2000;

interface RollupsOptions {
  db: Db;
  log: FastifyBaseLogger;
  sets: Sets;
  acks: Acks;
  stats: IngestStats;
  persistMs: number;
  cluster?: boolean;
  /**
   * The items of a protocol that are readings of a running engine and its generator (speed, oil pressure,
   * generator and bus voltage and frequency, power factor): a stopped set reads 0 there, which is no reading
   * at all, so they are averaged over the samples taken while the set ran. Power, current and the rest are
   * averaged over every sample (a stopped set's 0 kW is its true output).
   */
  runningOnly?: (protocolKey: string) => ReadonlySet<string>;
}

/** The status code of a running set (1 stopped, 2 standby, 3 running, 0 offline). */
const RUNNING = 3;
const NONE: ReadonlySet<string> = new Set();

export function createRollups({ db, log, sets, acks, stats, persistMs, cluster, runningOnly }: RollupsOptions) {
  /** The newest bucket of each set and table (`table|gensetId`). */
  const buckets = new Map<string, Bucket>();
  /** Buckets changed since the last persist (`table|gensetId|bucket`), and the same by set. */
  const dirtyBuckets = new Map<string, Bucket>();
  const dirtyBySet = new Map<number, Set<Bucket>>();
  /** Sets whose latest values changed since the last persist. */
  const dirtyLatest = new Set<number>();
  /** The highest sample id merged into the buckets in memory. */
  let mergedUpTo = 0;
  /** The watermark as written in `ingest_state` (-1: not known yet, write it). */
  let persistedUpTo = -1;
  let lastPersist = Date.now();

  function mergeStats(into: BucketStats, values: Values, skip: ReadonlySet<string>) {
    for (const key in values) {
      if (skip.has(key)) continue;
      const v = values[key];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      into.add(key, v);
    }
  }

  /** The items of each protocol, numbered once for all its sets' buckets. */
  const itemIndexes = new Map<string, ItemIndex>();
  function itemsOf(protocolKey: string): ItemIndex {
    let index = itemIndexes.get(protocolKey);
    if (!index) itemIndexes.set(protocolKey, (index = new ItemIndex()));
    return index;
  }

  /** The bucket a sample falls in: the set's newest one, one changed since the last persist, or its row. */
  async function bucketFor(table: Bucket['table'], set: SetState, bucket: number): Promise<Bucket> {
    const gensetId = set.id;
    const key = `${table}|${gensetId}`;
    const current = buckets.get(key);
    if (current && current.bucket === bucket) return current;
    const fullKey = `${key}|${bucket}`;
    let b = dirtyBuckets.get(fullKey);
    if (!b) {
      const row = await db
        .selectFrom(table)
        .selectAll()
        .where('genset_id', '=', gensetId)
        .where('bucket', '=', bucket)
        .executeTakeFirst();
      b = row
        ? {
            table,
            gensetId,
            bucket,
            stats: BucketStats.fromJSON(itemsOf(set.protocolKey), JSON.parse(row.stats) as Record<string, ItemStats>),
            samples: row.samples,
            persisted: true,
          }
        : { table, gensetId, bucket, stats: new BucketStats(itemsOf(set.protocolKey)), samples: 0, persisted: false };
    }
    if (!current || bucket >= current.bucket) buckets.set(key, b);
    return b;
  }

  /** Start of the local day `ts` falls on, remembered per time zone: working it out takes two Intl calls. */
  const days = new Map<string, { start: number; end: number }>();
  function dayBucket(ts: number, timeZone: string): number {
    const day = days.get(timeZone);
    if (day && ts >= day.start && ts < day.end) return day.start;
    const start = startOfDay(ts, timeZone);
    // A local day lasts 23 to 25 hours, so 36 hours after its start is within the next one.
    days.set(timeZone, { start, end: startOfDay(start + 36 * 3_600_000, timeZone) });
    return start;
  }

  function markDirty(b: Bucket) {
    dirtyBuckets.set(`${b.table}|${b.gensetId}|${b.bucket}`, b);
    let ofSet = dirtyBySet.get(b.gensetId);
    if (!ofSet) dirtyBySet.set(b.gensetId, (ofSet = new Set()));
    ofSet.add(b);
    dirtyLatest.add(b.gensetId);
  }

  function addTo(b: Bucket, values: Values, skip: ReadonlySet<string>) {
    mergeStats(b.stats, values, skip);
    b.samples += 1;
    markDirty(b);
  }

  /**
   * Adds one stored sample to its set's hour and day buckets (kept in memory until the next persist). Returns
   * a promise only when a bucket has to be read first; live samples fall in the buckets at hand.
   */
  function rollUp(
    set: SetState,
    ts: number,
    values: Values,
    status: number,
    sampleId: number,
  ): Promise<void> | undefined {
    if (sampleId > set.mergedId) set.mergedId = sampleId;
    const skip = status === RUNNING || !runningOnly ? NONE : runningOnly(set.protocolKey);
    const hour = startOfHour(ts);
    const day = dayBucket(ts, set.timeZone);
    const h = buckets.get(`rollup_hour|${set.id}`);
    const d = buckets.get(`rollup_day|${set.id}`);
    if (h && h.bucket === hour && d && d.bucket === day) {
      addTo(h, values, skip);
      addTo(d, values, skip);
      return undefined;
    }
    return (async () => {
      addTo(await bucketFor('rollup_hour', set, hour), values, skip);
      addTo(await bucketFor('rollup_day', set, day), values, skip);
    })();
  }

  /** Merges a stored sample (its values as stored) into the set's rollups and latest values again. */
  async function mergeStored(set: SetState, id: number, ts: number, status: number, json: string) {
    const values = JSON.parse(json) as Values;
    // a sample of a controller error carries no values and is not in the rollups
    if (Object.keys(values).length === 0) return;
    const reading = rollUp(set, ts, values, status, id);
    if (reading) await reading;
    if (ts >= set.deviceTs) {
      set.values = values;
      set.deviceTs = ts;
    }
    dirtyLatest.add(set.id);
    stats.recovered++;
  }

  /** Merges the set's samples stored after its persisted rollups (another instance had it, or died). */
  async function catchUp(set: SetState) {
    let after = set.mergedId;
    for (;;) {
      const rows = await db
        .selectFrom('sample')
        .select(['id', 'ts', 'status', 'values'])
        .where('id', '>', after)
        .where('genset_id', '=', set.id)
        .orderBy('id')
        .limit(RECOVERY_PAGE)
        .execute();
      if (!rows.length) break;
      for (const r of rows) {
        after = Number(r.id);
        await mergeStored(set, after, Number(r.ts), r.status, r.values);
      }
    }
  }

  /**
   * Writing what is held in memory goes in cycles of small transactions, so that batches (and their acks and
   * pushes) carry on in between: one transaction for a thousand sets stopped ingestion for a fifth of a second.
   * A slice writes, for each of its sets, every bucket of the set changed so far and the set's latest row with
   * `merged_id`, the highest sample id those buckets hold: each set is consistent on its own. When a cycle has
   * written every set that was changed when it began, every sample up to the cycle's starting point is in the
   * rollups, and that point becomes the watermark; samples after it that a set's rollups already hold are
   * recognised by the set's `merged_id` when they are merged again after a crash.
   */
  let cycle: { upTo: number; sets: number[]; next: number } | null = null;

  async function persistSlice() {
    if (!cycle) {
      lastPersist = Date.now();
      if (!dirtyLatest.size && !acks.unwrittenCount() && persistedUpTo === mergedUpTo) return;
      cycle = { upTo: mergedUpTo, sets: [...dirtyLatest], next: 0 };
    }
    const c = cycle;
    const ids = c.sets.slice(c.next, c.next + PERSIST_SLICE);
    const last = c.next + ids.length >= c.sets.length;
    const work = ids
      .filter((id) => dirtyLatest.has(id)) // written by a slice of this cycle already, or forgotten
      .map((id) => ({ id, set: sets.byId(id), buckets: [...(dirtyBySet.get(id) ?? [])] }));
    const modemsNow = last ? acks.take() : [];
    for (const w of work) {
      dirtyLatest.delete(w.id);
      dirtyBySet.delete(w.id);
      for (const b of w.buckets) dirtyBuckets.delete(`${b.table}|${b.gensetId}|${b.bucket}`);
    }
    const now = Date.now();
    try {
      await db.transaction().execute(async (trx) => {
        for (const w of work) {
          for (const b of w.buckets) {
            const json = JSON.stringify(b.stats.toJSON());
            if (b.persisted) {
              await trx
                .updateTable(b.table)
                .set({ stats: json, samples: b.samples })
                .where('genset_id', '=', b.gensetId)
                .where('bucket', '=', b.bucket)
                .execute();
            } else {
              await trx
                .insertInto(b.table)
                .values({ genset_id: b.gensetId, bucket: b.bucket, stats: json, samples: b.samples })
                .execute();
            }
          }
          if (!w.set) continue;
          const row = {
            status: w.set.status,
            alarm_count: w.set.openAlarms.size,
            values: JSON.stringify(w.set.values),
            device_ts: w.set.deviceTs,
            updated_at: now,
            merged_id: w.set.mergedId,
          };
          await trx
            .insertInto('set_latest')
            .values({ genset_id: w.id, ...row })
            .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
            .execute();
        }
        await acks.write(trx, modemsNow);
        if (last && !cluster) {
          await trx
            .insertInto('ingest_state')
            .values({ name: WATERMARK, value: c.upTo })
            .onConflict((oc) => oc.column('name').doUpdateSet({ value: c.upTo }))
            .execute();
        }
      });
    } catch (err) {
      // Nothing of it was written: take it all up again for the next time.
      for (const w of work) {
        dirtyLatest.add(w.id);
        for (const b of w.buckets) markDirty(b);
      }
      acks.putBack(modemsNow);
      cycle = null;
      throw err;
    }
    for (const w of work) for (const b of w.buckets) b.persisted = true;
    c.next += ids.length;
    if (last) {
      cycle = null;
      persistedUpTo = c.upTo;
      stats.persists++;
    }
  }

  /** Writes everything held in memory now (cycles until nothing is left). */
  async function persist() {
    do {
      await persistSlice();
    } while (cycle || dirtyLatest.size || acks.unwrittenCount() || persistedUpTo !== mergedUpTo);
  }

  /**
   * Merges the samples stored after the persisted watermark into the rollups and latest values again: after a
   * restart (they were committed and acked, but their rollups were still in memory) and after a failed batch
   * (which may have changed buckets in memory with samples that were then rolled back).
   */
  async function recover() {
    // Everything is taken from the database again: the sets' persisted state and their `merged_id`.
    buckets.clear();
    dirtyBuckets.clear();
    dirtyBySet.clear();
    dirtyLatest.clear();
    cycle = null;
    sets.forgetSets();
    // Each set is brought up to date from its own persisted sample id when it is next loaded.
    if (cluster) return;
    const mark = await db.selectFrom('ingest_state').select('value').where('name', '=', WATERMARK).executeTakeFirst();
    let after = Number(mark?.value ?? 0);
    persistedUpTo = mark ? after : -1;
    if (!mark) {
      // First start with this table: rollups so far were written with their samples.
      const top = await db
        .selectFrom('sample')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      after = Number(top?.id ?? 0);
    }
    mergedUpTo = after;
    for (;;) {
      const rows = await db
        .selectFrom('sample')
        .innerJoin('genset', 'genset.id', 'sample.genset_id')
        .select([
          'sample.id',
          'sample.ts',
          'sample.values',
          'sample.status',
          'sample.modem_id',
          'genset.id as gensetId',
          'genset.token',
          'genset.company_id',
          'genset.protocol_key',
          'genset.time_zone',
        ])
        .where('sample.id', '>', after)
        .orderBy('sample.id')
        .limit(RECOVERY_PAGE)
        .execute();
      if (!rows.length) break;
      for (const r of rows) {
        after = Number(r.id);
        const set = await sets.load(
          {
            id: r.gensetId,
            token: r.token,
            company_id: r.company_id,
            protocol_key: r.protocol_key,
            time_zone: r.time_zone,
          },
          r.modem_id,
        );
        if (after <= set.mergedId) continue; // already in the set's persisted rollups
        await mergeStored(set, after, Number(r.ts), r.status, r.values);
      }
      mergedUpTo = after;
    }
    if (stats.recovered) log.info({ samples: stats.recovered }, 'rollups and latest values brought up to date');
    await persist();
  }

  return {
    catchUp,
    recover,
    persist,
    persistSlice,
    /** Whether a slice is due: a cycle is under way, or `persistMs` passed since the last one began. */
    persistDue: () => cycle !== null || Date.now() - lastPersist >= persistMs,
    /** After a batch committed: its samples go into the rollups, its sets' latest values are to be written. */
    async addStored(samples: StoredSample[], touched: Iterable<number>, maxId: number) {
      for (const r of samples) {
        const reading = rollUp(sets.byId(r.set.id) ?? r.set, r.ts, r.values, r.status, r.id);
        if (reading) await reading;
      }
      // heard from: the last sets to be let go (once a set a batch, not once a sample)
      for (const id of touched) {
        dirtyLatest.add(id);
        sets.touch(id);
      }
      if (maxId > mergedUpTo) mergedUpTo = maxId;
    },
    /** Whether the set has changes not written yet. */
    holds: (gensetId: number) => dirtyLatest.has(gensetId) || dirtyBySet.has(gensetId),
    /** Forgets the set's newest buckets (handed to another instance; what changed was written just before). */
    forgetSet(gensetId: number) {
      buckets.delete(`rollup_hour|${gensetId}`);
      buckets.delete(`rollup_day|${gensetId}`);
    },
  };
}
