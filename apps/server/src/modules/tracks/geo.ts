// The geometry of fences and tracks, on Turf (the field's library for it): distances on the sphere, a fix's
// signed distance to a fence's edge, a polygon's crossing itself, and a track simplified for a zoom level.
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import distance from '@turf/distance';
import { lineString, polygon } from '@turf/helpers';
import kinks from '@turf/kinks';
import pointToLineDistance from '@turf/point-to-line-distance';
import simplify from '@turf/simplify';
import type { FenceShape, GeoPoint, TrackPoint } from '@genset/protocol';

const at = (p: GeoPoint) => [p.lon, p.lat];

/** Metres between two points (great circle). */
export function metresBetween(a: GeoPoint, b: GeoPoint): number {
  return distance(at(a), at(b), { units: meters });
}
const meters = 'meters' as const;

/** A polygon's ring, closed (its first corner repeated at the end), as Turf wants it. */
function ring(points: GeoPoint[]): number[][] {
  const coords = points.map(at);
  const [first, last] = [coords[0]!, coords[coords.length - 1]!];
  if (first[0] !== last[0] || first[1] !== last[1]) coords.push([...first]);
  return coords;
}

/** The polygon's corners without a repeated last one. */
export function corners(points: GeoPoint[]): GeoPoint[] {
  const first = points[0];
  const last = points[points.length - 1];
  return first && last && points.length > 1 && first.lat === last.lat && first.lon === last.lon
    ? points.slice(0, -1)
    : points;
}

/** True when the polygon's edges cross (or touch) one another: such a fence has no clear inside. */
export function crossesItself(points: GeoPoint[]): boolean {
  return kinks(polygon([ring(points)])).features.length > 0;
}

/**
 * How far the fix is beyond the fence's edge, in metres: positive outside, negative inside (its distance to
 * the edge), so a band around the edge can be told from either side.
 */
export function beyondEdge(fence: FenceShape, fix: GeoPoint): number {
  if (fence.type === 'circle') return metresBetween(fence.center, fix) - fence.radiusM;
  const coords = ring(fence.points);
  const toEdge = pointToLineDistance(at(fix), lineString(coords), { units: meters });
  return booleanPointInPolygon(at(fix), polygon([coords]), { ignoreBoundary: true }) ? -toEdge : toEdge;
}

/**
 * Half the width of the band around a fence's edge in which a fix changes nothing: GPS wanders by some ten
 * metres, so a set standing at the edge must not be told leaving and back every minute.
 */
export function edgeBand(fence: FenceShape): number {
  return fence.type === 'circle' ? Math.max(30, Math.min(500, fence.radiusM * 0.02)) : 30;
}

/**
 * The track with points closer than about a pixel at `zoom` dropped (Douglas–Peucker on the coordinates),
 * and further simplified until at most `maxPoints` remain. The first and last fix always stay.
 */
export function simplifyTrack(points: TrackPoint[], zoom: number | undefined, maxPoints: number): TrackPoint[] {
  if (points.length <= 2) return points;
  // degrees per pixel of a 256-pixel tile at this zoom, at the equator
  let tolerance = zoom === undefined ? 0 : 360 / (256 * 2 ** zoom);
  let out = tolerance > 0 ? simplified(points, tolerance) : points;
  if (out.length <= maxPoints) return out;
  // too many still: from a tolerance of the track's extent over the points allowed, doubled until they fit
  let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of points) {
    minLat = Math.min(minLat, p[1]);
    maxLat = Math.max(maxLat, p[1]);
    minLon = Math.min(minLon, p[2]);
    maxLon = Math.max(maxLon, p[2]);
  }
  tolerance = Math.max(tolerance, Math.max(maxLat - minLat, maxLon - minLon, 1e-6) / maxPoints);
  for (let round = 0; round < 30 && out.length > maxPoints; round++) {
    out = simplified(points, tolerance);
    tolerance *= 2;
  }
  return out;
}

function simplified(points: TrackPoint[], tolerance: number): TrackPoint[] {
  // Turf simplifies coordinates; each coordinate carries its fix's index so the fix's time and speed come back
  const line = lineString(points.map((p, i) => [p[2], p[1], i]));
  const kept = simplify(line, { tolerance, highQuality: false, mutate: true }).geometry.coordinates;
  return kept.map((c) => points[c[2]!]!);
}

/** Turf's earth radius, so lengths agree with its distances. */
const EARTH_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Metres along the fixes in order (haversine, as Turf's distance, without its objects for each pair). */
export function lengthOf(points: TrackPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    const dLat = (b[1] - a[1]) * RAD;
    const dLon = (b[2] - a[2]) * RAD;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLon / 2) ** 2;
    total += 2 * EARTH_M * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
  }
  return total;
}
