// Subscriptions (spec 3 "Subscription"): a subscription code gives view rights, a control code control
// rights, the owner (or anyone with manage rights) lists subscribers, changes their rights and removes them;
// a subscriber can leave. A wrong code says only that the code is wrong, and repeated wrong codes lock the
// account and the address for a while (the sign-in throttle table keeps the counts).
import { ResultCode, type SubscriptionItem } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden, notFound, tooMany } from '../../lib/errors.ts';
import { atLeast, type Fleet, type GensetRow, type Rights } from '../devices/fleet.ts';
import type { DeviceService } from '../devices/service.ts';
import type { Caller } from './service.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';

/** Wrong codes an account may enter within the window before it is locked out of subscribing. */
export const CODE_MAX_FAILURES_PER_USER = 5;
/** Wrong codes one network address may enter (over all accounts) within the window. */
export const CODE_MAX_FAILURES_PER_ADDRESS = 20;
/** The window failures are counted in, and how long a lock lasts. */
export const CODE_LOCK_MS = 15 * 60_000;

export interface SubscriptionServiceOptions {
  db: Db;
  fleet: Fleet;
  devices: DeviceService;
  log: FastifyBaseLogger;
  /** After subscriptions of these users were made, changed or removed (their sessions are read again). */
  onChanged?: (userIds: number[]) => void;
}

/** Shows enough of another user's account to recognise it: "ma***@example.com", "138****0001". */
export function maskAccount(account: string | null): string {
  if (!account) return '';
  const at = account.indexOf('@');
  if (at > 0) return `${account.slice(0, Math.min(2, at))}***${account.slice(at)}`;
  if (account.length > 7) return `${account.slice(0, 3)}****${account.slice(-4)}`;
  return `${account.slice(0, 1)}***`;
}

