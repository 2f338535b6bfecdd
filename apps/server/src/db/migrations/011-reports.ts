// Saved set reports: every save of a set's report of one type is a new row with the next version number, so
// earlier versions stay readable and nothing a technician saved is overwritten.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function reports(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('report'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        // The period as the set's own calendar days, YYYY-MM-DD, both included.
        .addColumn('period_from', 'text', (c) => c.notNull())
        .addColumn('period_to', 'text', (c) => c.notNull())
        .addColumn('form', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        // Who saved it, as they were named then (the account may be renamed or deleted later).
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('report_set_type_version', ['genset_id', 'type', 'version'])
        .execute();
    },
  };
}
