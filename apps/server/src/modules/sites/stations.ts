// The stations themselves: listed (each row kept until what it shows changes, answers.ts) and read with their
// overview, fields and tactic with site:view; added, edited, moved between departments and deleted with
// site:manage, each change in the operation log; and made by the server itself for the demo. What a station binds
// is checked first: its module (of its company, in no other station), its sets (on that module, managed by the
// caller, in no other station) and its template (of its company).
import { randomBytes } from 'node:crypto';
import {
  localClock,
  ResultCode,
  SITE_DEFAULT_CURRENCY,
  type Language,
  type SiteFields,
  type SiteInfoResponse,
  type SiteListItem,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast } from '../devices/fleet.ts';
import { byDepartment, departmentOfRow } from '../account/scope.ts';
import { fieldProblem, type SiteCaller, type SiteContext } from './context.ts';
import { figures, zero } from './figures.ts';
import type { LiveFigures } from './live.ts';
import type { SiteRow } from './repository.ts';

export function createStations(
  {
    db,
    fleet,
    repo,
    now,
    answers,
    changed,
    announce,
    isPlatform,
    requirePermission,
    reaches,
    visible,
    canManage,
  }: SiteContext,
  { liveOf, statusOf, statusName, energyOf }: LiveFigures,
) {
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
  };
}