export function createSubscriptionService(opts: SubscriptionServiceOptions) {
  const { db, fleet } = opts;
  const changed = (userIds: number[]) => opts.onChanged?.(userIds);

  async function log(caller: Caller, set: GensetRow, matter: string, feedback: Record<string, unknown>) {
    await writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: set.company_id,
      ip: caller.ip,
      matter,
      feedback,
      target: set.token,
    });
  }

  const userKey = (userId: number) => `subcode:user:${userId}`;
  const ipKey = (ip: string) => `subcode:ip:${ip}`;

  function throttleError(lockedUntil: number, now: number, key: 'errors.accountLocked' | 'errors.addressLocked') {
    const seconds = Math.max(1, Math.ceil((lockedUntil - now) / 1000));
    return tooMany(key === 'errors.accountLocked' ? 'gensets.codeLocked' : 'gensets.codeAddressLocked', seconds, {
      minutes: Math.ceil(seconds / 60),
    });
  }

  async function checkLocks(caller: Caller) {
    const now = Date.now();
    const rows = await db
      .selectFrom('auth_throttle')
      .selectAll()
      .where('throttle_key', 'in', [userKey(caller.ctx.user.id), ipKey(caller.ip)])
      .execute();
    for (const row of rows) {
      if (row.locked_until && row.locked_until > now)
        throw throttleError(
          row.locked_until,
          now,
          row.throttle_key.startsWith('subcode:ip:') ? 'errors.addressLocked' : 'errors.accountLocked',
        );
    }
  }

  /** Counts a wrong code for the account and the address; the one past a limit locks and answers 429. */
  async function recordFailure(caller: Caller): Promise<AppError> {
    const now = Date.now();
    const bump = async (key: string, limit: number) => {
      const row = await db.selectFrom('auth_throttle').selectAll().where('throttle_key', '=', key).executeTakeFirst();
      const fresh = !row || now - row.first_failure_at > CODE_LOCK_MS;
      const failures = fresh ? 1 : row.failures + 1;
      const lockedUntil = failures > limit ? now + CODE_LOCK_MS : null;
      const values = { failures, first_failure_at: fresh ? now : row.first_failure_at, locked_until: lockedUntil };
      await db
        .insertInto('auth_throttle')
        .values({ throttle_key: key, ...values })
        .onConflict((oc) => oc.column('throttle_key').doUpdateSet(values))
        .execute();
      return lockedUntil;
    };
    const ipLock = await bump(ipKey(caller.ip), CODE_MAX_FAILURES_PER_ADDRESS);
    const userLock = await bump(userKey(caller.ctx.user.id), CODE_MAX_FAILURES_PER_USER);
    if (userLock || ipLock) {
      opts.log.warn(
        { user: caller.ctx.user.id, ip: caller.ip },
        'subscribing locked after repeated wrong subscription codes',
      );
    }
    if (userLock) return throttleError(userLock, now, 'errors.accountLocked');
    if (ipLock) return throttleError(ipLock, now, 'errors.addressLocked');
    return new AppError(ResultCode.invalid, 'gensets.badCode');
  }

  /** A subscription and its set, if the set still exists. */
  async function subscriptionById(id: number) {
    return db
      .selectFrom('subscription')
      .innerJoin('genset', 'genset.id', 'subscription.genset_id')
      .select(['subscription.id', 'subscription.user_id', 'subscription.rights', 'genset.token'])
      .where('subscription.id', '=', id)
      .where('genset.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The caller's rights on a set named by token: 404 unless visible, 403 unless at least `needed`. */
  function resolve(caller: Caller, token: string, needed: Rights) {
    return opts.devices.resolve(caller.ctx, token, needed);
  }

  return {
    async subscribe(caller: Caller, code: string) {
      await checkLocks(caller);
      const set = await db
        .selectFrom('genset')
        .selectAll()
        .where((eb) => eb.or([eb('subscription_code', '=', code), eb('control_code', '=', code)]))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!set) throw await recordFailure(caller);
      const rights: Rights = set.control_code === code ? 'control' : 'view';
      const user = caller.ctx.user;
      if (set.owner_user_id === user.id) throw new AppError(ResultCode.conflict, 'gensets.alreadyOwner');
      const existing = await db
        .selectFrom('subscription')
        .select('rights')
        .where('genset_id', '=', set.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (existing && atLeast(existing.rights as Rights, rights))
        throw new AppError(ResultCode.conflict, 'gensets.alreadySubscribed');
      await fleet.subscribe(set.id, user.id, rights);
      changed([user.id]);
      await log(caller, set, 'log.subscribed', { name: set.name, rights });
      return { token: set.token, name: set.name, rights };
    },

    /** With a token: that set's subscribers (manage rights). Without: the caller's own subscriptions. */
    async list(caller: Caller, input: { token?: string | undefined; page: number; size: number }) {
      let q = db
        .selectFrom('subscription as s')
        .innerJoin('genset as g', 'g.id', 's.genset_id')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .where('g.deleted_at', 'is', null);
      const own = input.token === undefined;
      if (own) q = q.where('s.user_id', '=', caller.ctx.user.id);
      else {
        const { set } = await resolve(caller, input.token!, 'manage');
        q = q.where('s.genset_id', '=', set.id);
      }
      const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['s.id', 'g.token', 'g.name', 'u.id as user_id', 'u.account', 'u.nickname', 's.rights', 's.created_at'])
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(input.size)
        .offset((input.page - 1) * input.size)
        .execute();
      const list: SubscriptionItem[] = rows.map((r) => ({
        id: r.id,
        token: r.token,
        gensetName: r.name,
        account: r.user_id === caller.ctx.user.id ? (r.account ?? '') : maskAccount(r.account),
        nickname: r.nickname,
        rights: r.rights as Rights,
        createdAt: r.created_at,
      }));
      return { list, total: Number(count.n), page: input.page, size: input.size };
    },

    /** A manager changes a subscriber's rights (not their own: that would be raising oneself). */
    async update(caller: Caller, input: { id: number; rights: Rights }) {
      const sub = await subscriptionById(input.id);
      if (!sub) throw notFound();
      const { set } = await resolve(caller, sub.token, 'manage');
      if (sub.user_id === caller.ctx.user.id) throw forbidden();
      await db.updateTable('subscription').set({ rights: input.rights }).where('id', '=', sub.id).execute();
      changed([sub.user_id]);
      await log(caller, set, 'log.subscriptionChanged', { name: set.name, from: sub.rights, to: input.rights });
      return null;
    },

    /** `token`: the caller leaves that set. `ids`: a manager removes these subscriptions, all or none. */
    async remove(caller: Caller, input: { token?: string | undefined; ids?: number[] | undefined }) {
      if (input.token !== undefined) {
        const set = await fleet.byToken(input.token);
        const mine = set
          ? await db
              .selectFrom('subscription')
              .select('id')
              .where('genset_id', '=', set.id)
              .where('user_id', '=', caller.ctx.user.id)
              .executeTakeFirst()
          : undefined;
        if (!set || !mine) throw notFound();
        await db.deleteFrom('subscription').where('id', '=', mine.id).execute();
        changed([caller.ctx.user.id]);
        await log(caller, set, 'log.unsubscribed', { name: set.name });
        return { deleted: 1 };
      }
      const ids = [...new Set(input.ids ?? [])];
      const found: { id: number; userId: number; set: GensetRow }[] = [];
      for (const id of ids) {
        const sub = await subscriptionById(id);
        if (!sub) throw notFound();
        const { set } = await resolve(caller, sub.token, 'manage');
        found.push({ id, userId: sub.user_id, set });
      }
      if (found.length)
        await db
          .deleteFrom('subscription')
          .where(
            'id',
            'in',
            found.map((f) => f.id),
          )
          .execute();
      changed(found.map((f) => f.userId));
      for (const f of found) await log(caller, f.set, 'log.subscriptionRemoved', { name: f.set.name });
      return { deleted: found.length };
    },
  };
}
export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
