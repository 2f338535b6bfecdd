// Who may be told about a set: its owner, its subscribers and the people of its company whose role's data
// scope reaches it (account/scope.ts), and platform administrators; each with the rights the console gives them
// on it, by the same rule (`rightsFrom`) as every other call. Disabled and deleted accounts are told nothing.
import { ALL_PERMISSIONS } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { grantOf } from '../account/service.ts';
import type { DataScopeService } from '../account/scope.ts';
import { rightsFrom, type Rights } from '../devices/fleet.ts';
import type { UserRow } from '../auth/repository.ts';

export interface Reader {
  user: UserRow;
  /** Owner or subscriber: the set is "one of mine" for the alarm scope of the settings. */
  mine: boolean;
  rights: Rights;
  permissions: string[];
}

const userColumns = (db: Db) =>
  db
    .selectFrom('users as u')
    .leftJoin('role as r', 'r.id', 'u.role_id')
    .selectAll('u')
    .select([
      'r.id as r_id',
      'r.name as r_name',
      'r.permissions as r_permissions',
      'r.menus as r_menus',
      'r.data_scope as r_data_scope',
      'r.status as r_status',
    ])
    .where('u.deleted_at', 'is', null)
    .where('u.status', '=', 'active');

type Joined = Awaited<ReturnType<ReturnType<typeof userColumns>['execute']>>[number];

/** The user row without the role's columns. */
function userOf(row: Joined): UserRow {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('r_'))) as unknown as UserRow;
}

function grantFor(row: Joined) {
  return grantOf(
    row.r_id === null
      ? null
      : {
          id: row.r_id,
          name: row.r_name ?? '',
          permissions: row.r_permissions ?? '[]',
          menus: row.r_menus ?? '[]',
          data_scope: row.r_data_scope ?? 'self',
          status: row.r_status ?? 0,
        },
  );
}

export async function readersOfSet(db: Db, scope: DataScopeService, gensetId: number): Promise<Reader[]> {
  const set = await db
    .selectFrom('genset as g')
    .leftJoin('users as o', 'o.id', 'g.owner_user_id')
    .select([
      'g.id',
      'g.company_id',
      'g.owner_user_id',
      (eb) => eb.fn.coalesce('g.department_id', 'o.department_id').as('department_id'),
    ])
    .where('g.id', '=', gensetId)
    .where('g.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!set) return [];
  const subs = await db
    .selectFrom('subscription')
    .select(['user_id', 'rights'])
    .where('genset_id', '=', gensetId)
    .execute();
  const subRights = new Map(subs.map((s) => [s.user_id, s.rights as Rights]));
  const rows = await userColumns(db)
    .where((eb) =>
      eb.or([
        eb('u.company_id', '=', set.company_id),
        eb('u.id', 'in', [set.owner_user_id ?? 0, ...subRights.keys()]),
        eb('r.permissions', 'like', `%${ALL_PERMISSIONS}%`),
      ]),
    )
    .execute();
  const out: Reader[] = [];
  for (const row of rows) {
    const grant = grantFor(row);
    const user = userOf(row);
    const rights = rightsFrom(await scope.reach(user, grant), {
      id: set.id,
      companyId: set.company_id,
      ownerUserId: set.owner_user_id,
      departmentId: set.department_id ?? null,
      subscription: subRights.get(row.id) ?? null,
    });
    if (!rights) continue;
    out.push({
      user,
      rights,
      mine: set.owner_user_id === row.id || subRights.has(row.id),
      permissions: grant.permissions,
    });
  }
  return out;
}

/** Named people (the other side of a hand-over, the requester of a repair), if their accounts are active. */
export async function readersByIds(db: Db, ids: number[]): Promise<Reader[]> {
  if (!ids.length) return [];
  const rows = await userColumns(db).where('u.id', 'in', ids).execute();
  return rows.map((row) => {
    const user = userOf(row);
    return { user, rights: 'view' as const, mine: true, permissions: grantFor(row).permissions };
  });
}

/** The people of a company who hold a permission (a service company's repair desk). */
export async function readersWithPermission(db: Db, companyId: number, permission: string): Promise<Reader[]> {
  const rows = await userColumns(db).where('u.company_id', '=', companyId).execute();
  const out: Reader[] = [];
  for (const row of rows) {
    const permissions = grantFor(row).permissions;
    if (!permissions.includes(permission) && !permissions.includes(ALL_PERMISSIONS)) continue;
    const user = userOf(row);
    out.push({ user, rights: 'view', mine: true, permissions });
  }
  return out;
}
