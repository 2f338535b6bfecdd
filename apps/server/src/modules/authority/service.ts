// The one authority rule of every administrative write (people, roles, invitations, member approval, departments): nobody
// assigns, creates, invites, approves, edits, enables, disables, resets or removes an account or a role that holds
// more than they do — a permission they lack, a wider data scope, a department or a chosen set or station beyond
// their reach — and nobody changes their own role or what it grants. The company administrator holds everything
// of the company and keeps full power there; the platform administrator ('*:*') is above companies. A refusal is
// a 403 that names what lies beyond reach, in the caller's language, changes nothing and is written to the
// company's operation log.
import { ResultCode } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import {
  beyond,
  branch,
  departmentsOf,
  EMPTY_HOLDING,
  holdsEverything,
  reaches,
  scopeOf,
  type Beyond,
  type CompanyView,
  type Holding,
  type Target,
} from './reach.ts';

/** Who acts, for which company, from where. */
export interface Actor {
  ctx: SessionContext;
  companyId: number;
  ip: string;
}

/** A role row as stored (the columns a holding is made of). */
export interface RoleLike {
  id: number;
  company_id: number;
  permissions: string;
  data_scope: string;
  status: number;
  name?: string;
}

/** Why a write is refused: something beyond reach, or the caller's own role. */
export type Refusal = Beyond | { kind: 'self' };

const DEPARTMENT_SCOPES = new Set(['departmentTree', 'department']);

/** The refusal's message key and parameters, worded in the reader's language. */
function worded(r: Refusal, lang: Parameters<typeof translate>[0]): { key: string; params: Record<string, string> } {
  switch (r.kind) {
    case 'permission':
      return {
        key: 'authority.permission',
        params: { permission: translate(lang, `permissions.${r.permission}`).replace(/^permissions\./, '') },
      };
    case 'scope':
      return { key: 'authority.scope', params: { scope: translate(lang, `roles.scope.${r.scope}`) } };
    case 'department':
      return { key: 'authority.department', params: { name: r.name } };
    case 'set':
      return { key: 'authority.set', params: { name: r.name } };
    case 'site':
      return { key: 'authority.site', params: { name: r.name } };
    default:
      return { key: 'authority.ownRole', params: {} };
  }
}

/** The refusal as one language-neutral word for the operation log. */
function detail(r: Refusal): string {
  switch (r.kind) {
    case 'permission':
      return r.permission;
    case 'scope':
      return `scope:${r.scope}`;
    case 'self':
      return 'own role';
    default:
      return `${r.kind}:${r.name}`;
  }
}

