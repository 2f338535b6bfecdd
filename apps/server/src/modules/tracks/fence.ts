// A set's fence as it is in force: the shape drawn for it, else the circle of its radius field around its site
// (the longitude and latitude of its details), else none.
import { fenceShape, type FenceShape, type GeoPoint } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { parseDetails } from '../gensets/fields.ts';

export function siteOf(detailsText: string): GeoPoint | null {
  const d = parseDetails(detailsText);
  return d.latitude !== null && d.longitude !== null ? { lat: d.latitude, lon: d.longitude } : null;
}

export function fenceFrom(shapeText: string | null | undefined, detailsText: string): FenceShape | null {
  if (shapeText) {
    const parsed = fenceShape.safeParse(JSON.parse(shapeText));
    if (parsed.success) return parsed.data;
  }
  const radius = parseDetails(detailsText).fenceRadiusM;
  const site = siteOf(detailsText);
  return site && radius !== null && radius > 0 ? { type: 'circle', center: site, radiusM: radius } : null;
}

/** The fences in force of the sets, by set id (sets without one are absent). */
export async function fencesOf(db: Db, gensetIds: number[]): Promise<Map<number, FenceShape>> {
  const out = new Map<number, FenceShape>();
  if (!gensetIds.length) return out;
  const rows = await db
    .selectFrom('genset')
    .leftJoin('geofence', 'geofence.genset_id', 'genset.id')
    .select(['genset.id', 'genset.details', 'geofence.shape'])
    .where('genset.id', 'in', gensetIds)
    .execute();
  for (const r of rows) {
    const fence = fenceFrom(r.shape, r.details);
    if (fence) out.set(r.id, fence);
  }
  return out;
}
