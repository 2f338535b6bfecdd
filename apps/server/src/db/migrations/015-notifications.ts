// Notifications: what happened (`notification_event`, written in the transaction of the change itself, so an
// alarm committed is an alarm notified), what each person finds in the message centre (`notification`), what
// goes out by e-mail, SMS or webhook (`notification_delivery`, a durable outbox: a row is sent, retried or
// given up, never forgotten), the companies' webhooks, and the leases that let one instance of a deployment
// run each background job at a time (`job_lease`).
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function notifications(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('notification_event'), kind)
        .addColumn('kind', 'varchar(40)', (c) => c.notNull())
        .addColumn('company_id', 'integer')
        .addColumn('genset_id', 'integer')
        .addColumn('payload', 'text', (c) => c.notNull())
        // one event per happening, however many times it is reported (a scheduler's reminder, a retried call)
        .addColumn('dedupe_key', 'varchar(160)', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('processed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('notification_event_pending')
        .on('notification_event')
        .columns(['processed_at', 'id'])
        .execute();

      await idColumn(db.schema.createTable('notification'), kind)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(40)', (c) => c.notNull())
        .addColumn('level', 'varchar(16)', (c) => c.notNull())
        .addColumn('genset_id', 'integer')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .addUniqueConstraint('notification_user_event', ['user_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('notification_user_time')
        .on('notification')
        .columns(['user_id', 'created_at'])
        .execute();

      await idColumn(db.schema.createTable('webhook'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('url', 'varchar(500)', (c) => c.notNull())
        .addColumn('secret', 'varchar(100)', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('notification_delivery'), kind)
        .addColumn('event_id', 'integer', (c) => c.notNull())
        .addColumn('company_id', 'integer')
        .addColumn('user_id', 'integer')
        .addColumn('webhook_id', 'integer')
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        .addColumn('target', 'varchar(500)', (c) => c.notNull())
        // deliveries of one group (one set's alarms to one person on one channel) go out as one message
        .addColumn('group_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('not_before', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addUniqueConstraint('notification_delivery_once', ['event_id', 'channel', 'target'])
        .execute();
      await db.schema
        .createIndex('notification_delivery_due')
        .on('notification_delivery')
        .columns(['status', 'not_before'])
        .execute();
      await db.schema
        .createIndex('notification_delivery_webhook')
        .on('notification_delivery')
        .columns(['webhook_id', 'id'])
        .execute();

      await db.schema
        .createTable('job_lease')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(100)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
