// Which sets and stations a role's data scope reaches, decided here for every call that shows or changes one
// (rights on a set, the set lists, history, the home page, exports, notices, the realtime channel, stations):
// - `all` with '*:*': every company's (the platform administrator); `all` without it reaches no further than
//   `company`;
// - `company`: every set and station of the user's company;
// - `departmentTree`: those of the user's department and of every department below it (department.parent_id);
// - `department`: those of the user's own department;
// - `self`: none beyond the user's own;
// - `custom`: those chosen on the role (table role_target).
// A set or station belongs to its own department, else to its owner's. What a user owns or subscribed to is
// theirs whatever the scope: callers add that to what the role reaches.
//
// A role's reach is resolved once (the company's department tree, the role's chosen targets) and kept, so a
// list decides each set in O(1) against precomputed sets of ids. It is kept until the company's departments,
// people or roles change — whoever changes them calls `invalidate(companyId)`, which tells every instance over
// the bus — and at most `ttlMs` (a minute) in any case.
import { randomUUID } from 'node:crypto';
import { ALL_PERMISSIONS } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from './service.ts';

export type TargetKind = 'set' | 'site';

/** What decides whether a role reaches a set or a station. */
export interface ScopeTarget {
  id: number;
  companyId: number;
  /** The department it belongs to: its own, else its owner's (null: none). */
  departmentId: number | null;
}

/** What a role's data scope reaches, resolved for one user's company and department. */
export interface RoleReach {
  /** '*:*': every set and station of every company. */
  readonly everything: boolean;
  readonly companyId: number;
  /** How the company's sets and stations are chosen: none, all, by department, or those listed on the role. */
  readonly mode: 'none' | 'company' | 'departments' | 'chosen';
  /** `departments`: the departments reached. */
  readonly departments: ReadonlySet<number>;
  /** `chosen`: the sets and stations (ids) listed on the role. */
  readonly sets: ReadonlySet<number>;
  readonly sites: ReadonlySet<number>;
}

/** A user, their role's grant and what it reaches. */
export interface Reach {
  user: UserRow;
  grant: Grant;
  role: RoleReach;
}

/** Whether the role reaches the set or station (ownership and subscriptions aside). */
export function covers(role: RoleReach, kind: TargetKind, t: ScopeTarget): boolean {
  if (role.everything) return true;
  if (t.companyId !== role.companyId) return false;
  switch (role.mode) {
    case 'company':
      return true;
    case 'departments':
      return t.departmentId !== null && role.departments.has(t.departmentId);
    case 'chosen':
      return (kind === 'set' ? role.sets : role.sites).has(t.id);
    default:
      return false;
  }
}

/** Whether the role chooses by department: only then is a set's department (its owner's) worth reading. */
export const byDepartment = (role: RoleReach) => !role.everything && role.mode === 'departments';

const NONE: ReadonlySet<number> = new Set();

function modeOf(dataScope: string): RoleReach['mode'] {
  switch (dataScope) {
    case 'all':
    case 'company':
      return 'company';
    case 'departmentTree':
    case 'department':
      return 'departments';
    case 'custom':
      return 'chosen';
    default:
      return 'none';
  }
}

interface Tree {
  at: number;
  generation: number;
  children: Map<number, number[]>;
}

interface Targets {
  at: number;
  generation: number;
  companyId: number;
  sets: Set<number>;
  sites: Set<number>;
}

/** Reaches kept at most (one per company, scope, department and custom role in use). */
const KEPT = 10_000;

export interface DataScopeOptions {
  db: Db;
  /** How long a resolved tree or role's targets is trusted without being told of a change. */
  ttlMs?: number;
  now?: () => number;
}

