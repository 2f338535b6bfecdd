// A company's alarm policy (its administrators'): the hold time of its alarm episodes and whom an episode nobody
// acknowledged is escalated to, after how long (devices/ingest/episodes.ts reads it; the notification round
// escalates). No row: the defaults (a 60 s hold, no escalation).
import type { AlarmPolicyResponse, AlarmPolicySaveRequest } from '@genset/protocol';
import type { alarmPolicySaveRequest } from '@genset/protocol';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { fieldError } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { ALARM_HOLD_MS } from '../devices/ingest/episodes.ts';

/** The most people offered to choose from. */
const PEOPLE_MAX = 1000;

export function createAlarmPolicyService(db: Db) {
  /** The company's active people, by name. */
  async function people(companyId: number) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'nickname', 'account'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .orderBy('nickname')
      .limit(PEOPLE_MAX)
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.nickname || r.account || String(r.id) }));
  }

  return {
    async get(companyId: number): Promise<AlarmPolicyResponse> {
      const row = await db
        .selectFrom('company_alarm_policy')
        .selectAll()
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return {
        holdSeconds: row ? Number(row.hold_s) : ALARM_HOLD_MS / 1000,
        escalateAfterMinutes: row?.escalate_after_s == null ? null : Math.round(Number(row.escalate_after_s) / 60),
        escalateTo: row ? (JSON.parse(row.escalate_to) as number[]) : [],
        people: await people(companyId),
      };
    },

    async save(ctx: SessionContext, companyId: number, ip: string, body: AlarmPolicySaveRequest) {
      const req = body as z.output<typeof alarmPolicySaveRequest>;
      const named = [...new Set(req.escalateTo)];
      if (named.length) {
        const found = await db
          .selectFrom('users')
          .select('id')
          .where('id', 'in', named)
          .where('company_id', '=', companyId)
          .where('status', '=', 'active')
          .where('deleted_at', 'is', null)
          .execute();
        if (found.length !== named.length) throw fieldError('escalateTo', 'alarmPolicy.unknownPerson');
      }
      const values = {
        hold_s: req.holdSeconds,
        escalate_after_s: req.escalateAfterMinutes === null ? null : req.escalateAfterMinutes * 60,
        escalate_to: JSON.stringify(named),
        updated_at: Date.now(),
      };
      await db
        .insertInto('company_alarm_policy')
        .values({ company_id: companyId, ...values })
        .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
        .execute();
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: 'log.alarmPolicySaved',
        feedback: { hold: req.holdSeconds, after: req.escalateAfterMinutes ?? '—', people: named.length },
        target: `company:${companyId}`,
      });
      return { ok: true };
    },
  };
}
export type AlarmPolicyService = ReturnType<typeof createAlarmPolicyService>;
