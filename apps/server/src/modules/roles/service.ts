// Roles of a company: what each grants (permissions chosen on the tree, the pages shown, the data scope and, for
// a custom scope, the chosen sets and stations), enabling and disabling them, and deleting those nobody holds.
// Every change drops the signed-in sessions holding the role, so it counts on their next call.
import { randomBytes } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  BUILT_IN_ROLES,
  DATA_SCOPES,
  hasAnyPermission,
  Permission,
  PERMISSION_LIST,
  ResultCode,
  V,
  type DataAuthRoleResponse,
  type DataScope,
  type Language,
  type PermissionNode,
  type RoleItem,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import { MENU } from '../../seed/base.ts';
import type { SessionContext } from '../auth/service.ts';
import { createRoleRepository, type RoleRow } from './repository.ts';
import { createAuthority } from '../authority/service.ts';

/** A role's fields as the administration forms send them: its targets by token. */
interface RoleInput {
  name: string;
  permissions: string[];
  menus: string[];
  dataScope: DataScope;
  sets: string[];
  sites: string[];
}

export interface AdminCaller {
  ctx: SessionContext;
  /** The company the call acts for. */
  companyId: number;
  ip: string;
  lang: Language;
}

/** Roles that keep a company (or the platform) administrable: never disabled, edited or deleted. */
const LOCKED_ROLES = new Set(['platformAdmin', 'companyAdmin']);
const BUILT_IN = new Set<string>(BUILT_IN_ROLES);

export const isPlatform = (ctx: SessionContext) => ctx.grant.permissions.includes(ALL_PERMISSIONS);

/** Who may read the company's roles: whoever manages them, and whoever gives people a role. */
export const ROLE_READERS = [Permission.roleManage, Permission.userManage] as const;

export function requirePermission(ctx: SessionContext, ...anyOf: string[]) {
  if (!hasAnyPermission(ctx.grant.permissions, anyOf)) throw forbidden();
}

/** A role's name for people: built-ins are stored as message keys. */
export function roleTitle(lang: Language, name: string): string {
  return name.startsWith('roles.') ? translate(lang, name) : name;
}

/** Pages the editor offers: visible console pages (not a station's own layout). */
const OFFERED = MENU.filter((m) => m.visible && m.type !== 'E');
const OFFERED_NAMES = new Set(OFFERED.map((m) => m.name));

/** Hidden pages (details, forms) follow whatever permission guards them, so every role lists them. */
function hiddenPages(): string[] {
  const hidden = new Set(MENU.filter((m) => !m.visible).map((m) => m.name));
  // the children of a hidden entry (a station's own layout) go with it
  for (const m of MENU) if (m.parent && hidden.has(m.parent)) hidden.add(m.name);
  return [...hidden];
}

