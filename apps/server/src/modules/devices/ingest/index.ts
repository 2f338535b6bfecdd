// Ingestion: turns the modules' raw register snapshots into stored samples, the latest values, status
// transitions, alarms and hour/day rollups. Messages are processed in batches, one transaction per batch,
// live data ahead of backlog and each module's in its order (queue.ts); a module is acked only after its samples are committed, and a (modem, seq) it
// already stored is skipped, so a resend after any crash or reconnect stores nothing twice.
//
// A batch goes through the stages in this order, each in a file of its own:
//   decode.ts         which set each snapshot is for, and its values, status and active alarms
//   store.ts          the batch's transaction: the samples, and through status-alarms.ts what they change
//   status-alarms.ts  status changes, alarms opened and closed, the sets' latest rows, the bus pushes
//   rollups.ts        hour/day rollups in memory, written in slices with the latest values every `persistMs`
//   acks.ts           how far each module may be acked, and the ack itself
// sets.ts keeps the module and set bindings and each set's live state; presence.ts handles the modules'
// hellos, events and goodbyes and the watchdog; positions.ts their GPS fixes, tracks and fences; a station's
// energy is counted from its PCS's counters in the batch (sites/energy.ts) and its module's EMS status is kept
// between batches (sites/ems-status.ts). This file
// wires them: the queue, its backpressure on the broker, the batch loop, and the writing of what is held in
// memory between batches.
import type { EmsStatus, ModemChannel, ModemData } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { RealtimeBus } from '../bus.ts';
import type { ProtocolStore } from '../protocols.ts';
import type { DeviceTransport } from '../transport.ts';
import { createAcks } from './acks.ts';
import { createDecoder } from './decode.ts';
import { createPositions } from './positions.ts';
import { createPresence } from './presence.ts';
import { createRollups } from './rollups.ts';
import { runningReadings } from './running-readings.ts';
import { createSets } from './sets.ts';
import { createStatusAlarms } from './status-alarms.ts';
import { createRuleBook } from './rules.ts';
import { createStore } from './store.ts';
import { createSiteEnergy } from '../../sites/energy.ts';
import { createSiteEms } from '../../sites/ems-status.ts';
import { newStats, type ModemInfo, type Queued } from './types.ts';
import { createIngestQueue } from './queue.ts';

export { STATUS } from './types.ts';

const BATCH_LIMIT = 500;
/** Snapshots waiting beyond this make the broker stop reading from the modules until the queue is half as long. */
const DEFAULT_QUEUE_LIMIT = 5000;

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
  /** Sets whose live state is held at most, and how long one not heard from is kept (config.ts). */
  setCache?: { max: number; idleMs: number };
}

