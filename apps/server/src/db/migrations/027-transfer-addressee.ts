// A handover names its receiver by account: the name as the sender gave it is kept with the record, and the
// receiving user is empty when no such account exists. The sender's answer and lists are then the same whether
// or not the account exists (nobody learns who has an account by handing sets over); such a record is never
// answered and stays with the sender until they revoke it. SQLite cannot drop a NOT NULL, so there the table is
// rebuilt with its rows and indexes.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function transferAddressee(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`alter table transfer alter column to_user_id drop not null`.execute(db);
        await db.schema.alterTable('transfer').addColumn('to_account', 'varchar(100)').execute();
      } else {
        await idColumn(db.schema.createTable('transfer_next'), kind)
          .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
          .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('to_user_id', 'integer', (c) => c.references('users.id'))
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('keep_subscription', 'varchar(16)', (c) => c.notNull())
          .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('processed_at', 'bigint')
          .addColumn('to_account', 'varchar(100)')
          .execute();
        await sql`insert into transfer_next (id, genset_id, from_user_id, to_user_id, status, keep_subscription,
          remark, created_at, processed_at)
          select id, genset_id, from_user_id, to_user_id, status, keep_subscription, remark, created_at, processed_at
          from transfer`.execute(db);
        await db.schema.dropTable('transfer').execute();
        await sql`alter table transfer_next rename to transfer`.execute(db);
        await db.schema
          .createIndex('transfer_untreated_set')
          .on('transfer')
          .column('genset_id')
          .unique()
          .where(sql.ref('status'), '=', 'untreated')
          .execute();
        await db.schema.createIndex('transfer_from').on('transfer').columns(['from_user_id', 'created_at']).execute();
        await db.schema.createIndex('transfer_to').on('transfer').columns(['to_user_id', 'created_at']).execute();
      }
      // the records so far name an existing account
      await sql`update transfer set to_account = (select account from users where users.id = transfer.to_user_id)`.execute(
        db,
      );
    },
  };
}
