// Ingestion: turns the modules' raw register snapshots into stored samples, the latest values, status
// transitions, alarms and hour/day rollups. Messages are processed in arrival order, in batches, one
// transaction per batch; a module is acked only after its samples are committed, and a (modem, seq) it
// already stored is skipped, so a resend after any crash or reconnect stores nothing twice.
//
// What a batch commits: every sample, every status change and alarm, and the set's status and alarm count
// when they change. What it keeps in memory and writes every `persistMs` (and on flush/close): the rollup
// buckets, the latest values and the modules' last seq and last-seen time. Those are derived from the
// samples, so nothing is lost if the server dies in between: at start, and after a failed batch, the samples
// newer than the persisted rollups' watermark (`ingest_state.rollup_sample_id`) are merged in again. Writing
// them per batch made every batch rewrite two 7 KB rollup rows per set, which limited a fleet of 1,000
// modules to 1,500 snapshots/s.
import { CompiledQuery, sql } from 'kysely';
import {
  deriveStatus,
  modemData,
  modemEvent,
  modemHello,
  readModemData,
  type ModemData,
  type ModemChannel,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { sampleKeyColumns } from '../../db/partitions.ts';
import type { RealtimeBus } from './bus.ts';
import type { CompiledProtocol, ProtocolStore } from './protocols.ts';
import type { DeviceTransport } from './transport.ts';
import { startOfDay, startOfHour } from './time.ts';

export const STATUS = { offline: 0, closed: 1, standby: 2, running: 3 } as const;

interface ModemInfo {
  id: number;
  key: string;
  companyId: number;
}

interface OpenAlarm {
  id: number;
  code: string;
  level: string;
  title: Record<string, string>;
  start: number;
}

interface SetState {
  id: number;
  token: string;
  modemId: number;
  protocolKey: string;
  timeZone: string;
  status: number;
  values: Record<string, number | null>;
  deviceTs: number;
  openAlarms: Map<string, OpenAlarm>;
  /** The highest sample id merged into this set's rollups in memory. */
  mergedId: number;
}

interface ItemStats {
  min: number;
  max: number;
  sum: number;
  n: number;
  first: number;
  last: number;
}
type BucketStats = Record<string, ItemStats>;

interface Bucket {
  table: 'rollup_hour' | 'rollup_day';
  gensetId: number;
  bucket: number;
  stats: BucketStats;
  samples: number;
  persisted: boolean;
}

interface Queued {
  modemKey: string;
  message: ModemData;
}

const BATCH_LIMIT = 500;
/** Sets written per transaction when what is held in memory is written. */
const PERSIST_SLICE = 50;
/** Samples inserted by one statement. */
const SAMPLE_CHUNK = 100;
/** Snapshots waiting beyond this make the broker stop reading from the modules until the queue is half as long. */
const DEFAULT_QUEUE_LIMIT = 5000;
const WATERMARK = 'rollup_sample_id';
/** Samples read at once when merging them into the rollups again after a restart. */
const RECOVERY_PAGE = 2000;

export interface IngestOptions {
  db: Db;
  transport: DeviceTransport;
  protocols: ProtocolStore;
  bus: RealtimeBus;
  log: FastifyBaseLogger;
  /** The report period a module is expected to keep; three missed periods mark its sets offline. */
  expectedPeriodMs: (modemKey: string) => number;
  onHello: (modemKey: string) => void;
  onReply: (modemKey: string, payload: unknown) => void;
  /** How often rollups, latest values and module counters are written (default 2 s). */
  persistMs?: number;
  /**
   * How long a hole in a module's seqs may stay open before the ack passes over it (default 3 min): a module
   * resends unacked data within its ack timeout, so a hole that stays is data the module no longer has.
   */
  gapWaitMs?: number;
  /** Snapshots waiting to be stored beyond which modules are made to wait (default 5,000). */
  queueLimit?: number;
  /**
   * Several instances share the database: each set's rollups are brought up to date from its own persisted
   * sample id when this process takes the set (`set_latest.merged_id`), not from this process's watermark.
   */
  cluster?: boolean;
}

export function createIngest(opts: IngestOptions) {
  const { db, transport, protocols, bus, log } = opts;
  const persistMs = opts.persistMs ?? 2000;
  const queueLimit = opts.queueLimit ?? DEFAULT_QUEUE_LIMIT;
  const gapWaitMs = opts.gapWaitMs ?? 180_000;
  /**
   * What may be acked per module: `upTo` is the highest seq with every seq up to it stored, `above` the seqs
   * stored past a hole. An ack covers only `upTo`, so a seq that went to an instance that died before storing
   * it is not acked by a later one (the module keeps it and sends it again).
   */
  const ackStates = new Map<number, { upTo: number; above: Set<number>; holeSince: number }>();
  const modems = new Map<string, ModemInfo | null>();
  const sets = new Map<string, SetState | null>();
  const setsById = new Map<number, SetState>();
  /** The newest bucket of each set and table (`table|gensetId`). */
  const buckets = new Map<string, Bucket>();
  /** Buckets changed since the last persist (`table|gensetId|bucket`), and the same by set. */
  const dirtyBuckets = new Map<string, Bucket>();
  const dirtyBySet = new Map<number, Set<Bucket>>();
  /** Sets whose latest values changed since the last persist. */
  const dirtyLatest = new Set<number>();
  /** Modules heard from since the last persist: the highest seq stored and when. */
  const dirtyModems = new Map<number, { seq: number; seenAt: number }>();
  /** Modules whose `online` flag is 1 in the database (as far as this process knows). */
  const onlineModems = new Set<number>();
  /** The highest sample id merged into the buckets in memory. */
  let mergedUpTo = 0;
  /** The watermark as written in `ingest_state` (-1: not known yet, write it). */
  let persistedUpTo = -1;
  let lastPersist = Date.now();
  const lastSeen = new Map<string, number>();
  const queue: Queued[] = [];
  /** Settles when the queue is back under half the high-water mark; modules wait for it meanwhile. */
  let relief: { promise: Promise<void>; resolve: () => void } | null = null;
  const relieve = () => {
    if (relief && (queue.length < queueLimit / 2 || closed)) {
      relief.resolve();
      relief = null;
    }
  };
  let draining: Promise<void> | null = null;
  let closed = false;
  const stats = {
    received: 0,
    stored: 0,
    duplicates: 0,
    refused: 0,
    batches: 0,
    persists: 0,
    recovered: 0,
    throttled: 0,
    peakQueue: 0,
  };

  // The hot insert, compiled by Kysely for this dialect once per row count and then run with new parameters.
  const sampleInserts = new Map<number, string>();
  const sampleInsertSql = (rows: number) => {
    let text = sampleInserts.get(rows);
    if (!text) {
      const row = { modem_id: 0, seq: 0, genset_id: 0, ts: 0, status: 0, values: '' };
      text = db
        .insertInto('sample')
        .values(Array.from({ length: rows }, () => row))
        .onConflict((oc) => oc.columns(sampleKeyColumns(db)).doNothing())
        .returning(['id', 'modem_id', 'seq'])
        .compile().sql;
      sampleInserts.set(rows, text);
    }
    return text;
  };

  async function modemByKey(key: string): Promise<ModemInfo | null> {
    if (modems.has(key)) return modems.get(key)!;
    const row = await db
      .selectFrom('modem')
      .select(['id', 'company_id', 'online'])
      .where('modem_key', '=', key)
      .executeTakeFirst();
    const info = row ? { id: row.id, key, companyId: row.company_id } : null;
    if (row?.online === 1) onlineModems.add(row.id);
    modems.set(key, info);
    return info;
  }

  async function loadSet(row: { id: number; token: string; protocol_key: string; time_zone: string }, modemId: number) {
    const known = setsById.get(row.id);
    if (known) {
      // The binding may have changed (protocol, time zone); the live state in memory is newer than the table.
      Object.assign(known, { token: row.token, modemId, protocolKey: row.protocol_key, timeZone: row.time_zone });
      return known;
    }
    const latest = await db.selectFrom('set_latest').selectAll().where('genset_id', '=', row.id).executeTakeFirst();
    const open = await db
      .selectFrom('alarm')
      .selectAll()
      .where('genset_id', '=', row.id)
      .where('end_ts', 'is', null)
      .execute();
    const state: SetState = {
      id: row.id,
      token: row.token,
      modemId,
      protocolKey: row.protocol_key,
      timeZone: row.time_zone,
      status: latest?.status ?? STATUS.offline,
      values: latest ? (JSON.parse(latest.values) as Record<string, number | null>) : {},
      deviceTs: latest?.device_ts ?? 0,
      mergedId: Number(latest?.merged_id ?? 0),
      openAlarms: new Map(
        open.map((a) => [
          a.code,
          {
            id: a.id,
            code: a.code,
            level: a.level,
            title: JSON.parse(a.title) as Record<string, string>,
            start: a.start_ts,
          },
        ]),
      ),
    };
    setsById.set(state.id, state);
    if (opts.cluster) {
      if (!latest || latest.merged_id !== null) await catchUp(state);
      log.info({ gensetId: state.id, modemId }, `set ${state.id} taken up by this instance`);
    }
    return state;
  }

  /** Merges a stored sample (its values as stored) into the set's rollups and latest values again. */
  async function mergeStored(set: SetState, id: number, ts: number, json: string) {
    const values = JSON.parse(json) as Record<string, number | null>;
    // a sample of a controller error carries no values and is not in the rollups
    if (Object.keys(values).length === 0) return;
    const reading = rollUp(set, ts, values, id);
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
        .select(['id', 'ts', 'values'])
        .where('id', '>', after)
        .where('genset_id', '=', set.id)
        .orderBy('id')
        .limit(RECOVERY_PAGE)
        .execute();
      if (!rows.length) break;
      for (const r of rows) {
        after = Number(r.id);
        await mergeStored(set, after, Number(r.ts), r.values);
      }
    }
  }

  async function setFor(modem: ModemInfo, port: string, address: number): Promise<SetState | null> {
    const cacheKey = `${modem.id}|${port}|${address}`;
    if (sets.has(cacheKey)) return sets.get(cacheKey)!;
    const row = await db
      .selectFrom('genset')
      .select(['id', 'token', 'protocol_key', 'time_zone'])
      .where('modem_id', '=', modem.id)
      .where('port', '=', port)
      .where('address', '=', address)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const state = row ? await loadSet(row, modem.id) : null;
    sets.set(cacheKey, state);
    return state;
  }

  function mergeStats(stats: BucketStats, values: Record<string, number | null>) {
    for (const key in values) {
      const v = values[key];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      const s = stats[key];
      if (!s) stats[key] = { min: v, max: v, sum: v, n: 1, first: v, last: v };
      else {
        if (v < s.min) s.min = v;
        if (v > s.max) s.max = v;
        s.sum += v;
        s.n += 1;
        s.last = v;
      }
    }
  }

  /** The bucket a sample falls in: the set's newest one, one changed since the last persist, or its row. */
  async function bucketFor(table: Bucket['table'], gensetId: number, bucket: number): Promise<Bucket> {
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
            stats: JSON.parse(row.stats) as BucketStats,
            samples: row.samples,
            persisted: true,
          }
        : { table, gensetId, bucket, stats: {}, samples: 0, persisted: false };
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

  /** Adds one stored sample to its set's hour and day buckets (kept in memory until the next persist). */
  function markDirty(b: Bucket) {
    dirtyBuckets.set(`${b.table}|${b.gensetId}|${b.bucket}`, b);
    let ofSet = dirtyBySet.get(b.gensetId);
    if (!ofSet) dirtyBySet.set(b.gensetId, (ofSet = new Set()));
    ofSet.add(b);
    dirtyLatest.add(b.gensetId);
  }

  function addTo(b: Bucket, values: Record<string, number | null>) {
    mergeStats(b.stats, values);
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
    values: Record<string, number | null>,
    sampleId: number,
  ): Promise<void> | undefined {
    if (sampleId > set.mergedId) set.mergedId = sampleId;
    const hour = startOfHour(ts);
    const day = dayBucket(ts, set.timeZone);
    const h = buckets.get(`rollup_hour|${set.id}`);
    const d = buckets.get(`rollup_day|${set.id}`);
    if (h && h.bucket === hour && d && d.bucket === day) {
      addTo(h, values);
      addTo(d, values);
      return undefined;
    }
    return (async () => {
      addTo(await bucketFor('rollup_hour', set.id, hour), values);
      addTo(await bucketFor('rollup_day', set.id, day), values);
    })();
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
      if (!dirtyLatest.size && !dirtyModems.size && persistedUpTo === mergedUpTo) return;
      cycle = { upTo: mergedUpTo, sets: [...dirtyLatest], next: 0 };
    }
    const c = cycle;
    const ids = c.sets.slice(c.next, c.next + PERSIST_SLICE);
    const last = c.next + ids.length >= c.sets.length;
    const work = ids
      .filter((id) => dirtyLatest.has(id)) // written by a slice of this cycle already, or forgotten
      .map((id) => ({ id, set: setsById.get(id), buckets: [...(dirtyBySet.get(id) ?? [])] }));
    const modemsNow = last ? [...dirtyModems] : [];
    for (const w of work) {
      dirtyLatest.delete(w.id);
      dirtyBySet.delete(w.id);
      for (const b of w.buckets) dirtyBuckets.delete(`${b.table}|${b.gensetId}|${b.bucket}`);
    }
    if (last) dirtyModems.clear();
    const now = Date.now();
    try {
      await db.transaction().execute(async (trx) => {
        for (const w of work) {
          for (const b of w.buckets) {
            const stats = JSON.stringify(b.stats);
            if (b.persisted) {
              await trx
                .updateTable(b.table)
                .set({ stats, samples: b.samples })
                .where('genset_id', '=', b.gensetId)
                .where('bucket', '=', b.bucket)
                .execute();
            } else {
              await trx
                .insertInto(b.table)
                .values({ genset_id: b.gensetId, bucket: b.bucket, stats, samples: b.samples })
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
        for (const [modemId, m] of modemsNow) {
          await trx
            .updateTable('modem')
            .set({
              last_seen_at: m.seenAt,
              last_seq: sql<number>`case when last_seq < ${m.seq} then ${m.seq} else last_seq end`,
            })
            .where('id', '=', modemId)
            .execute();
        }
        if (last && !opts.cluster) {
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
      for (const [id, m] of modemsNow) {
        const newer = dirtyModems.get(id);
        dirtyModems.set(id, newer ? { seq: Math.max(newer.seq, m.seq), seenAt: newer.seenAt } : m);
      }
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
    } while (cycle || dirtyLatest.size || dirtyModems.size || persistedUpTo !== mergedUpTo);
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
    sets.clear();
    setsById.clear();
    // Each set is brought up to date from its own persisted sample id when it is next loaded.
    if (opts.cluster) return;
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
          'sample.modem_id',
          'genset.id as gensetId',
          'genset.token',
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
        const set = await loadSet(
          { id: r.gensetId, token: r.token, protocol_key: r.protocol_key, time_zone: r.time_zone },
          r.modem_id,
        );
        if (after <= set.mergedId) continue; // already in the set's persisted rollups
        await mergeStored(set, after, Number(r.ts), r.values);
      }
      mergedUpTo = after;
    }
    if (stats.recovered) log.info({ samples: stats.recovered }, 'rollups and latest values brought up to date');
    await persist();
  }

  /** The module's ack state, from its persisted last seq and the samples stored after it. */
  async function ackStateOf(modemId: number) {
    let state = ackStates.get(modemId);
    if (state) return state;
    const row = await db.selectFrom('modem').select('last_seq').where('id', '=', modemId).executeTakeFirst();
    let upTo = Number(row?.last_seq ?? 0);
    const later = await db
      .selectFrom('sample')
      .select('seq')
      .where('modem_id', '=', modemId)
      .where('seq', '>', upTo)
      .orderBy('seq')
      .limit(10_000)
      .execute();
    const above = new Set<number>();
    for (const r of later) {
      const seq = Number(r.seq);
      if (seq === upTo + 1 && above.size === 0) upTo = seq;
      else above.add(seq);
    }
    state = { upTo, above, holeSince: Date.now() };
    ackStates.set(modemId, state);
    return state;
  }

  /** Marks seqs stored (or seen stored before) and returns how far the module may be acked. */
  function advanceAck(
    state: { upTo: number; above: Set<number>; holeSince: number },
    done: number[],
    modemKey: string,
  ) {
    const before = state.upTo;
    for (const seq of done) if (seq > state.upTo) state.above.add(seq);
    for (;;) {
      while (state.above.delete(state.upTo + 1)) state.upTo += 1;
      if (state.above.size === 0) break;
      if (state.upTo !== before) state.holeSince = Date.now();
      if (Date.now() - state.holeSince < gapWaitMs) break;
      // The hole stayed: the module no longer has those seqs (its outbox overflowed). Acking past it.
      const next = Math.min(...state.above);
      log.warn({ modem: modemKey, missing: `${state.upTo + 1}..${next - 1}` }, 'seqs never arrived; acking past them');
      state.upTo = next - 1;
      state.holeSince = Date.now();
    }
    if (state.above.size === 0) state.holeSince = Date.now();
    return state.upTo;
  }

  /** Processes one batch in one transaction; returns what to announce once it is committed. */
  async function processBatch(batch: Queued[]) {
    const acks = new Map<string, number>();
    const done = new Map<number, { key: string; seqs: number[] }>();
    const touched = new Map<number, SetState>();
    const alarmChanged = new Set<number>();
    const statusChanged = new Set<number>();
    const rollups: { set: SetState; ts: number; values: Record<string, number | null>; id: number }[] = [];
    let stored = 0;
    let duplicates = 0;
    let maxId = 0;
    const cameOnline: number[] = [];
    // Work on copies so that a failed transaction leaves the caches as they were.
    const pending = new Map<number, SetState>();
    const working = (s: SetState): SetState => {
      let w = pending.get(s.id);
      if (!w) {
        w = { ...s, openAlarms: new Map(s.openAlarms) };
        pending.set(s.id, w);
      }
      return w;
    };

    // Everything read through the shared connection is resolved before the transaction opens: SQLite has
    // one connection, and a read outside the transaction while it is open would wait for ever.
    const resolved: {
      modem: ModemInfo;
      message: ModemData;
      base: SetState | null;
      protocol: CompiledProtocol | undefined;
    }[] = [];
    // (Cached lookups are taken without awaiting: three awaits per message were a noticeable share.)
    for (const { modemKey, message } of batch) {
      let modem = modems.get(modemKey);
      if (modem === undefined) modem = await modemByKey(modemKey);
      if (!modem) continue;
      let base = sets.get(`${modem.id}|${message.port}|${message.address}`);
      if (base === undefined) base = await setFor(modem, message.port, message.address);
      let protocol: CompiledProtocol | undefined;
      if (base) protocol = protocols.peek(base.protocolKey) ?? (await protocols.get(base.protocolKey));
      if (!ackStates.has(modem.id)) await ackStateOf(modem.id);
      resolved.push({ modem, message, base, protocol });
    }

    // Decoding needs no database: done first, so that the samples go in with one statement per hundred.
    const decoded: {
      modem: ModemInfo;
      message: ModemData;
      base: SetState;
      values: Record<string, number | null>;
      status: number;
      active: { code: string; level: string; title: Record<string, string> }[];
      json: string;
    }[] = [];
    for (const { modem, message, base, protocol } of resolved) {
      let seen = done.get(modem.id);
      if (!seen) done.set(modem.id, (seen = { key: modem.key, seqs: [] }));
      seen.seqs.push(message.seq);
      if (!base) {
        log.warn(
          { modem: modem.key, port: message.port, address: message.address },
          'data for a controller no set is bound to',
        );
        continue;
      }
      if (!protocol) {
        log.error({ protocol: base.protocolKey }, 'set uses a protocol that is not published');
        continue;
      }
      let values: Record<string, number | null> = {};
      let status: number = STATUS.offline;
      let active: { code: string; level: string; title: Record<string, string> }[] = [];
      if (!message.error) {
        values = protocol.decode(message.blocks);
        const summary = deriveStatus(protocol.doc, values);
        status = summary.status;
        active = summary.activeAlarms;
      }
      decoded.push({ modem, message, base, values, status, active, json: JSON.stringify(values) });
    }

    await db.transaction().execute(async (trx) => {
      // (modem, seq) → id of the rows this batch inserted; a seq stored before (or twice in the batch) is not.
      const insertedIds = new Map<string, number>();
      for (let i = 0; i < decoded.length; i += SAMPLE_CHUNK) {
        const chunk = decoded.slice(i, i + SAMPLE_CHUNK);
        const params: (number | string)[] = [];
        for (const d of chunk) params.push(d.modem.id, d.message.seq, d.base.id, d.message.ts, d.status, d.json);
        const { rows } = await trx.executeQuery<{ id: number; modem_id: number; seq: number }>(
          CompiledQuery.raw(sampleInsertSql(chunk.length), params),
        );
        for (const r of rows) insertedIds.set(`${r.modem_id}|${r.seq}`, Number(r.id));
      }
      for (const { modem, message, base, values, status, active } of decoded) {
        const key = `${modem.id}|${message.seq}`;
        const id = insertedIds.get(key);
        if (id === undefined) {
          duplicates++;
          continue;
        }
        insertedIds.delete(key);
        const set = working(base);
        stored++;
        if (id > maxId) maxId = id;
        // An older sample (a resend from a module's outbox) is stored but does not move the set backwards.
        const current = message.ts >= set.deviceTs;
        if (current) {
          if (status !== set.status) {
            await trx
              .insertInto('status_change')
              .values({
                genset_id: set.id,
                status,
                previous: set.status,
                ts: message.ts,
                reason: message.error ? 'controller' : 'values',
              })
              .execute();
            set.status = status;
            statusChanged.add(set.id);
          }
          if (!message.error) {
            const activeCodes = new Set(active.map((a) => a.code));
            for (const a of active) {
              if (set.openAlarms.has(a.code)) continue;
              const row = await trx
                .insertInto('alarm')
                .values({
                  genset_id: set.id,
                  code: a.code,
                  level: a.level,
                  title: JSON.stringify(a.title),
                  start_ts: message.ts,
                  end_ts: null,
                  acknowledged: 0,
                })
                .returning('id')
                .executeTakeFirstOrThrow();
              set.openAlarms.set(a.code, {
                id: row.id,
                code: a.code,
                level: a.level,
                title: a.title,
                start: message.ts,
              });
              alarmChanged.add(set.id);
            }
            for (const [code, open] of set.openAlarms) {
              if (activeCodes.has(code)) continue;
              await trx.updateTable('alarm').set({ end_ts: message.ts }).where('id', '=', open.id).execute();
              set.openAlarms.delete(code);
              alarmChanged.add(set.id);
            }
            set.values = values;
          }
          set.deviceTs = message.ts;
        }
        if (!message.error) rollups.push({ set, ts: message.ts, values, id });
        touched.set(set.id, set);
      }

      // Status and alarm count are what lists filter on: they are written with the samples that changed them.
      const now = Date.now();
      for (const id of new Set([...statusChanged, ...alarmChanged])) {
        const set = pending.get(id)!;
        const row = {
          status: set.status,
          alarm_count: set.openAlarms.size,
          values: JSON.stringify(set.values),
          device_ts: set.deviceTs,
          updated_at: now,
        };
        // a new row's rollups are not persisted yet (merged_id 0); an existing row keeps its merged_id
        await trx
          .insertInto('set_latest')
          .values({ genset_id: set.id, ...row, merged_id: 0 })
          .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
          .execute();
      }
      for (const modemId of done.keys()) {
        if (onlineModems.has(modemId)) continue;
        await trx.updateTable('modem').set({ online: 1, last_seen_at: now }).where('id', '=', modemId).execute();
        cameOnline.push(modemId);
      }
    });

    // Committed: the sets take their new state, and the stored samples go into the rollups in memory.
    for (const w of pending.values()) {
      const base = setsById.get(w.id);
      if (base) Object.assign(base, w);
    }
    for (const id of cameOnline) {
      onlineModems.add(id);
      bus.publish('modem', { modemId: id, online: true });
    }
    const now = Date.now();
    for (const [modemId, { key, seqs: stored }] of done) {
      const upTo = advanceAck(ackStates.get(modemId) ?? (await ackStateOf(modemId)), stored, key);
      acks.set(key, upTo);
      // `last_seq` is what is acked: every seq up to it is stored
      const had = dirtyModems.get(modemId);
      dirtyModems.set(modemId, { seq: Math.max(had?.seq ?? 0, upTo), seenAt: now });
    }
    for (const r of rollups) {
      const reading = rollUp(setsById.get(r.set.id) ?? r.set, r.ts, r.values, r.id);
      if (reading) await reading;
    }
    for (const id of touched.keys()) dirtyLatest.add(id);
    if (maxId > mergedUpTo) mergedUpTo = maxId;
    stats.stored += stored;
    stats.duplicates += duplicates;
    return { acks, touched: [...touched.keys()].map((id) => setsById.get(id)!), alarmChanged };
  }

  function announce(set: SetState, alarmsChanged: boolean) {
    bus.publish('monitor', {
      gensetId: set.id,
      token: set.token,
      status: set.status,
      alarmnum: set.openAlarms.size,
      ts: set.deviceTs,
      values: set.values,
    });
    if (alarmsChanged) {
      bus.publish('alarm', {
        gensetId: set.id,
        token: set.token,
        alarmnum: set.openAlarms.size,
        list: [...set.openAlarms.values()].map((a) => ({
          id: a.id,
          code: a.code,
          level: a.level,
          title: a.title,
          start: a.start,
          end: null,
        })),
      });
    }
  }

  /** Merged again from the samples at start; batches wait for it. */
  let ready: Promise<void> = Promise.resolve();

  async function drain() {
    await ready;
    while (queue.length && !closed) {
      // Yield to the event loop before each batch. The broker hands over each QoS 1 message in its own
      // setImmediate callback, and a batch against SQLite completes within the microtasks that follow that
      // callback: without this, every batch held exactly one message (one transaction per message). Waiting
      // one turn lets everything read meanwhile join the batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (closed) break;
      const batch = queue.slice(0, BATCH_LIMIT);
      try {
        const result = await processBatch(batch);
        queue.splice(0, batch.length);
        relieve();
        stats.batches++;
        // An ack goes at QoS 0: one lost with a dropped connection only makes the module resend what it still
        // holds (stored once, acked again), and QoS 1 cost a PUBACK back over the cellular link and broker
        // bookkeeping for every batch.
        for (const [modemKey, upTo] of result.acks) {
          transport
            .publish(modemKey, 'ack', JSON.stringify({ upTo }), { qos: 0 })
            .catch((err: unknown) => log.warn({ err }, 'ack not sent'));
        }
        for (const set of result.touched) announce(set, result.alarmChanged.has(set.id));
        // one slice of the writing of what is held in memory, between batches
        if (cycle || Date.now() - lastPersist >= persistMs) await persistSlice();
      } catch (err) {
        log.error({ err }, 'ingest batch failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
        // The rollups in memory may hold samples of the batch that rolled back: take them from the table.
        await recover().catch((e: unknown) => log.error({ err: e }, 'rollups not recovered'));
      }
    }
  }

  function kick() {
    if (!draining) {
      draining = drain().finally(() => {
        draining = null;
        if (queue.length && !closed) kick();
      });
    }
  }

  /** Runs `work` between batches (never while one is open). */
  async function exclusive<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      if (draining) {
        await draining;
        continue;
      }
      let release!: () => void;
      draining = new Promise<void>((resolve) => (release = resolve));
      try {
        return await work();
      } finally {
        draining = null;
        release();
        if (queue.length && !closed) kick();
      }
    }
  }

  ready = exclusive(() => recover()).catch((err: unknown) => log.error({ err }, 'rollups not recovered at start'));

  // Idle fleets still get their rollups and latest values written.
  // Between batches, and when none come: one slice at a time, so that a batch never waits for more than one.
  const persistTimer = setInterval(() => {
    if (draining || (!cycle && Date.now() - lastPersist < persistMs)) return;
    void exclusive(() => persistSlice()).catch((err: unknown) => log.error({ err }, 'rollups not written'));
  }, 50);
  persistTimer.unref();

  async function setOffline(modemKey: string, reason: string) {
    const modem = await modemByKey(modemKey);
    if (!modem) return;
    const now = Date.now();
    const rows = await db
      .selectFrom('genset')
      .select(['port', 'address'])
      .where('modem_id', '=', modem.id)
      .where('deleted_at', 'is', null)
      .execute();
    const changed: SetState[] = [];
    const states: SetState[] = [];
    for (const r of rows) {
      const set = await setFor(modem, r.port, r.address);
      if (set && set.status !== STATUS.offline) states.push(set);
    }
    onlineModems.delete(modem.id);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('modem').set({ online: 0 }).where('id', '=', modem.id).execute();
      for (const set of states) {
        await trx
          .insertInto('status_change')
          .values({ genset_id: set.id, status: STATUS.offline, previous: set.status, ts: now, reason })
          .execute();
        await trx
          .updateTable('set_latest')
          .set({ status: STATUS.offline, updated_at: now })
          .where('genset_id', '=', set.id)
          .execute();
        changed.push(set);
      }
    });
    bus.publish('modem', { modemId: modem.id, online: false });
    for (const set of changed) {
      set.status = STATUS.offline;
      announce(set, false);
    }
    if (changed.length) log.info({ modem: modemKey, reason }, 'module offline');
  }

  async function handleEvent(modemKey: string, payload: Buffer) {
    const parsed = modemEvent.safeParse(JSON.parse(payload.toString('utf8')));
    if (!parsed.success) throw parsed.error;
    const modem = await modemByKey(modemKey);
    if (!modem) return;
    const row = await db.selectFrom('modem').select('telemetry').where('id', '=', modem.id).executeTakeFirst();
    const telemetry = { ...(JSON.parse(row?.telemetry ?? '{}') as object), ...parsed.data };
    await db
      .updateTable('modem')
      .set({ telemetry: JSON.stringify(telemetry), last_seen_at: Date.now() })
      .where('id', '=', modem.id)
      .execute();
  }

  async function handleHello(modemKey: string, payload: Buffer) {
    const hello = modemHello.parse(JSON.parse(payload.toString('utf8')));
    const modem = await modemByKey(modemKey);
    if (!modem) return;
    await db
      .updateTable('modem')
      .set({
        model: hello.model,
        firmware: hello.firmware,
        imei: hello.imei,
        iccid: hello.iccid,
        online: 1,
        last_seen_at: Date.now(),
      })
      .where('id', '=', modem.id)
      .execute();
    onlineModems.add(modem.id);
    bus.publish('modem', { modemId: modem.id, online: true });
    opts.onHello(modemKey);
  }

  function receive(modemKey: string, channel: ModemChannel, payload: Buffer): Promise<void> | undefined {
    if (closed) return;
    stats.received++;
    lastSeen.set(modemKey, Date.now());
    try {
      switch (channel) {
        case 'data': {
          const json: unknown = JSON.parse(payload.toString('utf8'));
          const message = readModemData(json);
          if (!message) {
            stats.refused++;
            const issues = modemData.safeParse(json).error?.issues.slice(0, 3);
            log.warn({ modem: modemKey, issues }, 'malformed data message refused');
            return;
          }
          queue.push({ modemKey, message });
          if (queue.length > stats.peakQueue) stats.peakQueue = queue.length;
          kick();
          if (queue.length < queueLimit) return;
          if (!relief) {
            let resolve!: () => void;
            const promise = new Promise<void>((r) => (resolve = r));
            relief = { promise, resolve };
            stats.throttled++;
          }
          return relief.promise;
        }
        case 'state': {
          const state = payload.toString('utf8').trim();
          if (state === 'offline') {
            lastSeen.delete(modemKey);
            // 'offline' on the state topic: the module's last will, or its own goodbye when it closes cleanly.
            void setOffline(modemKey, 'moduleOffline').catch((err: unknown) =>
              log.error({ err }, 'offline update failed'),
            );
          }
          return;
        }
        case 'hello':
          void handleHello(modemKey, payload).catch((err: unknown) => {
            stats.refused++;
            log.warn({ modem: modemKey, err }, 'malformed hello refused');
          });
          return;
        case 'event':
          void handleEvent(modemKey, payload).catch((err: unknown) => {
            stats.refused++;
            log.warn({ modem: modemKey, err }, 'malformed event refused');
          });
          return;
        case 'reply':
          opts.onReply(modemKey, JSON.parse(payload.toString('utf8')));
          return;
        default:
          return;
      }
    } catch (err) {
      stats.refused++;
      log.warn({ modem: modemKey, channel, err }, 'unreadable message refused');
    }
  }

  // Modules that were online when the server last stopped count as just seen: if they stay silent, the
  // watchdog below marks them offline after three periods, as if the server had never been away.
  void db
    .selectFrom('modem')
    .select('modem_key')
    .where('online', '=', 1)
    .execute()
    .then((rows) => {
      const now = Date.now();
      for (const r of rows) if (!lastSeen.has(r.modem_key)) lastSeen.set(r.modem_key, now);
    })
    .catch((err: unknown) => log.warn({ err }, 'could not read modules online at start'));

  // Three missed report periods: the module's sets are offline even without a last will.
  const watchdog = setInterval(() => {
    const now = Date.now();
    for (const [modemKey, seen] of lastSeen) {
      if (now - seen > 3 * opts.expectedPeriodMs(modemKey) + 1000) {
        lastSeen.delete(modemKey);
        void setOffline(modemKey, 'noData').catch((err: unknown) => log.error({ err }, 'offline update failed'));
      }
    }
  }, 1000);
  watchdog.unref();

  transport.onMessage(receive);

  return {
    stats,
    /** Forget cached bindings (after a set is added, moved or deleted). */
    invalidate() {
      modems.clear();
      sets.clear();
      setsById.clear();
    },
    /**
     * After the cluster's members changed: writes what is in memory, then forgets the modules (and their sets)
     * this instance no longer owns; their new owner takes them up from the database.
     */
    async handOver(owns: (modemKey: string) => boolean) {
      await exclusive(async () => {
        await persist();
        const released = new Set<number>();
        for (const [key, info] of modems) {
          if (!info || owns(key)) continue;
          released.add(info.id);
          ackStates.delete(info.id);
          modems.delete(key);
          lastSeen.delete(key);
          onlineModems.delete(info.id);
        }
        for (const [key, state] of sets) if (state && released.has(state.modemId)) sets.delete(key);
        for (const [id, state] of setsById) {
          if (!released.has(state.modemId)) continue;
          setsById.delete(id);
          buckets.delete(`rollup_hour|${id}`);
          buckets.delete(`rollup_day|${id}`);
        }
      });
    },
    /** The set's latest state as this process holds it, in the shape of a `set_latest` row. */
    latestRow(gensetId: number) {
      const set = setsById.get(gensetId);
      if (!set) return undefined;
      return {
        status: set.status,
        alarm_count: set.openAlarms.size,
        values: JSON.stringify(set.values),
        device_ts: set.deviceTs,
      };
    },
    /** Resolves once everything received so far is stored, rollups and latest values included. */
    async flush() {
      await ready;
      while (queue.length || draining) await (draining ?? new Promise((r) => setTimeout(r, 5)));
      await exclusive(() => persist());
    },
    async close() {
      clearInterval(watchdog);
      clearInterval(persistTimer);
      await this.flush().catch((err: unknown) => log.error({ err }, 'rollups not written at close'));
      closed = true;
      relieve();
    },
  };
}
export type Ingest = ReturnType<typeof createIngest>;
