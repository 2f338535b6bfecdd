// The set lists: "my gensets" (owned or subscribed) and the company's sets within the role's data scope,
// filtered by status and by name or number, counted per status for the filter tabs, sorted and paged. Everything
// runs on the set directory in memory; the database is asked only for a user's subscriptions, and only when
// their version (read with the session) has moved since they were last read.
import {
  ALL_PERMISSIONS,
  GENSET_STATUS_FILTERS,
  Permission,
  setStateOf,
  type GensetListItem,
  type GensetSort,
  type GensetStatusFilter,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from '../account/service.ts';
import { covers, type DataScopeService, type Reach, type RoleReach } from '../account/scope.ts';
import { rightsFrom, type Rights } from '../devices/fleet.ts';
import { keepRecent } from '../../lib/memo.ts';
import type { DirectoryEntry, SetDirectory, Snapshot } from './directory.ts';

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
  offline: (e) => setStateOf(e.status) === 'offline',
  shutdown: (e) => setStateOf(e.status) === 'shutdown',
  standby: (e) => setStateOf(e.status) === 'standby',
  running: (e) => setStateOf(e.status) === 'running',
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

/** Users whose subscriptions, and whose sets per scope, are kept between requests. */
const CACHED_USERS = 10_000;

interface Subscriptions {
  /** The user's subscriptions version they were read at. */
  version: number;
  rights: Map<number, Rights>;
}

interface Candidates {
  /** The directory they were taken from: a reload makes them stale. */
  snapshot: Snapshot;
  /** What else they depend on: the subscriptions (mine), or the company and what the role reaches. */
  basis: unknown;
  /** My gensets: the role's reach they were taken with (a department or chosen scope adds its sets). */
  role?: RoleReach;
  /** In the natural order of names. */
  byName: DirectoryEntry[];
  /** The last searches in them (a user pages through the results, and the console refreshes them). */
  searches: Map<string, DirectoryEntry[]>;
  /** The last filtered and sorted views of them, with their counts (see View). */
  views: Map<string, View>;
}

/**
 * One search, status filter and order of a user's sets, counted per status: kept while no set of the directory has
 * changed its status or alarms (`states`), so that paging through 100,000 sets does not count and filter them all
 * again for every page. The order by last data changes with every reading: that one is always made afresh.
 */
interface View {
  states: number;
  counts: Record<GensetStatusFilter, number>;
  chosen: DirectoryEntry[];
}

/** Searches, and views, kept per user and scope. */
const SEARCHES_KEPT = 4;
const VIEWS_KEPT = 8;

const byNameRank = (a: DirectoryEntry, b: DirectoryEntry) => a.nameRank - b.nameRank;

export function createListQueries(db: Db, directory: SetDirectory, scopes: DataScopeService) {
  /**
   * Per user: the sets subscribed to, with the rights. Read again when the user's subscriptions version moves
   * (triggers move it with every subscription made, removed, moved or given other rights, on any server
   * instance, and it is read with the session), so a change shows at once.
   */
  const subscriptions = new Map<number, Subscriptions>();
  /** Per user and scope: the sets they see, sorted by name. */
  const candidates = new Map<string, Candidates>();

  async function subscriptionsOf(user: UserRow): Promise<Subscriptions> {
    const hit = subscriptions.get(user.id);
    if (hit && hit.version === user.subscriptions_version) {
      keepRecent(subscriptions, user.id, hit, CACHED_USERS);
      return hit;
    }
    const rows = await db
      .selectFrom('subscription')
      .select(['genset_id', 'rights'])
      .where('user_id', '=', user.id)
      .execute();
    const fresh: Subscriptions = {
      version: user.subscriptions_version,
      rights: new Map(rows.map((r) => [r.genset_id, r.rights as Rights])),
    };
    keepRecent(subscriptions, user.id, fresh, CACHED_USERS);
    return fresh;
  }

  /**
   * The sets of the scope, in the natural order of names: mine (owned or subscribed), or those of the company
   * the role reaches and the user's own there. Each set is decided in O(1) against the reach's precomputed ids.
   */
  function inScope(scope: ListScope, reach: Reach, dir: Snapshot, subs: Subscriptions): Candidates {
    const user = scope.user;
    const key = `${scope.kind}:${user.id}`;
    // the role's reach is kept (the same object) until what it depends on changes
    const basis = scope.kind === 'mine' ? subs : reach.role;
    const hit = candidates.get(key);
    if (hit && hit.snapshot === dir && hit.basis === basis && (scope.kind !== 'mine' || hit.role === reach.role)) {
      keepRecent(candidates, key, hit, CACHED_USERS);
      return hit;
    }
    let list: DirectoryEntry[];
    if (scope.kind === 'mine') {
      const owned = dir.byOwner.get(user.id) ?? [];
      list = [...owned];
      const seen = new Set<number>(owned.map((e) => e.id));
      for (const id of subs.rights.keys()) {
        const e = dir.byId.get(id);
        if (e && !seen.has(id)) {
          seen.add(id);
          list.push(e);
        }
      }
      // A role that hands a person sets by department or by name makes them theirs to watch; a company-wide
      // role's whole fleet is genset management's.
      const role = reach.role;
      if (!role.everything && (role.mode === 'departments' || role.mode === 'chosen'))
        for (const e of dir.byCompany.get(role.companyId) ?? [])
          if (!seen.has(e.id) && covers(role, 'set', e)) {
            seen.add(e.id);
            list.push(e);
          }
      list.sort(byNameRank);
    } else {
      const role = reach.role;
      if (role.everything && scope.companyId === user.company_id) {
        // The platform administrator at home (no other company chosen) manages every company's sets, the same
        // sets their home page and monitors count; having chosen a company, that company's.
        list = [...dir.byId.values()].sort(byNameRank);
      } else {
        // the company's list is kept in name order by the directory
        const all = dir.byCompany.get(scope.companyId) ?? [];
        list =
          role.everything || (role.mode === 'company' && role.companyId === scope.companyId)
            ? all
            : all.filter((e) => e.ownerUserId === user.id || covers(role, 'set', e));
      }
    }
    const fresh: Candidates = {
      snapshot: dir,
      basis,
      ...(scope.kind === 'mine' ? { role: reach.role } : {}),
      byName: list,
      searches: new Map(),
      views: new Map(),
    };
    keepRecent(candidates, key, fresh, CACHED_USERS);
    return fresh;
  }

  function countAll(list: DirectoryEntry[]): Record<GensetStatusFilter, number> {
    const out = Object.fromEntries(GENSET_STATUS_FILTERS.map((f) => [f, 0])) as Record<GensetStatusFilter, number>;
    out.all = list.length;
    for (const e of list) {
      // each set in one state of the partition; the alarm overlay counted apart
      out[setStateOf(e.status)]++;
      if (e.alarmCount > 0) out.alarm++;
    }
    return out;
  }

  /** A set as a list row, with the caller's rights on it. */
  function rowOf(scope: ListScope, reach: Reach, subs: Subscriptions, e: DirectoryEntry): GensetListItem {
    const user = scope.user;
    const rights =
      rightsFrom(reach, {
        id: e.id,
        companyId: e.companyId,
        ownerUserId: e.ownerUserId,
        departmentId: e.departmentId,
        subscription: subs.rights.get(e.id) ?? null,
      }) ?? 'view';
    return {
      token: e.token,
      name: e.name,
      number: e.number,
      status: e.status,
      alarmCount: e.alarmCount,
      online: e.online,
      lastSeen: e.lastSeen,
      rights,
      owned: e.ownerUserId === user.id,
      subscribed: subs.rights.has(e.id),
      modemId: e.modemKey,
      controllerModel: e.controllerModel,
      ratedPowerKw: e.ratedPowerKw,
      latitude: e.latitude,
      longitude: e.longitude,
      ownerName: e.ownerName,
      values: e.values,
      createdAt: e.createdAt,
    };
  }

  /** The sets a query picks out of the candidates, in its order, and their counts per status. */
  function choose(sets: Candidates, query: ListQuery, needle: string) {
    let list = sets.byName;
    if (needle) {
      // names and numbers change only with a reload, which makes new candidates: a search stays true
      const found = sets.searches.get(needle) ?? list.filter((e) => e.search.includes(needle));
      keepRecent(sets.searches, needle, found, SEARCHES_KEPT);
      list = found;
    }
    const counts = countAll(list);
    const sign = query.order === 'desc' ? -1 : 1;
    let chosen = query.status === 'all' ? list : list.filter(MATCHES[query.status]);
    if (query.sort === 'name') {
      // already in name order
      if (sign < 0) chosen = chosen.toReversed();
    } else {
      const key = KEY[query.sort];
      // a stable sort of a list in name order: ties stay by name
      chosen = chosen.toSorted((a, b) => sign * (key(a) - key(b)));
    }
    return { counts, chosen };
  }

  /** Counts per status filter, and the rows of one page (or of everything up to `limit`, for export). */
  async function page(scope: ListScope, query: ListQuery, offset: number, limit: number) {
    const dir = await directory.current();
    const subs = await subscriptionsOf(scope.user);
    const reach = await scopes.reach(scope.user, scope.grant);
    const sets = inScope(scope, reach, dir, subs);
    const needle = query.search?.toLowerCase() ?? '';
    const viewKey = `${query.status} ${query.sort} ${query.order} ${needle}`;
    const states = directory.states();
    let view = sets.views.get(viewKey);
    if (!view || view.states !== states || query.sort === 'lastSeen') {
      view = { states, ...choose(sets, query, needle) };
      keepRecent(sets.views, viewKey, view, VIEWS_KEPT);
    }
    const { counts, chosen } = view;
    const rows = chosen.slice(offset, offset + limit).map((e) => rowOf(scope, reach, subs, e));
    return { counts, total: chosen.length, rows };
  }

  /**
   * Every set the user sees, in name order (what history/visibility.ts asks the database for, here on the
   * directory): every set with '*:*'; else those they own or follow and, when the role may view sets, those its
   * data scope reaches. The home page counts these.
   */
  async function visible(user: UserRow, grant: Grant): Promise<DirectoryEntry[]> {
    const dir = await directory.current();
    const subs = await subscriptionsOf(user);
    const reach = await scopes.reach(user, grant);
    const key = `visible:${user.id}`;
    const hit = candidates.get(key);
    if (hit && hit.snapshot === dir && hit.basis === subs && hit.role === reach.role) {
      keepRecent(candidates, key, hit, CACHED_USERS);
      return hit.byName;
    }
    let list: DirectoryEntry[];
    if (grant.permissions.includes(ALL_PERMISSIONS)) list = [...dir.byId.values()];
    else {
      const role = grant.permissions.includes(Permission.gensetView) ? reach.role : null;
      const seen = new Set<number>();
      list = [];
      const add = (e: DirectoryEntry) => {
        if (seen.has(e.id)) return;
        seen.add(e.id);
        list.push(e);
      };
      for (const e of dir.byOwner.get(user.id) ?? []) add(e);
      for (const id of subs.rights.keys()) {
        const e = dir.byId.get(id);
        if (e) add(e);
      }
      if (role?.everything) for (const e of dir.byId.values()) add(e);
      else if (role) for (const e of dir.byCompany.get(role.companyId) ?? []) if (covers(role, 'set', e)) add(e);
    }
    list.sort(byNameRank);
    keepRecent(
      candidates,
      key,
      { snapshot: dir, basis: subs, role: reach.role, byName: list, searches: new Map(), views: new Map() },
      CACHED_USERS,
    );
    return list;
  }

  return { page, visible };
}
export type ListQueries = ReturnType<typeof createListQueries>;
