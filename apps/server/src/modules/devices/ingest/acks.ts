// Acks: how far each module may be acked, once a batch is committed. A module is acked up to the highest seq
// with every seq up to it stored (`upTo`); seqs stored past a hole wait in `above`, so a seq that went to an
// instance that died before storing it is not acked by a later one (the module keeps it and sends it again).
// A hole that stays open longer than `gapWaitMs` is data the module no longer has, and the ack passes over it.
// How far a module was acked is written as its `last_seq` with the next slice of what is held in memory
// (rollups.ts), and read back, with the samples stored after it, when the module is next heard from.
import { sql, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import type { DeviceTransport } from '../transport.ts';
import type { SeenSeqs } from './types.ts';

interface AckState {
  upTo: number;
  above: Set<number>;
  holeSince: number;
}

/** A module's acked seq and when it was last heard from, to be written. */
type Unwritten = [modemId: number, { seq: number; seenAt: number }];

interface AcksOptions {
  db: Db;
  transport: DeviceTransport;
  log: FastifyBaseLogger;
  gapWaitMs: number;
}

export function createAcks({ db, transport, log, gapWaitMs }: AcksOptions) {
  const states = new Map<number, AckState>();
  /** Modules heard from since the last write: the highest seq acked and when. */
  const unwritten = new Map<number, { seq: number; seenAt: number }>();

  /** The module's ack state, from its persisted last seq and the samples stored after it. */
  async function load(modemId: number) {
    let state = states.get(modemId);
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
    states.set(modemId, state);
    return state;
  }

  /** Marks seqs stored (or seen stored before) and returns how far the module may be acked. */
  function advance(state: AckState, done: number[], modemKey: string) {
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

  return {
    /** Whether the module's ack state is at hand (else `load` reads it, before the batch's transaction). */
    known: (modemId: number) => states.has(modemId),
    load,
    /** Whether the seq was acked or stored past a hole already (so a message with it is a resend). */
    passed(modemId: number, seq: number) {
      const state = states.get(modemId);
      return state !== undefined && (seq <= state.upTo || state.above.has(seq));
    },
    /** After a batch committed: how far each of its modules may be acked now (by module key). */
    async settle(seen: SeenSeqs) {
      const acks = new Map<string, number>();
      const now = Date.now();
      for (const [modemId, { key, seqs }] of seen) {
        const upTo = advance(states.get(modemId) ?? (await load(modemId)), seqs, key);
        acks.set(key, upTo);
        // `last_seq` is what is acked: every seq up to it is stored
        const had = unwritten.get(modemId);
        unwritten.set(modemId, { seq: Math.max(had?.seq ?? 0, upTo), seenAt: now });
      }
      return acks;
    },
    /**
     * Sends the acks. An ack goes at QoS 0: one lost with a dropped connection only makes the module resend
     * what it still holds (stored once, acked again), and QoS 1 cost a PUBACK back over the cellular link and
     * broker bookkeeping for every batch.
     */
    send(acks: Map<string, number>) {
      for (const [modemKey, upTo] of acks) {
        transport
          .publish(modemKey, 'ack', JSON.stringify({ upTo }), { qos: 0 })
          .catch((err: unknown) => log.warn({ err }, 'ack not sent'));
      }
    },
    /** Forgets the module (handed to another instance). */
    forget(modemId: number) {
      states.delete(modemId);
    },
    unwrittenCount: () => unwritten.size,
    /** Takes what is to be written; `putBack` returns it when the write failed. */
    take(): Unwritten[] {
      const list = [...unwritten];
      unwritten.clear();
      return list;
    },
    putBack(list: Unwritten[]) {
      for (const [id, m] of list) {
        const newer = unwritten.get(id);
        unwritten.set(id, newer ? { seq: Math.max(newer.seq, m.seq), seenAt: newer.seenAt } : m);
      }
    },
    async write(trx: Transaction<Database>, list: Unwritten[]) {
      for (const [modemId, m] of list) {
        await trx
          .updateTable('modem')
          .set({
            last_seen_at: m.seenAt,
            last_seq: sql<number>`case when last_seq < ${m.seq} then ${m.seq} else last_seq end`,
          })
          .where('id', '=', modemId)
          .execute();
      }
    },
  };
}
export type Acks = ReturnType<typeof createAcks>;
