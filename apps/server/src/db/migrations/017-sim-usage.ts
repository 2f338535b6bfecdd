// SIM cards and their data use: one row per card (ICCID) with its plan and the last counter reading taken,
// and the bytes used per day (the set's calendar) and per billing month. Modules also report their IMSI.
import type { Kysely } from 'kysely';

export function simUsage() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('modem')
        .addColumn('imsi', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();

      await db.schema
        .createTable('sim_card')
        .addColumn('iccid', 'varchar(32)', (c) => c.primaryKey())
        // the plan: size in MB (1 MB = 1,048,576 bytes), the day of the month its billing month starts on,
        // and the share of it (per cent) past which the set's people are told
        .addColumn('plan_mb', 'double precision')
        .addColumn('start_day', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('alarm_share', 'integer', (c) => c.notNull().defaultTo(80))
        // the latest reading counted: the module's time and its cumulative counters then (none yet: the
        // next reading is where counting starts)
        .addColumn('last_ts', 'bigint')
        .addColumn('last_rx', 'bigint')
        .addColumn('last_tx', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sim_usage_day')
        .addColumn('iccid', 'varchar(32)', (c) => c.notNull())
        // YYYY-MM-DD in the time zone of the card's set
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('rx_bytes', 'bigint', (c) => c.notNull())
        .addColumn('tx_bytes', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sim_usage_day_pk', ['iccid', 'day'])
        .execute();

      await db.schema
        .createTable('sim_usage_month')
        .addColumn('iccid', 'varchar(32)', (c) => c.notNull())
        // YYYY-MM: the billing month that starts on the card's start day of that calendar month
        .addColumn('month', 'varchar(7)', (c) => c.notNull())
        .addColumn('rx_bytes', 'bigint', (c) => c.notNull())
        .addColumn('tx_bytes', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sim_usage_month_pk', ['iccid', 'month'])
        .execute();
    },
  };
}
