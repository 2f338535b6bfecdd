// The sets a user sees, as a query to build on: every set with '*:*'; otherwise the sets they own, the sets
// they subscribed to, and, when the role may view sets, those its data scope reaches (account/scope.ts: the
// company's, their department's or department tree's — a set's own department, else its owner's — or those
// chosen on the role). The same rules as fleet.rightsOn, for many sets at once.
import { ALL_PERMISSIONS, Permission } from '@genset/protocol';
import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Reach, RoleReach } from '../account/scope.ts';

/** Chosen sets listed in the query itself up to this many; beyond, the role's list is read in the query. */
const LISTED_IDS = 500;

type SetsBuilder = ExpressionBuilder<Database & { g: Database['genset'] }, 'g'>;

/** The role's reach over the sets `g` of a query (ownership and subscriptions aside); null: none. */
export function reachedSets(eb: SetsBuilder, role: RoleReach, roleId: number | null): Expression<SqlBool> | null {
  if (role.everything) return eb.lit(true);
  const company = eb('g.company_id', '=', role.companyId);
  switch (role.mode) {
    case 'company':
      return company;
    case 'departments': {
      if (role.departments.size === 0) return null;
      const ownerDepartment = eb
        .selectFrom('users as du')
        .select('du.department_id')
        .whereRef('du.id', '=', 'g.owner_user_id');
      return eb.and([company, eb(eb.fn.coalesce('g.department_id', ownerDepartment), 'in', [...role.departments])]);
    }
    case 'chosen': {
      if (role.sets.size === 0) return null;
      if (role.sets.size <= LISTED_IDS || roleId === null) return eb.and([company, eb('g.id', 'in', [...role.sets])]);
      const listed = eb
        .selectFrom('role_target as rt')
        .select('rt.target_id')
        .where('rt.role_id', '=', roleId)
        .where('rt.kind', '=', 'set');
      return eb.and([company, eb('g.id', 'in', listed)]);
    }
    default:
      return null;
  }
}

export function visibleSets(db: Db, reach: Reach) {
  const { user, grant } = reach;
  const base = db.selectFrom('genset as g').where('g.deleted_at', 'is', null);
  if (grant.permissions.includes(ALL_PERMISSIONS)) return base;
  return base.where((eb) => {
    const byRole = grant.permissions.includes(Permission.gensetView) ? reachedSets(eb, reach.role, grant.roleId) : null;
    return eb.or([
      eb('g.owner_user_id', '=', user.id),
      eb('g.id', 'in', eb.selectFrom('subscription as s').select('s.genset_id').where('s.user_id', '=', user.id)),
      ...(byRole ? [byRole] : []),
    ]);
  });
}
export type VisibleSets = ReturnType<typeof visibleSets>;
