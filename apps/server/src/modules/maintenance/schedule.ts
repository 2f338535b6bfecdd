// The arithmetic of maintenance: calendar dates in a set's own zone, when an item's next service is due (from
// its latest service, or its planned date), and how a pending task stands today (ok, due, overdue).
import type { MaintState } from '@genset/protocol';

const DAY = 86_400_000;

/** Today's date (YYYY-MM-DD) in a time zone; the server's UTC when the zone is unknown. */
export function dateIn(timeZone: string, now: number): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      now,
    );
  } catch {
    return new Date(now).toISOString().slice(0, 10);
  }
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

export interface DueBasis {
  cycle_days: number | null;
  cycle_hours: number | null;
  latest_date: string;
  latest_hours: number | null;
  planned_date: string | null;
}

/** When the next service is due: the planned date, else the latest date plus the cycle; hours likewise. */
export function nextDue(item: DueBasis): { dueDate: string | null; dueHours: number | null } {
  const days = item.cycle_days ?? 0;
  const hours = item.cycle_hours ?? 0;
  const dueDate = item.planned_date ?? (days > 0 ? addDays(item.latest_date, days) : null);
  const dueHours = hours > 0 ? Math.round(((item.latest_hours ?? 0) + hours) * 10) / 10 : null;
  return { dueDate, dueHours };
}

export interface StateBasis {
  due_date: string | null;
  due_hours: number | null;
  remind_days: number;
  remind_hours: number;
}

/**
 * Overdue: past the due date (the due day itself is still due), or at or past the due hours. Due: within the
 * reminder ahead of either. Ok otherwise.
 */
export function stateOf(task: StateBasis, today: string, runHours: number | null): MaintState {
  const hours = task.due_hours === null ? null : Number(task.due_hours);
  if (task.due_date !== null && today > task.due_date) return 'overdue';
  if (hours !== null && runHours !== null && runHours >= hours) return 'overdue';
  if (task.due_date !== null && today >= addDays(task.due_date, -task.remind_days)) return 'due';
  if (hours !== null && runHours !== null && runHours >= hours - Number(task.remind_hours)) return 'due';
  return 'ok';
}

/** The latest run hours in a set's latest values, if it reports them. */
export function runHoursIn(values: string | null | undefined): number | null {
  if (!values) return null;
  try {
    const v = (JSON.parse(values) as Record<string, unknown>).run_hours;
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}
