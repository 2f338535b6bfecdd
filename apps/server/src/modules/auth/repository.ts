// SQL of accounts, sessions, sign-in throttles and one-time codes.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type { UserTable, SessionTable, AuthThrottleTable, OperationLogTable } from '../../db/schema.ts';

export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type ThrottleRow = Selectable<AuthThrottleTable>;

export function createAuthRepository(db: Db) {
  const signedIn = prepareQuery(db, 1, (tokenHash: string) =>
    db
      .selectFrom('session as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('role as r', 'r.id', 'u.role_id')
      .selectAll('u')
      .select([
        's.id as session_id',
        's.expires_at as session_expires_at',
        's.last_seen_at as session_last_seen_at',
        's.revoked_at as session_revoked_at',
        's.revoke_reason as session_revoke_reason',
        'r.id as role_key_id',
        'r.name as role_name',
        'r.permissions as role_permissions',
        'r.menus as role_menus',
        'r.data_scope as role_data_scope',
        'r.status as role_status',
      ])
      .where('s.token_hash', '=', tokenHash),
  );

  return {
    findUserByAccount(account: string) {
      return db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
    },
    findUserById(id: number) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async updateUser(id: number, patch: Updateable<UserTable>) {
      await db.updateTable('users').set(patch).where('id', '=', id).execute();
    },
    findUserByInviteCode(code: string) {
      return db
        .selectFrom('users')
        .selectAll()
        .where('invite_code', '=', code)
        .where('status', '=', 'active')
        .executeTakeFirst();
    },

    async insertSession(row: Insertable<SessionTable>) {
      await db.insertInto('session').values(row).execute();
    },
    /** A session with its user and the user's role: one query, as every signed call needs all three. */
    async findSignedIn(tokenHash: string) {
      return (await signedIn(tokenHash))[0];
    },
    async touchSession(id: number, now: number, expiresAt: number) {
      await db.updateTable('session').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
    },
    async revokeSession(id: number, now: number, reason: string) {
      await db
        .updateTable('session')
        .set({ revoked_at: now, revoke_reason: reason })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },
    /** Revokes every live session of a user except `keepId`. */
    async revokeUserSessions(userId: number, now: number, reason: string, keepId?: number) {
      let q = db
        .updateTable('session')
        .set({ revoked_at: now, revoke_reason: reason })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (keepId !== undefined) q = q.where('id', '!=', keepId);
      await q.execute();
    },

    findThrottle(key: string) {
      return db.selectFrom('auth_throttle').selectAll().where('throttle_key', '=', key).executeTakeFirst();
    },
    async saveThrottle(row: Selectable<AuthThrottleTable>) {
      await db
        .insertInto('auth_throttle')
        .values(row)
        .onConflict((oc) =>
          oc.column('throttle_key').doUpdateSet({
            failures: row.failures,
            first_failure_at: row.first_failure_at,
            locked_until: row.locked_until,
          }),
        )
        .execute();
    },
    async clearThrottle(key: string) {
      await db.deleteFrom('auth_throttle').where('throttle_key', '=', key).execute();
    },
    /** Removes every count whose key starts with `prefix` (taken literally, no pattern). */
    async clearThrottles(prefix: string) {
      await db
        .deleteFrom('auth_throttle')
        .where(sql<string>`substr(throttle_key, 1, ${prefix.length})`, '=', prefix)
        .execute();
    },
    /** Whether the person has ever opened a session from this address (signed in there before, or is signed in). */
    async signedInFrom(userId: number, ip: string): Promise<boolean> {
      const row = await db
        .selectFrom('session')
        .select('id')
        .where('user_id', '=', userId)
        .where('ip', '=', ip)
        .limit(1)
        .executeTakeFirst();
      return !!row;
    },

    latestCode(target: string, purpose?: string) {
      let q = db.selectFrom('sms_code').selectAll().where('target', '=', target);
      if (purpose) q = q.where('purpose', '=', purpose);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    },
    async countCodesSince(target: string, since: number): Promise<number> {
      const r = await db
        .selectFrom('sms_code')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('target', '=', target)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Removes the codes of a target made at or after `since` (one that could not be sent). */
    async deleteCodesSince(target: string, since: number): Promise<void> {
      await db.deleteFrom('sms_code').where('target', '=', target).where('created_at', '>=', since).execute();
    },
    async insertCode(row: {
      target: string;
      purpose: string;
      code_hash: string;
      created_at: number;
      expires_at: number;
    }) {
      await db
        .insertInto('sms_code')
        .values({ ...row, attempts: 0 })
        .execute();
    },
    /** Marks an unused code used; false when it was used meanwhile (a code is taken once, whoever comes first). */
    async claimCode(id: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('sms_code')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async markCode(id: number, patch: { used_at?: number; attempts?: number }) {
      await db.updateTable('sms_code').set(patch).where('id', '=', id).execute();
    },

    async log(row: Insertable<OperationLogTable>) {
      await db.insertInto('operation_log').values(row).execute();
    },
    /** Sets and stations the person owns (not deleted): they must be handed over before the account goes. */
    async ownedSets(userId: number): Promise<number> {
      const count = async (table: 'genset' | 'site') => {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        return Number(row?.n ?? 0);
      };
      return (await count('genset')) + (await count('site'));
    },
    /** Keeps a deleted person's audit rows but removes who they were. */
    async anonymiseLog(userId: number) {
      await db
        .updateTable('operation_log')
        .set({ account: null, nickname: null, ip: null })
        .where('user_id', '=', userId)
        .execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
