import { describe, expect, it } from 'vitest';
import type { SiteInfoResponse } from '@genset/protocol';
import type { SitePush } from '../../realtime/index.ts';
import { infoOutdated, mergeStation } from './use-station.ts';

const info = {
  site: { status: 2, alarmNum: 0 },
  overview: {
    gridKw: 50,
    pvKw: null,
    batteryKw: 0,
    loadKw: 50,
    soc: 40,
    ts: 1,
    todayChargeKwh: 1,
    todayDischargeKwh: 2,
    todayIncome: 3,
  },
  tactic: { runningVersion: 1, safe: null },
} as unknown as SiteInfoResponse;

const push: SitePush = {
  method: 'site',
  token: 'siteA',
  alarmNum: 2,
  status: 4,
  gridKw: -10,
  pvKw: null,
  batteryKw: 60,
  loadKw: 50,
  soc: 39,
  ts: 2,
  todayChargeKwh: 1,
  todayDischargeKwh: 2.5,
  todayIncome: 3.4,
  runningVersion: 1,
  safe: null,
};

describe('a station as its pages show it', () => {
  it('takes the overview, state and alarm count from the push once one came', () => {
    expect(mergeStation(info, undefined)).toMatchObject({ status: 2, alarmNum: 0, overview: { batteryKw: 0 } });
    expect(mergeStation(info, push)).toMatchObject({ status: 4, alarmNum: 2, overview: { batteryKw: 60, ts: 2 } });
  });

  it('fetches the info again when a push says the state or the running tactic changed', () => {
    expect(infoOutdated(info, undefined)).toBe(false);
    expect(infoOutdated(info, { ...push, status: 2 })).toBe(false);
    expect(infoOutdated(info, push)).toBe(true);
    expect(infoOutdated(info, { ...push, status: 2, runningVersion: 2 })).toBe(true);
  });
});
