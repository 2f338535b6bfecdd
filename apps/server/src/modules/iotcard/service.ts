// SIM cards of the sets: what a card used this billing month, day by day, and in the months before, against
// its plan; and setting the plan. Rights: reading needs the right to see the set; the plan needs manage
// rights (it decides who is told when). A card asked for by its number is shown through a set the caller may
// see whose module holds it now. A refused call changes nothing.
import {
  ResultCode,
  SIM_HISTORY_MONTHS,
  SIM_MB_BYTES,
  type IotcardInfoRequest,
  type IotcardInfoResponse,
  type IotcardSetPlanRequest,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast, type Fleet, type GensetRow, type Rights } from '../devices/fleet.ts';
import { dateIn } from '../maintenance/schedule.ts';
import { daysBetween, monthOf, monthRange, monthsUpTo } from './calendar.ts';
import { moduleCounters, type CarrierAdapter } from './carrier.ts';
import { createSimRepository } from './repository.ts';

export interface SimCaller {
  ctx: SessionContext;
  ip: string;
}

export interface SimServiceOptions {
  db: Db;
  fleet: Fleet;
  /** Where usage figures come from; the module's own counters by default. */
  carrier?: CarrierAdapter;
  now?: () => number;
}

const mb = (bytes: number) => Math.round((bytes / SIM_MB_BYTES) * 100) / 100;

function signalIn(telemetry: string | undefined): IotcardInfoResponse['signal'] {
  try {
    const signal = (JSON.parse(telemetry ?? '{}') as { signal?: { rssi?: unknown; csq?: unknown } }).signal;
    if (!signal || typeof signal.rssi !== 'number') return null;
    return { rssi: signal.rssi, csq: typeof signal.csq === 'number' ? signal.csq : null };
  } catch {
    return null;
  }
}

export function createSimService(opts: SimServiceOptions) {
  const { db, fleet } = opts;
  const repo = createSimRepository(db);
  const carrier = opts.carrier ?? moduleCounters(repo);
  const now = opts.now ?? Date.now;

  async function visible(ctx: SessionContext, token: string): Promise<{ set: GensetRow; rights: Rights } | null> {
    const set = await fleet.byToken(token);
    if (!set) return null;
    const rights = await fleet.rightsOn(ctx.user, ctx.grant, set);
    return rights ? { set, rights } : null;
  }

  /** The set asked for (by its token, or the first the caller sees that holds the card), else 404. */
  async function setFor(ctx: SessionContext, req: { token?: string | undefined; iccid?: string | undefined }) {
    if (req.token) {
      const found = await visible(ctx, req.token);
      if (!found) throw notFound();
      return found;
    }
    for (const token of await repo.setTokensOfCard(req.iccid ?? '')) {
      const found = await visible(ctx, token);
      if (found) return found;
    }
    throw notFound();
  }

  return {
    carrier,

    async info(ctx: SessionContext, req: IotcardInfoRequest): Promise<IotcardInfoResponse> {
      const { set, rights } = await setFor(ctx, req);
      const modem = set.modem_id === null ? undefined : await repo.modemCard(db, set.modem_id);
      const iccid = modem?.iccid.trim() || null;
      const card = iccid ? await repo.card(db, iccid) : null;
      const startDay = card?.startDay ?? 1;
      const today = dateIn(set.time_zone, now());
      const month = req.month ?? monthOf(today, startDay);
      const range = monthRange(month, startDay);
      const usage = iccid ? await carrier.usage(iccid, { month, ...range }) : { bytes: 0, days: [] };
      const byDay = new Map(usage.days.map((d) => [d.day, d]));
      const lastDay = range.to < today ? range.to : today;
      const days =
        range.from > lastDay
          ? []
          : daysBetween(range.from, lastDay).map((day) => byDay.get(day) ?? { day, rxBytes: 0, txBytes: 0 });
      const names = monthsUpTo(month, SIM_HISTORY_MONTHS);
      const history = new Map((iccid ? await carrier.history(iccid, names) : []).map((m) => [m.month, m.bytes]));
      const planMb = card?.planMb ?? null;
      const usedMb = mb(usage.bytes);
      return {
        token: set.token,
        setName: set.name,
        iccid,
        imsi: modem?.imsi.trim() || null,
        source: carrier.source,
        plan: planMb === null || !card ? null : { sizeMb: planMb, startDay, alarmShare: card.alarmShare },
        month,
        from: range.from,
        to: range.to,
        usedBytes: usage.bytes,
        usedMb,
        leftMb: planMb === null ? null : Math.max(0, Math.round((planMb - usage.bytes / SIM_MB_BYTES) * 100) / 100),
        share: planMb === null ? null : Math.round((usage.bytes / (planMb * SIM_MB_BYTES)) * 10_000) / 10_000,
        lastReportAt: card?.lastTs ?? null,
        signal: signalIn(modem?.telemetry),
        days,
        months: names.map((name) => ({ month: name, bytes: history.get(name) ?? 0 })),
        canEdit: atLeast(rights, 'manage'),
      };
    },

    /** Sets the plan of the set's card (manage rights); a changed start day sums this month again from its days. */
    async setPlan(caller: SimCaller, req: IotcardSetPlanRequest & { startDay: number; alarmShare: number }) {
      const { set, rights } = await setFor(caller.ctx, { token: req.token });
      if (!atLeast(rights, 'manage')) throw new AppError(ResultCode.forbidden, 'iotcard.needsManage');
      const modem = set.modem_id === null ? undefined : await repo.modemCard(db, set.modem_id);
      const iccid = modem?.iccid.trim();
      if (!iccid) throw new AppError(ResultCode.conflict, 'iotcard.noCard');
      const plan = { sizeMb: req.sizeMb, startDay: req.startDay, alarmShare: req.alarmShare };
      await db.transaction().execute(async (trx) => {
        const before = await repo.card(trx, iccid);
        await repo.savePlan(trx, iccid, plan);
        if (before && before.startDay !== plan.startDay) {
          const month = monthOf(dateIn(set.time_zone, now()), plan.startDay);
          const range = monthRange(month, plan.startDay);
          await repo.resumMonth(trx, iccid, month, range.from, range.to);
        }
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: set.company_id,
          ip: caller.ip,
          matter: 'log.simPlanSaved',
          feedback: { name: set.name, iccid, size: plan.sizeMb, share: plan.alarmShare },
          target: set.token,
        });
      });
      return { iccid, ...plan };
    },
  };
}
export type SimService = ReturnType<typeof createSimService>;
