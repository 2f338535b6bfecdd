// Roles, who holds them and the sets and stations a custom data scope chose: plain typed queries.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RoleTable } from '../../db/schema.ts';

export type RoleRow = Selectable<RoleTable>;

export function createRoleRepository(db: Db) {
  /** A company's sets or stations a role may name (not deleted), by name: id, token and name. */
  const liveTargets = (table: 'genset' | 'site', companyId: number) =>
    db
      .selectFrom(table)
      .select(['id', 'token', 'name'])
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .orderBy('name')
      .limit(5000)
      .execute();

  return {
    companyRoles(companyId: number): Promise<RoleRow[]> {
      return db.selectFrom('role').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
    },

    role(companyId: number, id: number): Promise<RoleRow | undefined> {
      return db
        .selectFrom('role')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Holders of each of the company's roles: by the user row and by company membership, each person once. */
    async holders(companyId: number): Promise<Map<number, number>> {
      const direct = await db
        .selectFrom('users')
        .select(['id', 'role_id'])
        .where('company_id', '=', companyId)
        .where('status', '<>', 'deleted')
        .where('role_id', 'is not', null)
        .execute();
      const members = await db
        .selectFrom('user_company')
        .innerJoin('users', 'users.id', 'user_company.user_id')
        .select(['user_company.user_id as id', 'user_company.role_id'])
        .where('user_company.company_id', '=', companyId)
        .where('users.status', '<>', 'deleted')
        .where('user_company.role_id', 'is not', null)
        .execute();
      const byRole = new Map<number, Set<number>>();
      for (const r of [...direct, ...members]) {
        const set = byRole.get(r.role_id!) ?? new Set<number>();
        set.add(r.id);
        byRole.set(r.role_id!, set);
      }
      return new Map([...byRole].map(([role, users]) => [role, users.size]));
    },

    /** The tokens a custom scope chose, per role. */
    async targets(roleIds: number[]): Promise<Map<number, { sets: string[]; sites: string[] }>> {
      const out = new Map<number, { sets: string[]; sites: string[] }>();
      if (roleIds.length === 0) return out;
      const sets = await db
        .selectFrom('role_target')
        .innerJoin('genset', 'genset.id', 'role_target.target_id')
        .select(['role_target.role_id', 'genset.token'])
        .where('role_target.kind', '=', 'set')
        .where('role_target.role_id', 'in', roleIds)
        .orderBy('genset.name')
        .execute();
      const sites = await db
        .selectFrom('role_target')
        .innerJoin('site', 'site.id', 'role_target.target_id')
        .select(['role_target.role_id', 'site.token'])
        .where('role_target.kind', '=', 'site')
        .where('role_target.role_id', 'in', roleIds)
        .orderBy('site.name')
        .execute();
      for (const id of roleIds) out.set(id, { sets: [], sites: [] });
      for (const r of sets) out.get(r.role_id)!.sets.push(r.token);
      for (const r of sites) out.get(r.role_id)!.sites.push(r.token);
      return out;
    },

    companySets: (companyId: number) => liveTargets('genset', companyId),

    companySites: (companyId: number) => liveTargets('site', companyId),

    async insert(row: Insertable<RoleTable>, targets: { kind: 'set' | 'site'; id: number }[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('role').values(row).returning('id').executeTakeFirstOrThrow();
        if (targets.length)
          await trx
            .insertInto('role_target')
            .values(targets.map((t) => ({ role_id: id, kind: t.kind, target_id: t.id })))
            .execute();
        return id;
      });
    },

    async update(id: number, patch: Updateable<RoleTable>, targets?: { kind: 'set' | 'site'; id: number }[]) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('role').set(patch).where('id', '=', id).execute();
        if (!targets) return;
        await trx.deleteFrom('role_target').where('role_id', '=', id).execute();
        if (targets.length)
          await trx
            .insertInto('role_target')
            .values(targets.map((t) => ({ role_id: id, kind: t.kind, target_id: t.id })))
            .execute();
      });
    },

    async remove(id: number) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('invitation').set({ role_id: null }).where('role_id', '=', id).execute();
        await trx.deleteFrom('role_target').where('role_id', '=', id).execute();
        await trx.deleteFrom('role').where('id', '=', id).execute();
      });
    },
  };
}
export type RoleRepository = ReturnType<typeof createRoleRepository>;
