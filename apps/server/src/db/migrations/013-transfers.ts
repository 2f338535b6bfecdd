// Handing a set over (spec 3 "Handover"): who hands it over, who receives it, what the sender keeps of it,
// the record's status and when it was handed over and processed. A set has at most one untreated handover at
// a time, which a partial unique index holds against two requests at once.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function transfers(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('transfer'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('to_user_id', 'integer', (c) => c.notNull().references('users.id'))
        // untreated, accepted, rejected, revoked
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        // none, view, control: the subscription the sender keeps once the receiver accepts
        .addColumn('keep_subscription', 'varchar(16)', (c) => c.notNull())
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('processed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('transfer_untreated_set')
        .on('transfer')
        .column('genset_id')
        .unique()
        .where(sql.ref('status'), '=', 'untreated')
        .execute();
      await db.schema.createIndex('transfer_from').on('transfer').columns(['from_user_id', 'created_at']).execute();
      await db.schema.createIndex('transfer_to').on('transfer').columns(['to_user_id', 'created_at']).execute();
    },
  };
}
