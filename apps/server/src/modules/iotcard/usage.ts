// Counting a SIM card's data use from its module's events. Each event carries the module's cumulative byte
// counters (received and sent since it was set up); the difference to the latest reading counted is what the
// card used since, put on the day of the event in the set's time zone and on that day's billing month. A
// counter lower than before means the module started counting again (a reset, a new module): its new value
// is counted from 0, never a negative. An event not newer than the latest one counted (a resend, one that
// arrived late) changes nothing, and a card's first reading is where its counting starts. When a card with a
// plan passes its alarm share, or the whole plan, in the current billing month, the set's people are told
// once for that month and threshold (a notice event with a dedupe key, in the same transaction).
import type { ModemEvent } from '@genset/protocol';
import { SIM_MB_BYTES } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { dateIn } from '../maintenance/schedule.ts';
import { recordNoticeEvent } from '../notifications/engine.ts';
import { monthOf } from './calendar.ts';
import { createSimRepository, type Reading } from './repository.ts';

/** Events of one card are counted one after the other (a module's events may be handled side by side). */
const queues = new Map<string, Promise<unknown>>();
const ATTEMPTS = 3;

function delta(now: number, before: number | null): number {
  if (before === null) return 0;
  return now >= before ? now - before : now;
}

/** The module's event as it concerns its SIM card: counts what it used. Resolves when it is written. */
export async function recordSimUsage(db: Db, modemId: number, event: ModemEvent): Promise<void> {
  if (!event.sim) return;
  const repo = createSimRepository(db);
  const modem = await repo.modemCard(db, modemId);
  const iccid = modem?.iccid.trim();
  if (!iccid) return;
  const reading: Reading = { ts: event.ts, rx: event.sim.rxBytes, tx: event.sim.txBytes };
  const previous = queues.get(iccid) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => count(db, modemId, iccid, reading));
  queues.set(iccid, next);
  try {
    await next;
  } finally {
    if (queues.get(iccid) === next) queues.delete(iccid);
  }
}

async function count(db: Db, modemId: number, iccid: string, reading: Reading): Promise<void> {
  const repo = createSimRepository(db);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const done = await db.transaction().execute(async (trx) => {
      const card = await repo.card(trx, iccid);
      if (!card) return repo.insertCard(trx, iccid, reading);
      if (card.lastTs !== null && reading.ts <= card.lastTs) return true;
      if (!(await repo.advance(trx, iccid, card.lastTs, reading))) return false;
      const rx = delta(reading.rx, card.lastRx);
      const tx = delta(reading.tx, card.lastTx);
      if (rx + tx === 0) return true;
      const set = await repo.setOfModem(trx, modemId);
      const day = dateIn(set?.timeZone ?? 'UTC', reading.ts);
      const month = monthOf(day, card.startDay);
      await repo.addUsage(trx, iccid, day, month, rx, tx);
      if (card.planMb === null || !set) return true;
      // only the billing month running now is told about
      if (month !== monthOf(dateIn(set.timeZone, Date.now()), card.startDay)) return true;
      const used = await repo.monthBytes(trx, iccid, month);
      const planBytes = card.planMb * SIM_MB_BYTES;
      for (const percent of new Set([card.alarmShare, 100])) {
        if (used < (planBytes * percent) / 100) continue;
        await recordNoticeEvent(trx, {
          kind: 'sim.usage',
          companyId: set.companyId,
          gensetId: set.id,
          audience: { set: true },
          facts: {
            iccid,
            percent,
            used: Math.round((used / SIM_MB_BYTES) * 10) / 10,
            plan: card.planMb,
            month,
          },
          dedupeKey: `sim:${iccid}:${month}:${percent}`,
        });
      }
      return true;
    });
    if (done) return;
  }
}
