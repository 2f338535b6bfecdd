// The delivery log as the console reads it: a company's messages newest first (the platform administrator's: all,
// with the codes sent to people not yet in a company).
import type { MessageLogItem, MessageStatus, MessageChannelName, MessageFailure } from '@genset/protocol';
import type { Db } from '../../db/database.ts';

type Row = {
  id: number;
  created_at: number;
  channel: string;
  purpose: string;
  recipient: string;
  provider: string;
  status: string;
  attempts: number;
  error_kind: string | null;
  error: string | null;
};

export function toItem(r: Row): MessageLogItem {
  return {
    id: r.id,
    createdAt: Number(r.created_at),
    channel: r.channel as MessageChannelName,
    purpose: r.purpose,
    recipient: r.recipient,
    provider: r.provider,
    status: r.status as MessageStatus,
    attempts: r.attempts,
    failure: (r.error_kind as MessageFailure | null) ?? null,
    error: r.error,
  };
}

const COLUMNS = [
  'id',
  'created_at',
  'channel',
  'purpose',
  'recipient',
  'provider',
  'status',
  'attempts',
  'error_kind',
  'error',
] as const;

export function createMessageLogRepository(db: Db) {
  return {
    /** One page of the log; `companyId` null: every company's and none's. */
    async page(
      companyId: number | null,
      req: { page: number; size: number; channel?: MessageChannelName | undefined; status?: MessageStatus | undefined },
    ) {
      let q = db.selectFrom('message_log');
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      if (req.channel) q = q.where('channel', '=', req.channel);
      if (req.status) q = q.where('status', '=', req.status);
      const [rows, total] = await Promise.all([
        q
          .select(COLUMNS)
          .orderBy('id', 'desc')
          .limit(req.size)
          .offset((req.page - 1) * req.size)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { list: rows.map(toItem), total: Number(total.n), page: req.page, size: req.size };
    },

    async one(id: number): Promise<MessageLogItem | null> {
      const row = await db.selectFrom('message_log').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? toItem(row) : null;
    },
  };
}
export type MessageLogRepository = ReturnType<typeof createMessageLogRepository>;
