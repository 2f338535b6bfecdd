import { describe, expect, test } from 'vitest';
import { EssSiteModel } from './ess-model.ts';

const DAY = 86_400_000;

/** PV and load energy of each of `days` days from `start` (a model stepped a minute at a time). */
function days(seed: number, dailyWeather: boolean, start: number, count: number) {
  const model = new EssSiteModel({
    seed,
    startTs: start,
    timeZone: 'UTC',
    pvRatedKw: 200,
    loadNoisePct: 0,
    dailyWeather,
    maxStepMs: 60_000,
  });
  const out: { pv: number; load: number }[] = [];
  for (let d = 0; d < count; d++) {
    const before = model.snapshot();
    model.advance(DAY);
    const after = model.snapshot();
    out.push({ pv: after.pv!.totalYieldKwh - before.pv!.totalYieldKwh, load: after.loadKwh - before.loadKwh });
  }
  return out;
}

describe('a station’s days', () => {
  const start = Date.UTC(2026, 5, 1); // a Monday
  test('with their own weather, differ in sun and demand, the same from the same seed', () => {
    const a = days(7, true, start, 5);
    expect(new Set(a.map((d) => d.pv.toFixed(0))).size).toBe(5);
    expect(new Set(a.map((d) => d.load.toFixed(0))).size).toBe(5);
    expect(days(7, true, start, 5)).toEqual(a);
    expect(days(8, true, start, 5)).not.toEqual(a);
  });

  test('without, every weekday is clear and alike', () => {
    const a = days(7, false, start, 3);
    expect(a[1]!.load).toBeCloseTo(a[0]!.load, 3);
    expect(Math.abs(a[1]!.pv - a[0]!.pv) / a[0]!.pv).toBeLessThan(0.01);
  });
});
