// What a signed-in user may see of themselves: profile, permissions and the menu tree their role allows.
import { ALL_PERMISSIONS, hasAnyPermission, type Language, type RouteEntry, type MenuType } from '@genset/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RoleTable } from '../../db/schema.ts';
import { memoize } from '../../lib/memo.ts';
import { translate } from '../../i18n/messages.ts';
import type { UserRow } from '../auth/repository.ts';
import { DEFAULT_MESSAGE_SETTINGS } from '../auth/defaults.ts';
import type { CompanyService } from '../company/service.ts';

export interface Grant {
  permissions: string[];
  menus: string[];
  dataScope: string;
  roleName: string | null;
  roleId: number | null;
}

/** The role columns a grant is made of. */
export type RoleGrantRow = Pick<
  Selectable<RoleTable>,
  'id' | 'name' | 'permissions' | 'menus' | 'data_scope' | 'status'
>;

/** Parsed permission and menu lists by their stored text: roles are few and every signed call needs one. */
const parsedList = memoize((text: string) => Object.freeze(JSON.parse(text) as string[]) as string[], 1000);

/** What a role grants; no role, or a disabled one, grants nothing beyond the user's own sets. */
export function grantOf(role: RoleGrantRow | null | undefined): Grant {
  if (!role || role.status !== 1)
    return { permissions: [], menus: [], dataScope: 'self', roleName: null, roleId: null };
  return {
    permissions: parsedList(role.permissions),
    menus: parsedList(role.menus),
    dataScope: role.data_scope,
    roleName: role.name,
    roleId: role.id,
  };
}

export function createAccountService(deps: { db: Db; companies: CompanyService }) {
  const { db } = deps;

  async function grant(user: UserRow): Promise<Grant> {
    if (!user.role_id) return grantOf(null);
    return grantOf(await db.selectFrom('role').selectAll().where('id', '=', user.role_id).executeTakeFirst());
  }

  return {
    grant,

    async info(user: UserRow, lang: Language) {
      const g = await grant(user);
      const department = user.department_id
        ? await db.selectFrom('department').select('name').where('id', '=', user.department_id).executeTakeFirst()
        : undefined;
      const roleName = g.roleName?.startsWith('roles.') ? translate(lang, g.roleName) : g.roleName;
      return {
        info: {
          id: user.id,
          name: user.nickname || user.account || '',
          nickname: user.nickname,
          account: user.account ?? '',
          type: user.type as 'personal' | 'corporate',
          companyId: user.company_id,
          departmentId: user.department_id,
          departmentName: department?.name ?? null,
          roleId: g.roleId,
          roleName,
          mustChangePassword: user.must_change_password === 1,
          inviteCode: user.invite_code,
          createdAt: user.created_at,
          messages: { ...DEFAULT_MESSAGE_SETTINGS, ...(JSON.parse(user.message_settings) as object) },
        },
        permissions: g.permissions,
        companyinfo: await deps.companies.info(user.company_id),
      };
    },

    /** The menu tree of spec 2: entries the role lists (or all for '*'), whose permission the user holds. */
    async routes(user: UserRow, lang: Language): Promise<RouteEntry[]> {
      const g = await grant(user);
      const rows = await db.selectFrom('menu').selectAll().orderBy('sort').orderBy('id').execute();
      const allowed = rows.filter(
        (m) =>
          (g.menus.includes('*') || g.menus.includes(m.name) || g.permissions.includes(ALL_PERMISSIONS)) &&
          (!m.permission || (g.permissions.length > 0 && hasAnyPermission(g.permissions, [m.permission]))),
      );
      const ids = new Set(allowed.map((m) => m.id));
      const byParent = new Map<number | null, RouteEntry[]>();
      for (const m of allowed) {
        // An entry whose parent is not allowed is not shown either.
        if (m.parent_id !== null && !ids.has(m.parent_id)) continue;
        const entry: RouteEntry = {
          id: m.id,
          type: m.type as MenuType,
          url: m.url,
          name: m.name,
          title: translate(lang, `menu.${m.name}`),
          ico: m.ico,
          component: m.component,
          visible: m.visible === 1,
          external: m.external === 1,
          children: [],
        };
        const list = byParent.get(m.parent_id) ?? [];
        list.push(entry);
        byParent.set(m.parent_id, list);
      }
      const attach = (entries: RouteEntry[]): RouteEntry[] =>
        entries.map((e) => ({ ...e, children: attach(byParent.get(e.id) ?? []) }));
      return attach(byParent.get(null) ?? []);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