export function createDataScope(opts: DataScopeOptions) {
  const { db } = opts;
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  /** Department trees by company. */
  const trees = new Map<number, Tree>();
  /** The chosen sets and stations by role. */
  const targets = new Map<number, Targets>();
  /** Resolved reaches by company, scope, department and role. */
  const reaches = new Map<string, { at: number; generation: number; role: RoleReach }>();
  /** Bumped by every change heard of: what was read before it is not kept. */
  let generation = 0;
  let bus: RealtimeBus | null = null;
  const origin = randomUUID();
  let unsubscribe: (() => void) | null = null;

  const fresh = (entry: { at: number; generation: number } | undefined) =>
    entry !== undefined && entry.generation === generation && now() - entry.at < ttlMs;

  async function treeOf(companyId: number): Promise<Tree> {
    const hit = trees.get(companyId);
    if (fresh(hit)) return hit!;
    const started = generation;
    const rows = await db
      .selectFrom('department')
      .select(['id', 'parent_id'])
      .where('company_id', '=', companyId)
      .execute();
    const children = new Map<number, number[]>();
    for (const r of rows) {
      if (r.parent_id === null) continue;
      const list = children.get(r.parent_id);
      if (list) list.push(r.id);
      else children.set(r.parent_id, [r.id]);
    }
    const tree: Tree = { at: now(), generation: started, children };
    if (started === generation) trees.set(companyId, tree);
    return tree;
  }

  /** The department and every department below it (a cycle in the parents ends the walk). */
  function below(tree: Tree, departmentId: number): Set<number> {
    const out = new Set<number>([departmentId]);
    const queue = [departmentId];
    while (queue.length) {
      for (const child of tree.children.get(queue.pop()!) ?? []) {
        if (out.has(child)) continue;
        out.add(child);
        queue.push(child);
      }
    }
    return out;
  }

  async function targetsOf(roleId: number, companyId: number): Promise<Targets> {
    const hit = targets.get(roleId);
    if (fresh(hit)) return hit!;
    const started = generation;
    const rows = await db
      .selectFrom('role_target')
      .select(['kind', 'target_id'])
      .where('role_id', '=', roleId)
      .execute();
    const out: Targets = { at: now(), generation: started, companyId, sets: new Set(), sites: new Set() };
    for (const r of rows) (r.kind === 'site' ? out.sites : out.sets).add(r.target_id);
    if (started === generation) targets.set(roleId, out);
    return out;
  }

  async function roleReach(user: UserRow, grant: Grant): Promise<RoleReach> {
    const everything = grant.permissions.includes(ALL_PERMISSIONS);
    const mode = everything ? 'company' : modeOf(grant.dataScope);
    const key = everything
      ? '*'
      : `${user.company_id}|${mode}|${mode === 'departments' ? `${grant.dataScope}:${user.department_id ?? ''}` : ''}|${
          mode === 'chosen' ? (grant.roleId ?? '') : ''
        }`;
    const hit = reaches.get(key);
    if (fresh(hit)) return hit!.role;
    const started = generation;
    let departments = NONE;
    let sets = NONE;
    let sites = NONE;
    if (mode === 'departments' && user.department_id !== null) {
      departments =
        grant.dataScope === 'departmentTree'
          ? below(await treeOf(user.company_id), user.department_id)
          : new Set([user.department_id]);
    }
    if (mode === 'chosen' && grant.roleId !== null) {
      const chosen = await targetsOf(grant.roleId, user.company_id);
      sets = chosen.sets;
      sites = chosen.sites;
    }
    const role: RoleReach = Object.freeze({
      everything,
      companyId: user.company_id,
      mode,
      departments,
      sets,
      sites,
    });
    if (started === generation) {
      reaches.delete(key);
      if (reaches.size >= KEPT) reaches.delete(reaches.keys().next().value!);
      reaches.set(key, { at: now(), generation: started, role });
    }
    return role;
  }

  function forget(companyId: number | null) {
    generation++;
    if (companyId === null) {
      trees.clear();
      targets.clear();
    } else {
      trees.delete(companyId);
      for (const [roleId, t] of targets) if (t.companyId === companyId) targets.delete(roleId);
    }
    reaches.clear();
  }

  return {
    /** What the user's role reaches, with the user and grant (for `rightsFrom`, `covers`, `visibleSets`). */
    async reach(user: UserRow, grant: Grant): Promise<Reach> {
      return { user, grant, role: await roleReach(user, grant) };
    },

    /**
     * After a company's departments (added, moved under another parent, deleted), its people's departments or
     * roles, or a role's chosen sets and stations changed: what its roles reach is resolved again, here and on
     * every instance, and every instance's set directory and open pages check again what they show (within a
     * second). Null: every company's.
     */
    invalidate(companyId: number | null) {
      forget(companyId);
      bus?.publish('scope', { origin, companyId });
      bus?.publish('sets', { origin });
    },

    /** Hears other instances' changes on the bus (and announces this one's there). */
    connect(realtime: RealtimeBus) {
      unsubscribe?.();
      bus = realtime;
      unsubscribe = realtime.subscribe('scope', (m) => {
        if (m.origin !== origin) forget(m.companyId);
      });
    },

    close() {
      unsubscribe?.();
      unsubscribe = null;
      bus = null;
    },
  };
}
export type DataScopeService = ReturnType<typeof createDataScope>;

/** A company's departments in tree order (each after its parent, siblings by sort then name), with their depth. */
export async function departmentOptions(db: Db, companyId: number) {
  const rows = await db
    .selectFrom('department')
    .select(['id', 'name', 'parent_id', 'sort'])
    .where('company_id', '=', companyId)
    .orderBy('sort')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    // a parent of another company (or gone) puts the department at the top
    const parent = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
    const list = children.get(parent);
    if (list) list.push(r);
    else children.set(parent, [r]);
  }
  const out: { id: number; name: string; parentId: number | null; depth: number }[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number) => {
    for (const r of children.get(parent) ?? []) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ id: r.id, name: r.name, parentId: r.parent_id, depth });
      walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** The department of a set or station: its own, else its owner's, with its name (null: none). */
export async function departmentOfRow(
  db: Db,
  row: { department_id: number | null; owner_user_id: number | null },
): Promise<{ id: number; name: string; own: boolean } | null> {
  let id = row.department_id;
  const own = id !== null;
  if (id === null && row.owner_user_id !== null) {
    const owner = await db
      .selectFrom('users')
      .select('department_id')
      .where('id', '=', row.owner_user_id)
      .executeTakeFirst();
    id = owner?.department_id ?? null;
  }
  if (id === null) return null;
  const department = await db.selectFrom('department').select('name').where('id', '=', id).executeTakeFirst();
  return department ? { id, name: department.name, own } : null;
}
