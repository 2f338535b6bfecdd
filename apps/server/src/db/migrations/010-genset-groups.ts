// Parallel and multi-machine groups: sets that feed one bus (parallel) or stand at one site (multi-machine),
// with their order on the group's page and the data items it shows. A set feeds at most one bus and stands
// at one site, so it belongs to at most one group of each kind; the member rows carry the kind to say so.
import type { Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import { idColumn } from './helpers.ts';

export function gensetGroups(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('genset_group'), kind)
        .addColumn('token', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
        .addColumn('name', 'varchar(60)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        // JSON array of item keys shown for each member, in order
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('genset_group_company_name', ['company_id', 'name'])
        .execute();
      await db.schema
        .createTable('genset_group_member')
        .addColumn('group_id', 'integer', (c) => c.notNull().references('genset_group.id').onDelete('cascade'))
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('genset_group_member_pk', ['group_id', 'genset_id'])
        .addUniqueConstraint('genset_group_member_kind', ['genset_id', 'kind'])
        .execute();
    },
  };
}
