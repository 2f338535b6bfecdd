// A set's fence and track. Reading them needs view rights on the set; drawing or removing its fence needs
// manage rights and is in the operation log. A refused fence (a radius of 0 or beyond 1,000 km, a polygon of
// fewer than three corners or crossing itself) changes nothing; neither does a track range beyond 31 days.
import {
  FENCE_POLYGON_MAX_POINTS,
  FENCE_POLYGON_MIN_POINTS,
  FENCE_RADIUS_MAX_M,
  FENCE_RADIUS_MIN_M,
  ResultCode,
  TRACK_MAX_POINTS,
  TRACK_MAX_RANGE_DAYS,
  type FenceResponse,
  type FenceShape,
  type FenceState,
  type TrackPoint,
  type TrackResponse,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast, type Fleet, type Rights } from '../devices/fleet.ts';
import { fenceFrom, siteOf } from './fence.ts';
import { corners, crossesItself, lengthOf, simplifyTrack } from './geo.ts';

const DAY = 86_400_000;

export interface TrackCaller {
  ctx: SessionContext;
  ip: string;
}

/** The fence as it is to be stored, or a refusal in the caller's words. */
export function checkedFence(fence: FenceShape): FenceShape {
  if (fence.type === 'circle') {
    const r = fence.radiusM;
    if (!Number.isFinite(r) || r < FENCE_RADIUS_MIN_M || r > FENCE_RADIUS_MAX_M)
      throw fieldError('radiusM', 'tracks.radiusRange');
    return { type: 'circle', center: fence.center, radiusM: Math.round(r) };
  }
  const points = corners(fence.points);
  if (points.length < FENCE_POLYGON_MIN_POINTS) throw fieldError('fence', 'tracks.polygonTooFew');
  if (points.length > FENCE_POLYGON_MAX_POINTS) throw fieldError('fence', 'tracks.polygonTooMany');
  if (crossesItself(points)) throw fieldError('fence', 'tracks.polygonCrosses');
  return { type: 'polygon', points };
}

export function createTrackService({ db, fleet }: { db: Db; fleet: Fleet }) {
  async function setOf(ctx: SessionContext, token: string, needed: Rights) {
    const set = await fleet.byToken(token);
    if (!set) throw notFound();
    const rights = await fleet.rightsOn(ctx.user, ctx.grant, set);
    if (!rights) throw notFound();
    if (!atLeast(rights, needed)) throw new AppError(ResultCode.forbidden, 'tracks.needsManage');
    return { set, rights };
  }

  return {
    async fence(ctx: SessionContext, token: string): Promise<FenceResponse> {
      const { set, rights } = await setOf(ctx, token, 'view');
      const drawn = await db.selectFrom('geofence').select('shape').where('genset_id', '=', set.id).executeTakeFirst();
      const latest = await db.selectFrom('set_position').selectAll().where('genset_id', '=', set.id).executeTakeFirst();
      const fence = fenceFrom(drawn?.shape, set.details);
      return {
        fence,
        position: latest
          ? { ts: Number(latest.ts), lat: latest.lat, lon: latest.lon, speed: latest.speed ?? null }
          : null,
        state: fence && latest ? (latest.fence_state as FenceState) : 'unknown',
        site: siteOf(set.details),
        canManage: atLeast(rights, 'manage'),
      };
    },

    /**
     * Draws the set's fence (or removes it). A circle also becomes the set's radius field; a polygon or none
     * clears it, so the field never describes a fence other than the one in force. The set's next fix is held
     * against the new fence from where it is: the band around the old edge says nothing about the new one.
     */
    async updateFence(caller: TrackCaller, token: string, input: FenceShape | null) {
      const { set } = await setOf(caller.ctx, token, 'manage');
      const fence = input ? checkedFence(input) : null;
      const details = JSON.parse(set.details || '{}') as Record<string, unknown>;
      details.fenceRadiusM = fence?.type === 'circle' ? fence.radiusM : null;
      await db.transaction().execute(async (trx) => {
        if (fence) {
          const row = { shape: JSON.stringify(fence), updated_at: Date.now(), updated_by: caller.ctx.user.id };
          await trx
            .insertInto('geofence')
            .values({ genset_id: set.id, ...row })
            .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
            .execute();
        } else await trx.deleteFrom('geofence').where('genset_id', '=', set.id).execute();
        await trx
          .updateTable('genset')
          .set({ details: JSON.stringify(details) })
          .where('id', '=', set.id)
          .execute();
        await trx.updateTable('set_position').set({ fence_state: 'unknown' }).where('genset_id', '=', set.id).execute();
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: set.company_id,
          ip: caller.ip,
          matter: fence ? 'log.fenceDrawn' : 'log.fenceRemoved',
          feedback: { name: set.name, ...(fence ? { shape: fence.type } : {}) },
          target: set.token,
        });
      });
      return { fence };
    },

    /** The fixes of the range in order, simplified for the zoom; at most 31 days. */
    async track(ctx: SessionContext, token: string, start: number, end: number, zoom?: number): Promise<TrackResponse> {
      if (end <= start) throw fieldError('end', 'tracks.rangeOrder');
      if (end - start > TRACK_MAX_RANGE_DAYS * DAY) throw fieldError('end', 'tracks.rangeTooLong');
      const { set } = await setOf(ctx, token, 'view');
      const rows = await db
        .selectFrom('position')
        .select(['ts', 'lat', 'lon', 'speed'])
        .where('genset_id', '=', set.id)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .orderBy('ts')
        .execute();
      const points: TrackPoint[] = rows.map((r) => [Number(r.ts), r.lat, r.lon, r.speed ?? null]);
      return {
        points: simplifyTrack(points, zoom, TRACK_MAX_POINTS),
        stored: points.length,
        distanceM: Math.round(lengthOf(points)),
      };
    },
  };
}
export type TrackService = ReturnType<typeof createTrackService>;
