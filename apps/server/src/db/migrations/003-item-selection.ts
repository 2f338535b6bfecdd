// Each user's choice and order of realtime data items per set (absent: the protocol's default items).
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function itemSelection(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('item_selection'), kind)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('item_selection_user_set', ['user_id', 'genset_id'])
        .execute();
    },
  };
}
