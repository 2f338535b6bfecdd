// What a holding (a role's permissions and data scope, as held in one department of a company) reaches, and the
// one comparison every administrative write is decided by: whether one holding lies within another.
// Data scopes are ordered company ⊃ department tree ⊃ department ⊃ own sets; a department scope reaches within the
// holder's department (and, for the tree, the departments below it); chosen sets and stations are within a holding
// only when it reaches each of them. The platform administrator ('*:*') holds everything of every company.
import { ALL_PERMISSIONS, PERMISSION_LIST } from '@genset/protocol';

export interface Holding {
  permissions: readonly string[];
  /** A data scope (DATA_SCOPES); anything unknown reaches no further than own sets. */
  scope: string;
  /**
   * The holder's department in the company. `undefined`: the role as such, before anyone holds it (a department
   * scope is then compared by its rank only); `null`: held by someone of no department (it reaches nothing).
   */
  departmentId?: number | null;
  /** The custom scope's chosen sets and stations (ids). */
  sets: ReadonlySet<number>;
  sites: ReadonlySet<number>;
}

/** A set or station as a scope decides it: its company and its department (its own, else its owner's). */
export interface Target {
  kind: 'set' | 'site';
  id: number;
  name: string;
  companyId: number;
  departmentId: number | null;
}

/** What lies beyond a holding: the first thing found, named for the refusal. */
export type Beyond =
  | { kind: 'permission'; permission: string }
  | { kind: 'scope'; scope: string }
  | { kind: 'department'; name: string }
  | { kind: 'set' | 'site'; name: string };

const NONE: ReadonlySet<number> = new Set();

export const EMPTY_HOLDING: Holding = Object.freeze({ permissions: [], scope: 'self', sets: NONE, sites: NONE });

export const holdsEverything = (h: Pick<Holding, 'permissions'>) => h.permissions.includes(ALL_PERMISSIONS);

const DEPARTMENT_SCOPES = new Set(['departmentTree', 'department']);
const KNOWN_SCOPES = new Set(['all', 'company', 'departmentTree', 'department', 'self', 'custom']);

/** The scope as it counts: an unknown one reaches no further than own sets. */
export const scopeOf = (h: Pick<Holding, 'scope'>) => (KNOWN_SCOPES.has(h.scope) ? h.scope : 'self');

/** The permissions a holding grants, '*:*' spelled out (everything a role can name, and '*:*' itself). */
export function permissionsOf(h: Pick<Holding, 'permissions'>): Set<string> {
  return holdsEverything(h) ? new Set([ALL_PERMISSIONS, ...PERMISSION_LIST]) : new Set(h.permissions);
}

/** The holder's company and department tree, needed to decide department scopes and chosen targets. */
export interface CompanyView {
  companyId: number;
  /** Departments of the company by parent (for "the department and those below it"). */
  children: ReadonlyMap<number, readonly number[]>;
  departmentName(id: number): string;
}

/** The department and every department below it (a cycle in the parents ends the walk). */
export function branch(view: CompanyView, departmentId: number): Set<number> {
  const out = new Set([departmentId]);
  const queue = [departmentId];
  while (queue.length) {
    for (const child of view.children.get(queue.pop()!) ?? []) {
      if (out.has(child)) continue;
      out.add(child);
      queue.push(child);
    }
  }
  return out;
}

/** The departments a department scope of the holding reaches (empty for one held by someone of no department). */
export function departmentsOf(view: CompanyView, h: Holding): Set<number> {
  if (h.departmentId === null || h.departmentId === undefined) return new Set();
  return scopeOf(h) === 'departmentTree' ? branch(view, h.departmentId) : new Set([h.departmentId]);
}

/** Whether the holding reaches the set or station through its data scope (ownership and subscriptions aside). */
export function reaches(view: CompanyView, h: Holding, t: Target): boolean {
  if (holdsEverything(h)) return true;
  if (t.companyId !== view.companyId) return false;
  switch (scopeOf(h)) {
    case 'all':
    case 'company':
      return true;
    case 'departmentTree':
    case 'department':
      return t.departmentId !== null && departmentsOf(view, h).has(t.departmentId);
    case 'custom':
      return (t.kind === 'set' ? h.sets : h.sites).has(t.id);
    default:
      return false;
  }
}

/**
 * The first thing `target` holds beyond `caller` in the same company, or null when it lies within. `chosen`: the
 * target's chosen sets and stations (custom scope), as the company's scope decides them.
 */
export function beyond(view: CompanyView, caller: Holding, target: Holding, chosen: readonly Target[]): Beyond | null {
  if (holdsEverything(caller)) return null;
  const mine = new Set(caller.permissions);
  for (const p of permissionsOf(target)) if (!mine.has(p)) return { kind: 'permission', permission: p };
  const scope = scopeOf(target);
  const own = scopeOf(caller);
  if (scope === 'self') return null;
  if (scope === 'all') return { kind: 'scope', scope };
  if (own === 'company' || own === 'all') return null;
  if (scope === 'company') return { kind: 'scope', scope };
  if (scope === 'custom') {
    for (const t of chosen) if (!reaches(view, caller, t)) return { kind: t.kind, name: t.name };
    return null;
  }
  // a department scope: within a department scope of the caller, never wider than it
  if (!DEPARTMENT_SCOPES.has(own) || (own === 'department' && scope === 'departmentTree'))
    return { kind: 'scope', scope };
  if (target.departmentId === undefined || target.departmentId === null) return null;
  if (!departmentsOf(view, caller).has(target.departmentId))
    return { kind: 'department', name: view.departmentName(target.departmentId) };
  return null;
}
