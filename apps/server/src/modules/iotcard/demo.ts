// The demo fleet's SIM cards: their numbers, and a plan for each, so a newcomer sees usage against a plan.
import type { Db } from '../../db/database.ts';
import { createSimRepository } from './repository.ts';

export const DEMO_SIM_PLAN = { sizeMb: 500, startDay: 1, alarmShare: 80 };

export const demoIccid = (index: number) => `8986000000000000${String(index).padStart(4, '0')}`;
export const demoImsi = (index: number) => `46000000000${String(index).padStart(4, '0')}`;

/** Gives each card a plan unless it has a row already (a plan someone set is kept). */
export async function giveDemoPlans(db: Db, count: number): Promise<void> {
  const repo = createSimRepository(db);
  for (let index = 0; index < count; index++) await repo.insertCard(db, demoIccid(index), null, DEMO_SIM_PLAN);
}
