import { describe, expect, it } from 'vitest';
import { flowDirection, flowState } from './energy-flow.ts';

const at = (gridKw: number | null, pvKw: number | null, batteryKw: number | null, loadKw: number | null) => ({
  gridKw,
  pvKw,
  batteryKw,
  loadKw,
});

describe('the energy-flow diagram', () => {
  it('draws a discharging battery and an exporting grid towards and away from the bus', () => {
    const now = at(-20, 30, 50, 60);
    expect(flowDirection('battery', now)).toBe('in');
    expect(flowState('battery', 'in')).toBe('discharging');
    expect(flowDirection('grid', now)).toBe('out');
    expect(flowState('grid', 'out')).toBe('exporting');
    expect(flowDirection('pv', now)).toBe('in');
    expect(flowDirection('load', now)).toBe('out');
    expect(flowState('load', 'out')).toBe('consuming');
  });

  it('draws a charging battery fed from the bus, a resting line and a missing reading', () => {
    const now = at(80, null, -40, 40.05);
    expect(flowState('battery', flowDirection('battery', now))).toBe('charging');
    expect(flowState('grid', flowDirection('grid', now))).toBe('importing');
    expect(flowDirection('pv', now)).toBe('unknown');
    expect(flowState('pv', 'unknown')).toBe('noReading');
    expect(flowDirection('battery', at(0, 0, 0.04, 0))).toBe('idle');
  });
});
