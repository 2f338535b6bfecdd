import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { REPORT_TYPES, reportTypesFor } from '@genset/protocol';
import { openingPeriod } from './period.ts';

describe('the period a report opens on', () => {
  const today = dayjs('2026-11-28');
  it('is last month when the data covers it', () => {
    expect(openingPeriod('2026-09-14', today)).toEqual(['2026-10-01', '2026-10-31']);
  });
  it('is this month so far when the data began late last month (a month of past ending today)', () => {
    expect(openingPeriod('2026-10-29', today)).toEqual(['2026-11-01', '2026-11-28']);
  });
  it('is last month early in a month whose data began last month', () => {
    expect(openingPeriod('2026-10-03', dayjs('2026-11-02'))).toEqual(['2026-10-01', '2026-10-31']);
  });
  it('is last month for a set without data', () => {
    expect(openingPeriod(null, today)).toEqual(['2026-10-01', '2026-10-31']);
  });
});

describe('the kinds of report offered for a set', () => {
  it('are the generator report for a generator', () => {
    expect(reportTypesFor(['gen_kw', 'kwh_total', 'fuel_level'])).toEqual([1]);
  });
  it('are the compressor report for a compressor', () => {
    expect(reportTypesFor(['discharge_pressure', 'load_hours'])).toEqual([2]);
  });
  it('keep a kind already saved for the set', () => {
    expect(reportTypesFor(['gen_kw'], [2])).toEqual([...REPORT_TYPES]);
  });
});
