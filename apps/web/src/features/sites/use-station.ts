// One station as its pages show it: the info call (header, fields, overview, tactic) overlaid with the
// realtime channel's pushes (overview, status, alarm count, running tactic version). A push that says the
// state or the running version changed fetches the info again (totals, tactic outcome), at most every 5 s.
import { useMemo } from 'react';
import type { SiteInfoResponse, SiteOverview } from '@genset/protocol';
import { useRefreshWhenStale, useSiteRealtime, type SitePush } from '../../realtime/index.ts';
import { useSiteInfo } from './api.ts';

/** While pushes arrive the info is only fetched now and then; without them more often. */
const INFO_REFRESH_MS = { live: 60_000, polled: 10_000 };

export interface Station {
  token: string;
  info: SiteInfoResponse | undefined;
  overview: SiteOverview | undefined;
  status: number | undefined;
  alarmNum: number | undefined;
  runningVersion: number | null | undefined;
  safe: string | null | undefined;
  /** The realtime channel is open (pushes arrive). */
  online: boolean;
  /** Pushes have come for this station since the page opened. */
  pushed: boolean;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** The overview, state and alarm count: the push when there is one, else the info call's. */
export function mergeStation(info: SiteInfoResponse | undefined, live: SitePush | undefined) {
  const overview: SiteOverview | undefined = live
    ? {
        gridKw: live.gridKw,
        pvKw: live.pvKw,
        batteryKw: live.batteryKw,
        loadKw: live.loadKw,
        soc: live.soc,
        ts: live.ts,
        todayChargeKwh: live.todayChargeKwh,
        todayDischargeKwh: live.todayDischargeKwh,
        todayIncome: live.todayIncome,
      }
    : info?.overview;
  return {
    overview,
    status: live?.status ?? info?.site.status,
    alarmNum: live?.alarmNum ?? info?.site.alarmNum,
    runningVersion: live ? live.runningVersion : info?.tactic.runningVersion,
    safe: live ? live.safe : info?.tactic.safe,
  };
}

/** Whether a push says more than the info fetched before it: another state or running tactic version. */
export function infoOutdated(info: SiteInfoResponse | undefined, live: SitePush | undefined): boolean {
  if (!info || !live) return false;
  return live.status !== info.site.status || live.runningVersion !== info.tactic.runningVersion;
}

export function useStation(token: string): Station {
  const { live, online } = useSiteRealtime(token);
  const query = useSiteInfo(token, { refetchMs: online ? INFO_REFRESH_MS.live : INFO_REFRESH_MS.polled });
  const info = query.data;
  useRefreshWhenStale(infoOutdated(info, live), query.refetch);
  const merged = useMemo(() => mergeStation(info, live), [info, live]);
  return {
    token,
    info,
    ...merged,
    online,
    pushed: live !== undefined,
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
  };
}
