// The platform administrator's company administration: list, add, edit and delete companies with their
// white-label host names, logo, contact, map key, currency and time zone; and the companies a person belongs to.
import {
  ALL_PERMISSIONS,
  ResultCode,
  type CompanyAddRequest,
  type CompanyItem,
  type CompanyListRequest,
  type CompanyUpdateRequest,
  type UserCompanyItem,
} from '@genset/protocol';
import { sql } from 'kysely';
import { contains } from '../../db/like.ts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { ensureCompanyRoles } from '../../seed/base.ts';
import { removeMembership } from '../users/memberships.ts';
import { PLATFORM_COMPANY_ID } from './service.ts';

export interface CompanyAdminEvents {
  /** A person lost their last company with the deleted one: their account is disabled and signed out. */
  onUserDisabled(userId: number): Promise<void>;
  /** People's companies changed. */
  onMembershipsChanged(userIds: number[]): void;
}

function requirePlatform(ctx: SessionContext) {
  if (!ctx.grant.permissions.includes(ALL_PERMISSIONS)) throw forbidden();
}

/** Canonical IANA name of a zone the schema already accepted (e.g. "asia/shanghai" → "Asia/Shanghai"). */
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

export function createCompanyAdmin(deps: { db: Db; events: CompanyAdminEvents }) {
  const { db, events } = deps;

  async function hostsOf(ids: number[]) {
    const out = new Map<number, string[]>();
    if (ids.length === 0) return out;
    const rows = await db
      .selectFrom('company_host')
      .select(['company_id', 'host'])
      .where('company_id', 'in', ids)
      .orderBy('host')
      .execute();
    for (const r of rows) out.set(r.company_id, [...(out.get(r.company_id) ?? []), r.host]);
    return out;
  }

  /** Refuses a host name another company has; the message names it. */
  async function checkHosts(hosts: string[], companyId: number | null) {
    if (hosts.length === 0) return;
    let q = db.selectFrom('company_host').select('host').where('host', 'in', hosts);
    if (companyId !== null) q = q.where('company_id', '!=', companyId);
    const taken = await q.executeTakeFirst();
    if (taken) throw new AppError(ResultCode.conflict, 'company.hostTaken', { host: taken.host });
  }

  async function saveHosts(companyId: number, hosts: string[]) {
    await db.deleteFrom('company_host').where('company_id', '=', companyId).execute();
    if (hosts.length) {
      await db
        .insertInto('company_host')
        .values(hosts.map((host) => ({ host, company_id: companyId })))
        .execute();
    }
  }

  function columns(input: CompanyAddRequest) {
    return {
      name: input.name,
      title: input.title || input.name,
      logo: input.logo ?? null,
      baidu_key: input.mapKey ?? '',
      contact_person: input.contactPerson ?? '',
      contact_phone: input.contactPhone ?? '',
      contact_email: input.contactEmail ?? '',
      currency: input.currency,
      time_zone: canonicalZone(input.timeZone),
    };
  }

  async function live(id: number) {
    const c = await db
      .selectFrom('company')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!c) throw notFound();
    return c;
  }

  return {
    async list(ctx: SessionContext, q: CompanyListRequest) {
      requirePlatform(ctx);
      const page = q.page ?? 1;
      const size = q.size ?? 20;
      let base = db.selectFrom('company as c').where('c.deleted_at', 'is', null);
      const search = q.search?.trim();
      if (search) {
        base = base.where((eb) =>
          eb.or([
            contains(sql.ref('c.name'), search),
            contains(sql.ref('c.title'), search),
            eb.exists(
              eb
                .selectFrom('company_host as h')
                .select('h.host')
                .whereRef('h.company_id', '=', 'c.id')
                .where(contains(sql.ref('h.host'), search)),
            ),
          ]),
        );
      }
      const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .selectAll('c')
        .select((eb) => [
          eb
            .selectFrom('genset as g')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('g.company_id', '=', 'c.id')
            .where('g.deleted_at', 'is', null)
            .as('sets'),
          eb
            .selectFrom('user_company as m')
            .innerJoin('users as u', 'u.id', 'm.user_id')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('m.company_id', '=', 'c.id')
            .where('u.status', '!=', 'deleted')
            .as('users'),
        ])
        .orderBy('c.id')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const hosts = await hostsOf(rows.map((r) => r.id));
      const list: CompanyItem[] = rows.map((c) => ({
        id: c.id,
        name: c.name,
        title: c.title,
        logo: c.logo,
        contactPerson: c.contact_person,
        contactPhone: c.contact_phone,
        contactEmail: c.contact_email,
        hosts: hosts.get(c.id) ?? [],
        mapKey: c.baidu_key,
        currency: c.currency,
        timeZone: c.time_zone,
        sets: Number(c.sets ?? 0),
        users: Number(c.users ?? 0),
        createdAt: Number(c.created_at),
      }));
      return { list, total: Number(total.n) };
    },

    async add(ctx: SessionContext, ip: string, input: CompanyAddRequest) {
      requirePlatform(ctx);
      const hosts = [...new Set(input.hosts ?? [])];
      await checkHosts(hosts, null);
      const row = await db
        .insertInto('company')
        .values({ ...columns(input), index_template: 'default', created_at: Date.now(), deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await saveHosts(row.id, hosts);
      await ensureCompanyRoles(db, row.id);
      await writeOperationLog(db, {
        ctx,
        companyId: row.id,
        ip,
        matter: 'log.companyAdded',
        feedback: { name: input.name },
        target: `company:${row.id}`,
      });
      return { id: row.id };
    },

    async update(ctx: SessionContext, ip: string, input: CompanyUpdateRequest) {
      requirePlatform(ctx);
      await live(input.id);
      const hosts = [...new Set(input.hosts ?? [])];
      await checkHosts(hosts, input.id);
      await db.updateTable('company').set(columns(input)).where('id', '=', input.id).execute();
      await saveHosts(input.id, hosts);
      await writeOperationLog(db, {
        ctx,
        companyId: input.id,
        ip,
        matter: 'log.companyUpdated',
        feedback: { name: input.name },
        target: `company:${input.id}`,
      });
    },

    async remove(ctx: SessionContext, ip: string, id: number) {
      requirePlatform(ctx);
      const c = await live(id);
      if (id === PLATFORM_COMPANY_ID) throw new AppError(ResultCode.conflict, 'company.platformKept');
      const sets = await db
        .selectFrom('genset')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(sets.n) > 0) throw new AppError(ResultCode.conflict, 'company.hasSets', { count: Number(sets.n) });
      const now = Date.now();
      await db.updateTable('company').set({ deleted_at: now }).where('id', '=', id).execute();
      await db.deleteFrom('company_host').where('company_id', '=', id).execute();
      const members = await db.selectFrom('user_company').select('user_id').where('company_id', '=', id).execute();
      const ids = members.map((m) => m.user_id);
      for (const userId of ids) {
        if (!(await removeMembership(db, userId, id))) await events.onUserDisabled(userId);
      }
      events.onMembershipsChanged(ids);
      await writeOperationLog(db, {
        ctx,
        companyId: id,
        ip,
        matter: 'log.companyDeleted',
        feedback: { name: c.name },
        target: `company:${id}`,
      });
    },

    async identifie(ctx: SessionContext, id: number) {
      const c = await live(id);
      // a company other than the caller's own is "not found" for anyone but the platform administrator
      if (ctx.user.company_id !== id && !ctx.grant.permissions.includes(ALL_PERMISSIONS)) throw notFound();
      return { id: c.id, name: c.name, hosts: (await hostsOf([id])).get(id) ?? [] };
    },

    /** The companies the person belongs to, for the switcher (the session's own user, not the switched one). */
    async userCompanies(userId: number, currentCompanyId: number, lang: Parameters<typeof translate>[0]) {
      const home = await db.selectFrom('users').select('company_id').where('id', '=', userId).executeTakeFirst();
      const rows = await db
        .selectFrom('user_company as m')
        .innerJoin('company as c', 'c.id', 'm.company_id')
        .leftJoin('role as r', 'r.id', 'm.role_id')
        .select(['c.id', 'c.name', 'c.title', 'c.logo', 'r.name as roleName'])
        .where('m.user_id', '=', userId)
        .where('c.deleted_at', 'is', null)
        .orderBy('c.name')
        .execute();
      return rows.map((r): UserCompanyItem => ({
        id: r.id,
        name: r.name,
        title: r.title,
        logo: r.logo,
        roleName: r.roleName?.startsWith('roles.') ? translate(lang, r.roleName) : (r.roleName ?? null),
        home: r.id === home?.company_id,
        current: r.id === currentCompanyId,
      }));
    },
  };
}
export type CompanyAdmin = ReturnType<typeof createCompanyAdmin>;
