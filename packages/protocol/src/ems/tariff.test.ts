import { describe, expect, it } from 'vitest';
import { localClock, periodAt, priceTemplateBody, tariffRangesProblem, type TariffRange } from './tariff.ts';

const range = (start: string, end: string, period: TariffRange['period'] = 'flat'): TariffRange => ({
  start,
  end,
  period,
});

describe('a day cut into tariff periods', () => {
  it('takes one range over the whole day, ranges in any order and a range over midnight', () => {
    expect(tariffRangesProblem([range('00:00', '24:00')])).toBeNull();
    expect(tariffRangesProblem([range('08:00', '22:00', 'peak'), range('22:00', '08:00', 'valley')])).toBeNull();
    expect(
      tariffRangesProblem([
        range('12:00', '24:00', 'peak'),
        range('00:00', '06:00', 'valley'),
        range('06:00', '12:00'),
      ]),
    ).toBeNull();
  });

  it('names the range that overlaps another, an empty one, and a gap after the last', () => {
    expect(tariffRangesProblem([range('00:00', '12:00'), range('11:00', '24:00')])).toEqual({
      index: 1,
      issue: 'overlap',
    });
    expect(tariffRangesProblem([range('00:00', '00:00')])).toEqual({ index: 0, issue: 'empty' });
    expect(tariffRangesProblem([range('00:00', '12:00'), range('12:30', '24:00')])).toEqual({ index: 2, issue: 'gap' });
  });

  it('tells the period of a minute, across midnight too', () => {
    const ranges = [range('08:00', '22:00', 'peak'), range('22:00', '08:00', 'valley')];
    expect(periodAt(ranges, 7 * 60 + 59)).toBe('valley');
    expect(periodAt(ranges, 8 * 60)).toBe('peak');
    expect(periodAt(ranges, 23 * 60)).toBe('valley');
  });

  it('refuses a template whose cut-offs are inverted, naming the field', () => {
    const parsed = priceTemplateBody.safeParse({
      ranges: [range('00:00', '24:00')],
      prices: {
        sharp: { buy: 1, sell: 1 },
        peak: { buy: 1, sell: 1 },
        flat: { buy: 1, sell: 1 },
        valley: { buy: 1, sell: 1 },
      },
      powerKw: 100,
      chargeCutoffSoc: 20,
      dischargeCutoffSoc: 80,
      socMargin: 5,
      reversePower: { enabled: false, marginKw: 0 },
      demandControl: { enabled: false, limitKw: 0 },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dischargeCutoffSoc', 'validation.tariff.cutoffsInverted'],
    ]);
  });
});

describe('the wall clock of a station', () => {
  it('gives the local day and minute in the station’s time zone', () => {
    const ts = Date.UTC(2026, 2, 1, 23, 30, 15); // 07:30:15 on 2 March in Shanghai
    expect(localClock(ts, 'Asia/Shanghai')).toEqual({ day: '2026-03-02', minute: 7 * 60 + 30, second: 15 });
    expect(localClock(ts, 'Europe/Madrid')).toEqual({ day: '2026-03-02', minute: 30, second: 15 });
  });
});
