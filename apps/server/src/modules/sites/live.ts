// A station's live figures: its sets' latest values read by EMS role with their protocols' items (grid, PV,
// battery and load power, the SOC), its state from them and from its module, and its energy since it was built
// and today. From them: what its pages are pushed, its devices with their values, and its part in the realtime
// channel (a station token is watchable by whoever may see the station).
import {
  hasAnyPermission,
  localClock,
  Permission,
  SiteStatus,
  SITE_STATUSES,
  type EmsRole,
  type Language,
  type SiteOverview,
  type SitePushData,
} from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';
import type { Grant } from '../account/service.ts';
import type { UserRow } from '../auth/repository.ts';
import type { SessionContext } from '../auth/service.ts';
import type { LatestRow } from '../devices/service.ts';
import { parseObject, type SiteContext } from './context.ts';
import { figures, round, zero } from './figures.ts';
import type { SiteDeviceRow, SiteRow } from './repository.ts';

/** A battery power closer to 0 than this (kW) is at rest. */
const REST_KW = 0.5;

/** Values of a set by EMS role, read from its latest values with its protocol's items. */
interface DeviceLive {
  device: SiteDeviceRow;
  status: number;
  ts: number | null;
  values: Record<string, number | null>;
  byRole: Partial<Record<EmsRole, number | null>>;
}

interface StationLive {
  overview: Omit<SiteOverview, 'todayChargeKwh' | 'todayDischargeKwh' | 'todayIncome'>;
  devices: DeviceLive[];
  alarmNum: number;
  online: boolean;
  pcsFault: boolean;
  pcsOnline: boolean;
}

