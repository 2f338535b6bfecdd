// The demo's counters tell a true story: each set's energy agrees with its run hours, its rating and a load a
// diesel set plausibly carries over its life (40–70 % of its rating), when it starts and after days of its past.
import { describe, expect, it } from 'vitest';
import { DEMO_SETS, prepareDemoSet, simulatorOptions } from '../src/modules/devices/demo-fleet.ts';
import { setPast } from '../src/modules/devices/backfill.ts';

const DAY = 24 * 60 * 60_000;

function loadFactor(kwh: number, runHours: number, ratedKw: number) {
  return kwh / (runHours * ratedKw);
}

describe('the demo sets’ counters', () => {
  it('start with energy = run hours × rating × a plausible load factor', () => {
    for (const [index, demo] of DEMO_SETS.entries()) {
      const o = simulatorOptions(demo, index);
      const factor = loadFactor(o.kwh, o.runHours, demo.ratedKw);
      expect(factor, demo.name).toBeGreaterThanOrEqual(0.4);
      expect(factor, demo.name).toBeLessThanOrEqual(0.7);
    }
  });

  it('still agree after four days of each set’s past', () => {
    const to = Date.now();
    for (const [index, demo] of DEMO_SETS.entries()) {
      const past = setPast({
        options: simulatorOptions(demo, index),
        prepare: (sim) => prepareDemoSet(sim, demo),
        scenario: demo.scenario,
        from: to - 4 * DAY,
        to,
      });
      for (const _ of past.snapshots) void _;
      const end = past.end();
      const factor = loadFactor(end.kwh, end.runHours, demo.ratedKw);
      expect(factor, demo.name).toBeGreaterThanOrEqual(0.4);
      expect(factor, demo.name).toBeLessThanOrEqual(0.7);
      // no more hours than the week had
      expect(end.runHours - simulatorOptions(demo, index).runHours, demo.name).toBeLessThanOrEqual(4 * 24 + 0.1);
    }
  });
});
