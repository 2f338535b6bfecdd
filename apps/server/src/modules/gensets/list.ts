// The set lists: "my gensets" (owned or subscribed) and the company's sets within the role's data scope,
// filtered by status and by name or number, counted per status for the filter tabs, sorted and paged. The
// choice, counting and ordering run on the set directory in memory; the database is asked for the user's
// subscription fingerprint (from an index) and for the rows of the page only.
import { GENSET_STATUS_FILTERS, type GensetListItem, type GensetSort, type GensetStatusFilter } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from '../account/service.ts';
import { rightsFrom, type Rights } from '../devices/fleet.ts';
import type { DirectoryEntry, SetDirectory } from './directory.ts';
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

const MATCHES: Record<GensetStatusFilter, (e: DirectoryEntry) => boolean> = {
  all: () => true,
  offline: (e) => e.status === 0,
  shutdown: (e) => e.status === 1,
  standby: (e) => e.status === 2,
  running: (e) => e.status === 3,
  alarm: (e) => e.alarmCount > 0,
};

/** The sort keys; ties go by name (ascending), then by id. */
const KEY: Record<GensetSort, (e: DirectoryEntry) => number> = {
  name: (e) => e.nameRank,
  number: (e) => e.numberRank,
  status: (e) => e.status,
  lastSeen: (e) => e.lastSeen ?? 0,
  createdAt: (e) => e.createdAt,
};

/** Rows fetched per query when a whole list is read (export). */
const CHUNK = 500;

/** Users whose subscribed set ids are kept between requests. */
const SUBSCRIPTION_CACHE_USERS = 10_000;

export function createListQueries(db: Db, directory: SetDirectory) {
  /** Per user: the ids of the sets subscribed to, with the fingerprint of the rows they were read from. */
  const subscribed = new Map<number, { fingerprint: string; ids: Int32Array }>();

  /**
   * The ids of the sets a user subscribes to. Each call checks a fingerprint of the user's subscription rows
   * (count, highest row id, sum of set ids: read from the index alone) and reads the rows again only when it
   * changed, so a subscription made or removed on any server instance shows at once.
   */
  async function subscribedIds(userId: number): Promise<Int32Array> {
    const fp = await db
      .selectFrom('subscription')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.max<number>('id').as('last'),
        eb.fn.sum<number>('genset_id').as('sum'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const fingerprint = `${Number(fp.n)}|${fp.last ?? 0}|${fp.sum ?? 0}`;
    const hit = subscribed.get(userId);
    if (hit && hit.fingerprint === fingerprint) {
      // most recently used last
      subscribed.delete(userId);
      subscribed.set(userId, hit);
      return hit.ids;
    }
    const rows = await db.selectFrom('subscription').select('genset_id').where('user_id', '=', userId).execute();
    const ids = Int32Array.from(rows, (r) => r.genset_id);
    subscribed.delete(userId);
    if (subscribed.size >= SUBSCRIPTION_CACHE_USERS) subscribed.delete(subscribed.keys().next().value!);
    subscribed.set(userId, { fingerprint, ids });
    return ids;
  }

  /** The sets of the scope that match the search. */
  async function candidates(scope: ListScope, search: string | undefined) {
    const dir = await directory.current();
    const user = scope.user;
    let list: DirectoryEntry[];
    if (scope.kind === 'mine') {
      const owned = dir.byOwner.get(user.id) ?? [];
      list = [...owned];
      const seen = new Set<number>(owned.map((e) => e.id));
      for (const id of await subscribedIds(user.id)) {
        const e = dir.byId.get(id);
        if (e && !seen.has(id)) list.push(e);
      }
    } else {
      const all = dir.byCompany.get(scope.companyId) ?? [];
      const dataScope = scope.grant.dataScope;
      list =
        dataScope === 'department'
          ? all.filter(
              (e) =>
                e.ownerUserId === user.id ||
                (user.department_id !== null && e.ownerDepartmentId === user.department_id),
            )
          : dataScope === 'self'
            ? all.filter((e) => e.ownerUserId === user.id)
            : all;
    }
    if (search) {
      const needle = search.toLowerCase();
      list = list.filter((e) => e.search.includes(needle));
    }
    return list;
  }

  function countAll(list: DirectoryEntry[]): Record<GensetStatusFilter, number> {
    const out = Object.fromEntries(GENSET_STATUS_FILTERS.map((f) => [f, 0])) as Record<GensetStatusFilter, number>;
    out.all = list.length;
    for (const e of list) {
      if (e.status === 0) out.offline++;
      else if (e.status === 1) out.shutdown++;
      else if (e.status === 2) out.standby++;
      else if (e.status === 3) out.running++;
      if (e.alarmCount > 0) out.alarm++;
    }
    return out;
  }

  /** The list rows of the given sets, in that order, from their stored rows and directory state. */
  async function rowsOf(scope: ListScope, entries: DirectoryEntry[]): Promise<GensetListItem[]> {
    const user = scope.user;
    const byId = new Map<number, GensetListItem>();
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = new Map(entries.slice(i, i + CHUNK).map((e) => [e.id, e]));
      const ids = [...chunk.keys()];
      if (!ids.length) continue;
      const rows = await db
        .selectFrom('genset as g')
        .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
        .leftJoin('modem as m', 'm.id', 'g.modem_id')
        .leftJoin('users as o', 'o.id', 'g.owner_user_id')
        .leftJoin('subscription as s', (j) => j.onRef('s.genset_id', '=', 'g.id').on('s.user_id', '=', user.id))
        .select([
          's.rights as sub_rights',
          'g.id',
          'g.token',
          'g.name',
          'g.number',
          'g.company_id',
          'g.owner_user_id',
          'g.details',
          'g.created_at',
          'l.values',
          'm.modem_key',
          'm.online',
          'o.nickname as owner_name',
          'o.department_id as owner_department_id',
        ])
        .where('g.id', 'in', ids)
        .execute();
      for (const r of rows) {
        const entry = chunk.get(r.id)!;
        const details = parseDetails(r.details);
        const values = r.values ? (JSON.parse(r.values) as Record<string, number | null>) : {};
        const rights =
          rightsFrom(user, scope.grant, {
            companyId: r.company_id,
            ownerUserId: r.owner_user_id,
            ownerDepartmentId: r.owner_department_id ?? null,
            subscription: (r.sub_rights as Rights | null) ?? null,
          }) ?? 'view';
        byId.set(r.id, {
          token: r.token,
          name: r.name,
          number: r.number ?? null,
          status: entry.status,
          alarmCount: entry.alarmCount,
          online: r.online === 1,
          lastSeen: entry.lastSeen,
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
        });
      }
    }
    // a set deleted between the directory and this read is left out
    return entries.map((e) => byId.get(e.id)).filter((r): r is GensetListItem => r !== undefined);
  }

  /** Counts per status filter, and the rows of one page (or of everything up to `limit`, for export). */
  async function page(scope: ListScope, query: ListQuery, offset: number, limit: number) {
    const list = await candidates(scope, query.search);
    const counts = countAll(list);
    const key = KEY[query.sort];
    const sign = query.order === 'desc' ? -1 : 1;
    const chosen = list
      .filter(MATCHES[query.status])
      .sort((a, b) => sign * (key(a) - key(b)) || a.nameRank - b.nameRank);
    const rows = offset < chosen.length ? await rowsOf(scope, chosen.slice(offset, offset + limit)) : [];
    return { counts, total: chosen.length, rows };
  }

  return { page };
}
export type ListQueries = ReturnType<typeof createListQueries>;
