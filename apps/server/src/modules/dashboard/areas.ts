// A large fleet on the home map: past MAP_SETS sets with a position, the summary gives areas instead of dots
// (a hundred thousand dots are neither readable on a map nor cheap to send: 10 MB of JSON a home page). An area
// is a cell of a square grid over the fleet's extent, as fine as keeps the cells at most MAX_AREAS; it carries how
// many sets are in it by state, how many alarm, their output now, its bounds and where its sets are on average.
import { setStateOf, type FleetArea } from '@genset/protocol';

/** Most sets the home map shows one by one. */
export const MAP_SETS = 2000;
/** Most areas a large fleet's map is drawn in. */
export const MAX_AREAS = 400;

export interface Placed {
  lat: number;
  lng: number;
  status: number;
  alarmnum: number;
  /** Output now of a set that is not offline, else null. */
  kw: number | null;
}

interface Cell {
  sets: number;
  latSum: number;
  lngSum: number;
  south: number;
  west: number;
  north: number;
  east: number;
  states: FleetArea['states'];
  alarm: number;
  kw: number;
}

function cellsOf(points: readonly Placed[], size: number, limit: number): Map<number, Cell> | null {
  const cells = new Map<number, Cell>();
  for (const p of points) {
    // rows and columns from the south pole and the antimeridian: at most 180 / size × 360 / size cells
    const key = Math.floor((p.lat + 90) / size) * 1e6 + Math.floor((p.lng + 180) / size);
    let c = cells.get(key);
    if (!c) {
      if (cells.size === limit) return null;
      c = {
        sets: 0,
        latSum: 0,
        lngSum: 0,
        south: p.lat,
        west: p.lng,
        north: p.lat,
        east: p.lng,
        states: { offline: 0, shutdown: 0, standby: 0, running: 0 },
        alarm: 0,
        kw: 0,
      };
      cells.set(key, c);
    }
    c.sets++;
    c.latSum += p.lat;
    c.lngSum += p.lng;
    if (p.lat < c.south) c.south = p.lat;
    if (p.lat > c.north) c.north = p.lat;
    if (p.lng < c.west) c.west = p.lng;
    if (p.lng > c.east) c.east = p.lng;
    c.states[setStateOf(p.status)]++;
    if (p.alarmnum > 0) c.alarm++;
    if (p.kw !== null) c.kw += p.kw;
  }
  return cells;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The points in at most `limit` areas, the most sets first. */
export function areasOf(points: readonly Placed[], limit = MAX_AREAS): FleetArea[] {
  if (points.length === 0) return [];
  let south = 90;
  let north = -90;
  let west = 180;
  let east = -180;
  for (const p of points) {
    if (p.lat < south) south = p.lat;
    if (p.lat > north) north = p.lat;
    if (p.lng < west) west = p.lng;
    if (p.lng > east) east = p.lng;
  }
  // about a sixteenth of the fleet's extent a side to begin with (at least ~100 m), twice as coarse until the
  // cells are few enough: at 360° a side there is one cell
  let size = Math.max((Math.max(north - south, east - west) || 0.001) / 16, 0.001);
  let cells = cellsOf(points, size, limit);
  while (!cells) {
    size *= 2;
    cells = cellsOf(points, size, size >= 360 ? Infinity : limit);
  }
  return [...cells.values()]
    .map((c) => ({
      lat: round(c.latSum / c.sets, 5),
      lng: round(c.lngSum / c.sets, 5),
      bounds: { south: c.south, west: c.west, north: c.north, east: c.east },
      sets: c.sets,
      states: c.states,
      alarm: c.alarm,
      kw: round(c.kw, 1),
    }))
    .sort((a, b) => b.sets - a.sets || a.lat - b.lat || a.lng - b.lng);
}
