// What a person does about an alarm (an episode), if they may command its set: acknowledge it with a comment ("seen,
// on it": once, who, when and why kept) and shelve it for a while with a reason (it notifies no one until the time is
// up, then the notification round takes it off the shelf: devices/ingest/episodes.ts), or take it off the shelf
// before then. Each is written to the set's operation log.
import { ResultCode, type Language } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { writeSetLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import type { DeviceService } from '../devices/service.ts';
import { alarmEntry, alarmsWithPeople } from './service.ts';

function titleOf(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

export function createAlarmActions(opts: { db: Db; devices: DeviceService }) {
  const { db, devices } = opts;
  const rowOf = (id: number) => alarmsWithPeople(db).where('alarm.id', '=', id).executeTakeFirstOrThrow();

  /** The alarm and its set, if the caller may command the set (else as unknown as an alarm that does not exist). */
  async function commanded(ctx: SessionContext, id: number) {
    const found = await db
      .selectFrom('alarm')
      .innerJoin('genset', 'genset.id', 'alarm.genset_id')
      .select(['alarm.id', 'alarm.title', 'genset.token'])
      .where('alarm.id', '=', id)
      .where('genset.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!found) throw notFound();
    const { set } = await devices.resolve(ctx, found.token, 'control');
    return { set, alarm: titleOf(found.title) };
  }

  return {
    /** Acknowledges an alarm with a comment; an alarm is acknowledged once (409 names who did). */
    async acknowledge(ctx: SessionContext, input: { id: number; comment: string }, lang: Language, ip: string) {
      const { set, alarm } = await commanded(ctx, input.id);
      const done = await db
        .updateTable('alarm')
        .set({ acknowledged: 1, ack_by: ctx.user.id, ack_at: Date.now(), ack_comment: input.comment })
        .where('id', '=', input.id)
        .where('ack_at', 'is', null)
        .executeTakeFirst();
      const row = await rowOf(input.id);
      if (Number(done.numUpdatedRows) !== 1)
        throw new AppError(ResultCode.conflict, 'history.alarmAcknowledged', { name: row.ack_name ?? '' });
      await writeSetLog(db, {
        ctx,
        ip,
        set,
        matter: 'log.alarmAcknowledged',
        feedback: { name: set.name, alarm, comment: input.comment },
      });
      return alarmEntry(row, lang);
    },

    /**
     * Shelves an active alarm for `minutes` with a reason. An alarm that has ended cannot be shelved, nor one on
     * the shelf already (409 names who shelved it).
     */
    async shelve(
      ctx: SessionContext,
      input: { id: number; minutes: number; reason: string },
      lang: Language,
      ip: string,
    ) {
      const { set, alarm } = await commanded(ctx, input.id);
      const now = Date.now();
      const until = now + input.minutes * 60_000;
      const done = await db
        .updateTable('alarm')
        .set({ shelved_until: until, shelved_by: ctx.user.id, shelved_at: now, shelve_reason: input.reason })
        .where('id', '=', input.id)
        .where('end_ts', 'is', null)
        .where((eb) => eb.or([eb('shelved_until', 'is', null), eb('shelved_until', '<=', now)]))
        .executeTakeFirst();
      const row = await rowOf(input.id);
      if (Number(done.numUpdatedRows) !== 1) {
        if (row.end_ts !== null) throw new AppError(ResultCode.conflict, 'history.alarmNotActive');
        throw new AppError(ResultCode.conflict, 'history.alarmShelved', { name: row.shelf_name ?? '' });
      }
      await writeSetLog(db, {
        ctx,
        ip,
        set,
        matter: 'log.alarmShelved',
        feedback: { name: set.name, alarm, until, reason: input.reason },
      });
      return alarmEntry(row, lang);
    },

    /** Takes an alarm off its shelf before its time is up (409 when it is not on one). */
    async unshelve(ctx: SessionContext, input: { id: number }, lang: Language, ip: string) {
      const { set, alarm } = await commanded(ctx, input.id);
      const done = await db
        .updateTable('alarm')
        .set({ shelved_until: null, shelved_by: null, shelved_at: null, shelve_reason: null })
        .where('id', '=', input.id)
        .where('shelved_until', '>', Date.now())
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new AppError(ResultCode.conflict, 'history.alarmNotShelved');
      await writeSetLog(db, { ctx, ip, set, matter: 'log.alarmUnshelved', feedback: { name: set.name, alarm } });
      return alarmEntry(await rowOf(input.id), lang);
    },
  };
}
export type AlarmActions = ReturnType<typeof createAlarmActions>;
