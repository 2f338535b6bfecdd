// Alarm episodes: every alarm a set raises (its controller's bits, its module's fence, a station's safe stop) is
// raised and cleared here. An alarm that clears and comes back within the hold time continues its episode (the
// same row, one more occurrence) instead of starting a new one, so that a bit that chatters is one alarm and one
// notice: "raised" is told when an episode starts, "cleared" once it has stayed cleared for the hold time (the
// notification round calls `tellEndedEpisodes`). An episode that comes back FLAP_CYCLES times within
// FLAP_WINDOW_MS is marked flapping, which the console shows. An alarm on the shelf (someone keeps it from notifying
// for a while, history/alarm-actions.ts) tells nothing, a new episode of it on the same set inherits the shelf, and
// the notification round takes it off when its time is up (`returnShelvedAlarms`), telling it again if still active.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { recordNoticeEvent } from '../../notifications/engine.ts';
import type { OpenAlarm } from './types.ts';

/** An alarm back within this long after clearing continues its episode (a company may choose its own). */
export const ALARM_HOLD_MS = 60_000;
/** Raises within FLAP_WINDOW_MS that make an episode flapping. */
export const FLAP_CYCLES = 5;
const FLAP_WINDOW_MS = 10 * 60_000;

/**
 * Alarms raised or cleared longer ago than this (a module's outbox sent after a long outage, a replayed
 * past) are history, not news: they are stored but notify no one; the set's being offline was notified.
 */
const NOTICE_HORIZON_MS = 3_600_000;

/** The set an alarm belongs to, as a notice names it. */
interface AlarmSet {
  id: number;
  token: string;
}

function alarmNotice(
  set: AlarmSet,
  alarm: OpenAlarm,
  kind: 'alarm.raised' | 'alarm.cleared',
  ts: number,
  dedupeKey = `alarm:${alarm.id}:${kind === 'alarm.raised' ? 'raised' : 'cleared'}`,
) {
  return {
    kind,
    companyId: null,
    gensetId: set.id,
    audience: { set: true } as const,
    facts: { code: alarm.code, level: alarm.level, title: alarm.title, ts, token: set.token },
    dedupeKey,
  };
}

