// Groups and their members in the database: plain typed queries. Members come with what decides a user's
// rights on each set (owner, its department or its owner's, the user's subscription), so rights need no query per set.
import { randomBytes } from 'node:crypto';
import type { GroupKind } from '@genset/protocol';
import type { Db } from '../../db/database.ts';

export interface GroupRow {
  id: number;
  token: string;
  company_id: number;
  name: string;
  kind: GroupKind;
  /** Item keys shown for each member. */
  items: string[];
}

export interface MemberRow {
  group_id: number;
  position: number;
  genset_id: number;
  token: string;
  name: string;
  company_id: number;
  owner_user_id: number | null;
  /** The department the set belongs to: its own, else its owner's. */
  department_id: number | null;
  subscription: string | null;
  protocol_key: string;
  modem_id: number | null;
  details: string;
}

function groupRow(row: {
  id: number;
  token: string;
  company_id: number;
  name: string;
  kind: string;
  items: string;
}): GroupRow {
  return { ...row, kind: row.kind as GroupKind, items: JSON.parse(row.items) as string[] };
}

export function createGroupRepository(db: Db) {
  const groupColumns = ['id', 'token', 'company_id', 'name', 'kind', 'items'] as const;

  return {
    async byToken(token: string): Promise<GroupRow | undefined> {
      const row = await db
        .selectFrom('genset_group')
        .select(groupColumns)
        .where('token', '=', token)
        .executeTakeFirst();
      return row ? groupRow(row) : undefined;
    },

    async byIds(ids: number[]): Promise<GroupRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('genset_group')
        .select(groupColumns)
        .where('id', 'in', ids)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map(groupRow);
    },

    /** Groups with at least one of these sets among their members. */
    async idsWithSets(gensetIds: number[], kind?: GroupKind): Promise<number[]> {
      if (gensetIds.length === 0) return [];
      let query = db
        .selectFrom('genset_group_member')
        .select('group_id')
        .distinct()
        .where('genset_id', 'in', gensetIds);
      if (kind) query = query.where('kind', '=', kind);
      return (await query.execute()).map((r) => r.group_id);
    },

    /** Members of the groups (sets not deleted), in each group's order, with the user's rights facts. */
    async members(groupIds: number[], userId: number): Promise<MemberRow[]> {
      if (groupIds.length === 0) return [];
      return db
        .selectFrom('genset_group_member as m')
        .innerJoin('genset as g', 'g.id', 'm.genset_id')
        .leftJoin('subscription as s', (join) => join.onRef('s.genset_id', '=', 'g.id').on('s.user_id', '=', userId))
        .leftJoin('users as o', 'o.id', 'g.owner_user_id')
        .select([
          'm.group_id',
          'm.position',
          'g.id as genset_id',
          'g.token',
          'g.name',
          'g.company_id',
          'g.owner_user_id',
          (eb) => eb.fn.coalesce('g.department_id', 'o.department_id').as('department_id'),
          's.rights as subscription',
          'g.protocol_key',
          'g.modem_id',
          'g.details',
        ])
        .where('m.group_id', 'in', groupIds)
        .where('g.deleted_at', 'is', null)
        .orderBy('m.group_id')
        .orderBy('m.position')
        .execute();
    },

    /** For each of these sets, the group of this kind it belongs to (other than `exceptGroupId`). */
    async takenBy(gensetIds: number[], kind: GroupKind, exceptGroupId: number | null) {
      if (gensetIds.length === 0) return [];
      let query = db
        .selectFrom('genset_group_member as m')
        .innerJoin('genset_group as gr', 'gr.id', 'm.group_id')
        .select(['m.genset_id', 'gr.name'])
        .where('m.genset_id', 'in', gensetIds)
        .where('m.kind', '=', kind);
      if (exceptGroupId !== null) query = query.where('m.group_id', '<>', exceptGroupId);
      return query.execute();
    },

    async nameTaken(companyId: number, name: string, exceptGroupId: number | null): Promise<boolean> {
      let query = db
        .selectFrom('genset_group')
        .select('id')
        .where('company_id', '=', companyId)
        .where('name', '=', name);
      if (exceptGroupId !== null) query = query.where('id', '<>', exceptGroupId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /** Writes a group and its members in one transaction: all of it or nothing. */
    async save(input: {
      id: number | null;
      companyId: number;
      name: string;
      kind: GroupKind;
      items: string[];
      gensetIds: number[];
    }): Promise<{ id: number; token: string }> {
      return db.transaction().execute(async (trx) => {
        const now = Date.now();
        let saved: { id: number; token: string };
        if (input.id === null) {
          const token = randomBytes(12).toString('base64url');
          const row = await trx
            .insertInto('genset_group')
            .values({
              token,
              company_id: input.companyId,
              name: input.name,
              kind: input.kind,
              items: JSON.stringify(input.items),
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          saved = { id: row.id, token };
        } else {
          const row = await trx
            .updateTable('genset_group')
            .set({ name: input.name, kind: input.kind, items: JSON.stringify(input.items), updated_at: now })
            .where('id', '=', input.id)
            .returning(['id', 'token'])
            .executeTakeFirstOrThrow();
          saved = row;
          await trx.deleteFrom('genset_group_member').where('group_id', '=', input.id).execute();
        }
        await trx
          .insertInto('genset_group_member')
          .values(
            input.gensetIds.map((gensetId, position) => ({
              group_id: saved.id,
              genset_id: gensetId,
              kind: input.kind,
              position,
            })),
          )
          .execute();
        return saved;
      });
    },

    async remove(id: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('genset_group_member').where('group_id', '=', id).execute();
        const result = await trx.deleteFrom('genset_group').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },

    /** The members' set ids and tokens of a group, in order (realtime watching and the multi-set grid). */
    async memberSets(groupToken: string): Promise<{ id: number; token: string }[] | undefined> {
      const group = await db.selectFrom('genset_group').select('id').where('token', '=', groupToken).executeTakeFirst();
      if (!group) return undefined;
      return db
        .selectFrom('genset_group_member as m')
        .innerJoin('genset as g', 'g.id', 'm.genset_id')
        .select(['g.id', 'g.token'])
        .where('m.group_id', '=', group.id)
        .where('g.deleted_at', 'is', null)
        .orderBy('m.position')
        .execute();
    },
  };
}
export type GroupRepository = ReturnType<typeof createGroupRepository>;
