// Accounts, sessions, sign-in throttling, menus and the operation log.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function accounts(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('company'), kind)
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('title', 'varchar(120)', (c) => c.notNull())
        .addColumn('logo', 'varchar(500)')
        .addColumn('baidu_key', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('index_template', 'varchar(40)', (c) => c.notNull().defaultTo('default'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();

      await db.schema
        .createTable('company_host')
        .addColumn('host', 'varchar(253)', (c) => c.primaryKey())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .execute();

      await idColumn(db.schema.createTable('department'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer')
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('role'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('role_key', 'varchar(60)', (c) => c.notNull())
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('menus', 'text', (c) => c.notNull())
        .addColumn('data_scope', 'varchar(20)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('role_company_key', ['company_id', 'role_key'])
        .execute();

      await idColumn(db.schema.createTable('users'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
        .addColumn('department_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
        .addColumn('role_id', 'integer', (c) => c.references('role.id').onDelete('set null'))
        // null once the account is deleted: the row stays for the audit trail, the person's data does not.
        .addColumn('account', 'varchar(254)', (c) => c.unique())
        .addColumn('account_kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('nickname', 'varchar(80)', (c) => c.notNull())
        .addColumn('type', 'varchar(20)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(200)')
        .addColumn('invite_code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('message_settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('users_company').on('users').column('company_id').execute();

      await idColumn(db.schema.createTable('session'), kind)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('revoke_reason', 'varchar(20)')
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('session_user').on('session').column('user_id').execute();

      await idColumn(db.schema.createTable('sms_code'), kind)
        .addColumn('target', 'varchar(254)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('sms_code_target').on('sms_code').columns(['target', 'created_at']).execute();

      await db.schema
        .createTable('auth_throttle')
        .addColumn('throttle_key', 'varchar(300)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .execute();

      await idColumn(db.schema.createTable('menu'), kind)
        .addColumn('parent_id', 'integer')
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('type', 'varchar(1)', (c) => c.notNull())
        .addColumn('url', 'varchar(300)', (c) => c.notNull())
        .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
        .addColumn('ico', 'varchar(80)', (c) => c.notNull())
        .addColumn('component', 'varchar(120)', (c) => c.notNull())
        .addColumn('visible', 'integer', (c) => c.notNull())
        .addColumn('external', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('permission', 'varchar(80)')
        .execute();

      await idColumn(db.schema.createTable('operation_log'), kind)
        .addColumn('company_id', 'integer')
        .addColumn('user_id', 'integer')
        .addColumn('account', 'varchar(254)')
        .addColumn('nickname', 'varchar(80)')
        .addColumn('matter', 'varchar(200)', (c) => c.notNull())
        .addColumn('feedback', 'varchar(1000)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('target', 'varchar(120)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('operation_log_company_time')
        .on('operation_log')
        .columns(['company_id', 'created_at'])
        .execute();

      // The platform company always exists and is the first row (id 1), with or without demo data.
      await sql`insert into company (name, title, logo, baidu_key, index_template, created_at)
        values ('Genset Cloud', 'Genset Cloud Console', null, '', 'default', ${Date.now()})`.execute(db);
    },
  };
}
