// Energy-storage stations: the stations a person sees (site:view, within their role's data scope; never another
// company's), added, edited and deleted with site:manage; their live overview from their sets' latest values,
// their energy and income per day and tariff period (counted by ingestion, sites/energy.ts), price templates
// saved in versions, the tactic sent to their module (a risky operation: the account password is checked) and
// demand-response events, their run records, operation log and alarms. A refused call changes nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  hasAnyPermission,
  localClock,
  Permission,
  PRICE_PERIODS,
  priceTemplateBody,
  ResultCode,
  SITE_DEFAULT_CURRENCY,
  SiteStatus,
  SITE_STATUSES,
  SV,
  type DemandResponseRequest,
  type EmsRole,
  type EnergyFigures,
  type Language,
  type PeriodFigures,
  type PricePeriod,
  type PriceTemplateBody,
  type SendTacticRequest,
  type SiteAlarmEntry,
  type SiteFields,
  type SiteInfoResponse,
  type SiteListItem,
  type SiteOverview,
  type SitePushData,
  type SiteRunRecord,
  type SiteStatsResponse,
  type StatsBucket,
  type StatsGranularity,
  type TemplateInfoResponse,
  type TemplateListItem,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { Grant } from '../account/service.ts';
import type { UserRow } from '../auth/repository.ts';
import type { SessionContext } from '../auth/service.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import type { CommandDispatcher, CommandOutcome } from '../devices/commands.ts';
import { atLeast, type Fleet } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { LatestRow } from '../devices/service.ts';
import type { DeviceTransport } from '../devices/transport.ts';
import { alarmEntry } from '../history/service.ts';
import { parseVersions } from './energy.ts';
import { createSiteRepository, type SiteDeviceRow, type SiteRow } from './repository.ts';
import { byDepartment, covers, departmentOfRow, type RoleReach } from '../account/scope.ts';
import { createStationAnswers } from './answers.ts';
import { buildTactic, tacticProblem, type StationDevice } from './tactic.ts';

/** /ems/sendTactic as the schema hands it over. */
export type SendTactic = Omit<SendTacticRequest, 'templateId' | 'params'> & {
  templateId: number;
  params: { transformerKw?: number | undefined; rechargeHeadroomKw?: number | undefined };
};

export interface SiteCaller {
  ctx: SessionContext;
  ip: string;
  lang: Language;
}

export interface SiteServiceOptions {
  db: Db;
  fleet: Fleet;
  protocols: ProtocolStore;
  commands: CommandDispatcher;
  transport: DeviceTransport;
  bus: RealtimeBus;
  commandTimeoutMs: number;
  /** The latest state ingestion holds in memory (newer than `set_latest`). */
  live?: (gensetId: number) => LatestRow | undefined;
  /** Stations or templates changed: ingestion reads its energy bindings again. */
  changed?: () => void;
  now?: () => number;
}

/** A battery power closer to 0 than this (kW) is at rest. */
const REST_KW = 0.5;
/** A template version may start this long before the save (clocks of console and server differ a little). */
const VALID_FROM_SLACK_MS = 5 * 60_000;
/** Alarm history without a range: the last 30 days. */
const ALARM_DAYS = 30;
/** How long a demand-response event may last. */
const DEMAND_RESPONSE_MAX_MS = 7 * 86_400_000;

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round((v + Math.sign(v) * Number.EPSILON) * f) / f;
};
export const money = (v: number) => round(v, 2);
export const kwh = (v: number) => round(v, 3);

function figures(raw: { charge: number; discharge: number; cost: number; income: number }): EnergyFigures {
  return {
    chargeKwh: kwh(raw.charge),
    dischargeKwh: kwh(raw.discharge),
    chargeCost: money(raw.cost),
    dischargeIncome: money(raw.income),
    income: money(raw.income - raw.cost),
  };
}

const zero = () => ({ charge: 0, discharge: 0, cost: 0, income: 0 });
type Raw = ReturnType<typeof zero>;
const add = (a: Raw, b: Raw) => {
  a.charge += b.charge;
  a.discharge += b.discharge;
  a.cost += b.cost;
  a.income += b.income;
};

/** Every day of a month, YYYY-MM-DD. */
function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number);
  const count = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

/** A refusal of one field with parameters for its rule (shown beside the field, like a schema's). */
function fieldProblem(field: string, rule: string, params: Record<string, string | number> = {}) {
  return new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors: [{ field, rule, params }] });
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

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

