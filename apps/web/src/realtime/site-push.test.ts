// Station pushes: read from data (the station named in data.token), figures checked one by one, kept by
// station and forgotten when nobody watches the station any more.
import { beforeEach, describe, expect, it } from 'vitest';
import { parsePush } from './messages.ts';
import { applyPush, keepOnly, useRealtimeStore } from './store.ts';

const frame = (data: object) => JSON.stringify({ method: 'site', data });

beforeEach(() => useRealtimeStore.setState({ sites: {}, sets: {} }));

describe('station pushes', () => {
  it('are read from data with the station token and alarm count', () => {
    const push = parsePush(
      frame({
        token: 'siteA',
        alarmNum: 2,
        status: 4,
        gridKw: 12.5,
        pvKw: null,
        batteryKw: 80,
        loadKw: 92.5,
        soc: 61,
        ts: 1_700_000_000_000,
        todayChargeKwh: 10,
        todayDischargeKwh: 20,
        todayIncome: 3.5,
        runningVersion: 3,
        safe: null,
      }),
    );
    expect(push).toMatchObject({ method: 'site', token: 'siteA', alarmNum: 2, status: 4, batteryKw: 80, pvKw: null });
  });

  it('without a station token, or with figures that are not numbers, are dropped or read as unknown', () => {
    expect(parsePush(frame({ alarmNum: 1 }))).toBeNull();
    expect(parsePush(JSON.stringify({ method: 'site', token: 'siteA' }))).toBeNull();
    expect(parsePush(frame({ token: 'siteA', gridKw: 'high', alarmNum: 'x' }))).toMatchObject({
      gridKw: null,
      alarmNum: 0,
    });
  });

  it('are kept by station until the station is no longer watched', () => {
    const push = parsePush(frame({ token: 'siteA', alarmNum: 1, status: 2 }))!;
    applyPush(push);
    applyPush(parsePush(frame({ token: 'siteB', alarmNum: 0, status: 0 }))!);
    expect(useRealtimeStore.getState().sites.siteA?.alarmNum).toBe(1);
    keepOnly(new Set(['siteB']));
    expect(Object.keys(useRealtimeStore.getState().sites)).toEqual(['siteB']);
  });
});
