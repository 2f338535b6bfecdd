// Handing a set over (spec 3 "Handover"). Whoever manages a set names the receiving account; the record is
// untreated until the receiver accepts or rejects it or the sender revokes it, and each of these settles it
// once: the status moves from untreated in a conditional update, so a second accept, or an accept racing a
// revoke, finds nothing to change and is refused.
//
// On accept, in one transaction: the receiver becomes the owner; the sender keeps the subscription they chose
// (view or control) or nothing; the receiver's own subscription, now outdone by owning the set, goes. History
// is stored by set, so the past stays with the set and is readable by the new owner, and what the set reports
// from now on is theirs. A receiver in another company takes the set into their company: whoever hands a set
// to another organisation (a dealer to a customer, a site to its buyer) expects it to leave their company's
// lists, and their company's roles to stop reaching it, unless they kept a subscription. The set leaves the
// groups of its old company with it, and its module goes along when it serves no other set of the old company.
import { isEmail, ResultCode, type KeepSubscription, type TransferBox, type TransferItem } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import type { DeviceService } from '../devices/service.ts';
import type { GensetRow } from '../devices/fleet.ts';
import type { TransferRepository, TransferRow } from './repository.ts';

export type TransferEventKind = 'transfer.requested' | 'transfer.accepted' | 'transfer.rejected' | 'transfer.revoked';

export interface TransferEvent {
  kind: TransferEventKind;
  transferId: number;
  gensetId: number;
  gensetName: string;
  token: string;
  fromUserId: number;
  toUserId: number;
  /** Who took the step: the sender (requested, revoked) or the receiver (accepted, rejected). */
  actorUserId: number;
}

export interface TransferCaller {
  ctx: SessionContext;
  ip: string;
}

export interface TransferServiceOptions {
  db: Db;
  repository: TransferRepository;
  devices: DeviceService;
  log: FastifyBaseLogger;
  /** After a set changed owner or company: the set lists read it again, here and on every other instance. */
  onSetsChanged?: () => void;
  /** After what these users may see changed (ownership, subscriptions): their sessions are read again. */
  onUsersChanged?: (userIds: number[]) => void;
  /** After each committed step, to tell the other side; its failures are logged and never fail the step. */
  onEvent?: (event: TransferEvent) => Promise<void> | void;
}

/** An account as it is stored: e-mail addresses in lower case, mobile numbers without a leading +. */
function normaliseAccount(account: string): string {
  const trimmed = account.trim();
  return isEmail(trimmed) ? trimmed.toLowerCase() : trimmed.replace(/^\+/, '');
}

const alreadyProcessed = () => new AppError(ResultCode.conflict, 'transfers.alreadyProcessed');

