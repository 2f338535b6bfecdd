// The home map's areas of a large fleet: every positioned set in exactly one area, counted by its state, at most
// the areas asked for, the most sets first.
import { describe, expect, it } from 'vitest';
import { areasOf, type Placed } from './areas.ts';

function fleet(n: number, seed = 7): Placed[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => {
    const status = Math.floor(next() * 4);
    return {
      lat: -60 + next() * 130,
      lng: -180 + next() * 360,
      status,
      alarmnum: next() < 0.05 ? 1 : 0,
      kw: status === 0 ? null : 100,
    };
  });
}

describe('areas of a large fleet', () => {
  it('puts every set in one area, counted by state, with the areas’ totals adding up to the fleet', () => {
    const points = fleet(20_000);
    const areas = areasOf(points, 400);
    expect(areas.length).toBeGreaterThan(50);
    expect(areas.length).toBeLessThanOrEqual(400);
    expect(areas.reduce((n, a) => n + a.sets, 0)).toBe(20_000);
    for (const a of areas) {
      expect(a.states.offline + a.states.shutdown + a.states.standby + a.states.running).toBe(a.sets);
      expect(a.lat).toBeGreaterThanOrEqual(a.bounds.south - 1e-5);
      expect(a.lat).toBeLessThanOrEqual(a.bounds.north + 1e-5);
      expect(a.lng).toBeGreaterThanOrEqual(a.bounds.west - 1e-5);
      expect(a.lng).toBeLessThanOrEqual(a.bounds.east + 1e-5);
    }
    const running = points.filter((p) => p.status === 3).length;
    expect(areas.reduce((n, a) => n + a.states.running, 0)).toBe(running);
    expect(areas.reduce((n, a) => n + a.alarm, 0)).toBe(points.filter((p) => p.alarmnum > 0).length);
    const kw = points.reduce((n, p) => n + (p.kw ?? 0), 0);
    expect(areas.reduce((n, a) => n + a.kw, 0)).toBeCloseTo(kw, 0);
    expect(areas.map((a) => a.sets)).toEqual([...areas.map((a) => a.sets)].sort((p, q) => q - p));
  });

  it('keeps sets of one town in one area and towns far apart in areas of their own', () => {
    const town = (lat: number, lng: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        lat: lat + (i % 10) * 0.001,
        lng: lng + i * 0.0001,
        status: 3,
        alarmnum: 0,
        kw: 10,
      }));
    const areas = areasOf([...town(48.85, 2.35, 30), ...town(40.71, -74.0, 20), ...town(35.68, 139.69, 10)], 400);
    expect(areas.map((a) => a.sets)).toEqual([30, 20, 10]);
    expect(areas[0]).toMatchObject({ kw: 300, states: { running: 30, offline: 0, shutdown: 0, standby: 0 } });
    expect(areas[0]!.lat).toBeCloseTo(48.8545, 4);
  });

  it('draws a fleet all in one place as one area, and none of no sets', () => {
    const same = Array.from({ length: 5000 }, () => ({ lat: 10, lng: 20, status: 1, alarmnum: 1, kw: 0 }));
    expect(areasOf(same, 400)).toEqual([
      {
        lat: 10,
        lng: 20,
        bounds: { south: 10, west: 20, north: 10, east: 20 },
        sets: 5000,
        states: { offline: 0, shutdown: 5000, standby: 0, running: 0 },
        alarm: 5000,
        kw: 0,
      },
    ]);
    expect(areasOf([], 400)).toEqual([]);
  });

  it('never gives more areas than asked for', () => {
    for (const limit of [1, 4, 37]) expect(areasOf(fleet(3000, limit), limit).length).toBeLessThanOrEqual(limit);
  });
});