export function createSiteService(opts: SiteServiceOptions) {
  const { db, fleet, protocols, commands, transport, bus } = opts;
  const repo = createSiteRepository(db);
  const now = opts.now ?? Date.now;
  const answers = createStationAnswers<SiteRow[], Omit<SiteListItem, 'statusname'>, SiteStatsResponse>({ bus, now });
  const changed = () => {
    answers.invalidate();
    opts.changed?.();
  };

  // ---- who may see and change what ------------------------------------------------------------------------

  const isPlatform = (grant: Grant) => grant.permissions.includes(ALL_PERMISSIONS);

  function requirePermission(grant: Grant, need: 'view' | 'manage') {
    if (!hasAnyPermission(grant.permissions, [need === 'view' ? Permission.siteView : Permission.siteManage]))
      throw forbidden();
  }

  /**
   * Whether the station is within what the user's role reaches (account/scope.ts: its company, its department —
   * its own, else its owner's — or the role's chosen stations), or is their own. `ownerDepartments`: the owners'
   * departments when already read for many stations.
   */
  async function inScope(
    user: UserRow,
    grant: Grant,
    site: SiteRow,
    ownerDepartments?: ReadonlyMap<number, number | null>,
  ): Promise<boolean> {
    if (isPlatform(grant)) return true;
    if (site.company_id !== user.company_id) return false;
    const { role } = await fleet.scope.reach(user, grant);
    const owner = site.owner_user_id;
    const departments =
      ownerDepartments ??
      (site.department_id === null && byDepartment(role) && owner !== null && owner !== user.id
        ? new Map([[owner, await repo.ownerDepartment(owner)]])
        : undefined);
    return reaches(user, role, site, departments);
  }

  /** inScope once what the role reaches (and, for a role by department, the owners' departments) is at hand. */
  function reaches(
    user: UserRow,
    role: RoleReach | null,
    site: SiteRow,
    ownerDepartments: ReadonlyMap<number, number | null> | undefined,
  ): boolean {
    if (role === null) return true;
    const owner = site.owner_user_id;
    if (owner === user.id && site.company_id === user.company_id) return true;
    if (site.company_id !== user.company_id) return false;
    const departmentId =
      site.department_id ?? (byDepartment(role) && owner !== null ? (ownerDepartments?.get(owner) ?? null) : null);
    return covers(role, 'site', { id: site.id, companyId: site.company_id, departmentId });
  }

  /** The station named by token if the caller may see it (404 otherwise) with the permission needed (403). */
  async function visible(ctx: SessionContext, token: string, need: 'view' | 'manage'): Promise<SiteRow> {
    requirePermission(ctx.grant, need);
    const site = await repo.byToken(token);
    if (!site || !(await inScope(ctx.user, ctx.grant, site))) throw notFound();
    return site;
  }

  const canManage = (grant: Grant) => hasAnyPermission(grant.permissions, [Permission.siteManage]);

  async function log(
    caller: SiteCaller,
    site: { company_id: number; token: string },
    matter: string,
    feedback: object,
  ) {
    await writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: site.company_id,
      ip: caller.ip,
      matter,
      feedback: feedback as Record<string, unknown>,
      target: site.token,
    });
  }

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

  // ---- stations ---------------------------------------------------------------------------------------------

  /** Checks what a station binds and returns the module and sets to store; refuses with the field at fault. */
  async function checkFields(caller: SiteCaller, fields: SiteFields, siteId: number | null, companyId: number | null) {
    const { ctx } = caller;
    let modem: { id: number; company_id: number } | undefined;
    if (fields.modemId) {
      modem = await db
        .selectFrom('modem')
        .select(['id', 'company_id'])
        .where('modem_key', '=', fields.modemId)
        .executeTakeFirst();
      const company = companyId ?? (isPlatform(ctx.grant) ? modem?.company_id : ctx.user.company_id);
      if (!modem || modem.company_id !== company) throw fieldError('modemId', 'sites.modemUnknown');
      const other = await repo.otherOnModem(modem.id, siteId);
      if (other) throw new AppError(ResultCode.conflict, 'sites.moduleTaken', { station: other.name });
    }
    if (fields.devices.length > 0 && !modem) throw fieldError('modemId', 'sites.modemNeeded');
    const bound: { gensetId: number; role: string; name: string }[] = [];
    for (const d of fields.devices) {
      const set = await fleet.byToken(d.token);
      const rights = set ? await fleet.rightsOn(ctx.user, ctx.grant, set) : null;
      if (!set || !rights) throw fieldProblem('devices', 'sites.deviceUnknown', { token: d.token });
      if (!atLeast(rights, 'manage')) throw forbidden();
      if (set.modem_id !== modem!.id) throw fieldProblem('devices', 'sites.deviceNotOnModule', { name: set.name });
      bound.push({ gensetId: set.id, role: d.role, name: set.name });
    }
    const taken = await repo.stationsOfSets(
      bound.map((b) => b.gensetId),
      siteId,
    );
    if (taken.length) {
      const name = bound.find((b) => b.gensetId === taken[0]!.genset_id)?.name ?? '';
      throw new AppError(ResultCode.conflict, 'sites.deviceInOtherStation', { name, station: taken[0]!.name });
    }
    const company = companyId ?? modem?.company_id ?? ctx.user.company_id;
    if (fields.templateId !== null) {
      const template = await repo.template(db, fields.templateId);
      if (!template || template.company_id !== company) throw fieldError('templateId', 'sites.templateUnknown');
    }
    return { modemId: modem?.id ?? null, companyId: company, devices: bound };
  }

  function rowOf(fields: SiteFields) {
    return {
      name: fields.name,
      address: fields.address,
      lat: fields.lat,
      lon: fields.lon,
      time_zone: fields.timeZone,
      currency: fields.currency as string,
      capacity_kwh: fields.capacityKwh,
      rating_kw: fields.ratingKw,
      transformer_kw: fields.transformerKw,
      build_date: fields.buildDate,
      template_id: fields.templateId,
    };
  }

  async function insertStation(input: {
    companyId: number;
    ownerUserId: number | null;
    row: ReturnType<typeof rowOf>;
    modemId: number | null;
    devices: readonly { gensetId: number; role: string }[];
    onInsert?: (trx: Db, site: { id: number; token: string }) => Promise<void>;
    /** The department it belongs to (null: its owner's). */
    departmentId?: number | null;
  }) {
    const token = randomBytes(12).toString('base64url');
    const at = now();
    const id = await db.transaction().execute(async (trx) => {
      const siteId = await repo.insert(trx, {
        token,
        company_id: input.companyId,
        owner_user_id: input.ownerUserId,
        ...input.row,
        modem_id: input.modemId,
        tactic_version: 0,
        tactic_outcome: null,
        tactic_sent_at: null,
        strategy: null,
        template_version: null,
        running_version: null,
        running_strategy: null,
        ems_state: null,
        safe_reason: null,
        setpoint_kw: null,
        demand_response: null,
        ems_ts: null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        department_id: input.departmentId ?? null,
      });
      await repo.bindDevices(trx, siteId, input.devices);
      await input.onInsert?.(trx, { id: siteId, token });
      return siteId;
    });
    changed();
    return { id, token };
  }

  /** Each time zone's local day, asked once a minute (formatting a time costs about 20 µs; a page asks 20). */
  const days = new Map<string, { minute: number; day: string }>();
  function todayIn(timeZone: string, minute: number): string {
    const known = days.get(timeZone);
    if (known?.minute === minute) return known.day;
    const day = localClock(now(), timeZone).day;
    days.set(timeZone, { minute, day });
    return day;
  }

  /** The list rows of stations, each kept (see answers.ts) until something it shows changes. */
  async function rows(sites: readonly SiteRow[], lang: Language): Promise<SiteListItem[]> {
    const minute = Math.floor(now() / 60_000);
    const days = new Map(sites.map((s) => [s.id, todayIn(s.time_zone, minute)]));
    const computed = new Map<number, Omit<SiteListItem, 'statusname'>>();
    for (const s of sites) {
      const kept = answers.row(s.id, days.get(s.id)!);
      if (kept) computed.set(s.id, kept);
    }
    const missing = sites.filter((s) => !computed.has(s.id));
    if (missing.length) {
      const started = new Map(missing.map((s) => [s.id, answers.generation(s.id)]));
      const live = await liveOf(missing);
      const { totals, today } = await energyOf(missing);
      for (const site of missing) {
        const l = live.get(site.id);
        answers.bind(
          site.id,
          site.modem_id,
          (l?.devices ?? []).map((d) => d.device.gensetId),
        );
        const status = statusOf(site, l);
        const day = figures(today.get(site.id) ?? zero());
        const total = figures(totals.get(site.id) ?? zero());
        const row = {
          token: site.token,
          name: site.name,
          status,
          capacityKwh: Number(site.capacity_kwh),
          ratingKw: Number(site.rating_kw),
          soc: l?.overview.soc ?? null,
          powerKw: l?.overview.batteryKw ?? null,
          todayChargeKwh: day.chargeKwh,
          todayDischargeKwh: day.dischargeKwh,
          todayIncome: day.income,
          totalIncome: total.income,
          alarmNum: l?.alarmNum ?? 0,
          currency: site.currency,
          timeZone: site.time_zone,
          address: site.address,
          online: l?.online ?? false,
        };
        computed.set(site.id, row);
        answers.keepRow(site.id, days.get(site.id)!, row, started.get(site.id)!);
      }
    }
    return sites.map((site) => {
      const row = computed.get(site.id)!;
      return { ...row, statusname: statusName(lang, row.status) };
    });
  }

  /** A company's stations (all companies' for null) in the list's order, whose name holds `name` if given. */
  async function stationsOf(companyId: number | null, name: string | undefined): Promise<SiteRow[]> {
    const key = String(companyId);
    let all = answers.list(key);
    if (!all) {
      const started = answers.listGeneration();
      all = await repo.list(companyId, undefined);
      answers.keepList(key, all, started);
    }
    const needle = name?.toLowerCase().replace(/[%_\\]/g, '');
    return needle ? all.filter((s) => s.name.toLowerCase().includes(needle)) : all;
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

  const announce = (site: { id: number; token: string }) => bus.publish('site', { siteId: site.id, token: site.token });

  // ---- templates ---------------------------------------------------------------------------------------------

  async function templateOf(ctx: SessionContext, id: number) {
    const template = await repo.template(db, id);
    if (!template || (!isPlatform(ctx.grant) && template.company_id !== ctx.user.company_id)) throw notFound();
    return template;
  }

  async function saveVersion(input: {
    templateId: number | null;
    companyId: number;
    name: string;
    body: PriceTemplateBody;
    validFrom: number;
    userId: number | null;
    userName: string;
    onSaved?: (trx: Db, saved: { id: number; version: number }) => Promise<void>;
  }) {
    const at = now();
    const saved = await db.transaction().execute(async (trx) => {
      let id = input.templateId;
      if (id === null)
        id = await repo.insertTemplate(trx, {
          companyId: input.companyId,
          name: input.name,
          userId: input.userId,
          now: at,
        });
      else await repo.renameTemplate(trx, id, input.name, at);
      const versions = await repo.versions(trx, [id]);
      const version = (versions.at(-1)?.version ?? 0) + 1;
      await repo.insertVersion(trx, {
        templateId: id,
        version,
        body: JSON.stringify(input.body),
        validFrom: input.validFrom,
        userId: input.userId,
        userName: input.userName,
        now: at,
      });
      await input.onSaved?.(trx, { id, version });
      return { id, version };
    });
    changed();
    return { ...saved, validFrom: input.validFrom };
  }

  // ---- run records -------------------------------------------------------------------------------------------

  function runText(lang: Language, kind: string, detail: Record<string, unknown>, version: number | null): string {
    const t = (key: string) => translate(lang, key);
    const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : '');
    const params: Record<string, string | number> = { version: version ?? '' };
    for (const [k, v] of Object.entries(detail)) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
    if (kind === 'strategyChanged' || kind === 'tacticSent') {
      for (const k of ['from', 'to', 'strategy'])
        if (typeof detail[k] === 'string') params[k] = t(`sites.strategy.${str(detail[k])}`);
    }
    if (kind === 'stateChanged') {
      params.from = t(`sites.status.${str(detail.from)}`);
      params.to = t(`sites.status.${str(detail.to)}`);
    }
    if (kind === 'safeStop' || kind === 'safeCleared') params.reason = t(`sites.safe.${str(detail.reason)}`);
    if (kind === 'demandResponse') params.phase = t(`sites.drPhase.${str(detail.phase)}`);
    return translate(lang, `sites.run.${kind}`, params);
  }

  // ---- tactics ---------------------------------------------------------------------------------------------

  async function stationDevices(siteId: number): Promise<(StationDevice & { gensetId: number })[]> {
    const out: (StationDevice & { gensetId: number })[] = [];
    for (const d of await repo.devices(db, [siteId])) {
      out.push({
        gensetId: d.gensetId,
        role: d.role as StationDevice['role'],
        port: d.port,
        address: d.address,
        doc: (await protocols.get(d.protocolKey))?.doc,
      });
    }
    return out;
  }

  /** The station's module, connected: refused at once when the broker knows it is not. */
  async function connectedModule(site: SiteRow) {
    const modem = site.modem_id === null ? undefined : await repo.modem(site.modem_id);
    if (!modem) throw new AppError(ResultCode.conflict, 'sites.noModule');
    const offline = !transport.connected(modem.modem_key) && transport.port !== undefined;
    return { modem, offline };
  }

  function outcomeError(outcome: CommandOutcome, key: string): AppError | null {
    if (outcome.status === 'ok') return null;
    if (outcome.status === 'timeout')
      return new AppError(ResultCode.deviceTimeout, 'errors.deviceTimeout', {
        seconds: Math.round(opts.commandTimeoutMs / 1000),
      });
    return new AppError(ResultCode.deviceFailed, key, { reason: outcome.reply?.error ?? '' });
  }

  /**
   * Builds the station's tactic and sends it to its module: refused naming what the station lacks (nothing sent),
   * recorded with its outcome. `who`: the person sending it (null: the server itself, e.g. the demo).
   */
  async function deliverTactic(site: SiteRow, req: Omit<SendTactic, 'token' | 'password'>, who: SiteCaller | null) {
    const lang = who?.lang ?? 'en-US';
    const template = await repo.template(db, req.templateId);
    if (!template || template.company_id !== site.company_id) throw fieldError('templateId', 'sites.templateUnknown');
    const latest = (await repo.versions(db, [template.id])).at(-1);
    const body = latest ? priceTemplateBody.safeParse(JSON.parse(latest.body)) : undefined;
    if (!latest || !body?.success) throw fieldError('templateId', 'sites.templateInvalid');
    const params = { ...req.params };
    if (params.transformerKw === undefined && site.transformer_kw !== null && req.strategy === 'capacityExpansion')
      params.transformerKw = Number(site.transformer_kw);
    const devices = await stationDevices(site.id);
    const problem = tacticProblem(devices, req.strategy, params, body.data);
    const refused = async (error: AppError, reason: string) => {
      if (who)
        await log(who, site, 'log.siteTactic', {
          name: site.name,
          strategy: req.strategy,
          template: template.name,
          outcome: 'refused',
          reason,
        });
      return error;
    };
    if (problem?.kind === 'device')
      throw await refused(
        fieldProblem('devices', 'sites.deviceMissing', { device: translate(lang, `sites.device.${problem.role}`) }),
        `no ${problem.role}`,
      );
    if (problem?.kind === 'role')
      throw await refused(
        fieldProblem('devices', 'sites.roleMissing', {
          role: `${translate(lang, `sites.role.${problem.role}`)} (${problem.role})`,
          device: translate(lang, `sites.device.${problem.device}`),
        }),
        `no ${problem.role}`,
      );
    if (problem?.kind === 'param')
      throw await refused(
        problem.field === 'transformerKw'
          ? fieldError('params', 'sites.transformerMissing')
          : fieldError('strategy', 'sites.demandLimitMissing'),
        problem.field,
      );
    const { modem, offline } = await connectedModule(site);
    if (offline) throw await refused(new AppError(ResultCode.deviceTimeout, 'sites.moduleOffline'), 'offline');

    const version = Math.max(site.tactic_version, await repo.maxTacticVersion(db, site.id)) + 1;
    const tactic = buildTactic({
      version,
      strategy: req.strategy,
      params,
      template: body.data,
      timeZone: site.time_zone,
      devices,
    });
    const sentAt = now();
    try {
      await db.transaction().execute(async (trx) => {
        await repo.insertTactic(trx, {
          siteId: site.id,
          version,
          strategy: req.strategy,
          templateId: template.id,
          templateVersion: latest.version,
          body: JSON.stringify(tactic),
          userId: who?.ctx.user.id ?? null,
          account: who?.ctx.user.account ?? '',
          now: sentAt,
        });
        await repo.update(trx, site.id, {
          tactic_version: version,
          tactic_outcome: 'pending',
          tactic_sent_at: sentAt,
        });
        await repo.runRecord(trx, {
          siteId: site.id,
          ts: sentAt,
          kind: 'tacticSent',
          version,
          detail: {
            strategy: req.strategy,
            template: template.name,
            templateVersion: latest.version,
            by: who?.ctx.user.account ?? '',
          },
        });
      });
    } catch {
      // another tactic took this version meanwhile
      throw new AppError(ResultCode.conflict, 'sites.tacticBusy');
    }
    const pcs = devices.find((d) => d.role === 'pcs');
    const outcome = await commands.send({
      modemKey: modem.modem_key,
      modemId: modem.id,
      gensetId: pcs?.gensetId ?? null,
      userId: who?.ctx.user.id ?? null,
      name: 'tactic',
      request: { kind: 'tactic', tactic },
      timeoutMs: opts.commandTimeoutMs,
    });
    const word = outcome.status === 'ok' ? 'accepted' : outcome.status === 'failed' ? 'refused' : 'timeout';
    const reason = outcome.reply?.error ?? '';
    const finished = now();
    await db.transaction().execute(async (trx) => {
      await repo.finishTactic(trx, site.id, version, {
        outcome: word,
        reason,
        requestId: outcome.requestId,
        now: finished,
      });
      await repo.update(trx, site.id, {
        tactic_outcome: word,
        ...(word === 'accepted'
          ? {
              strategy: req.strategy,
              template_id: template.id,
              template_version: latest.version,
              updated_at: finished,
            }
          : {}),
      });
      await repo.runRecord(trx, {
        siteId: site.id,
        ts: finished,
        kind: word === 'accepted' ? 'tacticAccepted' : word === 'refused' ? 'tacticRefused' : 'tacticTimeout',
        version,
        detail: word === 'refused' ? { reason } : {},
      });
      if (who)
        await writeOperationLog(trx, {
          ctx: who.ctx,
          companyId: site.company_id,
          ip: who.ip,
          matter: 'log.siteTactic',
          feedback: {
            name: site.name,
            version,
            strategy: req.strategy,
            template: template.name,
            outcome: word,
            ...(reason ? { reason } : {}),
          },
          target: site.token,
        });
    });
    if (word === 'accepted') changed();
    announce(site);
    const error = outcomeError(outcome, 'sites.tacticRefused');
    if (error) throw error;
    return {
      version,
      strategy: req.strategy,
      templateId: template.id,
      templateVersion: latest.version,
      outcome: 'accepted' as const,
    };
  }

  return {
    // ---- the station calls ----------------------------------------------------------------------------------

    async list(ctx: SessionContext, req: { page: number; size: number; name?: string | undefined }, lang: Language) {
      requirePermission(ctx.grant, 'view');
      const all = await stationsOf(isPlatform(ctx.grant) ? null : ctx.user.company_id, req.name);
      // the owners' departments count only for a role that reaches departments
      const reach = isPlatform(ctx.grant) ? null : await fleet.scope.reach(ctx.user, ctx.grant);
      const owners =
        reach && byDepartment(reach.role)
          ? await repo.ownerDepartments(all.filter((s) => s.department_id === null).map((s) => s.owner_user_id))
          : undefined;
      const mine = all.filter((s) => reaches(ctx.user, reach?.role ?? null, s, owners));
      const page = mine.slice((req.page - 1) * req.size, req.page * req.size);
      return { list: await rows(page, lang), total: mine.length, page: req.page, size: req.size };
    },

    async info(ctx: SessionContext, token: string, lang: Language): Promise<SiteInfoResponse> {
      const site = await visible(ctx, token, 'view');
      const live = (await liveOf([site])).get(site.id);
      const { totals, today } = await energyOf([site]);
      const total = figures(totals.get(site.id) ?? zero());
      const day = figures(today.get(site.id) ?? zero());
      const status = statusOf(site, live);
      const names = await repo.names({ company: site.company_id, owner: site.owner_user_id });
      const template = site.template_id === null ? undefined : await repo.template(db, site.template_id);
      const lastSent =
        site.tactic_version > 0
          ? await db
              .selectFrom('site_tactic')
              .select(['outcome', 'created_at'])
              .where('site_id', '=', site.id)
              .where('version', '=', site.tactic_version)
              .executeTakeFirst()
          : undefined;
      const outcome = lastSent?.outcome;
      return {
        site: {
          token: site.token,
          name: site.name,
          status,
          statusname: statusName(lang, status),
          total_charge: total.chargeKwh,
          total_discharge: total.dischargeKwh,
          total_income: total.income,
          currency: site.currency,
          timeZone: site.time_zone,
          alarmNum: live?.alarmNum ?? 0,
          online: live?.online ?? false,
          companyName: names.company,
          ownerName: names.owner,
        },
        fields: {
          name: site.name,
          address: site.address,
          lat: site.lat,
          lon: site.lon,
          timeZone: site.time_zone,
          currency: site.currency,
          capacityKwh: Number(site.capacity_kwh),
          ratingKw: Number(site.rating_kw),
          transformerKw: site.transformer_kw,
          buildDate: site.build_date,
          modemId: site.modem_id === null ? null : ((await repo.modem(site.modem_id))?.modem_key ?? null),
          templateId: site.template_id,
          departmentId: site.department_id,
          departmentName: (await departmentOfRow(db, site))?.name ?? null,
          devices: (live?.devices ?? []).map((d) => ({
            token: d.device.token,
            role: d.device.role as SiteInfoResponse['fields']['devices'][number]['role'],
          })),
        },
        overview: {
          ...(live?.overview ?? { gridKw: null, pvKw: null, batteryKw: null, loadKw: null, soc: null, ts: null }),
          todayChargeKwh: day.chargeKwh,
          todayDischargeKwh: day.dischargeKwh,
          todayIncome: day.income,
        },
        tactic: {
          sentVersion: site.tactic_version,
          sentOutcome:
            outcome === 'accepted' || outcome === 'pending' ? outcome : outcome === undefined ? null : 'refused',
          sentAt: lastSent ? Number(lastSent.created_at) : null,
          runningVersion: site.running_version,
          strategy: (site.strategy as SiteInfoResponse['tactic']['strategy']) ?? null,
          templateId: site.template_id,
          templateName: template?.name ?? null,
          templateVersion: site.template_version,
          safe: (site.safe_reason as SiteInfoResponse['tactic']['safe']) ?? null,
          setpointKw: site.setpoint_kw,
          demandResponse: site.demand_response,
        },
        canManage: canManage(ctx.grant),
      };
    },

    async add(caller: SiteCaller, fields: SiteFields) {
      requirePermission(caller.ctx.grant, 'manage');
      const checked = await checkFields(caller, fields, null, null);
      const site = await insertStation({
        companyId: checked.companyId,
        ownerUserId: caller.ctx.user.id,
        row: rowOf(fields),
        modemId: checked.modemId,
        devices: checked.devices,
        onInsert: (trx, s) =>
          writeOperationLog(trx, {
            ctx: caller.ctx,
            companyId: checked.companyId,
            ip: caller.ip,
            matter: 'log.siteAdded',
            feedback: { name: fields.name, devices: checked.devices.length },
            target: s.token,
          }),
      });
      return { token: site.token };
    },

    async edit(caller: SiteCaller, req: SiteFields & { token: string }) {
      const site = await visible(caller.ctx, req.token, 'manage');
      const checked = await checkFields(caller, req, site.id, site.company_id);
      await db.transaction().execute(async (trx) => {
        await repo.update(trx, site.id, {
          ...rowOf(req),
          modem_id: checked.modemId,
          updated_at: now(),
          // another module runs nothing the station sent yet
          ...(checked.modemId !== site.modem_id
            ? { running_version: null, running_strategy: null, ems_state: null }
            : {}),
        });
        await repo.bindDevices(trx, site.id, checked.devices);
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: site.company_id,
          ip: caller.ip,
          matter: 'log.siteEdited',
          feedback: { name: req.name, devices: checked.devices.length },
          target: site.token,
        });
      });
      changed();
      announce(site);
      return { token: site.token };
    },

    /**
     * Moves stations the caller manages to a department of their company (null: back to their owners'): what
     * department scopes reach changes, and open station pages of people no longer reaching one are told.
     */
    async setDepartment(caller: SiteCaller, req: { tokens: string[]; departmentId: number | null }) {
      requirePermission(caller.ctx.grant, 'manage');
      const department =
        req.departmentId === null
          ? null
          : await db
              .selectFrom('department')
              .select(['id', 'name', 'company_id'])
              .where('id', '=', req.departmentId)
              .where('company_id', '=', caller.ctx.user.company_id)
              .executeTakeFirst();
      if (req.departmentId !== null && !department) throw fieldError('departmentId', 'validation.invalid');
      const sites: SiteRow[] = [];
      for (const token of new Set(req.tokens)) sites.push(await visible(caller.ctx, token, 'manage'));
      // a department holds stations of its own company only
      if (department && sites.some((s) => s.company_id !== department.company_id))
        throw fieldError('departmentId', 'validation.invalid');
      const moved = sites.filter((s) => s.department_id !== (department?.id ?? null));
      if (moved.length === 0) return { moved: 0 };
      await db.transaction().execute(async (trx) => {
        for (const site of moved) {
          await repo.update(trx, site.id, { department_id: department?.id ?? null, updated_at: now() });
          await writeOperationLog(trx, {
            ctx: caller.ctx,
            companyId: site.company_id,
            ip: caller.ip,
            matter: department ? 'log.siteDepartment' : 'log.siteDepartmentCleared',
            feedback: department ? { name: site.name, department: department.name } : { name: site.name },
            target: site.token,
          });
        }
      });
      changed();
      // what scopes reach is resolved again (the department may be new to a cached tree), on every instance
      fleet.scope.invalidate(department?.company_id ?? caller.ctx.user.company_id);
      return { moved: moved.length };
    },

    async del(caller: SiteCaller, token: string) {
      const site = await visible(caller.ctx, token, 'manage');
      await db.transaction().execute(async (trx) => {
        await repo.update(trx, site.id, { deleted_at: now(), updated_at: now() });
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: site.company_id,
          ip: caller.ip,
          matter: 'log.siteDeleted',
          feedback: { name: site.name },
          target: site.token,
        });
      });
      changed();
      return { deleted: 1 };
    },

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
          values: (doc?.items ?? [])
            .filter((item) => item.realtime || item.emsRole)
            .map((item) => ({
              key: item.key,
              name: item.name[lang],
              unit: item.unit,
              decimals: item.decimals,
              value: d.values[item.key] ?? null,
              emsRole: item.emsRole ?? null,
            })),
        });
      }
      return { list };
    },

    async log(ctx: SessionContext, req: { token: string; page: number; size: number }, lang: Language) {
      const site = await visible(ctx, req.token, 'view');
      const { rows: entries, total } = await repo.operations(site.company_id, site.token, req.page, req.size);
      return {
        list: entries.map((row) => {
          const feedback = parseObject(row.feedback);
          const params = Object.fromEntries(
            Object.entries(feedback).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
          ) as Record<string, string | number>;
          return {
            id: row.id,
            time: Number(row.created_at),
            account: row.account ?? '',
            nickname: row.nickname ?? '',
            matter: translate(lang, row.matter, params),
            outcome: typeof feedback.outcome === 'string' ? feedback.outcome : null,
          };
        }),
        total,
        page: req.page,
        size: req.size,
      };
    },

    async logInfo(ctx: SessionContext, req: { token: string; id: number }, lang: Language) {
      const site = await visible(ctx, req.token, 'view');
      const row = await repo.operation(site.company_id, site.token, req.id);
      if (!row) throw notFound();
      const feedback = parseObject(row.feedback);
      const params = Object.fromEntries(
        Object.entries(feedback).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
      ) as Record<string, string | number>;
      return {
        id: row.id,
        time: Number(row.created_at),
        account: row.account ?? '',
        nickname: row.nickname ?? '',
        matter: translate(lang, row.matter, params),
        outcome: typeof feedback.outcome === 'string' ? feedback.outcome : null,
        ip: row.ip ?? '',
        detail: feedback,
      };
    },

    async runRecords(
      ctx: SessionContext,
      req: {
        token: string;
        page: number;
        size: number;
        kind?: string | undefined;
        start?: number | undefined;
        end?: number | undefined;
      },
      lang: Language,
    ) {
      const site = await visible(ctx, req.token, 'view');
      const { rows: records, total } = await repo.runRecords(site.id, req);
      return {
        list: records.map((r): SiteRunRecord => {
          const detail = parseObject(r.detail);
          const version = r.version === null ? null : Number(r.version);
          return {
            id: r.id,
            ts: Number(r.ts),
            kind: r.kind as SiteRunRecord['kind'],
            text: runText(lang, r.kind, detail, version),
            version,
            detail,
          };
        }),
        total,
        page: req.page,
        size: req.size,
      };
    },

    // ---- templates -------------------------------------------------------------------------------------------

    async templateList(ctx: SessionContext, req: { page: number; size: number; name?: string | undefined }) {
      requirePermission(ctx.grant, 'view');
      const { rows: templates, total } = await repo.templates(ctx.user.company_id, req.name, req.page, req.size);
      const ids = templates.map((t) => t.id);
      const versions = await repo.versions(db, ids);
      const using = await repo.stationsUsing(ids);
      const list: TemplateListItem[] = [];
      for (const t of templates) {
        const latest = versions.filter((v) => v.templateId === t.id).at(-1);
        if (!latest) continue;
        list.push({
          id: t.id,
          name: t.name,
          version: latest.version,
          validFrom: latest.validFrom,
          body: priceTemplateBody.parse(JSON.parse(latest.body)),
          stations: using.filter((s) => s.template_id === t.id).length,
          updatedAt: Number(t.updated_at),
          updatedBy: latest.createdBy,
        });
      }
      return { list, total, page: req.page, size: req.size };
    },

    async templateSave(
      caller: SiteCaller,
      req: PriceTemplateBody & { id?: number | undefined; name: string; validFrom?: number | undefined },
    ) {
      requirePermission(caller.ctx.grant, 'manage');
      const { id, name, validFrom, ...rest } = req;
      const body = priceTemplateBody.parse(rest);
      const at = now();
      const from = validFrom ?? at;
      if (from < at - VALID_FROM_SLACK_MS) throw fieldError('validFrom', SV.validFromPast);
      const existing = id === undefined ? undefined : await templateOf(caller.ctx, id);
      const companyId = existing?.company_id ?? caller.ctx.user.company_id;
      return saveVersion({
        templateId: existing?.id ?? null,
        companyId,
        name,
        body,
        validFrom: from,
        userId: caller.ctx.user.id,
        userName: caller.ctx.user.nickname ?? caller.ctx.user.account,
        onSaved: (trx, saved) =>
          writeOperationLog(trx, {
            ctx: caller.ctx,
            companyId,
            ip: caller.ip,
            matter: 'log.templateSaved',
            feedback: { name, version: saved.version },
            target: `template:${saved.id}`,
          }),
      });
    },

    async templateInfo(
      ctx: SessionContext,
      req: { id: number; version?: number | undefined },
    ): Promise<TemplateInfoResponse> {
      requirePermission(ctx.grant, 'view');
      const template = await templateOf(ctx, req.id);
      const versions = await repo.versions(db, [template.id]);
      const shown = req.version === undefined ? versions.at(-1) : versions.find((v) => v.version === req.version);
      if (!shown) throw notFound();
      const stations = await repo.stationsUsing([template.id]);
      return {
        id: template.id,
        name: template.name,
        version: shown.version,
        validFrom: shown.validFrom,
        body: priceTemplateBody.parse(JSON.parse(shown.body)),
        versions: versions.map((v) => ({
          version: v.version,
          validFrom: v.validFrom,
          createdAt: v.createdAt,
          createdBy: v.createdBy,
        })),
        stations: stations.map((s) => ({ token: s.token, name: s.name })),
      };
    },

    async templateDelete(caller: SiteCaller, id: number) {
      requirePermission(caller.ctx.grant, 'manage');
      const template = await templateOf(caller.ctx, id);
      const using = await repo.stationsUsing([template.id]);
      if (using.length)
        throw new AppError(ResultCode.conflict, 'sites.templateInUse', {
          stations: using.map((s) => s.name).join(', '),
        });
      const deleted = await db.transaction().execute(async (trx) => {
        const n = await repo.deleteTemplate(trx, template.id, now());
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: template.company_id,
          ip: caller.ip,
          matter: 'log.templateDeleted',
          feedback: { name: template.name },
          target: `template:${template.id}`,
        });
        return n;
      });
      return { deleted };
    },

    // ---- tactics and demand response ---------------------------------------------------------------------------

    async sendTactic(caller: SiteCaller, req: SendTactic) {
      const { ctx } = caller;
      const site = await visible(ctx, req.token, 'manage');
      if (!(await verifyPassword(ctx.user.password_hash, req.password)))
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      return deliverTactic(site, req, caller);
    },

    /** A tactic sent by the server itself (the demo's stations): no rights or password, no operation log. */
    async sendTacticAsServer(req: Omit<SendTactic, 'password' | 'params'> & { params?: SendTactic['params'] }) {
      const site = await repo.byToken(req.token);
      if (!site) throw notFound();
      return deliverTactic(site, { ...req, params: req.params ?? {} }, null);
    },

    async demandResponse(caller: SiteCaller, req: DemandResponseRequest) {
      const site = await visible(caller.ctx, req.token, 'manage');
      const at = now();
      if (req.end <= at) throw fieldError('end', 'sites.endPassed');
      if (req.end - req.start > DEMAND_RESPONSE_MAX_MS) throw fieldError('end', 'sites.eventTooLong');
      if (!site.strategy) throw new AppError(ResultCode.conflict, 'sites.noTactic');
      const { modem, offline } = await connectedModule(site);
      const id = `dr-${randomUUID()}`;
      const feedback = { name: site.name, id, kw: req.kw, start: req.start, end: req.end };
      if (offline) {
        await log(caller, site, 'log.siteDemandResponse', { ...feedback, outcome: 'offline' });
        throw new AppError(ResultCode.deviceTimeout, 'sites.moduleOffline');
      }
      const pcs = (await repo.devices(db, [site.id])).find((d) => d.role === 'pcs');
      const outcome = await commands.send({
        modemKey: modem.modem_key,
        modemId: modem.id,
        gensetId: pcs?.gensetId ?? null,
        userId: caller.ctx.user.id,
        name: 'demandResponse',
        request: { kind: 'demandResponse', event: { id, startTs: req.start, endTs: req.end, kw: req.kw } },
        timeoutMs: opts.commandTimeoutMs,
      });
      await db.transaction().execute(async (trx) => {
        if (outcome.status === 'ok')
          await repo.runRecord(trx, {
            siteId: site.id,
            ts: now(),
            kind: 'demandResponse',
            detail: { id, phase: 'scheduled', kw: req.kw, start: req.start, end: req.end },
          });
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: site.company_id,
          ip: caller.ip,
          matter: 'log.siteDemandResponse',
          feedback: {
            ...feedback,
            outcome: outcome.status,
            ...(outcome.reply?.error ? { reason: outcome.reply.error } : {}),
          },
          target: site.token,
        });
      });
      const error = outcomeError(outcome, 'sites.demandResponseRefused');
      if (error) throw error;
      announce(site);
      return { id };
    },

    // ---- statistics ------------------------------------------------------------------------------------------

    async stats(
      ctx: SessionContext,
      req: { token: string; granularity: StatsGranularity; date: string },
    ): Promise<SiteStatsResponse> {
      const site = await visible(ctx, req.token, 'view');
      const { granularity, date } = req;
      const key = `${granularity}|${date}`;
      const kept = answers.stats(site.id, key);
      if (kept) return kept;
      const started = answers.generation(site.id);
      answers.bind(
        site.id,
        site.modem_id,
        (await repo.devices(db, [site.id])).map((d) => d.gensetId),
      );
      const days = granularity === 'day' ? [date] : granularity === 'month' ? daysOf(date) : [];
      const months =
        granularity === 'year' ? Array.from({ length: 12 }, (_, i) => `${date}-${String(i + 1).padStart(2, '0')}`) : [];
      const from = granularity === 'year' ? `${date}-01-01` : days[0]!;
      const to = granularity === 'year' ? `${date}-12-31` : days.at(-1)!;
      const buckets = granularity === 'year' ? months : days;
      const raw = new Map<string, Record<PricePeriod, Raw>>();
      for (const b of buckets) raw.set(b, { sharp: zero(), peak: zero(), flat: zero(), valley: zero() });
      for (const r of await repo.energyBuckets(site.id, from, to, granularity === 'year')) {
        const bucket = raw.get(r.bucket);
        const period = (PRICE_PERIODS as readonly string[]).includes(r.period) ? (r.period as PricePeriod) : 'flat';
        if (!bucket) continue;
        add(bucket[period], r);
      }
      const periodTotals: Record<PricePeriod, Raw> = { sharp: zero(), peak: zero(), flat: zero(), valley: zero() };
      const total = zero();
      const list: StatsBucket[] = buckets.map((b) => {
        const periods = raw.get(b)!;
        const sum = zero();
        for (const p of PRICE_PERIODS) {
          add(sum, periods[p]);
          add(periodTotals[p], periods[p]);
        }
        add(total, sum);
        return {
          bucket: b,
          ...figures(sum),
          periods: Object.fromEntries(PRICE_PERIODS.map((p) => [p, figures(periods[p])])) as PeriodFigures,
        };
      });
      const answer: SiteStatsResponse = {
        token: site.token,
        granularity,
        date,
        currency: site.currency,
        timeZone: site.time_zone,
        buckets: list,
        periods: Object.fromEntries(PRICE_PERIODS.map((p) => [p, figures(periodTotals[p])])) as PeriodFigures,
        totals: figures(total),
      };
      answers.keepStats(site.id, key, answer, started);
      return answer;
    },

    // ---- alarms -----------------------------------------------------------------------------------------------

    async currentAlarms(ctx: SessionContext, token: string, lang: Language) {
      const site = await visible(ctx, token, 'view');
      const devices = await repo.devices(db, [site.id]);
      const byId = new Map(devices.map((d) => [d.gensetId, d]));
      const open = await repo.openAlarms(devices.map((d) => d.gensetId));
      const list: SiteAlarmEntry[] = open.map((row) => {
        const d = byId.get(row.genset_id)!;
        return { ...alarmEntry(row, lang), setToken: d.token, setName: d.name, role: d.role as 'pcs' };
      });
      return { alarmNum: list.length, list };
    },

    async alarmHistory(
      ctx: SessionContext,
      req: {
        token: string;
        start?: number | undefined;
        end?: number | undefined;
        level?: string | undefined;
        state: string;
        page: number;
        size: number;
      },
      lang: Language,
    ) {
      const site = await visible(ctx, req.token, 'view');
      const end = req.end ?? now();
      const start = req.start ?? end - ALARM_DAYS * 86_400_000;
      const devices = await repo.devices(db, [site.id]);
      const byId = new Map(devices.map((d) => [d.gensetId, d]));
      const { rows: found, total } = await repo.alarmHistory(
        devices.map((d) => d.gensetId),
        { start, end, level: req.level, state: req.state, page: req.page, size: req.size },
      );
      return {
        start,
        end,
        list: found.map((row): SiteAlarmEntry => {
          const d = byId.get(row.genset_id)!;
          return { ...alarmEntry(row, lang), setToken: d.token, setName: d.name, role: d.role as 'pcs' };
        }),
        total,
        page: req.page,
        size: req.size,
      };
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

    // ---- for the demo and other server code ------------------------------------------------------------------

    /**
     * A station made by the server itself (the demo's): no rights are checked. `devices`: the sets by id with
     * their roles (they should be on `modemId`); `templateId`: a template of the same company.
     */
    async createStation(input: {
      companyId: number;
      ownerUserId?: number | null;
      name: string;
      timeZone: string;
      currency?: string;
      capacityKwh: number;
      ratingKw: number;
      transformerKw?: number | null;
      address?: string | null;
      lat?: number | null;
      lon?: number | null;
      buildDate?: string | null;
      modemId: number | null;
      devices: readonly { gensetId: number; role: 'pcs' | 'bms' | 'meter' | 'pv' }[];
      templateId?: number | null;
      departmentId?: number | null;
    }) {
      return insertStation({
        companyId: input.companyId,
        ownerUserId: input.ownerUserId ?? null,
        departmentId: input.departmentId ?? null,
        row: {
          name: input.name,
          address: input.address ?? null,
          lat: input.lat ?? null,
          lon: input.lon ?? null,
          time_zone: input.timeZone,
          currency: input.currency ?? SITE_DEFAULT_CURRENCY,
          capacity_kwh: input.capacityKwh,
          rating_kw: input.ratingKw,
          transformer_kw: input.transformerKw ?? null,
          build_date: input.buildDate ?? null,
          template_id: input.templateId ?? null,
        },
        modemId: input.modemId,
        devices: input.devices,
      });
    },

    /** A price template made by the server itself (the demo's), or a new version of it. */
    async createTemplate(input: {
      companyId: number;
      name: string;
      body: PriceTemplateBody;
      templateId?: number;
      validFrom?: number;
      userId?: number;
    }) {
      return saveVersion({
        templateId: input.templateId ?? null,
        companyId: input.companyId,
        name: input.name,
        body: priceTemplateBody.parse(input.body),
        validFrom: input.validFrom ?? now(),
        userId: input.userId ?? null,
        userName: '',
      });
    },

    /** The versions of templates as energy counting reads them (for tests and checks). */
    async templateVersions(templateIds: readonly number[]) {
      return parseVersions(await repo.versions(db, templateIds));
    },
  };
}
export type SiteService = ReturnType<typeof createSiteService>;
