// The SIM card schemas: a module's hello keeps working without an IMSI, a card is asked for by its set or its
// number, and a plan's figures stay within their bounds.
import { describe, expect, it } from 'vitest';
import { iotcardInfoRequest, iotcardSetPlanRequest, modemHello } from './index.ts';

const hello = {
  model: 'GC-4G',
  firmware: '2.4.1',
  imei: '861234567890123',
  iccid: '89860000000000000001',
  controllers: [],
};

describe('SIM card schemas', () => {
  it('takes a hello with or without an IMSI', () => {
    expect(modemHello.parse(hello).imsi).toBeUndefined();
    expect(modemHello.parse({ ...hello, imsi: '460001234567890' }).imsi).toBe('460001234567890');
    expect(modemHello.safeParse({ ...hello, imsi: 'x'.repeat(33) }).success).toBe(false);
  });

  it('asks for a card by its set or its number, and a month as YYYY-MM', () => {
    expect(iotcardInfoRequest.safeParse({ token: 'abc' }).success).toBe(true);
    expect(iotcardInfoRequest.safeParse({ iccid: '8986000000000000000F' }).success).toBe(true);
    expect(iotcardInfoRequest.safeParse({}).success).toBe(false);
    expect(iotcardInfoRequest.safeParse({ iccid: '1234' }).success).toBe(false);
    expect(iotcardInfoRequest.safeParse({ token: 'abc', month: '2026-13' }).success).toBe(false);
    expect(iotcardInfoRequest.safeParse({ token: 'abc', month: '2026-02' }).success).toBe(true);
  });

  it('keeps a plan within its bounds, with the start day and the share by default', () => {
    expect(iotcardSetPlanRequest.parse({ token: 'abc', sizeMb: 500 })).toEqual({
      token: 'abc',
      sizeMb: 500,
      startDay: 1,
      alarmShare: 80,
    });
    for (const bad of [{ sizeMb: 0 }, { sizeMb: 1e8 }, { sizeMb: 5, startDay: 29 }, { sizeMb: 5, alarmShare: 101 }])
      expect(iotcardSetPlanRequest.safeParse({ token: 'abc', ...bad }).success, JSON.stringify(bad)).toBe(false);
  });
});
