import { describe, expect, it } from 'vitest';
import { divisions, effectiveZone, GAUGES, niceCeil, zoneOf, zoneStops, type GaugeId } from './gauges.ts';

const gauge = (id: GaugeId) => GAUGES.find((g) => g.id === id)!;
const scale = (id: GaugeId, input: Partial<Parameters<(typeof GAUGES)[number]['scale']>[0]> = {}) =>
  gauge(id).scale({ value: null, unit: '', rated: {}, peak: 0, frequency: null, ...input });

describe('dial scales', () => {
  it('put a 50 Hz set at 1500 r/min and a 60 Hz set at 1800 r/min in the normal zone', () => {
    const fifty = scale('rpm', { frequency: 50 });
    const sixty = scale('rpm', { frequency: 60 });
    expect(zoneOf(fifty, 1500)?.tone).toBe('ok');
    expect(zoneOf(sixty, 1800)?.tone).toBe('ok');
    expect(zoneOf(fifty, 1800)?.word).toBe('high');
    expect(fifty.max).toBe(2000);
  });

  it('use the rated power when the set has one, and otherwise grow with the highest reading', () => {
    const rated = scale('power', { rated: { kw: 320 } });
    expect(zoneOf(rated, 200)?.tone).toBe('ok');
    expect(zoneOf(rated, 330)).toMatchObject({ tone: 'danger', word: 'high' });
    expect(scale('power', { peak: 90 }).max).toBe(200);
    expect(scale('power', { peak: 0 }).max).toBe(10);
  });

  it('tell a 12 V from a 24 V battery and say low below 11 V or 22 V', () => {
    expect(zoneOf(scale('battery', { value: 13.2 }), 13.2)?.tone).toBe('ok');
    expect(zoneOf(scale('battery', { value: 10.5 }), 10.5)).toMatchObject({ tone: 'danger', word: 'low' });
    const system24 = scale('battery', { value: 25.4 });
    expect([system24.min, system24.max]).toEqual([16, 32]);
    expect(zoneOf(system24, 21)?.word).toBe('low');
  });

  it('follow the reading where the rated battery voltage cannot be right, and the rating where it can', () => {
    // a healthy 24 V set whose details say 12 V: normal, not a red "high"
    const misrated = scale('battery', { value: 25.4, rated: { batteryVolts: 12 } });
    expect([misrated.min, misrated.max]).toEqual([16, 32]);
    expect(zoneOf(misrated, 25.4)).toMatchObject({ tone: 'ok' });
    // a 24 V set whose battery has run down to 17 V is low, not a 12 V battery overcharged
    const flat = scale('battery', { value: 17, rated: { batteryVolts: 24 } });
    expect(zoneOf(flat, 17)).toMatchObject({ tone: 'danger', word: 'low' });
    // a 12 V set charging at 14.2 V keeps its rating
    expect(zoneOf(scale('battery', { value: 14.2, rated: { batteryVolts: 12 } }), 14.2)?.tone).toBe('ok');
  });

  it('settle on the phase voltage only once the generator runs at rated frequency', () => {
    expect(scale('voltage', { peak: 120, frequency: 30 }).max).toBe(300);
    expect(scale('voltage', { peak: 121, frequency: 60 }).max).toBe(150);
    expect(scale('voltage', { rated: { volts: 400 } }).max).toBe(300);
  });

  it('say nothing of low pressure or speed while the engine is at rest', () => {
    const oil = scale('oil', { unit: 'kPa' });
    expect(zoneOf(oil, 0)?.word).toBe('low');
    expect(effectiveZone('oil', zoneOf(oil, 0), false)).toMatchObject({ tone: 'neutral', word: null });
    expect(effectiveZone('oil', zoneOf(oil, 0), true)?.word).toBe('low');
    expect(effectiveZone('fuel', zoneOf(scale('fuel'), 5), false)?.word).toBe('low');
  });

  it('colour the axis up to each zone’s end and label round numbers', () => {
    expect(zoneStops(scale('fuel'))).toEqual([
      [0.1, '#ff4d4f'],
      [0.25, '#faad14'],
      [1, '#52c41a'],
    ]);
    expect(divisions(2000)).toBe(4);
    expect(divisions(70)).toBe(7);
    expect(divisions(300)).toBe(6);
    expect(niceCeil(384)).toBe(500);
    expect(niceCeil(180)).toBe(200);
  });
});
