// Status and alarms: what a newly stored snapshot changes in its set. A snapshot newer than the set's last one
// may move the set to another status (a `status_change` row) and open or close alarms (`alarm` rows), in the
// batch's transaction; the sets whose status or alarm count changed get their `set_latest` row written in it
// as well, since lists filter on them, and modules heard from again are marked online. Once the batch is
// committed, every set it touched is announced on the bus (`monitor`, and `alarm` when its alarms changed).
// A module that goes offline takes its sets offline here too.
import type { Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import type { RealtimeBus } from '../bus.ts';
import type { Sets } from './sets.ts';
import { STATUS, type ActiveAlarm, type Decoded, type OpenAlarm, type SetState } from './types.ts';
import { clearAlarm, raiseAlarm } from './episodes.ts';
import { judgeRules, type RuleBook } from './rules.ts';
import { RULE_ALARM_PREFIX } from '@genset/protocol';

/** Alarms the module raises from what it knows itself (e.g. its position), whatever its controller says. */
export const MODULE_ALARM_PREFIX = 'module:';

/** The sets of one batch whose status, or whose open alarms, changed. */
export interface BatchChanges {
  status: Set<number>;
  alarms: Set<number>;
}

function hasRuleAlarm(set: SetState) {
  if (set.openAlarms.size === 0) return false;
  for (const code of set.openAlarms.keys()) if (code.startsWith(RULE_ALARM_PREFIX)) return true;
  return false;
}

function hasCode(list: readonly ActiveAlarm[], code: string) {
  for (const a of list) if (a.code === code) return true;
  return false;
}

export function createStatusAlarms({
  db,
  sets,
  bus,
  log,
  rules,
}: {
  db: Db;
  sets: Sets;
  bus: RealtimeBus;
  log: FastifyBaseLogger;
  /** The companies' threshold rules (none: only the controllers' and modules' own alarms). */
  rules?: RuleBook;
}) {
  /**
   * Moves the set (a working copy) to the snapshot's status, alarms and values. Returns a promise only when
   * rows are to be written: most snapshots change nothing but the values, and those cost no await.
   */
  function apply(
    trx: Transaction<Database>,
    set: SetState,
    d: Decoded,
    changes: BatchChanges,
  ): Promise<void> | undefined {
    const { message, status, active, values } = d;
    // An older sample (a resend from a module's outbox) is stored but does not move the set backwards.
    if (message.ts < set.deviceTs) return undefined;
    let opening: ActiveAlarm[] | undefined;
    let closing: OpenAlarm[] | undefined;
    if (!message.error) {
      for (const a of active) {
        if (set.openAlarms.has(a.code) || (opening && hasCode(opening, a.code))) continue;
        (opening ??= []).push(a);
      }
      // the module's own alarms (its position outside the fence) and the rules' are not the controller's to close
      for (const open of set.openAlarms.values())
        if (
          !hasCode(active, open.code) &&
          !open.code.startsWith(MODULE_ALARM_PREFIX) &&
          !open.code.startsWith(RULE_ALARM_PREFIX)
        )
          (closing ??= []).push(open);
      const watching = rules?.of(set) ?? [];
      if (watching.length > 0 || set.rulesPending.size > 0 || hasRuleAlarm(set)) {
        const judged = judgeRules(set, watching, values, message.ts);
        if (judged.raise.length) (opening ??= []).push(...judged.raise);
        if (judged.clear.length) (closing ??= []).push(...judged.clear);
      }
    }
    if (status === set.status && !opening && !closing) {
      if (!message.error) set.values = values;
      set.deviceTs = message.ts;
      return undefined;
    }
    return write(trx, set, d, opening, closing, changes);
  }

  async function write(
    trx: Transaction<Database>,
    set: SetState,
    { message, status, values }: Decoded,
    opening: ActiveAlarm[] | undefined,
    closing: OpenAlarm[] | undefined,
    changes: BatchChanges,
  ) {
    if (status !== set.status) {
      await trx
        .insertInto('status_change')
        .values({
          genset_id: set.id,
          status,
          previous: set.status,
          ts: message.ts,
          reason: message.error ? 'controller' : 'values',
        })
        .execute();
      set.status = status;
      changes.status.add(set.id);
    }
    for (const a of opening ?? []) {
      set.openAlarms.set(a.code, await raiseAlarm(trx, set, a, message.ts));
      changes.alarms.add(set.id);
    }
    for (const open of closing ?? []) {
      await clearAlarm(trx, open, message.ts);
      set.openAlarms.delete(open.code);
      changes.alarms.add(set.id);
    }
    if (!message.error) set.values = values;
    set.deviceTs = message.ts;
  }

  /**
   * At the end of the batch's transaction: status and alarm count are what lists filter on, so they are
   * written with the samples that changed them; modules heard from that were offline are marked online.
   * Returns those modules, to be announced once committed.
   */
  async function writeBatch(
    trx: Transaction<Database>,
    working: Map<number, SetState>,
    changes: BatchChanges,
    modemIds: Iterable<number>,
  ) {
    const now = Date.now();
    for (const id of new Set([...changes.status, ...changes.alarms])) {
      const set = working.get(id)!;
      const row = {
        status: set.status,
        alarm_count: set.openAlarms.size,
        values: JSON.stringify(set.values),
        device_ts: set.deviceTs,
        updated_at: now,
      };
      // a new row's rollups are not persisted yet (merged_id 0); an existing row keeps its merged_id
      await trx
        .insertInto('set_latest')
        .values({ genset_id: set.id, ...row, merged_id: 0 })
        .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
        .execute();
    }
    const cameOnline: number[] = [];
    for (const modemId of modemIds) {
      if (sets.online.has(modemId)) continue;
      await trx.updateTable('modem').set({ online: 1, last_seen_at: now }).where('id', '=', modemId).execute();
      cameOnline.push(modemId);
    }
    return cameOnline;
  }

  function announce(set: SetState, alarmsChanged: boolean) {
    bus.publish('monitor', {
      gensetId: set.id,
      token: set.token,
      status: set.status,
      alarmnum: set.openAlarms.size,
      ts: set.deviceTs,
      values: set.values,
    });
    if (alarmsChanged) {
      bus.publish('alarm', {
        gensetId: set.id,
        token: set.token,
        alarmnum: set.openAlarms.size,
        list: [...set.openAlarms.values()].map((a) => ({
          id: a.id,
          code: a.code,
          level: a.level,
          title: a.title,
          start: a.start,
          end: null,
        })),
      });
    }
  }

  /**
   * Marks the module's sets offline (its last will, its goodbye, or three missed report periods) as of `at`:
   * when the will was received, or the deadline the module missed. A set's offline record never comes before
   * its last stored data.
   */
  async function setOffline(modemKey: string, reason: string, at = Date.now()) {
    const modem = await sets.modemByKey(modemKey);
    if (!modem) return;
    const now = Date.now();
    const rows = await db
      .selectFrom('genset')
      .select(['port', 'address'])
      .where('modem_id', '=', modem.id)
      .where('deleted_at', 'is', null)
      .execute();
    const changed: SetState[] = [];
    const states: SetState[] = [];
    for (const r of rows) {
      const set = await sets.setFor(modem, r.port, r.address);
      if (set && set.status !== STATUS.offline) states.push(set);
    }
    sets.online.delete(modem.id);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('modem').set({ online: 0 }).where('id', '=', modem.id).execute();
      for (const set of states) {
        await trx
          .insertInto('status_change')
          .values({
            genset_id: set.id,
            status: STATUS.offline,
            previous: set.status,
            ts: Math.max(at, set.deviceTs + 1),
            reason,
          })
          .execute();
        await trx
          .updateTable('set_latest')
          .set({ status: STATUS.offline, updated_at: now })
          .where('genset_id', '=', set.id)
          .execute();
        changed.push(set);
      }
    });
    bus.publish('modem', { modemId: modem.id, online: false });
    for (const set of changed) {
      set.status = STATUS.offline;
      announce(set, false);
    }
    if (changed.length) log.info({ modem: modemKey, reason, at: new Date(at).toISOString() }, 'module offline');
  }

  return {
    apply,
    writeBatch,
    /** After the batch committed: the modules that came online are online. */
    cameOnline(modemIds: number[]) {
      for (const id of modemIds) {
        sets.online.add(id);
        bus.publish('modem', { modemId: id, online: true });
      }
    },
    announce,
    setOffline,
  };
}
export type StatusAlarms = ReturnType<typeof createStatusAlarms>;
