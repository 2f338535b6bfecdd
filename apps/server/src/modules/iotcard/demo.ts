// The demo fleet's SIM cards: their numbers, a plan for each, and (with the demo's backfilled past) the data
// each card used on the days of that past, so a newcomer sees usage against a plan from the start. The past's
// figures are what a module at the offline rate sends (one to three MB a day, more on busy days); what the
// modules send live is counted from their counters as for any module.
import type { Db } from '../../db/database.ts';
import { dateIn } from '../maintenance/schedule.ts';
import { addDays, monthOf } from './calendar.ts';
import { createSimRepository } from './repository.ts';

export const DEMO_SIM_PLAN = { sizeMb: 500, startDay: 1, alarmShare: 80 };

export const demoIccid = (index: number) => `8986000000000000${String(index).padStart(4, '0')}`;
export const demoImsi = (index: number) => `46000000000${String(index).padStart(4, '0')}`;

const MB = 1_048_576;

/**
 * Gives each demo card a plan unless it has a row already (a plan someone set is kept), and to a new card the
 * usage of the `pastDays` days before today.
 */
export async function giveDemoPlans(db: Db, sets: readonly { timeZone: string }[], pastDays: number): Promise<void> {
  const repo = createSimRepository(db);
  for (const [index, set] of sets.entries()) {
    const iccid = demoIccid(index);
    if (!(await repo.insertCard(db, iccid, null, DEMO_SIM_PLAN))) continue;
    const today = dateIn(set.timeZone, Date.now());
    for (let back = pastDays; back >= 1; back--) {
      const day = addDays(today, -back);
      // a steady base with a weekly rhythm, different for each set
      const mb = 1.2 + 0.4 * index + Math.abs(Math.sin((back + index * 3) / 2.3)) * 1.6;
      const rx = Math.round(mb * 0.7 * MB);
      const tx = Math.round(mb * 0.3 * MB);
      await repo.addUsage(db, iccid, day, monthOf(day, DEMO_SIM_PLAN.startDay), rx, tx);
    }
  }
}