export function createTransferService(opts: TransferServiceOptions) {
  const { db, repository } = opts;

  async function emit(event: TransferEvent | null) {
    if (!event) return;
    try {
      await opts.onEvent?.(event);
    } catch (err) {
      opts.log.error({ err, transfer: event.transferId, kind: event.kind }, 'transfer event handler failed');
    }
  }

  /** The step's event; none for a record whose receiver does not exist (nobody is there to tell). */
  function eventOf(kind: TransferEventKind, row: TransferRow, actorUserId: number): TransferEvent | null {
    if (row.to_user_id === null) return null;
    return {
      kind,
      transferId: row.id,
      gensetId: row.genset_id,
      gensetName: row.genset_name,
      token: row.token,
      fromUserId: row.from_user_id,
      toUserId: row.to_user_id,
      actorUserId,
    };
  }

  function toItem(row: TransferRow, userId: number): TransferItem {
    return {
      id: row.id,
      token: row.token,
      gensetName: row.genset_name,
      direction: row.to_user_id === userId ? 'incoming' : 'outgoing',
      sender: { account: row.from_account ?? '', nickname: row.from_nickname },
      // the sender sees the receiver's name once they answered: before, the record must look the same whether or
      // not the account exists
      receiver: {
        account: row.to_account ?? '',
        nickname:
          row.to_user_id === userId || row.status === 'accepted' || row.status === 'rejected'
            ? (row.to_nickname ?? '')
            : '',
      },
      status: row.status as TransferItem['status'],
      keepSubscription: row.keep_subscription as KeepSubscription,
      remark: row.remark,
      createdAt: row.created_at,
      processedAt: row.processed_at,
    };
  }

  /** The record if the caller is one of its two sides (404 otherwise: others never learn it exists). */
  async function partyOf(caller: TransferCaller, id: number, side: 'sender' | 'receiver') {
    const row = await repository.byId(id);
    const me = caller.ctx.user.id;
    if (!row || (row.from_user_id !== me && row.to_user_id !== me)) throw notFound();
    const mine = side === 'sender' ? row.from_user_id === me : row.to_user_id === me;
    // the caller holds the permission; it is their side of this record that does not fit (403 means a permission)
    if (!mine)
      throw new AppError(ResultCode.conflict, side === 'sender' ? 'transfers.onlySender' : 'transfers.onlyReceiver');
    if (row.status !== 'untreated') throw alreadyProcessed();
    return row;
  }

  async function log(
    q: Db,
    caller: TransferCaller,
    companyId: number,
    token: string,
    matter: string,
    feedback: Record<string, unknown>,
  ) {
    await writeOperationLog(q, { ctx: caller.ctx, companyId, ip: caller.ip, matter, feedback, target: token });
  }

  const partyName = (account: string | null, nickname: string) => nickname || account || '';

  return {
    /** The sender (manage rights on the set) names the receiver; nothing is stored when anything is refused. */
    async request(
      caller: TransferCaller,
      input: { token: string; account: string; keepSubscription: KeepSubscription; remark?: string | undefined },
    ) {
      let set: GensetRow;
      try {
        ({ set } = await opts.devices.resolve(caller.ctx, input.token, 'manage'));
      } catch (err) {
        if (err instanceof AppError && err.code === ResultCode.forbidden)
          throw new AppError(ResultCode.forbidden, 'transfers.needsManage');
        throw err;
      }
      const me = caller.ctx.user;
      const account = normaliseAccount(input.account);
      // an account that does not exist (or is disabled) gets a record as any other, which is never answered: the
      // sender's answer, lists and log are the same either way, so handing over finds out nobody's account
      const receiver = await db
        .selectFrom('users')
        .select(['id', 'account', 'nickname'])
        .where('account', '=', account)
        .where('deleted_at', 'is', null)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (account === me.account || receiver?.id === me.id) throw fieldError('account', 'transfers.notYourself');
      if (receiver && receiver.id === set.owner_user_id)
        throw new AppError(ResultCode.conflict, 'transfers.alreadyOwner');
      if (await repository.untreatedOf(set.id)) throw new AppError(ResultCode.conflict, 'transfers.alreadyPending');
      let id: number;
      try {
        id = await repository.insert({
          gensetId: set.id,
          fromUserId: me.id,
          toUserId: receiver?.id ?? null,
          toAccount: account,
          keepSubscription: input.keepSubscription,
          remark: input.remark ?? '',
          now: Date.now(),
        });
      } catch (err) {
        // a second request for the set at the same moment: the unique index of untreated records refused it
        if (await repository.untreatedOf(set.id)) throw new AppError(ResultCode.conflict, 'transfers.alreadyPending');
        throw err;
      }
      await log(db, caller, set.company_id, set.token, 'log.transferRequested', {
        name: set.name,
        to: account,
        keep: input.keepSubscription,
      });
      const row = (await repository.byId(id))!;
      await emit(eventOf('transfer.requested', row, me.id));
      return { id };
    },

    async list(caller: TransferCaller, input: { box: TransferBox; page: number; size: number }) {
      const me = caller.ctx.user.id;
      const { rows, total } = await repository.list(me, input.box, input.page, input.size);
      return { list: rows.map((r) => toItem(r, me)), total, page: input.page, size: input.size };
    },

    /** The receiver takes the set: ownership, subscriptions and company move at once, or nothing does. */
    async accept(caller: TransferCaller, id: number) {
      const row = await partyOf(caller, id, 'receiver');
      const now = Date.now();
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await repository.settle(trx, id, 'accepted', now))) throw alreadyProcessed();
        const set = await trx.selectFrom('genset').selectAll().where('id', '=', row.genset_id).executeTakeFirst();
        if (!set || set.deleted_at !== null) throw new AppError(ResultCode.conflict, 'transfers.setGone');
        const receiver = await trx
          .selectFrom('users')
          .select(['id', 'company_id'])
          .where('id', '=', row.to_user_id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!receiver) throw notFound();
        const companyId = receiver.company_id;
        await trx
          .updateTable('genset')
          .set({ owner_user_id: receiver.id, company_id: companyId })
          .where('id', '=', set.id)
          .execute();
        await trx
          .deleteFrom('subscription')
          .where('genset_id', '=', set.id)
          .where('user_id', '=', receiver.id)
          .execute();
        const keep = row.keep_subscription as KeepSubscription;
        if (keep === 'none') {
          await trx
            .deleteFrom('subscription')
            .where('genset_id', '=', set.id)
            .where('user_id', '=', row.from_user_id)
            .execute();
        } else {
          await trx
            .insertInto('subscription')
            .values({ genset_id: set.id, user_id: row.from_user_id, rights: keep, created_at: now })
            .onConflict((oc) => oc.columns(['user_id', 'genset_id']).doUpdateSet({ rights: keep }))
            .execute();
        }
        if (companyId !== set.company_id) {
          // the groups of the old company can no longer hold it
          const groups = await trx
            .selectFrom('genset_group_member')
            .select('group_id')
            .where('genset_id', '=', set.id)
            .execute();
          await trx.deleteFrom('genset_group_member').where('genset_id', '=', set.id).execute();
          for (const g of groups) {
            const left = await trx
              .selectFrom('genset_group_member')
              .select('genset_id')
              .where('group_id', '=', g.group_id)
              .executeTakeFirst();
            if (!left) await trx.deleteFrom('genset_group').where('id', '=', g.group_id).execute();
          }
          if (set.modem_id !== null) {
            const shared = await trx
              .selectFrom('genset')
              .select('id')
              .where('modem_id', '=', set.modem_id)
              .where('id', '!=', set.id)
              .where('deleted_at', 'is', null)
              .executeTakeFirst();
            if (!shared)
              await trx.updateTable('modem').set({ company_id: companyId }).where('id', '=', set.modem_id).execute();
          }
        }
        const feedback = { name: set.name, from: partyName(row.from_account, row.from_nickname), keep };
        await log(trx, caller, companyId, set.token, 'log.transferAccepted', feedback);
        if (companyId !== set.company_id)
          await log(trx, caller, set.company_id, set.token, 'log.transferAccepted', feedback);
        return { previousOwner: set.owner_user_id };
      });
      opts.onSetsChanged?.();
      const users = new Set([row.from_user_id, caller.ctx.user.id]);
      if (moved.previousOwner !== null) users.add(moved.previousOwner);
      opts.onUsersChanged?.([...users]);
      await emit(eventOf('transfer.accepted', row, caller.ctx.user.id));
      return { id, status: 'accepted' as const };
    },

    /** The receiver declines: the set stays as it was. */
    async reject(caller: TransferCaller, id: number) {
      const row = await partyOf(caller, id, 'receiver');
      if (!(await repository.settle(db, id, 'rejected', Date.now()))) throw alreadyProcessed();
      const set = await db.selectFrom('genset').select('company_id').where('id', '=', row.genset_id).executeTakeFirst();
      if (set)
        await log(db, caller, set.company_id, row.token, 'log.transferRejected', {
          name: row.genset_name,
          from: partyName(row.from_account, row.from_nickname),
        });
      await emit(eventOf('transfer.rejected', row, caller.ctx.user.id));
      return { id, status: 'rejected' as const };
    },

    /** The sender withdraws the handover before the receiver has answered: the set stays as it was. */
    async revoke(caller: TransferCaller, id: number) {
      const row = await partyOf(caller, id, 'sender');
      if (!(await repository.settle(db, id, 'revoked', Date.now()))) throw alreadyProcessed();
      const set = await db.selectFrom('genset').select('company_id').where('id', '=', row.genset_id).executeTakeFirst();
      if (set)
        await log(db, caller, set.company_id, row.token, 'log.transferRevoked', {
          name: row.genset_name,
          to: row.to_account ?? '',
        });
      await emit(eventOf('transfer.revoked', row, caller.ctx.user.id));
      return { id, status: 'revoked' as const };
    },
  };
}
export type TransferService = ReturnType<typeof createTransferService>;
