// A company's alarm policy (`company_alarm_policy`, one row a company; none: the defaults): how long an alarm may
// stay cleared and still continue its episode when it comes back (`hold_s`), and whom an episode nobody acknowledged
// is escalated to after how long (`escalate_after_s`, null: never; `escalate_to`, JSON user ids). An alarm records
// when it was escalated (`alarm.escalated_at`), so it is escalated once.
import type { Kysely } from 'kysely';

export function alarmPolicy() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('company_alarm_policy')
        .addColumn('company_id', 'integer', (c) => c.primaryKey().references('company.id').onDelete('cascade'))
        .addColumn('hold_s', 'integer', (c) => c.notNull().defaultTo(60))
        .addColumn('escalate_after_s', 'integer')
        .addColumn('escalate_to', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('alarm').addColumn('escalated_at', 'bigint').execute();
    },
  };
}
