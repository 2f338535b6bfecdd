// Roles' chosen sets and stations (a `custom` data scope), member invitations and the applications made
// through them.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function rolesInvitations(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      // What a role with the `custom` data scope may see: sets (kind 'set', target_id = genset.id) and
      // storage stations (kind 'site', target_id = site.id).
      await idColumn(db.schema.createTable('role_target'), kind)
        .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addUniqueConstraint('role_target_unique', ['role_id', 'kind', 'target_id'])
        .execute();
      await db.schema.createIndex('role_target_target').on('role_target').columns(['kind', 'target_id']).execute();

      // A link that lets a person apply to join a company, with the role and department it proposes.
      await idColumn(db.schema.createTable('invitation'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('code', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('role_id', 'integer', (c) => c.references('role.id').onDelete('set null'))
        .addColumn('department_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
        .addColumn('max_uses', 'integer', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invitation_company')
        .on('invitation')
        .columns(['company_id', 'created_at'])
        .execute();

      // A person's application to join through an invitation, until an administrator approves or rejects it.
      await idColumn(db.schema.createTable('member_application'), kind)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id').onDelete('cascade'))
        .addColumn('invitation_id', 'integer', (c) => c.references('invitation.id').onDelete('set null'))
        .addColumn('invite_code', 'varchar(40)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // pending | approved | rejected
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .addColumn('reviewed_at', 'bigint')
        .addColumn('reviewed_by', 'integer')
        .addColumn('role_id', 'integer')
        .addColumn('department_id', 'integer')
        .execute();
      await db.schema
        .createIndex('member_application_company')
        .on('member_application')
        .columns(['company_id', 'status', 'applied_at'])
        .execute();
      await db.schema
        .createIndex('member_application_user')
        .on('member_application')
        .columns(['user_id', 'company_id'])
        .execute();
    },
  };
}
