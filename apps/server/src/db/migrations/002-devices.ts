// Devices and their data: protocols (register maps), cloud modules, gensets, subscriptions, the latest
// values, every stored sample, status changes, alarms, rollups, commands.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function devices(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('protocol'), kind)
        .addColumn('protocol_key', 'varchar(60)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('published_at', 'bigint')
        .addUniqueConstraint('protocol_key_version', ['protocol_key', 'version'])
        .execute();

      await idColumn(db.schema.createTable('modem'), kind)
        .addColumn('modem_key', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
        .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('firmware', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('imei', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('iccid', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen_at', 'bigint')
        .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('telemetry', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('genset'), kind)
        .addColumn('token', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
        .addColumn('owner_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('modem_id', 'integer', (c) => c.references('modem.id').onDelete('set null'))
        .addColumn('port', 'varchar(32)', (c) => c.notNull().defaultTo('port1'))
        .addColumn('address', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('protocol_key', 'varchar(60)', (c) => c.notNull())
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
        .addColumn('subscription_code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('control_code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('genset_company').on('genset').column('company_id').execute();
      await db.schema.createIndex('genset_modem').on('genset').columns(['modem_id', 'port', 'address']).execute();

      await idColumn(db.schema.createTable('subscription'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('rights', 'varchar(10)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('subscription_user_set', ['user_id', 'genset_id'])
        .execute();

      await db.schema
        .createTable('set_latest')
        .addColumn('genset_id', 'integer', (c) => c.primaryKey().references('genset.id').onDelete('cascade'))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('alarm_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('values', 'text', (c) => c.notNull())
        .addColumn('device_ts', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      // Every snapshot a module sent, once: (modem, seq) is the idempotency key.
      await idColumn(db.schema.createTable('sample'), kind)
        .addColumn('modem_id', 'integer', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('genset_id', 'integer', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('values', 'text', (c) => c.notNull())
        .addUniqueConstraint('sample_modem_seq', ['modem_id', 'seq'])
        .execute();
      await db.schema.createIndex('sample_set_time').on('sample').columns(['genset_id', 'ts']).execute();

      await idColumn(db.schema.createTable('status_change'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('previous', 'integer')
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('status_change_set_time').on('status_change').columns(['genset_id', 'ts']).execute();

      await idColumn(db.schema.createTable('alarm'), kind)
        .addColumn('genset_id', 'integer', (c) => c.notNull())
        .addColumn('code', 'varchar(60)', (c) => c.notNull())
        .addColumn('level', 'varchar(20)', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('start_ts', 'bigint', (c) => c.notNull())
        .addColumn('end_ts', 'bigint')
        .addColumn('acknowledged', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('alarm_set_state').on('alarm').columns(['genset_id', 'end_ts', 'start_ts']).execute();

      for (const table of ['rollup_hour', 'rollup_day']) {
        await db.schema
          .createTable(table)
          .addColumn('genset_id', 'integer', (c) => c.notNull())
          .addColumn('bucket', 'bigint', (c) => c.notNull())
          .addColumn('stats', 'text', (c) => c.notNull())
          .addColumn('samples', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['genset_id', 'bucket'])
          .execute();
      }

      await idColumn(db.schema.createTable('command'), kind)
        .addColumn('request_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('genset_id', 'integer')
        .addColumn('modem_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('name', 'varchar(80)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('reply', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
    },
  };
}
