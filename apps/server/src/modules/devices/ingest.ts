// Ingestion: turns the modules' raw register snapshots into stored samples, the latest values, status
// transitions, alarms and hour/day rollups. Messages are processed in arrival order, in batches, one
// transaction per batch; a module is acked only after its samples are committed, and a (modem, seq) it
// already stored is skipped, so a resend after any crash or reconnect stores nothing twice.
import { deriveStatus, modemData, modemEvent, modemHello, type ModemData, type ModemChannel } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
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
}

export function createIngest(opts: IngestOptions) {
  const { db, transport, protocols, bus, log } = opts;
  const modems = new Map<string, ModemInfo | null>();
  const sets = new Map<string, SetState | null>();
  const setsById = new Map<number, SetState>();
  const buckets = new Map<string, Bucket>();
  const lastSeen = new Map<string, number>();
  const queue: Queued[] = [];
  let draining: Promise<void> | null = null;
  let closed = false;
  const stats = { received: 0, stored: 0, duplicates: 0, refused: 0, batches: 0 };

  async function modemByKey(key: string): Promise<ModemInfo | null> {
    if (modems.has(key)) return modems.get(key)!;
    const row = await db
      .selectFrom('modem')
      .select(['id', 'company_id'])
      .where('modem_key', '=', key)
      .executeTakeFirst();
    const info = row ? { id: row.id, key, companyId: row.company_id } : null;
    modems.set(key, info);
    return info;
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
    if (!row) {
      sets.set(cacheKey, null);
      return null;
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
      modemId: modem.id,
      protocolKey: row.protocol_key,
      timeZone: row.time_zone,
      status: latest?.status ?? STATUS.offline,
      values: latest ? (JSON.parse(latest.values) as Record<string, number | null>) : {},
      deviceTs: latest?.device_ts ?? 0,
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
    sets.set(cacheKey, state);
    setsById.set(state.id, state);
    return state;
  }

  function mergeStats(stats: BucketStats, values: Record<string, number | null>) {
    for (const [key, v] of Object.entries(values)) {
      if (v === null || !Number.isFinite(v)) continue;
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

  /**
   * The bucket a sample falls in. `inBatch` holds the buckets the running batch changed, keyed by table, set
   * and bucket: their rows are written only at the end of the batch, so a bucket met again after another one
   * (a resend from an older hour between live samples) must be taken from there, not read again (which
   * would start it afresh and insert its row twice).
   */
  async function bucketFor(
    trx: Db,
    table: Bucket['table'],
    gensetId: number,
    bucket: number,
    inBatch: Map<string, Bucket>,
  ): Promise<Bucket> {
    const key = `${table}|${gensetId}`;
    const cached = buckets.get(key);
    if (cached && cached.bucket === bucket) return cached;
    let b = inBatch.get(`${key}|${bucket}`);
    if (!b) {
      const row = await trx
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
    buckets.set(key, b);
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

  function titleOf(title: Record<string, string>) {
    return title;
  }

  /** Processes one batch in one transaction; returns what to announce once it is committed. */
  async function processBatch(batch: Queued[]) {
    const acks = new Map<string, number>();
    const touched = new Map<number, SetState>();
    const alarmChanged = new Set<number>();
    const dirtyBuckets = new Map<string, Bucket>();
    let stored = 0;
    let duplicates = 0;
    const seqs = new Map<number, number>();
    // Work on copies so that a failed transaction leaves the caches as they were.
    const pending = new Map<number, SetState>();
    const working = (s: SetState): SetState => {
      let w = pending.get(s.id);
      if (!w) {
        w = { ...s, values: { ...s.values }, openAlarms: new Map(s.openAlarms) };
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
    for (const { modemKey, message } of batch) {
      const modem = await modemByKey(modemKey);
      if (!modem) continue;
      const base = await setFor(modem, message.port, message.address);
      resolved.push({ modem, message, base, protocol: base ? await protocols.get(base.protocolKey) : undefined });
    }

    await db
      .transaction()
      .execute(async (trx) => {
        for (const { modem, message, base, protocol } of resolved) {
          acks.set(modem.key, Math.max(acks.get(modem.key) ?? 0, message.seq));
          seqs.set(modem.id, Math.max(seqs.get(modem.id) ?? 0, message.seq));
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
          const set = working(base);
          let values: Record<string, number | null> = {};
          let status: number = STATUS.offline;
          let active: { code: string; level: string; title: Record<string, string> }[] = [];
          if (!message.error) {
            values = protocol.decode(message.blocks);
            const summary = deriveStatus(protocol.doc, values);
            status = summary.status;
            active = summary.activeAlarms;
          }
          const inserted = await trx
            .insertInto('sample')
            .values({
              modem_id: modem.id,
              seq: message.seq,
              genset_id: set.id,
              ts: message.ts,
              status,
              values: JSON.stringify(values),
            })
            .onConflict((oc) => oc.columns(['modem_id', 'seq']).doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!inserted) {
            duplicates++;
            continue;
          }
          stored++;
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
                    title: JSON.stringify(titleOf(a.title)),
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
          if (!message.error) {
            for (const [table, bucket] of [
              ['rollup_hour', startOfHour(message.ts)],
              ['rollup_day', dayBucket(message.ts, set.timeZone)],
            ] as const) {
              const b = await bucketFor(trx, table, set.id, bucket, dirtyBuckets);
              mergeStats(b.stats, values);
              b.samples += 1;
              dirtyBuckets.set(`${table}|${set.id}|${bucket}`, b);
            }
          }
          touched.set(set.id, set);
        }

        for (const b of dirtyBuckets.values()) {
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
        const now = Date.now();
        for (const set of touched.values()) {
          const row = {
            status: set.status,
            alarm_count: set.openAlarms.size,
            values: JSON.stringify(set.values),
            device_ts: set.deviceTs,
            updated_at: now,
          };
          await trx
            .insertInto('set_latest')
            .values({ genset_id: set.id, ...row })
            .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
            .execute();
        }
        for (const [modemId, seq] of seqs) {
          await trx.updateTable('modem').set({ last_seen_at: now, online: 1 }).where('id', '=', modemId).execute();
          await trx
            .updateTable('modem')
            .set({ last_seq: seq })
            .where('id', '=', modemId)
            .where('last_seq', '<', seq)
            .execute();
        }
      })
      .catch((err: unknown) => {
        // The transaction rolled back: forget the buckets it changed, so that they are read again as committed.
        for (const b of dirtyBuckets.values()) {
          const key = `${b.table}|${b.gensetId}`;
          if (buckets.get(key) === b) buckets.delete(key);
        }
        throw err;
      });

    for (const b of dirtyBuckets.values()) b.persisted = true;
    stats.stored += stored;
    stats.duplicates += duplicates;
    for (const w of pending.values()) {
      const base = setsById.get(w.id);
      if (base) Object.assign(base, w);
    }
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

  async function drain() {
    while (queue.length && !closed) {
      // Yield to the event loop before each batch. The broker hands over each QoS 1 message in its own
      // setImmediate callback, and a batch against SQLite completes within the microtasks that follow that
      // callback: without this, every batch held exactly one message (one transaction, one rollup and
      // latest-values write per message). Waiting one turn lets everything read meanwhile join the batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (closed) break;
      const batch = queue.slice(0, BATCH_LIMIT);
      try {
        const result = await processBatch(batch);
        queue.splice(0, batch.length);
        stats.batches++;
        for (const [modemKey, upTo] of result.acks) {
          transport
            .publish(modemKey, 'ack', JSON.stringify({ upTo }))
            .catch((err: unknown) => log.warn({ err }, 'ack not sent'));
        }
        for (const set of result.touched) announce(set, result.alarmChanged.has(set.id));
      } catch (err) {
        log.error({ err }, 'ingest batch failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
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
    opts.onHello(modemKey);
  }

  function receive(modemKey: string, channel: ModemChannel, payload: Buffer) {
    if (closed) return;
    stats.received++;
    lastSeen.set(modemKey, Date.now());
    try {
      switch (channel) {
        case 'data': {
          const parsed = modemData.safeParse(JSON.parse(payload.toString('utf8')));
          if (!parsed.success) {
            stats.refused++;
            log.warn({ modem: modemKey, issues: parsed.error.issues.slice(0, 3) }, 'malformed data message refused');
            return;
          }
          queue.push({ modemKey, message: parsed.data });
          kick();
          return;
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
    async latest(gensetId: number) {
      return setsById.get(gensetId);
    },
    /** Resolves once everything received so far is stored. */
    async flush() {
      while (queue.length || draining) await (draining ?? new Promise((r) => setTimeout(r, 5)));
    },
    async close() {
      clearInterval(watchdog);
      await this.flush().catch(() => undefined);
      closed = true;
    },
  };
}
export type Ingest = ReturnType<typeof createIngest>;
