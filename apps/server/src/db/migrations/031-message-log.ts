// The delivery log: every SMS, e-mail and push message the server sends (one-time codes, notices, tests), with the
// provider that took it, its answer and each try. A recipient is kept masked for reading and as a keyed hash for
// the per-number limits, never whole: the log shows who was reached without becoming a list of numbers.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function messageLog(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('message_log'), kind)
        .addColumn('company_id', 'integer')
        .addColumn('user_id', 'integer')
        // sms, email, push
        .addColumn('channel', 'varchar(8)', (c) => c.notNull())
        // what it was for: a code's purpose (login, register, reset …), notice, lock, test
        .addColumn('purpose', 'varchar(24)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(80)', (c) => c.notNull())
        .addColumn('recipient_key', 'varchar(64)', (c) => c.notNull())
        // outbox, twilio, aliyun, smtp, webpush: the one that took it (or the last one tried)
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_id', 'varchar(100)')
        // sending, sent, delivered, failed, throttled
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // invalid-recipient, quota, blocked-content, unauthorized, unavailable, rejected
        .addColumn('error_kind', 'varchar(24)')
        .addColumn('error', 'varchar(500)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('message_log_company').on('message_log').columns(['company_id', 'id']).execute();
      await db.schema
        .createIndex('message_log_recipient')
        .on('message_log')
        .columns(['recipient_key', 'created_at'])
        .execute();
      await db.schema
        .createIndex('message_log_provider_id')
        .on('message_log')
        .columns(['provider', 'provider_id'])
        .execute();
    },
  };
}
