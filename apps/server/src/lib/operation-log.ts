// One entry of the operation log: who (account and nickname as they were), from where, did what (`matter`, a
// message key shown in the reader's language), with what outcome (`feedback`), to what (`target`: a set's token,
// `protocol:<key>`, …).
import type { Db } from '../db/database.ts';
import type { SessionContext } from '../modules/auth/service.ts';

export interface OperationEntry {
  ctx: SessionContext;
  companyId: number;
  ip: string;
  matter: string;
  feedback: Record<string, unknown>;
  target: string;
}

export async function writeOperationLog(db: Db, entry: OperationEntry): Promise<void> {
  const { user } = entry.ctx;
  await db
    .insertInto('operation_log')
    .values({
      company_id: entry.companyId,
      user_id: user.id,
      account: user.account,
      nickname: user.nickname,
      matter: entry.matter,
      feedback: JSON.stringify(entry.feedback),
      ip: entry.ip,
      target: entry.target,
      created_at: Date.now(),
    })
    .execute();
}

/** An entry against a set: its company's log, the set's token as the target. */
export async function writeSetLog(
  db: Db,
  entry: Omit<OperationEntry, 'companyId' | 'target'> & { set: { company_id: number; token: string } },
): Promise<void> {
  const { set, ...rest } = entry;
  await writeOperationLog(db, { ...rest, companyId: set.company_id, target: set.token });
}
