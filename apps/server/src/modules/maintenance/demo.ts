// The demo sets' maintenance plans, made once a set's past is stored: the engine service follows the
// controller's own service countdown (its "Maintenance due" alarms in the alarm history are the services done a
// day later, in the plan's history), and the calendar items were last done on dates that leave some of the
// fleet due and some overdue, as a real fleet's plans would.
import type { Db } from '../../db/database.ts';
import { addDays, dateIn, runHoursIn } from './schedule.ts';

/** The controller's service interval (the simulated controllers' `maintenance_interval_h`). */
export const DEMO_SERVICE_HOURS = 250;
const SERVICE_REMIND_HOURS = 25;
const SERVICE_BY = 'Demo Power Service';

interface CalendarItem {
  name: string;
  cycleDays: number;
  remindDays: number;
}

const BATTERY: CalendarItem = { name: 'Battery and charger check', cycleDays: 30, remindDays: 7 };
const COOLANT: CalendarItem = { name: 'Coolant, belts and hoses inspection', cycleDays: 90, remindDays: 10 };
const LOAD_BANK: CalendarItem = { name: 'Load bank test', cycleDays: 365, remindDays: 30 };

/**
 * Days since each calendar item was last done, by the set's story: the unwatched telecom tower and the offline
 * farm are late with their battery check, the trailer's coolant check and the hospital's yearly load bank test
 * fall due within their reminders; the rest were done recently.
 */
const LAST_DONE_DAYS: Record<string, [CalendarItem, number][]> = {
  mainsFailures: [
    [BATTERY, 12],
    [COOLANT, 40],
    [LOAD_BANK, 344],
  ],
  onLoad: [
    [BATTERY, 9],
    [COOLANT, 61],
  ],
  trailer: [
    [BATTERY, 20],
    [COOLANT, 85],
  ],
  lowFuel: [
    [BATTERY, 41],
    [COOLANT, 30],
  ],
  standby: [
    [BATTERY, 5],
    [COOLANT, 22],
    [LOAD_BANK, 120],
  ],
  offline: [
    [BATTERY, 36],
    [COOLANT, 47],
  ],
  parallel: [
    [BATTERY, 14],
    [COOLANT, 33],
  ],
};

function numberIn(values: string | null | undefined, key: string): number | null {
  if (!values) return null;
  try {
    const v = (JSON.parse(values) as Record<string, unknown>)[key];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Gives each demo set (by its module id) that has no maintenance items yet its plan. `fallback` is where a set
 * stands when it has reported nothing yet (its controller's run hours and hours since its last service).
 */
export async function giveDemoMaintenance(
  db: Db,
  sets: { modemKey: string; scenario: string; fallback: { runHours: number; hoursSinceService: number } }[],
  now = Date.now(),
): Promise<void> {
  for (const demo of sets) {
    const set = await db
      .selectFrom('genset as g')
      .innerJoin('modem as m', 'm.id', 'g.modem_id')
      .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
      .select(['g.id', 'g.time_zone', 'l.values'])
      .where('m.modem_key', '=', demo.modemKey)
      .where('g.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!set) continue;
    const has = await db.selectFrom('maintenance_item').select('id').where('genset_id', '=', set.id).executeTakeFirst();
    if (has) continue;
    const today = dateIn(set.time_zone, now);
    const runHours = runHoursIn(set.values) ?? demo.fallback.runHours;
    const left = numberIn(set.values, 'maintenance_hours');
    const sinceService = left === null ? demo.fallback.hoursSinceService : DEMO_SERVICE_HOURS - left;
    const lastServiceHours = Math.round((runHours - sinceService) * 10) / 10;
    // the controller's "Maintenance due" alarms that were cleared: each a service done when it cleared
    const services = await db
      .selectFrom('alarm')
      .select(['end_ts'])
      .where('genset_id', '=', set.id)
      .where('code', '=', 'maintenance_due')
      .where('end_ts', 'is not', null)
      .orderBy('end_ts', 'desc')
      .execute();
    const lastServiceDate = services[0]
      ? dateIn(set.time_zone, Number(services[0].end_ts))
      : addDays(today, -Math.max(1, Math.round(sinceService / 8)));

    await db.transaction().execute(async (trx) => {
      const item = async (row: {
        name: string;
        cycleDays: number | null;
        cycleHours: number | null;
        remindDays: number;
        remindHours: number;
        latestDate: string;
        latestHours: number | null;
      }) => {
        const made = await trx
          .insertInto('maintenance_item')
          .values({
            genset_id: set.id,
            name: row.name,
            cycle_days: row.cycleDays,
            cycle_hours: row.cycleHours,
            remind_days: row.remindDays,
            remind_hours: row.remindHours,
            latest_date: row.latestDate,
            latest_hours: row.latestHours,
            planned_date: null,
            replaced_model: '',
            remark: '',
            enabled: 1,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('maintenance_task')
          .values({
            item_id: made.id,
            genset_id: set.id,
            name: row.name,
            status: 'pending',
            due_date: row.cycleDays ? addDays(row.latestDate, row.cycleDays) : null,
            due_hours: row.cycleHours ? Math.round(((row.latestHours ?? 0) + row.cycleHours) * 10) / 10 : null,
            reminded_at: null,
            overdue_at: null,
            actual_date: null,
            run_hours: null,
            replaced_model: '',
            remark: '',
            done_by_user_id: null,
            done_by: '',
            created_at: now,
            done_at: null,
          })
          .execute();
        return made.id;
      };

      const serviceId = await item({
        name: 'Engine service (oil and filters)',
        cycleDays: null,
        cycleHours: DEMO_SERVICE_HOURS,
        remindDays: 0,
        remindHours: SERVICE_REMIND_HOURS,
        latestDate: lastServiceDate,
        latestHours: lastServiceHours,
      });
      // the services the alarm history tells of, newest first, a service interval apart
      for (const [k, service] of services.entries()) {
        const done = Number(service.end_ts);
        await trx
          .insertInto('maintenance_task')
          .values({
            item_id: serviceId,
            genset_id: set.id,
            name: 'Engine service (oil and filters)',
            status: 'done',
            due_date: null,
            due_hours: Math.round((lastServiceHours - k * DEMO_SERVICE_HOURS) * 10) / 10,
            reminded_at: null,
            overdue_at: null,
            actual_date: dateIn(set.time_zone, done),
            run_hours: Math.round((lastServiceHours - k * DEMO_SERVICE_HOURS) * 10) / 10,
            replaced_model: 'Oil filter, fuel filter',
            remark: '',
            done_by_user_id: null,
            done_by: SERVICE_BY,
            created_at: done,
            done_at: done,
          })
          .execute();
      }
      for (const [calendar, days] of LAST_DONE_DAYS[demo.scenario] ?? []) {
        await item({
          name: calendar.name,
          cycleDays: calendar.cycleDays,
          cycleHours: null,
          remindDays: calendar.remindDays,
          remindHours: 0,
          latestDate: addDays(today, -days),
          latestHours: null,
        });
      }
    });
  }
}
