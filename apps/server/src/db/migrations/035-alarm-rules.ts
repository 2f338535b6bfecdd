// A company's threshold alarms (`alarm_rule`): an item of its sets' values, a threshold it must be above or below
// for a delay before the alarm is raised, a hysteresis before it clears, a level, and the sets it watches (every
// set of the company, the sets of chosen controller models, or chosen sets: `targets`, JSON). The alarms it raises
// are rows of `alarm` with the code `rule:<id>`.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function alarmRules(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('alarm_rule'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('name', 'varchar(60)', (c) => c.notNull())
        .addColumn('item', 'varchar(64)', (c) => c.notNull())
        .addColumn('op', 'varchar(8)', (c) => c.notNull())
        .addColumn('threshold', 'double precision', (c) => c.notNull())
        .addColumn('hysteresis', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('delay_s', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('level', 'varchar(16)', (c) => c.notNull())
        .addColumn('scope', 'varchar(16)', (c) => c.notNull())
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alarm_rule_company').on('alarm_rule').column('company_id').execute();
    },
  };
}
