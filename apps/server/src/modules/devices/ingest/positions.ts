// Positions: a module's GPS fix (in its `event`) becomes the position of each of its sets. A fix is stored in
// the set's track when the set has moved since the last stored one (at most one every few seconds), or when a
// while has passed (a standing set still draws a point now and then); every fix is held as the set's latest.
// The latest fix is held against the set's fence: clearly outside (beyond a band around the edge that GPS
// wander stays within) raises the fence alarm, clearly inside clears it, in the band nothing changes. The alarm
// is one of the set's alarms (pushed, counted, notified like a controller's), but the module's position, not
// the controller's snapshot, opens and closes it. Runs between ingestion batches, which own the sets' state.
import {
  FENCE_ALARM_CODE,
  LANGUAGES,
  type FenceShape,
  type FenceState,
  type GeoPoint,
  type ModemEvent,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import { translate } from '../../../i18n/messages.ts';
import { beyondEdge, edgeBand, metresBetween } from '../../tracks/geo.ts';
import { fencesOf } from '../../tracks/fence.ts';
import type { Sets } from './sets.ts';
import type { StatusAlarms } from './status-alarms.ts';
import { clearAlarm, raiseAlarm } from './episodes.ts';
import type { ModemInfo, OpenAlarm, SetState } from './types.ts';

/** A moving set: a fix at least this far from the last stored one is stored … */
export const MOVED_M = 15;
/** … but not sooner than this after it. */
export const MIN_STORE_MS = 5_000;
/** A standing set: a fix is stored this long after the last one anyway. */
export const STILL_STORE_MS = 10 * 60_000;

/** Where the fix is against the fence: clearly inside, clearly outside, or in the band (as it was). */
export function fenceStateAfter(fence: FenceShape | undefined, fix: GeoPoint, before: FenceState): FenceState {
  if (!fence) return 'unknown';
  const beyond = beyondEdge(fence, fix);
  const band = edgeBand(fence);
  if (beyond > band) return 'outside';
  if (beyond < -band) return 'inside';
  return before;
}

/** The fence alarm's title in every language. */
function fenceTitle(): Record<string, string> {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, translate(lang, 'tracks.fenceAlarm')]));
}

export function createPositions({
  db,
  sets,
  statusAlarms,
  log,
}: {
  db: Db;
  sets: Sets;
  statusAlarms: StatusAlarms;
  log: FastifyBaseLogger;
}) {
  /** One fix for one set. Returns true when the set's alarms changed. */
  async function fixOf(set: SetState, fence: FenceShape | undefined, gps: NonNullable<ModemEvent['gps']>, ts: number) {
    const last = await db.selectFrom('set_position').selectAll().where('genset_id', '=', set.id).executeTakeFirst();
    // a fix older than the latest (a resend) draws nothing and decides nothing
    if (last && ts <= Number(last.ts)) return false;
    const fix = { lat: gps.lat, lon: gps.lon };
    const store =
      !last ||
      ts - Number(last.stored_ts) >= STILL_STORE_MS ||
      (ts - Number(last.stored_ts) >= MIN_STORE_MS &&
        metresBetween({ lat: last.stored_lat, lon: last.stored_lon }, fix) >= MOVED_M);
    const state = fenceStateAfter(fence, fix, (last?.fence_state as FenceState | undefined) ?? 'unknown');
    const open = set.openAlarms.get(FENCE_ALARM_CODE);
    const opening = state === 'outside' && !open;
    // back inside, or the fence removed or moved so that the set is no longer clearly outside
    const closing = open && state !== 'outside' ? open : undefined;
    let opened: OpenAlarm | undefined;
    await db.transaction().execute(async (trx) => {
      if (store)
        await trx
          .insertInto('position')
          .values({ genset_id: set.id, ts, lat: fix.lat, lon: fix.lon, speed: gps.speed ?? null, alt: gps.alt ?? null })
          .onConflict((oc) => oc.columns(['genset_id', 'ts']).doNothing())
          .execute();
      const latest = {
        ts,
        lat: fix.lat,
        lon: fix.lon,
        speed: gps.speed ?? null,
        stored_ts: store ? ts : Number(last!.stored_ts),
        stored_lat: store ? fix.lat : last!.stored_lat,
        stored_lon: store ? fix.lon : last!.stored_lon,
        fence_state: state,
      };
      await trx
        .insertInto('set_position')
        .values({ genset_id: set.id, ...latest })
        .onConflict((oc) => oc.column('genset_id').doUpdateSet(latest))
        .execute();
      if (opening)
        opened = await raiseAlarm(trx, set, { code: FENCE_ALARM_CODE, level: 'warning', title: fenceTitle() }, ts);
      if (closing) await clearAlarm(trx, closing, ts);
      if (opening || closing) {
        const count = set.openAlarms.size + (opening ? 1 : 0) - (closing ? 1 : 0);
        await trx.updateTable('set_latest').set({ alarm_count: count }).where('genset_id', '=', set.id).execute();
      }
    });
    // committed: the set's state in memory follows
    if (opened) set.openAlarms.set(FENCE_ALARM_CODE, opened);
    if (closing) set.openAlarms.delete(FENCE_ALARM_CODE);
    if (opening || closing)
      log.info({ gensetId: set.id, state }, opening ? 'set left its fence' : 'set back inside its fence');
    return Boolean(opening || closing);
  }

  return {
    /** The module's fix, for each of its sets. */
    async fix(modem: ModemInfo, event: ModemEvent) {
      const gps = event.gps;
      if (!gps) return;
      const rows = await db
        .selectFrom('genset')
        .select(['id', 'port', 'address'])
        .where('modem_id', '=', modem.id)
        .where('deleted_at', 'is', null)
        .execute();
      const fences = await fencesOf(
        db,
        rows.map((r) => r.id),
      );
      for (const r of rows) {
        const set = await sets.setFor(modem, r.port, r.address);
        if (!set) continue;
        if (await fixOf(set, fences.get(set.id), gps, event.ts)) statusAlarms.announce(set, true);
      }
    },
  };
}
export type Positions = ReturnType<typeof createPositions>;
