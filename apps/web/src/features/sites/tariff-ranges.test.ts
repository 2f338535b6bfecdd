import { describe, expect, it } from 'vitest';
import { tariffRangesProblem, type TariffRange } from '@genset/protocol';
import { clockOf, daySegments, paintRanges, periodHours } from './tariff-ranges.ts';

const DAY: TariffRange[] = [
  { start: '00:00', end: '08:00', period: 'valley' },
  { start: '08:00', end: '10:00', period: 'flat' },
  { start: '10:00', end: '12:00', period: 'peak' },
  { start: '12:00', end: '24:00', period: 'flat' },
];

describe('tariff ranges in the editor', () => {
  it('writes minutes as a clock, midnight at the end as 24:00', () => {
    expect(clockOf(0)).toBe('00:00');
    expect(clockOf(615)).toBe('10:15');
    expect(clockOf(1440)).toBe('24:00');
  });

  it('draws a day that wraps midnight, with its gaps and overlaps', () => {
    const segments = daySegments([
      { start: '22:00', end: '06:00', period: 'valley' },
      { start: '06:00', end: '12:00', period: 'flat' },
      { start: '11:00', end: '18:00', period: 'peak' },
    ]);
    expect(segments.map((s) => [clockOf(s.start), clockOf(s.end), s.kind])).toEqual([
      ['00:00', '06:00', 'valley'],
      ['06:00', '11:00', 'flat'],
      ['11:00', '12:00', 'overlap'],
      ['12:00', '18:00', 'peak'],
      ['18:00', '22:00', 'gap'],
      ['22:00', '24:00', 'valley'],
    ]);
  });

  it('leaves out a range whose time is being typed', () => {
    expect(daySegments([{ start: '0', end: '24:00', period: 'flat' }])).toEqual([{ start: 0, end: 1440, kind: 'gap' }]);
  });

  it('paints a slot and merges it with its neighbours into ranges the server accepts', () => {
    const painted = paintRanges(DAY, 8 * 60, 10 * 60, 'peak');
    expect(painted).toEqual([
      { start: '00:00', end: '08:00', period: 'valley' },
      { start: '08:00', end: '12:00', period: 'peak' },
      { start: '12:00', end: '24:00', period: 'flat' },
    ]);
    expect(tariffRangesProblem(painted)).toBeNull();
  });

  it('fills a gap by painting it', () => {
    const withGap = DAY.filter((r) => r.period !== 'peak');
    expect(tariffRangesProblem(withGap)?.issue).toBe('gap');
    const filled = paintRanges(withGap, 600, 720, 'sharp');
    expect(tariffRangesProblem(filled)).toBeNull();
    expect(periodHours(filled)).toMatchObject({ sharp: 2, valley: 8, flat: 14, gap: 0 });
  });
});