function startsOf(json: string | null): number[] {
  try {
    const list = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

/** The set's company's hold time (ALARM_HOLD_MS when it chose none), in ms. */
async function holdOf(trx: Transaction<Database>, gensetId: number): Promise<number> {
  const row = await trx
    .selectFrom('genset as g')
    .innerJoin('company_alarm_policy as p', 'p.company_id', 'g.company_id')
    .select('p.hold_s')
    .where('g.id', '=', gensetId)
    .executeTakeFirst();
  return row ? Number(row.hold_s) * 1000 : ALARM_HOLD_MS;
}

/** `column` at or before `now` less the company's hold time (the policy joined as `p`). */
const heldSince = (column: string, now: number) =>
  // (the bigint column on the left: PostgreSQL takes the parameter's type from the other side of the comparison)
  sql<boolean>`${sql.ref(column)} + coalesce(${sql.ref('p.hold_s')}, ${ALARM_HOLD_MS / 1000}) * 1000 <= ${now}`;

/**
 * Raises an alarm of the set at `ts` (device time): continues the episode of the same alarm if it cleared within
 * the hold time before, else starts one and tells it. Returns the open alarm (the episode's row and first start).
 */
export async function raiseAlarm(
  trx: Transaction<Database>,
  set: AlarmSet,
  alarm: { code: string; level: string; title: Record<string, string> },
  ts: number,
): Promise<OpenAlarm> {
  const hold = await holdOf(trx, set.id);
  const last = await trx
    .selectFrom('alarm')
    .select(['id', 'start_ts', 'end_ts', 'recent_starts', 'flapping'])
    .where('genset_id', '=', set.id)
    .where('end_ts', '>=', ts - hold)
    .where('code', '=', alarm.code)
    .orderBy('end_ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && Number(last.end_ts) <= ts) {
    const starts = [...startsOf(last.recent_starts).filter((s) => s > ts - FLAP_WINDOW_MS), ts].slice(-FLAP_CYCLES);
    await trx
      .updateTable('alarm')
      .set((eb) => ({
        end_ts: null,
        end_pending_since: null,
        occurrences: eb('occurrences', '+', 1),
        last_start_ts: ts,
        recent_starts: JSON.stringify(starts),
        flapping: last.flapping === 1 || starts.length >= FLAP_CYCLES ? 1 : 0,
      }))
      .where('id', '=', last.id)
      .execute();
    return { id: last.id, code: alarm.code, level: alarm.level, title: alarm.title, start: Number(last.start_ts) };
  }
  // an alarm of this code on the set still on its shelf: the new episode stays on it, and tells no one
  const now = Date.now();
  const shelf = await trx
    .selectFrom('alarm')
    .select(['shelved_until', 'shelved_by', 'shelved_at', 'shelve_reason'])
    .where('genset_id', '=', set.id)
    .where('code', '=', alarm.code)
    .where('shelved_until', '>', now)
    .orderBy('shelved_until', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row = await trx
    .insertInto('alarm')
    .values({
      genset_id: set.id,
      code: alarm.code,
      level: alarm.level,
      title: JSON.stringify(alarm.title),
      start_ts: ts,
      end_ts: null,
      acknowledged: 0,
      last_start_ts: ts,
      recent_starts: JSON.stringify([ts]),
      ...(shelf ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const open = { id: row.id, code: alarm.code, level: alarm.level, title: alarm.title, start: ts };
  if (!shelf && ts > now - NOTICE_HORIZON_MS) await recordNoticeEvent(trx, alarmNotice(set, open, 'alarm.raised', ts));
  return open;
}

/** Clears an open alarm at `ts`: its episode ends, and is told, when it has not come back within the hold time. */
export async function clearAlarm(trx: Transaction<Database>, open: OpenAlarm, ts: number): Promise<void> {
  await trx.updateTable('alarm').set({ end_ts: ts, end_pending_since: Date.now() }).where('id', '=', open.id).execute();
}

/**
 * Tells the end of every episode that has stayed cleared for the hold time since its end was recorded (as of `now`,
 * the server's clock: a module's backlog sent at once after an outage continues its episodes as it arrives). Runs in
 * the notification round under its lease; a notice is recorded once whichever instance records it (its key is the
 * alarm's).
 */
export async function tellEndedEpisodes(db: Db, now = Date.now()): Promise<number> {
  const rows = await db
    .selectFrom('alarm as a')
    .innerJoin('genset as g', 'g.id', 'a.genset_id')
    .select(['a.id', 'a.genset_id', 'a.code', 'a.level', 'a.title', 'a.start_ts', 'a.end_ts', 'a.end_pending_since'])
    .leftJoin('company_alarm_policy as p', 'p.company_id', 'g.company_id')
    .select(['a.shelved_until', 'g.token'])
    .where('a.end_pending_since', 'is not', null)
    .where(heldSince('a.end_pending_since', now))
    .orderBy('a.end_pending_since')
    .limit(500)
    .execute();
  let told = 0;
  for (const row of rows) {
    const end = Number(row.end_ts);
    await db.transaction().execute(async (trx) => {
      // not if it came back meanwhile (its end is then no longer this one)
      const done = await trx
        .updateTable('alarm')
        .set({ end_pending_since: null })
        .where('id', '=', row.id)
        .where('end_pending_since', '=', row.end_pending_since)
        .executeTakeFirst();
      // nor if it is on its shelf: no one is told of it until its time is up
      const shelved = row.shelved_until !== null && Number(row.shelved_until) > now;
      if (Number(done.numUpdatedRows) !== 1 || end <= now - NOTICE_HORIZON_MS || shelved) return;
      const open = {
        id: row.id,
        code: row.code,
        level: row.level,
        title: JSON.parse(row.title) as Record<string, string>,
        start: Number(row.start_ts),
      };
      await recordNoticeEvent(trx, alarmNotice({ id: row.genset_id, token: row.token }, open, 'alarm.cleared', end));
      told++;
    });
  }
  return told;
}

/**
 * Takes off their shelf the alarms whose time on it is up (as of `now`), telling again each that is still active.
 * Runs in the notification round under its lease; a notice is recorded once whichever instance records it (its key
 * names the alarm and the shelf's end).
 */
export async function returnShelvedAlarms(db: Db, now = Date.now()): Promise<number> {
  const rows = await db
    .selectFrom('alarm as a')
    .innerJoin('genset as g', 'g.id', 'a.genset_id')
    .select(['a.id', 'a.genset_id', 'a.code', 'a.level', 'a.title', 'a.start_ts', 'a.end_ts', 'a.shelved_until'])
    .select('g.token')
    .where('a.shelved_until', '<=', now)
    .orderBy('a.shelved_until')
    .limit(500)
    .execute();
  let told = 0;
  for (const row of rows) {
    await db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('alarm')
        .set({ shelved_until: null, shelved_by: null, shelved_at: null, shelve_reason: null })
        .where('id', '=', row.id)
        .where('shelved_until', '=', row.shelved_until)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1 || row.end_ts !== null) return;
      const open = {
        id: row.id,
        code: row.code,
        level: row.level,
        title: JSON.parse(row.title) as Record<string, string>,
        start: Number(row.start_ts),
      };
      // told as the alarm it is: active since it started
      const key = `alarm:${row.id}:unshelved:${row.shelved_until}`;
      const set = { id: row.genset_id, token: row.token };
      await recordNoticeEvent(trx, alarmNotice(set, open, 'alarm.raised', open.start, key));
      told++;
    });
  }
  return told;
}

/**
 * Escalates the episodes nobody acknowledged within their company's time (as of `now`): each still active, not on
 * its shelf, started within the notice horizon of its escalation, is told once to the people its company named
 * (those of them who may see the set, on the channels each chose). Runs in the notification round under its
 * lease; an episode is escalated once whichever instance does it (its row is marked, and the notice's key is its).
 */
export async function escalateAlarms(db: Db, now = Date.now()): Promise<number> {
  const due = sql<boolean>`a.start_ts + p.escalate_after_s * 1000 <= ${now}`;
  const recent = sql<boolean>`a.start_ts + p.escalate_after_s * 1000 > ${now - NOTICE_HORIZON_MS}`;
  const rows = await db
    .selectFrom('alarm as a')
    .innerJoin('genset as g', 'g.id', 'a.genset_id')
    .innerJoin('company_alarm_policy as p', 'p.company_id', 'g.company_id')
    .select(['a.id', 'a.genset_id', 'a.code', 'a.level', 'a.title', 'a.start_ts', 'g.token', 'g.company_id'])
    .select(['p.escalate_after_s', 'p.escalate_to'])
    .where('p.escalate_after_s', 'is not', null)
    .where('a.end_ts', 'is', null)
    .where('a.acknowledged', '=', 0)
    .where('a.escalated_at', 'is', null)
    .where((eb) => eb.or([eb('a.shelved_until', 'is', null), eb('a.shelved_until', '<=', now)]))
    .where(due)
    .where(recent)
    .orderBy('a.start_ts')
    .limit(500)
    .execute();
  let told = 0;
  for (const row of rows) {
    const people = (JSON.parse(row.escalate_to) as unknown[]).filter((n): n is number => typeof n === 'number');
    await db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('alarm')
        .set({ escalated_at: now })
        .where('id', '=', row.id)
        .where('escalated_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1 || people.length === 0) return;
      await recordNoticeEvent(trx, {
        kind: 'alarm.escalated',
        companyId: row.company_id,
        gensetId: row.genset_id,
        audience: { set: true, only: people },
        facts: {
          code: row.code,
          level: row.level,
          title: JSON.parse(row.title) as Record<string, string>,
          ts: Number(row.start_ts),
          token: row.token,
          minutes: Math.round(Number(row.escalate_after_s) / 60),
        },
        dedupeKey: `alarm:${row.id}:escalated`,
      });
      told++;
    });
  }
  return told;
}