export function createLiveFigures({ opts, db, protocols, repo, now, visible, inScope }: SiteContext) {
  // ---- live figures -----------------------------------------------------------------------------------------

  async function latestOf(ids: readonly number[]) {
    const out = new Map<number, LatestRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const row = opts.live?.(id);
      if (row) out.set(id, row);
      else missing.push(id);
    }
    for (const r of await repo.latest(missing)) out.set(r.genset_id, r);
    return out;
  }

  async function liveOf(sites: readonly SiteRow[]): Promise<Map<number, StationLive>> {
    const devices = await repo.devices(
      db,
      sites.map((s) => s.id),
    );
    const ids = [...new Set(devices.map((d) => d.gensetId))];
    const latest = await latestOf(ids);
    const alarms = await repo.alarmCounts(ids);
    const modemOnline = new Map<number, boolean>();
    for (const s of sites) {
      if (s.modem_id === null || modemOnline.has(s.modem_id)) continue;
      modemOnline.set(s.modem_id, (await repo.modem(s.modem_id))?.online === 1);
    }
    const out = new Map<number, StationLive>();
    for (const site of sites) {
      const mine: DeviceLive[] = [];
      for (const device of devices.filter((d) => d.siteId === site.id)) {
        const row = latest.get(device.gensetId);
        const values = row ? (parseObject(row.values) as Record<string, number | null>) : {};
        const doc = (await protocols.get(device.protocolKey))?.doc;
        const byRole: Partial<Record<EmsRole, number | null>> = {};
        for (const item of doc?.items ?? [])
          if (item.emsRole && !(item.emsRole in byRole)) byRole[item.emsRole] = values[item.key] ?? null;
        mine.push({ device, status: row?.status ?? 0, ts: row ? Number(row.device_ts) || null : null, values, byRole });
      }
      const first = (role: string, emsRole: EmsRole) => {
        for (const d of mine)
          if (d.device.role === role && typeof d.byRole[emsRole] === 'number') return d.byRole[emsRole]!;
        return null;
      };
      const gridKw = first('meter', 'gridPowerKw');
      const batteryKw = first('pcs', 'pcsPowerKw');
      const soc = first('bms', 'soc');
      const pvs = mine.filter((d) => d.device.role === 'pv');
      const pvValues = pvs.map((d) => d.byRole.pvPowerKw).filter((v): v is number => typeof v === 'number');
      const pvKw = pvValues.length ? pvValues.reduce((a, b) => a + b, 0) : pvs.length ? null : 0;
      const loadKw = gridKw !== null && batteryKw !== null && pvKw !== null ? gridKw + pvKw + batteryKw : null;
      const ts = mine.reduce<number | null>((m, d) => (d.ts !== null && (m === null || d.ts > m) ? d.ts : m), null);
      const pcs = mine.find((d) => d.device.role === 'pcs');
      const fault = first('pcs', 'pcsFault');
      out.set(site.id, {
        overview: {
          gridKw: gridKw === null ? null : round(gridKw, 2),
          pvKw: pvKw === null ? null : round(pvKw, 2),
          batteryKw: batteryKw === null ? null : round(batteryKw, 2),
          loadKw: loadKw === null ? null : round(loadKw, 2),
          soc: soc === null ? null : round(soc, 1),
          ts,
        },
        devices: mine,
        alarmNum: mine.reduce((n, d) => n + (alarms.get(d.device.gensetId) ?? 0), 0),
        online: site.modem_id !== null && (modemOnline.get(site.modem_id) ?? false),
        pcsFault: fault !== null && fault !== 0,
        pcsOnline: pcs !== undefined && pcs.status !== 0,
      });
    }
    return out;
  }

  function statusOf(site: SiteRow, live: StationLive | undefined): number {
    if (!live || !live.online || !live.pcsOnline) return SiteStatus.offline;
    if (site.safe_reason || live.pcsFault) return SiteStatus.stopped;
    const kw = live.overview.batteryKw;
    if (kw !== null && kw > REST_KW) return SiteStatus.discharging;
    if (kw !== null && kw < -REST_KW) return SiteStatus.charging;
    return SiteStatus.standby;
  }

  const statusName = (lang: Language, status: number) =>
    translate(lang, `sites.status.${SITE_STATUSES[status] ?? 'offline'}`);

  /** Totals since the stations were built and of each station's own today. */
  async function energyOf(sites: readonly SiteRow[]) {
    const totals = await repo.totals(sites.map((s) => s.id));
    const today = await repo.dayTotals(sites.map((s) => ({ siteId: s.id, day: localClock(now(), s.time_zone).day })));
    return { totals, today };
  }

  /** What a station's pages are pushed. */
  async function pushOf(site: SiteRow): Promise<SitePushData> {
    const live = (await liveOf([site])).get(site.id);
    const { today } = await energyOf([site]);
    const day = figures(today.get(site.id) ?? zero());
    return {
      token: site.token,
      alarmNum: live?.alarmNum ?? 0,
      status: statusOf(site, live),
      runningVersion: site.running_version,
      safe: (site.safe_reason as SitePushData['safe']) ?? null,
      gridKw: live?.overview.gridKw ?? null,
      pvKw: live?.overview.pvKw ?? null,
      batteryKw: live?.overview.batteryKw ?? null,
      loadKw: live?.overview.loadKw ?? null,
      soc: live?.overview.soc ?? null,
      ts: live?.overview.ts ?? null,
      todayChargeKwh: day.chargeKwh,
      todayDischargeKwh: day.dischargeKwh,
      todayIncome: day.income,
    };
  }

  return {
    liveOf,
    statusOf,
    statusName,
    energyOf,

    async devices(ctx: SessionContext, token: string, lang: Language) {
      const site = await visible(ctx, token, 'view');
      const live = (await liveOf([site])).get(site.id);
      const alarms = await repo.alarmCounts((live?.devices ?? []).map((d) => d.device.gensetId));
      const online = live?.online ?? false;
      const list = [];
      for (const d of live?.devices ?? []) {
        const doc = (await protocols.get(d.device.protocolKey))?.doc;
        list.push({
          token: d.device.token,
          name: d.device.name,
          role: d.device.role as 'pcs',
          status: online ? d.status : 0,
          online: online && d.status !== 0,
          alarmNum: alarms.get(d.device.gensetId) ?? 0,
          lastSeen: d.ts,
          protocolKey: d.device.protocolKey,
          runs: Boolean(doc?.statusRules),
          values: (doc?.items ?? [])
            .filter((item) => item.realtime || item.emsRole)
            .map((item) => ({
              key: item.key,
              name: item.name[lang],
              unit: item.unit,
              decimals: item.decimals,
              value: d.values[item.key] ?? null,
              emsRole: item.emsRole ?? null,
              options: (item.enum ?? []).map((o) => ({ value: o.value, label: o.label[lang] })),
            })),
        });
      }
      return { list };
    },

    // ---- the realtime channel ------------------------------------------------------------------------------

    /** Stations for the realtime channel: a station token is watchable by whoever may see the station. */
    watch: {
      async resolve(user: UserRow, grant: Grant, token: string) {
        if (!hasAnyPermission(grant.permissions, [Permission.siteView])) return null;
        const site = await repo.byToken(token);
        if (!site || !(await inScope(user, grant, site))) return null;
        const devices = await repo.devices(db, [site.id]);
        return { siteId: site.id, token: site.token, gensetIds: devices.map((d) => d.gensetId) };
      },
      async push(siteId: number) {
        const site = await repo.byId(db, siteId);
        return site ? pushOf(site) : null;
      },
    },
  };
}
export type LiveFigures = ReturnType<typeof createLiveFigures>;
