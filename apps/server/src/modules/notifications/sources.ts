// The steps of other domains as notices: a hand-over tells the other side, a repair request tells the service
// desk of the set's company, and its requester follows each change of state.
import { Permission } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { TransferEvent } from '../transfers/service.ts';
import type { RepairEvent } from '../repairs/service.ts';
import type { NoticeEvent } from './engine.ts';

async function nameOf(db: Db, userId: number): Promise<string> {
  const u = await db.selectFrom('users').select(['nickname', 'account']).where('id', '=', userId).executeTakeFirst();
  return u?.nickname || u?.account || '';
}

export async function transferNotice(db: Db, e: TransferEvent): Promise<NoticeEvent> {
  // requested and revoked are the sender's steps, told to the receiver; the receiver's answers go to the sender
  const toReceiver = e.kind === 'transfer.requested' || e.kind === 'transfer.revoked';
  return {
    kind: e.kind,
    companyId: null,
    gensetId: e.gensetId,
    audience: { users: [toReceiver ? e.toUserId : e.fromUserId] },
    facts: {
      set: e.gensetName,
      token: e.token,
      from: await nameOf(db, e.fromUserId),
      to: await nameOf(db, e.toUserId),
      transferId: e.transferId,
    },
    dedupeKey: `transfer:${e.transferId}:${e.kind}`,
  };
}

export async function repairNotice(db: Db, e: RepairEvent): Promise<NoticeEvent> {
  const request = await db
    .selectFrom('repair_request')
    .select('token')
    .where('id', '=', e.requestId)
    .executeTakeFirst();
  const facts = {
    set: e.gensetName,
    requestId: request?.token ?? '',
    state: e.state,
    requester: await nameOf(db, e.requesterId),
  };
  return e.kind === 'repair.submitted'
    ? {
        kind: e.kind,
        companyId: e.companyId,
        gensetId: e.gensetId,
        audience: { companyId: e.companyId, permission: Permission.repairManage },
        facts,
        dedupeKey: `repair:${e.requestId}:submitted`,
      }
    : {
        kind: e.kind,
        companyId: e.companyId,
        gensetId: e.gensetId,
        audience: { users: [e.requesterId] },
        facts,
        dedupeKey: `repair:${e.requestId}:${e.state}`,
      };
}