export function createRoleService(deps: {
  db: Db;
  /** A role changed or is gone: whatever was read of it (sessions, memberships, data scope) is read again. */
  roleChanged: (role: { id: number; companyId: number }) => Promise<void> | void;
}) {
  const { db } = deps;
  const repo = createRoleRepository(db);
  const authority = createAuthority({ db });

  function log(caller: AdminCaller, matter: string, feedback: Record<string, unknown>, target: string) {
    return writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: caller.companyId,
      ip: caller.ip,
      matter,
      feedback,
      target,
    });
  }

  async function ownRole(caller: AdminCaller, id: number): Promise<RoleRow> {
    const role = await repo.role(caller.companyId, id);
    // the platform's own role is not a company's to manage
    if (!role || (role.role_key === 'platformAdmin' && !isPlatform(caller.ctx))) throw notFound();
    return role;
  }

  function toItem(
    lang: Language,
    r: RoleRow,
    holders: Map<number, number>,
    targets: Map<number, { sets: string[]; sites: string[] }>,
    assignable: boolean,
  ): RoleItem {
    return {
      id: r.id,
      name: roleTitle(lang, r.name),
      roleKey: r.role_key,
      builtIn: BUILT_IN.has(r.role_key),
      locked: LOCKED_ROLES.has(r.role_key),
      permissions: JSON.parse(r.permissions) as string[],
      menus: JSON.parse(r.menus) as string[],
      dataScope: (DATA_SCOPES as readonly string[]).includes(r.data_scope) ? (r.data_scope as DataScope) : 'self',
      status: r.status,
      users: holders.get(r.id) ?? 0,
      sets: targets.get(r.id)?.sets ?? [],
      sites: targets.get(r.id)?.sites ?? [],
      createdAt: Number(r.created_at),
      assignable,
    };
  }

  /** Checks a role's fields against the company; answers the columns and chosen targets to store. */
  async function checked(caller: AdminCaller, input: RoleInput, self: RoleRow | null) {
    const name = input.name.trim();
    const permissions = [...new Set(input.permissions)].filter((p) => PERMISSION_LIST.includes(p as never));
    if (permissions.length === 0) throw fieldError('permissions', 'roles.noPermissions');
    // No one hands out more than they hold (protocol:manage, the platform-wide protocols every company's sets run on,
    // is the platform's): the authority refuses, naming it (see `authorised`).
    if (input.dataScope === 'all' && !isPlatform(caller.ctx)) throw fieldError('dataScope', 'roles.scopeAllPlatform');
    const chosen = [...new Set(input.menus)].filter((m) => m !== '*');
    const unknown = chosen.find((m) => !OFFERED_NAMES.has(m) && !MENU.some((x) => x.name === m));
    if (unknown !== undefined) throw fieldError('menus', V.invalid);
    // no page chosen: every page the permissions allow
    const menus = chosen.length === 0 ? ['*'] : [...new Set([...chosen, ...hiddenPages()])];

    const roles = await repo.companyRoles(caller.companyId);
    const lower = name.toLowerCase();
    const clash = roles.find((r) => r.id !== self?.id && roleTitle(caller.lang, r.name).toLowerCase() === lower);
    if (clash) throw new AppError(ResultCode.conflict, 'roles.nameTaken', { name });

    const targets: { kind: 'set' | 'site'; id: number }[] = [];
    if (input.dataScope === 'custom') {
      const sets = new Map((await repo.companySets(caller.companyId)).map((s) => [s.token, s.id]));
      for (const token of new Set(input.sets)) {
        const id = sets.get(token);
        if (id === undefined) throw new AppError(ResultCode.invalid, 'roles.unknownSet', { token });
        targets.push({ kind: 'set', id });
      }
      const sites = new Map((await repo.companySites(caller.companyId)).map((s) => [s.token, s.id]));
      for (const token of new Set(input.sites)) {
        const id = sites.get(token);
        if (id === undefined) throw new AppError(ResultCode.invalid, 'roles.unknownSite', { token });
        targets.push({ kind: 'site', id });
      }
      if (targets.length === 0) throw fieldError('sets', 'roles.customEmpty');
    }
    // a built-in keeps its translated name while it is not renamed
    const storedName = self && roleTitle(caller.lang, self.name) === name ? self.name : name;
    return {
      columns: {
        name: storedName,
        permissions: JSON.stringify(permissions),
        menus: JSON.stringify(menus),
        data_scope: input.dataScope,
      },
      targets,
    };
  }

  /** The role as it is and as it would be lies within the caller's reach, and is not the caller's own. */
  function authorised(
    caller: AdminCaller,
    attempt: string,
    current: RoleRow | null,
    next: {
      columns: { permissions: string; data_scope: string };
      targets: { kind: 'set' | 'site'; id: number }[];
    } | null,
  ) {
    return authority.role(
      caller,
      attempt,
      current,
      next && {
        permissions: JSON.parse(next.columns.permissions) as string[],
        dataScope: next.columns.data_scope,
        sets: next.targets.filter((t) => t.kind === 'set').map((t) => t.id),
        sites: next.targets.filter((t) => t.kind === 'site').map((t) => t.id),
      },
    );
  }

  return {
    async list(
      caller: AdminCaller,
      q: { name?: string | undefined; status?: '0' | '1' | undefined; page: number; size: number },
    ) {
      requirePermission(caller.ctx, ...ROLE_READERS);
      const all = (await repo.companyRoles(caller.companyId)).filter(
        (r) => r.role_key !== 'platformAdmin' || isPlatform(caller.ctx),
      );
      const needle = q.name?.trim().toLowerCase() ?? '';
      const matching = all.filter(
        (r) =>
          (!needle || roleTitle(caller.lang, r.name).toLowerCase().includes(needle)) &&
          (q.status === undefined || r.status === Number(q.status)),
      );
      const page = matching.slice((q.page - 1) * q.size, q.page * q.size);
      const holders = await repo.holders(caller.companyId);
      const targets = await repo.targets(page.map((r) => r.id));
      const mine = await authority.callerHolding(caller);
      const assignable = await Promise.all(page.map((r) => authority.canAssign(caller, r, mine)));
      return {
        list: page.map((r, i) => toItem(caller.lang, r, holders, targets, assignable[i]!)),
        total: matching.length,
        page: q.page,
        size: q.size,
      };
    },

    async info(caller: AdminCaller, id: number) {
      requirePermission(caller.ctx, Permission.roleManage);
      const role = await ownRole(caller, id);
      return toItem(
        caller.lang,
        role,
        await repo.holders(caller.companyId),
        await repo.targets([role.id]),
        await authority.canAssign(caller, role),
      );
    },

    async save(caller: AdminCaller, input: RoleInput) {
      requirePermission(caller.ctx, Permission.roleManage);
      const { columns, targets } = await checked(caller, input, null);
      await authorised(caller, '/role/save', null, { columns, targets });
      const id = await repo.insert(
        {
          company_id: caller.companyId,
          role_key: `custom_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`,
          ...columns,
          status: 1,
          created_at: Date.now(),
        },
        targets,
      );
      await log(caller, 'log.roleCreated', { name: columns.name, scope: input.dataScope }, `role:${id}`);
      return { id };
    },

    async update(caller: AdminCaller, input: RoleInput & { id: number }) {
      requirePermission(caller.ctx, Permission.roleManage);
      const role = await ownRole(caller, input.id);
      if (LOCKED_ROLES.has(role.role_key)) throw new AppError(ResultCode.forbidden, 'roles.locked');
      const { columns, targets } = await checked(caller, input, role);
      await authorised(caller, '/role/update', role, { columns, targets });
      await repo.update(role.id, columns, targets);
      await deps.roleChanged({ id: role.id, companyId: role.company_id });
      await log(
        caller,
        'log.roleUpdated',
        { name: roleTitle(caller.lang, columns.name), scope: input.dataScope },
        `role:${role.id}`,
      );
      return { id: role.id };
    },

    async remove(caller: AdminCaller, id: number) {
      requirePermission(caller.ctx, Permission.roleManage);
      const role = await ownRole(caller, id);
      if (BUILT_IN.has(role.role_key)) throw new AppError(ResultCode.forbidden, 'roles.builtIn');
      await authorised(caller, '/role/delete', role, null);
      const holders = (await repo.holders(caller.companyId)).get(role.id) ?? 0;
      if (holders > 0) throw new AppError(ResultCode.conflict, 'roles.inUse', { count: holders });
      await repo.remove(role.id);
      await deps.roleChanged({ id: role.id, companyId: role.company_id });
      await log(caller, 'log.roleDeleted', { name: roleTitle(caller.lang, role.name) }, `role:${role.id}`);
    },

    async setStatus(caller: AdminCaller, id: number, status: 0 | 1) {
      requirePermission(caller.ctx, Permission.roleManage);
      const role = await ownRole(caller, id);
      if (LOCKED_ROLES.has(role.role_key)) throw new AppError(ResultCode.forbidden, 'roles.locked');
      await authorised(caller, '/user/roleStatus', role, null);
      await repo.update(role.id, { status });
      await deps.roleChanged({ id: role.id, companyId: role.company_id });
      await log(
        caller,
        status === 1 ? 'log.roleEnabled' : 'log.roleDisabled',
        { name: roleTitle(caller.lang, role.name) },
        `role:${role.id}`,
      );
    },

    /** The editor's choices: the page and action tree, the data scopes and the company's sets and stations. */
    async dataAuth(caller: AdminCaller): Promise<DataAuthRoleResponse> {
      requirePermission(caller.ctx, Permission.roleManage);
      const { lang } = caller;
      const node = (name: string): PermissionNode => ({
        key: `menu:${name}`,
        title: translate(lang, `menu.${name}`),
        children: OFFERED.filter((m) => m.parent === name).map((m) => node(m.name)),
      });
      const pages = OFFERED.filter((m) => !m.parent || !OFFERED_NAMES.has(m.parent)).map((m) => node(m.name));
      const actions = PERMISSION_LIST.filter(
        (p) => isPlatform(caller.ctx) || caller.ctx.grant.permissions.includes(p),
      ).map((p) => ({
        key: `perm:${p}`,
        title: translate(lang, `permissions.${p}`),
        children: [],
      }));
      // the scopes, sets and stations within the caller's reach
      const offered = await authority.offered(caller);
      const scopes = DATA_SCOPES.filter((s) => (s !== 'all' || isPlatform(caller.ctx)) && offered.scopes.has(s));
      return {
        tree: [
          { key: 'actions', title: translate(lang, 'roles.actions'), children: actions },
          { key: 'menus', title: translate(lang, 'roles.pages'), children: pages },
        ],
        dataScopes: scopes.map((value) => ({ value, label: translate(lang, `roles.scope.${value}`) })),
        sets: (await offered.within('set', await repo.companySets(caller.companyId))).map((s) => ({
          token: s.token,
          name: s.name,
        })),
        sites: (await offered.within('site', await repo.companySites(caller.companyId))).map((s) => ({
          token: s.token,
          name: s.name,
        })),
      };
    },

    /** A role of the company that can be given to someone (enabled, not the platform's). */
    async assignable(companyId: number, id: number): Promise<RoleRow | null> {
      const role = await repo.role(companyId, id);
      if (!role || role.role_key === 'platformAdmin') return null;
      return role;
    },
  };
}
export type RoleService = ReturnType<typeof createRoleService>;