export function createIngest(opts: IngestOptions) {
  const { db, transport, protocols, bus, log, cluster } = opts;
  const persistMs = opts.persistMs ?? 2000;
  const queueLimit = opts.queueLimit ?? DEFAULT_QUEUE_LIMIT;
  const stats = newStats();

  const acks = createAcks({ db, transport, log, gapWaitMs: opts.gapWaitMs ?? 180_000 });
  // (a set taken up from another instance catches up through the rollups, which are created just below)
  const sets = createSets({ db, log, cluster, takeUp: (set) => rollups.catchUp(set) });
  const rollups = createRollups({
    db,
    log,
    sets,
    acks,
    stats,
    persistMs,
    cluster,
    runningOnly: runningReadings(protocols),
  });
  const rules = createRuleBook(db);
  const statusAlarms = createStatusAlarms({ db, sets, bus, log, rules });
  const decoder = createDecoder({ db, sets, protocols, acks, log, stats });
  const siteEnergy = createSiteEnergy({ db, protocols, log });
  const store = createStore({ db, sets, statusAlarms, siteEnergy });
  const positions = createPositions({ db, sets, statusAlarms, log });
  const siteEms = createSiteEms({ db, sets, statusAlarms, bus, log });
  const presence = createPresence({
    db,
    sets,
    statusAlarms,
    bus,
    log,
    expectedPeriodMs: opts.expectedPeriodMs,
    onHello: opts.onHello,
    ordered: (work) => afterQueued(work),
  });

  const queue = createIngestQueue();
  /** Settles when the queue is back under half the high-water mark; modules wait for it meanwhile. */
  let relief: { promise: Promise<void>; resolve: () => void } | null = null;
  const relieve = () => {
    if (relief && (queue.size < queueLimit / 2 || closed)) {
      relief.resolve();
      relief = null;
    }
  };
  let draining: Promise<void> | null = null;
  let closed = false;
  /** Work waiting for the messages queued before it to be stored: the arrival number of the last of them. */
  const barriers: { upTo: number; run: () => Promise<void> }[] = [];

  /** Runs the barriers whose messages are all stored (all of them once the queue is empty). */
  async function passBarriers() {
    while (barriers.length && barriers[0]!.upTo < queue.oldest()) await barriers.shift()!.run();
  }

  /** One batch through the stages; returns what to send and announce once it is committed. */
  async function processBatch(batch: Queued[]) {
    const { decoded, seen } = await decoder.decodeBatch(batch);
    // (read before the transaction opens, as everything a batch reads)
    await siteEnergy.prepare();
    await rules.fresh();
    const written = await store.write(decoded, seen);
    // Committed: the sets take their new state, the modules their acks, the stored samples go into the rollups.
    store.adopt(written.working);
    statusAlarms.cameOnline(written.cameOnline);
    const acked = await acks.settle(seen);
    await rollups.addStored(written.rollups, written.touched.keys(), written.maxId);
    stats.stored += written.stored;
    stats.duplicates += written.duplicates;
    return {
      acked,
      touched: [...written.touched.keys()].map((id) => sets.byId(id)!),
      alarmChanged: written.alarmChanged,
    };
  }

  /**
   * Runs `work` in the ingestion's order: between batches, once every message queued before the call is
   * stored (at once, between batches, when nothing is queued).
   */
  function afterQueued<T>(work: () => Promise<T>): Promise<T> {
    if (!draining || queue.size === 0) return exclusive(work);
    return new Promise<T>((resolve, reject) => {
      barriers.push({ upTo: queue.last, run: () => work().then(resolve, reject) });
    });
  }

  const setCache = opts.setCache ?? { max: 50_000, idleMs: 3_600_000 };
  /** Lets go of the sets idle or beyond the limit whose changes are all written (between batches). */
  function letIdleSetsGo() {
    for (const id of [...sets.idle(setCache.max, setCache.idleMs)]) {
      if (rollups.holds(id)) continue;
      sets.forgetSet(id);
      rollups.forgetSet(id);
    }
  }

  /** Merged again from the samples at start; batches wait for it. */
  let ready: Promise<void> = Promise.resolve();

  async function drain() {
    await ready;
    while (queue.size && !closed) {
      // Yield to the event loop before each batch. The broker hands over each QoS 1 message in its own
      // setImmediate callback, and a batch against SQLite completes within the microtasks that follow that
      // callback: without this, every batch held exactly one message (one transaction per message). Waiting
      // one turn lets everything read meanwhile join the batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (closed) break;
      const batch = queue.peek(BATCH_LIMIT);
      try {
        const result = await processBatch(batch);
        queue.done(batch);
        relieve();
        stats.batches++;
        acks.send(result.acked);
        for (const set of result.touched) statusAlarms.announce(set, result.alarmChanged.has(set.id));
        await passBarriers();
        // one slice of the writing of what is held in memory, between batches
        if (rollups.persistDue()) await rollups.persistSlice();
        if (sets.held > setCache.max) letIdleSetsGo();
      } catch (err) {
        log.error({ err }, 'ingest batch failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
        // The rollups in memory may hold samples of the batch that rolled back: take them from the table.
        await rollups.recover().catch((e: unknown) => log.error({ err: e }, 'rollups not recovered'));
      }
    }
    while (barriers.length) await barriers.shift()!.run();
  }

  function kick() {
    if (!draining) {
      draining = drain().finally(() => {
        draining = null;
        if (queue.size && !closed) kick();
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
        if (queue.size && !closed) kick();
      }
    }
  }

  ready = exclusive(() => rollups.recover()).catch((err: unknown) =>
    log.error({ err }, 'rollups not recovered at start'),
  );

  // Sets not heard from for a while, and the least recently heard beyond the limit, are let go once all of them
  // is written: ingestion's memory follows the sets that report, not every set there is.
  const sweepTimer = setInterval(
    () => {
      void exclusive(async () => letIdleSetsGo()).catch((err: unknown) => log.error({ err }, 'idle sets not let go'));
    },
    Math.min(60_000, setCache.idleMs),
  );
  sweepTimer.unref();

  // Idle fleets still get their rollups and latest values written.
  // Between batches, and when none come: one slice at a time, so that a batch never waits for more than one.
  const persistTimer = setInterval(() => {
    if (draining || !rollups.persistDue()) return;
    void exclusive(async () => {
      await rollups.persistSlice();
      if (sets.held > setCache.max) letIdleSetsGo();
    }).catch((err: unknown) => log.error({ err }, 'rollups not written'));
  }, 50);
  persistTimer.unref();

  /** Queues a snapshot; past the high-water mark, the answer settles once the queue has room again. */
  function enqueue(modemKey: string, message: ModemData): Promise<void> | undefined {
    queue.push({ modemKey, message });
    if (queue.size > stats.peakQueue) stats.peakQueue = queue.size;
    kick();
    if (queue.size < queueLimit) return;
    if (!relief) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      relief = { promise, resolve };
      stats.throttled++;
    }
    return relief.promise;
  }

  function receive(modemKey: string, channel: ModemChannel, payload: Buffer): Promise<void> | undefined {
    if (closed) return;
    stats.received++;
    presence.seen(modemKey);
    try {
      switch (channel) {
        case 'data': {
          const message = decoder.read(modemKey, payload);
          if (!message) return;
          const wait = enqueue(modemKey, message);
          // while the broker holds the module back for room in the queue, its silence is the server's
          if (wait) presence.hold(modemKey, wait);
          return wait;
        }
        case 'state': {
          if (payload.toString('utf8').trim() === 'offline') presence.gone(modemKey);
          return;
        }
        case 'hello':
          void presence.hello(modemKey, payload).then(
            (heard) => {
              if (heard?.hello.ems) emsStatus(heard.modem, heard.hello.ems);
            },
            (err: unknown) => {
              stats.refused++;
              log.warn({ modem: modemKey, err }, 'malformed hello refused');
            },
          );
          return;
        case 'event':
          void presence.event(modemKey, payload).then(
            (heard) => {
              // a station's module: what its EMS runs, between batches (a safe stop is an alarm of its PCS)
              if (heard?.event.ems) emsStatus(heard.modem, heard.event.ems);
              // its GPS fix moves its sets, between batches (which own the sets' alarms)
              if (heard?.event.gps)
                void exclusive(() => positions.fix(heard.modem, heard.event)).catch((err: unknown) =>
                  log.error({ err, modem: modemKey }, 'position not stored'),
                );
            },
            (err: unknown) => {
              stats.refused++;
              log.warn({ modem: modemKey, err }, 'malformed event refused');
            },
          );
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

  function emsStatus(modem: ModemInfo, ems: EmsStatus) {
    void exclusive(() => siteEms.status(modem, ems)).catch((err: unknown) =>
      log.error({ err, modem: modem.key }, 'station EMS status not stored'),
    );
  }

  presence.start();
  transport.onMessage(receive);

  return {
    stats,
    /** The companies' threshold rules as ingestion holds them (told when one is saved or deleted here). */
    rules,
    /**
     * Takes a module's past snapshots as if it had sent them (the demo's history): through the same queue,
     * decoder and stages, without counting the module as heard from now. Settles once they are all stored.
     */
    async replay(modemKey: string, messages: Iterable<ModemData>) {
      let n = 0;
      for (const message of messages) {
        await enqueue(modemKey, message);
        // making the snapshots costs time too: let batches, requests and live modules in between (every ten, the
        // loop waits 13 ms at the median during the demo's 30-day backfill, 71 ms when it was every hundred)
        if (++n % 10 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await exclusive(async () => undefined);
    },
    /** How many sets' live state is held (see `setCache`). */
    get heldSets() {
      return sets.held;
    },
    /** The module is not there (whatever its replayed past said): its sets are shown offline. */
    absent(modemKey: string) {
      presence.gone(modemKey);
    },
    /** Stations, their sets or price templates changed: their energy bindings are read again. */
    sitesChanged() {
      siteEnergy.invalidate();
    },
    /** Forget cached bindings (after a set is added, moved or deleted). */
    invalidate() {
      sets.forget();
    },
    /**
     * After the cluster's members changed: writes what is in memory, then forgets the modules (and their sets)
     * this instance no longer owns; their new owner takes them up from the database.
     */
    async handOver(owns: (modemKey: string) => boolean) {
      await exclusive(async () => {
        await rollups.persist();
        const released = sets.release(owns);
        for (const modem of released.modems) {
          acks.forget(modem.id);
          presence.forget(modem.key);
        }
        for (const id of released.sets) rollups.forgetSet(id);
        // snapshots of those modules still queued are left to their new owner (unacked, the modules send them
        // again): stored here, they would take the set up again beside it
        queue.filter(owns);
        relieve();
      });
    },
    /** The set's latest state as this process holds it, in the shape of a `set_latest` row. */
    latestRow(gensetId: number) {
      const set = sets.byId(gensetId);
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
      while (queue.size || draining) await (draining ?? new Promise((r) => setTimeout(r, 5)));
      await exclusive(() => rollups.persist());
    },
    async close() {
      presence.stop();
      clearInterval(persistTimer);
      clearInterval(sweepTimer);
      await this.flush().catch((err: unknown) => log.error({ err }, 'rollups not written at close'));
      closed = true;
      relieve();
    },
  };
}
export type Ingest = ReturnType<typeof createIngest>;
