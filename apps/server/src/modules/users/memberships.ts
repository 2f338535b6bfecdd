// The companies a person belongs to (user_company), with the role and department held in each. The user row's
// company, role and department are those of the home company and are kept equal to its membership row here, so
// code that reads the user row keeps working and "who belongs to company X" is one table.
import { ALL_PERMISSIONS, Permission } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { grantOf, type Grant } from '../account/service.ts';
import type { SessionContext } from '../auth/service.ts';
import { keepRecent } from '../../lib/memo.ts';

export interface Membership {
  companyId: number;
  roleId: number | null;
  departmentId: number | null;
}

/** Memberships kept in memory, at most this many (every switched call needs one). */
const CACHE_SIZE = 20_000;

/** Whether a grant makes its holder one of the company's administrators (they manage its people). */
export function isAdministratorGrant(permissions: readonly string[]): boolean {
  return permissions.includes(ALL_PERMISSIONS) || permissions.includes(Permission.userManage);
}

/** Adds a person to a company (or changes what they hold there); keeps the user row in step for the home company. */
export async function saveMembership(db: Db, userId: number, m: Membership) {
  const now = Date.now();
  await db
    .insertInto('user_company')
    .values({
      user_id: userId,
      company_id: m.companyId,
      role_id: m.roleId,
      department_id: m.departmentId,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'company_id']).doUpdateSet({ role_id: m.roleId, department_id: m.departmentId }),
    )
    .execute();
  await db
    .updateTable('users')
    .set({ role_id: m.roleId, department_id: m.departmentId, updated_at: now })
    .where('id', '=', userId)
    .where('company_id', '=', m.companyId)
    .execute();
}

/**
 * Removes a person from a company. When it was their home company another of their companies becomes home;
 * answers false when they belong to no company any more (the caller then closes the account).
 */
export async function removeMembership(db: Db, userId: number, companyId: number): Promise<boolean> {
  await db.deleteFrom('user_company').where('user_id', '=', userId).where('company_id', '=', companyId).execute();
  const user = await db.selectFrom('users').select('company_id').where('id', '=', userId).executeTakeFirst();
  if (!user || user.company_id !== companyId) return true;
  const next = await db
    .selectFrom('user_company')
    .innerJoin('company', 'company.id', 'user_company.company_id')
    .select(['user_company.company_id', 'user_company.role_id', 'user_company.department_id'])
    .where('user_company.user_id', '=', userId)
    .where('company.deleted_at', 'is', null)
    .orderBy('user_company.created_at')
    .executeTakeFirst();
  if (!next) return false;
  await db
    .updateTable('users')
    .set({
      company_id: next.company_id,
      role_id: next.role_id,
      department_id: next.department_id,
      updated_at: Date.now(),
    })
    .where('id', '=', userId)
    .execute();
  return true;
}

export function createMembershipService(deps: { db: Db; ttlMs: number }) {
  const { db, ttlMs } = deps;
  const cache = new Map<string, { value: { membership: Membership; grant: Grant } | null; readAt: number }>();

  async function read(userId: number, companyId: number) {
    const row = await db
      .selectFrom('user_company as m')
      .innerJoin('company as c', 'c.id', 'm.company_id')
      .leftJoin('role as r', 'r.id', 'm.role_id')
      .select([
        'm.role_id',
        'm.department_id',
        'r.id as rid',
        'r.name as rname',
        'r.permissions',
        'r.menus',
        'r.data_scope',
        'r.status',
      ])
      .where('m.user_id', '=', userId)
      .where('m.company_id', '=', companyId)
      .where('c.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const grant = grantOf(
      row.rid === null
        ? null
        : {
            id: row.rid,
            name: row.rname!,
            permissions: row.permissions!,
            menus: row.menus!,
            data_scope: row.data_scope!,
            status: row.status!,
          },
    );
    return { membership: { companyId, roleId: row.role_id, departmentId: row.department_id }, grant };
  }

  return {
    /** What the person holds in the company, or null when they do not belong to it (or it is deleted). */
    async of(userId: number, companyId: number) {
      const key = `${userId}:${companyId}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.readAt < ttlMs) return hit.value;
      const value = await read(userId, companyId);
      if (ttlMs > 0) keepRecent(cache, key, { value, readAt: Date.now() }, CACHE_SIZE);
      return value;
    },

    /** The session as it acts for another company the person belongs to, or null when they do not. */
    async switched(ctx: SessionContext, companyId: number): Promise<SessionContext | null> {
      const found = await this.of(ctx.user.id, companyId);
      if (!found) return null;
      return {
        sessionId: ctx.sessionId,
        user: {
          ...ctx.user,
          company_id: companyId,
          role_id: found.membership.roleId,
          department_id: found.membership.departmentId,
        },
        grant: found.grant,
        home: ctx.home ?? ctx,
      };
    },

    /** A person's memberships (or a role's, for every person) changed: read them again. */
    forgetUser(userId: number) {
      for (const key of cache.keys()) if (key.startsWith(`${userId}:`)) cache.delete(key);
    },
    forgetAll() {
      cache.clear();
    },
  };
}
export type MembershipService = ReturnType<typeof createMembershipService>;
