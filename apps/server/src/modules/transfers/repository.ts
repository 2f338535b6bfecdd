// SQL of handover records: reading them with both parties and the set, the lists of one user, and the
// conditional status change that settles a record once (a second accept, or an accept racing a revoke,
// changes no row).
import type { Db } from '../../db/database.ts';
import type { TransferBox, TransferStatus } from '@genset/protocol';

export interface TransferRow {
  id: number;
  genset_id: number;
  from_user_id: number;
  /** null: no account of the name the sender gave exists (the record is never answered). */
  to_user_id: number | null;
  status: string;
  keep_subscription: string;
  remark: string;
  created_at: number;
  processed_at: number | null;
  token: string;
  genset_name: string;
  genset_deleted_at: number | null;
  from_account: string | null;
  from_nickname: string;
  /** The receiving account as the sender named it. */
  to_account: string | null;
  to_nickname: string | null;
}

export function createTransferRepository(db: Db) {
  function withParties(q: Db = db) {
    return q
      .selectFrom('transfer as t')
      .innerJoin('genset as g', 'g.id', 't.genset_id')
      .innerJoin('users as f', 'f.id', 't.from_user_id')
      .leftJoin('users as r', 'r.id', 't.to_user_id')
      .select([
        't.id',
        't.genset_id',
        't.from_user_id',
        't.to_user_id',
        't.status',
        't.keep_subscription',
        't.remark',
        't.created_at',
        't.processed_at',
        'g.token',
        'g.name as genset_name',
        'g.deleted_at as genset_deleted_at',
        'f.account as from_account',
        'f.nickname as from_nickname',
        't.to_account',
        'r.nickname as to_nickname',
      ]);
  }

  return {
    byId(id: number): Promise<TransferRow | undefined> {
      return withParties().where('t.id', '=', id).executeTakeFirst();
    },

    /** The set's untreated record, if any. */
    untreatedOf(gensetId: number) {
      return db
        .selectFrom('transfer')
        .select('id')
        .where('genset_id', '=', gensetId)
        .where('status', '=', 'untreated')
        .executeTakeFirst();
    },

    async insert(row: {
      gensetId: number;
      fromUserId: number;
      toUserId: number | null;
      toAccount: string;
      keepSubscription: string;
      remark: string;
      now: number;
    }): Promise<number> {
      const inserted = await db
        .insertInto('transfer')
        .values({
          genset_id: row.gensetId,
          from_user_id: row.fromUserId,
          to_user_id: row.toUserId,
          to_account: row.toAccount,
          status: 'untreated',
          keep_subscription: row.keepSubscription,
          remark: row.remark,
          created_at: row.now,
          processed_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return inserted.id;
    },

    /** Settles an untreated record; false when it was settled already (by this call's rival, say). */
    async settle(q: Db, id: number, status: Exclude<TransferStatus, 'untreated'>, now: number) {
      const result = await q
        .updateTable('transfer')
        .set({ status, processed_at: now })
        .where('id', '=', id)
        .where('status', '=', 'untreated')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** One user's records, incoming and outgoing: pending ones newest first, done ones latest processed first. */
    async list(userId: number, box: TransferBox, page: number, size: number) {
      const base = withParties().where((eb) =>
        eb.or([eb('t.from_user_id', '=', userId), eb('t.to_user_id', '=', userId)]),
      );
      const boxed =
        box === 'pending' ? base.where('t.status', '=', 'untreated') : base.where('t.status', '!=', 'untreated');
      const count = await db
        .selectFrom('transfer as t')
        .where((eb) => eb.or([eb('t.from_user_id', '=', userId), eb('t.to_user_id', '=', userId)]))
        .where('t.status', box === 'pending' ? '=' : '!=', 'untreated')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const ordered =
        box === 'pending'
          ? boxed.orderBy('t.created_at', 'desc')
          : boxed.orderBy('t.processed_at', 'desc').orderBy('t.created_at', 'desc');
      const rows = await ordered
        .orderBy('t.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      return { rows, total: Number(count.n) };
    },
  };
}
export type TransferRepository = ReturnType<typeof createTransferRepository>;