export function createAuthority(deps: { db: Db }) {
  const { db } = deps;

  const isPlatform = (a: Actor) => holdsEverything(a.ctx.grant);

  async function view(companyId: number): Promise<CompanyView> {
    const rows = await db
      .selectFrom('department')
      .select(['id', 'name', 'parent_id'])
      .where('company_id', '=', companyId)
      .execute();
    const children = new Map<number, number[]>();
    const names = new Map(rows.map((r) => [r.id, r.name]));
    for (const r of rows)
      if (r.parent_id !== null) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
    return { companyId, children, departmentName: (id) => names.get(id) ?? String(id) };
  }

  /** The chosen sets and stations of roles, by role. */
  async function chosenOf(roleIds: number[]): Promise<Map<number, { sets: Set<number>; sites: Set<number> }>> {
    const out = new Map<number, { sets: Set<number>; sites: Set<number> }>();
    for (const id of roleIds) out.set(id, { sets: new Set(), sites: new Set() });
    if (roleIds.length === 0) return out;
    const rows = await db
      .selectFrom('role_target')
      .select(['role_id', 'kind', 'target_id'])
      .where('role_id', 'in', roleIds)
      .execute();
    for (const r of rows) (r.kind === 'site' ? out.get(r.role_id)!.sites : out.get(r.role_id)!.sets).add(r.target_id);
    return out;
  }

  /** Sets and stations as the scopes decide them (their department: their own, else their owner's). */
  async function targets(kind: 'set' | 'site', ids: Iterable<number>): Promise<Target[]> {
    const list = [...new Set(ids)];
    if (list.length === 0) return [];
    const table = kind === 'set' ? 'genset' : 'site';
    const rows = await db
      .selectFrom(`${table} as t` as 'genset as t')
      .leftJoin('users as o', 'o.id', 't.owner_user_id')
      .select(['t.id', 't.name', 't.company_id', 't.department_id', 'o.department_id as owner_department'])
      .where('t.id', 'in', list)
      .execute();
    return rows.map((r) => ({
      kind,
      id: r.id,
      name: r.name,
      companyId: r.company_id,
      departmentId: r.department_id ?? r.owner_department ?? null,
    }));
  }

  async function chosenTargets(h: Holding): Promise<Target[]> {
    if (scopeOf(h) !== 'custom') return [];
    return [...(await targets('set', h.sets)), ...(await targets('site', h.sites))];
  }

  /** A role as held in a department (undefined: the role as such). */
  function holdingOf(
    role: Pick<RoleLike, 'permissions' | 'data_scope' | 'status'> | null | undefined,
    departmentId: number | null | undefined,
    chosen?: { sets: Set<number>; sites: Set<number> },
  ): Holding {
    // a disabled role grants nothing
    if (!role || role.status !== 1) return { ...EMPTY_HOLDING, departmentId };
    return {
      permissions: JSON.parse(role.permissions) as string[],
      scope: role.data_scope,
      departmentId,
      sets: chosen?.sets ?? new Set(),
      sites: chosen?.sites ?? new Set(),
    };
  }

  /** What the caller holds in the company they act for. */
  async function callerHolding(a: Actor): Promise<Holding> {
    const g = a.ctx.grant;
    const chosen =
      g.roleId !== null && g.dataScope === 'custom' ? (await chosenOf([g.roleId])).get(g.roleId) : undefined;
    return {
      permissions: g.permissions,
      scope: g.dataScope,
      departmentId: a.ctx.user.department_id,
      sets: chosen?.sets ?? new Set(),
      sites: chosen?.sites ?? new Set(),
    };
  }

  /** What a person holds in a company by their membership there (nothing when they do not belong to it). */
  async function memberHolding(userId: number, companyId: number): Promise<Holding> {
    const row = await db
      .selectFrom('user_company as m')
      .leftJoin('role as r', 'r.id', 'm.role_id')
      .select(['m.department_id', 'r.id', 'r.permissions', 'r.data_scope', 'r.status'])
      .where('m.user_id', '=', userId)
      .where('m.company_id', '=', companyId)
      .executeTakeFirst();
    if (!row || row.id === null) return { ...EMPTY_HOLDING, departmentId: row?.department_id ?? null };
    const chosen = row.data_scope === 'custom' ? (await chosenOf([row.id])).get(row.id) : undefined;
    return holdingOf(
      { permissions: row.permissions!, data_scope: row.data_scope!, status: row.status! },
      row.department_id,
      chosen,
    );
  }

  /** Writes the refused attempt to the company's operation log and throws the 403 that names why. */
  async function refuse(a: Actor, attempt: string, target: string, r: Refusal): Promise<never> {
    await writeOperationLog(db, {
      ctx: a.ctx,
      companyId: a.companyId,
      ip: a.ip,
      matter: 'log.adminRefused',
      feedback: { attempt, reason: detail(r) },
      target,
    });
    const first = worded(r, 'en-US');
    throw new AppError(ResultCode.forbidden, first.key, first.params, null, (lang) => ({
      params: worded(r, lang).params,
      data: null,
    }));
  }

  /** The first thing of `target` beyond the caller's holding in the company, or null. */
  async function beyondCaller(a: Actor, mine: Holding, target: Holding, v?: CompanyView): Promise<Beyond | null> {
    if (isPlatform(a)) return null;
    return beyond(v ?? (await view(a.companyId)), mine, target, await chosenTargets(target));
  }

  /** The departments of the people holding a role in its company. */
  async function holderDepartments(roleId: number): Promise<(number | null)[]> {
    const rows = await db
      .selectFrom('user_company as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.department_id')
      .where('m.role_id', '=', roleId)
      .where('u.status', '!=', 'deleted')
      .execute();
    return [...new Set(rows.map((r) => r.department_id))];
  }

  /** A role as such and as held by each of its holders: the first thing beyond the caller. */
  async function roleBeyond(a: Actor, mine: Holding, role: Holding, holders: (number | null)[], v: CompanyView) {
    const abstract = await beyondCaller(a, mine, { ...role, departmentId: undefined }, v);
    if (abstract) return abstract;
    if (DEPARTMENT_SCOPES.has(scopeOf(role)))
      for (const d of holders) {
        const found = await beyondCaller(a, mine, { ...role, departmentId: d }, v);
        if (found) return found;
      }
    return null;
  }

  /** Whether the caller reaches a set or station: own, subscribed, or within their holding. */
  async function reachesTarget(a: Actor, mine: Holding, t: Target, v: CompanyView): Promise<boolean> {
    if (isPlatform(a)) return true;
    if (t.companyId === a.companyId && reaches(v, mine, t)) return true;
    if (t.companyId !== a.companyId) {
      const there = await memberHolding(a.ctx.user.id, t.companyId);
      if (reaches(await view(t.companyId), there, t)) return true;
    }
    const table = t.kind === 'set' ? 'genset' : 'site';
    const owned = await db
      .selectFrom(`${table} as t` as 'genset as t')
      .select('t.id')
      .where('t.id', '=', t.id)
      .where('t.owner_user_id', '=', a.ctx.user.id)
      .executeTakeFirst();
    if (owned) return true;
    if (t.kind === 'site') return false;
    const sub = await db
      .selectFrom('subscription')
      .select('id')
      .where('genset_id', '=', t.id)
      .where('user_id', '=', a.ctx.user.id)
      .executeTakeFirst();
    return !!sub;
  }

  return {
    isPlatform,
    callerHolding,
    holdingOf,
    refuse,

    /**
     * Giving someone (`userId`, or a new account or applicant when null) a role in a department of the company:
     * the role as held there lies within the caller's reach, and nobody gives themselves another role.
     */
    async assign(
      a: Actor,
      attempt: string,
      target: string,
      next: { role: RoleLike | null; departmentId: number | null; userId: number | null },
      current?: { roleId: number | null; departmentId: number | null },
    ) {
      if (next.userId === a.ctx.user.id && !isPlatform(a) && current) {
        const changesRole = current.roleId !== (next.role?.id ?? null);
        // one's own department decides what one's own department scope reaches
        const changesReach =
          current.departmentId !== next.departmentId &&
          DEPARTMENT_SCOPES.has(scopeOf({ scope: a.ctx.grant.dataScope }));
        if (changesRole || changesReach) await refuse(a, attempt, target, { kind: 'self' });
      }
      if (isPlatform(a) || !next.role) return;
      const chosen = (await chosenOf([next.role.id])).get(next.role.id);
      const found = await beyondCaller(a, await callerHolding(a), holdingOf(next.role, next.departmentId, chosen));
      if (found) await refuse(a, attempt, target, found);
    },

    /**
     * Touching a person's account (editing, moving, removing them in this company; `wide`: resetting the password,
     * enabling or disabling the account, which act in every company of theirs): what they hold — their role in
     * this company (in every company when `wide`) and the sets and stations they own or subscribed to — lies
     * within what the caller holds.
     */
    async account(a: Actor, attempt: string, userId: number, wide: boolean) {
      if (isPlatform(a)) return;
      const mine = await callerHolding(a);
      const v = await view(a.companyId);
      const target = `user:${userId}`;
      const memberships = await db
        .selectFrom('user_company')
        .select('company_id')
        .where('user_id', '=', userId)
        .execute();
      for (const m of memberships) {
        if (m.company_id !== a.companyId && !wide) continue;
        const theirs = await memberHolding(userId, m.company_id);
        const found =
          m.company_id === a.companyId
            ? await beyondCaller(a, mine, theirs, v)
            : beyond(
                await view(m.company_id),
                await memberHolding(a.ctx.user.id, m.company_id),
                theirs,
                await chosenTargets(theirs),
              );
        if (found) await refuse(a, attempt, target, found);
      }
      const ownedSets = await db
        .selectFrom('genset')
        .select('id')
        .where('owner_user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
      const subscribed = await db
        .selectFrom('subscription')
        .select('genset_id as id')
        .where('user_id', '=', userId)
        .execute();
      const ownedSites = await db
        .selectFrom('site')
        .select('id')
        .where('owner_user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
      const all = [
        ...(await targets(
          'set',
          [...ownedSets, ...subscribed].map((r) => r.id),
        )),
        ...(await targets(
          'site',
          ownedSites.map((r) => r.id),
        )),
      ];
      for (const t of all) {
        if (!wide && t.companyId !== a.companyId) continue;
        if (!(await reachesTarget(a, mine, t, v))) await refuse(a, attempt, target, { kind: t.kind, name: t.name });
      }
    },

    /**
     * Creating, editing, enabling, disabling or deleting a role: never the caller's own; the role as it is (as
     * held by each holder) and as it would be lie within the caller's reach.
     */
    async role(
      a: Actor,
      attempt: string,
      current: RoleLike | null,
      next: { permissions: string[]; dataScope: string; sets: number[]; sites: number[] } | null,
    ) {
      const target = current ? `role:${current.id}` : 'role:new';
      if (current && current.id === a.ctx.grant.roleId && !isPlatform(a))
        await refuse(a, attempt, target, { kind: 'self' });
      if (isPlatform(a)) return;
      const mine = await callerHolding(a);
      const v = await view(a.companyId);
      const holders = current ? await holderDepartments(current.id) : [];
      if (current) {
        const chosen = (await chosenOf([current.id])).get(current.id);
        // a disabled role is compared by what it would grant once enabled
        const found = await roleBeyond(a, mine, holdingOf({ ...current, status: 1 }, undefined, chosen), holders, v);
        if (found) await refuse(a, attempt, target, found);
      }
      if (next) {
        const h: Holding = {
          permissions: next.permissions,
          scope: next.dataScope,
          sets: new Set(next.sets),
          sites: new Set(next.sites),
        };
        const found = await roleBeyond(a, mine, h, holders, v);
        if (found) await refuse(a, attempt, target, found);
      }
    },

    /**
     * Moving a department under another (`parentId`; null: to the top of the tree): the department with every one
     * below it, and the new parent, lie within the caller's data scope; the top of the tree takes a company-wide
     * scope. Whatever the department's branch holds comes within reach of the new parent's holders.
     */
    async department(a: Actor, attempt: string, departmentId: number, parentId: number | null) {
      if (isPlatform(a)) return;
      const mine = await callerHolding(a);
      const own = scopeOf(mine);
      if (own === 'company' || own === 'all') return;
      const target = `department:${departmentId}`;
      if (parentId === null) await refuse(a, attempt, target, { kind: 'scope', scope: 'company' });
      const v = await view(a.companyId);
      const reached = DEPARTMENT_SCOPES.has(own) ? departmentsOf(v, mine) : new Set<number>();
      for (const d of [...branch(v, departmentId), parentId!])
        if (!reached.has(d)) await refuse(a, attempt, target, { kind: 'department', name: v.departmentName(d) });
    },

    /**
     * Adding a department (`departmentId` null, under `parentId`; null: at the top of the tree), renaming or
     * deleting one: the department, or the parent a new one goes under, lies within the caller's data scope; the
     * top of the tree takes a company-wide scope.
     */
    async departmentWrite(a: Actor, attempt: string, departmentId: number | null, parentId: number | null) {
      if (isPlatform(a)) return;
      const mine = await callerHolding(a);
      const own = scopeOf(mine);
      if (own === 'company' || own === 'all') return;
      const target = departmentId === null ? 'department:new' : `department:${departmentId}`;
      const at = departmentId ?? parentId;
      if (at === null) return refuse(a, attempt, target, { kind: 'scope', scope: 'company' });
      const v = await view(a.companyId);
      const reached = DEPARTMENT_SCOPES.has(own) ? departmentsOf(v, mine) : new Set<number>();
      if (!reached.has(at)) await refuse(a, attempt, target, { kind: 'department', name: v.departmentName(at) });
    },

    /** What a role editor may choose from: the data scopes within reach and a filter of sets or stations. */
    async offered(a: Actor) {
      const mine = await callerHolding(a);
      const v = await view(a.companyId);
      const scopes = new Set<string>();
      for (const scope of ['all', 'company', 'departmentTree', 'department', 'self', 'custom'])
        if (isPlatform(a) || beyond(v, mine, { ...mine, scope, departmentId: undefined }, []) === null)
          scopes.add(scope);
      return {
        scopes,
        async within<T extends { id: number }>(kind: 'set' | 'site', rows: T[]): Promise<T[]> {
          if (isPlatform(a)) return rows;
          const reached = new Set(
            (
              await targets(
                kind,
                rows.map((r) => r.id),
              )
            )
              .filter((t) => reaches(v, mine, t))
              .map((t) => t.id),
          );
          return rows.filter((r) => reached.has(r.id));
        },
      };
    },

    /** Whether the caller may give the role to someone (as such; a department scope by its rank). */
    async canAssign(a: Actor, role: RoleLike, mine?: Holding): Promise<boolean> {
      if (isPlatform(a)) return true;
      const chosen = (await chosenOf([role.id])).get(role.id);
      return (await beyondCaller(a, mine ?? (await callerHolding(a)), holdingOf(role, undefined, chosen))) === null;
    },
  };
}
export type Authority = ReturnType<typeof createAuthority>;
