// The sets a user sees, as a query to build on: every set with '*:*'; otherwise the sets they own, the sets
// they subscribed to, and the sets of their company their role's data scope covers (department: sets whose
// owner is in the user's department) when the role may view sets. The same rules as fleet.rightsOn, for
// many sets at once.
import { ALL_PERMISSIONS, Permission } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from '../account/service.ts';

export function visibleSets(db: Db, user: UserRow, grant: Grant) {
  const base = db.selectFrom('genset as g').where('g.deleted_at', 'is', null);
  if (grant.permissions.includes(ALL_PERMISSIONS)) return base;
  const company =
    grant.permissions.includes(Permission.gensetView) &&
    (grant.dataScope === 'all' ||
      grant.dataScope === 'company' ||
      (grant.dataScope === 'department' && user.department_id !== null));
  return base.where((eb) =>
    eb.or([
      eb('g.owner_user_id', '=', user.id),
      eb('g.id', 'in', eb.selectFrom('subscription as s').select('s.genset_id').where('s.user_id', '=', user.id)),
      ...(company
        ? [
            grant.dataScope === 'department'
              ? eb.and([
                  eb('g.company_id', '=', user.company_id),
                  eb(
                    'g.owner_user_id',
                    'in',
                    eb.selectFrom('users as u').select('u.id').where('u.department_id', '=', user.department_id),
                  ),
                ])
              : eb('g.company_id', '=', user.company_id),
          ]
        : []),
    ]),
  );
}
export type VisibleSets = ReturnType<typeof visibleSets>;
