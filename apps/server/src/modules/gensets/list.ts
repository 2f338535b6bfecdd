// The set lists in SQL: "my gensets" (owned or subscribed) and the company's sets within the role's data
// scope, filtered by status and by name or number, counted per status for the filter tabs, sorted and paged.
// Two queries per page (counts, rows); both stay on indexes at 10,000 sets × 100 subscribers.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { GENSET_STATUS_FILTERS, type GensetListItem, type GensetSort, type GensetStatusFilter } from '@genset/protocol';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from '../account/service.ts';
import { rightsFrom, type Rights } from '../devices/fleet.ts';
import { parseDetails } from './fields.ts';

/** Whose sets a list shows. */
export type ListScope =
  { kind: 'mine'; user: UserRow; grant: Grant } | { kind: 'company'; user: UserRow; grant: Grant; companyId: number };

export interface ListQuery {
  status: GensetStatusFilter;
  search?: string | undefined;
  sort: GensetSort;
  order: 'asc' | 'desc';
}

type From = Database & { g: Database['genset']; l: Database['set_latest'] };
type Base = SelectQueryBuilder<From, 'g' | 'l', object>;

/** Escapes LIKE wildcards so a search for "50%" looks for those characters. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function statusCondition(eb: ExpressionBuilder<From, 'g' | 'l'>, status: GensetStatusFilter) {
  switch (status) {
    case 'offline':
      return eb.or([eb('l.status', 'is', null), eb('l.status', '=', 0)]);
    case 'shutdown':
      return eb('l.status', '=', 1);
    case 'standby':
      return eb('l.status', '=', 2);
    case 'running':
      return eb('l.status', '=', 3);
    case 'alarm':
      return eb('l.alarm_count', '>', 0);
    default:
      return eb.val(true);
  }
}

export function createListQueries(db: Db) {
  function base(scope: ListScope, search: string | undefined): Base {
    let q = db
      .selectFrom('genset as g')
      .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
      .where('g.deleted_at', 'is', null) as unknown as Base;
    const user = scope.user;
    if (scope.kind === 'mine') {
      q = q.where((eb) =>
        eb.or([
          eb('g.owner_user_id', '=', user.id),
          eb(
            'g.id',
            'in',
            eb.selectFrom('subscription').select('subscription.genset_id').where('subscription.user_id', '=', user.id),
          ),
        ]),
      );
    } else {
      q = q.where('g.company_id', '=', scope.companyId);
      const dataScope = scope.grant.dataScope;
      if (dataScope === 'department') {
        const dept = user.department_id;
        q = q.where((eb) =>
          eb.or([
            eb('g.owner_user_id', '=', user.id),
            eb(
              'g.owner_user_id',
              'in',
              eb
                .selectFrom('users')
                .select('users.id')
                .where('users.department_id', '=', dept ?? -1),
            ),
          ]),
        );
      } else if (dataScope === 'self') {
        q = q.where('g.owner_user_id', '=', user.id);
      }
    }
    if (search) q = q.where(sql<boolean>`g.search_text like ${likePattern(search)} escape '\\'`);
    return q;
  }

  /** How many sets each status filter holds under the same scope and search. */
  async function counts(scope: ListScope, search: string | undefined): Promise<Record<GensetStatusFilter, number>> {
    const sum = (cond: ReturnType<typeof sql<number>>) =>
      sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
    const row = await base(scope, search)
      .select((eb) => [
        eb.fn.countAll<number>().as('all'),
        sum(sql`l.status is null or l.status = 0`).as('offline'),
        sum(sql`l.status = 1`).as('shutdown'),
        sum(sql`l.status = 2`).as('standby'),
        sum(sql`l.status = 3`).as('running'),
        sum(sql`l.alarm_count > 0`).as('alarm'),
      ])
      .executeTakeFirstOrThrow();
    const out = {} as Record<GensetStatusFilter, number>;
    for (const f of GENSET_STATUS_FILTERS) out[f] = Number((row as Record<string, unknown>)[f] ?? 0);
    return out;
  }

  /** The rows of one page (or all rows up to `limit`, for export) with everything a list row shows. */
  async function rows(scope: ListScope, query: ListQuery, offset: number, limit: number): Promise<GensetListItem[]> {
    const user = scope.user;
    const dir = query.order;
    let q = base(scope, query.search)
      .where((eb) => statusCondition(eb, query.status))
      .leftJoin('modem as m', 'm.id', 'g.modem_id')
      .leftJoin('users as o', 'o.id', 'g.owner_user_id')
      .leftJoin('subscription as s', (j) => j.onRef('s.genset_id', '=', 'g.id').on('s.user_id', '=', user.id))
      .select([
        'g.id',
        'g.token',
        'g.name',
        'g.number',
        'g.company_id',
        'g.owner_user_id',
        'g.details',
        'g.created_at',
        'l.status',
        'l.alarm_count',
        'l.values',
        'l.device_ts',
        'm.modem_key',
        'm.online',
        'o.nickname as owner_name',
        'o.department_id as owner_department_id',
        's.rights as sub_rights',
      ]);
    switch (query.sort) {
      case 'number':
        q = q.orderBy(sql`coalesce(g.number, '')`, dir);
        break;
      case 'status':
        q = q.orderBy(sql`coalesce(l.status, 0)`, dir).orderBy('g.name', 'asc');
        break;
      case 'lastSeen':
        q = q.orderBy(sql`coalesce(l.device_ts, 0)`, dir);
        break;
      case 'createdAt':
        q = q.orderBy('g.created_at', dir);
        break;
      default:
        q = q.orderBy('g.name', dir);
    }
    const list = await q.orderBy('g.id', dir).limit(limit).offset(offset).execute();
    return list.map((r) => {
      const details = parseDetails(r.details);
      const values = r.values ? (JSON.parse(r.values) as Record<string, number | null>) : {};
      const rights =
        rightsFrom(user, scope.grant, {
          companyId: r.company_id,
          ownerUserId: r.owner_user_id,
          ownerDepartmentId: r.owner_department_id ?? null,
          subscription: (r.sub_rights as Rights | null) ?? null,
        }) ?? 'view';
      return {
        token: r.token,
        name: r.name,
        number: r.number ?? null,
        status: r.status ?? 0,
        alarmCount: r.alarm_count ?? 0,
        online: r.online === 1,
        lastSeen: r.device_ts ?? null,
        rights,
        owned: r.owner_user_id === user.id,
        modemId: r.modem_key ?? null,
        controllerModel: details.controllerModel,
        ratedPowerKw: details.ratedPowerKw,
        latitude: details.latitude,
        longitude: details.longitude,
        ownerName: r.owner_name ?? null,
        values: {
          kw: values.gen_kw ?? null,
          fuelLevel: values.fuel_level ?? null,
          batteryVoltage: values.battery_voltage ?? null,
          runHours: values.run_hours ?? null,
        },
        createdAt: r.created_at,
      };
    });
  }

  return { counts, rows };
}
export type ListQueries = ReturnType<typeof createListQueries>;
