// Set management (spec 3, spec 7 "Genset"): add a set with its module, edit it, delete it (soft: its history
// stays for the audit period), read it, list "my gensets" and the company's sets, and the protocols a set may
// use. Rights on a set come from devices/fleet.ts; every change goes to the operation log.
import {
  hasAnyPermission,
  Permission,
  ResultCode,
  type GensetAddResponse,
  type GensetFields,
  type GensetInfo,
  type GensetListItem,
  type GensetOperation,
  type GensetListResponse,
  type DepartmentOptionsResponse,
  type Language,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { gensetSearchText } from '../../db/migrations/004-gensets.ts';
import { AppError, fieldError, forbidden } from '../../lib/errors.ts';
import type { Grant } from '../account/service.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast, newCode, type Fleet, type GensetRow } from '../devices/fleet.ts';
import type { Ingest } from '../devices/ingest/index.ts';
import type { Planner } from '../devices/plans.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { DeviceService } from '../devices/service.ts';
import { detailsOf, detailsText, parseDetails } from './fields.ts';
import type { SetDirectory } from './directory.ts';
import { createListQueries, type ListQuery, type ListScope } from './list.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { parseFeedback, renderEntry, type LogReader } from '../oplog/render.ts';
import { departmentOfRow, departmentOptions } from '../account/scope.ts';

export interface GensetServiceOptions {
  db: Db;
  fleet: Fleet;
  devices: DeviceService;
  protocols: ProtocolStore;
  planner: Planner;
  ingest: Ingest;
  directory: SetDirectory;
  log: FastifyBaseLogger;
}

/** Who is calling: the session, the role's grant, the company the call acts for, and where from. */
export interface Caller {
  ctx: SessionContext;
  grant: Grant;
  companyId: number;
  ip: string;
  lang: Language;
  /** The reader's IANA zone, for the moments entries name (the server's when absent). */
  timeZone?: string | undefined;
}

/** Most rows one export holds. */
export const EXPORT_MAX_ROWS = 50_000;
/** Operation-log entries the info call returns. */
const RECENT_OPERATIONS = 10;

export function createGensetService(opts: GensetServiceOptions) {
  const { db, fleet, protocols } = opts;
  const lists = createListQueries(db, opts.directory, fleet.scope);

  async function log(caller: Caller, set: GensetRow, matter: string, feedback: Record<string, unknown>) {
    await writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: set.company_id,
      ip: caller.ip,
      matter,
      feedback,
      target: set.token,
    });
  }

  /** The set's latest operation-log entries with their matter in the caller's language. */
  async function recentOperations(set: GensetRow, reader: LogReader): Promise<GensetOperation[]> {
    const rows = await db
      .selectFrom('operation_log')
      .select(['created_at', 'account', 'nickname', 'matter', 'feedback'])
      .where('company_id', '=', set.company_id)
      .where('target', '=', set.token)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT_OPERATIONS)
      .execute();
    const target = { name: set.name, protocol: (await opts.protocols.get(set.protocol_key))?.doc };
    return rows.map((row) => {
      const rendered = renderEntry(reader, row.matter, parseFeedback(row.feedback), set.token, target);
      return {
        time: row.created_at,
        account: row.account ?? '',
        nickname: row.nickname ?? '',
        matter: rendered.matter,
        outcome: rendered.outcome,
        outcomeText: rendered.outcomeText,
      };
    });
  }

  function requireManagePermission(grant: Grant) {
    if (!hasAnyPermission(grant.permissions, [Permission.gensetManage])) throw forbidden();
  }

  async function requireProtocol(key: string) {
    if (!(await protocols.get(key))) throw fieldError('protocolKey', 'validation.invalid');
  }

  /**
   * The modem row for a module id: linked when the company already has it, registered (with a new
   * password, returned once) when nobody has. A module of another company cannot be taken over.
   */
  async function linkModem(companyId: number, modemKey: string): Promise<{ id: number; secret: string | null }> {
    const find = () =>
      db.selectFrom('modem').select(['id', 'company_id']).where('modem_key', '=', modemKey).executeTakeFirst();
    let existing = await find();
    if (!existing) {
      try {
        const created = await fleet.createModem({ companyId, modemKey });
        return { id: created.id, secret: created.secret };
      } catch (err) {
        existing = await find();
        if (!existing) throw err;
      }
    }
    if (existing.company_id !== companyId) throw new AppError(ResultCode.conflict, 'gensets.modemTaken');
    return { id: existing.id, secret: null };
  }

  /** One controller per module port and address. */
  async function requireFreeSlot(modemId: number, port: string, address: number, exceptSetId?: number) {
    let q = db
      .selectFrom('genset')
      .select('id')
      .where('modem_id', '=', modemId)
      .where('port', '=', port)
      .where('address', '=', address)
      .where('deleted_at', 'is', null);
    if (exceptSetId !== undefined) q = q.where('id', '!=', exceptSetId);
    if (await q.executeTakeFirst()) throw new AppError(ResultCode.conflict, 'gensets.slotTaken');
  }

  async function modemKeyOf(modemId: number | null): Promise<string | null> {
    if (modemId === null) return null;
    const row = await db.selectFrom('modem').select('modem_key').where('id', '=', modemId).executeTakeFirst();
    return row?.modem_key ?? null;
  }

  /** After a set is added, moved or deleted: ingestion forgets its bindings, the modules get new poll plans. */
  function rebind(modemKeys: (string | null)[]) {
    opts.directory.invalidate();
    opts.ingest.invalidate();
    for (const key of new Set(modemKeys)) {
      if (!key) continue;
      opts.planner
        .publishPlan(key)
        .catch((err: unknown) => opts.log.warn({ err, modem: key }, 'plan not sent after a set change'));
    }
  }

  function listScope(caller: Caller, kind: 'mine' | 'company'): ListScope {
    const { ctx, grant } = caller;
    return kind === 'mine'
      ? { kind, user: ctx.user, grant }
      : { kind, user: ctx.user, grant, companyId: caller.companyId };
  }

  return {
    async add(caller: Caller, fields: GensetFields): Promise<GensetAddResponse> {
      requireManagePermission(caller.grant);
      await requireProtocol(fields.protocolKey);
      let modem: { id: number; secret: string | null } | null = null;
      if (fields.modemId) {
        modem = await linkModem(caller.companyId, fields.modemId);
        await requireFreeSlot(modem.id, fields.port, fields.address);
      }
      const created = await fleet.createGenset({
        companyId: caller.companyId,
        ownerUserId: caller.ctx.user.id,
        name: fields.name,
        number: fields.number,
        modemId: modem?.id ?? null,
        port: fields.port,
        address: fields.address,
        protocolKey: fields.protocolKey,
        timeZone: fields.timeZone,
        details: JSON.parse(detailsText(detailsOf(fields))) as Record<string, unknown>,
      });
      const set = (await fleet.byToken(created.token))!;
      await log(caller, set, 'log.gensetAdded', { name: set.name, modem: fields.modemId });
      rebind([fields.modemId]);
      return {
        token: created.token,
        subscriptionCode: created.subscriptionCode,
        controlCode: created.controlCode,
        modemSecret: modem?.secret ?? null,
      };
    },

    async update(caller: Caller, input: { token: string } & Partial<GensetFields>) {
      const { set } = await opts.devices.resolve(caller.ctx, input.token, 'manage');
      if (input.protocolKey !== undefined) await requireProtocol(input.protocolKey);
      const oldModemKey = await modemKeyOf(set.modem_id);
      const port = input.port ?? set.port;
      const address = input.address ?? set.address;
      let modemId = set.modem_id;
      let secret: string | null = null;
      if (input.modemId !== undefined && input.modemId !== oldModemKey) {
        if (input.modemId === null) modemId = null;
        else {
          const modem = await linkModem(set.company_id, input.modemId);
          modemId = modem.id;
          secret = modem.secret;
        }
      }
      if (modemId !== null && (modemId !== set.modem_id || port !== set.port || address !== set.address))
        await requireFreeSlot(modemId, port, address, set.id);
      const name = input.name ?? set.name;
      const number = input.number !== undefined ? input.number : (set.number ?? null);
      const details = detailsOf(input, parseDetails(set.details));
      await db
        .updateTable('genset')
        .set({
          name,
          number,
          search_text: gensetSearchText(name, number),
          modem_id: modemId,
          port,
          address,
          protocol_key: input.protocolKey ?? set.protocol_key,
          time_zone: input.timeZone ?? set.time_zone,
          details: detailsText(details),
        })
        .where('id', '=', set.id)
        .execute();
      const changed = Object.keys(input).filter((k) => k !== 'token');
      await log(caller, set, 'log.gensetUpdated', { name, fields: changed.join(', ') });
      const moved =
        modemId !== set.modem_id ||
        port !== set.port ||
        address !== set.address ||
        (input.protocolKey !== undefined && input.protocolKey !== set.protocol_key) ||
        (input.timeZone !== undefined && input.timeZone !== set.time_zone);
      if (moved) rebind([oldModemKey, await modemKeyOf(modemId)]);
      else opts.directory.invalidate();
      return { modemSecret: secret };
    },

    /** Soft delete of up to 20 sets, all or none: each must be visible (404) and managed by the caller (403). */
    async remove(caller: Caller, tokens: string[]) {
      const sets: GensetRow[] = [];
      for (const token of new Set(tokens)) sets.push((await opts.devices.resolve(caller.ctx, token, 'manage')).set);
      const now = Date.now();
      await db
        .updateTable('genset')
        .set({ deleted_at: now })
        .where(
          'id',
          'in',
          sets.map((s) => s.id),
        )
        .where('deleted_at', 'is', null)
        .execute();
      for (const set of sets) await log(caller, set, 'log.gensetDeleted', { name: set.name });
      rebind(await Promise.all(sets.map((s) => modemKeyOf(s.modem_id))));
      return { deleted: sets.length };
    },

    async info(caller: Caller, token: string): Promise<GensetInfo> {
      const { set, rights } = await opts.devices.resolve(caller.ctx, token, 'view');
      const [latest, modem, owner, company, subscribers, protocol] = await Promise.all([
        db.selectFrom('set_latest').selectAll().where('genset_id', '=', set.id).executeTakeFirst(),
        set.modem_id === null
          ? undefined
          : db.selectFrom('modem').selectAll().where('id', '=', set.modem_id).executeTakeFirst(),
        set.owner_user_id === null
          ? undefined
          : db.selectFrom('users').select('nickname').where('id', '=', set.owner_user_id).executeTakeFirst(),
        db.selectFrom('company').select('name').where('id', '=', set.company_id).executeTakeFirst(),
        db
          .selectFrom('subscription')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('genset_id', '=', set.id)
          .executeTakeFirst(),
        protocols.get(set.protocol_key),
      ]);
      const manage = atLeast(rights, 'manage');
      const operations = manage
        ? await recentOperations(set, { lang: caller.lang, timeZone: caller.timeZone ?? '' })
        : [];
      const department = await departmentOfRow(db, set);
      return {
        token: set.token,
        name: set.name,
        number: set.number ?? null,
        port: set.port,
        address: set.address,
        protocolKey: set.protocol_key,
        timeZone: set.time_zone,
        modemId: modem?.modem_key ?? null,
        ...parseDetails(set.details),
        rights,
        subscriptionCode: manage ? set.subscription_code : null,
        controlCode: manage ? set.control_code : null,
        owner: set.owner_user_id === caller.ctx.user.id,
        ownerName: owner?.nickname ?? null,
        companyName: company?.name ?? '',
        protocolName: protocol?.doc.name[caller.lang] ?? set.protocol_key,
        status: latest?.status ?? 0,
        alarmCount: latest?.alarm_count ?? 0,
        online: modem?.online === 1,
        lastSeen: latest?.device_ts ?? null,
        modem: modem
          ? {
              online: modem.online === 1,
              lastSeenAt: modem.last_seen_at,
              model: modem.model,
              firmware: modem.firmware,
              imei: modem.imei,
              iccid: modem.iccid,
            }
          : null,
        subscribers: Number(subscribers?.n ?? 0),
        controllerFirmware: set.controller_firmware ?? null,
        createdAt: set.created_at,
        operations,
        departmentId: set.department_id,
        departmentName: department?.name ?? null,
        ownDepartment: department?.own ?? false,
      };
    },

    /** The company's departments, in tree order, for the department field of the set and station forms. */
    async departments(caller: Caller): Promise<DepartmentOptionsResponse> {
      if (!hasAnyPermission(caller.grant.permissions, [Permission.gensetManage, Permission.siteManage]))
        throw forbidden();
      return { list: await departmentOptions(db, caller.companyId) };
    },

    /**
     * Moves sets the caller manages to a department of their company (null: back to their owners'). Every
     * instance's set directory, lists and open pages follow at once: what department scopes reach changes.
     */
    async setDepartment(caller: Caller, req: { tokens: string[]; departmentId: number | null }) {
      requireManagePermission(caller.grant);
      const department =
        req.departmentId === null
          ? null
          : await db
              .selectFrom('department')
              .select(['id', 'name', 'company_id'])
              .where('id', '=', req.departmentId)
              .where('company_id', '=', caller.companyId)
              .executeTakeFirst();
      if (req.departmentId !== null && !department) throw fieldError('departmentId', 'validation.invalid');
      const sets: GensetRow[] = [];
      for (const token of new Set(req.tokens)) sets.push((await opts.devices.resolve(caller.ctx, token, 'manage')).set);
      // a department holds sets of its own company only
      if (department && sets.some((s) => s.company_id !== department.company_id))
        throw fieldError('departmentId', 'validation.invalid');
      const moved = sets.filter((s) => s.department_id !== (department?.id ?? null));
      if (moved.length === 0) return { moved: 0 };
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('genset')
          .set({ department_id: department?.id ?? null })
          .where(
            'id',
            'in',
            moved.map((s) => s.id),
          )
          .execute();
        for (const set of moved)
          await writeOperationLog(trx, {
            ctx: caller.ctx,
            companyId: set.company_id,
            ip: caller.ip,
            matter: department ? 'log.gensetDepartment' : 'log.gensetDepartmentCleared',
            feedback: department ? { name: set.name, department: department.name } : { name: set.name },
            target: set.token,
          });
      });
      // what scopes reach is resolved again (the department may be new to a cached tree), and every
      // instance's directory reloads and open pages check again
      opts.directory.invalidate();
      fleet.scope.invalidate(department?.company_id ?? caller.companyId);
      return { moved: moved.length };
    },

    /** "My gensets" (kind mine) or the company's sets within the role's data scope (kind company). */
    async list(
      caller: Caller,
      kind: 'mine' | 'company',
      query: ListQuery & { page: number; size: number },
    ): Promise<GensetListResponse> {
      if (kind === 'company') requireManagePermission(caller.grant);
      const offset = (query.page - 1) * query.size;
      const { counts, total, rows } = await lists.page(listScope(caller, kind), query, offset, query.size);
      return { list: rows, total, page: query.page, size: query.size, counts };
    },

    /** Every row of a filtered list (for export), up to EXPORT_MAX_ROWS. */
    async exportRows(caller: Caller, kind: 'mine' | 'company', query: ListQuery): Promise<GensetListItem[]> {
      if (kind === 'company') requireManagePermission(caller.grant);
      return (await lists.page(listScope(caller, kind), query, 0, EXPORT_MAX_ROWS)).rows;
    },

    /** New subscription and control codes; the old ones stop working, subscribers keep their rights. */
    async resetCodes(caller: Caller, token: string) {
      const { set } = await opts.devices.resolve(caller.ctx, token, 'manage');
      for (let attempt = 0; ; attempt++) {
        const codes = { subscription_code: newCode(10), control_code: newCode(12) };
        try {
          await db.updateTable('genset').set(codes).where('id', '=', set.id).execute();
          await log(caller, set, 'log.gensetCodesReset', { name: set.name });
          return { subscriptionCode: codes.subscription_code, controlCode: codes.control_code };
        } catch (err) {
          // a clash with another set's code (unique index) is astronomically rare: draw again
          if (attempt >= 3) throw err;
        }
      }
    },

    /** Published protocols a set may use, named in the caller's language. */
    async protocolOptions(lang: Language) {
      const keys = await db
        .selectFrom('protocol')
        .select('protocol_key')
        .distinct()
        .where('status', '=', 'published')
        .orderBy('protocol_key')
        .execute();
      const out: { key: string; name: string; layout: string }[] = [];
      for (const { protocol_key } of keys) {
        const p = await protocols.get(protocol_key);
        if (p) out.push({ key: p.key, name: p.doc.name[lang], layout: p.doc.layout });
      }
      return out;
    },
  };
}
export type GensetService = ReturnType<typeof createGensetService>;
