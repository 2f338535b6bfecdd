// The maintenance scheduler: one instance of the deployment at a time (the job lease 'maintenance') looks at
// the pending tasks of enabled items every minute. A task that entered its reminder window raises a
// 'maintenance.due' notice once; a task past its due date (or hours) raises 'maintenance.overdue' once. Each
// notice carries a key made of the item, its due date or hours and the kind, so two schedulers racing each
// other (a lease taken over mid-round) still record it once; the task keeps when it was told.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { holdLease } from '../../lib/job-lease.ts';
import { recordNoticeEvent } from '../notifications/engine.ts';
import { dateIn, runHoursIn, stateOf } from './schedule.ts';

const LEASE = 'maintenance';
const LEASE_TTL_MS = 150_000;
export const MAINTENANCE_TICK_MS = 60_000;

export interface SchedulerOptions {
  db: Db;
  holder?: string;
  now?: () => number;
  /** After a round that recorded notices: the notification engine sends them at once. */
  onRecorded?: () => void;
}

export function createMaintenanceScheduler(opts: SchedulerOptions) {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `maintenance-${process.pid}-${randomUUID().slice(0, 8)}`;

  /** One round; the number of notices recorded (0 when another instance holds the lease). */
  async function runOnce(): Promise<number> {
    const t = now();
    if (!(await holdLease(db, LEASE, holder, LEASE_TTL_MS, t))) return 0;
    const rows = await db
      .selectFrom('maintenance_task as t')
      .innerJoin('maintenance_item as i', 'i.id', 't.item_id')
      .innerJoin('genset as g', 'g.id', 't.genset_id')
      .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
      .select([
        't.id',
        't.item_id',
        't.name',
        't.due_date',
        't.due_hours',
        't.reminded_at',
        't.overdue_at',
        'i.remind_days',
        'i.remind_hours',
        'g.id as genset_id',
        'g.company_id',
        'g.token',
        'g.name as set_name',
        'g.time_zone',
        'l.values',
      ])
      .where('t.status', '=', 'pending')
      .where('i.enabled', '=', 1)
      .where('g.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('t.reminded_at', 'is', null), eb('t.overdue_at', 'is', null)]))
      .execute();
    let recorded = 0;
    for (const r of rows) {
      const runHours = runHoursIn(r.values);
      const dueHours = r.due_hours === null ? null : Number(r.due_hours);
      const state = stateOf(
        { due_date: r.due_date, due_hours: dueHours, remind_days: r.remind_days, remind_hours: Number(r.remind_hours) },
        dateIn(r.time_zone, t),
        runHours,
      );
      if (state === 'ok') continue;
      const due = r.due_date ?? `${dueHours} h`;
      const facts = { set: r.set_name, item: r.name, date: due, token: r.token };
      const dueKey = r.due_date ?? `h${dueHours}`;
      const base = { companyId: r.company_id, gensetId: r.genset_id, audience: { set: true } as const, facts };
      await db.transaction().execute(async (trx) => {
        if (r.reminded_at === null) {
          await recordNoticeEvent(
            trx,
            { ...base, kind: 'maintenance.due', dedupeKey: `maint:${r.item_id}:${dueKey}:due` },
            t,
          );
          await trx.updateTable('maintenance_task').set({ reminded_at: t }).where('id', '=', r.id).execute();
          recorded++;
        }
        if (state === 'overdue' && r.overdue_at === null) {
          await recordNoticeEvent(
            trx,
            { ...base, kind: 'maintenance.overdue', dedupeKey: `maint:${r.item_id}:${dueKey}:overdue` },
            t,
          );
          await trx.updateTable('maintenance_task').set({ overdue_at: t }).where('id', '=', r.id).execute();
          recorded++;
        }
      });
    }
    if (recorded > 0) opts.onRecorded?.();
    return recorded;
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    holder,
    runOnce,
    start(log: { warn: (obj: object, msg: string) => void }, tickMs = MAINTENANCE_TICK_MS) {
      const tick = () => void runOnce().catch((err: unknown) => log.warn({ err }, 'maintenance scheduler failed'));
      tick();
      timer = setInterval(tick, tickMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
export type MaintenanceScheduler = ReturnType<typeof createMaintenanceScheduler>;
