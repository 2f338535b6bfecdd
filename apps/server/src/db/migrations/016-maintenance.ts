// Maintenance plans: a set's items, their tasks (one pending per item, then the done ones as history), the
// companies' templates of items per set model, and the time-limited maintenance links (`mtoken`, kept hashed).
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function maintenance(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('maintenance_item'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('cycle_days', 'integer')
        .addColumn('cycle_hours', 'double precision')
        .addColumn('remind_days', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remind_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        // the latest service the next one is counted from (YYYY-MM-DD in the set's calendar, run hours then)
        .addColumn('latest_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('latest_hours', 'double precision')
        .addColumn('planned_date', 'varchar(10)')
        .addColumn('replaced_model', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('maintenance_item_set').on('maintenance_item').column('genset_id').execute();

      await idColumn(db.schema.createTable('maintenance_task'), kind)
        .addColumn('item_id', 'integer', (c) => c.notNull().references('maintenance_item.id').onDelete('cascade'))
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        // the item's name when the task was made (history keeps it after a rename or delete)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        // pending or done
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('due_date', 'varchar(10)')
        .addColumn('due_hours', 'double precision')
        .addColumn('reminded_at', 'bigint')
        .addColumn('overdue_at', 'bigint')
        .addColumn('actual_date', 'varchar(10)')
        .addColumn('run_hours', 'double precision')
        .addColumn('replaced_model', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('done_by_user_id', 'integer')
        .addColumn('done_by', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('done_at', 'bigint')
        .execute();
      // one pending task per item: two "done" at once make one next task
      await db.schema
        .createIndex('maintenance_task_pending')
        .on('maintenance_task')
        .column('item_id')
        .unique()
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('maintenance_task_set')
        .on('maintenance_task')
        .columns(['genset_id', 'status', 'done_at'])
        .execute();

      await idColumn(db.schema.createTable('maintenance_template'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('model', 'varchar(100)', (c) => c.notNull())
        // JSON: [{ name, cycleDays, cycleHours, remindDays, remindHours, replacedModel, remark }]
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('maintenance_template_company')
        .on('maintenance_template')
        .column('company_id')
        .execute();

      await idColumn(db.schema.createTable('maintenance_link'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('maintenance_link_set').on('maintenance_link').column('genset_id').execute();
    },
  };
}
