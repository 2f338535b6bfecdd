// Web Push: the browsers (phones, desktops) a person asked to be notified on (`push_subscription`: the push
// service's address for that browser and the keys its messages are encrypted with), and the installation's
// VAPID key pair (`push_key`, one row, made on first use) by which push services know the messages are ours.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function pushSubscriptions(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('push_subscription'), kind)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'varchar(1000)', (c) => c.notNull().unique())
        .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
        .addColumn('auth', 'varchar(100)', (c) => c.notNull())
        .addColumn('label', 'varchar(120)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_success_at', 'bigint')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('push_subscription_user').on('push_subscription').column('user_id').execute();
      await db.schema
        .createTable('push_key')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('private_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
