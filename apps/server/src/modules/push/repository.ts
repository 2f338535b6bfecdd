// Rows of Web Push: subscribed browsers and the installation's VAPID key pair.
import type { Db } from '../../db/database.ts';

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
}

export function createPushRepository(db: Db) {
  return {
    async keys() {
      return db.selectFrom('push_key').selectAll().where('id', '=', 1).executeTakeFirst();
    },

    /** Keeps a key pair unless one is kept already (two instances starting at once keep the first). */
    async keepKeys(publicKey: string, privateKey: string, now: number) {
      await db
        .insertInto('push_key')
        .values({ id: 1, public_key: publicKey, private_key: privateKey, created_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },

    /**
     * A browser subscribed for a person. The same browser again (its endpoint) is one row: its keys are the new
     * ones, and it is the person's who subscribed it last (a shared computer signed into by someone else).
     */
    async upsert(userId: number, sub: NewSubscription, now: number): Promise<number> {
      const row = await db
        .insertInto('push_subscription')
        .values({ user_id: userId, ...sub, created_at: now, last_success_at: null, failures: 0 })
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            user_id: userId,
            p256dh: sub.p256dh,
            auth: sub.auth,
            label: sub.label,
            failures: 0,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Removes a person's oldest devices beyond `keep`. */
    async trim(userId: number, keep: number) {
      const old = await db
        .selectFrom('push_subscription')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1000)
        .execute();
      if (old.length)
        await db
          .deleteFrom('push_subscription')
          .where(
            'id',
            'in',
            old.map((r) => r.id),
          )
          .execute();
    },

    async listOf(userId: number) {
      return db
        .selectFrom('push_subscription')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Removes one of a person's devices; answers how many rows went (0: not theirs, or no such device). */
    async removeOwn(userId: number, which: { id?: number | undefined; endpoint?: string | undefined }) {
      let q = db.deleteFrom('push_subscription').where('user_id', '=', userId);
      if (which.id !== undefined) q = q.where('id', '=', which.id);
      if (which.endpoint !== undefined) q = q.where('endpoint', '=', which.endpoint);
      const result = await q.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async byId(id: number) {
      return db.selectFrom('push_subscription').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async remove(id: number) {
      await db.deleteFrom('push_subscription').where('id', '=', id).execute();
    },

    async succeeded(id: number, now: number) {
      await db
        .updateTable('push_subscription')
        .set({ last_success_at: now, failures: 0 })
        .where('id', '=', id)
        .execute();
    },

    async failed(id: number) {
      await db
        .updateTable('push_subscription')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
  };
}
export type PushRepository = ReturnType<typeof createPushRepository>;
